"""Headings set alike: the lines that share a found heading's style and left edge.

An FAQ accordion sets each question bold at the top of its bordered row; the open one heads its
answer and the heading finder (``finders._heading``: bold over the regular body under it) finds
it, while the closed ones have no body under them (the next row's question is none) and were left
to a VLM (``generic_roles.bold_series``; a tenth tester's FAQ pages: 8 withheld on dev). A person
reads the closed questions as headings too: they are set as the open one is. A line is a heading
when a heading the finder found is bold and at least ``SERIES`` lines read with confidence stand
at its left edge (within half its height) in its type size, measured bold: the found heading's
peers are all headings.

A kanban board heads each column ("Backlog", "In progress", "Review", "Done") with a bold line in
one row; the first column's head has a body under it and is found, the others stand over a
ticket's tag pill and were left to a VLM (a tenth tester's boards). The lines in a found bold
heading's row, in its type size, measured bold, with letters, each over a line read in its own
column within ``UNDER`` of its heights, at least ``SERIES`` of them, are headings too
(``heading_row_peers``).
"""

from __future__ import annotations

from typing import Callable

from rewards.text.page.page_lines import _Page, _same_size, read_sure

SERIES = 2
"""Bold peers a found heading needs (the series is the heading and at least this many more)."""


def heading_peers(page: _Page, found: list[int], weight: Callable[[int], str | None]) -> list[int]:
    """The lines of ``page`` set as a bold heading of ``found`` (line indices the heading finder
    found; ``weight(i)``: "bold", "regular" or None), at its left edge and in its type size, when
    there are at least ``SERIES`` of them (module docstring); not those of ``found``."""
    out: list[int] = []
    for i in found:
        x0, y0, _, y1 = page.lines[i].box
        tol = max(4.0, (y1 - y0) / 2)
        peers = [
            j
            for j in page.flat
            if j not in found
            and abs(page.lines[j].box[0] - x0) <= tol
            and _same_size(page.sizes[i], page.sizes[j])
            and read_sure(page.lines[j])
        ]
        _add_bold_series(out, i, peers, weight)
    return out


UNDER = 4.0
"""Line heights under a row peer within which its column's first line stands (``heading_row_peers``)."""


def _over_column(page: _Page, j: int) -> bool:
    """True when a line read with confidence starts under line ``j`` within ``UNDER`` of its
    heights, overlapping it horizontally: the head of a column of content (a nav link has none)."""
    x0, y0, x1, y1 = page.lines[j].box
    return any(
        k != j
        and 0 <= page.lines[k].box[1] - y1 <= UNDER * (y1 - y0)
        and min(x1, page.lines[k].box[2]) > max(x0, page.lines[k].box[0])
        and read_sure(page.lines[k])
        for k in page.flat
    )


def heading_row_peers(page: _Page, found: list[int], weight: Callable[[int], str | None]) -> list[int]:
    """The lines of ``page`` in the row of a bold heading of ``found`` (their middles within its
    box's height), in its type size, with letters, read with confidence, measured bold and each
    over a column of content (``_over_column``), when there are at least ``SERIES`` of them
    (module docstring); not those of ``found``."""
    out: list[int] = []
    for i in found:
        _, y0, _, y1 = page.lines[i].box
        peers = [
            j
            for j in page.flat
            if j not in found
            and j != i
            and y0 <= (page.lines[j].box[1] + page.lines[j].box[3]) / 2 <= y1
            and _same_size(page.sizes[i], page.sizes[j])
            and any(c.isalpha() for c in page.lines[j].text)
            and read_sure(page.lines[j])
            and _over_column(page, j)
        ]
        _add_bold_series(out, i, peers, weight)
    return out


def _add_bold_series(out: list[int], i: int, peers: list[int], weight: Callable[[int], str | None]) -> None:
    """Add to ``out`` (in place) the bold lines of ``peers`` that are not in it yet, when heading
    ``i`` is bold and ``peers`` and their bold lines each number at least ``SERIES``."""
    if len(peers) < SERIES or weight(i) != "bold":
        return
    bold = [j for j in peers if weight(j) == "bold"]
    if len(bold) >= SERIES:
        out += [j for j in bold if j not in out]
