"""Locator rules of pages (``rewards.text.page.locators``): below the title, in a card, a menu
item's price, navigation links, table headers (by column, or any cell of the header row) and row
labels, date and venue lines."""

from __future__ import annotations

import re

import numpy as np

from rewards.text.page.elements import find_elements
from rewards.text.page.finders import _rows
from rewards.text.page.locator_base import ORDINALS, _any_row, _Ctx, _ink, _lines_right_of, _nth_is
from rewards.text.page.nav_bar import nav_bar
from rewards.text.page.page_lines import _inside, _Page
from rewards.text.page.rectangles import rectangles
from rewards.text.page.relations import in_section
from rewards.text.page.two_column import two_column_table
from rewards.text.questions.question_compiler import ElementSpec


def _below_title(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "below the title" (module docstring)."""
    if len(ctx.texts) != 1:
        return False
    directly = bool(m[0].group(1))
    page = ctx.page
    titles = find_elements(ElementSpec("title"), page.lines, page.image, page.size) or []
    for o in ctx.found[0]:
        for t in titles:
            if o.box[1] < t.box[3] - 2 or min(o.box[2], t.box[2]) <= max(o.box[0], t.box[0]):
                continue
            between = [
                i
                for i in page.flat
                if i not in o.lines
                and i not in t.lines
                and t.box[3] - 2 <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= o.box[1] + 2
                and min(page.lines[i].box[2], o.box[2]) > max(page.lines[i].box[0], o.box[0])
            ]
            size = min(page.sizes[i] for i in o.lines)
            blocks = {tuple(page.block(i)) for i in between}
            if not between or (not directly and len(blocks) == 1 and all(page.sizes[i] > 1.15 * size for i in between)):
                return True
    return False


def _beside_title(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "to the right (left) of the title": the occurrence stands on a title's band (its centre
    within the title's height), beyond the title's right (left) edge, within six title heights of
    it, with no other line between them: a dashboard header's date or period set beside its title."""
    if len(ctx.texts) != 1:
        return False
    page, right = ctx.page, m[0].group(1) == "right"
    titles = find_elements(ElementSpec("title"), page.lines, page.image, page.size) or []
    for o in ctx.found[0]:
        cy = (o.box[1] + o.box[3]) / 2
        for t in titles:
            gap = o.box[0] - t.box[2] if right else t.box[0] - o.box[2]
            if not (t.box[1] <= cy <= t.box[3] and -2 <= gap <= 6 * (t.box[3] - t.box[1])):
                continue
            lo, hi = (t.box[2], o.box[0]) if right else (o.box[2], t.box[0])
            if not any(
                i not in o.lines and i not in t.lines and lo - 2 < _centre_x(page.lines[i].box) < hi + 2
                and page.lines[i].box[1] <= cy <= page.lines[i].box[3]
                for i in page.flat
            ):  # fmt: skip
                return True
    return False


def _centre_x(box) -> float:
    return (box[0] + box[2]) / 2


CHANGE_NOTE = re.compile(r"[+\-\u2212\u00b1]\s?\d")
"""A card's change note starts with a sign and a digit ("+21 since Q1", "-3% vs last month")."""


def _card(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "in the card": the string and the card's quoted name (a context anchor) inside one
    rectangle of the page (``rectangles``: a card's border or fill); with "the change note", the
    string is that card's line that starts with a sign and a digit."""
    names = [boxes for relation, boxes in ctx.anchors if relation == "context"]
    if len(ctx.texts) != 1 or len(names) != 1:
        return False
    if len(m) > 1 and not CHANGE_NOTE.match(ctx.texts[0]):
        return False
    for frame in rectangles(ctx.page):
        if any(_inside(o.box, frame) for o in ctx.found[0]) and any(_inside(b, frame) for b in names[0]):
            return True
    return False


def _price(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the price of an item in a section" (texts: section heading, item, price): the item
    lies in the heading's section (``relations.in_section``) and the price is the first line right
    of it in its row."""
    if len(ctx.texts) != 3 or m[2].group(1).lower() != ctx.texts[0].lower():
        return False
    page = ctx.page
    for head in ctx.spans[0]:
        for item in ctx.spans[1]:
            if not in_section(item, head, page.lines, page.rgb()):
                continue
            right = _lines_right_of(page, item)
            if right and any(_inside(b, page.lines[right[0]].box) for b in ctx.spans[2]):
                return True
    return False


def _nav(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the Nth link of the navigation menu (from the left)": the occurrence is the Nth,
    left to right, of a row of at least three lines of one type size (``finders._rows``) in the top
    15% of the page, with no unread ink between them."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for row in _rows(page):
        boxes = [page.lines[i].box for i in row]
        if max(b[3] for b in boxes) > 0.15 * page.size[1]:
            continue
        gaps = [(a[2] + 1, min(a[1], b[1]), b[0] - 1, max(a[3], b[3])) for a, b in zip(boxes, boxes[1:])]
        if any(_ink(page, g) for g in gaps):
            continue
        if any(o.lines and _nth_is(row, o.lines[0], ordinal) for o in ctx.found[0] if len(o.lines) == 1):
            return True
    return False


def _nav_brand(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "at the left of the navigation bar": the occurrence is the bar's brand line
    (``nav_bar.nav_bar``: the only line left of a top row of links, on its band)."""
    if len(ctx.texts) != 1:
        return False
    brand, _ = nav_bar(ctx.page)
    return brand is not None and any(list(o.lines) == [brand] for o in ctx.found[0])


def _aligned(page: _Page, a: list[int], b: list[int]) -> bool:
    """True when rows ``a`` and ``b`` have as many cells, left edges within a type size of each other."""
    return len(a) == len(b) and all(
        abs(page.lines[i].box[0] - page.lines[j].box[0]) <= max(4.0, page.sizes[i]) for i, j in zip(a, b)
    )


def _table(ctx: _Ctx) -> tuple[list[int], list[list[int]]]:
    """The page's table: its header row (the topmost row of at least three lines followed by at
    least two rows whose cells align with it, ``_aligned``) and its body rows, top to bottom;
    ([], []) when there is none, or when a row of cells stands just over that header row
    (``_row_above``: a blank corner cell made the first body row look like the header, and
    "$1.2M" passed for the header of the second column)."""
    if "table" not in ctx.memo:
        page, found = ctx.page, ([], [])
        rows = {tuple(_any_row(page, i)) for i in page.flat}
        rows = sorted((list(r) for r in rows if len(r) >= 3), key=lambda r: page.lines[r[0]].box[1])
        for k, head in enumerate(rows):
            body = [r for r in rows[k + 1 :] if _aligned(page, head, r)]
            if len(body) >= 2:
                found = ([], []) if _row_above(page, head, body) else (head, body)
                break
        if found == ([], []):  # no table of three columns: one of two, its first row's style telling its header
            every = sorted(
                (list(r) for r in {tuple(_any_row(page, i)) for i in page.flat}), key=lambda r: page.lines[r[0]].box[1]
            )
            found = two_column_table(page, every, _aligned) or found
        ctx.memo["table"] = found
    return ctx.memo["table"]


def _row_above(page: _Page, head: list[int], body: list[list[int]]) -> bool:
    """True when a row of two lines or more (``_any_row``) stands over the header row's span within
    1.5 row pitches above it: the row taken for the header may be the first body row under a
    header of fewer cells (a blank corner, a header OCR missed); a title or a caption is one line."""
    tops = [page.lines[r[0]].box[1] for r in [head, *body]]
    pitch = float(np.median(np.diff(tops)))
    x0, x1 = min(page.lines[i].box[0] for i in head), max(page.lines[i].box[2] for i in head)
    top = min(page.lines[i].box[1] for i in head)
    return any(
        top - 1.5 * pitch <= page.lines[i].box[1] < top - 0.5 * pitch
        and page.lines[i].box[0] < x1
        and page.lines[i].box[2] > x0
        and len(_any_row(page, i)) >= 2
        for i in page.flat
    )


def _column_header(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the header of the Nth column": the occurrence is the Nth cell of the table's header row (``_table``)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    head, _ = _table(ctx)
    if ordinal is None or len(ctx.texts) != 1 or not head:
        return False
    return any(len(o.lines) == 1 and _nth_is(head, o.lines[0], ordinal) for o in ctx.found[0])


def _header_cell(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a cell of the (first) header row": the occurrence is one of the cells of the table's
    header row (``_table``)."""
    head, _ = _table(ctx)
    if len(ctx.texts) != 1 or not head:
        return False
    return any(len(o.lines) == 1 and o.lines[0] in head for o in ctx.found[0])


def _row_label(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the Nth row label in the Kth column": the occurrence is the Kth cell of the table's
    Nth body row (``_table``)."""
    row_n, col_k = ORDINALS.get(m[0].group(1).lower()), ORDINALS.get(m[1].group(1).lower())
    _, body = _table(ctx)
    if row_n is None or col_k is None or len(ctx.texts) != 1 or not body:
        return False
    column = [r[col_k - 1 if col_k > 0 else len(r) - 1] for r in body if len(r) >= abs(col_k)]
    return any(len(o.lines) == 1 and _nth_is(column, o.lines[0], row_n) for o in ctx.found[0])


DATE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d"
    r"|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b",
    re.IGNORECASE,
)
"""A date: a month name next to a number ("March 28", "12 Oct"), or 28/03/2026, 2026-03-28."""


def _date_line(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the date line": the string holds a date (``DATE``) and is read as a line of its own."""
    return len(ctx.texts) == 1 and bool(DATE.search(ctx.texts[0])) and any(len(o.lines) == 1 for o in ctx.found[0])


def _below_date(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the venue line below the date": the occurrence, a line without a date, has right above
    it (the nearest line over it, overlapping it horizontally) a line that holds a date."""
    if len(ctx.texts) != 1 or DATE.search(ctx.texts[0]):
        return False
    page = ctx.page
    for o in (o for o in ctx.found[0] if len(o.lines) == 1):
        over = [
            i
            for i in page.flat
            if page.lines[i].box[3] <= o.box[1] + 2
            and min(page.lines[i].box[2], o.box[2]) > max(page.lines[i].box[0], o.box[0])
        ]
        if over and DATE.search(page.lines[max(over, key=lambda i: page.lines[i].box[3])].text):
            return True
    return False
