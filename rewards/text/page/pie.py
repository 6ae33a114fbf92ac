"""The pie or donut of a chart, found from pixels: its centre, radius and whether it has a hole.

Used by ``rewards.text.page.locators`` for "a slice label", "the 'Hydro' slice labeled '36%'" and
"the text in the centre of the donut". Boxes are ``(x0, y0, x1, y1)`` pixels, y growing downwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

Box = tuple[int, int, int, int]

PIE_MIN_SIDE = 0.2
"""A pie's box is at least this share of the image's shorter side."""

PIE_MIN_COVER = 0.45
"""A pie covers at least this share of its (near-square) box: a full disc covers pi/4 = 0.785,
a donut whose hole is 0.6 of its radius 0.50."""


@dataclass(frozen=True)
class Pie:
    """A pie or donut: ``centre`` (x, y) and ``radius`` in pixels, ``donut`` True when its
    middle (within 0.4 radius) is mostly page colour."""

    centre: tuple[float, float]
    radius: float
    donut: bool

    def angle(self, box: Box) -> float:
        """Degrees (0 to 360, counter-clockwise from 3 o'clock) of the centre of ``box`` seen from the pie's centre."""
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return math.degrees(math.atan2(self.centre[1] - y, x - self.centre[0])) % 360

    def distance(self, box: Box) -> float:
        """Distance of the centre of ``box`` from the pie's centre, in radii."""
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return math.hypot(x - self.centre[0], y - self.centre[1]) / max(1.0, self.radius)


def angle_gap(a: float, b: float) -> float:
    """The smaller difference of two angles in degrees (0 to 180)."""
    d = abs(a - b) % 360
    return min(d, 360 - d)


def find_pie(rgb: np.ndarray) -> Pie | None:
    """The largest pie or donut of ``rgb`` (uint8 (H, W, 3)), or None.

    Ink is every pixel farther than 40 (RGB distance) from the page colour (the median pixel);
    closed by 2 px so that the page-coloured edges between wedges join them; the largest component
    whose box is nearly square (sides within 15%), at least ``PIE_MIN_SIDE`` of the image's
    shorter side and covered at least ``PIE_MIN_COVER`` is the pie.
    """
    page = np.median(rgb.reshape(-1, 3), axis=0)
    ink = np.sqrt(((rgb.astype(np.int16) - page) ** 2).sum(axis=2)) > 40
    joined = ndimage.binary_closing(ink, iterations=2)
    labels, _ = ndimage.label(joined)
    best = None
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        if min(h, w) < PIE_MIN_SIDE * min(rgb.shape[:2]) or not 0.85 <= h / w <= 1.0 / 0.85:
            continue
        cover = float((labels[sl] == k).mean())
        if cover >= PIE_MIN_COVER and (best is None or h * w > best[0]):
            best = (h * w, sl)
    if best is None:
        return None
    sl = best[1]
    cx, cy = (sl[1].start + sl[1].stop) / 2, (sl[0].start + sl[0].stop) / 2
    r = (sl[1].stop - sl[1].start + sl[0].stop - sl[0].start) / 4
    yy, xx = np.ogrid[: rgb.shape[0], : rgb.shape[1]]
    middle = (xx - cx) ** 2 + (yy - cy) ** 2 <= (0.4 * r) ** 2
    return Pie((cx, cy), r, float(ink[middle].mean()) < 0.3)
