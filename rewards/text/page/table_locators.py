"""Locator rules of tables named by place or subject (``rewards.text.page.locators``): "in the lower
central table", "in the same drug comparison table", "the standings table", with or without a row
("the second data row", "the header row", "the second row").

**The page's tables** (:func:`tables`): the page's lines in bands (``_bands``: a cell's wrapped
lines, and the cells of one row, are one band; rows stand further apart), top to bottom; a band's
cells are its lines grouped by left edge (``_columns``). A table is a band of at least three cells
followed by at least two bands of as many cells, their left edges aligned (``_same_columns``), each
within ``MAX_GAP`` line heights of the one before; the first band that does not align ends it (two
tables of the same columns, one under the other, are two; a row with a cell OCR did not read ends
it too, so that no row is skipped in the count). Two tables side by side, their rows at one height,
make one table of their bands; it is cut at its widest empty gap between columns when each side is
a table of its own (``_split``). Its box is the union of its lines' boxes.

**Which table** (:func:`parse_table`): the phrase's words, hyphenated words split, are position
words (``region_locators.POSITIONS``; "leftmost", "topmost"... as left, top), size words, "same",
"that", fillers, and otherwise the table's subject ("drug comparison", "standings"), which code
cannot check. A phrase with a word of relation ("to the right of the standings table": to, of,
above, below...) or a digit is no table phrase. With position words the table is the one in that
region of the page (``region_locators.in_region`` on its box) and the outermost that way among the
page's tables; without, the page must hold exactly one table.

**The rules** (yes-only; a part that fails stays a VLM part): "in the table" (``_in_table``): an
occurrence of each required string (``_Ctx.held``) lies in the table's box; "its Nth data row",
"its header row", "its Nth row" (the header the first; ``_table_row``): each string has an
occurrence whose middle lies in that row's height band inside the table.
"""

from __future__ import annotations

import re

from rewards.text.page.locator_base import ORDINALS, _Ctx, hits
from rewards.text.page.page_lines import Box, _Page
from rewards.text.page.region_locators import POSITIONS, in_region, parse_region

TABLE = re.compile(r"locator '([A-Za-z][A-Za-z -]*\btable(?: body)?)'")
"""A locator part that ends in "table" or "table body"; :func:`parse_table` tells whether it names one."""

ROW = re.compile(
    r"locator '(?:the |a )?(?:(?P<n>" + "|".join(ORDINALS) + r") (?P<data>data )?row|(?:first |top )?header row)'"
)
"""A table's row: "the second data row", "a header row", "the second row"."""

RELATION = frozenset(
    "to of above below beneath under over near next beside between immediately directly after before from with "
    "and or aligned centered right-of".split()
)
"""Words that relate the table to something else: the phrase names another element."""

FILLERS = frozenset("in the a an same that this located positioned placed body table large small big".split())
ROW_LEADING = 0.35
"""A line whose top is less than this share of its height below a band's bottom belongs to the band."""

MAX_GAP = 4.0
"""A row more than this many line heights below the table's last row starts another table."""

MOST = {"leftmost": "left", "rightmost": "right", "topmost": "top", "bottommost": "bottom", "uppermost": "top"}


def parse_table(phrase: str) -> list[str] | None:
    """The position words of a table phrase (module docstring; [] for a table named by its subject
    alone), or None when it is no table phrase."""
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w]
    if not words or words[-1 if words[-1] != "body" else -2] != "table":
        return None
    if words[0] == "of":
        words = words[1:]  # "the header row of the drug comparison table"
    out = []
    for w in words:
        if w in RELATION or any(ch.isdigit() for ch in w):
            return None
        if w in POSITIONS or w in MOST:
            out.append(MOST.get(w, w))
    return out


def is_table(part: str) -> bool:
    """True when ``part`` is a ``locator '...'`` VLM part that names a table (:func:`parse_table`)."""
    m = TABLE.fullmatch(part)
    return m is not None and parse_table(m.group(1)) is not None


def table_parts(patterns: tuple[str, ...], parts: list[str]) -> list[str | None]:
    """The table rules' parts: the first of ``parts`` that names a table (``is_table``), then one
    part for each further pattern (a row: ``locator_base.hits``)."""
    return [next((p for p in parts if is_table(p)), None)] + hits(patterns[1:], parts)


def admits_table(part: str, n_texts: int) -> bool:
    """The table rules' pre-check: a table part only when its words name a table (``is_table``); a row part always."""
    return is_table(part) if TABLE.fullmatch(part) else True


def tables(page: _Page) -> list[tuple[list[list[int]], Box]]:
    """The page's tables (module docstring): (rows of line indices, the header first; box), top to bottom."""
    if "tables" not in page.memo:
        out = []
        for rows, box in _tables_of(page, page.flat):
            halves = _split(page, rows)
            out += halves if halves else [(rows, box)]
        page.memo["tables"] = sorted(out, key=lambda t: (t[1][1], t[1][0]))
    return page.memo["tables"]


def _tables_of(page: _Page, ids: list[int]) -> list[tuple[list[list[int]], Box]]:
    """The tables (module docstring) among the lines ``ids``."""
    bands, used, out = _bands(page, ids), set(), []
    for k, head in enumerate(bands):
        if k in used or len(_columns(page, head)) < 3:
            continue
        body, last, cols = [], head, _columns(page, head)
        for j in range(k + 1, len(bands)):
            if _gap(page, last, bands[j]) > MAX_GAP or not _same_columns(page, cols, _columns(page, bands[j])):
                break  # another table below, or the table's end
            body.append(j)
            last = bands[j]
        if len(body) >= 2:
            used |= {k, *body}
            members = [head] + [bands[j] for j in body]
            boxes = [page.lines[i].box for r in members for i in r]
            box = (
                min(b[0] for b in boxes),
                min(b[1] for b in boxes),
                max(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
            out.append((members, box))
    return out


def _split(page: _Page, rows: list[list[int]]) -> list | None:
    """Two tables side by side that one table's bands took together (their rows at one height): the
    table's lines cut at its widest empty gap between two columns (no line crosses it), when each
    side is a table of its own; else None."""
    ids = [i for r in rows for i in r]
    edges = sorted((page.lines[i].box[0], page.lines[i].box[2]) for i in ids)
    best, reach = None, edges[0][1]
    for x0, x1 in edges[1:]:
        if x0 > reach and (best is None or x0 - reach > best[1] - best[0]):
            best = (reach, x0)
        reach = max(reach, x1)
    if best is None:
        return None
    top = min(page.lines[i].box[1] for i in rows[0])
    beside = [i for i in page.flat if page.lines[i].box[1] >= top]  # each side's rows run on below the cut table
    left = [i for i in beside if page.lines[i].box[2] <= best[0]]
    right = [i for i in beside if page.lines[i].box[0] >= best[1]]
    halves = [[t for t in _tables_of(page, side) if set(t[0][0]) & set(rows[0])] for side in (left, right)]
    return halves[0] + halves[1] if all(len(h) == 1 for h in halves) else None


def _bands(page: _Page, ids: list[int]) -> list[list[int]]:
    """The horizontal lines ``ids`` in bands, top to bottom: a line joins the band above when its
    top lies less than ``ROW_LEADING`` of its height below the band's bottom (a cell's wrapped
    lines; the cells of a row, centred, overlap each other), else it opens a band (a table's rows
    stand further apart than its lines)."""
    out: list[list[int]] = []
    bottom = None
    for i in sorted(ids, key=lambda i: page.lines[i].box[1]):
        y0, y1 = page.lines[i].box[1], page.lines[i].box[3]
        if bottom is not None and y0 < bottom + ROW_LEADING * (y1 - y0):
            out[-1].append(i)
            bottom = max(bottom, y1)
        else:
            out.append([i])
            bottom = y1
    return out


def _columns(page: _Page, band: list[int]) -> list[float]:
    """The left edges of a band's cells: its lines' left edges, those within a type size merged."""
    out: list[float] = []
    for i in sorted(band, key=lambda i: page.lines[i].box[0]):
        x = page.lines[i].box[0]
        if not out or x - out[-1] > max(4.0, page.sizes[i]):
            out.append(x)
    return out


def _same_columns(page: _Page, a: list[float], b: list[float]) -> bool:
    """True when two bands have as many cells, left edges within 12 px (``page_locators._aligned``'s type size)."""
    return len(a) == len(b) and all(abs(x - y) <= 12 for x, y in zip(a, b))


def _gap(page: _Page, a: list[int], b: list[int]) -> float:
    """The blank between rows ``a`` and ``b`` (below it), in line heights of ``a``."""
    bottom = max(page.lines[i].box[3] for i in a)
    height = max(1, max(page.lines[i].box[3] - page.lines[i].box[1] for i in a))
    return (min(page.lines[i].box[1] for i in b) - bottom) / height


def _the_table(page: _Page, positions: list[str]) -> tuple[list[list[int]], Box] | None:
    """The table a phrase's ``positions`` name (module docstring), or None."""
    found = tables(page)
    if not positions:
        return found[0] if len(found) == 1 else None
    bounds = parse_region(" ".join(positions))
    if bounds is None:
        return None
    picked = [t for t in found if in_region(t[1], bounds, page.size) and _outermost(t[1], found, positions)]
    return picked[0] if len(picked) == 1 else None


def _outermost(box: Box, found: list, positions: list[str]) -> bool:
    """True when no other table's middle lies beyond ``box``'s middle by half its size the way ``positions`` say."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    for _, b in found:
        x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        beyond = {"left": x < cx - hw, "right": x > cx + hw, "top": y < cy - hh, "upper": y < cy - hh}
        beyond |= {"bottom": y > cy + hh, "lower": y > cy + hh}
        if any(beyond.get(p, False) for p in positions):
            return False
    return True


def _inside(b: Box, frame: Box) -> bool:
    x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return frame[0] <= x <= frame[2] and frame[1] <= y <= frame[3]


def _in_table(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "in the table" (module docstring)."""
    positions = parse_table(m[0].group(1))
    table = _the_table(ctx.page, positions) if positions is not None else None
    return table is not None and bool(ctx.held) and all(any(_inside(b, table[1]) for b in bs) for bs in ctx.held)


def _table_row(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the Nth (data) row of the table" (module docstring)."""
    positions = parse_table(m[0].group(1))
    table = _the_table(ctx.page, positions) if positions is not None else None
    if table is None or not ctx.held:
        return False
    rows, frame = table
    n = ORDINALS.get((m[1].group("n") or "").lower())
    k = 0 if n is None else (n if m[1].group("data") else n - 1) if n > 0 else len(rows) - 1
    if not 0 <= k < len(rows) or (m[1].group("data") and k == 0):
        return False
    lines = [ctx.page.lines[i].box for i in rows[k]]
    top, bottom = min(b[1] for b in lines), max(b[3] for b in lines)
    return all(any(_inside(b, (frame[0], top, frame[2], bottom)) for b in bs) for bs in ctx.held)
