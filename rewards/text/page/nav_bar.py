"""A page's navigation bar: a row of short links at the top, and the brand name at its left.

A landing page's header sets its links in one row ("Pricing  Blog  Home  Features") and the brand
("Lumen", often bold and larger) on the same band at the far left. "The brand name at the left of
the navigation bar" and "the nav link" were always withheld: nothing typed a line as either.
"""

from __future__ import annotations

from rewards.text.page.finders import _rows
from rewards.text.page.locator_base import _ink
from rewards.text.page.page_lines import _Page

TOP = 0.15
"""The bar lies in this top share of the page (its lowest line's bottom)."""
MAX_WORDS = 3
"""A link or a brand name is at most this many words."""


def nav_bar(page: _Page) -> tuple[int | None, list[int]]:
    """The navigation bar of ``page``: (its brand line, its link lines left to right), canonical
    line indices; (None, []) when there is none.

    The links: the topmost row of at least three lines of about one type size
    (``finders._rows``), each of at most :data:`MAX_WORDS` words, lying in the top :data:`TOP` of
    the page, with no unread ink between two of them (a link OCR missed would break the row). The
    brand: the only line of the page whose centre lies within the row's band (its top to bottom)
    left of the first link, of at most :data:`MAX_WORDS` words; None when there is no such line
    (a bar of links alone) or several (which one is the brand?).
    """
    for row in sorted(_rows(page), key=lambda r: min(page.lines[i].box[1] for i in r)):
        boxes = [page.lines[i].box for i in row]
        if max(b[3] for b in boxes) > TOP * page.size[1]:
            continue
        if any(len(page.lines[i].text.split()) > MAX_WORDS for i in row):
            continue
        gaps = [(a[2] + 1, min(a[1], b[1]), b[0] - 1, max(a[3], b[3])) for a, b in zip(boxes, boxes[1:])]
        if any(_ink(page, g) for g in gaps):
            continue
        top, bottom, first = min(b[1] for b in boxes), max(b[3] for b in boxes), boxes[0]
        left = [
            i
            for i in page.flat
            if i not in row
            and top <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= bottom
            and page.lines[i].box[2] < first[0]
        ]
        brand = left[0] if len(left) == 1 else None
        if brand is not None and len(page.lines[brand].text.split()) > MAX_WORDS:
            brand = None
        return brand, list(row)
    return None, []
