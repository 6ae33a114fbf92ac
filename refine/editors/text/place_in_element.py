"""Placing a missing string in the slot the element its check names leaves empty.

Two elements of ``rewards.text.questions.question_compiler.ElementSpec`` name a slot the page can offer:

- a table cell ("the cell in the 'Q2' row and 'Revenue' column"), when both labels are read on
  the page and the cell holds no text: on the row label's baseline, at the column's edge (the
  left edge its other cells share, or their right edge when only that is shared, else the
  column label's left edge), in the type of the column's other cells (else of the row label);
- the Nth item of a list or menu ("the fourth menu item"), when exactly one list or row of the
  page has N - 1 items (``rewards.text.page.elements.find_elements``): after its last item, at the
  list's own pitch (a column) or gap (a row), in the last item's type.

The slot must be free (no edge or word within a margin of 0.3 em across, 0.1 em up and down).
"""

from __future__ import annotations

import math
from dataclasses import replace
from statistics import median

import numpy as np
from PIL import Image

from refine.editors.text.colours import box_colours
from refine.editors.text.engine_advance import advance as engine_advance
from refine.editors.text.engine_advance import linear_size, render
from refine.editors.text.erase import composite
from refine.editors.text.near_match import fold
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.pen_phase import set_like
from refine.editors.text.placement import is_free
from refine.editors.text.set_width import engine_size, ink_span
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle, match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word, find_matches
from rewards.text.page.elements import find_elements


def _line_type(state: EditState, box, text: str, words, rules: Rules) -> TypeStyle | None:
    """The matched type of the text ``text`` in ``box`` of the page (``words``: its word boxes and texts)."""
    ink, bg = box_colours(state.arr, box)
    return match_type(state.arr, box, text, ink, bg, rules.faces, words)


def _exact(state: EditState, text: str, rules: Rules):
    """The (box, text, words) of the one exact occurrence of ``text`` on a line of the page (a
    label), else of the one word equal to it up to look-alikes (OCR's "Ql" for the row label
    "Q1"); None when it is not read there once."""
    ms = [
        m
        for m in find_matches(text, state.lines, state.w, state.h, None, False, rules.lenient, 1)
        if m.found and len({li for li, _ in m.words}) == 1
    ]
    if len(ms) == 1:
        words = [state.lines[li].words[wi] for li, wi in ms[0].words]
        return ms[0].box, ms[0].text, [(wd.box, wd.text) for wd in words]
    if ms or len(text.split()) != 1:
        return None
    want = fold(text, rules.case_sensitive)
    alike = [wd for ln in state.lines for wd in ln.words if fold(wd.text, rules.case_sensitive) == want]
    if len(alike) != 1:
        return None
    return alike[0].box, alike[0].text, [(alike[0].box, alike[0].text)]


SPILL = 0.25
"""Most coverage of a pen write's columns past its advance's end (``_write``) that are trimmed: a
fringe the hinted, area-shifted rendering spreads a column beyond the box an engine gives the
string (4 of 57 items inserted in dev Chromium lists, seeds 24-71, at 10% or less); more is a glyph's
own ink and stays. An unhinted ("linear") rendering's first and last rows are trimmed too when no
more covered: Chromium ends its stems and bowls on a row's edge (dev lists, seeds 24-71: 3 items
inserted a quarter pixel low spread a 20% row under the engine's box)."""


def _write(
    state: EditState, text: str, style: TypeStyle, x: float, align: str, action: str, info: dict, pen: bool = False
):
    """Typeset ``text`` on ``style``'s baseline with its ink's left (or, ``align`` "right", right)
    edge at ``x`` (``pen``: its pen position at ``x``, so that a "T" after an "N" keeps the
    engine's side bearings instead of starting a pixel right of the stem above), when the slot is
    free: Written, or None when something is drawn there. A pen write sets its glyphs as
    ``style.setting`` says (``engine_advance``: Chromium's unhinted outlines at their quarter
    pixels, matplotlib's hinted advances, or PIL's hinted glyphs). In PIL's hinted glyphs the
    size is lowered (``engine_size``, at most 6%) until the text's ink is no wider than its
    advance: an engine's text box is its advance, and FreeType's hinted 14 px DejaVu Sans spread
    a 242 px advance's ink over 243 columns, one past the box Chromium gave the item."""
    fnt = style.face.font(style.size)
    advance = int(fnt.getlength(text))
    if style.setting != "linear" and (size := engine_size(style.face, style.size, text, advance)) != style.size:
        style, fnt = replace(style, size=size), style.face.font(size)
    if pen and align == "left":  # at the fractional pen (``pen_phase``), as the engine sets it
        alpha, ox, oy = render(text, style.face, style.size, style.setting, x, style.baseline)
        # the antialiased fringe past the advance's end is not the engine's
        end = math.ceil(x + engine_advance(text, style.face, style.size, style.setting)) - ox
        if 0 < end < alpha.shape[1] and alpha[:, end:].max() <= SPILL:
            alpha = alpha[:, :end]
        if style.setting == "linear":  # nor a faint first or last row: the engine's stems end crisp
            while alpha.shape[0] > 2 and alpha[-1].max() <= SPILL:
                alpha = alpha[:-1]
            while alpha.shape[0] > 2 and alpha[0].max() <= SPILL:
                alpha, oy = alpha[1:], oy + 1
    else:
        alpha, (bx0, by0, bx1, _) = render_coverage(text, fnt)
        ox = int(round(x if align == "left" else x - (bx1 - bx0)))
        oy = int(round(style.baseline + by0))
    box = (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0])
    mh, mv = max(3, round(0.3 * style.size)), max(2, round(0.1 * style.size))
    if not is_free(state.busy, (box[0] - mh, box[1] - mv, box[2] + mh, box[3] + mv)):
        return None
    composite(state.arr, alpha, (ox, oy), style.ink)
    face = style.face
    info = {"family": face.family, "bold": face.bold, "italic": face.italic, "size": style.size, "align": align, **info}
    if pen and align == "left" and style.setting != "hinted":
        info["setting"] = style.setting
    row = Line(tuple(Word(t, box) for t in text.split()))
    return Written(action, box, [box, box], info, (row,))


def _cell(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """The empty table cell of ``element``'s row and column labels (module docstring)."""
    row, col = _exact(state, element.row, rules), _exact(state, element.column, rules)
    if row is None or col is None:
        return None
    rbox, cbox = row[0], col[0]
    if not (cbox[1] < rbox[1] and rbox[2] < cbox[0]):
        return None  # not a table: the column label is not above and right of the row label
    cells = [  # the column's other cells: words under its label, overlapping its width
        (wd.box, wd.text)
        for ln in state.lines
        for wd in ln.words
        if wd.box[1] > cbox[3]
        and min(wd.box[2], cbox[2]) > max(wd.box[0], cbox[0])
        and any(c.isalnum() for c in wd.text)
    ]  # a table's border OCR reads as "|" is not a cell
    lefts, rights = [b[0] for b, _ in cells], [b[2] for b, _ in cells]
    shared = lambda xs: len(xs) >= 2 and max(xs) - min(xs) <= 2  # noqa: E731
    align, x = ("right", median(rights)) if shared(rights) and not shared(lefts) else ("left", cbox[0])
    if align == "left" and shared(lefts):
        x = median(lefts)
    base = _line_type(state, rbox, row[1], row[2], rules)
    if base is None:
        return None
    if cells:
        b, t = cells[0]
        own = _line_type(state, b, t, [(b, t)], rules)
        base = base if own is None else replace(own, baseline=base.baseline)
    written = _write(state, exp.text, base, x, align, f"place (in its cell: {element.row!r}, {element.column!r})", {})
    return written or Skip(
        f"skip: the cell of row {element.row!r} and column {element.column!r} is not empty; not written"
    )


def _groups(boxes: list) -> list[tuple[list, str]]:
    """``boxes`` of list items grouped into columns (left edges within 4 px, in turn within 3
    line heights) and rows (centres within half a line height), each in reading order, with "down"
    or "across"."""
    out = []
    for key, kind in ((lambda b: b[0], "down"), (lambda b: (b[1] + b[3]) / 2, "across")):
        groups: list[list] = []
        for b in sorted(boxes, key=lambda b: (b[1], b[0]) if kind == "down" else (b[0], b[1])):
            h = b[3] - b[1]
            g = next((g for g in groups if abs(key(g[-1]) - key(b)) <= (4 if kind == "down" else h / 2)), None)
            if g is not None and (kind == "across" or b[1] - g[-1][3] <= 3 * h):
                g.append(b)
            else:
                groups.append([b])
        out += [(g, kind) for g in groups if len(g) >= 2]
    return out


def _style_of(state: EditState, box, rules: Rules, engine_set: bool = False) -> TypeStyle | None:
    """The matched type of the words inside ``box`` (an item of a list), or None, with its pen to a
    quarter pixel (``pen_phase.set_like`` on the first word). ``engine_set`` (for a pen write,
    ``_write``): of the settings ``engine_advance.SETTINGS`` (and sizes, pens and baselines), the
    one whose rendering of the whole line reproduces it best."""
    words = [
        (wd.box, wd.text)
        for ln in state.lines
        for wd in ln.words
        if box[0] <= wd.box[0] and wd.box[2] <= box[2] and box[1] <= wd.box[1] and wd.box[3] <= box[3]
    ]
    if not words:
        return None
    text = " ".join(t for _, t in words)
    matched = _line_type(state, box, text, words, rules)
    span = ink_span(state.arr, box, box_colours(state.arr, box)[1]) if matched is not None else None
    if span is None:
        return matched
    # set width: a new item is no wider than the engine would set it (``set_width``)
    style = replace(matched, size=engine_size(matched.face, matched.size, text, span[1] - span[0]))
    first = min(words, key=lambda w: w[0][0])
    if not engine_set:
        return set_like(state.arr, first[0], first[1], [style])  # a browser's fractional pen
    size = linear_size(matched.face, matched.size, text, span[1] - span[0])
    linear = [replace(matched, size=size + k / 16, setting="linear") for k in range(-2, 3)]
    return set_like(state.arr, box, text, [style, replace(style, setting="basic"), *linear], DROPS)


DROPS = tuple(k / 4 for k in range(-4, 5))
"""Baseline offsets (px) a pen write's setting is tried at (``pen_phase.set_like``)."""


def _gap_of(state: EditState, exp: TextExpectation, items: list, n: int, rules: Rules):
    """(type, usual gap, item ``n - 1``) when a row of items shows a gap where its Nth item would
    be: items ``n - 1`` and ``n`` (1-based) stand apart by at least the string's width plus twice
    the row's usual gap (the median of its other gaps); else None."""
    if not 2 <= n <= len(items) or len(items) < 3:
        return None
    gaps = [b[0] - a[2] for a, b in zip(items, items[1:])]
    usual = float(median(g for k, g in enumerate(gaps) if k != n - 2)) if len(gaps) > 1 else None
    prev = items[n - 2]
    style = _style_of(state, prev, rules)
    if usual is None or style is None:
        return None
    width = style.face.font(style.size).getlength(exp.text)
    if gaps[n - 2] < width + 2 * usual * 0.8:
        return None  # no gap there: the row has its Nth item (another string), not a slot
    return style, usual, prev


def _gap_item(state: EditState, exp: TextExpectation, found, n: int) -> Written | Skip:
    """Write the Nth item of a row in the gap ``_gap_of`` ``found``, after item ``n - 1`` at the
    row's usual gap, in its type ("Team  Events  [     ]  Reports": "Results" is the third item)."""
    style, usual, prev = found
    written = _write(state, exp.text, style, prev[2] + usual, "left", f"place (item {n} of its row, in its gap)", {})
    return written or Skip(f"skip: the gap for item {n} of its row is taken; not written")


def _next_item(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """The slot after the last item of the one list or row with ``element.ordinal - 1`` items, or
    the gap a row leaves for its Nth item (``_gap_item``)."""
    if element.ordinal is None or element.ordinal < 2:
        return None
    found = find_elements(replace(element, ordinal=None), state.lines, Image.fromarray(state.arr), (state.w, state.h))
    all_groups = _groups(list(dict.fromkeys(tuple(e.box) for e in found or ())))  # an item of two lists once
    rows = [g for g, kind in all_groups if kind == "across" and len(g) >= element.ordinal]
    gapped = [f for f in (_gap_of(state, exp, r, element.ordinal, rules) for r in rows) if f is not None]
    if len(gapped) == 1:  # the one row (a menu) that leaves a gap for its Nth item
        return _gap_item(state, exp, gapped[0], element.ordinal)
    if len(rows) == 1:  # a menu row long enough: its Nth item is there, and no gap for it
        return Skip(
            f"skip: its row shows an item where item {element.ordinal} would be, and no gap for it; not written"
        )
    groups = [(g, kind) for g, kind in all_groups if len(g) == element.ordinal - 1]
    if len(groups) != 1:
        return None
    items, kind = groups[0]
    last = items[-1]
    words = [
        (wd.box, wd.text)
        for ln in state.lines
        for wd in ln.words
        if last[0] <= wd.box[0] and wd.box[2] <= last[2] and last[1] <= wd.box[1] and wd.box[3] <= last[3]
    ]
    if not words:
        return None
    style = _line_type(state, last, " ".join(t for _, t in words), words, rules)
    if style is None:
        return None
    if kind == "down":
        pitch = float(np.median(np.diff([b[3] for b in items])))
        style = replace(style, baseline=style.baseline + pitch)
        x = last[0]
    else:
        gap = float(np.median([b[0] - a[2] for a, b in zip(items, items[1:])]))
        x = last[2] + gap
    written = _write(state, exp.text, style, x, "left", f"place (item {element.ordinal} of its list)", {})
    return written or Skip(f"skip: the slot after item {element.ordinal - 1} of its list is taken; not written")


def place_in_element(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """Typeset ``exp.text`` in the slot its check's ``element`` names (module docstring).

    Returns:
        Written; a Skip when the slot is there but not free; None when the element names no
        slot or the page does not show it.
    """
    if element is None:
        return None
    if element.role == "table_cell" and element.row and element.column:
        return _cell(state, exp, element, rules)
    if element.role == "list_item":
        return _next_item(state, exp, element, rules)
    return None
