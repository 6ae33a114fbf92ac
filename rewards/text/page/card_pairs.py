"""Cards drawn without a frame: a series of label/value pairs (issue 31, the eleventh tester's pages).

The card finder (``finders._card``) frames text with the rectangles of a page (a border or a filled
panel, ``rectangles.card_rectangles``). A page may set its cards without one: a listing's row of
four facts, each a value in large type over its small label ("3" over "Bedrooms", "Freehold" over
"Tenure") between two rules; a weather hero's column of label/value rows ("Humidity  60%") on
pills too faint on a gradient to be found. The card finder then answered "the KPI card labeled
'Tenure'" with another card (the photo's badge) and refuted the label (11 false "no" on dev).

A **stacked pair** is two lines, one right over the other (centres or left edges aligned within
``ALIGN`` of the smaller line's height, the gap at most ``STACK_GAP`` of the larger's), set apart
in size or weight, with no other line over the upper one or under the lower one in their column
within ``CLEAR`` of their heights (a table's column of a header and its cells is no pair). A **row
pair** is a label with a value right of it on its row (each centre within the other's rows, at
most ``ROW_GAP`` of the label's heights apart) with no line between them. Pairs count only in a
series of two or more alike (``pair_frames``): stacked pairs side by side on one row (the upper
lines' tops and the lower lines' tops within ``ALIGN``), row pairs one under the other (the labels'
left edges and the values' right edges within ``ALIGN`` of a line's height, each row within
``ROW_REACH`` line heights of the next). A pair alone (a title over its subtitle) is not a card.
Only lines that lie in no rectangle the card finder frames are paired.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

from rewards.text.ocr.text_match import union_box
from rewards.text.page.page_lines import Box, _centre, _inside, _ordered, _Page, _same_size, element_words
from rewards.text.page.rectangles import card_rectangles

ALIGN = 0.5
"""Share of a line's height two aligned edges or centres may differ by."""
STACK_GAP = 1.2
"""The most space between a stacked pair's lines, in the larger line's heights."""
CLEAR = 1.5
"""Line heights over and under a stacked pair that no other line of its column stands in."""
ROW_REACH = 3.0
"""Line heights within which the next row pair of a series stands."""
ROW_GAP = 8.0
"""The most space between a row pair's label and its value, in the label's heights (a hero's
temperature in 50 px type, 430 px left of the label "Wind" on its row, is not its value)."""


def pair_frames(page: _Page) -> list[list[Box]]:
    """The series of label/value pairs of ``page`` (module docstring), each a list of frames (the
    box around a pair's two lines, grown by a pixel) left to right, then top to bottom. Pairs are
    made of the page's flat lines that lie in no card rectangle."""
    if "pair_frames" not in page.memo:
        rects = card_rectangles(page)
        free = [i for i in page.flat if not any(_inside(_box(page, i), r) for r in rects)]
        series = _series(page, _stacked(page, free), stacked=True) + _series(page, _beside(page, free), stacked=False)
        page.memo["pair_frames"] = [[_frame(page, p) for p in s] for s in series]
    return page.memo["pair_frames"]


def outside_cards(box: Box, page: _Page) -> bool:
    """True when the centre of ``box`` (an occurrence of a card's name) lies in no card the card
    finder frames: no card rectangle and no pair of a series (``pair_frames``). Its card may be
    drawn in a way neither finds (a pair alone, a frame too faint): which card it names, and
    whether its value is shown with it, is not seen (``ocr_doubt``'s card rule withholds)."""
    frames = card_rectangles(page) + [f for s in pair_frames(page) for f in s]
    return not any(_inside(box, f) for f in frames)


def _box(page: _Page, i: int) -> Box:
    """The box of line ``i``'s own words (``element_words``: a bullet or mark read before a value,
    "* Freehold" in a strip read again, is not the value's)."""
    boxes = page.memo.setdefault("own_boxes", {})
    if i not in boxes:
        words = element_words(page.lines, i)
        boxes[i] = union_box(page.lines[li].words[wi].box for li, wi in words) if words else page.lines[i].box
    return boxes[i]


def _h(page: _Page, i: int) -> int:
    b = _box(page, i)
    return max(1, b[3] - b[1])


def _frame(page: _Page, pair: tuple[int, int]) -> Box:
    a, b = (_box(page, i) for i in pair)
    return (min(a[0], b[0]) - 1, min(a[1], b[1]) - 1, max(a[2], b[2]) + 1, max(a[3], b[3]) + 1)


def _set_apart(page: _Page, i: int, j: int) -> bool:
    """True when lines ``i`` and ``j`` differ in type size or in weight (a value over its label)."""
    return not _same_size(page.sizes[i], page.sizes[j]) or page.weight(i) != page.weight(j)


def _stacked(page: _Page, free: list[int]) -> list[tuple[int, int]]:
    """Stacked pairs (upper line, lower line) among lines ``free`` (module docstring)."""
    out = []
    for i in free:
        a = _box(page, i)
        for j in free:
            b = _box(page, j)
            tol = ALIGN * min(_h(page, i), _h(page, j))
            gap = b[1] - a[3]
            if not (-1 <= gap <= STACK_GAP * max(_h(page, i), _h(page, j))):
                continue
            if abs(_centre(a)[0] - _centre(b)[0]) > tol and abs(a[0] - b[0]) > tol:
                continue
            if _set_apart(page, i, j) and _clear(page, i, j):
                out.append((i, j))
    return out


def _clear(page: _Page, i: int, j: int) -> bool:
    """True when no other flat line overlapping the columns of lines ``i`` (over) and ``j`` (under)
    stands within ``CLEAR`` of their heights over ``i`` or under ``j``."""
    a, b = _box(page, i), _box(page, j)
    x0, x1 = min(a[0], b[0]), max(a[2], b[2])
    top, bottom = a[1] - CLEAR * _h(page, i), b[3] + CLEAR * _h(page, j)
    for k in page.flat:
        c = _box(page, k)
        if k in (i, j) or min(c[2], x1) <= max(c[0], x0):
            continue
        if top < c[3] <= a[1] + 1 or b[3] - 1 <= c[1] < bottom:
            return False
    return True


def _beside(page: _Page, free: list[int]) -> list[tuple[int, int]]:
    """Row pairs (label, value) among lines ``free``: ``j`` right of ``i`` on its row (each centre
    within the other's rows), no other flat line between them."""
    out = []
    for i in free:
        a = _box(page, i)
        if not any(c.isalpha() for c in page.lines[i].text):
            continue  # a label has letters
        right = [
            j
            for j in free
            if 0 < _box(page, j)[0] - a[2] <= ROW_GAP * _h(page, i)
            and a[1] <= _centre(_box(page, j))[1] <= a[3]
            and _box(page, j)[1] <= _centre(a)[1] <= _box(page, j)[3]
        ]
        if not right:
            continue
        j = min(right, key=lambda k: _box(page, k)[0])
        b = _box(page, j)
        between = [
            k
            for k in page.flat
            if k not in (i, j) and a[2] <= _centre(_box(page, k))[0] <= b[0]
            and min(a[3], b[3]) > _box(page, k)[1] and _box(page, k)[3] > max(a[1], b[1])
        ]  # fmt: skip
        if not between:
            out.append((i, j))
    return out


def _alike(page: _Page, p: tuple[int, int], q: tuple[int, int], stacked: bool) -> bool:
    """True when pairs ``p`` and ``q`` are two of one series (module docstring)."""
    (a, b), (c, d) = ([_box(page, k) for k in pair] for pair in (p, q))
    tol = ALIGN * min(_h(page, k) for k in (*p, *q))
    if stacked:
        return abs(a[1] - c[1]) <= tol and abs(b[1] - d[1]) <= tol and (a[2] < c[0] or c[2] < a[0])
    reach = ROW_REACH * max(_h(page, k) for k in (*p, *q))
    return abs(a[0] - c[0]) <= tol and abs(b[2] - d[2]) <= tol and 0 < abs(c[1] - a[1]) <= reach


def _series(page: _Page, pairs: list[tuple[int, int]], stacked: bool) -> list[list[tuple[int, int]]]:
    """``pairs`` linked into series of alike pairs (``_alike``, through any member), those of two or
    more in which no line is in two pairs, each in reading order. A pair of another series may share
    a line: a fragment of a label ("id" of "Wind", a strip read again) paired with its value is no
    series."""
    groups: list[list[tuple[int, int]]] = []
    for p in pairs:
        linked = [g for g in groups if any(_alike(page, p, q, stacked) for q in g)]
        merged = [p] + [q for g in linked for q in g]
        groups = [g for g in groups if g not in linked] + [merged]
    out = []
    for g in groups:
        used = [k for p in g for k in p]
        if len(g) >= 2 and len(set(used)) == len(used):
            out.append([g[k] for k in _ordered([_frame(page, p) for p in g])])
    return out
