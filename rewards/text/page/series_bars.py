"""A grouped bar chart's bar of one series in one group: the one finder the judge's locator rule
(``chart_locators._group_bar``), its positional read (``positional_reads.group_value``) and the
text editor (``refine.editors.text.place_at_bar``) use.

The group is the x tick label G of the page's row of tick labels: its span of the x axis is half
a label step either side of its middle (the step: the distance from the first to the last
label's middle over the gaps between them). The series S has one colour (its legend swatch's).
In the group's span exactly one run of columns, at least 3 wide, holds that colour (within
``BAR_MATCH``) just above the tick labels (a bar grows from the axis: its foot within 1.5 label
heights of their top), and the bar's top is where that colour stops going up the run's middle
column. Boxes are ``(x0, y0, x1, y1)`` pixels.
"""

from __future__ import annotations

import numpy as np

BAR_MATCH = 45
"""Largest RGB distance (Euclidean, 0-255 per channel) of a bar's pixel from its series' colour."""
FOOT_REACH = 1.5
"""Tick label heights above the tick labels' top within which a bar's foot stands."""


def label_height(boxes) -> float:
    """The tick labels' height (px): the upper median of their boxes' heights."""
    hs = sorted(b[3] - b[1] for b in boxes)
    return float(hs[len(hs) // 2])


def group_span(mids: list[float], at: int, width: int) -> tuple[int, int]:
    """Columns ``[lo, hi)`` of the group of tick label ``at``, given the middles (x, px) of the
    row's tick labels in order (at least two), clipped to an image ``width`` px wide."""
    step = (mids[-1] - mids[0]) / (len(mids) - 1)
    return max(0, int(mids[at] - step / 2)), min(width, int(mids[at] + step / 2))


def series_bar(
    rgb: np.ndarray, colour, span: tuple[int, int], foot: int, label_h: float
) -> tuple[int, int, int, int] | None:
    """The box of the one bar of ``colour`` (RGB) in columns ``span`` (module docstring).

    Args:
        rgb: uint8 (H, W, 3) page.
        colour: the series' colour (RGB, 0-255).
        span: columns [lo, hi) of the group (``group_span``).
        foot: the top row (px) of the x tick labels: the bar stands on the axis above it.
        label_h: the tick labels' height (px; their median).

    Returns:
        (x0, top, x1, bottom) of the bar, or None when no run or several runs of the colour
        stand on the axis in the span.
    """
    lo, hi = span
    near = np.sqrt(((rgb[:foot, lo:hi].astype(float) - colour) ** 2).sum(2)) < BAR_MATCH  # (foot, hi - lo)
    start = max(0, int(foot - FOOT_REACH * label_h))
    cols = near[start:].any(0)
    edges = np.flatnonzero(np.diff(np.r_[0, cols.astype(np.int8), 0]))
    runs = [(a, b) for a, b in zip(edges[::2], edges[1::2]) if b - a >= 3]
    if len(runs) != 1:
        return None
    a, b = runs[0]
    col = near[:, (a + b) // 2]
    rows = np.flatnonzero(col[start:])
    if not len(rows):
        return None
    y = bottom = start + int(rows[-1])  # the bar's foot
    while y > 0 and col[y - 1]:
        y -= 1
    return lo + int(a), y, lo + int(b), bottom + 1
