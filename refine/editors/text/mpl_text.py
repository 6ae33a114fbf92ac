"""A string set by matplotlib's own text renderer (Agg), for writing a chart's missing text the
way matplotlib draws it.

matplotlib 3.11 lays a string out with its own FT2Font (hinted advances, kerning) and renders
each glyph at its fractional position; PIL's FreeType sets the same string at other advances
(DejaVu Serif "Users (thousands)" at 14.58 px: 134 px of ink in PIL, 141 on matplotlib's page)
and at whole pixels. Here the string is drawn by matplotlib itself, black on a transparent
canvas whose pixel grid is the page's, and its alpha channel read back as the coverage to
composite; its layout box (``Text.get_window_extent``) is matplotlib's too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.transforms import IdentityTransform

from refine.editors.text.axis_type import ink_edges

MARGIN = 4
"""Blank pixels kept around the string's layout box on the scratch canvas."""


@dataclass(frozen=True)
class Set:
    """``text`` as matplotlib sets it at one size, unrotated, relative to the left end of its
    baseline (x right, y down, px): its layout box (``width``, ``ascent`` above the baseline,
    ``descent`` under it), its ink's fractional left and right edges, coverage-weighted
    centroid row and total coverage (``ink``, px: how heavy its strokes are)."""

    width: float
    ascent: float
    descent: float
    ink_left: float
    ink_right: float
    centroid: float
    ink: float


def _draw(text: str, path: str, size: float, anchor: tuple[float, float], ha: str, va: str, angle: float):
    """(alpha (H, W) float32 of the whole scratch canvas, its page origin, layout box (x0, y0,
    x1, y1) on the page) of ``text`` drawn by matplotlib (``mpl_coverage``)."""
    reach = int(math.ceil(size * (len(text) + 2))) + MARGIN
    ax, ay = anchor
    ix, iy = math.floor(ax) - reach, math.floor(ay) - reach
    side = 2 * reach + 1
    fig = Figure(figsize=(side / 72, side / 72), dpi=72, facecolor="none")
    canvas = FigureCanvasAgg(fig)
    t = fig.text(ax - ix, side - (ay - iy), text, fontproperties=FontProperties(fname=path, size=size),
                 color="black", ha=ha, va=va, rotation=angle, rotation_mode="anchor",
                 transform=IdentityTransform())  # fmt: skip
    canvas.draw()
    alpha = np.asarray(canvas.buffer_rgba())[:, :, 3].astype(np.float32) / 255.0
    bb = t.get_window_extent(canvas.get_renderer())
    return alpha, (ix, iy), (ix + bb.x0, iy + side - bb.y1, ix + bb.x1, iy + side - bb.y0)


def mpl_coverage(
    text: str, path: str, size: float, anchor: tuple[float, float], ha: str, va: str, angle: float = 0, inside=False
):
    """(coverage, origin) of ``text`` in the font file ``path`` at ``size`` px as matplotlib draws
    it with its layout box aligned ``ha``/``va`` on ``anchor`` (x, y on the page, y down, pixel
    edges), turned ``angle`` degrees counter-clockwise about the anchor (``rotation_mode``
    "anchor", as matplotlib sets a y-axis title): coverage float32 (h, w) in [0, 1] cropped to
    the ink, origin the page pixel (x, y) of its top-left. With ``inside`` (``angle`` 0 or 90),
    the pixels whose centres lie outside the layout box across the line are left out: the box
    holds the string's ink across (its ascent and descent reach the ink's), so such a pixel is
    more outside it than in, and where the anchor is a fifth of a pixel off the engine's it is
    the one that falls outside the engine's box."""
    alpha, (ix, iy), (x0, y0, x1, y1) = _draw(text, path, size, anchor, ha, va, angle)
    if inside and angle % 180 == 0:
        centres = iy + np.arange(alpha.shape[0]) + 0.5
        alpha[(centres < y0) | (centres > y1)] = 0.0
    elif inside and angle % 180 == 90:
        centres = ix + np.arange(alpha.shape[1]) + 0.5
        alpha[:, (centres < x0) | (centres > x1)] = 0.0
    rows, cols = np.flatnonzero(alpha.any(1)), np.flatnonzero(alpha.any(0))
    if not len(rows):
        return np.zeros((1, 1), np.float32), (int(anchor[0]), int(anchor[1]))
    return alpha[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1], (ix + int(cols[0]), iy + int(rows[0]))


@lru_cache(maxsize=512)
def set_text(text: str, path: str, size: float) -> Set:
    """``text`` as matplotlib sets it in the font file ``path`` at ``size`` px (``Set``)."""
    alpha, (ix, iy), (x0, y0, x1, y1) = _draw(text, path, size, (0.0, 0.0), "left", "baseline", 0.0)
    edges = ink_edges(alpha.max(0))
    rows = alpha.sum(1)
    if edges is None or rows.sum() <= 0:
        return Set(x1 - x0, -y0, y1, 0.0, 0.0, 0.0, 0.0)
    centroid = iy + float((np.arange(len(rows)) + 0.5) @ rows / rows.sum())
    return Set(x1 - x0, -y0, y1, ix + edges[0] - x0, ix + edges[1] - x0, centroid, float(rows.sum()))
