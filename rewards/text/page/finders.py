"""One finder per role of ``rewards.text.questions.question_compiler.ELEMENT_ROLES`` (``FINDERS``): the
title, subtitle, headings, bullets, list items, cards, legend entries, axis titles, table cells,
footer and buttons of a page. Each finder uses one rule, written in its docstring; the shared
measures are in ``rewards.text.page.page_lines`` and ``rewards.text.page.rectangles``.
"""

from __future__ import annotations

from statistics import median
from typing import Callable

import numpy as np
from scipy import ndimage

from rewards.text.ocr.text_match import find_matches, label_spellings, union_box, words_conf
from rewards.text.page.card_lists import card_lists
from rewards.text.page.card_pairs import pair_frames
from rewards.text.page.footers import footer
from rewards.text.page.heading_series import heading_peers, heading_row_peers
from rewards.text.page.legend_marks import handle_left, stroke_left, swatch_left
from rewards.text.page.page_lines import (
    MAX_PAGE_SHARE,
    SAME_SIZE,
    Box,
    Element,
    WordId,
    _centre,
    _in_badge,
    _is_mark,
    _list_mark,
    _ordered,
    _Page,
    _pick,
    _same_size,
    element_words,
    larger_lead,
    title_sure,
)
from rewards.text.page.panel_titles import panel_titles
from rewards.text.page.rectangles import _distinct, _framed, _like_groups, _lines_in, card_rectangles, rectangles
from rewards.text.page.text_style import measure
from rewards.text.questions.question_compiler import ElementSpec

TOP_BAND = 0.3
"""Share of the image height (from the top) the title's centre lies in."""
TITLE_SIZE = 0.9
"""Lines of the top band at least this share of its largest type size are title candidates."""
HEADING_SIZE = 1.15
"""A heading's type is at least this factor larger than the median of the body lines under it."""


# ---------------------------------------------------------------- finders, one per role


def _title(page: _Page, spec: ElementSpec) -> list[Element]:
    """The largest type in the top band: the lines whose centre lies in the top ``TOP_BAND`` of
    the image, or no lower than the centre of the topmost line (a banner whose one line is its
    title), and whose type size is at least ``TITLE_SIZE`` of the band's largest, each with the
    block it belongs to (a title that wraps)."""
    if not page.flat:
        return []
    topmost = min(page.flat, key=lambda i: page.lines[i].box[1])
    band = max(TOP_BAND * page.size[1], _centre(page.lines[topmost].box)[1])
    top = [i for i in page.flat if _centre(page.lines[i].box)[1] <= band]
    # a figure in large type ("18,402" of a KPI card under a dashboard's title), or a chart's markers
    # read unsure as letters ("ae"), is no title when a line with letters read sure is in the band
    top = [i for i in top if any(c.isalpha() for c in page.lines[i].text) and title_sure(page.lines[i])] or top
    biggest = max(page.sizes[i] for i in top)
    big = [i for i in top if page.sizes[i] >= TITLE_SIZE * biggest]
    blocks = list(dict.fromkeys(tuple(_wrap_block(page, i)) for i in big))
    # a subtitle set on the title's baseline, read into its line, may not be the title's
    # (``larger_lead``): the line's leading run is a title too, the whole line still one
    cuts = [larger_lead(page.lines[b[0]]) if len(b) == 1 else 0 for b in blocks]
    lead = [
        page.element("title", b, tuple(w for w in element_words(page.lines, b[0]) if w[1] < k))
        for b, k in zip(blocks, cuts)
        if k
    ]
    return page.elements("title", blocks) + [e for e in lead if e is not None]


WRAP_GAP = 0.5
"""A title's lines wrap with at most this many of its ems between one line's box and the next's
(a browser's or matplotlib's line spacing, 1.2 em, leaves about 0.35 em between the ink boxes)."""


def _wrap_block(page: _Page, i: int) -> list[int]:
    """The block of the title line ``i`` (``page.block``) up to the first gap between consecutive
    lines over ``WRAP_GAP`` of the title's em, both ways: a product page's price set 21 px (0.69
    em) under its 34 px title in 30 px type is of about the title's size, but a line of its own, not
    the title wrapping (a tester's report page, issue 31: "the title reads 'Aurora Laptop 14 EUR
    1,149'")."""
    block = page.block(i)
    k, gap = block.index(i), WRAP_GAP * page.sizes[i]
    lo, hi = k, k
    while lo > 0 and page.lines[block[lo]].box[1] - page.lines[block[lo - 1]].box[3] <= gap:
        lo -= 1
    while hi + 1 < len(block) and page.lines[block[hi + 1]].box[1] - page.lines[block[hi]].box[3] <= gap:
        hi += 1
    return block[lo : hi + 1]


def _subtitle(page: _Page, spec: ElementSpec) -> list[Element]:
    """The line under the title in smaller type: the nearest line below the title's block (its
    top within six title line heights of the title's bottom; of the lines level with the nearest,
    one overlapping the title horizontally: a resume's sidebar heading level with the subtitle is
    not it, while a subtitle centred under a left-set title in its band is), in smaller type, not
    an item of a row (``_rows``: a navigation bar between the title and its subtitle) and not a
    badge's text (``_in_badge``: a tag beside the subtitle); with its block, up to a line led by a
    bullet (a slide's bullets in about the subtitle's type)."""
    titles = _title(page, spec)
    if not titles:
        return []
    title = titles[0]
    used = {li for t in titles for li in t.lines} | {i for g in _rows(page) for i in g}
    t_size = max(page.sizes[li] for li in title.lines)
    last = page.lines[title.lines[-1]].box
    reach = 6 * (last[3] - last[1])
    under = [
        i
        for i in page.flat
        if i not in used
        and 0 <= page.lines[i].box[1] - title.box[3] + 2 <= reach
        and page.lines[i].box[2] > title.box[0]  # not left of a title (a sidebar beside it)
        and page.sizes[i] < t_size / 1.05
        and not _in_badge(page, page.lines[i])
    ]
    if not under:
        return []
    nearest = min(under, key=lambda i: page.lines[i].box[1])
    level = [i for i in under if page.lines[i].box[1] < page.lines[nearest].box[3]]  # the nearest's band
    overlapping = [i for i in level if page.lines[i].box[0] < title.box[2]]
    first = min(overlapping or level, key=lambda i: page.lines[i].box[1])
    block, gray = page.block(first), page.gray()
    if not _led(page, first, gray):  # a list of bullets right under the subtitle is not its text
        k = block.index(first)
        block = block[: next((j for j in range(k + 1, len(block)) if _led(page, block[j], gray)), len(block))]
    return page.elements("subtitle", [block])


def _body_under(page: _Page, i: int) -> list[int]:
    """The lines under line ``i`` in its column (overlapping it horizontally, within six of its heights)."""
    x0, y0, x1, y1 = page.lines[i].box
    reach = 6 * (y1 - y0)
    return [
        j
        for j in page.flat
        if j != i
        and page.lines[j].box[1] >= (y0 + y1) / 2
        and page.lines[j].box[1] - y1 <= reach
        and min(x1, page.lines[j].box[2]) > max(x0, page.lines[j].box[0])
    ]


def _heading(page: _Page, spec: ElementSpec) -> list[Element]:
    """Lines clearly larger than the body under them: a line with lines of its column starting
    within two of its heights under it, its type at least ``HEADING_SIZE`` times their median
    type size, or, at about the same size, measured
    bold over regular body lines (``rewards.text.page.text_style.measure``; needs the image). Top to bottom."""
    rgb = page.rgb()
    weights: dict[int, str | None] = page.memo.setdefault("weights", {})

    def weight(li: int) -> str | None:
        if li not in weights:
            line = page.lines[li]
            weights[li] = measure(rgb, [(w.box, w.text) for w in line.words]).weight if rgb is not None else None
        return weights[li]

    found = []
    for i in page.flat:
        # a bullet read as a line of its own ("e" left of a list item) is no body line: its size and
        # weight (none measured) are not the body's; a sidebar's bold "In this issue" was no heading
        # nor is ink read as letters with no confidence (an org chart's connectors read "—l", "CT")
        body = [j for j in _body_under(page, i) if element_words(page.lines, j) and _read_sure(page, j)]
        x0, y0, x1, y1 = page.lines[i].box
        if not body or min(page.lines[j].box[1] for j in body) - y1 > 2 * (y1 - y0):  # no body right under it
            continue
        body = _run_under(page, body, 2 * (y1 - y0))
        ratio = page.sizes[i] / median(page.sizes[j] for j in body)
        if ratio >= HEADING_SIZE or (
            ratio >= 1 / SAME_SIZE and weight(i) == "bold" and all(weight(j) == "regular" for j in body[:3])
        ):
            found.append(i)
    found += [i for i in panel_titles(page, HEADING_SIZE) if i not in found]  # a plot under it is no body
    found += heading_peers(page, found, weight)  # an accordion's closed questions, set as its open one
    found += heading_row_peers(page, found, weight)  # a board's column heads, in the row of the first
    ordered = sorted(found, key=lambda i: (page.lines[i].box[1], page.lines[i].box[0]))
    return page.elements("heading", [[i] for i in ordered])


def _run_under(page: _Page, body: list[int], gap: float) -> list[int]:
    """The lines of ``body`` from the top down to the first gap over ``gap`` pixels: the next card's
    or section's lines past a gap are not this line's body (an org chart's next row of names)."""
    ordered = sorted(body, key=lambda j: page.lines[j].box[1])
    run = ordered[:1]
    for j in ordered[1:]:
        if page.lines[j].box[1] - max(page.lines[k].box[3] for k in run) > gap:
            break
        run.append(j)
    return run


NOISE_CONF = 50.0
"""A line whose words OCR read with confidence under this is ink read as letters, no body (``_heading``)."""


def _read_sure(page: _Page, i: int) -> bool:
    """Line ``i``'s own words (``element_words``: a bullet's check mark read "/“" aside) read with
    confidence ``NOISE_CONF`` or more."""
    return words_conf(page.lines, list(element_words(page.lines, i))) >= NOISE_CONF


def _dot_left(gray: np.ndarray | None, box: Box, em: float) -> bool:
    """True when a small solid mark (a bullet dot or square: 15-55% of the type size ``em``,
    about square, filling at least half of its box) stands left of the text box ``box``, within
    two em, centred on the box's middle third (of its height)."""
    if gray is None:
        return False
    x0, y0, x1, y1 = box
    lh = y1 - y0
    a, b = max(0, int(x0 - 2 * em)), max(0, x0 - 1)
    if b - a < 3 or lh < 4:
        return False
    crop = gray[y0:y1, a:b].astype(np.int16)
    bg = int(np.median(gray[max(0, y0 - 3) : y1 + 3, a:b]))
    labels, _ = ndimage.label(np.abs(crop - bg) > 60)
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        hh, ww = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        cy = y0 + (sl[0].start + sl[0].stop) / 2
        solid = (labels[sl] == k).mean()
        small = 0.15 * em <= hh <= 0.55 * em and 0.6 <= ww / hh <= 1.6
        if small and solid >= 0.5 and abs(cy - (y0 + y1) / 2) <= lh / 3:
            return True
    return False


def _text_left(page: _Page, i: int) -> int:
    """The left edge of line ``i``'s element words (after a bullet mark OCR read), else of the line."""
    own = element_words(page.lines, i)
    return page.lines[i].words[own[0][1]].box[0] if own else page.lines[i].box[0]


def _lists(page: _Page, members: list[int], gap: float = 3) -> list[list[int]]:
    """``members`` (line indices) grouped into lists: the lines of one column whose text shares
    a left edge (``_text_left``, within half a line height; a bullet mark read or not) at about
    one type size, each within ``gap`` line heights of the previous one; top to bottom."""
    groups: list[list[int]] = []
    for i in sorted(members, key=lambda j: page.lines[j].box[1]):
        _, y0, _, y1 = page.lines[i].box
        x0 = _text_left(page, i)
        for g in groups:
            p = page.lines[g[-1]].box
            if (
                abs(_text_left(page, g[-1]) - x0) <= max(4, (y1 - y0) / 2)
                and _same_size(page.sizes[g[-1]], page.sizes[i])
                and y0 - p[3] <= gap * (y1 - y0)
            ):
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


def _bullet(page: _Page, spec: ElementSpec) -> list[Element]:
    """Lines led by a bullet: a first word that is a mark (``BULLET_GLYPHS``, what OCR reads for
    a dot, or a word with no letter or digit) followed by more words, or a small solid dot mark
    left of the line's first word (``_dot_left``, with the image); grouped into lists
    (``_lists``); the ``ordinal``-th of each list. The bullet's words are the line's without the
    mark. A line that is only a mark, aligned with a list's marks within its span, is an empty
    bullet (its text missing): it counts among the list's bullets and reads ''."""
    gray = page.gray()
    led, lone = [], []
    for i, line in enumerate(page.lines):
        if line.angle != 0 or page.canon[i] != i:
            continue
        if _led(page, i, gray):
            led.append(i)
        elif not element_words(page.lines, i):
            lone.append(i)
    out = []
    for g in _lists(page, led, gap=5):  # an empty bullet between two leaves a gap of two
        x0 = min(page.lines[j].box[0] for j in g)  # the marks' left edge (where OCR read one)
        pitch = max(page.lines[g[0]].box[3] - page.lines[g[0]].box[1], 1) * 2.5
        top, bottom = page.lines[g[0]].box[1] - pitch, page.lines[g[-1]].box[3] + pitch
        empty = [i for i in lone if abs(page.lines[i].box[0] - x0) <= 4 and top <= page.lines[i].box[1] <= bottom]
        members = sorted(g + empty, key=lambda j: page.lines[j].box[1])
        gaps = _unread_gaps(page, members)
        if spec.ordinal is not None and gaps:  # an empty bullet whose dot OCR did not read leaves a gap
            k = spec.ordinal - 1 if spec.ordinal > 0 else len(members) + spec.ordinal
            if (k > min(gaps)) if spec.ordinal > 0 else (k <= max(gaps)):
                continue  # counted across the gap, the Nth is not sure (counted up to it, it is)
        for i in _pick(members, spec.ordinal):
            out.append(page.element("bullet", [i]) or Element("bullet", page.lines[i].box, (i,), (), ""))
    return out


GAP_PITCH = 1.6
"""A list's pitch this many times its smallest (or, for two bullets, 2 x this many line heights) with no
line read between is a bullet OCR did not read."""


def _unread_gaps(page: _Page, members: list[int]) -> list[int]:
    """The k where bullets ``members[k]`` and ``members[k + 1]`` (top to bottom) stand ``GAP_PITCH``
    times the list's smallest pitch apart (2 x ``GAP_PITCH`` line heights for a list of two) with
    no line read between them (a bullet that wraps has its second line there)."""
    tops = [page.lines[i].box[1] for i in members]
    pitches = [b - a for a, b in zip(tops, tops[1:])]
    if not pitches:
        return []
    h = page.lines[members[0]].box[3] - page.lines[members[0]].box[1]
    base = min(pitches) if len(pitches) > 1 else 2 * h
    return [
        k
        for k, p in enumerate(pitches)
        if p > GAP_PITCH * base
        and not any(page.lines[members[k]].box[3] < ln.box[1] < tops[k + 1] for ln in page.lines)
    ]


def _rows(page: _Page) -> list[list[int]]:
    """Horizontal lines in rows: at least three lines of about one type size whose boxes overlap
    vertically (a menu, a navigation bar), left to right."""
    groups: list[list[int]] = []
    for i in sorted(page.flat, key=lambda j: page.lines[j].box[0]):
        cy = _centre(page.lines[i].box)[1]
        for g in groups:
            b = page.lines[g[0]].box
            if b[1] <= cy <= b[3] and _same_size(page.sizes[g[0]], page.sizes[i]):
                g.append(i)
                break
        else:
            groups.append([i])
    return [g for g in groups if len(g) >= 3]


def _in_grid(page: _Page, row: list[int]) -> bool:
    """Row ``row`` (``_rows``) is a table's row: within 3 line heights above or below it a line
    starts at each of its left edges (within half a line height), all above or all below: the
    cells of a grid, whose items run down its columns (an agenda's "09:00 | Opening keynote | Main
    Hall" rows are no menus; a navigation bar stands apart from a table under it)."""
    y0, y1 = min(page.lines[i].box[1] for i in row), max(page.lines[i].box[3] for i in row)
    h = page.lines[row[0]].box[3] - page.lines[row[0]].box[1]
    tol = max(4, h / 2)
    for side in (-1, 1):
        band = [
            j
            for j in page.flat
            if j not in row
            and (0 <= y0 - page.lines[j].box[3] <= 3 * h if side < 0 else 0 <= page.lines[j].box[1] - y1 <= 3 * h)
        ]
        if all(any(abs(page.lines[j].box[0] - page.lines[i].box[0]) <= tol for j in band) for i in row):
            return True
    return False


def _list_item(page: _Page, spec: ElementSpec) -> list[Element]:
    """Items of a list or menu: the lines of a column sharing a left edge (``_lists``, at least
    two lines), of a row (``_rows``: a menu, not a table's row: ``_in_grid``) or of a column of
    like cards (``card_lists.card_lists``: a board's tickets); the ``ordinal``-th item of each. A
    bulleted item that wraps is its bullet's line and the lines that wrap it (``_wrapped``)."""
    wraps = _wrapped(page)
    rest = {j for js in wraps.values() for j in js}
    heads = {li for e in _heading(page, spec) for li in e.lines}
    groups = [_headless(page, g, heads) for g in _lists(page, [i for i in page.flat if i not in rest])]
    groups = [g for g in groups if len(g) >= 2]
    menus = [g for g in _rows(page) if not _in_grid(page, g)]
    items = [[[i, *wraps.get(i, [])] for i in g] for g in groups] + [[[i] for i in g] for g in menus]
    items += [[[i] for i in g] for g in card_lists(page)]
    return [e for g in items for e in page.elements("list_item", _pick(g, spec.ordinal))]


def _headless(page: _Page, group: list[int], heads: set[int]) -> list[int]:
    """``group`` (a list's lines, top to bottom) without its first line when that line is a
    heading (in ``heads``: ``_heading``'s lines) outside every card (``card_rectangles``) that
    holds the second: a board's column head "Done" at its first ticket's left edge, in about its
    size, heads the column of cards and is no item of it (it made the first ticket "the second
    item under 'Done'")."""
    if len(group) < 2 or group[0] not in heads:
        return group
    cards = [r for r in card_rectangles(page) if group[1] in _lines_in(page, r)]
    return group[1:] if cards and not any(group[0] in _lines_in(page, r) for r in cards) else group


def _led(page: _Page, i: int, gray: np.ndarray | None) -> bool:
    """Line ``i`` is led by a bullet: a first word that is a mark, or read as the list's mark
    (``_list_mark``: check marks read "v" and once "¥", whose "v" lines were taken for the "¥"
    line wrapping), or a small dot left of its text."""
    words, own = page.lines[i].words, element_words(page.lines, i)
    glyph = len(words) > 1 and (_is_mark(words[0].text) or words[0].text[:1] in "•●▪" or _list_mark(page.lines, i))
    return bool(own) and (glyph or _dot_left(gray, words[own[0][1]].box, page.sizes[i]))


def _wrapped(page: _Page) -> dict[int, list[int]]:
    """Bulleted lines -> the lines that wrap them: each next line right under the one before (its
    top within 0.8 line heights of that one's bottom), of the same type size, not led by a bullet
    itself, starting between the bullet (two type sizes left of the text) and the text's left
    edge (a browser wraps flush with the bullet or with the text)."""
    gray = page.gray()
    out: dict[int, list[int]] = {}
    used: set[int] = set()
    for i in page.flat:
        if not _led(page, i, gray):
            continue
        x_text, h = _text_left(page, i), page.lines[i].box[3] - page.lines[i].box[1]
        cur, more = i, []
        while True:
            below = page.lines[cur].box[3]
            nxt = [
                j
                for j in page.flat
                if j not in used and j != i and j not in more
                and -2 <= page.lines[j].box[1] - below <= 0.8 * h
                and x_text - 2 * page.sizes[i] - 2 <= page.lines[j].box[0] <= x_text + 2
                and _same_size(page.sizes[i], page.sizes[j])
                and not _led(page, j, gray)
            ]  # fmt: skip
            if len(nxt) != 1:
                break
            more.append(nxt[0])
            cur = nxt[0]
        if more:
            out[i] = more
            used.update(more)
    return out


def _card(page: _Page, spec: ElementSpec) -> list[Element]:
    """Cards and tiles: the rectangles around text (a border or a filled panel) in kinds of about one size
    (``_like_groups``), and each series of label/value pairs set without a frame (``card_pairs``) a kind, each
    left to right then top to bottom; the ``ordinal``-th card's text of each kind, kinds of two or more first."""
    kinds = _like_groups(card_rectangles(page)) + pair_frames(page)
    if spec.ordinal is not None:  # "the second card": among cards of one kind (a lone box is no row of cards)
        kinds = [g for g in kinds if len(g) >= 2] or kinds
    frames = [r for g in kinds for r in _pick(g, spec.ordinal)]
    return [e for r in frames for e in _framed(page, "card", r)]


def _legend_entry(page: _Page, spec: ElementSpec) -> list[Element]:
    """Text with a small solid colour swatch just left of it (``legend_marks.swatch_left``, needs the image),
    or a line legend's handle read as a word or drawn there (``legend_marks.handle_left``, ``stroke_left``).
    OCR often reads the swatch as a short word ("W", "M@"), and may join a y-axis tick label left
    of it into the line ("12- ME Desktop" on a ggplot legend inside the axes): up to two first
    words of up to 3 characters each, with a swatch left of the next, are not part of the entry. Top to bottom, left
    to right; the ``ordinal``-th."""
    rgb = page.rgb()
    if rgb is None:
        return []
    found: list[tuple[int, tuple[WordId, ...]]] = []
    for i in page.flat:
        own = element_words(page.lines, i)
        first = own and page.lines[i].words[own[0][1]].box  # a handle OCR read, or one drawn there
        if own and (handle_left(page, i, own[0][1]) or stroke_left(rgb, first, page.sizes[i])):
            found.append((i, own))
            continue
        for k in range(min(3, len(own))):  # up to two short words first: a tick label and the swatch ("12- ME")
            if k and len(page.lines[i].words[own[k - 1][1]].text) > 3:
                break
            if swatch_left(rgb, page.lines[i].words[own[k][1]].box, page.sizes[i]):
                found.append((i, own[k:]))
                break
    made = [page.element("legend_entry", [i], words) for i, words in found]
    made = [e for e in made if e is not None]
    ordered = [made[k] for k in _ordered([e.box for e in made])]
    return _pick(ordered, spec.ordinal)


def _tick_rows(page: _Page) -> list[list[int]]:
    """Rows of at least three short horizontal lines (up to 12 characters: tick labels)."""
    return [
        [i for i in g if len(page.lines[i].text) <= 12]
        for g in _rows(page)
        if sum(len(page.lines[i].text) <= 12 for i in g) >= 3
    ]


def _axis_title(page: _Page, spec: ElementSpec) -> list[Element]:
    """The y-axis title (``axis`` "y"): a line read rotated (``Line.angle`` 90 or 270), those in
    the left half of the image (the chart's left edge) if any, else any rotated line. The x-axis
    title ("x"): the nearest horizontal line under a row of tick labels (``_tick_rows``), within
    three label heights, its centre within the row's middle half, itself in no row. No axis
    named: either."""
    found = []
    if spec.axis in ("y", None):
        rotated = [i for i in page.read if page.lines[i].angle in (90, 270)]
        left = [i for i in rotated if _centre(page.lines[i].box)[0] < page.size[0] / 2]
        found += page.elements("axis_title", [[i] for i in left or rotated])
    if spec.axis in ("x", None):
        in_rows = {i for g in _rows(page) for i in g}
        for row in _tick_rows(page):
            box = union_box(page.lines[i].box for i in row)
            lh, mid, half = box[3] - box[1], (box[0] + box[2]) / 2, (box[2] - box[0]) / 4
            under = [
                i
                for i in page.flat
                if i not in in_rows
                and 0 <= page.lines[i].box[1] - box[3] <= 3 * lh
                and abs(_centre(page.lines[i].box)[0] - mid) <= half
            ]
            if under:
                found += page.elements("axis_title", [[min(under, key=lambda i: page.lines[i].box[1])]])
    return found


def _exact_boxes(page: _Page, text: str) -> list[Box]:
    w, h = page.size
    found = ([m.box for m in find_matches(t, page.lines, w, h, None, False) if m.found] for t in label_spellings(text))
    return next((boxes for boxes in found if boxes), [])


def _table_cell(page: _Page, spec: ElementSpec) -> list[Element]:
    """A table cell: the words in the row of the row label (their centre within its height band)
    and in the column of the column label (overlapping its width, under it or, a heatmap's x tick,
    over it), other than the labels; with only one label, every cell of its row (right of it) or
    column (under it). Labels are read case-insensitively (``label_spellings``); none read, no cell."""
    rows = _exact_boxes(page, spec.row) if spec.row else [None]
    cols = _exact_boxes(page, spec.column) if spec.column else [None]
    out = []
    for r in rows:
        for c in cols:
            if r is None and c is None:
                continue
            words = []
            for i in page.flat:
                for li, wi in element_words(page.lines, i):
                    b = page.lines[li].words[wi].box
                    cx, cy = _centre(b)
                    in_row = r is None or (r[1] <= cy <= r[3] and b[0] > r[2])
                    in_col = c is None or (min(b[2], c[2]) > max(b[0], c[0]) and (b[1] > c[3] or (r and b[3] < c[1])))
                    if in_row and in_col:
                        words.append((li, wi))
            for li in dict.fromkeys(li for li, _ in words):
                e = page.element("table_cell", [li], tuple(w for w in words if w[0] == li))
                out += [e] if e is not None else []
    return out


OUTLINE_HEIGHT = 3.5
"""An outlined button's frame is at most this many times the type size (em) of its one line of text."""


def _outlined(page: _Page, r: Box) -> bool:
    """True for an outlined button (a border around one line of text, the page's colour inside:
    "Get started" beside a filled "Start free trial"): one line in the rectangle, which is at most
    ``OUTLINE_HEIGHT`` times that line's type size (a card holds more lines, or more room). The em,
    not the box: "Learn more" has no descender, and its 11 px box in a 39 px frame (16 px type, 10 px
    padding) was no button (engine dev landing-20, a false "no")."""
    inside = _lines_in(page, r)
    if len(inside) != 1:
        return False
    i = next(iter(inside))
    return r[3] - r[1] <= OUTLINE_HEIGHT * max(1.0, page.sizes[i], page.lines[i].box[3] - page.lines[i].box[1])


def _button(page: _Page, spec: ElementSpec) -> list[Element]:
    """Text inside a filled shape (a button, badge or band): the flat-coloured fills of the page
    (``rewards.text.ocr.fills.find_fills``, rounded shapes included), the rectangles whose
    inside differs from the page around them (``rectangles``), smaller than ``MAX_PAGE_SHARE``,
    and the outlined buttons (``_outlined``)."""
    if page.image is None:
        return []
    w, h = page.size
    frames = list(page.fills())
    gray = page.gray()
    for r in rectangles(page):
        inner = gray[r[1] + 2 : r[3] - 1, r[0] + 2 : r[2] - 1]
        outer = gray[max(0, r[1] - 4) : r[1] - 1, r[0] : r[2]]
        if inner.size and outer.size and abs(float(np.median(inner)) - float(np.median(outer))) > 40:
            frames.append(r)
        elif _outlined(page, r):
            frames.append(r)
    frames = [f for f in frames if (f[2] - f[0]) * (f[3] - f[1]) <= MAX_PAGE_SHARE * w * h]
    frames = _distinct(frames)
    frames = [frames[k] for k in _ordered(frames)]
    framed = [f for f in frames if _lines_in(page, f)]
    return [e for f in _pick(framed, spec.ordinal) for e in _framed(page, "button", f)]


def _whole(page: _Page, spec: ElementSpec) -> list[Element]:
    """Any element of its own: every line (horizontal or rotated) and every block of lines."""
    lines = page.read
    blocks = [b for b in dict.fromkeys(tuple(page.block(i)) for i in page.flat) if len(b) > 1]
    return page.elements("whole", [[i] for i in lines] + [list(b) for b in blocks])


FINDERS: dict[str, Callable[[_Page, ElementSpec], list[Element]]] = {
    "title": _title,
    "subtitle": _subtitle,
    "heading": _heading,
    "bullet": _bullet,
    "list_item": _list_item,
    "card": _card,
    "legend_entry": _legend_entry,
    "axis_title": _axis_title,
    "table_cell": _table_cell,
    "footer": footer,
    "button": _button,
    "whole": _whole,
}
"""One finder per ``rewards.text.questions.question_compiler.ELEMENT_ROLES`` role."""
