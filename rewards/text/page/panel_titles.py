"""Panel titles of a small-multiples figure: the headings of a grid of plots.

A figure of several plots (matplotlib subplots: "Finance department", "Legal department", ...
over four line charts; a ninth tester's page) titles each panel in type larger than the page's
text, with nothing under it but its plot. The heading finder (``finders._heading``) measures a
line against the body under it, and a plot is no body: the panels' titles were left to a VLM
(``generic_roles.over_plot``; 12 withheld on the ninth tester's dev pages). A line is a panel's
title when it is read with confidence, in type at least ``HEADING_SIZE`` times the page's median,
with no line read with confidence under it in its column within two of its heights, and a column of at least
``TICKS`` numbers (the panel's y tick labels, right-aligned) starting under it within
``TICK_REACH`` of its heights, their right edge left of its centre and at most ``TICK_LEFT`` of
its heights left of its start; and when another such line in its type size stands on the page
(the panels are a series: a chart's one title over its one plot is the title finder's).
"""

from __future__ import annotations

import re
from statistics import median

from rewards.text.page.page_lines import _Page, _same_size, read_sure

TICKS = 3
"""Numbers a panel's tick column holds at least."""
TICK_REACH = 3.0
"""The tick column starts within this many of the title's heights under it."""
TICK_LEFT = 10.0
"""The tick column's right edge is at most this many of the title's heights left of its start."""
SURE = 60
"""A line under a title counts as text only read with at least this mean confidence."""
_NUMBER = re.compile(r"[-+−–$€£¥]?\d[\d.,:/]*\s*[%kKmMbB]?")


def panel_titles(page: _Page, heading_size: float) -> list[int]:
    """The lines of ``page`` that title the panels of a small-multiples figure (module
    docstring), ``heading_size`` the factor over the page's median type size they need."""
    if "panel_titles" not in page.memo:
        page.memo["panel_titles"] = _find(page, heading_size)
    return page.memo["panel_titles"]


def _find(page: _Page, heading_size: float) -> list[int]:
    flat = page.flat
    if not flat:
        return []
    typical = median(page.sizes[j] for j in flat)
    over = [
        i
        for i in flat
        if page.sizes[i] >= heading_size * typical
        and any(c.isalpha() for c in page.lines[i].text)
        and read_sure(page.lines[i])
        and not _text_under(page, i)
        and _ticks_under(page, i)
    ]
    return [i for i in over if any(j != i and _same_size(page.sizes[i], page.sizes[j]) for j in over)]


def _text_under(page: _Page, i: int) -> bool:
    """True when a line read with confidence ``SURE`` stands under line ``i`` in its column, within two
    of its heights (a plot's lines read as "ms" at confidence 16 are no text)."""
    x0, y0, x1, y1 = page.lines[i].box
    h = y1 - y0
    return any(
        j != i
        and y1 <= (b := page.lines[j].box)[1] <= y1 + 2 * h
        and min(x1, b[2]) > max(x0, b[0])
        and _conf(page.lines[j]) >= SURE
        for j in page.flat
    )


def _conf(line) -> float:
    """The mean confidence of ``line``'s words (100 where none is given)."""
    return sum(100.0 if w.conf is None else w.conf for w in line.words) / max(1, len(line.words))


def _ticks_under(page: _Page, i: int) -> bool:
    """True when a right-aligned column of ``TICKS`` numbers starts under line ``i`` (module docstring)."""
    x0, y0, x1, y1 = page.lines[i].box
    h = y1 - y0
    numbers = [j for j in page.flat if _NUMBER.fullmatch(page.lines[j].text.strip())]
    for j in numbers:
        top, right = page.lines[j].box[1], page.lines[j].box[2]
        if not (y1 <= top <= y1 + TICK_REACH * h and x0 - TICK_LEFT * h <= right <= (x0 + x1) / 2):
            continue
        tol = max(2.0, 0.5 * page.sizes[j])
        column = [k for k in numbers if abs(page.lines[k].box[2] - right) <= tol and page.lines[k].box[1] >= top]
        if len(column) >= TICKS:
            return True
    return False
