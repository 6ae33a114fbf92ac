"""A table cell asked by a column label the page does not show (issue 31, judge15).

"In the 'Connectivity' row, does the 'Value' cell read exactly 'Bluetooth 5.3'?" of a spec sheet
whose table has no header row: a row label and its one value per row. The question names the
column by what its cells are; the page never prints "Value". The anchor rule then found nothing
("anchor 'Value' not read") and withheld every cell of the table (a tenth tester's spec sheets: 5
withheld on dev). A person reads the row's one value as the cell asked.

:func:`without_column` gives the spec asked of the row alone, when

- the question asks a table cell by its row and its column (a ``same_row`` and a ``context``
  anchor, ``ElementSpec`` role ``table_cell``);
- the column label is read nowhere, nor anything close (best similarity under ``NEAR``: a label
  read with a typo, "Valeu", is a column the page shows, and keeps the anchor rule);
- the row label is read once, and right of it in its row the page holds one cell, no more
  (``finders._table_cell`` with no column: a row of two or more values has columns a person
  tells apart by their labels, and those are not read).

The cell is then the row's one value: the check is decided on it (``OCRJudge._relocated``).
"""

from __future__ import annotations

from dataclasses import replace

from rewards.text.ocr.text_match import Line, find_matches
from rewards.text.questions.question_compiler import TextSpec

NEAR = 0.5
"""Similarity (``Match.similarity``) from which a read string is a near miss of the column label
(``rewards.judges.ocr_doubt.NEAR``)."""


def without_column(spec: TextSpec, lines: list[Line], image, size: tuple[int, int]) -> TextSpec | None:
    """``spec`` asked of its row's one cell, without the column label the page does not show
    (module rules), or None."""
    from rewards.text.page.elements import find_elements

    el = spec.element
    rel = {a.relation: a for a in spec.anchors}
    if el is None or el.role != "table_cell" or not (el.row and el.column) or set(rel) != {"same_row", "context"}:
        return None
    if len(spec.anchors) != 2 or rel["context"].text != el.column or rel["same_row"].text != el.row:
        return None
    column = find_matches(el.column, lines, *size)
    if column and column[0].similarity >= NEAR:
        return None
    if sum(m.found for m in find_matches(el.row, lines, *size)) != 1:
        return None
    row_only = replace(el, column=None, phrase=f"the cell of the '{el.row}' row")
    cells = find_elements(row_only, lines, image, size)
    if not cells or len(cells) != 1:
        return None
    return replace(spec, anchors=(rel["same_row"],), element=row_only)
