"""Bullet marks OCR reads as words: they are not text, so no rewrite takes or erases them.

A list's bullet dot is read by tesseract as a one-character word at the head of its line ("e",
"o", "•", "*", "-", "«", "@", "¢", ...), sometimes as two ("e@" for a 6 px dot of a sans
page). Left in the editor's lines it becomes part of a rewritten span (the dot erased, the line
set 33 px to the left: issue 17) or makes a label look like a word of running text. The editor
works on the page's lines without these words; their pixels stay busy (``placement.busy_mask``
marks every edge), so nothing is written over them.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from rewards.text.ocr.text_match import Line

MARKS = set("•·▪◦‣●○■□▫◆◇►▸*-–—«»@©®¢°#+")
"""One-character words that are a bullet mark at the head of a line, whatever their pixels."""
LETTER_MARKS = set("eoOa")
"""Letters tesseract reads a solid dot as: a bullet only when its pixels are a solid blob."""
SOLID = 0.55
"""Least share of a letter mark's box that is ink for it to be a dot, not a letter (a filled disc
covers pi/4 = 0.79 of its box; an "e" or "o" drawn in a text face about 0.3 to 0.45)."""


def _solid(arr: np.ndarray, box) -> bool:
    """True when ``box`` of ``arr`` (uint8 (H, W, 3)) is a solid blob: its pixels far (> 60 in
    luminance) from the median of a 2 px ring around it cover at least ``SOLID`` of their tight
    box, with no enclosed hole (a letter's counter) over 5% of it."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - 2), max(0, box[1] - 2), min(W, box[2] + 2), min(H, box[3] + 2)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    lum = arr[y0:y1, x0:x1].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    ring = np.concatenate([lum[0], lum[-1], lum[:, 0], lum[:, -1]])
    ink = np.abs(lum - np.median(ring)) > 60
    ys, xs = np.nonzero(ink)
    if not len(ys):
        return False
    tight = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    holes = ndimage.binary_fill_holes(tight) & ~tight  # the counters of "o", "e", "a"
    return float(tight.mean()) >= SOLID and holes.sum() <= 0.05 * tight.size


def is_bullet(arr: np.ndarray, line: Line) -> bool:
    """True when ``line`` starts with a bullet mark: a first word of one or two characters
    followed by other words, no wider or taller than the line, that is one of ``MARKS``, or one
    of ``LETTER_MARKS`` or a two-character word whose pixels are a solid dot (``_solid``: the
    pixels decide, not what OCR made of them; "e@" of a bullet, but not "Q1" or "to")."""
    if len(line.words) < 2:
        return False
    first = line.words[0]
    text = first.text.strip()
    if not 1 <= len(text) <= 2:
        return False
    x0, y0, x1, y1 = first.box
    height = max(wd.box[3] - wd.box[1] for wd in line.words[1:])
    if x1 - x0 > height or y1 - y0 > height:
        return False
    if len(text) == 1 and text in MARKS:
        return True
    return (len(text) == 2 or text in LETTER_MARKS) and _solid(arr, first.box)


def without_bullets(arr: np.ndarray, lines: list[Line]) -> list[Line]:
    """``lines`` of the page ``arr`` (uint8 (H, W, 3)) with the leading bullet mark of each line
    (``is_bullet``) taken out; the other lines as they are."""
    return [Line(ln.words[1:], ln.angle) if is_bullet(arr, ln) else ln for ln in lines]
