"""A missing value on its label's row, in the column the rows around it keep their values in.

A menu's price ("In the "Desserts" section, is the price of "Apple Pie" exactly "$23.00"?"), a
key-value list's value: the check quotes the label (on the page) and the value (missing). The
rows above and below the label, in its column (left edges within ``SAME_EDGE`` px, at most
``REACH`` rows away), each hold a value to the right, and those values share an edge: their right
edge (within 2 px; prices are set flush right) or their left edge. When at least two such
neighbours do (the most that share one edge: a heading's neighbour across the page is not one of
them), and the label's row is empty up to that edge, the value goes on the label's baseline,
against that edge, in the type of the nearest value. The rows are never moved.
"""

from __future__ import annotations

from statistics import median

from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _line_type, _write
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line

SAME_EDGE = 4
"""Most difference (px) between the left edges of two labels of one column."""
REACH = 3
"""Most rows (label pitches) above or below the label a value of the column is looked for."""


def _partner(lines: list[Line], box) -> Line | None:
    """The line right of ``box`` on its row (the nearest line whose vertical middle lies in
    ``box``'s rows and starts past its right edge), or None."""
    mid_of = lambda b: (b[1] + b[3]) / 2  # noqa: E731
    right = [ln for ln in lines if ln.box[0] > box[2] and box[1] <= mid_of(ln.box) <= box[3]]
    return min(right, key=lambda ln: ln.box[0]) if right else None


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def value_column(lines: list[Line], label, text: str) -> tuple[str, float, tuple[int, int, int, int]] | None:
    """(align "right" or "left", the column's edge x, the nearest value's box) of the values the
    rows around ``label`` (a box) keep right of their labels (module docstring); None when there
    is no such column, the label's row already holds text there, or ``text`` (the value to write)
    is not of the column's kind (digits in it as in every value, or in none)."""
    hgt = label[3] - label[1]
    rows = [
        ln.box
        for ln in lines
        if abs(ln.box[0] - label[0]) <= SAME_EDGE
        and ln.box != tuple(label)
        and 0 < abs(ln.box[1] - label[1]) <= REACH * 2.5 * hgt
        and abs((ln.box[3] - ln.box[1]) - hgt) <= 0.3 * hgt
    ]
    partners = [(r, p) for r in rows if (p := _partner(lines, r)) is not None]
    best = None
    for align, at in (("right", 2), ("left", 0)):  # the most partners that share one edge
        for _, p in partners:
            group = [(r, q) for r, q in partners if abs(q.box[at] - p.box[at]) <= 2]
            if best is None or len(group) > len(best[1]):
                best = (align, group)
    if best is None or len(best[1]) < 2 or {_has_digit(q.text) for _, q in best[1]} != {_has_digit(text)}:
        return None
    align, group = best
    edge = float(median(q.box[2 if align == "right" else 0] for _, q in group))
    on_row = _partner(lines, label)  # the text right of the label, up to the column's edge
    if edge <= label[2] or (on_row is not None and on_row.box[0] < edge):
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
        written = _write(state, exp.text, style, edge, align, action, {})
        return written or Skip(f"skip: the value slot on the row of {seq[i - 1].text[:40]!r} is taken; not written")
    return None


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
