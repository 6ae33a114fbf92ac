"""Generic roles typed by the page (issue 31): "the column header", "the card title", "the course
name" read exactly as a string.

A generic role (``rewards.text.questions.generic_role``) compiles to a whole element: the string
read as a line or block of its own. That alone let any whole line pass for the element named (a
sidebar link "Orders" for "the card title", a person's name for "the course name"). With no
relation, place or ordinal to narrow it, the role's words are read here (``role_kind``):

- **typed by the structure**: a column header is a line of a table's header row, a row label the
  leftmost line of a data row (``rewards.text.page.table_locators.tables``); a card, tile, box or
  panel title the top line inside a card (``finders._card``); a button label a line in a button;
  a legend entry a legend entry; an axis or tick label a line of a tick row or an axis title. The
  string read as one of them passes; read only elsewhere, or the role not found, the element part
  is unknown (withheld); "no" only for a table's header or row label asked in the other role,
  when every element of the named role is read with confidence (``table_refutes``).
- **a navigation bar's** (a nav link, a tab, a brand or logo name): the bar's links or its
  brand line (``rewards.text.page.nav_bar``); a sidebar or breadcrumb, or no bar found: unknown.
- **typed by its content** ("the year label", "the price", "the percentage"): a string of another
  form (a year label "Our Journey") is unknown; one of that form passes.
- **untyped** ("the course name", "the recipient name", "the country label"): the string passes
  when it is the page's title, when it is set in body type (one of a page's labels, annotations
  or stats: such small elements of one kind are many, and the role names any of them), when a
  line just above or left of it names the role's word ("has completed the course" above
  "Advanced Data Analysis"), or when no other line but the title is set in display type
  (``DISPLAY``). Otherwise (a certificate's recipient and course, two display lines) it is
  unknown: code cannot tell which one the role names.
- a role of one word ("the annotation", "the label") is left as it was: any whole element.

``series_heading`` is the same idea for "the heading" read exactly as a number: one of a row or
column of numbers in one type size (a timeline's years, KPI values) is not a heading.
"""

from __future__ import annotations

import re
from statistics import median

from rewards.text.ocr.text_match import Match, words_conf
from rewards.text.page.finders import FINDERS, HEADING_SIZE, _body_under, _tick_rows
from rewards.text.page.nav_bar import nav_bar
from rewards.text.page.page_lines import SAME_SIZE, Box, _Page, _same_size, figure_line, figure_size
from rewards.text.page.table_locators import tables
from rewards.text.page.text_style import measure
from rewards.text.questions.question_compiler import ElementSpec

_TITLE_HEADS = frozenset({"title", "heading", "header", "headline", "label", "name", "text", "caption"})
_HOLDERS = frozenset({"card", "tile", "box", "panel"})
_NAV = frozenset({"nav", "navigation", "sidebar", "navbar", "brand", "logo", "breadcrumb"})
"""Words of a navigation bar's elements ("menu" is not one: a restaurant's menu items are dishes)."""
_PLAIN_WORDS = frozenset({"text", "exact", "visible", "displayed", "printed", "written", "shown"})
_CONTENT = {
    "year": r"(?:19|20)\d\d",
    "price": r".*\d.*",
    "amount": r".*\d.*",
    "cost": r".*\d.*",
    "total": r".*\d.*",
    "percentage": r".*\d.*",
    "percent": r".*\d.*",
    "number": r".*\d.*",
    "date": r".*\d.*",
    "time": r".*\d.*",
}
"""Modifiers that say the element's form: the string must match it (``re.fullmatch``)."""

DISPLAY = 1.25
"""A line whose type size is at least this many times the body's (``_body_size``) is display type."""

_NUMERIC = re.compile(r"[-+−–$€£¥]?\d[\d.,:/]*\s*[%kKmMbB]?")


def role_kind(phrase: str) -> str | None:
    """The kind of a generic role's phrase ("column header" -> "column_header"): one of
    "column_header", "row_label", "card_title", "button", "legend", "axis", "nav",
    "content:<word>", "untyped", or None for a role of one word (left as any whole element)."""
    words = [w for w in re.findall(r"[a-z][a-z'-]*", phrase.lower()) if w not in _PLAIN_WORDS]
    if len(words) < 2:
        return None
    head, mods = words[-1], set(words[:-1])
    if "column" in mods and head in _TITLE_HEADS:
        return "column_header"
    if "row" in mods and head in _TITLE_HEADS:
        return "row_label"
    if mods & _HOLDERS and head in _TITLE_HEADS:
        return "card_title"
    if mods & {"button", "cta"}:
        return "button"
    if "legend" in mods:
        return "legend"
    if mods & {"axis", "tick"}:
        return "axis"
    if mods & _NAV or head in ("link", "tab"):
        return "nav"
    content = next((w for w in words[:-1] if w in _CONTENT), None)
    return f"content:{content}" if content else "untyped"


def _candidates(kind: str, page: _Page) -> set[int] | None:
    """Canonical line indices that are elements of a structure-typed ``kind``; None: not found."""
    if kind in ("column_header", "row_label"):
        found = tables(page)
        if kind == "column_header":
            lines = {i for rows, _ in found for i in rows[0]}
        else:
            lines = {min(r, key=lambda i: page.lines[i].box[0]) for rows, _ in found for r in rows[1:] if r}
        return lines or None
    if kind == "axis":
        lines = {i for row in _tick_rows(page) for i in row}
        lines |= {i for e in FINDERS["axis_title"](page, ElementSpec("axis_title", axis="y")) for i in e.lines}
        return lines or None
    if page.image is None:
        return None
    role = {"card_title": "card", "button": "button", "legend": "legend_entry"}[kind]
    found = FINDERS[role](page, ElementSpec(role))
    if kind == "card_title":
        frames: dict = {}  # a card's lines may come as one element each: its top line among them all
        for e in found:
            frames.setdefault(e.frame or e.box, []).extend(e.lines)
        return {min(ids, key=lambda i: page.lines[i].box[1]) for ids in frames.values() if ids} or None
    return {i for e in found for i in e.lines} or None


def _lines_of(m: Match, page: _Page) -> set[int]:
    return {page.canon[li] for li, _ in m.words}


def _size(page: _Page, ids: set[int]) -> float:
    return median([page.sizes[i] for i in ids]) if ids else 0.0


def _body_size(page: _Page, ids: list[int]) -> float:
    """The body's type size: the median of the lines' sizes weighted by their characters (a
    page of a few display lines and longer body lines is measured by the body)."""
    sizes = sorted((page.sizes[i], len(page.lines[i].text)) for i in ids)
    half, seen = sum(n for _, n in sizes) / 2, 0
    for size, n in sizes:
        seen += n
        if seen >= half:
            return size
    return 0.0


def _other_display(page: _Page, mine: set[int], title: set[int], body: float) -> list[int]:
    """Whole lines other than ``mine`` and the title (``title``) set in display type (``DISPLAY``
    times the body's size ``body``, ``_body_size``): the lines a display line's role could name instead."""
    return [
        i
        for i in page.flat
        if i not in mine
        and i not in title
        and page.sizes[i] >= DISPLAY * body
        and re.search(r"[A-Za-z0-9]", page.lines[i].text)
    ]


def _named_by_label(page: _Page, mine: set[int], words: list[str]) -> bool:
    """True when the line just above occurrence lines ``mine`` (the line before it in its column)
    or just left of it on its row holds one of the role's ``words`` ("course" above the course)."""
    before = {j: i for i, j in enumerate(page.after) if j is not None}
    first = min(mine, key=lambda i: page.lines[i].box[1])
    near = [before.get(first)]
    box = page.lines[first].box
    near += [
        i
        for i in page.flat
        if i not in mine
        and page.lines[i].box[2] <= box[0]
        and abs((page.lines[i].box[1] + page.lines[i].box[3]) - (box[1] + box[3])) < (box[3] - box[1])
    ]
    said = {w.lower().strip(":") for i in near if i is not None for w in page.lines[i].text.split()}
    return bool(said & set(words))


def _nav_role(phrase: str, text: str, kept: list[Match], page: _Page) -> tuple[list[Match], str]:
    """A navigation bar's role (``rewards.text.page.nav_bar``): "the brand name" / "the logo text"
    is the bar's brand line, "the nav link" / "the tab" one of its links; the occurrences of
    ``kept`` that are it, and, when none is, why the element part is unknown (a sidebar or a
    breadcrumb: no finder)."""
    brand, links = nav_bar(page)
    words = set(re.findall(r"[a-z]+", phrase.lower()))
    if words & {"brand", "logo"}:
        found = None if brand is None else {brand}
    elif words & {"sidebar", "breadcrumb"} or not links:
        found = None
    else:
        found = set(links)
    if found is None:
        return [], f"{text!r} is read, but code finds no navigation bar to tell the {phrase}"
    passing = [m for m in kept if _lines_of(m, page) <= found]
    return (passing, "") if passing else ([], f"{text!r} is read, but not as the {phrase} of the navigation bar")


def typed_whole(phrase: str, text: str, kept: list[Match], page: _Page) -> tuple[list[Match], str]:
    """The occurrences of ``text`` in ``kept`` (each a whole element already) that are the generic
    role ``phrase`` (module docstring), and, when none is, why the element part is unknown."""
    kind = role_kind(phrase)
    if kind is None:
        return kept, ""
    if kind == "nav":
        return _nav_role(phrase, text, kept, page)
    if kind.startswith("content:"):
        ok = re.fullmatch(_CONTENT[kind[8:]], text.strip()) is not None
        return (kept, "") if ok else ([], f"{text!r} is read, but it does not read as a {kind[8:]}: not the {phrase}")
    if kind != "untyped":
        found = _candidates(kind, page)
        passing = [m for m in kept if found is not None and _lines_of(m, page) <= found]
        if passing:
            return passing, ""
        where = "none is found" if found is None else f"{text!r} is not one of them"
        return [], f"{text!r} is read as a line of its own, but not as the {phrase} ({where})"
    words = [w for w in re.findall(r"[a-z]+", phrase.lower()) if w not in _PLAIN_WORDS][:-1]
    title = {i for e in FINDERS["title"](page, ElementSpec("title")) for i in e.lines}
    body = _body_size(page, page.flat)
    for m in kept:
        mine = _lines_of(m, page)
        if mine & title or _size(page, mine) < DISPLAY * body or _named_by_label(page, mine, words):
            return [m], ""
        if not _other_display(page, mine, title, body):
            return [m], ""
    shown = page.lines[_other_display(page, _lines_of(kept[0], page), title, body)[0]].text
    return [], f"{text!r} is read as a line of its own, but so is {shown!r} in display type: which is the {phrase}?"


SURE_CONF = 80.0
"""A table's headers (or row labels) each read at least this sure are all read: a "no" may rest on them."""


def _line_conf(page: _Page, i: int) -> float:
    return words_conf(page.lines, [(i, k) for k, _ in enumerate(page.lines[i].words)])


def table_refutes(phrase: str, text: str, kept: list[Match], page: _Page) -> str:
    """Why "the column header" (or "the row label") is not ``text``, or "": every occurrence in
    ``kept`` is a line of one table found on the page in its other role (a row label asked as a
    column header, a header asked as a row label), and that table's lines of the named role are
    each read at least ``SURE_CONF``. Anything less is no refutation (the element part stays unknown)."""
    kind = role_kind(phrase)
    if kind not in ("column_header", "row_label"):
        return ""
    for rows, _ in tables(page):
        header = set(rows[0])
        first = {min(r, key=lambda i: page.lines[i].box[0]) for r in rows[1:] if r}
        named, other = (header, first) if kind == "column_header" else (first, header)
        sure = all(_line_conf(page, i) >= SURE_CONF for i in named)
        if named and sure and all(_lines_of(m, page) <= other for m in kept):
            shown = " / ".join(repr(page.lines[i].text) for i in sorted(named, key=lambda i: page.lines[i].box[:2]))
            return f"the table's {phrase}s read {shown}; {text!r} is read there in another role, not as the {phrase}"
    return ""


def _peers(page: _Page, i: int, numeric: bool = False) -> list[int]:
    """Other lines in line ``i``'s type size (``SAME_SIZE``) on its row (centres within its
    height) or in its column (left edges or centres within its height); ``numeric``: numbers only."""
    x0, y0, x1, y1 = page.lines[i].box
    h = max(1, y1 - y0)
    out = []
    for j in page.flat:
        b = page.lines[j].box
        if j == i or not _same_size(page.sizes[i], page.sizes[j], SAME_SIZE):
            continue
        if numeric and not _NUMERIC.fullmatch(page.lines[j].text.strip()):
            continue
        if abs(b[1] + b[3] - y0 - y1) < h or abs(b[0] - x0) < h or abs(b[0] + b[2] - x0 - x1) < h:
            out.append(j)
    return out


def series_heading(text: str, kept: list[Match], page: _Page) -> bool:
    """True when ``text`` is a number or year and every occurrence in ``kept`` is one of a row or
    column of numbers in one type size (``_peers``: a timeline's years, a row of KPI values): not a heading."""
    if not _NUMERIC.fullmatch(text.strip()):
        return False
    return all(_peers(page, min(_lines_of(m, page)), numeric=True) for m in kept)


def _whole_line(m: Match, page: _Page) -> int | None:
    """The index of the one line ``m`` is read as whole (all its words), or None."""
    ids = _lines_of(m, page)
    if len(ids) != 1 or len(m.words) != len(page.lines[min(ids)].words):
        return None
    return min(ids)


def over_figure(text: str, kept: list[Match], page: _Page) -> str | None:
    """Why "the heading" is unknown, not refuted, for ``text`` read as a whole line that stands
    right over a figure in larger type (``page_lines.figure_line``; the first line under it in its
    column, within two of its heights): a pricing tier's name over its "$29/month" in 44 px type,
    a KPI card's label over its value. The heading finder (``finders._heading``) measures a line
    against the body under it, and a figure is no body: the size rule cannot tell whether the
    line heads a section (a person reads the tier names "Starter", "Growth", "Scale" as headings;
    a tester's pricing page, issue 31). None when no occurrence does. Never a "yes": a label over
    a value may be a card's label, not a section heading."""
    for m in kept:
        if (i := _whole_line(m, page)) is None:
            continue
        y1, h = page.lines[i].box[3], page.lines[i].box[3] - page.lines[i].box[1]
        under = min(_body_under(page, i), key=lambda j: page.lines[j].box[1], default=None)
        if (
            under is not None
            and page.lines[under].box[1] - y1 <= 2 * h
            and figure_line(page.lines[under])
            and max(page.sizes[under], figure_size(page.lines[under])) > SAME_SIZE * page.sizes[i]
        ):
            figure = page.lines[under].text
            return f"{text!r} stands right over the figure {figure!r} in larger type: it may head a section"
    return None


def over_plot(text: str, kept: list[Match], page: _Page) -> str | None:
    """Why "the heading" is unknown, not refuted, for ``text`` read as a whole line in type at
    least ``HEADING_SIZE`` times the page's median line size with no line under it in its column
    within two of its heights: a small-multiples panel's title over its plot (the tick labels stand
    left of it, the plot's own lines are graphics). The heading finder (``finders._heading``)
    measures a line against the body under it, and there is none to measure (a ninth tester's
    2x2 figure, each panel titled "Finance department", "Legal department", ...); lines read with
    confidence under 60 (a plot's lines read as "ms") are not counted. None when no
    occurrence does. Never a "yes": a display line with nothing under it may be a caption."""
    if not page.flat:
        return None
    typical = median(page.sizes[j] for j in page.flat)
    for m in kept:
        if (i := _whole_line(m, page)) is None:
            continue
        y1, h = page.lines[i].box[3], page.lines[i].box[3] - page.lines[i].box[1]
        # a plot's lines read as a stray glyph ("ms", confidence 16) are no body
        near = [j for j in _body_under(page, i) if page.lines[j].box[1] - y1 <= 2 * h and _line_conf(page, j) >= 60]
        if not near and page.sizes[i] >= HEADING_SIZE * typical:
            return (
                f"{text!r} stands in display type with nothing read under it in its column (a panel's title over "
                "its plot): it may head a section"
            )
    return None


SERIES = 2
"""Other bold lines a bold line needs in its column, in its type size, to be one of a series (``bold_series``)."""


def bold_series(text: str, kept: list[Match], page: _Page) -> str | None:
    """Why "the heading" is unknown, not refuted, for ``text`` read as a whole line set bold, at
    least the body's size, with ``SERIES`` or more other bold lines of its type size starting at its
    left edge (within half its height): an FAQ accordion's questions, one per bordered row (a
    tenth tester's FAQ). The heading finder (``finders._heading``) measures a line against the body
    under it, and the next row's bold question is no body. None when no occurrence does. Never a
    "yes": a column of bold lines may be a list's or a table's, not headings."""
    rgb = page.rgb()
    if rgb is None or not page.flat:
        return None

    def bold(j: int) -> bool:
        return measure(rgb, [(w.box, w.text) for w in page.lines[j].words]).weight == "bold"

    body = _body_size(page, page.flat)
    for m in kept:
        if (i := _whole_line(m, page)) is None or page.sizes[i] * SAME_SIZE < body:
            continue
        x0, y0, _, y1 = page.lines[i].box
        column = [j for j in _peers(page, i) if abs(page.lines[j].box[0] - x0) <= max(4, (y1 - y0) / 2)]
        if len(column) >= SERIES and bold(i) and sum(bold(j) for j in column) >= SERIES:
            why = "one of a column of bold lines in one type size (an accordion's questions)"
            return f"{text!r} is {why}: it may head a section"
    return None


def title_above(text: str, kept: list[Match], page: _Page, title: Box) -> str | None:
    """Why "the title" is unknown, not refuted, for ``text`` read as a whole line in display type
    (``DISPLAY`` times the body's size) wholly above the title found (``title``, the page's largest
    line): a boarding pass's airline name in a dark band over the route's airport codes in twice
    its size (a tenth tester's pages). A person may name either the title. None when no occurrence
    does. Never a "yes"."""
    body = _body_size(page, page.flat) if page.flat else 0.0
    for m in kept:
        i = _whole_line(m, page)
        if i is not None and page.lines[i].box[3] <= title[1] and page.sizes[i] >= DISPLAY * body > 0:
            return f"{text!r} stands in display type above the largest line: 'the title' may name either"
    return None


def unknown_element(el: ElementSpec, text: str, kept: list[Match], page: _Page, found: list) -> str | None:
    """Why the element ``el`` (a heading or a title), read elsewhere than the one found, is unknown,
    not refuted (``over_figure``, ``over_plot``, ``bold_series``; ``title_above``), or None: the
    finder's size rule cannot tell."""
    if el.role == "title" and found:
        return title_above(text, kept, page, found[0].box)
    if el.role != "heading" or not el.whole:
        return None
    return over_figure(text, kept, page) or over_plot(text, kept, page) or bold_series(text, kept, page)
