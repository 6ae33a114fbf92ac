"""A chart's missing axis title, written where matplotlib sets it ("Is the x-axis label exactly
"Department"?" when no such line is on the page).

The slot is built from the page: the axes' spine and the tick labels along it.

- **x-axis title**: the page's row of x tick labels (``tick_label.tick_row``, at least
  ``MIN_TICKS``) and the bottom spine over them (the longest run of strong pixels on a row within
  one label height above them, spanning every label's middle). matplotlib sets the label centred
  on the axes (its layout box, the string's advance, centred on the spine's middle), its top
  ``LABELPAD`` em under the bottom of the tick labels' layout box (``Axis.labelpad``, 4 pt at the
  default 10 pt type; the layout box of a line reaches the descent of "lp" under its baseline),
  so its baseline lies ``LABELPAD`` em plus the height of "lp" under the tick labels' baseline;
- **y-axis title**: the page's column of y tick labels (OCR lines of the left half whose right
  edges agree within 3 px, at least ``MIN_TICKS``) and the left spine right of them (the longest
  run of strong pixels on a column within one label height right of them, spanning every
  label's middle). matplotlib rotates the label 90 degrees (read bottom to top), centres it on
  the spine's middle, and sets the bottom of its layout box (the descent of "lp" past the
  baseline) ``LABELPAD`` em left of the tick labels' left edge.

In both, the type is the tick labels' (``axes.labelsize`` and ``xtick.labelsize`` are both
"medium" in matplotlib's defaults): face and colour matched on the longest tick label, in the
faces of the page's body family, its weight the one whose strokes hold the tick labels' ink, and
its size the one at which matplotlib sets the tick labels as wide as the page shows them
(``_fitted``). The title is then drawn by matplotlib's own renderer (``mpl_text``), its layout
box aligned as matplotlib aligns an axis label (centre/top for x; centre/bottom, turned 90, for
y) on the anchor read from the page: glyph advances, kerning, hinting and the fractional
position are matplotlib's, not PIL's (PIL's advances set DejaVu Serif "Users (thousands)" 7
px narrower than matplotlib at the same size; the fitted stretch left a report title 2 px wide
and its "p" a row low). The slot must hold no strong ink and no OCR word (2 px around), else the string
is skipped with the reason. Source: matplotlib 3.8-3.11, ``axis.XAxis._update_label_position``
and ``YAxis._update_label_position`` (label at the tick labels' bounding box less ``labelpad *
dpi / 72``), ``text.Text._get_layout`` (line metrics).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from refine.editors.text.axis_type import fit_size, ink_extent, ink_height
from refine.editors.text.colours import box_colours
from refine.editors.text.erase import composite
from refine.editors.text.look_harder import page_background
from refine.editors.text.mpl_text import mpl_coverage, set_text
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tick_label import MIN_TICKS, tick_row
from refine.editors.text.type_match import TypeStyle, coverage, match_type
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word, boxes_meet

Box = tuple[int, int, int, int]
LABELPAD = 0.4
"""Gap between the tick labels' layout box and the axis title's, in em of the tick labels'
type (matplotlib: ``axes.labelpad`` 4 pt at ``font.size`` 10 pt)."""
TICK_TO_PAD = 4 / 7
"""The title's gap from the tick labels over theirs from the spine (matplotlib: ``axes.labelpad``
4 pt; ``xtick.major.size`` 3.5 pt plus ``xtick.major.pad`` 3.5 pt), whatever the type's size."""
SNAP = 0.5
"""How far (px, right and down) matplotlib's Agg draws a spine from the axes' edge on average: it
snaps a straight line's middle to the pixel centre at or after the edge (``path.snap``; the
axes' left edge at x 96.8 drawn at 97.5, its bottom at row 510.0 drawn at 510.5)."""
STRONG = 60
"""Least difference (any channel) of a spine pixel from the page background."""
FAINT_INK = 0.06
"""Coverage under which a pixel of the title is not drawn: under 6% of the ink's contrast, unseen
at a glyph's edge, and where the anchor is a tenth of a pixel off matplotlib's (the axes' edge
under a snapped spine is known to half a pixel) such a pixel is the one that falls outside the
engine's box (a rotated "y"'s tail a row past the box's end, a column beside matplotlib's)."""
SIZE_STEP = 0.5
"""Step (px) between the sizes tried for the tick labels' widths (``_width_size``)."""
MAX_STRETCH = 0.1
"""Largest share by which a size read from the tick labels' widths may differ from the one read from
their heights, and that from the matched one, and be used."""


def _longest_run(strong: np.ndarray) -> tuple[int, int]:
    """(start, end-exclusive) of the longest run of True in the 1-D ``strong``; (0, 0) if none."""
    edges = np.flatnonzero(np.diff(np.r_[0, strong.astype(np.int8), 0]))
    runs = list(zip(edges[::2], edges[1::2]))
    return max(runs, key=lambda r: r[1] - r[0], default=(0, 0))


def _strong(arr: np.ndarray) -> np.ndarray:
    """bool (H, W): pixels more than ``STRONG`` off the page background."""
    return np.abs(arr.astype(np.int16) - page_background(arr)[None, None]).max(2) > STRONG


def _spine(arr: np.ndarray, band: tuple[int, int], along: tuple[float, float], axis: int):
    """(row or column, start, end) of the spine: the longest run of strong pixels on one row
    (``axis`` 0: rows ``band``) or column (1: columns ``band``) that covers ``along`` (the first
    and last tick label's middles), its start moved to where the other spine crosses it (a
    tick mark at the corner carries a spine's run past the axes: the y tick at 0 left of the
    bottom spine, the x tick at 0 under the left one; ``_corner``); None when there is none."""
    strong = _strong(arr)
    best = None
    for k in range(max(0, band[0]), min(strong.shape[axis], band[1])):
        a, b = _longest_run(strong[k] if axis == 0 else strong[:, k])
        if a <= along[0] and b >= along[1] and (best is None or b - a > best[2] - best[1]):
            best = (k, int(a), int(b))
    if best is None:
        return None
    k, a, b = best
    return (k, _corner(strong, k, a, b, axis), b) if axis == 0 else (k, a, _corner(strong, k, a, b, axis))


def _corner(strong: np.ndarray, k: int, a: int, b: int, axis: int) -> int:
    """Where the other spine meets the spine on row ``k`` (``axis`` 0: the column, among the run's
    first 12 px, holding the longest strong run up from the row) or on column ``k`` (1: the row,
    among its last 12 px, holding the longest run right of it), when that run is at least 12 px
    long (a spine, not a tick mark); else the run's own end (``a``, or ``b`` for a column)."""
    if axis == 0:
        cands = [(_longest_run(strong[: k + 1, x][::-1])[1], x) for x in range(a, min(b, a + 12))]
        got = [(n, x) for n, x in cands if _longest_run(strong[: k + 1, x][::-1])[0] == 0]
        n, x = max(got, default=(0, a))
        return x if n >= 12 else a
    cands = [(_longest_run(strong[y, k:])[1], y) for y in range(max(a, b - 12), b)]
    got = [(n, y) for n, y in cands if _longest_run(strong[y, k:])[0] == 0]
    n, y = max(got, default=(0, b))
    return y + 1 if n >= 12 else b


def y_tick_column(lines: list[Line], w: int) -> list[int]:
    """Indices of the page's y tick labels, top to bottom: the largest group (at least
    ``MIN_TICKS``) of short lines (1-3 words) in the left half whose right edges agree within
    3 px (matplotlib right-aligns them at the axis); [] when there is none."""
    short = [i for i, ln in enumerate(lines) if ln.box[2] < w / 2 and len(ln.words) <= 3]
    groups = [[j for j in short if abs(lines[j].box[2] - lines[i].box[2]) <= 3] for i in short]
    best = max(groups, key=len, default=[])
    return sorted(best, key=lambda i: lines[i].box[1]) if len(best) >= MIN_TICKS else []


def _as_drawn(state: EditState, ticks: list[Line]) -> tuple[np.ndarray, list[Line]]:
    """(image, tick labels) to measure the tick labels' type on: the page as handed in
    (``EditState.start``), where each label is the engine's own drawing and its OCR text is what
    it shows (a label this edit rewrote shows PIL's "Design" on the edited page, its line still
    "Desiin": matplotlib's width of "Desiin" fitted on it put a title a size step large and a
    row low), less the labels a previous edit wrote (``EditState.inherited``) while others remain."""
    page = state.start if state.start is not None else state.arr

    own = [ln for ln in ticks if not any(boxes_meet(ln.box, b) for b in state.inherited)]
    return page, own or ticks


def _cut_to_row(ticks: list[Line]) -> list[Line]:
    """The x tick labels ``ticks`` with every word's top cut to the row's median top: the labels
    of one row share their cap height, and an OCR box that reaches higher holds a tick mark or
    the spine over it ("North" read from row 511 for the row's 519 put the spine in its ink
    height and matched it in bold at 22 px for 15). The ink is read 1-2 px around a box
    (``_fitted``), which still holds a glyph that stands higher than the row's caps."""
    top = int(np.median([ln.box[1] for ln in ticks]))
    return [Line(tuple(Word(wd.text, (wd.box[0], max(wd.box[1], top), *wd.box[2:]), wd.conf) for wd in ln.words),
                 ln.angle) for ln in ticks]  # fmt: skip


def _tick_type(state: EditState, page: np.ndarray, ticks: list[Line], rules: Rules) -> TypeStyle | None:
    """The type of the longest tick label on ``page``, matched in the faces of the page's body family."""
    family = state.body_type(rules.faces).style.face.family
    faces = [f for f in rules.faces if f.family == family] or rules.faces
    ln = max(ticks, key=lambda ln: len(ln.text))
    ink, bg = box_colours(page, ln.box)
    return match_type(page, ln.box, ln.text, ink, bg, faces, [(wd.box, wd.text) for wd in ln.words])


class _Fitted:
    """The tick labels' type to a fraction of a pixel: face and colour as ``type_match`` matched
    them, size from their ink (``_fitted``), and each label's ink on the page (text, left and
    right edges, centroid row). Strings are set by matplotlib itself (``mpl_text``)."""

    def __init__(self, style: TypeStyle, size: float, inked: list[tuple[str, float, float, float]]):
        self.style, self.size, self.inked = style, size, inked
        self.path = style.face.path

    def box_extent(self, text: str) -> tuple[float, float, float, float, float]:
        """(left bearing, layout ascent, layout descent, advance, right bearing) of ``text`` in this
        type: matplotlib's layout box and the ink's edges inside it."""
        got = set_text(text, self.path, self.size)
        return got.ink_left, got.ascent, got.descent, got.width, got.width - got.ink_right

    def baseline(self, text: str, centroid: float) -> float:
        """The baseline row at which ``text`` in this type has its ink's centroid on ``centroid``."""
        return centroid - set_text(text, self.path, self.size).centroid


def _width_size(path: str, size: float, wide: list[tuple[str, float]]) -> float:
    """The size near ``size`` at which matplotlib sets the strings of ``wide`` ((text, ink width
    on the page)) as wide as the page, all together: the best of the sizes ``SIZE_STEP`` apart
    within ``MAX_STRETCH`` of ``size``, and of one step of the width ratio from it. matplotlib's
    widths grow in steps, not with the size: FreeType rounds a hinted TrueType face's pixels per
    em to a whole number (Liberation Serif "Research" is 55.6 px wide at 14.5 to 15.0 px, 49.1
    at 14.4), and the ink heights alone, hinted too, put the size a step off (2 px over a
    10-character title). Of the sizes that set the widths alike, the one nearest ``size`` is
    taken: the layout box's ascent and descent, which place the baseline, grow with the size
    itself (15.03 px for 14.58 put a rotated title's baseline 0.1 px off)."""
    page = sum(w for _, w in wide)

    def ratio(at: float) -> float:
        own = sum(set_text(t, path, at).ink_right - set_text(t, path, at).ink_left for t, _ in wide)
        return page / own if own > 0 and page > 0 else float("inf")

    tried = list(np.arange(size * (1 - MAX_STRETCH), size * (1 + MAX_STRETCH), SIZE_STEP))
    best = min(tried, key=lambda at: abs(np.log(ratio(at))))
    stepped = best * ratio(best)
    best = float(min((best, stepped), key=lambda at: abs(np.log(ratio(at)))))
    toward = SIZE_STEP / 8 * np.sign(size - best)  # the sizes that set these widths alike: the nearest to the heights'
    while toward and abs(size - best) > abs(toward) and ratio(best + toward) == ratio(best):
        best += toward
    return best


def _ink(path: str, size: float, heavy: list[tuple[str, float]]) -> float:
    """How much more ink the page gives the strings of ``heavy`` ((text, coverage summed on the
    page)) than matplotlib sets them with at ``size`` in the font file ``path``: a bold face
    holds about 1.5 times a regular one's."""
    own = sum(set_text(t, path, size).ink for t, _ in heavy)
    return sum(c for _, c in heavy) / own if own > 0 else float("inf")


def _fitted(state: EditState, ticks: list[Line], rules: Rules) -> _Fitted | None:
    """The tick labels' ``_Fitted`` type, or None when their type is not matched. The size is
    their ink heights' (``fit_size``) refined by their widths (``_width_size``); each falls back
    to the one before when it lands more than ``MAX_STRETCH`` off it. The weight is the one of
    the matched face's family and slant whose strokes hold the page's ink (``_ink``):
    ``type_match`` matched Liberation Serif Bold to the regular "Research" of a horizontal bar chart."""
    page, ticks = _as_drawn(state, ticks)
    style = _tick_type(state, page, ticks, rules)
    if style is None:
        return None
    inked, tall, wide, heavy = [], [], [], []
    for ln in ticks:
        ink, bg = box_colours(page, ln.box)
        x0, y0, x1, y1 = ln.box
        grown = (max(0, x0 - 2), max(0, y0 - 2), x1 + 2, y1 + 2)
        got = ink_extent(page, (max(0, x0 - 2), max(0, y0 - 1), x1 + 2, y1 + 1), ink, bg)
        height = ink_height(page, (x0, max(0, y0 - 2), x1, y1 + 2), ink, bg)
        if got is not None and height:
            inked.append((ln.text, got[0], got[1], got[2]))
            tall.append((ln.text, height))
            wide.append((ln.text, got[1] - got[0]))
            heavy.append((ln.text, float(coverage(page[grown[1] : grown[3], grown[0] : grown[2]], ink, bg).sum())))
    size = fit_size(style.face, tall) or style.size
    size = size if abs(size / style.size - 1) <= MAX_STRETCH else style.size
    weights = [f for f in rules.faces if f.family == style.face.family and f.italic == style.face.italic]
    sized = [(f, _width_size(f.path, size, wide)) for f in weights or [style.face]]
    face, by_width = min(sized, key=lambda fs: abs(np.log(_ink(fs[0].path, fs[1], heavy))))
    style = replace(style, face=face)
    size = by_width if abs(by_width / size - 1) <= MAX_STRETCH else size
    return _Fitted(style, size, inked)


def _across(arr: np.ndarray, line: tuple[int, int, int], axis: int) -> np.ndarray:
    """How far each pixel of the 5 across ``line`` ((row, start, end) for ``axis`` 0, (column,
    start, end) for 1) is off the background, at each position of ``start..end``: (n, 5)."""
    k, a, b = line
    lo = max(0, k - 2)
    part = arr[lo : k + 3, a:b].swapaxes(0, 1) if axis == 0 else arr[a:b, lo : k + 3]
    dark = np.abs(part.astype(np.int16) - page_background(arr)[None, None]).max(2).astype(np.float32)
    return np.pad(dark, ((0, 0), (lo - (k - 2), 0))) if lo > k - 2 else dark


def _line_centre(arr: np.ndarray, line: tuple[int, int, int], axis: int) -> float | None:
    """The axes' edge under a 1-2 px spine, to a fraction of a pixel: the line's darkness-weighted
    mean position across it, over the positions of ``line`` whose outer pixels are background (no
    bar, grid line or tick mark meeting it there), less ``SNAP``; None when there is none."""
    dark = _across(arr, line, axis)
    clean = dark[(dark[:, 0] < 10) & (dark[:, -1] < 10)].mean(0) if len(dark) else np.zeros(0)
    if not len(dark) or not np.isfinite(clean).all() or clean.sum() <= 0:
        return None
    return line[0] - 2 + float((np.arange(5) + 0.5) @ clean / clean.sum()) - SNAP


def _far_end(arr: np.ndarray, line: tuple[int, int, int], axis: int) -> float:
    """Where the axes end along ``line`` at its far end (right for a row, top for a column), to a
    fraction of a pixel: the covered share of the last pixel of the line's own row (column),
    less half the line's thickness (the spine's cap reaches that past the axes). Both read
    where the line's outer neighbours are background (bars and grid lines meet it elsewhere)."""
    k, a, b = line
    dark = _across(arr, line, axis)
    clean = dark[(dark[:, 0] < 10) & (dark[:, -1] < 10)]
    if not len(clean) or clean[:, 2].max() <= 0:
        return float(b if axis == 0 else a)
    full = float(np.median(clean[:, 2]))
    half = float(clean.mean(0).sum() / clean.mean(0).max()) / 2
    own = dark[:, 2][::-1] if axis == 1 else dark[:, 2]  # the far end last
    on = np.flatnonzero(own >= 0.05 * full)
    end = on[-1] + min(1.0, float(own[on[-1]]) / full)
    return a + end - half - SNAP if axis == 0 else b - end + half - SNAP


def _axes_mid(arr: np.ndarray, spine: tuple[int, int, int], axis: int) -> float:
    """The middle of the axes along the spine (a column for ``axis`` 0, a row for 1), to a
    fraction of a pixel: between the other spine's middle line at the corner (``_corner``) and
    the spine's far end (``_far_end``); the run's middle when the other spine is not clean."""
    k, a, b = spine
    if axis == 0:
        near = _line_centre(arr, (a, max(0, k - 40), k - 4), 1)
        return (near + _far_end(arr, spine, 0)) / 2 if near is not None else (a + b) / 2
    near = _line_centre(arr, (b - 1, k + 4, k + 40), 0)
    return (near + _far_end(arr, spine, 1)) / 2 if near is not None else (a + b) / 2


def _labelpad(fit: _Fitted, gap: float) -> float:
    """The title's gap from the tick labels' layout boxes, px: ``TICK_TO_PAD`` of ``gap`` (the
    tick labels' boxes from the spine's middle, the tick's length and pad), when that is within a
    factor 2 of ``LABELPAD`` em; else ``LABELPAD`` em."""
    pad = TICK_TO_PAD * gap
    return pad if 0.5 <= pad / (LABELPAD * fit.size) <= 2 else LABELPAD * fit.size


def _slot_x(state: EditState, rules: Rules, text: str):
    """(coverage, origin, style) of the x-axis title (module docstring), or a reason string."""
    ticks = tick_row(state.lines, state.h)
    if not ticks:
        return "no row of x tick labels"
    boxes = [state.lines[i].box for i in ticks]
    th = int(np.median([b[3] - b[1] for b in boxes]))
    top = min(b[1] for b in boxes)
    mids = ((boxes[0][0] + boxes[0][2]) / 2, (boxes[-1][0] + boxes[-1][2]) / 2)
    spine = _spine(state.arr, (top - th, top), mids, 0)
    fit = _fitted(state, _cut_to_row([state.lines[i] for i in ticks]), rules)
    if spine is None or fit is None:
        return "no bottom spine over the x tick labels" if spine is None else "the tick labels' type is not matched"
    base = [(fit.baseline(t, row), fit.box_extent(t)) for t, _, _, row in fit.inked]
    bottom = max(b + e[2] for b, e in base)  # the tick labels' layout boxes' lowest edge
    gap = float(np.median([b - e[1] for b, e in base])) - (_line_centre(state.arr, spine, 0) or float(spine[0]))
    anchor = (_axes_mid(state.arr, spine, 0), bottom + _labelpad(fit, gap))
    alpha, origin = mpl_coverage(text, fit.path, fit.size, anchor, "center", "top", inside=True)
    return alpha, origin, fit.style


def _slot_y(state: EditState, rules: Rules, text: str):
    """(coverage, origin, style) of the y-axis title, turned to read bottom to top (module
    docstring), or a reason string."""
    ticks = y_tick_column(state.lines, state.w)
    if not ticks:
        return "no column of y tick labels"
    boxes = [state.lines[i].box for i in ticks]
    th = int(np.median([b[3] - b[1] for b in boxes]))
    right = max(b[2] for b in boxes)
    mids = ((boxes[0][1] + boxes[0][3]) / 2, (boxes[-1][1] + boxes[-1][3]) / 2)
    spine = _spine(state.arr, (right + 1, right + 1 + th), mids, 1)
    fit = _fitted(state, [state.lines[i] for i in ticks], rules)
    if spine is None or fit is None:
        return "no left spine beside the y tick labels" if spine is None else "the tick labels' type is not matched"
    outer = min(x - fit.box_extent(t)[0] for t, x, _, _ in fit.inked)  # the tick labels' layout boxes' left edge
    inner = float(np.median([x + fit.box_extent(t)[4] for t, _, x, _ in fit.inked]))  # their right edge
    edge = outer - _labelpad(fit, (_line_centre(state.arr, spine, 1) or float(spine[0])) - inner)
    anchor = (edge, _axes_mid(state.arr, spine, 1))
    alpha, origin = mpl_coverage(text, fit.path, fit.size, anchor, "center", "bottom", 90, inside=True)
    return alpha, origin, fit.style


def _clear(state: EditState, box: Box, pad: int = 2) -> bool:
    """Whether ``box`` grown by ``pad`` lies on the page and holds no strong ink and no OCR word."""
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    if x0 < 0 or y0 < 0 or x1 > state.w or y1 > state.h:
        return False
    crop = state.arr[y0:y1, x0:x1].astype(np.int16)
    if (np.abs(crop - page_background(state.arr)[None, None]).max(2) > STRONG).any():
        return False
    words = (wd.box for ln in state.lines + state.placed_lines for wd in ln.words)
    return not any(min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]) for b in words)


def place_axis_title(state: EditState, exp: TextExpectation, axis: str, rules: Rules) -> Written | Skip | None:
    """Write the missing axis title ``exp`` of ``axis`` ("x" or "y") in its slot (module
    docstring): Written "place (the x-axis title, under its tick labels)" (or the y one, left of
    them), a Skip when the slot is taken or off the page, None when the page shows no axes to
    build the slot from (the other jobs then handle the string)."""
    found = (_slot_x if axis == "x" else _slot_y)(state, rules, exp.text)
    if isinstance(found, str):
        return None
    alpha, (ox, oy), style = found
    alpha = np.where(alpha < FAINT_INK, 0.0, alpha)
    box = (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0])
    if not _clear(state, box):
        return Skip(f"skip: the {axis}-axis title's slot is taken or off the page; not written loose elsewhere")
    composite(state.arr, alpha, (ox, oy), style.ink)
    face = style.face
    where = "under its tick labels" if axis == "x" else "left of its tick labels, rotated 90"
    info = {"family": face.family, "bold": face.bold, "italic": face.italic, "size": style.size,
            "align": "centre", "lines": 1, "angle": 0 if axis == "x" else 90}  # fmt: skip
    line = Line(tuple(Word(t, box) for t in exp.text.split()))
    return Written(f"place (the {axis}-axis title, {where})", box, [box], info, (line,))
