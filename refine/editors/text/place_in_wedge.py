"""A pie or donut slice's value label, inside its wedge where the chart draws the others.

A check such as 'Is the "Wind" slice labeled with the percentage "23%"?' names a slice by its
label and asks for its value. A chart engine writes a slice's value centred on the middle angle
of its wedge, at one distance from the pie's centre for every slice (matplotlib's
``pctdistance``), and drawing one value moves nothing else. So the slot is found from the page:

- the pie: the solid region (wedges joined across their thin separators) that holds the other
  values, its centre and radius from its bounding box (a circle: width and height within 8%);
- the wedge: the run of one colour, on a circle between the values and the rim, that holds the
  angle of the slice's label (which stands outside the rim on its wedge's middle angle, left- or
  right-aligned to it);
- the distance and the vertical offset of a value's ink centre from the engine's anchor: fitted
  to the other values shown (each on its own wedge's middle angle);
- the type: that of another value (face, size, colour).

A number already inside the wedge is that slice's wrong value: it is rewritten in place. The
value is written only where the wedge is free around it; without another value on the page,
a circular pie, or the slice's label, None (the other jobs, which skip it, say why).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
from scipy import ndimage

from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Rewrite, Skip, Written
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Match, normalize

Box = tuple[int, int, int, int]
STRONG = 60
"""Least RGB distance from the page background of a wedge's pixel."""
VALUE = re.compile(r"^[+-]?[0-9][0-9.,]*%?$")
"""An OCR word that is a slice's value ("23%", "1,640")."""
STEPS = 1440
"""Angles sampled around the pie (a quarter of a degree apart)."""
MIN_RUN = 8
"""Fewest samples (2 degrees) of one colour that make a wedge."""


def pie_of(arr: np.ndarray, seeds: list[Box]) -> tuple[float, float, float] | None:
    """(cx, cy, r) in pixels of the pie or donut holding most centres of ``seeds`` (value boxes):
    the strong pixels (``STRONG`` off the page background) joined over 2 px (a wedge's white
    separator), holes filled (a donut's centre, the white values); None when no seed lies in
    one or the region is not round (width and height more than 8% apart)."""
    bg = page_background(arr).astype(np.int32)
    strong = np.sqrt(((arr.astype(np.int32) - bg) ** 2).sum(2)) > STRONG
    solid = ndimage.binary_fill_holes(ndimage.binary_dilation(strong, iterations=2))
    labels, _ = ndimage.label(solid)
    ids = [int(labels[(b[1] + b[3]) // 2, (b[0] + b[2]) // 2]) for b in seeds]
    ids = [i for i in ids if i]
    if not ids:
        return None
    ys, xs = np.nonzero(labels == max(set(ids), key=ids.count))
    w, h = xs.max() - xs.min() + 1 - 4, ys.max() - ys.min() + 1 - 4  # less the 2 px joins
    if w < 20 or abs(w - h) > 0.08 * max(w, h):
        return None
    return (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2, (w + h) / 4


def wedge_runs(arr: np.ndarray, cx: float, cy: float, rho: float) -> list[tuple[float, float]]:
    """(start, end) angles (radians, counter-clockwise from 3 o'clock, end > start, may pass
    2 pi) of the runs of one colour on the circle of radius ``rho`` px: the wedges. Samples not
    ``STRONG`` (a white separator, a value's white ink crossing the circle) belong to no run and
    split none: a run ends where the next strong sample has another colour."""
    bg = page_background(arr).astype(np.int32)
    step = 2 * math.pi / STEPS
    t = np.arange(STEPS) * step
    xs = np.clip(np.round(cx + rho * np.cos(t)).astype(int), 0, arr.shape[1] - 1)
    ys = np.clip(np.round(cy - rho * np.sin(t)).astype(int), 0, arr.shape[0] - 1)
    cols = arr[ys, xs].astype(np.int32)
    ks = np.nonzero(np.sqrt(((cols - bg) ** 2).sum(1)) > STRONG)[0]
    if len(ks) < MIN_RUN:
        return []
    new = np.abs(cols[ks] - cols[np.roll(ks, 1)]).max(1) > 30  # a strong sample of another colour
    if not new.any():
        return [(0.0, 2 * math.pi)]
    first = int(np.argmax(new))
    idx = np.concatenate([ks[first:], ks[:first] + STEPS])  # unwrapped, from a run's first sample
    starts = [k for k, n in enumerate(np.concatenate([new[first:], new[:first]])) if n] + [len(idx)]
    segs = [
        (int(idx[a]), int(idx[b - 1]) + 1, cols[ks[(first + a) % len(ks)] % STEPS]) for a, b in zip(starts, starts[1:])
    ]
    segs = [sg for sg in segs if sg[1] - sg[0] >= MIN_RUN]  # a blend at a glyph's edge is no wedge
    runs: list[list] = []
    for a, b, c in segs:
        if runs and np.abs(runs[-1][2] - c).max() <= 30:
            runs[-1][1] = b
        else:
            runs.append([a, b, c])
    if len(runs) > 1 and np.abs(runs[-1][2] - runs[0][2]).max() <= 30:  # one wedge across the start
        runs[0][0] = runs.pop()[0] - STEPS
    return [(a * step, b * step) for a, b, _ in runs]


def _angle(cx: float, cy: float, x: float, y: float) -> float:
    return math.atan2(cy - y, x - cx) % (2 * math.pi)


def _run_at(runs, theta: float):
    for a, b in runs:
        if a <= theta < b or a <= theta + 2 * math.pi < b:
            return a, b
    return None


def _values(state: EditState) -> list[tuple[int, int]]:
    """(line index, word index) of the page's one-word lines that are values ("23%")."""
    return [(li, 0) for li, ln in enumerate(state.lines) if len(ln.words) == 1 and VALUE.match(ln.words[0].text)]


def _slice_label(state: EditState, name: str, pie, case_sensitive: bool) -> Box | None:
    """The box of the line reading ``name`` just outside the pie's rim (1 to 1.4 radii from its
    centre, the engine's ``labeldistance`` 1.1): the slice's label, not its legend entry."""
    cx, cy, r = pie
    want = normalize(name, case_sensitive)
    for ln in state.lines:
        x0, y0, x1, y1 = ln.box
        d = math.hypot((x0 + x1) / 2 - cx, (y0 + y1) / 2 - cy)
        if normalize(ln.text, case_sensitive) == want and r <= d <= 1.4 * r + (x1 - x0) / 2:
            return ln.box
    return None


def _fit(centres, thetas, pie) -> tuple[float, float, float]:
    """(distance, dx, dy): a value's ink centre lies at the pie's centre + distance along its
    wedge's middle angle + (dx, dy), fitted to ``centres`` on angles ``thetas`` (dx is 0 with
    one value)."""
    cx, cy, _ = pie
    rows, rhs = [], []
    for (x, y), t in zip(centres, thetas):
        rows += [[math.cos(t), 1.0, 0.0], [-math.sin(t), 0.0, 1.0]]
        rhs += [x - cx, y - cy]
    a = np.array(rows)
    if len(centres) == 1:
        a = a[:, [0, 2]]
    sol = np.linalg.lstsq(a, np.array(rhs), rcond=None)[0]
    return (float(sol[0]), 0.0, float(sol[1])) if len(centres) == 1 else tuple(float(v) for v in sol)


def value_in_wedge(state: EditState, exp: TextExpectation, name: str, rules: Rules) -> Rewrite | Written | Skip | None:
    """Fix the value ``exp`` of the slice labelled ``name`` (module docstring): a Rewrite of the
    number inside its wedge, Written when it was written at the wedge's value slot, a Skip when
    that slot is not free, None when the pie, the other values or the slice's label are not
    found."""
    values = _values(state)
    boxes = [state.lines[li].words[0].box for li, _ in values]
    pie = pie_of(state.arr, boxes) if boxes else None
    if pie is None:
        return None
    cx, cy, r = pie
    on_pie = [k for k, b in enumerate(boxes) if math.hypot((b[0] + b[2]) / 2 - cx, (b[1] + b[3]) / 2 - cy) < r]
    values, boxes = [values[k] for k in on_pie], [boxes[k] for k in on_pie]
    label = _slice_label(state, name, pie, rules.case_sensitive)
    if label is None:
        return None
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]
    ring = float(np.median([math.hypot(x - cx, y - cy) for x, y in centres]))
    runs = wedge_runs(state.arr, cx, cy, (ring + r) / 2)
    mids = []
    for x, y in centres:
        run = _run_at(runs, _angle(cx, cy, x, y))
        mids.append(None if run is None else (run[0] + run[1]) / 2)
    anchor_x = label[0] if (label[0] + label[2]) / 2 > cx else label[2]  # ha left on the right side
    run = _run_at(runs, _angle(cx, cy, anchor_x, (label[1] + label[3]) / 2))
    if run is None:
        return None
    inside = [k for k, t in enumerate(mids) if t is not None and abs(((t - run[0]) % (2 * math.pi))) < run[1] - run[0]]
    if inside:  # the wedge shows a number: the slice's wrong value
        li, wi = values[inside[0]]
        wd = state.lines[li].words[wi]
        return Rewrite(Match(wd.text, wd.box, 0.0, False, ((li, wi),)), state.lines)
    known = [(c, t) for c, t in zip(centres, mids) if t is not None]
    if not known:
        return None
    dist, dx, dy = _fit([c for c, _ in known], [t for _, t in known], pie)
    style = _style_of(state, boxes[0], rules)
    if style is None:
        return None
    theta = (run[0] + run[1]) / 2
    tx, ty = cx + dist * math.cos(theta) + dx, cy - dist * math.sin(theta) + dy
    _, (bx0, by0, bx1, by1) = render_coverage(exp.text, style.face.font(style.size))
    style = replace(style, baseline=ty - (by0 + by1) / 2)
    written = _write(state, exp.text, style, tx - (bx1 - bx0) / 2, "left", "place (in its wedge)", {})
    if written is None:
        return Skip("skip: its wedge has no free slot for the value (a separator or text is there); not written")
    return written
