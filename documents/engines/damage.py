"""Pixels an edit changed outside the element it restored, as the engine benchmarks count them."""

from __future__ import annotations

import numpy as np

INK = 8
"""Least difference (any channel) of the clean page from the start page that is the element's own ink."""


def changed_outside(out: np.ndarray, start: np.ndarray, clean: np.ndarray, box) -> np.ndarray:
    """The pixels of ``out`` changed from ``start`` outside ``box`` (the engine's box of the
    element, ``(x0, y0, x1, y1)`` pixels) and outside the element's own ink a pixel around it
    (where ``clean`` differs from ``start`` by more than ``INK``): bool (h, w). ``out``, ``start``
    and ``clean`` are int arrays (h, w, 3) of the same page."""
    x0, y0, x1, y1 = box
    changed = (out != start).any(2)
    own = np.zeros_like(changed)
    own[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1] = (np.abs(clean - start).max(2) > INK)[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1]
    outside = changed & ~own
    outside[y0:y1, x0:x1] = False
    return outside
