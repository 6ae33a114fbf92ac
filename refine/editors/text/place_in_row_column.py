"""A missing value on its label's row, in the column the rows around it keep their values in.

A menu's price ("In the "Desserts" section, is the price of "Apple Pie" exactly "$23.00"?"), a
key-value list's value: the check quotes the label (on the page) and the value (missing). The
rows above and below the label, in its column (left edges within ``SAME_EDGE`` px, at most
``REACH`` rows away), each hold a value to the right, and those values share an edge: their right
edge (within 2 px; prices are set flush right) or their left edge. When at least two such
neighbours do (the most that share one edge: a heading's neighbour across the page is not one of
them), and the label's row is empty up to that edge, the value goes on the label's baseline,
against that edge, in the type of the nearest value. The rows are never moved.

When the label's row already holds ink in that slot (read or not: OCR read a bold monospace
"17.42" as "17"), the value is never written beside it: one run of ink set against the column's
edge like the other values is the row's wrong value and is erased first (``slot_ink``) and the
value written in the face of its row's label (the receipt's bold total row), at the column's size;
any other ink there (two runs, or one off the edge) makes a Skip, and so does a run OCR read as
pieces of the value itself ("80" of "3.80").
"""

from __future__ import annotations

from dataclasses import replace
from statistics import median

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.erase import erase
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _line_type, _write
from refine.editors.text.placement import busy_mask
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line

SAME_EDGE = 4
"""Most difference (px) between the left edges of two labels of one column."""
REACH = 3
"""Most rows (label pitches) above or below the label a value of the column is looked for."""


def _partner(lines: list[Line], box, last: bool = False) -> Line | None:
    """The line right of ``box`` on its row (the nearest line whose vertical middle lies in
    ``box``'s rows and starts past its right edge; ``last``: the last of the lines that follow
    it within an em, as a value OCR read in pieces, "13" and "50" of "13.50", ends with its last
    piece), or None."""
    mid_of = lambda b: (b[1] + b[3]) / 2  # noqa: E731
    right = sorted(
        (ln for ln in lines if ln.box[0] > box[2] and box[1] <= mid_of(ln.box) <= box[3]), key=lambda ln: ln.box[0]
    )
    if not right:
        return None
    piece = right[0]
    for ln in right[1:] if last else ():
        if ln.box[0] - piece.box[2] > box[3] - box[1]:
            break
        piece = ln
    return piece


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def value_column(lines: list[Line], label, text: str) -> tuple[str, float, tuple[int, int, int, int]] | None:
    """(align "right" or "left", the column's edge x, the nearest value's box) of the values the
    rows around ``label`` (a box) keep right of their labels (module docstring); None when there
    is no such column, its edge is not right of the label, or ``text`` (the value to write) is not
    of the column's kind (digits in it as in every value, or in none; a partner of the other kind,
    the column's header, is none of its values). What the label's row holds
    in the slot is ``slot_ink``'s to say."""
    hgt = label[3] - label[1]
    rows = [
        ln.box
        for ln in lines
        if abs(ln.box[0] - label[0]) <= SAME_EDGE
        and ln.box != tuple(label)
        and 0 < abs(ln.box[1] - label[1]) <= REACH * 2.5 * hgt
        and abs((ln.box[3] - ln.box[1]) - hgt) <= 0.3 * hgt
    ]
    best = None
    for align, at in (("right", 2), ("left", 0)):  # the most partners that share one edge
        partners = [(r, p) for r in rows if (p := _partner(lines, r, last=align == "right")) is not None]
        # a column's header ("EUR" over the prices) is not one of its values
        partners = [(r, p) for r, p in partners if _has_digit(p.text) == _has_digit(text)]
        for _, p in partners:
            group = [(r, q) for r, q in partners if abs(q.box[at] - p.box[at]) <= 2]
            if best is None or len(group) > len(best[1]):
                best = (align, group)
    if best is None or len(best[1]) < 2 or {_has_digit(q.text) for _, q in best[1]} != {_has_digit(text)}:
        return None
    align, group = best
    edge = float(median(q.box[2 if align == "right" else 0] for _, q in group))
    if edge <= label[2]:
        return None
    nearest = min(group, key=lambda rq: abs(rq[0][1] - label[1]))[1]
    return align, edge, nearest.box


def place_in_row_column(state: EditState, exp: TextExpectation, sequences, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` on the row of the string before it in its check (its label), in the
    value column of the rows around it (module docstring): Written, a Skip when the slot is
    taken, None when there is no such label or column."""
    lines = state.lines + state.placed_lines
    for seq, _ in sequences:
        i = seq.index(exp) if exp in seq else -1
        if i < 1:
            continue
        found = rules.found_line(seq[i - 1].text, lines, state.w, state.h, last=True)
        column = value_column(lines, found[0], exp.text) if found is not None else None
        if column is None:
            continue
        align, edge, nearest = column
        label_style = _label_style(state, found, rules)
        value_style = _label_style(state, (nearest, None, None), rules)
        if label_style is None or value_style is None:
            continue
        style = TypeStyle(value_style.face, value_style.size, label_style.baseline, edge, value_style.ink, 0.0)
        action = f"place (in the value column of its row: {seq[i - 1].text[:40]!r})"
        taken = Skip(f"skip: the value slot on the row of {seq[i - 1].text[:40]!r} is taken; not written")
        match slot_ink(state.arr, found[0], edge, align):
            case "other":
                return replace(taken, reason=taken.reason.replace("is taken", "holds ink that is not one value"))
            case None:
                return _write(state, exp.text, style, edge, align, action, {}) or taken
            case old if _read_as_part(lines, old, exp.text):
                return Skip(
                    f"skip: the value slot on the row of {seq[i - 1].text[:40]!r} holds it in part as read "
                    "(a value OCR read in pieces); not written",
                    tuple(old),
                )
            case old:  # in its row's face (a bold total's), at the column's size
                row_style = replace(style, face=label_style.face)
                return _replace_value(state, exp.text, row_style, edge, align, old, action) or taken
    return None


def _read_as_part(lines: list[Line], old, text: str) -> bool:
    """Whether the lines OCR read inside the ink box ``old`` are all pieces of ``text``, left to
    right ("80" of "3.80": the value is there, read in part; "17" of "17.42" is no piece of
    "14.72")."""
    pieces = sorted(
        (
            ln
            for ln in lines
            if old[0] - 2 <= ln.box[0] and ln.box[2] <= old[2] + 2 and old[1] - 2 <= ln.box[1] <= old[3]
        ),
        key=lambda ln: ln.box[0],
    )
    at = 0
    for ln in pieces:
        at = text.find(ln.text, at)
        if at < 0:
            return False
        at += len(ln.text)
    return bool(pieces)


def _replace_value(state: EditState, text: str, style: TypeStyle, edge: float, align: str, old, action: str):
    """Erase the row's old value (ink box ``old``) and write ``text`` in its slot: Written (with
    the erased box), or None (nothing changed) when the slot is taken past the old value."""
    pad = (max(0, old[0] - 2), max(0, old[1] - 2), old[2] + 2, old[3] + 2)
    saved_arr, saved_busy = state.arr.copy(), state.busy.copy()
    erase(state.arr, pad)
    m = max(4, round(0.4 * style.size))  # the slot's busy pixels again, from the erased page
    y0, x0 = max(0, pad[1] - m), max(0, pad[0] - m)
    state.busy[y0 : pad[3] + m, x0 : pad[2] + m] = busy_mask(state.arr[y0 : pad[3] + m, x0 : pad[2] + m], [])
    written = _write(state, text, style, edge, align, action.replace("place", "replace", 1), {})
    if written is None:
        state.arr[:], state.busy[:] = saved_arr, saved_busy
        return None
    return replace(written, boxes=[pad, *written.boxes], erased=(pad,))


def slot_ink(arr: np.ndarray, label, edge: float, align: str):
    """What the label's row (``label``'s rows) holds between the label and the column's ``edge``
    (past it by an em, for a right-aligned column; for a left one, the run that starts at it):
    None (no ink), the ink box (x0, y0, x1, y1) of its one run of ink set against the edge
    (within 3 px; runs end at a gap of an em), or "other"."""
    hgt = label[3] - label[1]
    H, W = arr.shape[:2]
    y0, y1 = max(0, label[1] - hgt // 4), min(H, label[3] + hgt // 4)
    x0, x1 = int(label[2]) + max(3, hgt // 3), min(W, int(edge) + (hgt if align == "right" else 8 * hgt))
    if x1 <= x0:
        return None
    # the label's own ground, not the page's: a receipt's paper on a tan page is no ink
    ground = np.asarray(box_colours(arr, label)[1], np.int16)
    ink = np.abs(arr[y0:y1, x0:x1].astype(np.int16) - ground[None, None]).max(2) > 40
    cols = np.flatnonzero(ink[hgt // 4 : hgt // 4 + hgt].any(0))  # columns with ink in the label's rows
    if not len(cols):
        return None
    cuts = np.flatnonzero(np.diff(cols) > hgt)
    runs = [(int(c[0]) + x0, int(c[-1]) + x0 + 1) for c in np.split(cols, cuts + 1)]
    at = [r for r in runs if abs((r[1] if align == "right" else r[0]) - edge) <= 3]
    before = [r for r in runs if r[0] < (at[0][0] if at else x1)]
    if len(at) != 1 or before:
        return "other"
    rows = np.flatnonzero(ink[:, at[0][0] - x0 : at[0][1] - x0].any(1))
    return (at[0][0], int(rows[0]) + y0, at[0][1], int(rows[-1]) + y0 + 1)


def _label_style(state: EditState, found, rules: Rules) -> TypeStyle | None:
    """The matched type of the line ``found`` ((box, text, words) or (box, None, None): the
    words inside the box)."""
    box, text, words = found
    if text is None:
        inside = [
            wd for ln in state.lines for wd in ln.words if box[0] <= wd.box[0] and wd.box[2] <= box[2] + 1
            and box[1] - 1 <= wd.box[1] and wd.box[3] <= box[3] + 1
        ]  # fmt: skip
        if not inside:
            return None
        text, pairs = " ".join(wd.text for wd in inside), [(wd.box, wd.text) for wd in inside]
    else:
        pairs = [(wd.box, wd.text) for wd in words]
    return _line_type(state, box, text, pairs, rules)
