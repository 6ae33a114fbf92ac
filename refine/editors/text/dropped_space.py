"""A space OCR dropped: the near match reads the string without a space the pixels show.

Tesseract reads a small tick label "4 pm" as "4pm" (its space is 4 px at 14 px type); the judge
answered "reads '4pm', not '4 pm'" and the editor retyped the correct label (302 px changed,
fresh10-heatmap-1). When the near match differs from the string only in spaces, its pixels decide:
a blank run of columns across the box at least ``SPACE_SHARE`` of the box's height wide is a
space (a sans space is 0.28 to 0.32 em, the gap between two letters under 0.1 em); when the box
shows as many of them as the string has spaces, the string is on the page and is not retyped. A
glyph beside the dropped space may be read as its look-alike ("How do! reset my password?" for
"How do I reset my password?", fresh10-faq-5: the correct question was retyped after the judge's
"no"); a word missing ("How do reset") is no dropped space and is rewritten.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.colours import box_colours
from rewards.text.ocr.text_match import LOOKALIKES, normalize

SPACE_SHARE = 0.18
"""Least width of a space, as a share of the matched box's height (an em is about that height)."""


def _spaces(arr: np.ndarray, box) -> int:
    """How many blank runs of columns at least ``SPACE_SHARE`` of ``box``'s height wide lie between
    the first and last inked column of ``box`` of ``arr`` (uint8 (H, W, 3)); ink is a pixel nearer
    the box's ink colour than its background."""
    x0, y0, x1, y1 = (int(v) for v in box)
    crop = arr[y0:y1, x0:x1].astype(np.int16)
    if crop.size == 0:
        return 0
    ink, bg = box_colours(arr, box)
    near_ink = np.abs(crop - np.array(ink)).sum(2) < np.abs(crop - np.array(bg)).sum(2)
    cols = np.flatnonzero(near_ink.any(0))
    if len(cols) < 2:
        return 0
    gaps = np.diff(cols) - 1
    return int((gaps >= SPACE_SHARE * (y1 - y0)).sum())


MERGED = {**LOOKALIKES, ord("!"): "1"}
"""Look-alikes folded before comparing (``LOOKALIKES``, and "!": OCR reads "do I" as "do!")."""


def _fold(text: str) -> str:
    """``text`` normalized, look-alikes folded (``MERGED``), then case folded."""
    return normalize(text).translate(MERGED).casefold()


def space_drawn(arr: np.ndarray, box, seen: str, target: str) -> bool:
    """True when ``seen`` (the OCR text in ``box``) is ``target`` with spaces dropped (a glyph beside
    a dropped space may be read as its look-alike: "How do! reset" for "How do I reset"), and the
    pixels of ``box`` show as many spaces as ``target`` holds (module docstring)."""
    a, b = _fold(seen), _fold(target)
    if a.count(" ") >= b.count(" ") or a.replace(" ", "") != b.replace(" ", ""):
        return False
    return _spaces(arr, box) >= b.count(" ")
