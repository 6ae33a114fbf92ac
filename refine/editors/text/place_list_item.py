"""The next item of the list under a heading, in the list's indent, pitch, type and bullet.

A check such as "Is the third item under the "Highlights" heading exactly "..."?" names a list
by its heading (the anchor, relation "below"). The list is the column of lines that starts
directly under the heading (its first line's top within ``FIRST_GAP`` heading heights of the
heading's bottom, its left edge within a few heading heights of the heading's left edge) and
goes on at one pitch with the same left edge (within ``SAME_EDGE`` px). When it holds exactly
N - 1 items, the Nth goes one pitch under the last: at the last item's left edge and in its type
(``place_in_element``'s ``_write``: the slot must be free), and the last item's bullet (the
ink left of its text, within ``BULLET_REACH`` line heights, on its rows) is copied one pitch
down, when the place it goes to is empty page. The list's own items are never moved.

A list that skips a row ("the second bullet": its dot drawn with no text beside it, or its row
left empty), or ends with a dot drawn with no text beside it ("the fourth bullet" under three
items and an empty dot), offers that row: ``gap_in_list`` finds the one bulleted column of lines (at least two
items with a bullet, one left edge, one pitch) whose Nth row is empty of text, and writes the
string there, in the type of the item above it; the bullet is copied from that item when the
row has none.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _exact, _style_of, _write
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line

FIRST_GAP = 2.5
"""Most distance (heading heights) from the heading's bottom to the top of the list's first line."""
SAME_EDGE = 4
"""Most difference (px) between the left edges of two items of one list."""
BULLET_REACH = 2.5
"""How far (line heights) left of an item's text its bullet may stand."""
INK = 40
"""Least difference (any channel) from the page background of a bullet's pixel."""


def list_under(lines: list[Line], heading) -> list[tuple[int, int, int, int]]:
    """Boxes of the items of the list directly under ``heading`` (a box), top to bottom (module
    docstring); [] when no line starts under it."""
    hx0, _, _, hy1 = heading
    hh = heading[3] - heading[1]
    below = sorted((ln.box for ln in lines if ln.box[1] >= hy1 - 1), key=lambda b: b[1])
    first = next(
        (b for b in below if b[1] - hy1 <= FIRST_GAP * hh and hx0 - hh <= b[0] <= hx0 + 3 * hh),
        None,
    )
    if first is None:
        return []
    items = [first]
    for b in below:
        if b[1] <= items[-1][1] or abs(b[0] - first[0]) > SAME_EDGE:
            continue
        step = b[1] - items[-1][1]
        pitch = items[1][1] - items[0][1] if len(items) > 1 else None
        h = items[-1][3] - items[-1][1]
        if (pitch is None and step <= 3 * h) or (pitch is not None and 0.8 * pitch <= step <= 1.25 * pitch):
            items.append(b)
        else:
            break
    return [tuple(int(v) for v in b) for b in items]


def bullet_of(arr: np.ndarray, item) -> tuple[int, int, int, int] | None:
    """The box of the ink left of ``item``'s text on its rows (its bullet), within
    ``BULLET_REACH`` line heights; None when there is none."""
    x0, y0, _, y1 = item
    reach = max(0, int(x0 - BULLET_REACH * (y1 - y0)))
    band = arr[y0:y1, reach : max(reach, x0 - 1)].astype(np.int16)
    if band.size == 0:
        return None
    ink = np.abs(band - page_background(arr).astype(np.int16)).max(2) > INK
    if not ink.any():
        return None
    ys, xs = np.nonzero(ink)
    return reach + int(xs.min()), y0 + int(ys.min()), reach + int(xs.max()) + 1, y0 + int(ys.max()) + 1


def _copy_bullet(arr: np.ndarray, bullet, pitch: int) -> tuple[int, int, int, int] | None:
    """Copy the ``bullet`` box's pixels ``pitch`` px down when the place is empty page (within
    ``INK`` of the background); the box written, or None."""
    bx0, by0, bx1, by1 = bullet
    if by1 + pitch > arr.shape[0]:
        return None
    dest = arr[by0 + pitch : by1 + pitch, bx0:bx1].astype(np.int16)
    if (np.abs(dest - page_background(arr).astype(np.int16)).max(2) > INK).any():
        return None
    arr[by0 + pitch : by1 + pitch, bx0:bx1] = arr[by0:by1, bx0:bx1]
    return bx0, by0 + pitch, bx1, by1 + pitch


def _pitch(arr: np.ndarray, items: list[tuple[int, int, int, int]]) -> int:
    """The list's step (px) from one item to the next: the median step between the items' bullets
    when each has one (one mark drawn alike for every item), else between their lines' tops (OCR's
    tops vary with the letters: "Supplier terms ..." over "Train every ..." measured 25 px for
    Chromium's 24, and the new item's descenders landed a row under its box)."""
    bullets = [bullet_of(arr, b) for b in items]
    tops = [b[1] for b in bullets] if all(b is not None for b in bullets) else [b[1] for b in items]
    return int(round(float(np.median(np.diff(tops)))))


def place_list_item(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` as item ``element.ordinal`` of the list under its check's heading
    (module docstring): Written; a Skip when the list is one item short but its slot is taken;
    None when the check names no heading and ordinal, or the page shows no such list."""
    n = getattr(element, "ordinal", None)
    if n is None or n < 3 or exp.anchor is None or exp.relation not in ("below", "directly_below"):
        return None  # two items give the list's pitch
    heading = _exact(state, exp.anchor, rules)
    if heading is None:
        return None
    items = list_under(state.lines, heading[0])
    if len(items) != n - 1:
        return None
    last = items[-1]
    pitch = _pitch(state.arr, items)
    style = _style_of(state, last, rules, engine_set=True)
    if style is None:
        return None
    bullet = bullet_of(state.arr, last)
    written = _write(state, exp.text, replace(style, baseline=style.baseline + pitch), style.left, "left",
                     f"place (item {n} of the list under {exp.anchor!r})", {}, pen=True)  # fmt: skip
    if written is None:
        return Skip(f"skip: the slot for item {n} under {exp.anchor!r} is taken; not written")
    return _with_bullet(state, written, bullet, pitch)


def _columns(lines: list[Line]) -> list[list[tuple[int, int, int, int]]]:
    """The page's columns of lines: boxes sharing one left edge (``SAME_EDGE``), top to bottom."""
    cols: list[list[tuple[int, int, int, int]]] = []
    for ln in sorted(lines, key=lambda ln: ln.box[1]):
        col = next((c for c in cols if abs(c[0][0] - ln.box[0]) <= SAME_EDGE), None)
        if col is None:
            cols.append([tuple(int(v) for v in ln.box)])
        else:
            col.append(tuple(int(v) for v in ln.box))
    return [c for c in cols if len(c) >= 2]


def _rows(col: list, arr: np.ndarray):
    """(pitch, {row number: box}) of a bulleted column, rows counted from its first item at its
    pitch (the smallest step between its items); None when it is not a list with bullets at one
    pitch, or spans more than twice its items' rows."""
    tops = [b[1] for b in col]
    pitch = min(b - a for a, b in zip(tops, tops[1:]))
    h = col[0][3] - col[0][1]
    if pitch < h or pitch > 3 * h:
        return None
    rows = {}
    for b in col:
        k = (b[1] - tops[0]) / pitch
        if abs(k - round(k)) > 0.15 or round(k) in rows:
            return None
        rows[round(k)] = b
    if max(rows) + 1 > 2 * len(rows) or sum(bullet_of(arr, b) is not None for b in col) < 2:
        return None
    return pitch, rows


def gap_in_list(state: EditState, exp: TextExpectation, element, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` in the empty row N (``element.ordinal``) of the one bulleted list that
    skips that row (module docstring); None when no list, or more than one, skips it."""
    n = getattr(element, "ordinal", None)
    if n is None or n < 2:
        return None
    found = []
    for col in _columns(state.lines):
        shape = _rows(col, state.arr)
        if shape is None or n - 1 in shape[1] or n - 2 not in shape[1]:
            continue
        pitch, above = shape[0], shape[1][n - 2]
        last = n - 1 == max(shape[1]) + 1  # the row after the last item: a slot only with its dot drawn
        if n - 1 < max(shape[1]) or (last and bullet_of(state.arr, _shifted(above, int(pitch))) is not None):
            found.append((pitch, above))
    if len(found) != 1:
        return None
    pitch, above = found[0]
    pitch = int(pitch)
    style = _style_of(state, above, rules, engine_set=True)
    if style is None:
        return None
    own = bullet_of(state.arr, _shifted(above, pitch))
    bullet = bullet_of(state.arr, above) if own is None else None
    written = _write(state, exp.text, replace(style, baseline=style.baseline + pitch), style.left, "left",
                     f"place (item {n} of its list, in its empty row)", {}, pen=True)  # fmt: skip
    if written is None:
        return Skip(f"skip: the empty row for item {n} of its list is taken; not written")
    return _with_bullet(state, written, bullet, pitch)


def _shifted(box, pitch: int) -> tuple[int, int, int, int]:
    """``box`` moved ``pitch`` px down: the row under it."""
    return (box[0], box[1] + pitch, box[2], box[3] + pitch)


def _with_bullet(state: EditState, written: Written, bullet, pitch: int) -> Written:
    """``written`` with the item above's ``bullet`` (its box, or None) copied ``pitch`` px down
    beside it (``_copy_bullet``), its box among the edit's and under ``info["bullet"]``."""
    copied = _copy_bullet(state.arr, bullet, pitch) if bullet is not None else None
    if copied is None:
        return written
    return replace(written, boxes=[*written.boxes, copied], info=written.info | {"bullet": list(copied)})
