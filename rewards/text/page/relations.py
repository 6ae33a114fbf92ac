"""Relations between boxes on a page: how a located string stands to its anchor.

``satisfies_relation`` (above, below, left/right of, same row/column, context), ``between``,
``in_arrangement`` (top to bottom, left to right, reading order, lines, row), and the page-structure
narrowings a locator asks for (``anchor_kind``): the section a heading opens (``in_section``) and
the column of a bar (``in_column``). Used by ``rewards.text.page.grounding`` (rule 3 and 8).

Boxes are ``(x0, y0, x1, y1)`` pixels, y growing downwards.
"""

from __future__ import annotations

import numpy as np

from rewards.text.ocr.text_match import Line
from rewards.text.page.page_lines import figure_line, title_sure, type_size

Box = tuple[int, int, int, int]


def _centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _x_overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0])


def _y_overlap(a: Box, b: Box) -> bool:
    return min(a[3], b[3]) > max(a[1], b[1])


def beside_off_row(box: Box, anchor: Box, relation: str) -> bool:
    """True when ``box`` lies wholly on the asked side of ``anchor`` (``relation`` "right_of" or
    "left_of") but on no common row: "Is the annotation 'Ridge EV' to the right of 'Model K'?" on a
    scatter, where 'Ridge EV' stands far right and higher up. ``satisfies_relation`` wants one row
    (a person reading a table or a nav bar means that); whether this one counts is left to a VLM,
    never answered "no". Any other relation: False."""
    if relation == "right_of":
        return box[0] >= anchor[2] and not _y_overlap(box, anchor)
    if relation == "left_of":
        return box[2] <= anchor[0] and not _y_overlap(box, anchor)
    return False


CONTEXT_REACH = 15
"""How far (in anchor line heights) the element a context quote names may stand from it."""


def satisfies_relation(box: Box, anchor: Box, relation: str, line_height: float) -> bool:
    """True when ``box`` stands in ``relation`` to ``anchor`` (pixels; y grows downwards).

    - below / above: the centre of ``box`` is below the anchor's bottom (above its top);
    - directly_below / directly_above: also overlapping it horizontally, and within 4 line
      heights (``line_height``: the anchor's height, pixels);
    - right_of / left_of: the centre is right of the anchor's right edge (left of its left edge)
      and the two overlap vertically (the same line or row);
    - same_row: they overlap vertically; same_column: they overlap horizontally;
    - context (the anchor names the element asked about: "the label under the bar with the
      numeric label '54'", "In the section labeled 'Overall NYC media'"): they overlap, or stand
      in one column (horizontal overlap) or one row (vertical overlap) at most ``CONTEXT_REACH``
      anchor heights apart.
    """
    cx, cy = _centre(box)
    if relation in ("below", "directly_below"):
        ok = cy > anchor[3]
        return ok and (relation == "below" or (_x_overlap(box, anchor) and box[1] - anchor[3] <= 4 * line_height))
    if relation in ("above", "directly_above"):
        ok = cy < anchor[1]
        return ok and (relation == "above" or (_x_overlap(box, anchor) and anchor[1] - box[3] <= 4 * line_height))
    if relation == "right_of":
        return cx > anchor[2] and _y_overlap(box, anchor)
    if relation == "left_of":
        return cx < anchor[0] and _y_overlap(box, anchor)
    if relation == "same_row":
        return _y_overlap(box, anchor)
    if relation == "same_column":
        return _x_overlap(box, anchor)
    if relation == "context":  # the element the anchor names: in its column or its row, nearby
        reach = CONTEXT_REACH * line_height
        gap_y = max(box[1] - anchor[3], anchor[1] - box[3], 0)
        gap_x = max(box[0] - anchor[2], anchor[0] - box[2], 0)
        return (
            (_x_overlap(box, anchor) and gap_y <= reach)
            or (_y_overlap(box, anchor) and gap_x <= reach)
            or (gap_x == 0 and gap_y == 0)
        )
    raise ValueError(f"unknown relation {relation!r}")


def line_between(box: Box, anchor: Box, relation: str, lines: list[Line], own: set[int]) -> bool:
    """True when, for ``relation`` directly_below (directly_above), another read line stands between
    ``anchor`` and ``box``: its centre lies below the anchor's bottom and above the box's top (the
    reverse for above), it overlaps ``box`` horizontally, it has two letters or digits, and it is
    none of ``own`` (the indices of the lines of the occurrence and of the anchor, a line read twice
    counted once). "Is 'Lemon Tart' listed directly below 'Caesar Salad'?" is then "no" when the
    menu's "Fish Tacos" row stands between them, though within four line heights."""
    if relation not in ("directly_below", "directly_above"):
        return False
    lo, hi = (anchor[3], box[1]) if relation == "directly_below" else (box[3], anchor[1])
    for i, line in enumerate(lines):
        if i in own or sum(ch.isalnum() for ch in line.text) < 2:
            continue
        b = line.box
        if lo < (b[1] + b[3]) / 2 < hi and _x_overlap(b, box):
            return True
    return False


def between(box: Box, first: Box, second: Box) -> bool:
    """True when ``box`` stands between the anchors ``first`` and ``second`` (either order):
    its centre projects strictly inside the segment joining their centres, and lies within one
    anchor height of that segment (so "between 'About Us' and 'Blog'" holds for the menu item
    in the row between them, and "between two lines of a list" for the line in the list)."""
    (ax, ay), (bx, by), (cx, cy) = _centre(first), _centre(second), _centre(box)
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    t = ((cx - ax) * dx + (cy - ay) * dy) / length2
    dist = abs((cx - ax) * dy - (cy - ay) * dx) / length2**0.5
    height = max(first[3] - first[1], second[3] - second[1], 1)
    return 0.0 < t < 1.0 and dist <= height


def in_arrangement(boxes: list[Box], arrangement: str) -> bool:
    """True when ``boxes`` (one per required string, in the question's order) are laid out as
    ``arrangement`` (``rewards.text.questions.question_compiler.ARRANGEMENTS``):

    - all: always;
    - top_to_bottom: each next centre is below the previous box's centre and not inside it
      (its centre below the previous box's bottom - 25% of its height);
    - left_to_right: each next centre is right of the previous box's right edge - 25% of its width;
    - reading_order: each next box starts on a later line (centre below the previous bottom) or
      on the same line (vertical overlap) further right;
    - lines: each next box starts below the previous one (its top at least the previous centre),
      within 2.5 line heights of it, overlapping it horizontally;
    - row: left to right, and every next centre within the first box's height band (one table
      row: "a row labeled 'Advice' with values '53', '30'").
    """
    for a, b in zip(boxes, boxes[1:]):
        ah, aw = max(1, a[3] - a[1]), max(1, a[2] - a[0])
        bx, by = _centre(b)
        if arrangement == "top_to_bottom" and not by > a[3] - 0.25 * ah:
            return False
        if arrangement == "left_to_right" and not bx > a[2] - 0.25 * aw:
            return False
        if arrangement == "reading_order" and not (by > a[3] or (_y_overlap(a, b) and bx > a[2] - 0.25 * aw)):
            return False
        if arrangement == "lines" and not (b[1] >= (a[1] + a[3]) / 2 and b[1] - a[3] <= 2.5 * ah and _x_overlap(a, b)):
            return False
        if arrangement == "row" and not (bx > a[2] - 0.25 * aw and boxes[0][1] < by < boxes[0][3]):
            return False
    return True


def anchor_kind(text: str, locators: tuple[str, ...]) -> str:
    """How a locator quoting anchor ``text`` measures its relation: "section" for "under the 'X'
    heading" / "in the 'X' section" (the heading's own section: ``in_section``), "column" for
    "above the 'X' bar" (the bar's column: ``in_column``), "cell" for "the 'X' cell" (a grid's
    column label, also read down a column of numbers: ``down_number_column``), else "" (the
    relation alone)."""
    for p in locators:
        if f"'{text}'" not in p and f'"{text}"' not in p:
            continue
        low = p.lower()
        if "under" in low and ("heading" in low or "section" in low):
            return "section"
        if ("above" in low or "below" in low) and "bar" in low:
            return "column"
        if f"'{text}' cell" in p or f'"{text}" cell' in p:
            return "cell"
    return ""


def in_column(box: Box, anchor: Box) -> bool:
    """True when ``box``'s centre lies over ``anchor``'s width (a bar's value label over its
    category label: "above the 'South' bar" is not the label of the bar beside it)."""
    return anchor[0] <= _centre(box)[0] <= anchor[2]


NUMBER_CHARS = frozenset("0123456789.,%$€£+-−–()")
"""What a grid's cell of numbers is read as (``down_number_column``)."""


def down_number_column(box: Box, anchor: Box, lines: list[Line]) -> bool:
    """True when ``box`` stands in the column of the label ``anchor`` (its centre over the label's
    width, ``in_column``), above or below it, and every line read between them that overlaps the
    column is a number: an annotated heatmap's cell, its column label the x tick under the grid
    (the cells of the rows between are read on the way, however far). A word between (another
    table's header, a caption) ends the column. A number whose right edge is the label's (within
    a third of the label's height) stands in its column too: a right-aligned column's wider value
    ("32.64" in bold under "EUR": its centre left of the label, a ninth tester's receipt)."""
    right_aligned = abs(box[2] - anchor[2]) <= max(2.0, (anchor[3] - anchor[1]) / 3)
    if not (in_column(box, anchor) or right_aligned) or _y_overlap(box, anchor):
        return False
    lo, hi = (anchor[3], box[1]) if _centre(box)[1] > anchor[3] else (box[3], anchor[1])
    for ln in lines:
        b = ln.box
        if ln.angle or not (_x_overlap(b, box) and lo <= _centre(b)[1] <= hi):
            continue
        text = ln.text.replace(" ", "")
        if not text or not set(text) <= NUMBER_CHARS:
            return False
    return True


def _em_at(box: Box, lines: list[Line]) -> float:
    """The type size (``page_lines.type_size``, em in pixels) of the horizontal line holding
    ``box``'s centre; ``box``'s height when none does."""
    cx, cy = _centre(box)
    for ln in lines:
        b = ln.box
        if not ln.angle and b[0] <= cx <= b[2] and b[1] <= cy <= b[3]:
            em = type_size(ln)
            if em > 0:
                return em
    return float(box[3] - box[1])


def in_section(box: Box, anchor: Box, lines: list[Line], rgb: np.ndarray | None = None) -> bool:
    """True when ``box`` lies in the section the heading ``anchor`` opens: below it, overlapping
    its column (horizontally), and no other line between them, in that column, whose type size
    (em, not box height: descenders make "Support tickets" taller than "What we learned") is at
    least ``SECTION_HEADING`` of the heading's and ``ITEM_HEIGHT`` times ``box``'s (the next
    heading closes the section; a menu's other column is not this one). A figure
    (``page_lines.figure_line``) right under the heading, the first line of its column there, is
    the heading's own value and closes nothing: a pricing tier's "$29/month" in 44 px type under
    "Growth" in 22 px (a tester's pricing page, issue 31).

    ``rgb`` (the image, uint8 (H, W, 3)): a line between is also measured by its ink
    (``type_size`` with ``rgb``) and closes the section only when both measures are large: OCR
    gives a tag pill's label the pill's box, edges read "|" ("| Ops |", 26 px for 11 px type),
    and a kanban column's second ticket under its pill was refuted as "not under 'Done'". A line
    of at most three letters or digits read unsure (``page_lines.title_sure``: a weather card's
    icon read "ba" at confidence 54 between "Sun" and its sky) is a drawing and closes nothing."""
    if not _x_overlap(box, anchor) or _centre(box)[1] <= anchor[3]:
        return False
    head, own = _em_at(anchor, lines), _em_at(box, lines)
    between = [
        ln
        for ln in lines
        if not ln.angle
        and ln.box != anchor
        and _x_overlap(ln.box, box)
        and anchor[3] <= ln.box[1]
        and ln.box[3] <= box[1]
    ]
    first = min(between, key=lambda ln: ln.box[1], default=None)
    for ln in between:
        if ln is first and figure_line(ln):  # a tier's price set large right under its name opens no section
            continue
        if not title_sure(ln):  # an icon read as letters ("ba" at 54, a day card's lightning bolt) is no heading
            continue
        em = type_size(ln) if rgb is None else min(type_size(ln), type_size(ln, rgb) or type_size(ln))
        if em >= SECTION_HEADING * head and em >= ITEM_HEIGHT * own:
            return False
    return True


SECTION_HEADING = 0.8
"""A line at least this share of a heading's height closes the heading's section (``in_section``)..."""
ITEM_HEIGHT = 1.15
"""... when it is also this much taller than the item asked about (another item does not close it)."""
