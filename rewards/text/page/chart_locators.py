"""Locator rules of charts (``rewards.text.page.locators``): tick and category labels by ordinal,
slice labels, a slice and its value, the centre of a donut, a bar's value label, callouts and
line-end labels."""

from __future__ import annotations

import re

import numpy as np

from rewards.text.ocr.text_match import find_matches
from rewards.text.page.elements import find_elements
from rewards.text.page.legend_marks import swatch_left
from rewards.text.page.locator_base import (
    ORDINALS,
    _complete,
    _Ctx,
    _evenly_spaced,
    _ink,
    _lines_right_of,
    _nth_is,
    _x_row,
)
from rewards.text.page.page_lines import Box, Element, _inside, _Page
from rewards.text.page.pie import Pie, angle_gap
from rewards.text.page.series_bars import group_span, label_height, series_bar
from rewards.text.questions.question_compiler import ElementSpec

SLICE_REACH = (0.3, 1.45)
"""Radii from a pie's centre where its slice labels stand (inside wedges, or beside the rim)."""


SLICE_ANGLE = 12.0
"""Degrees: a slice's name and its value stand at most this far apart in angle."""


def _nth_label(ctx: _Ctx, m: list[re.Match], series, axis: int) -> bool:
    """The occurrence is the Nth (``m[0]``'s ordinal) of its complete row (``axis`` 0, ``_x_row``)
    or column (``axis`` 1, ``_y_column``) of labels: ``series(page, line)``."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for o in ctx.found[0]:
        if len(o.lines) != 1:
            continue
        run = series(page, o.lines[0])
        if (
            len(run) >= 3
            and _complete(page, [page.lines[i].box for i in run], axis)
            and _nth_is(run, o.lines[0], ordinal)
        ):
            return True
    return False


def _x_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the x axis (module docstring)."""
    return _nth_label(ctx, m, _x_row, 0)


def _y_column(page: _Page, li: int) -> list[int]:
    """The short horizontal lines right-aligned with line ``li`` (within half its type size), top to bottom."""
    right, em = page.lines[li].box[2], page.sizes[li]
    col = [i for i in page.flat if abs(page.lines[i].box[2] - right) <= max(2.0, 0.5 * em)]
    return sorted((i for i in col if len(page.lines[i].text) <= 20), key=lambda i: page.lines[i].box[1])


def _y_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the y axis (module docstring)."""
    return _nth_label(ctx, m, _y_column, 1)


def _axis_label(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "an axis's tick label" ("x-axis tick label", no ordinal): the occurrence, a whole
    element of one line with no legend swatch left of it, is one of at least three short labels
    evenly spaced in its row (x: ``_x_row``, below the image's middle) or right-aligned in its
    column (y: ``_y_column``, in the left half); "x-axis label" (no "tick"): or that axis's title
    (``finders._axis_title``)."""
    if len(ctx.texts) != 1:
        return False
    page, axis = ctx.page, m[0].group(1)
    (w, h), rgb = page.size, page.rgb()
    for o in ctx.found[0]:
        if len(o.lines) != 1 or (rgb is not None and swatch_left(rgb, o.box, page.sizes[o.lines[0]])):
            continue
        cx, cy = (o.box[0] + o.box[2]) / 2, (o.box[1] + o.box[3]) / 2
        run = _x_row(page, o.lines[0]) if axis == "x" else _y_column(page, o.lines[0])
        side = cy > h / 2 if axis == "x" else cx < w / 2
        if side and len(run) >= 3 and _evenly_spaced([page.lines[i].box for i in run], 0 if axis == "x" else 1):
            return True
    if m[0].group(2):  # "tick label": not the title
        return False
    titles = find_elements(ElementSpec("axis_title", axis=axis), page.lines, page.image, page.size) or []
    return any(_overlap(t.box, o.box) > 0.8 for t in titles for o in ctx.found[0])


def _overlap(a: Box, b: Box) -> float:
    """The share of the smaller of boxes ``a`` and ``b`` that the other covers."""
    iw, ih = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / small if iw > 0 and ih > 0 and small > 0 else 0.0


def _slice_labels(ctx: _Ctx, pie: Pie) -> list[Element]:
    """The whole elements of one line standing where a slice label stands (``SLICE_REACH``), not legend entries."""
    page, rgb = ctx.page, ctx.page.rgb()
    out = []
    for e in ctx.own:
        if len(e.lines) != 1 or not SLICE_REACH[0] <= pie.distance(e.box) <= SLICE_REACH[1]:
            continue
        if not swatch_left(rgb, e.box, page.sizes[e.lines[0]]):
            out.append(e)
    return out


def _slice_label(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "slice labels" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 1:
        return False
    labels = {e.box for e in _slice_labels(ctx, pie)}
    return any(o.box in labels for o in ctx.found[0])


def _nearest(pie: Pie, of: Element, among: list[Element]) -> Element | None:
    """The element of ``among`` other than ``of`` nearest to it in angle seen from the pie's centre."""
    others = [e for e in among if e.box != of.box]
    return min(others, key=lambda e: angle_gap(pie.angle(e.box), pie.angle(of.box)), default=None)


def _slice_value(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a slice and its value" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 2:
        return False
    labels = _slice_labels(ctx, pie)
    boxes = {e.box for e in labels}
    for n in (e for e in ctx.found[0] if e.box in boxes):
        for v in (e for e in ctx.found[1] if e.box in boxes):
            if angle_gap(pie.angle(n.box), pie.angle(v.box)) > SLICE_ANGLE:
                continue
            n_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(n.box) >= 1)]
            v_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(v.box) >= 1)]
            near_n, near_v = _nearest(pie, v, n_side), _nearest(pie, n, v_side)
            if near_n is not None and near_v is not None and near_n.box == n.box and near_v.box == v.box:
                return True
    return False


def _donut_centre(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the centre of a donut" (module docstring)."""
    pie = ctx.pie()
    if pie is None or not pie.donut or len(ctx.texts) != 1:
        return False
    return any(pie.distance(o.box) <= 0.35 for o in ctx.found[0])


def _bar_end(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the value label at the end of the 'X' bar" (texts: the bar's category label, the
    value): the value is the first line right of the category label in its row, and ink (the bar)
    stands within 1.5 type sizes left of the value."""
    if len(ctx.texts) != 2 or m[0].group(1).lower() != ctx.texts[0].lower():
        return False
    page = ctx.page
    for label in ctx.spans[0]:
        right = _lines_right_of(page, label)
        if not right:
            continue
        first = page.lines[right[0]]
        em = page.sizes[right[0]]
        left_of = (first.box[0] - 1.5 * em, first.box[1], first.box[0] - 1, first.box[3])
        if any(_inside(b, first.box) for b in ctx.spans[1]) and _ink(page, left_of):
            return True
    return False


def _tick_row(ctx: _Ctx) -> list[int]:
    """The page's x tick labels: the lowest complete row (``_complete``) of at least three short lines, or []."""
    if "ticks" not in ctx.memo:
        page, best = ctx.page, []
        for i in page.flat:
            row = _x_row(page, i)
            if len(row) >= 3 and (not best or page.lines[row[0]].box[1] > page.lines[best[0]].box[1]):
                if _complete(page, [page.lines[j].box for j in row], 0):
                    best = row
        ctx.memo["ticks"] = best
    return ctx.memo["ticks"]


def _in_plot(ctx: _Ctx, box: Box) -> bool:
    """True when ``box`` lies over the x tick labels (``_tick_row``), below the top 15% of the page."""
    ticks = _tick_row(ctx)
    return bool(ticks) and box[3] <= ctx.page.lines[ticks[0]].box[1] and box[1] >= 0.15 * ctx.page.size[1]


def _callout(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a callout annotation contains": the string lies in a line of at least two words over
    the x tick labels (``_in_plot``) that starts left of the last tick label's middle (a line-end
    label starts right of it) and has no legend swatch left of it."""
    page, ticks = ctx.page, _tick_row(ctx)
    if len(ctx.texts) != 1 or not ticks:
        return False
    last = page.lines[ticks[-1]].box
    for b in ctx.spans[0]:
        for i in page.flat:
            ln = page.lines[i]
            if not _inside(b, ln.box) or len(ln.words) < 2 or not _in_plot(ctx, ln.box):
                continue
            if ln.box[0] < (last[0] + last[2]) / 2 and not swatch_left(page.rgb(), ln.box, page.sizes[i]):
                return True
    return False


def _line_end(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the label at the right end of the line that ends highest / lowest": the line-end
    labels are the lines over the x tick labels (``_in_plot``) that start right of the last tick
    label's middle with ink (the line's end) within 1.5 type sizes left of them; at least two;
    the occurrence is the topmost (highest) or the bottom one (lowest)."""
    page, ticks = ctx.page, _tick_row(ctx)
    if len(ctx.texts) != 1 or not ticks:
        return False
    last = page.lines[ticks[-1]].box
    ends = []
    for i in page.flat:
        b, em = page.lines[i].box, page.sizes[i]
        if b[0] > (last[0] + last[2]) / 2 and _in_plot(ctx, b) and _ink(page, (b[0] - 1.5 * em, b[1], b[0] - 1, b[3])):
            ends.append(i)
    if len(ends) < 2:
        return False
    ends.sort(key=lambda i: page.lines[i].box[1])
    pick = ends[0] if m[1].group(1).lower() == "highest" else ends[-1]
    return any(o.lines == (pick,) for o in ctx.found[0])


def _swatch_colour(page: _Page, box: Box, em: float) -> np.ndarray | None:
    """The mean colour of the legend swatch left of ``box`` (text of type size ``em``, ``swatch_left``), or None."""
    rgb = page.rgb()
    if rgb is None or not swatch_left(rgb, box, em):
        return None
    if "page_colour" not in page.memo:
        page.memo["page_colour"] = np.median(rgb[::4, ::4].reshape(-1, 3), axis=0)
    crop = rgb[box[1] : box[3], max(0, int(box[0] - 3.5 * em)) : max(0, box[0] - 1)].reshape(-1, 3).astype(int)
    far = np.sqrt(((crop - page.memo["page_colour"]) ** 2).sum(axis=1)) > 60
    return crop[far].mean(axis=0) if far.sum() >= 4 else None


def _group_bar(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the value label above the 'S' bar in the 'G' group" (grouped bars): the bar of series
    S (the colour of its one legend swatch) in the group of the x tick label G (``_tick_row``) is
    ``series_bars.series_bar``'s, and an occurrence of the value stands over it: its middle within
    the bar's columns (2 px either side), its foot within 1.5 tick label heights above the top."""
    series, group = m[0].group(1), m[0].group(2)
    page, ticks = ctx.page, _tick_row(ctx)
    at = next((k for k, i in enumerate(ticks) if page.lines[i].text == group), None)
    legend = [m.box for m in find_matches(series, page.lines, *page.size, None) if m.found]  # "Mmm 2024": a swatch read
    colours = [c for c in (_swatch_colour(page, b, b[3] - b[1] + 2) for b in legend) if c is not None]
    if len(ctx.texts) != 1 or at is None or len(colours) != 1 or len(ticks) < 2:
        return False
    mids = [(page.lines[i].box[0] + page.lines[i].box[2]) / 2 for i in ticks]
    em = label_height([page.lines[i].box for i in ticks])
    rgb, foot = page.rgb(), min(page.lines[i].box[1] for i in ticks)
    bar = series_bar(rgb, colours[0], group_span(mids, at, rgb.shape[1]), foot, em)
    if bar is None:
        return False
    bx0, top, bx1, _ = bar
    return any(
        bx0 - 2 <= (o.box[0] + o.box[2]) / 2 <= bx1 + 2 and 0 <= top - o.box[3] <= 1.5 * em for o in ctx.found[0]
    )
