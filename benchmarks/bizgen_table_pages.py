"""Tables named by place or subject, drawn for ``bizgen_render_check`` (issue 31): "in the lower central
table", "the second data row" of "the left therapy table body", "the same drug comparison table".

:func:`table_page` draws the asked table with the question's strings as the cells of the asked row
(the first data row when no row is named), beside filler rows. With position words ("lower
central", "left") a second table of other cells stands the other way (above it, right of it): the
page a person reads "the lower table" on. A table named by its subject alone is the page's only
table. The "moved" defect page puts the strings in the same row of the other table, or, with one
table, in the next row (the row after the asked one) or, without a row part, in a line under
the table: where a person says the strings are not in that table or row.
"""

from __future__ import annotations

import html
import re

from rewards.text.page.table_locators import ROW, is_table, parse_table

LAST = 3
"""The row "the last row" is drawn at: the table then has ``LAST + 1`` rows (``table_page``)."""

FILLER_ROWS = [["North", "24", "2.4"], ["East", "36", "3.6"], ["West", "29", "4.7"], ["Coast", "62", "7.3"]]


def _row_index(parts: tuple[str, ...]) -> int:
    """The asked row (0: the header) of the question's row part; 1 when it names none."""
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth"]
    for p in parts:
        m = ROW.fullmatch(p)
        if m is None:
            continue
        if m.group("n") is None:
            return 0
        if m.group("n").lower() == "last":
            return LAST
        n = ordinals.index(m.group("n").lower()) + 1 if m.group("n").lower() in ordinals else LAST
        return n if m.group("data") else n - 1
    return 1


def _table(cells: list[str], k: int, rows: int, css: str, head: str) -> str:
    """An HTML table of ``rows`` rows (the header ``head`` words first) with ``cells`` in row ``k``."""
    width = len(cells)
    grid = [[f"{head} {c + 1}" for c in range(width)]]
    grid += [(FILLER_ROWS[r % 4] + [f"{r}.{c}" for c in range(3, width)])[:width] for r in range(rows - 1)]
    if 0 <= k < rows:
        grid[k] = cells
    small = len(cells) > 3 or max(len(c) for c in cells) > 24  # long rows: smaller type, wrapped in the cells
    cell = f"padding:6px {6 if small else 14}px;text-align:left;font-size:{13 if small else 16}px"
    cell += ";border-bottom:1px solid #bbb"
    body = "".join(
        "<tr>" + "".join(f"<{'th' if r == 0 else 'td'} style='{cell}'>{html.escape(c)}</{'th' if r == 0 else 'td'}>"
                         for c in row) + "</tr>"
        for r, row in enumerate(grid)
    )  # fmt: skip
    return f"<table style='position:absolute;{css};border-collapse:collapse'>{body}</table>"


def table_page(parts: tuple[str, ...], texts: tuple[str, ...], moved: bool, corner=(60, 150)) -> str | None:
    """The tables of the question's table part (module docstring), or None when no part names one;
    a table named by its subject alone has its top-left at ``corner`` (px: where the question's
    own place puts it)."""
    part = next((p for p in parts if is_table(p)), None)
    if part is None:
        return None
    positions = parse_table(re.fullmatch(r"locator '(.*)'", part).group(1)) or []
    cells = list(texts) + [f"{x}" for x in ("n/a", "—", "…")][: max(0, 3 - len(texts))]
    k = _row_index(parts)
    last = any((m := ROW.fullmatch(p)) and (m.group("n") or "").lower() == "last" for p in parts)
    rows = LAST + 1 if last else max(4, k + 2)
    low, high = "top:400px", "top:90px"
    if "left" in positions or "right" in positions:  # side by side, the other beyond
        mine, other = ("left:20px;top:150px;width:520px", "left:580px;top:150px;width:400px")
        mine, other = (other, mine) if "right" in positions else (mine, other)
    elif positions:
        mine, other = (f"left:60px;{low}", f"left:60px;{high}")
        mine, other = (other, mine) if {"top", "upper"} & set(positions) else (mine, other)
    else:
        mine, other = f"left:{corner[0]:.0f}px;top:{corner[1]:.0f}px", None
    if other is None:
        if moved and any(ROW.fullmatch(p) for p in parts):
            return _table(cells, k - 1 if last else k + 1, rows + (not last), mine, "Col")  # another row
        if moved:
            line = html.escape(" ".join(texts))
            return (
                _table(cells, -1, rows, mine, "Col")
                + f"<div style='position:absolute;left:60px;top:560px'>{line}</div>"
            )
        return _table(cells, k, rows, mine, "Col")
    asked, away = (-1, k) if moved else (k, -1)
    return _table(cells, asked, rows, mine, "Col") + _table(cells, away, rows, other, "Key")
