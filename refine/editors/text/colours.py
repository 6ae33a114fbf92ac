"""Text and background colours of a text box, and the pixels they are measured on.

Two-means clustering of the box's luminance (the cluster closest to the surrounding ring is the
background): min/max was blanking light-on-dark titles.
"""

from __future__ import annotations

import numpy as np


def box_pixels(arr: np.ndarray, box, pad: int) -> np.ndarray:
    """Pixels (N, 3) of ``box`` grown by ``pad``, clipped to the image (the top-left pixel when
    nothing is left)."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)
    patch = arr[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
    return patch.reshape(-1, 3) if patch.size else arr[:1, :1].reshape(-1, 3)


def ring_pixels(arr: np.ndarray, box, pad: int) -> np.ndarray:
    """Pixels (M, 3) in the band of width ``pad`` around ``box`` (clipped to the image; the box's
    own pixels when the band is empty)."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)
    mask = np.ones((y1 - y0, x1 - x0), dtype=bool)
    mask[max(0, box[1] - y0) : box[3] - y0, max(0, box[0] - x0) : box[2] - x0] = False
    ring = arr[y0:y1, x0:x1][mask]
    return ring if len(ring) else box_pixels(arr, box, 0)


def two_means_colours(pixels: np.ndarray, ring: np.ndarray) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(text colour, background colour) of a text box.

    Args:
        pixels: uint8 (N, 3) RGB pixels inside the box.
        ring: uint8 (M, 3) RGB pixels just outside the box (M >= 1).

    Returns:
        RGB tuples. The luminance (ITU-R BT.601 weights) of ``pixels`` is split by two-means; the
        background cluster is the one whose centre is nearer the ring's median luminance; the
        text colour is the median of the text cluster's quarter farthest from the background
        (the glyph cores, not the anti-aliased edges: of 11 px text with one-pixel stems, the
        farthest half gave (43, 42, 42) for matplotlib's black, and new text came out grey).
    """
    weights = np.array([0.299, 0.587, 0.114])
    lum = pixels.astype(np.float64) @ weights
    ring_lum = float(np.median(ring.astype(np.float64) @ weights))
    c0, c1 = float(lum.min()), float(lum.max())
    for _ in range(10):
        split = lum > (c0 + c1) / 2
        if split.all() or not split.any():
            break
        c0, c1 = float(lum[~split].mean()), float(lum[split].mean())
    bg_is_high = abs(c1 - ring_lum) < abs(c0 - ring_lum)
    text_mask = lum <= (c0 + c1) / 2 if bg_is_high else lum > (c0 + c1) / 2
    bg = tuple(int(v) for v in np.median(ring, axis=0))
    if not text_mask.any():
        return ((255, 255, 255) if ring_lum < 128 else (0, 0, 0)), bg
    text_px, text_lum = pixels[text_mask], lum[text_mask]
    dist = np.abs(text_lum - ring_lum)
    core = text_px[dist >= np.quantile(dist, 0.75)]
    return tuple(int(v) for v in np.median(core, axis=0)), bg


def box_colours(arr: np.ndarray, box) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(text colour, background colour) of the text in ``box`` (x0, y0, x1, y1) of ``arr``
    (uint8 (H, W, 3)): ``two_means_colours`` of its pixels against a ring 2 px beyond a padding
    of a fifth of its height (at least 2 px), so the ring misses the glyphs' fringe."""
    pad = max(2, round(0.2 * (box[3] - box[1])))
    return two_means_colours(box_pixels(arr, box, 0), ring_pixels(arr, box, pad + 2))


def sits_on(arr: np.ndarray, box, colour, tol: float = 40) -> bool:
    """True when the 3-px ring around ``box`` has a median colour within ``tol`` per channel of
    ``colour`` (RGB): the text sits on that fill (the page, a badge)."""
    ring = ring_pixels(arr, box, 3)
    return bool(np.abs(np.median(ring, 0) - np.asarray(colour, np.float64)).max() <= tol)
