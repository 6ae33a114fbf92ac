"""A cell named by its row and column labels in a grid without rules: the number there is its wrong value.

"In the 'Friday' row, does the '8 am' cell read exactly "57"?" names one cell of a grid. An
annotated heatmap draws no table rules and puts its column labels under the grid as x tick labels,
so the page structure finds no table cell (``rewards.text.page``), and "53" in that cell, one digit
off, is no version of "57" by spelling (``near_match.digit_off`` takes a one-digit-off read only for a
price): the editor called the value missing and, finding no slot, skipped it. The cell is where the
row label's row crosses the column label's column: the one OCR word whose centre lies in the row
label's height and the column label's width (each grown by half a label height), right of the row
label and off the column label's line. When that word is a number, it is the cell's wrong value and
is rewritten in place, in its own type; when the labels are not each read once, or the crossing
holds no word or several, or the word is no number, nothing is located (the other jobs go on).
A read the pixels show as the expected string (``near_match.drawn_as_expected``: OCR's "51" of a
drawn "57") is left alone: the editor never retypes a correct value on a misread. A word with ink
of its colour right beside it on its row (``_ink_beside``: a receipt's "3.70" read "70", the "3."
dropped) is only part of the cell's value: rewriting the word alone would set the new value over
the unread part ("3.3.90"), so nothing is located and the row-and-column slot
(``place_in_row_column``) takes the cell's whole run of ink.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.near_match import drawn_as_expected
from refine.editors.text.outcomes import Rewrite, Skip
from refine.editors.text.place_at_bar import NUMBER
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import LOOKALIKES, Line, Match, normalize

Box = tuple[int, int, int, int]


def _key(text: str) -> str:
    """``text`` normalized, look-alikes folded and spaces dropped: OCR's "8am" is the label "8 am"."""
    return normalize(text).translate(LOOKALIKES).replace(" ", "")


def label_box(lines: list[Line], text: str) -> Box | None:
    """The box of the one OCR line of ``lines`` that reads ``text`` (``_key``), or None when none or
    several do (a label read twice names no one row or column)."""
    want = _key(text)
    found = [ln.box for ln in lines if _key(ln.text) == want]
    return tuple(int(v) for v in found[0]) if len(found) == 1 else None


def cell_word(lines: list[Line], row: Box, column: Box) -> tuple[int, int] | None:
    """(line index, word index) of the one OCR word of ``lines`` in the cell where the row label at
    ``row`` crosses the column label at ``column`` (module docstring), or None."""
    pad = (row[3] - row[1]) / 2
    inside = []
    for li, ln in enumerate(lines):
        for wi, wd in enumerate(ln.words):
            cx, cy = (wd.box[0] + wd.box[2]) / 2, (wd.box[1] + wd.box[3]) / 2
            in_row = row[1] - pad <= cy <= row[3] + pad and wd.box[0] > row[2]
            in_column = column[0] - pad <= cx <= column[2] + pad and not column[1] <= cy <= column[3]
            if in_row and in_column:
                inside.append((li, wi))
    return inside[0] if len(inside) == 1 else None


def _ink_beside(arr: np.ndarray, box: Box) -> bool:
    """Whether two or more pixels nearer the word's ink colour than its background lie within 0.6
    of its height left or right of ``box`` (x0, y0, x1, y1) on its rows of ``arr`` (uint8 (H, W, 3))."""
    x0, y0, x1, y1 = box
    reach = max(3, round(0.6 * (y1 - y0)))
    ink, bg = (np.asarray(c, np.int16) for c in box_colours(arr, box))
    for a, b in ((max(0, x0 - reach), x0), (x1, min(arr.shape[1], x1 + reach))):
        strip = arr[y0:y1, a:b].astype(np.int16)
        if strip.size and (np.abs(strip - ink).sum(2) < np.abs(strip - bg).sum(2)).sum() >= 2:
            return True
    return False


def cell_target(state: EditState, exp: TextExpectation, element, rules: Rules) -> Rewrite | Skip | None:
    """The Rewrite of the number in the cell ``element`` names (a table cell with its row and
    column labels) where ``exp`` belongs, a Skip when its pixels show ``exp`` already, or None when
    the cell or a number in it is not found (module docstring)."""
    row, column = label_box(state.lines, element.row), label_box(state.lines, element.column)
    if row is None or column is None:
        return None
    at = cell_word(state.lines, row, column)
    if at is None or at in state.protected:
        return None
    word = state.lines[at[0]].words[at[1]]
    if not NUMBER.match(word.text) or not NUMBER.match(exp.text):
        return None  # a cell of words is a table's, found by the page structure
    if _ink_beside(state.arr, tuple(int(v) for v in word.box)):
        return None
    m = Match(word.text, tuple(int(v) for v in word.box), 0.0, False, (at,))
    if len(word.text) == len(exp.text) and drawn_as_expected(state.arr, state.lines, m, exp.text, rules):
        return Skip("skip: already in its cell (the pixels match the expected value better than the OCR text)")
    return Rewrite(m, state.lines)
