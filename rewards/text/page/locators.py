"""Locator phrases the question compiler leaves to a VLM, resolved on the page structure.

The compiler (``rewards.text.questions``) keeps a locator it cannot represent as a VLM part
("locator 'directly beneath the title'", "locator 'first x-axis tick label from the left'",
"style 'slice'"). When a question's text part holds, the OCR judge asks :func:`resolve_locators`
whether the page shows such a part for an occurrence of the required string read as a whole
element (a line or block of its own, ``rewards.text.page.finders._whole``):

- **below the title** ("directly beneath the title", "below the title"): the occurrence stands
  under a title (``finders._title``), overlapping it horizontally; "directly": no line between
  them; otherwise at most one block between them, of larger type (a subtitle over a paragraph);
- **tick and category labels by ordinal** ("the second x-axis tick label from the left", "the
  fourth y-axis category label from the top"): the occurrence is the Nth of its row of short labels
  (up to 12 characters, overlapping in height) or of its column of right-aligned labels, and the row or column is
  complete: evenly spaced (each gap 0.6-1.4 times the median) and with no ink where one more
  label would stand before the first or after the last (a label OCR missed would shift the count);
- **slice labels** ("a slice label", with the compiler's "style 'slice'"): the occurrence stands
  on or around the chart's pie (``rewards.text.page.pie.find_pie``: 0.3 to 1.45 radii from its
  centre) and is not a legend entry (no swatch left of it);
- **a slice and its value** ("the 'Hydro' slice labeled with the percentage '36%'"): name and
  value are slice labels at one angle from the pie's centre (within 12 degrees), each the other's
  nearest in angle among the slice labels on its side of the rim (matplotlib places a wedge's
  label and its percentage on the wedge's middle angle);
- **the centre of a donut** ("the text in the center of the donut"): within 0.35 radii of the
  centre of a pie with a hole.

A part is resolved only when it holds; a part that fails or that these rules do not know stays a
VLM part (the verdict is withheld): resolving never says "no". Boxes are ``(x0, y0, x1, y1)``
pixels of the judged image.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from PIL import Image

from rewards.text.ocr.text_match import Line, find_matches
from rewards.text.page.elements import find_elements
from rewards.text.page.finders import _rows, _swatch_left
from rewards.text.page.grounding import _is_element
from rewards.text.page.page_lines import Box, Element, _Page, canonical_lines
from rewards.text.page.pie import Pie, angle_gap, find_pie
from rewards.text.page.rectangles import rectangles
from rewards.text.page.relations import in_section
from rewards.text.questions.question_compiler import ElementSpec, TextSpec

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1,
}  # fmt: skip
"""Ordinal words of a locator phrase (1-based; -1 the last)."""

SLICE_REACH = (0.3, 1.45)
"""Radii from a pie's centre where its slice labels stand (inside wedges, or beside the rim)."""

SLICE_ANGLE = 12.0
"""Degrees: a slice's name and its value stand at most this far apart in angle."""


@dataclass
class _Ctx:
    """What the rules read: the page, the required strings' whole-element occurrences, the pie."""

    page: _Page
    texts: tuple[str, ...]
    found: list[list[Element]]
    own: list[Element]
    spans: list[list[Box]]
    anchors: list[tuple[str, list[Box]]]
    memo: dict = field(default_factory=dict)

    def pie(self) -> Pie | None:
        if "pie" not in self.memo:
            rgb = self.page.rgb()
            self.memo["pie"] = find_pie(rgb) if rgb is not None else None
        return self.memo["pie"]


def resolve_locators(
    parts: list[str],
    spec: TextSpec,
    lines: list[Line],
    image: Image.Image | None,
    size: tuple[int, int],
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> tuple[list[str], list[str]]:
    """Split a question's VLM ``parts`` into those the page structure shows (module docstring) and
    the rest.

    Args:
        parts: the parts left to a VLM (``QuestionSpec.vlm_parts``), in words.
        spec: the question's text part, which holds on ``lines``.
        lines: the OCR lines of the judged image; ``image``: that image (None: nothing resolved).
        size: (width, height) of the image in pixels.

    Returns:
        (resolved, left): the parts shown, and the parts still only a VLM can decide.
    """
    if image is None or not parts:
        return [], list(parts)
    page = _Page.of(lines, image, size)
    own = find_elements(ElementSpec("whole"), lines, None, size) or []
    canon = canonical_lines(lines)
    found, spans = [], []
    for text in spec.texts:
        ms = [m for m in find_matches(text, lines, *size, spec.region, case_sensitive, lenient, max_lines) if m.found]
        found.append([e for e in own if any(_is_element(m, e, True, False, canon) for m in ms)])
        spans.append([m.box for m in ms])
    anchors = [
        (a.relation, [m.box for m in find_matches(a.text, lines, *size, None, case_sensitive, lenient, max_lines) if m.found])
        for a in spec.anchors
    ]
    ctx = _Ctx(page, spec.texts, found, own, spans, anchors)
    resolved, left = [], list(parts)
    for patterns, rule in RULES:
        hits = [next((p for p in left if re.fullmatch(pat, p)), None) for pat in patterns]
        if all(hits) and rule(ctx, [re.fullmatch(pat, p) for pat, p in zip(patterns, hits)]):
            resolved += hits
            left = [p for p in left if p not in hits]
    return resolved, left


# ---------------------------------------------------------------- below the title


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


# ---------------------------------------------------------------- tick labels by ordinal


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


def _complete(page: _Page, boxes: list[Box], axis: int) -> bool:
    """True when ``boxes`` (in order along ``axis``: 0 = x, 1 = y) are evenly spaced and no ink
    stands where one more would be, one gap before the first and after the last."""
    mids = [(b[axis] + b[axis + 2]) / 2 for b in boxes]
    gaps = np.diff(mids)
    if len(gaps) < 1 or (gaps <= 0).any():
        return False
    g = float(np.median(gaps))
    if not ((gaps >= 0.6 * g) & (gaps <= 1.4 * g)).all():
        return False
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


def _x_row(page: _Page, li: int) -> list[int]:
    """The short horizontal lines (up to 12 characters) in one row with line ``li`` (each one's
    middle within the other's height), left to right. Type size is not asked: a "J" that descends
    makes "Jan" read larger than "Feb"."""
    b = page.lines[li].box
    row = [
        i
        for i in page.flat
        if len(page.lines[i].text) <= 12
        and b[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= b[3]
        and page.lines[i].box[1] <= (b[1] + b[3]) / 2 <= page.lines[i].box[3]
    ]
    return sorted(row, key=lambda i: page.lines[i].box[0])


def _x_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the x axis (module docstring)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for o in ctx.found[0]:
        if len(o.lines) != 1:
            continue
        row = _x_row(page, o.lines[0])
        if len(row) >= 3 and _complete(page, [page.lines[i].box for i in row], 0) and _nth_is(row, o.lines[0], ordinal):
            return True
    return False


def _y_column(page: _Page, li: int) -> list[int]:
    """The short horizontal lines right-aligned with line ``li`` (within half its type size), top to bottom."""
    right, em = page.lines[li].box[2], page.sizes[li]
    col = [i for i in page.flat if abs(page.lines[i].box[2] - right) <= max(2.0, 0.5 * em)]
    return sorted((i for i in col if len(page.lines[i].text) <= 20), key=lambda i: page.lines[i].box[1])


def _y_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the y axis (module docstring)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for o in ctx.found[0]:
        if len(o.lines) != 1:
            continue
        col = _y_column(page, o.lines[0])
        if len(col) >= 3 and _complete(page, [page.lines[i].box for i in col], 1) and _nth_is(col, o.lines[0], ordinal):
            return True
    return False


# ---------------------------------------------------------------- pies and donuts


def _slice_labels(ctx: _Ctx, pie: Pie) -> list[Element]:
    """The whole elements of one line standing where a slice label stands (``SLICE_REACH``), not legend entries."""
    page, rgb = ctx.page, ctx.page.rgb()
    out = []
    for e in ctx.own:
        if len(e.lines) != 1 or not SLICE_REACH[0] <= pie.distance(e.box) <= SLICE_REACH[1]:
            continue
        if not _swatch_left(rgb, e.box, page.sizes[e.lines[0]]):
            out.append(e)
    return out


def _slice_label(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "slice labels" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 1:
        return False
    labels = {e.box for e in _slice_labels(ctx, pie)}
    return any(o.box in labels for o in ctx.found[0])


def _nearest(pie: Pie, of: Element, among: list[Element]) -> Element | None:
    """The element of ``among`` other than ``of`` nearest to it in angle seen from the pie's centre."""
    others = [e for e in among if e.box != of.box]
    return min(others, key=lambda e: angle_gap(pie.angle(e.box), pie.angle(of.box)), default=None)


def _slice_value(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a slice and its value" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 2:
        return False
    labels = _slice_labels(ctx, pie)
    boxes = {e.box for e in labels}
    for n in (e for e in ctx.found[0] if e.box in boxes):
        for v in (e for e in ctx.found[1] if e.box in boxes):
            if angle_gap(pie.angle(n.box), pie.angle(v.box)) > SLICE_ANGLE:
                continue
            n_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(n.box) >= 1)]
            v_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(v.box) >= 1)]
            near_n, near_v = _nearest(pie, v, n_side), _nearest(pie, n, v_side)
            if near_n is not None and near_v is not None and near_n.box == n.box and near_v.box == v.box:
                return True
    return False


def _donut_centre(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the centre of a donut" (module docstring)."""
    pie = ctx.pie()
    if pie is None or not pie.donut or len(ctx.texts) != 1:
        return False
    return any(pie.distance(o.box) <= 0.35 for o in ctx.found[0])


# ---------------------------------------------------------------- cards, menus, bars, lines


def _inside_box(b: Box, frame: Box) -> bool:
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return frame[0] <= cx <= frame[2] and frame[1] <= cy <= frame[3]


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
        if any(_inside_box(o.box, frame) for o in ctx.found[0]) and any(_inside_box(b, frame) for b in names[0]):
            return True
    return False


def _lines_right_of(page: _Page, box: Box) -> list[int]:
    """The horizontal lines in the row of ``box`` (their middle within its height) right of it, nearest first."""
    row = [
        i
        for i in page.flat
        if box[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= box[3] and page.lines[i].box[0] >= box[2] - 1
    ]
    return sorted(row, key=lambda i: page.lines[i].box[0])


def _price(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the price of an item in a section" (texts: section heading, item, price): the item
    lies in the heading's section (``relations.in_section``) and the price is the first line right
    of it in its row."""
    if len(ctx.texts) != 3 or m[2].group(1).lower() != ctx.texts[0].lower():
        return False
    page = ctx.page
    for head in ctx.spans[0]:
        for item in ctx.spans[1]:
            if not in_section(item, head, page.lines):
                continue
            right = _lines_right_of(page, item)
            if right and any(_inside_box(b, page.lines[right[0]].box) for b in ctx.spans[2]):
                return True
    return False


def _bar_end(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the value label at the end of the 'X' bar" (texts: the bar's category label, the
    value): the value is the first line right of the category label in its row, and ink (the bar)
    stands within 1.5 type sizes left of the value."""
    if len(ctx.texts) != 2 or m[0].group(1).lower() != ctx.texts[0].lower():
        return False
    page = ctx.page
    for label in ctx.spans[0]:
        right = _lines_right_of(page, label)
        if not right:
            continue
        first = page.lines[right[0]]
        em = page.sizes[right[0]]
        left_of = (first.box[0] - 1.5 * em, first.box[1], first.box[0] - 1, first.box[3])
        if any(_inside_box(b, first.box) for b in ctx.spans[1]) and _ink(page, left_of):
            return True
    return False


def _tick_row(ctx: _Ctx) -> list[int]:
    """The page's x tick labels: the lowest complete row (``_complete``) of at least three short lines, or []."""
    if "ticks" not in ctx.memo:
        page, best = ctx.page, []
        for i in page.flat:
            row = _x_row(page, i)
            if len(row) >= 3 and (not best or page.lines[row[0]].box[1] > page.lines[best[0]].box[1]):
                if _complete(page, [page.lines[j].box for j in row], 0):
                    best = row
        ctx.memo["ticks"] = best
    return ctx.memo["ticks"]


def _in_plot(ctx: _Ctx, box: Box) -> bool:
    """True when ``box`` lies over the x tick labels (``_tick_row``), below the top 15% of the page."""
    ticks = _tick_row(ctx)
    return bool(ticks) and box[3] <= ctx.page.lines[ticks[0]].box[1] and box[1] >= 0.15 * ctx.page.size[1]


def _callout(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a callout annotation contains": the string lies in a line of at least two words over
    the x tick labels (``_in_plot``) that starts left of the last tick label's middle (a line-end
    label starts right of it) and has no legend swatch left of it."""
    page, ticks = ctx.page, _tick_row(ctx)
    if len(ctx.texts) != 1 or not ticks:
        return False
    last = page.lines[ticks[-1]].box
    for b in ctx.spans[0]:
        for i in page.flat:
            ln = page.lines[i]
            if not _inside_box(b, ln.box) or len(ln.words) < 2 or not _in_plot(ctx, ln.box):
                continue
            if ln.box[0] < (last[0] + last[2]) / 2 and not _swatch_left(page.rgb(), ln.box, page.sizes[i]):
                return True
    return False


def _line_end(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the label at the right end of the line that ends highest / lowest": the line-end
    labels are the lines over the x tick labels (``_in_plot``) that start right of the last tick
    label's middle with ink (the line's end) within 1.5 type sizes left of them; at least two;
    the occurrence is the topmost (highest) or the bottom one (lowest)."""
    page, ticks = ctx.page, _tick_row(ctx)
    if len(ctx.texts) != 1 or not ticks:
        return False
    last = page.lines[ticks[-1]].box
    ends = []
    for i in page.flat:
        b, em = page.lines[i].box, page.sizes[i]
        if b[0] > (last[0] + last[2]) / 2 and _in_plot(ctx, b) and _ink(page, (b[0] - 1.5 * em, b[1], b[0] - 1, b[3])):
            ends.append(i)
    if len(ends) < 2:
        return False
    ends.sort(key=lambda i: page.lines[i].box[1])
    pick = ends[0] if m[1].group(1).lower() == "highest" else ends[-1]
    return any(o.lines == (pick,) for o in ctx.found[0])


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


# ---------------------------------------------------------------- tables, dates


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


def _aligned(page: _Page, a: list[int], b: list[int]) -> bool:
    """True when rows ``a`` and ``b`` have as many cells, left edges within a type size of each other."""
    return len(a) == len(b) and all(
        abs(page.lines[i].box[0] - page.lines[j].box[0]) <= max(4.0, page.sizes[i]) for i, j in zip(a, b)
    )


def _table(ctx: _Ctx) -> tuple[list[int], list[list[int]]]:
    """The page's table: its header row (the topmost row of at least three lines followed by at
    least two rows whose cells align with it, ``_aligned``) and its body rows, top to bottom;
    ([], []) when there is none."""
    if "table" not in ctx.memo:
        page, found = ctx.page, ([], [])
        rows = {tuple(_any_row(page, i)) for i in page.flat}
        rows = sorted((list(r) for r in rows if len(r) >= 3), key=lambda r: page.lines[r[0]].box[1])
        for k, head in enumerate(rows):
            body = [r for r in rows[k + 1 :] if _aligned(page, head, r)]
            if len(body) >= 2:
                found = (head, body)
                break
        ctx.memo["table"] = found
    return ctx.memo["table"]


def _column_header(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the header of the Nth column": the occurrence is the Nth cell of the table's header row (``_table``)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    head, _ = _table(ctx)
    if ordinal is None or len(ctx.texts) != 1 or not head:
        return False
    return any(len(o.lines) == 1 and _nth_is(head, o.lines[0], ordinal) for o in ctx.found[0])


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
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
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
            if page.lines[i].box[3] <= o.box[1] + 2 and min(page.lines[i].box[2], o.box[2]) > max(page.lines[i].box[0], o.box[0])
        ]
        if over and DATE.search(page.lines[max(over, key=lambda i: page.lines[i].box[3])].text):
            return True
    return False


_ORD = "(" + "|".join(ORDINALS) + ")"

RULES: list[tuple[tuple[str, ...], Callable[[_Ctx, list[re.Match]], bool]]] = [
    ((r"locator '(directly )?(?:beneath|below|under(?:neath)?) the (?:main )?title'",), _below_title),
    ((rf"locator '{_ORD} x-axis (?:tick |category )?label from the left'",), _x_tick),
    ((rf"locator '{_ORD} y-axis (?:tick |category )?label from the top'",), _y_tick),
    ((r"style 'slice'", r"locator '(?:a )?slice label'"), _slice_label),
    ((r"how the quoted strings relate", r"style 'slice'", r"words percentage"), _slice_value),
    ((r"locator '(?:in|at) the cent(?:er|re) of the (?:donut|doughnut|ring)'",), _donut_centre),
    ((r"words change", r"locator '(?:the |a |that )?card'", r"locator 'the change note'"), _card),
    ((r"locator '(?:the |a |that )?card'",), _card),
    ((r"how the quoted strings relate", r"locator 'price'", r"""locator "[Ii]n the '([^']+)' section\""""), _price),
    ((r"""locator "at the end of the '([^']+)' bar\"""",), _bar_end),
    ((r"locator '(?:a |the )?callout(?: annotation)?'",), _callout),
    ((r"locator 'at the right end of the line'", r"locator '(highest|lowest)'"), _line_end),
    ((rf"locator '{_ORD} link'", r"locator 'of the navigation (?:menu|bar)'", r"locator 'from the left'"), _nav),
    ((rf"locator 'of the {_ORD} column'",), _column_header),
    ((rf"locator '{_ORD} row label'", rf"locator 'in the {_ORD} column'"), _row_label),
    ((r"locator 'date line'",), _date_line),
    ((r"locator 'venue line'", r"locator 'below the date'"), _below_date),
]
"""(patterns, rule): when every pattern matches one of the parts left (``re.fullmatch``) and the
rule holds, those parts are resolved."""
