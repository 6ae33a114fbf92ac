"""What the locator rules (``rewards.text.page.locators``) share: a rule's entry (``Rule``: its
patterns, check, part selector and pre-check), the page and the occurrences of a question's strings
(``_Ctx``), ordinals, rows and columns of lines, and unread ink."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from rewards.text.page.page_lines import Box, Element, _Page
from rewards.text.page.pie import Pie, find_pie

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1,
}  # fmt: skip
"""Ordinal words of a locator phrase (1-based; -1 the last)."""


@dataclass
class _Ctx:
    """What the rules read: the page, the required strings' whole-element occurrences, the pie."""

    page: _Page
    texts: tuple[str, ...]
    found: list[list[Element]]
    own: list[Element]
    spans: list[list[Box]]
    anchors: list[tuple[str, list[Box]]]
    held: list[list[Box]] = field(default_factory=list)
    """Per string, the boxes of its occurrences a container holds: whole lines or elements when
    the question reads the strings whole (``TextSpec.reads_whole``), else every occurrence."""
    words: list[list[tuple]] = field(default_factory=list)
    """Per string, the (canonical line, word) pairs of each of its occurrences."""
    memo: dict = field(default_factory=dict)
    whole: bool = False
    """The question reads its strings whole (``TextSpec.reads_whole``: "labeled exactly")."""

    def pie(self) -> Pie | None:
        if "pie" not in self.memo:
            rgb = self.page.rgb()
            self.memo["pie"] = find_pie(rgb) if rgb is not None else None
        return self.memo["pie"]


def hits(patterns: tuple[str, ...], parts: list[str]) -> list[str | None]:
    """For each of a rule's ``patterns``, the first of ``parts`` it matches whole, or None."""
    return [next((p for p in parts if re.fullmatch(pat, p)), None) for pat in patterns]


def any_part(part: str, n_texts: int) -> bool:
    """The pre-check of a rule that reads its parts whenever its patterns match."""
    return True


@dataclass(frozen=True)
class Rule:
    """One entry of ``locators.RULES``: the parts it reads and how it decides them.

    ``patterns``: one regular expression per part (``re.fullmatch``); ``check(ctx, matches)``: True
    when the page shows the parts; ``select(patterns, parts)``: the parts it reads at once among
    those left (one per pattern, None where none; default ``hits``); ``admits(part, n_texts)``:
    whether it may read a matching ``part`` of a question of ``n_texts`` strings before the page is
    seen (default: always)."""

    patterns: tuple[str, ...]
    check: Callable[["_Ctx", list[re.Match]], bool]
    select: Callable[[tuple[str, ...], list[str]], list[str | None]] = hits
    admits: Callable[[str, int], bool] = any_part


def line_of(page: _Page, box: Box) -> int | None:
    """The canonical line (index into ``page.lines``) whose box holds the middle of ``box``, or None."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return next((i for i in page.flat if _holds(page.lines[i].box, cx, cy)), None)


def _holds(b: Box, x: float, y: float) -> bool:
    return b[0] <= x <= b[2] and b[1] <= y <= b[3]


def _ink(page: _Page, box: Box) -> bool:
    """True when ``box`` (clipped to the image) holds pixels unlike the page (luminance 60 off the
    median) outside every line OCR read (a title read above a column of labels is no missed label)."""
    gray = page.gray()
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(gray.shape[1], int(box[2])), min(gray.shape[0], int(box[3]))
    if x1 <= x0 or y1 <= y0:
        return False
    ink = np.abs(gray[y0:y1, x0:x1].astype(np.int16) - int(np.median(gray))) > 60
    for ln in page.lines:
        a0, b0, a1, b1 = ln.box
        ink[max(0, b0 - 1 - y0) : max(0, b1 + 2 - y0), max(0, a0 - 1 - x0) : max(0, a1 + 2 - x0)] = False
    return bool(ink.any())


def _evenly_spaced(boxes: list[Box], axis: int) -> bool:
    """True when ``boxes`` (in order along ``axis``: 0 = x, 1 = y) are at least two and their
    middles evenly spaced (each gap 0.6-1.4 times the median gap), as tick labels are."""
    gaps = np.diff([(b[axis] + b[axis + 2]) / 2 for b in boxes])
    if len(gaps) < 1 or (gaps <= 0).any():
        return False
    g = float(np.median(gaps))
    return bool(((gaps >= 0.6 * g) & (gaps <= 1.4 * g)).all())


def _complete(page: _Page, boxes: list[Box], axis: int) -> bool:
    """True when ``boxes`` (in order along ``axis``: 0 = x, 1 = y) are evenly spaced and no ink
    stands where one more would be, one gap before the first and after the last."""
    if not _evenly_spaced(boxes, axis):
        return False
    mids = [(b[axis] + b[axis + 2]) / 2 for b in boxes]
    g = float(np.median(np.diff(mids)))
    lo = min(b[1 - axis] for b in boxes)
    hi = max(b[3 - axis] for b in boxes)
    for mid in (mids[0] - g, mids[-1] + g):
        span = (mid - 0.3 * g, mid + 0.3 * g)
        probe = (span[0], lo, span[1], hi) if axis == 0 else (lo, span[0], hi, span[1])
        if _ink(page, probe):
            return False
    return True


def _nth_is(items: list[int], line: int, ordinal: int) -> bool:
    k = ordinal - 1 if ordinal > 0 else len(items) + ordinal
    return 0 <= k < len(items) and items[k] == line


TICK_CHARS = 20
"""The longest line (characters) a row of tick labels holds: a category's name of two words
("Northbank Medical", "Closing balance") is one; 12 left such a label out of its row, and the row
with a gap was no row (the Nth label withheld)."""


def _x_row(page: _Page, li: int) -> list[int]:
    """The short horizontal lines (up to ``TICK_CHARS`` characters) in one row with line ``li`` (each one's
    middle within the other's height), left to right. Type size is not asked: a "J" that descends
    makes "Jan" read larger than "Feb"."""
    b = page.lines[li].box
    row = [
        i
        for i in page.flat
        if len(page.lines[i].text) <= TICK_CHARS
        and b[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= b[3]
        and page.lines[i].box[1] <= (b[1] + b[3]) / 2 <= page.lines[i].box[3]
    ]
    return sorted(row, key=lambda i: page.lines[i].box[0])


def _any_row(page: _Page, li: int) -> list[int]:
    """The horizontal lines in one row with line ``li`` (each one's middle within the other's height), left to right."""
    b = page.lines[li].box
    row = [
        i
        for i in page.flat
        if b[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= b[3]
        and page.lines[i].box[1] <= (b[1] + b[3]) / 2 <= page.lines[i].box[3]
    ]
    return sorted(row, key=lambda i: page.lines[i].box[0])


def _lines_right_of(page: _Page, box: Box) -> list[int]:
    """The horizontal lines in the row of ``box`` (their middle within its height) right of it, nearest first."""
    row = [
        i
        for i in page.flat
        if box[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= box[3] and page.lines[i].box[0] >= box[2] - 1
    ]
    return sorted(row, key=lambda i: page.lines[i].box[0])
