"""A list item the engine left out and closed the gap behind: inserted, the items after it moved down.

A layout engine sets a list's items one under another; when one is left out, the items after it
move up into its place, so the page shows "Is the first item under the "Next steps" heading ...?"
answered by what was the second item. A designer inserts the missing item at its place and moves
the items after it down by one step. This module does that for the bulleted list under the
check's heading (``list_items``):

1. **The list.** Under the heading (the check's anchor, relation "below"), its first line within
   ``FIRST_GAP`` heading heights, the items are the lines with a bullet (ink left of the text,
   ``place_list_item.bullet_of``) at one text edge; a line under an item at the bullet's edge
   with no bullet of its own (a wrapped item's second line) is that item's. The list ends at the
   first line that is neither, or that stands more than ``MAX_GAP`` line heights under the last.
2. **The shift.** The check asks for item N, the list shows an item N (the string is on the page
   nowhere, and no near version of it either: those are rewritten before this runs), so the list
   closed up. The step is one item of the new item's line count: from the tops of the items'
   bullets, ``top[k+1] - top[k] = lines[k] * pitch + gap`` (the line pitch and the items' gap,
   solved when items of two line counts are shown; with items of one count, that count's step).
   The new string is wrapped at the list's widest line (a line the list shows fits its column);
   its second line starts where the list's wrapped lines start. A list that shows no wrapped
   line has a column at least as wide as its widest line: the string stays on one line when the
   page is empty for an em past its end (``_free_past``).
3. **The edit** (``insert_list_item``, one action, ``place (item N of the list under '...',
   the items after it moved down)``): the band of the items from N to the last (from the list's
   bullets to its widest line) is copied ``step`` px down, the rows it leaves are painted in the
   band's ground colour, item N's bullet is copied back where it was, and the string is written
   there in item N's type (``place_in_element._write``).

Withheld (a ``Skip`` with the reason, nothing drawn) when the list's rows hold other graphics or
stand on a ground that is not one colour, when the rows under the list's last item are not empty
page for the step (the list's container, a card's edge or the next block, has no room), when a
wrapped line's start or the line pitch is needed and the list shows none, or when the string
does not fit where item N's text starts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from refine.editors.text.engine_advance import set_font
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _exact, _style_of, _write
from refine.editors.text.place_list_item import FIRST_GAP, SAME_EDGE, bullet_of
from refine.editors.text.placement import busy_mask
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word

Box = tuple[int, int, int, int]
MAX_GAP = 2.0
"""Most distance (line heights) from one item's last line to the next item's first."""
CONT_EDGE = 8
"""Most distance (px) of a wrapped line's left edge from its item's bullet's left edge."""
FLAT = 10
"""Most difference (any channel) from the band's ground colour of a pixel outside the list's text."""
PAD = 3
"""Pixels around the list's lines and bullets that hold their ink (antialiasing, OCR boxes a pixel
short)."""


@dataclass(frozen=True)
class Item:
    """One item of a list: its lines' boxes (first line first) and its bullet's box."""

    lines: tuple[Box, ...]
    bullet: Box

    @property
    def top(self) -> int:
        return self.lines[0][1]

    @property
    def bottom(self) -> int:
        return max(b[3] for b in self.lines)


def list_items(state: EditState, heading: Box) -> list[Item]:
    """The bulleted items of the list directly under ``heading`` (step 1 of the module
    docstring), top to bottom; [] when no bulleted line starts under it."""
    hx0, _, _, hy1 = heading
    hh = heading[3] - heading[1]
    below = sorted((tuple(int(v) for v in ln.box) for ln in state.lines if ln.words and ln.box[1] >= hy1 - 1),
                   key=lambda b: b[1])  # fmt: skip
    items: list[Item] = []
    edge = None
    for b in below:
        lh = b[3] - b[1]
        if not items:
            if b[1] - hy1 > FIRST_GAP * hh or not hx0 - hh <= b[0] <= hx0 + 3 * hh:
                continue
            bullet = bullet_of(state.arr, b)
            if bullet is None:
                return []
            items.append(Item((b,), bullet))
            edge = b[0]
            continue
        last = items[-1]
        if b[1] - last.bottom > MAX_GAP * lh:
            break
        if abs(b[0] - edge) <= SAME_EDGE and (bullet := bullet_of(state.arr, b)) is not None:
            items.append(Item((b,), bullet))
        elif abs(b[0] - last.bullet[0]) <= CONT_EDGE and b[1] >= last.lines[-1][3] - 2:
            items[-1] = replace(last, lines=(*last.lines, b))
        elif b[0] > edge + SAME_EDGE or b[2] < last.bullet[0]:
            continue  # a line of another column beside the list
        else:
            break
    return items


def steps(items: list[Item]) -> tuple[float | None, float | None, dict[int, float]]:
    """(line pitch, items' gap, {line count: step}) of ``items`` (step 2 of the module
    docstring): the pitch and gap are None unless items of two line counts are shown; the steps
    are the median per line count of the items that have a next item. Measured between the
    items' bullets: one mark drawn alike for every item, where OCR's line tops vary with the
    letters ("Open data ..." over "Move billing ..." measured 28 px for Chromium's 29)."""
    pairs = [(len(a.lines), b.bullet[1] - a.bullet[1]) for a, b in zip(items, items[1:])]
    by_count: dict[int, list[int]] = {}
    for n, d in pairs:
        by_count.setdefault(n, []).append(d)
    step = {n: float(np.median(ds)) for n, ds in by_count.items()}
    if len(step) < 2:
        return None, None, step
    a = np.array([[n, 1.0] for n, _ in pairs])
    pitch, gap = np.linalg.lstsq(a, np.array([d for _, d in pairs], float), rcond=None)[0]
    return float(pitch), float(gap), step


def _wrap(text: str, font, first: float, then: float, right: float) -> list[str] | None:
    """``text`` broken greedily at spaces into lines whose advance, from pen x ``first`` (then
    ``then``), ends at most at ``right``; None when a word alone does not fit."""
    out: list[str] = []
    for word in text.split():
        x = first if not out else then
        if out and x + font.getlength(f"{out[-1]} {word}") <= right:
            out[-1] = f"{out[-1]} {word}"
        elif (first if not out else then) + font.getlength(word) <= right:
            out.append(word)
        else:
            return None
    return out


def _free_past(state: EditState, items: list[Item], right: float, style, font, text: str) -> bool:
    """Whether ``text`` set on one line from ``style.left`` may run past the list's widest line
    (``right``): the list shows no wrapped line, so its column is only known to be at least that
    wide, and the page right of the list's lines is empty for an em past the string's end."""
    end = math.ceil(style.left + font.getlength(text) + style.size)
    top, bottom = min(it.top for it in items), max(it.bottom for it in items)
    if end > state.w:
        return False
    return not state.busy[top:bottom, int(right) + PAD : end].any()  # the widest line's own fringe is busy


def _ground(arr: np.ndarray, band: Box, ink: list[Box]) -> tuple[int, int, int] | None:
    """The one colour of ``band``'s pixels outside the ``ink`` boxes (grown by ``PAD``), or None
    when they are not one colour (within ``FLAT``): a gradient, a rule or another graphic."""
    x0, y0, x1, y1 = band
    crop = arr[y0:y1, x0:x1].astype(np.int16)
    keep = np.ones(crop.shape[:2], bool)
    for bx0, by0, bx1, by1 in ink:
        keep[max(0, by0 - PAD - y0) : max(0, by1 + PAD - y0), max(0, bx0 - PAD - x0) : max(0, bx1 + PAD - x0)] = False
    if not keep.any():
        return None
    ground = np.median(crop[keep], axis=0)
    if (np.abs(crop[keep] - ground).max(1) > FLAT).any():
        return None
    return tuple(int(v) for v in ground)


def _layout(state: EditState, exp: TextExpectation, items: list[Item], n: int, rules: Rules):
    """(type of item N, its lines of text, pen x of a wrapped line, step px) of the new item, or a
    Skip saying why it cannot be laid out (step 2 of the module docstring)."""
    style = _style_of(state, items[n - 1].lines[0], rules, engine_set=True)
    if style is None:
        return Skip(f"skip: the type of item {n} under {exp.anchor!r} is not read; not inserted")
    right = max(b[2] for it in items for b in it.lines) + 1
    wrapped = next((it for it in items if len(it.lines) > 1), None)
    then = line_pitch = None
    if wrapped is not None:  # where a wrapped line starts, and how far under the line above it
        first, cont = _style_of(state, wrapped.lines[0], rules, True), _style_of(state, wrapped.lines[1], rules, True)
        if first is not None and cont is not None:
            then, line_pitch = cont.left, cont.baseline - first.baseline
    font = set_font(style.face, style.size, style.setting)  # the width the item is set at (``_write``)
    rows = _wrap(exp.text, font, style.left, then if then is not None else style.left, right)
    if rows is not None and len(rows) > 1 and then is None and _free_past(state, items, right, style, font, exp.text):
        rows = [exp.text]  # the list's column is at least its widest line, and the page is empty past it
    if rows is None or (len(rows) > 1 and then is None):
        return Skip(f"skip: item {n} under {exp.anchor!r} would wrap, and the list shows no wrapped line to set "
                    "its second line by; not inserted")  # fmt: skip
    pitch, gap, step = steps(items)
    line_pitch = line_pitch if line_pitch is not None else pitch  # baselines, when a wrapped item shows them
    if len(rows) in step:
        shift = step[len(rows)]
    elif pitch is not None:
        shift = len(rows) * pitch + gap
    else:
        return Skip(f"skip: the list under {exp.anchor!r} shows no item of {len(rows)} lines and no line pitch; "
                    "the step to move its items by is not known; not inserted")  # fmt: skip
    return style, rows, then, line_pitch, int(round(shift))


def insert_list_item(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """Insert ``exp.text`` as item ``element.ordinal`` of the list under its check's heading and
    move the items after it down (module docstring): Written; a Skip saying why not; None when
    the check names no heading and ordinal or the list shows no item N (the list is not closed
    up: ``place_list_item``'s)."""
    n = getattr(element, "ordinal", None)
    if n is None or n < 1 or exp.anchor is None or exp.relation not in ("below", "directly_below"):
        return None
    heading = _exact(state, exp.anchor, rules)
    if heading is None:
        return None
    items = list_items(state, heading[0])
    if len(items) < max(2, n):
        return None
    laid = _layout(state, exp, items, n, rules)
    if isinstance(laid, Skip):
        return laid
    style, rows, then, line_pitch, shift = laid
    lines = [b for it in items for b in it.lines]
    x0 = max(0, min(it.bullet[0] for it in items) - PAD)
    x1 = min(state.w, max(b[2] for b in lines) + PAD)
    above = items[n - 2].bottom if n >= 2 else heading[0][3]
    y0 = items[n - 1].top - max(1, (items[n - 1].top - above) // 2)
    y1 = min(state.h, items[-1].bottom + PAD)
    room = (x0, y1, x1, min(state.h, y1 + shift + PAD))
    if room[3] - room[1] < shift + PAD or state.busy[room[1] : room[3], room[0] : room[2]].any():
        return Skip(f"skip: item {n} under {exp.anchor!r} needs the items after it moved {shift} px down, and the "
                    "list's container has no room under its last item; not inserted")  # fmt: skip
    ink = [b for it in items[n - 1 :] for b in (*it.lines, it.bullet)]
    ground = _ground(state.arr, (x0, y0, x1, y1), ink)
    if ground is None:
        return Skip(f"skip: the rows of the items after item {n} under {exp.anchor!r} hold other graphics or no "
                    "one ground colour; not moved, not inserted")  # fmt: skip
    layout = (style, rows, then, line_pitch)
    return _insert(state, exp, n, (x0, y0, x1, y1), shift, ground, items[n - 1].bullet, layout)


def _insert(state: EditState, exp, n: int, band: Box, shift: int, ground, bullet: Box, layout) -> Written | Skip:
    """Step 3 of the module docstring on ``state``'s pixels: the ``band`` moved ``shift`` px down,
    the rows it leaves painted ``ground``, the rows of ``layout`` (type, texts, pen x of a
    wrapped row, line pitch) written, ``bullet`` copied back; the page is left as it was (and a
    Skip returned) when a row does not fit."""
    style, rows, then, line_pitch = layout
    x0, y0, x1, y1 = band
    saved, busy_before = state.arr.copy(), state.busy.copy()
    state.arr[y0 + shift : y1 + shift, x0:x1] = saved[y0:y1, x0:x1]
    state.arr[y0 : y0 + shift, x0:x1] = ground
    state.busy[y0 : y1 + shift, x0:x1] = busy_mask(state.arr[y0 : y1 + shift, x0:x1], [])
    action = f"place (item {n} of the list under {exp.anchor!r}, the items after it moved {shift} px down)"
    written = []
    for k, row in enumerate(rows):
        line_style = replace(style, baseline=style.baseline + k * (line_pitch or 0))
        w = _write(state, row, line_style, style.left if k == 0 else then, "left", action, {}, pen=True)
        if w is None:
            state.arr[:] = saved
            state.busy[:] = busy_before
            return Skip(f"skip: item {n} under {exp.anchor!r} does not fit where its text starts; not inserted")
        written.append(w)
    # the bullet with its antialiased fringe (its box holds the pixels ``INK`` off the ground)
    bx0, by0, bx1, by1 = bullet = (max(x0, bullet[0] - 2), bullet[1] - 2, bullet[2] + 2, bullet[3] + 2)
    state.arr[by0:by1, bx0:bx1] = saved[by0:by1, bx0:bx1]
    _move_lines(state, band, shift)
    boxes = [w.box for w in written]
    main = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    moved = (x0, y0 + shift, x1, y1 + shift)
    info = written[0].info | {"lines": len(rows), "moved": [list(band), shift], "bullet": list(bullet)}
    rows_read = tuple(ln for w in written for ln in w.lines)
    return Written(action, main, [*boxes, moved, bullet], info, rows_read, erased=(band,))


def _move_lines(state: EditState, band: Box, shift: int) -> None:
    """The OCR lines inside ``band`` moved ``shift`` px down in ``state.lines`` (the strings fixed
    after this one see the items where they now stand)."""
    x0, y0, x1, y1 = band

    def inside(b) -> bool:
        return x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1

    for i, ln in enumerate(state.lines):
        if ln.words and inside(ln.box):
            words = tuple(Word(wd.text, (wd.box[0], wd.box[1] + shift, wd.box[2], wd.box[3] + shift), wd.conf)
                          for wd in ln.words)  # fmt: skip
            state.lines[i] = Line(words, ln.angle)
