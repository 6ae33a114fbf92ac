"""Locator rules of tables named by place or subject (``rewards.text.page.locators``): "in the lower
central table", "in the same drug comparison table", "the standings table", with or without a row
("the second data row", "the header row", "the second row").

**The page's tables** (:func:`tables`): rows of at least three lines read side by side
(``locator_base._any_row``), top to bottom; a table is a header row followed by at least two rows
whose cells align with it (``page_locators._aligned``: as many cells, left edges within a type
size), as ``page_locators._table`` finds the first, each row within ``MAX_GAP`` line heights of
the one before (two tables of the same columns, one under the other, are two); the rows a table
took are no header of another. Its box is the union of its lines' boxes.

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

from rewards.text.page.locator_base import ORDINALS, _any_row, _Ctx
from rewards.text.page.page_lines import Box, _Page
from rewards.text.page.page_locators import _aligned
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


def tables(page: _Page) -> list[tuple[list[list[int]], Box]]:
    """The page's tables (module docstring): (rows of line indices, the header first; box), top to bottom."""
    if "tables" not in page.memo:
        rows = {tuple(_any_row(page, i)) for i in page.flat}
        rows = sorted((list(r) for r in rows if len(r) >= 3), key=lambda r: page.lines[r[0]].box[1])
        used: set[int] = set()
        out = []
        for k, head in enumerate(rows):
            if k in used:
                continue
            body, last = [], head
            for j in range(k + 1, len(rows)):
                if j in used or not _aligned(page, head, rows[j]):
                    continue
                if _gap(page, last, rows[j]) > MAX_GAP:
                    break  # another table below, of the same columns
                body.append(j)
                last = rows[j]
            if len(body) >= 2:
                used |= {k, *body}
                members = [head] + [rows[j] for j in body]
                boxes = [page.lines[i].box for r in members for i in r]
                box = (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
                out.append((members, box))
        page.memo["tables"] = out
    return page.memo["tables"]


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
