"""A chart's value label at its bar: rewrite the wrong number there, or write the missing one there.

A check such as "Is the value label at the end of the "Juice" bar "35"?" quotes the bar's category
(its tick label, on the page) and the value; "Is the value label above the "Online" bar "26"?"
quotes the value with the bar named as its anchor (``work.NAMED_BAR``), the same job. The bar is the
solid run of one colour that starts by the tick label: to its right on the tick's row (a horizontal
bar chart: the label left of the axis) or above it in the tick's column (a vertical bar chart: the
label under the axis), or a waterfall's floating bar above it with only the spine, gridlines and
the tick mark under it (``_floats``). Its value label stands just past the bar's end, at the gap and in the type of
the page's other value labels (numbers standing past the end of a bar too), else at 0.4 of the tick
label's height in the tick label's type. A number that stands there is the wrong version: it is
rewritten in place (``rewrite``), over a vertical bar centred on the bar (matplotlib's
``ha="center"``; "15" for "95" was set from its old left edge), never written beside. When nothing
stands there the value is written there, if the slot is free; a chart whose bar cannot be found (a
line or pie chart, a grouped bar with several bars by one tick) is left to the other jobs.

A grouped bar's check names its series too ("the value label above the "2024" bar in the "Wind"
group": ``work.GROUPED_BAR``): its bar is found by colour (``group_bar``): the colour of the
legend swatch left of the series' name (the median of the strong pixels within ``SWATCH_REACH``
type sizes left of it), and the one run of that colour standing on the axis in the group's span
of the x axis (``rewards.text.page.series_bars``, the finder the judge reads the value with).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.erase import composite, erase
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Rewrite, Skip, Written
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tick_label import tick_row
from refine.editors.text.type_match import TypeStyle, match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import LOOKALIKES, Line, Match, Word, find_matches, normalize
from rewards.text.page.series_bars import group_span, label_height, series_bar

Box = tuple[int, int, int, int]
NUMBER = re.compile(r"^[$€£]?[+-]?[0-9][0-9.,]*[%kKmMbB]?$")
"""An OCR word that is a chart value ("35", "1,640", "12.5%", "$4.2M")."""
STRONG = 60
"""Least difference (any channel, 0-255) of a bar pixel from the page background: gridlines are
lighter, the axis spine is one pixel wide."""


SWATCH_REACH = 3.5
"""Type sizes left of a legend entry's text within which its swatch lies (matplotlib: 2 em of
handle and 0.8 em of pad)."""
MISREAD_CHARS = 4
"""Most characters of a lone word at a bar's end taken as its value misread (``_wrong_label``)."""
COLOUR_TOL = 30
"""Most difference (any channel) of a legend swatch's pixel from the first of its run (``_run``)."""
STACK_GAP = 2
"""Most rows (an edge line) between two segments of a stacked bar."""
FLOAT_INK = 2
"""Longest strong run (px: an axis spine, a gridline) in a tick's column under a floating bar."""
PEERS = 4
"""How many of the page's other value labels the type is matched on (``_style``: the best match wins)."""
JUNK_TALL = 6
"""How many times the slot's height an OCR word of at most 3 characters must be tall to be no word
but OCR's reading of a grid (``_clear``: "il" over a ggplot chart's white gridlines, 342 px high)."""


class Bar(NamedTuple):
    """A bar found by its tick label: "h" (grows to the right) or "v" (grows up), its box, its colour."""

    orient: str
    box: Box
    colour: tuple[int, int, int]


def _run(pixels: np.ndarray, bg: np.ndarray, start: int, min_len: int) -> tuple[int, int] | None:
    """The first run (start, end-exclusive indices of ``pixels``, (N, 3)) of at least ``min_len``
    pixels of one colour (within ``COLOUR_TOL`` per channel) that differ from ``bg`` by more than ``STRONG``,
    searched from index ``start`` on; None when there is none."""
    strong = np.abs(pixels.astype(np.int16) - bg[None]).max(1) > STRONG
    i, n = start, len(pixels)
    while i < n:
        if not strong[i]:
            i += 1
            continue
        j = i + 1
        while j < n and strong[j] and np.abs(pixels[j].astype(np.int16) - pixels[i]).max() <= COLOUR_TOL:
            j += 1
        if j - i >= min_len:
            return i, j
        i = j
    return None


def find_bar(arr: np.ndarray, tick: Box) -> Bar | None:
    """The bar of the tick label at ``tick`` (module docstring) on ``arr`` (uint8 (H, W, 3)), or None."""
    h, w = arr.shape[:2]
    bg = page_background(arr)
    x0, y0, x1, y1 = tick
    th = max(4, y1 - y0)
    cy, cx = (y0 + y1) // 2, (x0 + x1) // 2
    run = _run(arr[cy, x1 + 1 : min(w, x1 + 1 + 2 * th)].reshape(-1, 3), bg, 0, 1)
    if run is not None:  # the bar starts by the label (past the axis spine): a horizontal bar
        row = _run(arr[cy, x1 + 1 :], bg, 0, 2 * th)
        if row is not None:
            bx0, bx1 = x1 + 1 + row[0], x1 + 1 + row[1]
            col = _run(arr[:, (bx0 + bx1) // 2][::-1], bg, h - 1 - cy, th)  # up from the row's centre
            down = _run(arr[:, (bx0 + bx1) // 2], bg, cy, 1)
            if col is not None and down is not None and col[0] == h - 1 - cy and down[0] == cy:
                top, bottom = h - col[1], down[1]
                if bottom - top >= th:
                    return Bar("h", (bx0, top, bx1, bottom), tuple(int(v) for v in arr[cy, bx0]))
    col = _run(arr[: max(0, y0 - 1), cx][::-1], bg, 0, th)
    if col is None or (col[0] > 3 * th and not _floats(arr, bg, cx, y0 - 1 - col[0], y0 - 1, th)):
        return None
    by0, by1 = y0 - 1 - col[1], y0 - 1 - col[0]
    mid = (by0 + by1) // 2
    left = _run(arr[mid, : cx + 1][::-1], bg, 0, 1)
    right = _run(arr[mid, cx:], bg, 0, 1)
    if left is None or right is None or left[0] or right[0]:
        return None
    bx0, bx1 = cx - left[1] + 1, cx + right[1]
    if bx1 - bx0 < th or bx1 - bx0 > 3 * (x1 - x0) + 4 * th:
        return None  # thinner than a bar, or several bars side by side (a grouped bar)
    by0 = stack_top(arr, bg, (bx0, by0, bx1, by1), th)
    return Bar("v", (bx0, by0, bx1, by1), tuple(int(v) for v in arr[mid, cx]))


def _floats(arr: np.ndarray, bg: np.ndarray, cx: int, top: int, bottom: int, th: int) -> bool:
    """Whether the rows ``top`` to ``bottom`` (exclusive) of column ``cx`` of ``arr``, between a tick
    label and the first bar-tall run above it, hold no more than ``FLOAT_INK`` consecutive rows of
    wide ink (a strong run at least ``th`` px wide through ``cx``): only the axis spine, gridlines
    and the tick mark (narrow) lie under a waterfall's floating bar ("+62" over "New contracts"), so
    a short bar standing on the axis (under ``th`` px tall) is not skipped for a shape above it."""
    rows = 0
    for y in range(top, bottom):
        left, right = _run(arr[y, : cx + 1][::-1], bg, 0, 1), _run(arr[y, cx:], bg, 0, 1)
        wide = left is not None and right is not None and not left[0] and not right[0]
        rows = rows + 1 if wide and left[1] + right[1] - 1 >= th else 0
        if rows > FLOAT_INK:
            return False
    return bottom > top


def stack_top(arr: np.ndarray, bg: np.ndarray, box: Box, th: int) -> int:
    """The top row of the stack a vertical bar ``box`` (its bottom segment, one colour) belongs to:
    while a run of another strong colour, at least ``th`` rows tall and as wide as the bar (its
    edges within 2 px), stands on it (after at most ``STACK_GAP`` rows of an edge line), the top
    moves to that segment's top. A stacked bar's total stands past the whole stack, not its first
    segment (tester8's stacked chart: "41k" over three segments was not found at its bar)."""
    bx0, top, bx1, _ = box
    cx = (bx0 + bx1) // 2
    while top > 0:
        up = _run(arr[:top, cx][::-1], bg, 0, th)
        if up is None or up[0] > STACK_GAP:
            return top
        seg0, seg1 = top - up[1], top - up[0]
        mid = (seg0 + seg1) // 2
        left, right = _run(arr[mid, : cx + 1][::-1], bg, 0, 1), _run(arr[mid, cx:], bg, 0, 1)
        if left is None or right is None or left[0] or right[0]:
            return top
        if abs((cx - left[1] + 1) - bx0) > 2 or abs(cx + right[1] - bx1) > 2:
            return top
        top = seg0
    return top


def swatch_colour(arr: np.ndarray, entry: Box) -> tuple[int, int, int] | None:
    """The colour of the legend swatch left of the legend entry's text ``entry``: a run of strong
    pixels (``STRONG`` off the page background) of one colour (within ``COLOUR_TOL``) at least 1.2
    of the text's heights long on one of its rows, within ``SWATCH_REACH`` of its heights left of
    it (glyphs, "year " before a "2025", have no such run); the run's median colour, or None."""
    x0, y0, x1, y1 = entry
    a0 = max(0, round(x0 - SWATCH_REACH * (y1 - y0)))
    crop, bg = arr[y0:y1, a0 : max(a0, x0 - 2)].astype(np.int16), page_background(arr)
    strong = np.abs(crop - bg[None, None]).max(2) > STRONG
    for row, on in zip(crop, strong):
        run = _run(row, bg, 0, round(1.2 * (y1 - y0))) if on.any() else None
        if run is not None:
            return tuple(int(v) for v in np.median(row[run[0] : run[1]], axis=0))
    return None


def group_bar(arr: np.ndarray, lines: list[Line], tick: Box, colour: tuple[int, int, int]) -> Bar | None:
    """The bar of colour ``colour`` in the group of the tick label at ``tick`` (one of the page's
    row of x tick labels, ``tick_label.tick_row``), found by ``rewards.text.page.series_bars``
    (the judge's finder), or None when the tick label is not in that row or no one bar is found."""
    h, w = arr.shape[:2]
    ticks = tick_row(lines, h)
    cx = (tick[0] + tick[2]) / 2
    at = [k for k, i in enumerate(ticks) if lines[i].box[0] <= cx <= lines[i].box[2]]
    if len(at) != 1 or len(ticks) < 2:
        return None
    boxes = [lines[i].box for i in ticks]
    span = group_span([(b[0] + b[2]) / 2 for b in boxes], at[0], w)
    found = series_bar(arr, colour, span, min(b[1] for b in boxes), label_height(boxes))
    return Bar("v", found, colour) if found is not None else None


def _beyond(bar: Bar, word: Box, reach: float) -> float | None:
    """The gap (px) from the bar's end to ``word`` when the word stands past the end (within
    ``reach`` px, across the bar's middle); else None."""
    x0, y0, x1, y1 = bar.box
    cx, cy = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    if bar.orient == "h" and y0 <= cy <= y1 and 0 <= word[0] - x1 <= reach:
        return word[0] - x1
    if bar.orient == "v" and x0 <= cx <= x1 and 0 <= y0 - word[3] <= reach:
        return y0 - word[3]
    return None


def _gap_to_bar(arr, bg, word: Box, tick_h: int, orient: str) -> float | None:
    """The gap (px) between a number word and the end of a bar it stands past: a run of one
    colour, at least ``tick_h`` long, ending within 2.5 ``tick_h`` left of it on its row
    (``orient`` "h") or under it in its column ("v"; the taller bar left of a grouped bar's
    value is not its bar); None when there is none."""
    x0, y0, x1, y1 = word
    cy, cx = (y0 + y1) // 2, (x0 + x1) // 2
    reach = round(2.5 * tick_h)
    row, col = arr[cy, max(0, x0 - reach - 4 * tick_h) : x0][::-1], arr[y1 : y1 + reach + 4 * tick_h, cx]
    for pixels in (row,) if orient == "h" else (col,):
        run = _run(pixels.reshape(-1, 3), bg, 0, tick_h)
        if run is not None and run[0] <= reach:
            return float(run[0])
    return None


def _page_value_labels(arr, lines: list[Line], tick_h: int, orient: str) -> list[tuple[Word, float]]:
    """The number words of ``lines`` that stand past the end of a bar of ``orient``, with their gap."""
    bg = page_background(arr)
    out = []
    for ln in lines:
        for wd in ln.words:
            gap = _gap_to_bar(arr, bg, wd.box, tick_h, orient) if NUMBER.match(wd.text) else None
            if gap is not None:
                out.append((wd, gap))
    return out


def _wrong_label(state: EditState, bar: Bar, reach: float) -> tuple[Match | None, bool]:
    """(the word of the page's lines that stands at the bar's end, misread): the nearest number
    word there (False: the wrong value, to rewrite), else a line of one short word there (True:
    at most ``MISREAD_CHARS``; tesseract reads a small "12" over a short bar as "diz", and
    nothing else of a chart stands alone in a bar's value slot); (None, False) when none does."""
    best, misread = None, None
    for li, ln in enumerate(state.lines):
        for wi, wd in enumerate(ln.words):
            gap = _beyond(bar, wd.box, reach)
            if gap is None:
                continue
            m = Match(wd.text, wd.box, 0.0, False, ((li, wi),))
            if NUMBER.match(wd.text) and (best is None or gap < best[0]):
                best = (gap, m)
            elif len(ln.words) == 1 and len(wd.text) <= MISREAD_CHARS and (misread is None or gap < misread[0]):
                misread = (gap, m)
    if best is not None:
        return best[1], False
    return (misread[1], True) if misread is not None else (None, False)


def _style(
    state: EditState, tick: tuple, rules: Rules, orient: str, wrong: Box | None = None
) -> tuple[TypeStyle, float] | None:
    """The type and gap of the page's other value labels (not the one at ``wrong``), else the tick
    label's type at 0.4 of its height (not when ``wrong`` is given: None), in the faces of the
    page's body family (a few digits look alike in every face); None when no type can be matched."""
    arr, lines = state.arr, state.lines
    family = state.body_type(rules.faces).style.face.family
    faces = [f for f in rules.faces if f.family == family] or rules.faces
    box, text, wds = tick
    labels = [(w, g) for w, g in _page_value_labels(arr, lines, max(4, box[3] - box[1]), orient) if w.box != wrong]
    if wrong is not None and not labels:
        return None
    if labels:
        # the best-matched of a few: OCR's "35" for a waterfall's "-35" (its minus dropped) matched
        # the type 2 px too large at 0.59, where the "+21" beside it matched at 0.87
        styles = [match_type(arr, wd.box, wd.text, *box_colours(arr, wd.box), faces, [(wd.box, wd.text)])
                  for wd, _ in labels[:PEERS]]  # fmt: skip
        style = max((s for s in styles if s is not None), key=lambda s: s.score, default=None)
        gaps = sorted(g for _, g in labels)
        return (style, gaps[len(gaps) // 2]) if style is not None else None
    ink, bg = box_colours(arr, box)
    style = match_type(arr, box, text, ink, bg, faces, [(wd.box, wd.text) for wd in wds])
    return (style, 0.4 * (box[3] - box[1])) if style is not None else None


def _clear(state: EditState, box: Box, pad: int = 2, ignore: Box | None = None) -> bool:
    """Whether ``box`` (grown by ``pad``) holds no strong ink (``STRONG``: a faint gridline may
    run under a value label, as matplotlib draws them) and no OCR word (but the one at ``ignore``,
    erased)."""
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), box[2] + pad, box[3] + pad
    crop = state.arr[y0:y1, x0:x1].astype(np.int16)
    if (np.abs(crop - page_background(state.arr)[None, None]).max(2) > STRONG).any():
        return False
    tall = JUNK_TALL * (box[3] - box[1])  # OCR's reading of a grid (two letters over the whole plot) is no word there
    words = (wd.box for ln in state.lines + state.placed_lines for wd in ln.words
             if wd.box != ignore and not (len(wd.text) <= 3 and wd.box[3] - wd.box[1] > tall))  # fmt: skip
    return not any(min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]) for b in words)


def _replace_misread(state: EditState, exp: TextExpectation, bar: Bar, wrong: Match, style, gap) -> Written | Skip:
    """Erase the word ``wrong`` at the bar's end (a wrong value, or a misread one) and write
    ``exp.text`` in the value labels' type (``_write``): its own type cannot be matched on the text
    OCR read ("diz" set a "15" small and light), nor well on a few wrong digits ("93" set "63" a
    size small). The page is left as it was when the slot is not free."""
    before = state.arr.copy()
    pad = max(2, round(0.15 * (wrong.box[3] - wrong.box[1])))
    erased = (wrong.box[0] - pad, wrong.box[1] - pad, wrong.box[2] + pad, wrong.box[3] + pad)
    erase(state.arr, erased)
    out = _write(state, exp, bar, style, gap, ignore=wrong.box)
    if isinstance(out, Skip):
        state.arr[...] = before
        return out
    action = f"replace (at its bar's end: {wrong.text!r} in the value labels' type)"
    return replace(out, action=action, boxes=[erased, *out.boxes], was=wrong.text, words=wrong.words)


def _write(
    state: EditState, exp: TextExpectation, bar: Bar, style: TypeStyle, gap: float, ignore: Box | None = None
) -> Written | Skip:
    """Typeset ``exp.text`` past the bar's end at ``gap``, centred across the bar."""
    fnt = style.face.font(style.size)
    alpha, (bx0, by0, bx1, by1) = render_coverage(exp.text, fnt)
    x0, y0, x1, y1 = bar.box
    ah, aw = alpha.shape
    if bar.orient == "h":
        ox, oy = round(x1 + gap), round((y0 + y1) / 2 - ah / 2)
    else:
        ox, oy = round((x0 + x1) / 2 - aw / 2), round(y0 - gap - ah)
    box = (ox, oy, ox + aw, oy + ah)
    h, w = state.arr.shape[:2]
    if ox < 0 or oy < 0 or box[2] > w or box[3] > h or not _clear(state, box, ignore=ignore):
        return Skip("skip: the slot at its bar's end is taken or off the page; not written loose elsewhere")
    composite(state.arr, alpha, (ox, oy), style.ink)
    face = style.face
    info = {"family": face.family, "bold": face.bold, "italic": face.italic, "size": style.size,
            "align": "centre", "lines": 1, "at_bar": list(bar.box)}  # fmt: skip
    line = Line(tuple(Word(t, box) for t in exp.text.split()))
    return Written("place (at its bar's end)", box, [box], info, (line,))


def _bar_of(state: EditState, tick: Box, series: str | None, rules: Rules) -> Bar | None:
    """The bar of the tick label at ``tick``: of the series ``series`` (a grouped bar, found by the
    colour of the one legend swatch left of an occurrence of its name), or the one bar by the tick
    (``find_bar``)."""
    if series is None:
        return find_bar(state.arr, tick)
    found = find_matches(
        series, state.lines, state.w, state.h, None, rules.case_sensitive, rules.lenient, rules.max_lines
    )
    colours = {c for m in found if m.found and (c := swatch_colour(state.arr, m.box)) is not None}
    return group_bar(state.arr, state.lines, tick, colours.pop()) if len(colours) == 1 else None


def _alike_line(state: EditState, text: str):
    """(box, OCR text, words) of the one OCR line that reads ``text`` up to look-alikes (OCR's
    "Ql 2025" for the tick label "Q1 2025": the bar is still found by it), else None."""
    want = normalize(text).translate(LOOKALIKES)
    alike = [ln for ln in state.lines if normalize(ln.text).translate(LOOKALIKES) == want]
    if len(alike) != 1:
        return None
    return alike[0].box, alike[0].text, list(alike[0].words)


def value_at_bar(
    state: EditState, exp: TextExpectation, tick_text: str, rules: Rules, series: str | None = None
) -> Rewrite | Written | Skip | None:
    """Fix the value label ``exp`` of the bar whose tick label reads ``tick_text`` (of the series
    ``series`` in a grouped bar chart) (module docstring): a Rewrite of the wrong number at the
    bar's end, Written when the value was written there, a Skip when that slot is taken, None
    when the tick label or its bar is not found (the other jobs then handle the string)."""
    tick = rules.found_line(tick_text, state.lines, state.w, state.h, last=True) or _alike_line(state, tick_text)
    if tick is None:
        return None
    box = tick[0]
    bar = _bar_of(state, box, series, rules)
    if bar is None:
        return None
    th = max(4, box[3] - box[1])
    wrong, misread = _wrong_label(state, bar, 2.5 * th)
    if wrong is not None and normalize(wrong.text) == normalize(exp.text):
        return Skip("skip: already at its bar's end; not written twice")
    if wrong is not None and not misread:
        # in the other value labels' type: matched on the wrong digits alone, "63" for "93" came out
        # a size smaller than its neighbours (engine report bar-1010); centred on a vertical bar
        peers = _style(state, tick, rules, bar.orient, wrong=wrong.box)
        out = _replace_misread(state, exp, bar, wrong, *peers) if peers is not None else None
        if out is not None and not isinstance(out, Skip):
            return out
        return Rewrite(  # in its own type where that slot is not free (dev bar-0's horizontal "45")
            wrong, state.lines, (bar.box[0] + bar.box[2]) / 2 if bar.orient == "v" else None
        )
    found = _style(state, tick, rules, bar.orient)
    if found is None:
        return None
    return _replace_misread(state, exp, bar, wrong, *found) if wrong is not None else _write(state, exp, bar, *found)
