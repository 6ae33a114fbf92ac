"""The end columns of a rewritten row: new ink there only where the old text had ink.

An engine reports a text's advance box; a glyph's serif or round side can overhang it by a faint
anti-aliased column (Chromium inks the column left of its box with the top serif of DejaVu
Serif's "V", in one row). PIL sets the same glyph with its serif a row lower, so a rewrite
registered on the old ink inks that column in a row the engine left blank: a pixel changed
outside the element's box (the "V" of a menu's "Vanilla Ice Cream" on dev Chromium menus, the
"A" of "Avocado"). In the columns at each end of the old text's ink that hold only faint ink (an
overhang: no pixel more than ``FAINT`` of the way from the background to the ink), the rewrite
keeps its coverage only where the old text had ink (more than ``INK_LEVELS`` off the
background). An end where the new row runs past the old ink (a lengthened string) is not
trimmed: the new glyphs there are the string's own; nor is an end where the new string has
another glyph than the old (``same_start``, ``same_end``): "How" set before the old "do" put the
"H"'s stem in the old "d"'s faint column, and trimmed to the "d"'s bowl it left a stub of the "d"
beside the "H" (read "|How").
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.set_width import ink_span
from refine.editors.text.type_match import coverage

FAINT = 0.5
"""Largest coverage (0-1, between background and ink) a column of the old text may hold anywhere in
its rows to be an overhang column."""
EDGE = 2
"""Most overhang columns at each end of the old ink."""
INK_LEVELS = 8
"""Per-channel difference (0-255) from the background past which an old pixel is ink (as
``set_width.ink_span`` counts it)."""


def trim_edges(
    alpha: np.ndarray,
    origin: tuple[int, int],
    arr: np.ndarray,
    box,
    ink,
    bg,
    same_start: bool = True,
    same_end: bool = True,
) -> np.ndarray:
    """``alpha`` (the new row's coverage, float (h, w) in [0, 1], drawn with its top-left at
    ``origin`` (x, y)) with its pixels in the old text's overhang columns (module docstring) set to
    0 where the old page ``arr`` (uint8 (H, W, 3), before the erase) shows no ink; ``box`` is the
    old text's box (x0, y0, x1, y1), ``ink``/``bg`` its colours; ``same_start``/``same_end``: the
    new string begins/ends with the old one's glyph (else that end is not trimmed). Returns a new array (or
    ``alpha`` itself when nothing is trimmed)."""
    old = ink_span(arr, box, bg)
    cols = np.nonzero((alpha >= 1 / 255).any(0))[0]
    if old is None or not len(cols):
        return alpha
    H, W = arr.shape[:2]
    ox, oy = origin
    h, w = alpha.shape
    y0, y1 = max(0, oy), min(H, oy + h)
    ry0, ry1 = max(0, int(box[1])), min(H, int(box[3]))
    if y1 <= y0 or ry1 <= ry0:
        return alpha
    a, b = ox + int(cols[0]), ox + int(cols[-1]) + 1  # the new row's inked columns
    strength = coverage(arr[ry0:ry1, old[0] : old[1]], ink, bg).max(0)  # per old column
    ends = []
    if a >= old[0] and same_start:  # the new row starts inside the old ink: its left end is trimmed
        ends += [x for x in range(old[0], min(old[0] + EDGE, old[1])) if _overhang(strength, x - old[0], 1)]
    if b <= old[1] and same_end:  # and it ends inside it: its right end
        ends += [
            x
            for x in range(old[1] - 1, max(old[1] - 1 - EDGE, old[0] - 1), -1)
            if _overhang(strength, old[1] - 1 - x, -1)
        ]
    ends = [x for x in ends if ox <= x < ox + w]
    if not ends:
        return alpha
    out = np.array(alpha, dtype=np.float32)
    for x in ends:
        was_ink = np.abs(arr[y0:y1, x].astype(np.int16) - np.asarray(bg, np.int16)).max(1) > INK_LEVELS
        col = out[y0 - oy : y1 - oy, x - ox]
        col[~was_ink] = 0.0
    return out


def _overhang(strength: np.ndarray, k: int, step: int) -> bool:
    """Whether the ``k``-th column from one end of the old ink (``step`` 1: the left end, -1: the
    right) and every column between it and that end hold only faint ink (``FAINT``)."""
    seq = strength if step == 1 else strength[::-1]
    return k < len(seq) and bool((seq[: k + 1] < FAINT).all())
