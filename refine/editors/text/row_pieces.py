"""Whether an OCR line is a piece of a longer line of text that OCR read in pieces.

Small grey type (a league table's 12 px footer) is read as several OCR lines on one row: "To",
"jubs", "motec", "the bottom", "cl", "enter", "the play-off." for "Top two clubs are promoted; the
bottom club enters the play-off.". The last piece, on a line of its own, looked like the footer
with its first words dropped, and was rewritten as the whole string from its own left edge: the
footer then read "... the bottom club enters Top two clubs are promoted; ... play-off." (1791 px
over the card's edge). A piece whose row goes on beside it is not the whole text of its line.
"""

from __future__ import annotations

from rewards.text.ocr.text_match import Line, Match

GAP = 2.5
"""Most gap (line heights) between a piece and the next word on its row: a word space is under
half a line height; a word OCR did not read between two pieces leaves a gap of one or two. Cells of
one table row stand further apart (3-5 line heights on the eleventh tester's league table)."""
ROW = 0.5
"""Most distance between two pieces' vertical centres, in line heights: one row."""


def row_continues(m: Match, lines: list[Line]) -> bool:
    """Whether the one OCR line ``m`` lies on has another OCR line on its row (vertical centres
    within ``ROW`` of its height, heights within half of each other) with a letter or digit, less
    than ``GAP`` line heights left or right of it: the line is a piece of a longer line (module
    docstring). False for a match over several lines, or a rotated one."""
    ids = {li for li, _ in m.words}
    if len(ids) != 1:
        return False
    li = ids.pop()
    if lines[li].angle:
        return False
    x0, y0, x1, y1 = lines[li].box
    hgt = max(1, y1 - y0)
    for k, ln in enumerate(lines):
        if k == li or ln.angle or not any(c.isalnum() for c in ln.text):
            continue
        a0, b0, a1, b1 = ln.box
        if abs((b0 + b1) - (y0 + y1)) / 2 > ROW * hgt or not 0.5 * hgt <= b1 - b0 <= 2 * hgt:
            continue
        gap = max(a0 - x1, x0 - a1)
        if gap <= GAP * hgt:
            return True
    return False
