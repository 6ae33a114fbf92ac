"""A symbol OCR left unread before the words it rewrites ("&" of "& Harbor Co ..."): erased too.

OCR often drops a lone symbol word: tesseract read the swapped title "& Harbor Co Growth
Dashboard" as "Harbor Co Growth Dashboard", and the rewrite of "Harbor & Co Growth Dashboard"
into those words left the "&" standing before it ("& Harbor & Co ..."). When the string holds a
symbol token (no letter or digit: "&", "+", "/") that the read text lacks, and the block's one
line has, within ``REACH`` line heights before its first word, one run of unread ink as tall as
``TALL`` of the line (a glyph, not a bullet dot or a rule), that run is the dropped symbol: the
block starts at it (its box, its left edge for a left-aligned line, its text), so the erase takes
it and the rewrite starts where it started.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from refine.editors.text.layout import Block

REACH = 2.0
"""How far (line heights) before the first read word the dropped symbol may start."""
TALL = 0.6
"""Least height (share of the line's box height) of the dropped symbol's ink."""
INK = 40
"""Least difference (any channel) from the block's background of an ink pixel."""


def _symbols(text: str) -> list[str]:
    return [w for w in text.split() if not any(c.isalnum() for c in w)]


def with_unread_mark(arr: np.ndarray, blk: Block, text: str) -> Block:
    """``blk`` (one left-aligned line) grown over the symbol OCR dropped before it (module
    docstring); ``blk`` itself when the string has no symbol its read text lacks, or no such ink
    stands there. ``arr``: uint8 (H, W, 3)."""
    read = " ".join(blk.texts)
    missing = [s for s in _symbols(text) if s not in read.split()]
    if len(blk.boxes) != 1 or blk.align != "left" or not missing or blk.indent:
        return blk
    x0, y0, x1, y1 = (int(v) for v in blk.boxes[0])
    h = y1 - y0
    lo = max(0, x0 - round(REACH * h))
    rows = arr[max(0, y0) : y1, lo:x0].astype(np.int16)
    if rows.size == 0:
        return blk
    ink = np.abs(rows - np.asarray(blk.bg, np.int16)).max(2) > INK
    cols = np.nonzero(ink.any(0))[0]
    if not len(cols):
        return blk
    a, b = int(cols[0]), int(cols[-1]) + 1
    if a == 0 or not ink[:, a:b].any(0).all():  # cut by the window, or two runs: not one glyph
        return blk
    tall = np.nonzero(ink[:, a:b].any(1))[0]
    if tall[-1] - tall[0] + 1 < TALL * h:
        return blk
    start = lo + a
    return replace(blk, boxes=[(start, y0, x1, y1)], left=float(start), width=blk.width + (x0 - start),
                   texts=(f"{missing[0]} {blk.texts[0]}",))  # fmt: skip
