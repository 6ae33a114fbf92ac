"""A table of two columns: its header row, or the evidence that it has none.

The table rules of ``page_locators`` (the header of the Nth column, the Nth row label) take the
topmost row of at least three cells followed by two rows aligned with it as a table whose first
row is its header. A table of two columns (a receipt's "Item | EUR", a spec sheet's "Weight | 1.4
kg" rows; a ninth and a tenth tester's pages: 10 withheld on dev) was no table: its first row
may be a header or the first of a header-less key-value list, and counting rows from the wrong
one would confirm the wrong row label. Here the first row's style decides (``text_style.measure``,
cell by cell against the body rows' cells of its column): every cell measured bold over regular
body cells is a header; every cell as the body's (regular, in the body's ink colour within
``SAME_INK`` per channel and its type size) is the first body row of a list with no header;
anything else decides nothing (no table).
"""

from __future__ import annotations

from rewards.text.page.page_lines import _Page, _same_size
from rewards.text.page.text_style import measure

SAME_INK = 40
"""Ink colours whose channels differ by at most this (0-255) are one colour."""
BODY = 3
"""Body rows measured against the first row."""


def two_column_table(page: _Page, rows: list[list[int]], aligned) -> tuple[list[int], list[list[int]]] | None:
    """(header row, body rows) of the topmost two-cell row of ``rows`` (rows of line indices, top to
    bottom) followed by at least two rows ``aligned`` with it (``aligned(page, a, b)``), each the
    next row that reaches the table's left edge (its cells left of that edge set aside: a list
    beside the table at one row's height), the first that does not align ending it: the header
    ``[]`` when the first row is the list's first (module docstring); None when there is no such
    table or its first row's style decides nothing."""
    rgb = page.rgb()
    for k, first in enumerate(rows):
        if len(first) != 2:
            continue
        left = page.lines[first[0]].box[0] - page.sizes[first[0]]
        body = []
        for r in rows[k + 1 :]:
            cells = [i for i in r if page.lines[i].box[2] > left]
            if not cells:
                continue
            if not aligned(page, first, cells):
                break
            body.append(cells)
        if len(body) < 2:
            continue
        if rgb is None:
            return None
        style = lambda i: measure(rgb, [(w.box, w.text) for w in page.lines[i].words])  # noqa: E731
        head = [style(i) for i in first]
        cells = [[style(r[c]) for r in body[:BODY]] for c in range(2)]
        if all(h.weight == "bold" for h in head) and all(s.weight == "regular" for col in cells for s in col):
            return first, body
        if any(h.weight == "regular" for h in head) and all(
            _alike(page, first[c], head[c], [r[c] for r in body[:BODY]], cells[c]) for c in range(2)
        ):
            return [], [first, *body]
        return None
    return None


def _alike(page: _Page, i: int, style, others: list[int], styles) -> bool:
    """True when cell ``i`` (its ``style``) is set as the body cells ``others`` of its column: none
    bold (a short cell's weight may not be measured), in one ink colour, in one type size."""
    if style.weight == "bold" or style.rgb is None:
        return False
    return all(
        s.weight != "bold"
        and s.rgb is not None
        and max(abs(a - b) for a, b in zip(style.rgb, s.rgb)) <= SAME_INK
        and _same_size(page.sizes[i], page.sizes[j])
        for j, s in zip(others, styles)
    )
