"""Bullet marks OCR reads as words: they are not text, so no rewrite takes or erases them.

A list's bullet dot is read by tesseract as a one-character word at the head of its line ("e",
"o", "•", "*", "-", "«", "@", "¢", ...), sometimes as two ("e@" for a 6 px dot of a sans
page). Left in the editor's lines it becomes part of a rewritten span (the dot erased, the line
set 33 px to the left: issue 17) or makes a label look like a word of running text. The editor
works on the page's lines without these words; their pixels stay busy (``placement.busy_mask``
marks every edge), so nothing is written over them.

A legend's colour swatch (or an icon) before an entry is read into the entry's first word: OCR
reads "year" over the swatch and the word ("year Last" with the swatch's 17 columns in the box
of "year"), so the entry's box starts at the swatch, the legend's entries no longer share a left
edge, and no legend entry is found there. That word's box is cut to the ink after the swatch
(``without_swatch``); the swatch's pixels stay busy.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from rewards.text.ocr.text_match import Line, Word

MARKS = set("•·▪◦‣●○■□▫◆◇►▸*-–—«»@©®¢°#+")
"""One-character words that are a bullet mark at the head of a line, whatever their pixels."""
LETTER_MARKS = set("eoOa")
"""Letters tesseract reads a solid dot as: a bullet only when its pixels are a solid blob."""
SOLID = 0.55
"""Least share of a letter mark's box that is ink for it to be a dot, not a letter (a filled disc
covers pi/4 = 0.79 of its box; an "e" or "o" drawn in a text face about 0.3 to 0.45)."""


def _ink_around(arr: np.ndarray, box, min_w: int, min_h: int) -> tuple[np.ndarray | None, int]:
    """The ink of ``box`` of ``arr`` (uint8 (H, W, 3)) grown by 2 px: bool (h, w), pixels more than 60
    in luminance off the median of the crop's 2 px border ring; and the crop's left x (px). None when
    the grown crop is narrower than ``min_w`` or lower than ``min_h``."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - 2), max(0, box[1] - 2), min(W, box[2] + 2), min(H, box[3] + 2)
    if x1 - x0 < min_w or y1 - y0 < min_h:
        return None, x0
    lum = arr[y0:y1, x0:x1].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    ring = np.concatenate([lum[0], lum[-1], lum[:, 0], lum[:, -1]])
    return np.abs(lum - np.median(ring)) > 60, x0


def is_dot(arr: np.ndarray, box) -> bool:
    """True when ``box`` (x0, y0, x1, y1) of ``arr`` (uint8 (H, W, 3)) is a solid blob, a bullet
    dot, not a letter or a word: its pixels far (> 60 in
    luminance) from the median of a 2 px ring around it, one connected shape (a bold "Is" opening
    a question is two glyphs: taken for a dot, it was dropped from the line and the rewrite of the
    rest wrote "Is Is my data ..."), cover at least ``SOLID`` of their tight box, with no enclosed
    hole (a letter's counter) over 5% of it."""
    ink, _ = _ink_around(arr, box, 3, 3)
    if ink is None:
        return False
    ys, xs = np.nonzero(ink)
    if not len(ys):
        return False
    tight = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    holes = ndimage.binary_fill_holes(tight) & ~tight  # the counters of "o", "e", "a"
    _, shapes = ndimage.label(tight, structure=np.ones((3, 3)))
    return shapes == 1 and float(tight.mean()) >= SOLID and holes.sum() <= 0.05 * tight.size


def is_bullet(arr: np.ndarray, line: Line) -> bool:
    """True when ``line`` starts with a bullet mark: a first word of one or two characters
    followed by other words, no wider or taller than the line, that is one of ``MARKS``, or one
    of ``LETTER_MARKS`` or a two-character word whose pixels are a solid dot (``is_dot``: the
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
    return (len(text) == 2 or text in LETTER_MARKS) and is_dot(arr, first.box)


SWATCH_FILL = 0.85
"""Least share of its tight box a leading block of ink covers to be a swatch (a filled square)."""


def swatch_end(arr: np.ndarray, box) -> int | None:
    """The first column (x, px) after a solid swatch at the left of a word's ``box`` of ``arr``
    (uint8 (H, W, 3)), or None. The swatch is the first run of inked columns (a pixel more than
    60 in luminance off the median of the 2 px ring around the box): at least half the box's
    height wide and 0.4 of it high, no wider than 4 times its height (matplotlib draws a bar
    series' handle 2 em by 0.7 em), filling ``SWATCH_FILL`` of its tight
    box, followed by at least 3 blank columns and more ink (the word)."""
    ink, x0 = _ink_around(arr, box, 8, 6)
    if ink is None:
        return None
    cols = ink.any(0)
    if not cols.any():
        return None
    a = int(np.argmax(cols))
    b = a
    while b < len(cols) and cols[b]:
        b += 1
    rest = np.nonzero(cols[b:])[0]
    if not len(rest) or rest[0] < 3:
        return None
    rows = np.nonzero(ink[:, a:b].any(1))[0]
    hgt, wid = box[3] - box[1], b - a
    tall = int(rows[-1] - rows[0] + 1)
    solid = ink[rows[0] : rows[-1] + 1, a:b].mean() >= SWATCH_FILL
    if not (solid and wid >= 0.5 * hgt and tall >= 0.4 * hgt and wid <= 4 * tall):
        return None
    return x0 + b + int(rest[0])


def without_swatch(arr: np.ndarray, line: Line) -> Line:
    """``line`` with its first word's box cut to the ink after a swatch read into it
    (``swatch_end``); the line as it is when there is none."""
    if not line.words or len(line.words[0].text.strip()) < 2:
        return line
    first = line.words[0]
    end = swatch_end(arr, first.box)
    if end is None or end >= first.box[2]:
        return line
    cut = Word(first.text, (end, first.box[1], first.box[2], first.box[3]), first.conf)
    return Line((cut, *line.words[1:]), line.angle)


def without_bullets(arr: np.ndarray, lines: list[Line]) -> list[Line]:
    """``lines`` of the page ``arr`` (uint8 (H, W, 3)) with the leading bullet mark of each line
    (``is_bullet``) taken out and a swatch read into its first word cut off (``without_swatch``);
    the other lines as they are."""
    return [without_swatch(arr, Line(ln.words[1:], ln.angle) if is_bullet(arr, ln) else ln) for ln in lines]
