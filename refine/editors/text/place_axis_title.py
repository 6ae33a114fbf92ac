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
"medium" in matplotlib's defaults): face, size and colour matched on the longest tick label, in
the faces of the page's body family, stretched across as the page sets the tick labels (their
ink widths on the page against the same strings set in the matched type). The slot must hold no
strong ink and no OCR word (2 px around), else the string is skipped with the reason. Source: matplotlib 3.8,
``axis.XAxis._update_label_position`` and ``YAxis._update_label_position`` (label at the tick
labels' bounding box less ``labelpad * dpi / 72``), ``text.Text._get_layout`` ("lp" metrics).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from refine.editors.text.colours import box_colours
from refine.editors.text.erase import composite
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.set_width import ink_span, ink_width
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tick_label import MIN_TICKS, tick_row
from refine.editors.text.type_match import TypeStyle, match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word

Box = tuple[int, int, int, int]
LABELPAD = 0.4
"""Gap between the tick labels' layout box and the axis title's, in em of the tick labels'
type (matplotlib: ``axes.labelpad`` 4 pt at ``font.size`` 10 pt)."""
STRONG = 60
"""Least difference (any channel) of a spine pixel from the page background."""
MAX_STRETCH = 0.1
"""Largest share by which the tick labels' set width may differ from FreeType's and be copied."""


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


def _tick_type(state: EditState, ticks: list[int], rules: Rules) -> tuple[TypeStyle, float] | None:
    """(type, set width) of the tick labels: the type of the longest, matched in the faces of
    the page's body family, and the ratio of the tick labels' ink widths on the page to their
    widths set in that type (the engine's advances against FreeType's hinted ones), within
    ``1 +- MAX_STRETCH``, else 1."""
    family = state.body_type(rules.faces).style.face.family
    faces = [f for f in rules.faces if f.family == family] or rules.faces
    ln = max((state.lines[i] for i in ticks), key=lambda ln: len(ln.text))
    ink, bg = box_colours(state.arr, ln.box)
    style = match_type(state.arr, ln.box, ln.text, ink, bg, faces, [(wd.box, wd.text) for wd in ln.words])
    if style is None:
        return None
    fnt, page, typed = style.face.font(style.size), 0, 0
    for i in ticks:
        span = ink_span(state.arr, state.lines[i].box, bg)
        page += span[1] - span[0] if span else 0
        typed += ink_width(render_coverage(state.lines[i].text, fnt)[0]) if span else 0
    ratio = page / typed if typed else 1.0
    return style, ratio if abs(ratio - 1) <= MAX_STRETCH else 1.0


def _stretched(text: str, fnt, ratio: float) -> tuple[np.ndarray, int, int]:
    """(coverage, ink left, ink top) of ``text`` set in ``fnt`` and stretched across by
    ``ratio`` (the set width of the page's tick labels), relative to the pen (anchor "ls")."""
    alpha, (bx0, by0, _, _) = render_coverage(text, fnt)
    if ratio != 1.0:
        h, w = alpha.shape
        img = Image.fromarray(alpha.astype(np.float32), mode="F").resize((max(1, round(w * ratio)), h), Image.BILINEAR)
        alpha = np.clip(np.asarray(img), 0.0, 1.0)
    return alpha, round(bx0 * ratio), by0


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
    typed = _tick_type(state, ticks, rules)
    if spine is None or typed is None:
        return "no bottom spine over the x tick labels" if spine is None else "the tick labels' type is not matched"
    (style, ratio), fnt = typed, typed[0].face.font(typed[0].size)
    _, lp_top, _, lp_bottom = fnt.getbbox("lp", anchor="ls")
    baseline = style.baseline + LABELPAD * style.size + (lp_bottom - lp_top)
    alpha, bx0, by0 = _stretched(text, fnt, ratio)
    pen = (spine[1] + spine[2]) / 2 - ratio * fnt.getlength(text) / 2
    return alpha, (round(pen + bx0), round(baseline + by0)), style


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
    typed = _tick_type(state, ticks, rules)
    if spine is None or typed is None:
        return "no left spine beside the y tick labels" if spine is None else "the tick labels' type is not matched"
    (style, ratio), fnt = typed, typed[0].face.font(typed[0].size)
    lp_bottom = fnt.getbbox("lp", anchor="ls")[3]
    flat, bx0, by0 = _stretched(text, fnt, ratio)
    alpha = np.rot90(flat)  # (w, h): read bottom to top, the glyphs' tops to the left
    baseline_x = min(b[0] for b in boxes) - LABELPAD * style.size - lp_bottom
    pen_y = (spine[1] + spine[2]) / 2 + ratio * fnt.getlength(text) / 2  # the text starts at the bottom
    return alpha, (round(baseline_x + by0), round(pen_y - bx0 - alpha.shape[0])), style


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
