"""A missing legend entry, with its swatch, after the legend's last entry in a row.

A check such as "Does the legend include the label "Actual"?" names a legend entry. A designer
adds the entry where the legend goes on: a legend in one row (its entries on one baseline, a
grouped bar chart's legend over its bars) takes the entry after its last one, the swatch
``columnspacing`` past the last entry's text and the text at the entries' own swatch-to-text
offset, on their baseline and in their type. The swatch is drawn in the series' colour: the one
colour of the chart's bars that no swatch of the legend shows. The entry goes there only when
that series comes after every series the legend shows (the bars of a group stand in series order,
left to right, or top to bottom for horizontal bars), so the legend's order holds, and the slot is
free. A legend in a column (a pie's legend, centred beside it, closes up when an entry is
dropped) is re-laid with the entry in its slice's order and colour (``insert_legend_entry``), or
skipped with the reason; a missing series before a shown one is skipped with the reason.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy import ndimage

from refine.editors.text.insert_legend_entry import insert_legend_entry
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.placement import is_free
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation

Box = tuple[int, int, int, int]
STRONG = 60
"""Least RGB distance from the page background of a swatch's or a bar's pixel."""
COLUMN_SPACING = 1.0
"""Gap (swatch widths) between an entry's text and the next entry's swatch when the legend shows
one entry: matplotlib's ``columnspacing`` and ``handlelength`` are both 2 em."""


def swatch_of(arr: np.ndarray, box: Box) -> tuple[Box, tuple[int, int, int]] | None:
    """(box, colour) of the solid swatch just left of a legend entry's text ``box`` (within 4 line
    heights, centred on the text's rows within half a line), or None."""
    x0, y0, x1, y1 = box
    lh = y1 - y0
    a, top, bottom = max(0, x0 - 4 * lh), max(0, y0 - lh), min(arr.shape[0], y1 + lh)
    crop = arr[top:bottom, a:x0].astype(np.int32)
    if crop.size == 0:
        return None
    bg = page_background(arr).astype(np.int32)
    labels, _ = ndimage.label(np.sqrt(((crop - bg) ** 2).sum(2)) > STRONG)
    best = None
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        comp = labels[sl] == k
        hh, ww = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        cy = top + (sl[0].start + sl[0].stop) / 2
        if hh < 0.4 * lh or ww < 0.4 * lh or comp.mean() < 0.7 or abs(cy - (y0 + y1) / 2) > lh / 2:
            continue
        if crop[sl][comp].std(axis=0).max() >= 40:
            continue
        sbox = (a + sl[1].start, top + sl[0].start, a + sl[1].stop, top + sl[0].stop)
        if best is None or sbox[2] > best[0][2]:  # the nearest to the text
            colour = tuple(int(v) for v in np.median(crop[sl][comp], axis=0))
            best = (sbox, colour)
    return best


def legend_swatches(arr: np.ndarray, entries: list[Box] | None) -> list:
    """(text box, (swatch box, colour)) of the ``entries`` with a legend swatch left of them: a
    patch at least as wide as tall (matplotlib's handle is 2 em by 0.7 em). A bar's value label
    the legend finder took for an entry has its bar's narrow slice beside it (a 6 by 33 px blue
    column on dev grouped bar 46), no swatch."""
    out = [(b, s) for b in entries or [] if (s := swatch_of(arr, b)) is not None]
    return [(b, s) for b, s in out if s[0][2] - s[0][0] >= s[0][3] - s[0][1]]


def _near(a, b) -> bool:
    return max(abs(int(x) - int(y)) for x, y in zip(a, b)) <= 30


def series_colours(arr: np.ndarray, min_area: int) -> list[tuple[tuple[int, int, int], int]]:
    """(colour, order key) of the chart's bar series: solid regions of one colour of at least
    ``min_area`` px, taller than wide (vertical bars: key = the leftmost bar's left edge) or wider
    than tall (horizontal bars: the topmost bar's top), one per colour, in series order."""
    bg = page_background(arr).astype(np.int32)
    strong = np.sqrt(((arr.astype(np.int32) - bg) ** 2).sum(2)) > STRONG
    q = (arr // 24).astype(np.int32)
    key = q[..., 0] * 10000 + q[..., 1] * 100 + q[..., 2]
    out: dict[int, list] = {}
    for v in np.unique(key[strong]):
        labels, _ = ndimage.label(strong & (key == v))
        for k, sl in enumerate(ndimage.find_objects(labels), start=1):
            comp = labels[sl] == k
            if comp.sum() < min_area or comp.mean() < 0.9:
                continue
            colour = tuple(int(c) for c in np.median(arr[sl][comp], axis=0))
            out.setdefault(int(v), []).append((colour, sl))
    found = []
    for regions in out.values():
        vertical = sum((sl[0].stop - sl[0].start) >= (sl[1].stop - sl[1].start) for _, sl in regions)
        axis = 1 if 2 * vertical >= len(regions) else 0
        found.append((regions[0][0], min(sl[axis].start for _, sl in regions)))
    return sorted(found, key=lambda c: c[1])


def column_entries(state: EditState, given: list) -> list:
    """The entries of the column legend ``given`` entries ((text box, (swatch box, colour)), top
    to bottom) belong to, read again from the page: the OCR lines on their text's left edge
    (within 4 px; the line from its word there) with a swatch left of them, in one run at the
    column's pitch (an entry the legend finder missed, "Juice" read with its swatch as "ma
    Juice", is one of them)."""
    left = given[0][0][0]
    boxes = []
    for ln in state.lines:  # from its word on the column's left edge (a swatch read as "ma" before it)
        k = next((k for k, wd in enumerate(ln.words) if abs(wd.box[0] - left) <= 4), None)
        if k is not None:
            ws = [wd.box for wd in ln.words[k:]]
            boxes.append((ws[0][0], min(b[1] for b in ws), max(b[2] for b in ws), max(b[3] for b in ws)))
    found = [(tuple(int(v) for v in b), swatch_of(state.arr, b)) for b in boxes]
    found = sorted([f for f in found if f[1] is not None], key=lambda f: f[0][1])
    if len(found) < len(given) or not any(f[0][1] == given[0][0][1] for f in found):
        return given
    lh = given[0][0][3] - given[0][0][1]
    run = [f for f in found if f[0][1] == given[0][0][1]]
    for f in found:  # down from the first given entry, then up
        if 0 < f[0][1] - run[-1][0][1] <= 2.5 * lh:
            run.append(f)
    for f in reversed(found):
        if 0 < run[0][0][1] - f[0][1] <= 2.5 * lh:
            run.insert(0, f)
    return run if len(run) >= len(given) else given


def _in_column(swatches: list) -> bool:
    """Whether the legend entries ``swatches`` stand in a column (their rows' middles more than half
    a line apart), not in one row."""
    mids = [(b[1] + b[3]) / 2 for b, _ in swatches]
    return max(mids) - min(mids) > min(b[3] - b[1] for b, _ in swatches) / 2


def _unlabelled(arr: np.ndarray, swatches: list) -> tuple[list, list]:
    """((colour, order key) of each bar series no swatch of the one-row legend ``swatches`` shows,
    the order keys of those it shows), in ``series_colours``' order."""
    sbox = swatches[-1][1][0]
    shown = [c for _, (_, c) in swatches]
    series = series_colours(arr, 4 * (sbox[2] - sbox[0]) * (sbox[3] - sbox[1]))
    missing = [(c, k) for c, k in series if not any(_near(c, s) for s in shown)]
    return missing, [k for c, k in series if any(_near(c, s) for s in shown)]


def missing_series(arr: np.ndarray, swatches: list) -> tuple[int, int, int] | None:
    """The colour of the one bar series the one-row legend ``swatches`` ((text box, (swatch box,
    colour)), left to right) shows no swatch of, when it comes after every series shown
    (``series_colours``' order); None when no series, or more than one, is unlabelled."""
    missing, order = _unlabelled(arr, swatches)
    if len(missing) != 1 or not order or missing[0][1] < max(order):
        return None
    return missing[0][0]


def unlabelled_series(state: EditState, exp: TextExpectation, element, entries: list[Box] | None) -> bool:
    """Whether ``exp``, a legend entry its check asks for (``element``'s role "legend_entry"),
    belongs to the one bar series the one-row legend shows no swatch of (``series_colours``):
    the legend's near version of it ("2024" for "2025") is then the other series' label, not a
    misspelling, and the entry is added after it (``place_legend_entry``, which skips with the
    reason when that series comes before a shown one) instead of rewriting the other's label."""
    if getattr(element, "role", None) != "legend_entry":
        return False
    swatches = sorted(legend_swatches(state.arr, entries), key=lambda bs: bs[0][0])
    if not swatches or _in_column(swatches):  # none, or a column legend: ``insert_legend_entry``'s
        return False
    return len(_unlabelled(state.arr, swatches)[0]) == 1


def place_legend_entry(state: EditState, exp: TextExpectation, entries: list[Box] | None, rules: Rules):
    """Write ``exp.text`` as the next entry of the page's one-row legend (module docstring):
    Written, a Skip saying why not, or None when the page shows no legend entry."""
    arr = state.arr
    swatches = legend_swatches(arr, entries)
    if not swatches:
        return None
    swatches.sort(key=lambda bs: bs[0][0])
    column = column_entries(state, sorted(swatches, key=lambda bs: bs[0][1]))  # entries the finder missed
    if len(column) > len(swatches):
        swatches = sorted(column, key=lambda bs: bs[0][0])
    if _in_column(swatches):  # a column, which closed up: re-laid in the slices' order, or skipped
        return insert_legend_entry(state, exp, sorted(swatches, key=lambda bs: bs[0][1]), rules)
    (box, (sbox, _)) = swatches[-1]
    sw = sbox[2] - sbox[0]
    missing = missing_series(arr, swatches)
    if missing is None:
        return Skip("skip: the legend's missing series (its colour, after the series shown) is not told apart on "
                    "the page; not written")  # fmt: skip
    style = _style_of(state, box, rules)
    if style is None:
        return None
    if len(swatches) > 1:
        gap = swatches[-1][1][0][0] - swatches[-2][0][2]
    else:
        gap = round(COLUMN_SPACING * sw)
    new_swatch = (box[2] + gap, sbox[1], box[2] + gap + sw, sbox[3])
    if not is_free(state.busy, (new_swatch[0] - 2, new_swatch[1] - 2, new_swatch[2] + 2, new_swatch[3] + 2)):
        return Skip("skip: the slot after the legend's last entry is taken; not written")
    x = new_swatch[0] + (box[0] - sbox[0])
    written = _write(state, exp.text, style, x, "left", "place (next entry of the legend, with its swatch)", {})
    if written is None:
        return Skip("skip: the slot after the legend's last entry is taken; not written")
    arr[new_swatch[1] : new_swatch[3], new_swatch[0] : new_swatch[2]] = missing
    return replace(written, boxes=[new_swatch, *written.boxes])
