"""Set width: the size at which a face gives a string the width a layout engine gave it.

A matched type (``type_match``) fits a line's height and glyph shapes; its width can still be a
pixel or two wider than the engine's (matplotlib's Agg and Chromium's Skia hint and advance
glyphs differently from FreeType in PIL). A rewrite or a new list item set in it then spills
past the element's box. Here the size is lowered, by at most 6%, until the string the pixels
show, set in the face, is no wider than those pixels.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.type_match import render_coverage

MAX_NARROW = 1.06
"""A string set up to this factor wider than its pixels is narrowed; wider is another type."""


def ink_span(arr: np.ndarray, box, bg, pad: int = 2) -> tuple[int, int] | None:
    """(first, last + 1) columns of ``box`` (widened ``pad`` px each side) holding a pixel more
    than 8 off ``bg`` (RGB) in the box's rows of ``arr`` (uint8 (H, W, 3)): the text's own
    horizontal extent, its antialiased edges included; None when there is none."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = max(0, int(box[0]) - pad), max(0, int(box[1])), min(W, int(box[2]) + pad), min(H, int(box[3]))
    if x1 <= x0 or y1 <= y0:
        return None
    cols = np.nonzero((np.abs(arr[y0:y1, x0:x1].astype(np.int16) - np.asarray(bg, np.int16)).max(2) > 8).any(0))[0]
    return (x0 + int(cols[0]), x0 + int(cols[-1]) + 1) if len(cols) else None


def ink_width(alpha: np.ndarray) -> int:
    """Columns of a coverage map ``alpha`` ((h, w) in [0, 1]) that change a pixel (>= 1/255)."""
    cols = np.nonzero((alpha >= 1 / 255).any(0))[0]
    return int(cols[-1] - cols[0] + 1) if len(cols) else 0


def engine_size(face, size: float, text: str, width: int) -> float:
    """The size (px) at which ``face`` sets ``text`` no wider than ``width`` px of ink, when at
    ``size`` it is wider by at most ``MAX_NARROW``; else ``size``. The width a size gives is not
    linear in it (hinting), so the size steps down by 0.5% from the ratio until it fits."""
    seen = ink_width(render_coverage(text, face.font(size))[0])
    if not width < seen <= MAX_NARROW * width:
        return size
    for k in range(4):
        f = (width / seen) * (1 - 0.005 * k)
        if ink_width(render_coverage(text, face.font(size * f))[0]) <= width:
            return size * f
    return size
