"""Locator rule of a grid's rows (``rewards.text.page.locators``): "in the second row of the racks
grid", "in the first reasoning row", and a region inside such a row ("in the upper-center of the
first reasoning row", "at the left side of the third row").

**The grid** is the page's one group of like rectangles (``rectangles.rectangles``, grouped by
``rectangles._like_groups``: cards, racks, step boxes of one size) that stands in at least two
rows; its rows are its rectangles grouped by the middle of their height (one row: middles within
half a rectangle's height of each other), top to bottom. The grid is believed only when the count
cannot be off by a row OCR or the frame finder missed:

- exactly one such group on the page (two grids: "the second row" of which?);
- with three rows or more, the rows evenly spaced (each step 0.6-1.4 times the median);
- no unread ink (``locator_base._ink``: a frame whose text was not read) one row step above the
  first row and below the last, across the grid's width.

**The phrase** names the row by an ordinal (first ... sixth, last; "top" and "bottom" are the first
and last), optionally a word or two of what the row holds ("reasoning", "step", not "data" or
"header": a table's first data row is its second row) and the grid's name ("of the racks grid"),
which is not read: the page has one grid. A region before it ("in the upper-center of") is read by
``region_locators.parse_region`` and bounds the occurrence within the row's band (the grid's width,
the row's height) instead of the page.

**Yes only**: each required string has an occurrence (``_Ctx.held``) whose centre lies in the
row's band (and in the region of it); else the part stays a VLM part (withheld).
"""

from __future__ import annotations

import re
from statistics import median

from rewards.text.page.locator_base import ORDINALS, _Ctx, _evenly_spaced, _ink
from rewards.text.page.page_lines import Box, _Page
from rewards.text.page.rectangles import _like_groups, rectangles
from rewards.text.page.region_locators import Bounds, in_region, parse_region

NOT_GRID_ROWS = frozenset("data header body table text total title heading column".split())
"""Words before "row" that name a table's row, whose count a grid of frames does not give."""

ROW = re.compile(
    r"locator '(?:[Ii]n |[Oo]n |[Aa]t |[Ww]ithin |[Ii]nside )?(?:the )?"
    r"(?:(?P<where>[a-z][a-z -]*?) (?:of|in) (?:the )?)?"
    r"(?P<ord>first|second|third|fourth|fifth|sixth|last|top|bottom)[ -](?P<kind>(?:[a-z]+ ){0,2})row"
    r"(?: of (?:the )?(?:[A-Za-z0-9-]+ ){0,3}(?:grid|cards|tiles|boxes|racks|panels))?'"
)
"""A grid's row by its ordinal, with an optional region of it before and the grid's name after."""


def parse_row(part: str) -> tuple[int, Bounds | None] | None:
    """The row a ``locator '...'`` part names (module docstring): (ordinal, region within the row
    or None), or None when the part names no grid row (a table's data row, an unknown region)."""
    m = ROW.fullmatch(part)
    if m is None or NOT_GRID_ROWS & set(m.group("kind").split()):
        return None
    ordinal = {"top": 1, "bottom": -1}.get(m.group("ord")) or ORDINALS[m.group("ord")]
    where = m.group("where")
    bounds = parse_region(where) if where else None
    if where and bounds is None:
        return None
    return ordinal, bounds


def is_row(part: str) -> bool:
    """True when ``part`` names a grid's row (:func:`parse_row`)."""
    return parse_row(part) is not None


def admits_row(part: str, n_texts: int) -> bool:
    """The grid row rule's pre-check: ``part`` is no table's row (``is_row``)."""
    return is_row(part)


def grid_rows(page: _Page) -> list[Box] | None:
    """The bands of the page's grid rows, top to bottom (module docstring), or None when the page
    has no grid believed: (grid's left, row's top, grid's right, row's bottom) pixels."""
    if "grid_rows" in page.memo:
        return page.memo["grid_rows"]
    grids = [g for g in _like_groups(rectangles(page)) if len(_row_groups(g)) >= 2]
    bands = None
    if len(grids) == 1:
        rows = _row_groups(grids[0])
        x0, x1 = min(r[0] for r in grids[0]), max(r[2] for r in grids[0])
        bands = [(x0, min(r[1] for r in row), x1, max(r[3] for r in row)) for row in rows]
        step = median(b[1] - a[1] for a, b in zip(bands, bands[1:]))
        above = (x0, bands[0][1] - step, x1, bands[0][1] - 2)
        below = (x0, bands[-1][3] + 2, x1, bands[-1][3] + step)
        if (len(bands) >= 3 and not _evenly_spaced(bands, 1)) or _ink(page, above) or _ink(page, below):
            bands = None
    page.memo["grid_rows"] = bands
    return bands


def _row_groups(rects: list[Box]) -> list[list[Box]]:
    """``rects`` in rows (middles of their height within half a rectangle's height), top to bottom."""
    rows: list[list[Box]] = []
    for r in sorted(rects, key=lambda r: (r[1] + r[3]) / 2):
        mid = (r[1] + r[3]) / 2
        if rows and abs(mid - (rows[-1][0][1] + rows[-1][0][3]) / 2) <= (r[3] - r[1]) / 2:
            rows[-1].append(r)
        else:
            rows.append([r])
    return rows


def _grid_row(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a grid's row" (module docstring)."""
    parsed = parse_row(m[0].group(0))
    bands = grid_rows(ctx.page)
    if parsed is None or not bands or not ctx.held:
        return False
    ordinal, bounds = parsed
    k = ordinal - 1 if ordinal > 0 else len(bands) + ordinal
    if not 0 <= k < len(bands):
        return False
    band = bands[k]
    size = (band[2] - band[0], band[3] - band[1])

    def holds(b: Box) -> bool:  # the centre in the band, and the box in the region of it
        local = (b[0] - band[0], b[1] - band[1], b[2] - band[0], b[3] - band[1])
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        inside = band[0] <= cx <= band[2] and band[1] <= cy <= band[3]
        return inside and (bounds is None or in_region(local, bounds, size))

    return all(any(holds(b) for b in boxes) for boxes in ctx.held)
