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
- the distance and the offset of a value's anchor (the middle of its advance, where the engine
  centres it) from the pie's centre: fitted to the other values shown (each on its own wedge's
  middle angle), each measured by its ink's centroid (``ink_centre``) less that of its string
  rendered in their type (``ink_offset``), so the written value's ink centroid lands within a
  pixel of the engine's;
- the type: the shown values' (face, size, colour; the median size of their matched types).

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

from refine.editors.text.colours import box_colours
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
    separator), holes filled (a donut's centre, the white values), its centre the region's
    centroid (sub-pixel, in pixel-index coordinates); None when no seed lies in one or the region
    is not round (width and height more than 8% apart)."""
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
    return float(xs.mean()), float(ys.mean()), (w + h) / 4  # the disc's centroid: sub-pixel


def wedge_runs(arr: np.ndarray, cx: float, cy: float, rho: float) -> list[tuple[float, float]]:
    """(start, end) angles (radians, counter-clockwise from 3 o'clock, end > start, may pass
    2 pi) of the runs of one colour on the circle of radius ``rho`` px: the wedges. Samples not
    ``STRONG`` (a white separator, a value's white ink crossing the circle) and samples of no
    recurring fill (``_fill_labels``: a blend at an edge) belong to no run and split none: a run
    ends where the next sample of a fill has another fill."""
    bg = page_background(arr).astype(np.int32)
    step = 2 * math.pi / STEPS
    t = np.arange(STEPS) * step
    xs = np.clip(np.round(cx + rho * np.cos(t)).astype(int), 0, arr.shape[1] - 1)
    ys = np.clip(np.round(cy - rho * np.sin(t)).astype(int), 0, arr.shape[0] - 1)
    cols = arr[ys, xs].astype(np.int32)
    ks = np.nonzero(np.sqrt(((cols - bg) ** 2).sum(1)) > STRONG)[0]
    if len(ks) < MIN_RUN:
        return []
    label = _fill_labels(cols[ks])
    ks, label = ks[label >= 0], label[label >= 0]
    if len(ks) == 0:
        return []
    if (label == label[0]).all():
        return [(0.0, 2 * math.pi)]
    first = int(np.argmax(label != np.roll(label, 1)))  # a run's first sample
    ks, label = np.concatenate([ks[first:], ks[:first] + STEPS]), np.roll(label, -first)
    cuts = [0, *np.nonzero(label[1:] != label[:-1])[0] + 1, len(ks)]
    runs = [[int(ks[a]), int(ks[b - 1]), int(label[a])] for a, b in zip(cuts, cuts[1:]) if b - a >= MIN_RUN]
    merged: list[list] = []
    for run in runs:  # a run split by another colour's few samples (a value's fringe) is one
        if merged and merged[-1][2] == run[2]:
            merged[-1][1] = run[1]
        else:
            merged.append(run)
    if len(merged) > 1 and merged[-1][2] == merged[0][2]:  # one wedge across the start
        merged[0][0] = merged.pop()[0] - STEPS
    runs = merged
    return [(a * step, b * step) for a, b, _ in runs]


def _fill_labels(cols: np.ndarray, tol: int = 12) -> np.ndarray:
    """(N,) int: the fill each of ``cols`` ((N, 3) int RGB samples) belongs to, -1 for none. The
    fills are the colours that recur (at least ``MIN_RUN`` samples, each more than ``tol`` from
    a more frequent one); a sample belongs to the nearest within ``tol``. A blend at a
    separator's edge or a glyph's fringe belongs to none. Told apart sample by sample (another
    colour past 30), two wedges of near colours (#f4a261 and #e9c46a, 34 apart) were one run
    where one antialiased sample between them lay within 30 of both."""
    uniq, counts = np.unique(cols, axis=0, return_counts=True)
    fills: list[np.ndarray] = []
    for k in np.argsort(-counts):
        if counts[k] < MIN_RUN:
            break
        if all(np.abs(uniq[k] - f).max() > tol for f in fills):
            fills.append(uniq[k])
    if not fills:
        return np.full(len(cols), -1)
    dist = np.abs(cols[:, None, :] - np.array(fills)[None]).max(2)  # (N, fills)
    return np.where(dist.min(1) <= tol, dist.argmin(1), -1)


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
    """The box of the words reading ``name`` just outside the pie's rim (1 to 1.4 radii from its
    centre, the engine's ``labeldistance`` 1.1): the slice's label, not its legend entry. The
    words may be part of a longer OCR line: a label beside the legend ("Social" left of the
    legend's "Search") is read into one line with the entry."""
    cx, cy, r = pie
    want = normalize(name, case_sensitive)
    n = len(name.split())
    for ln in state.lines:
        for k in range(len(ln.words) - n + 1):
            words = ln.words[k : k + n]
            x0, y0 = min(wd.box[0] for wd in words), min(wd.box[1] for wd in words)
            x1, y1 = max(wd.box[2] for wd in words), max(wd.box[3] for wd in words)
            d = math.hypot((x0 + x1) / 2 - cx, (y0 + y1) / 2 - cy)
            text = " ".join(wd.text for wd in words)
            if normalize(text, case_sensitive) == want and r <= d <= 1.4 * r + (x1 - x0) / 2:
                return x0, y0, x1, y1
    return None


def ink_centre(arr: np.ndarray, box: Box) -> tuple[float, float]:
    """(x, y) pixels: the centroid of the ink of the text in ``box`` (OCR's word box, searched
    1 px beyond it), in box coordinates (a pixel's column x spans x..x+1): each pixel weighted by
    how far it lies from the box's background towards its text colour (``box_colours``), 0 to 1.
    OCR's word boxes of small white values stand a pixel off their ink on one side or the other,
    and the slot fitted to their middles lay up to 1.7 px from matplotlib's; the box's middle
    when it holds no ink."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - 1), max(0, box[1] - 1), min(w, box[2] + 1), min(h, box[3] + 1)
    ink, bg = (np.asarray(c, np.float64) for c in box_colours(arr, box))
    crop = arr[y0:y1, x0:x1].astype(np.float64)
    t = ((crop - bg) @ (ink - bg)) / max(1.0, float((ink - bg) @ (ink - bg)))  # 0 background .. 1 ink
    return _centroid(np.clip(t, 0.0, 1.0), x0, y0) or ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _centroid(weights: np.ndarray, x0: float, y0: float) -> tuple[float, float] | None:
    """The centroid (x, y) of ``weights`` (H, W) whose top-left pixel spans (x0, y0)..(x0 + 1,
    y0 + 1); None when they sum to 0."""
    total = float(weights.sum())
    if total <= 0:
        return None
    ys, xs = np.indices(weights.shape)
    return x0 + float((xs * weights).sum()) / total + 0.5, y0 + float((ys * weights).sum()) / total + 0.5


def ink_offset(text: str, fnt) -> tuple[float, float]:
    """(dx, dy) pixels from the middle of ``text``'s advance, on its baseline, to the centroid of its
    ink (``_centroid`` of its coverage) in ``fnt``. An engine centres a value's advance box on its anchor
    (matplotlib's ``ha="center"``), not its ink: a "1" or a "7" leaves more blank on one side
    than a "2", and fitted to the shown values' ink middles the slot of "24%" lay 1.5 px right
    of matplotlib's. Vertically the layout box is the font's, the same for every string: the
    offset holds each string's ink height over the baseline."""
    cov, (bx0, by0, _, _) = render_coverage(text, fnt)
    mx, my = _centroid(cov, bx0, by0) or (bx0, by0)
    return mx - fnt.getlength(text) / 2, my


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


def _value_type(state: EditState, boxes: list[Box], rules: Rules):
    """The type of the values shown: each value's matched type, the one of median size (one short
    value's ink is too few pixels to size it: matched alone, a "15%" of matplotlib's 14.6 px bold
    came out at 16.5 px and its ink ran past the engine's box of the missing value)."""
    styles = sorted((s for s in (_style_of(state, b, rules) for b in boxes) if s is not None), key=lambda s: s.size)
    return styles[(len(styles) - 1) // 2] if styles else None


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
    centres = [ink_centre(state.arr, b) for b in boxes]
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
    style = _value_type(state, boxes, rules)
    if style is None:
        return None
    fnt = style.face.font(style.size)
    texts = [state.lines[li].words[wi].text for li, wi in values]
    known = [((x - ox, y - oy), t) for (x, y), t, s in zip(centres, mids, texts) if t is not None
             for ox, oy in [ink_offset(s, fnt)]]  # fmt: skip
    if not known:
        return None
    dist, dx, dy = _fit([c for c, _ in known], [t for _, t in known], pie)
    theta = (run[0] + run[1]) / 2
    ox, oy = ink_offset(exp.text, fnt)
    tx, ty = cx + dist * math.cos(theta) + dx + ox, cy - dist * math.sin(theta) + dy + oy
    cov, (bx0, by0, _, _) = render_coverage(exp.text, fnt)
    mx, my = _centroid(cov, 0, 0) or (0.0, 0.0)  # in the coverage map
    style = replace(style, baseline=ty - my - by0)  # the ink's centroid on (tx, ty)
    written = _write(state, exp.text, style, tx - mx, "left", "place (in its wedge)", {})
    if written is None:
        return Skip("skip: its wedge has no free slot for the value (a separator or text is there); not written")
    return written
