"""Word boxes of a strip read again, brought to their own line's ink (``OCRJudge.reread_strip``).

A strip is a near miss's box grown by a line height up and down, read as one text line (tesseract's
psm 7). When the strip takes in the bottom rows of the line above, tesseract gives every word the
strip's ink height: a tester's legend entry "Blocked", read again under the entry "In review", came
back 26 px tall for 13 px type, so its swatch was too small for that em and the entry was no legend
entry (``finders._legend_entry``; issue 31). :func:`own_rows` keeps, of a word's box, the rows of ink
that run into the near miss's rows, separated from the rest by a blank row.
"""

from __future__ import annotations

import numpy as np

INK_CONTRAST = 60
"""Grey levels from the box's background (its median) from which a pixel is ink."""


def own_rows(gray: np.ndarray, box: tuple[int, int, int, int], rows: tuple[int, int]) -> tuple[int, int, int, int]:
    """``box`` (x0, y0, x1, y1 pixels of the page ``gray``, uint8 (H, W)) with its top and bottom
    moved to the runs of inked rows (rows holding a pixel ``INK_CONTRAST`` off the box's median)
    that overlap ``rows`` (y0, y1: the near miss's rows); runs are separated by a row with no ink.
    ``box`` unchanged when it does not overlap ``rows`` or no run does."""
    x0, y0, x1, y1 = box
    if min(y1, rows[1]) <= max(y0, rows[0]):
        return box
    crop = gray[max(0, y0) : y1, max(0, x0) : x1].astype(np.int16)
    if crop.size == 0:
        return box
    inked = (np.abs(crop - np.median(crop)) > INK_CONTRAST).any(axis=1)
    kept, start = [], None
    for k, on in enumerate([*inked, False]):
        if on and start is None:
            start = k
        elif not on and start is not None:
            top, bottom = y0 + start, y0 + k
            if min(bottom, rows[1]) > max(top, rows[0]):
                kept.append((top, bottom))
            start = None
    if not kept:
        return box
    return x0, min(t for t, _ in kept), x1, max(b for _, b in kept)
