"""A missing legend entry whose handle stayed: its text written right of the lone handle.

matplotlib keeps a legend's row when an entry's label is empty: the row's handle (a line with its
marker, "—●—", or a swatch) is drawn, and nothing right of it (a dual-axis chart's legend of two
line series, one label left out). That row is the slot a designer fills: the text goes right of
the handle at the offset the legend's other entries keep between handle and text (matplotlib's
``handletextpad``: every label's pen starts at one x), on the row's own line, in the entries' type.

The legend's entries are the page's OCR lines with a handle just left of their text
(``handle_of``: a run of ink about 2 em long and under a line high, a stroke through it); the empty
row is a band of the same handle's shape in the same column (within ``SEARCH`` pitches of an
entry) with no text right of it. The string is written only when exactly one such row is found,
no other legend entry of the edit is missing (two empty rows, or two strings for one row, cannot
be told apart), and the row's text slot is clear to the end of the string; else the string is
skipped with the reason.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from refine.editors.text.outcomes import Skip
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import render_coverage
from rewards.rubric import TextExpectation

Box = tuple[int, int, int, int]
INK = 60
"""Least RGB distance from the legend's background of a handle's pixel."""
CLEAR = 25
"""Most RGB distance from the legend's background of a pixel in a clear text slot (the legend
frame's faint edge is further)."""
HANDLE_EMS = (1.2, 3.2)
"""Least and most length (line heights) of a legend handle: matplotlib's ``handlelength`` is 2 em."""
GAP = 1.5
"""Most blank run (line heights) between a handle's right end and its text."""
DASH_GAP = 0.35
"""Most blank run (line heights) inside a handle: the gaps of a dashed line."""
BASE_ROW = 0.35
"""Least share of its fullest row's ink a row of a label needs to be above its baseline."""
SEARCH = 3.5
"""How far (line heights) above the first entry and below the last an empty row is looked for."""


def _distance(arr: np.ndarray, y0: int, y1: int, x0: int, x1: int, bg: np.ndarray) -> np.ndarray:
    crop = arr[max(0, y0) : y1, max(0, x0) : x1].astype(np.int32)
    return np.sqrt(((crop - bg[None, None]) ** 2).sum(2))


def _runs(cols: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """(first, last + 1) of the runs of True in ``cols``, runs apart by at most ``gap`` joined."""
    idx = np.flatnonzero(cols)
    runs: list[tuple[int, int]] = []
    for i in idx:
        if runs and i - runs[-1][1] <= gap:
            runs[-1] = (runs[-1][0], int(i) + 1)
        else:
            runs.append((int(i), int(i) + 1))
    return runs


def handle_of(arr: np.ndarray, box: Box) -> tuple[Box, float] | None:
    """(box, stroke centre y) of the legend handle just left of the text ``box``: the nearest run of
    ink columns (dashes joined) within ``GAP`` line heights of the text, ``HANDLE_EMS`` long, no
    taller than the line, with a blank run before it and a row inked along at least half of it
    (the stroke, or a swatch's body); None when there is none."""
    x0, y0, x1, y1 = box
    lh = y1 - y0
    if lh < 4:
        return None
    mid = (y0 + y1) / 2
    top, bottom = int(mid - 0.6 * lh), int(np.ceil(mid + 0.6 * lh))
    left = int(x0 - (HANDLE_EMS[1] + GAP + 1) * lh)
    if left < 0 or top < 0 or bottom > arr.shape[0]:
        return None
    region = arr[top:bottom, left:x0]
    bg = np.median(region.reshape(-1, 3), axis=0)
    ink = _distance(arr, top, bottom, left, x0, bg) > INK
    runs = _runs(ink.any(0), int(DASH_GAP * lh))
    if not runs:
        return None
    a, b = runs[-1]
    if x0 - (left + b) > GAP * lh or a == 0 or not HANDLE_EMS[0] * lh <= b - a <= HANDLE_EMS[1] * lh:
        return None
    rows = np.flatnonzero(ink[:, a:b].any(1))
    if rows[-1] - rows[0] + 1 > lh or rows[0] == 0 or rows[-1] == ink.shape[0] - 1:
        return None
    along = ink[:, a:b].mean(1)
    if along.max() < 0.5:
        return None
    stroke = along >= 0.5 * along.max()
    weight = np.where(stroke, along, 0.0)
    centre = top + float((weight * np.arange(len(along))).sum() / weight.sum())
    return (left + a, top + int(rows[0]), left + b, top + int(rows[-1]) + 1), centre


def _read_over(state: EditState, box: Box) -> bool:
    """Whether OCR read a word of three or more letters or digits over ``box`` (text, no handle:
    a handle read as a word is "—e—", "—m-")."""
    return any(
        min(box[2], wd.box[2]) > max(box[0], wd.box[0])
        and min(box[3], wd.box[3]) > max(box[1], wd.box[1])
        and sum(c.isalnum() for c in wd.text) >= 3
        for ln in state.lines
        for wd in ln.words
    )


def legend_entries(state: EditState) -> list[tuple[Box, Box, float]]:
    """(text box, handle box, stroke centre y) of each OCR line with a legend handle left of its
    text: its words from the first or second on (OCR reads the handle as a word, "—m- Memberships
    sold"), the handle no word of text."""
    found = []
    for ln in state.lines:
        words = [wd for wd in ln.words if wd.box[3] - wd.box[1] >= 4]
        for k in range(min(2, len(words))):
            ws = words[k:]
            box = (ws[0].box[0], min(w.box[1] for w in ws), ws[-1].box[2], max(w.box[3] for w in ws))
            box = tuple(int(v) for v in box)
            handle = handle_of(state.arr, box)
            if handle is not None and not _read_over(state, handle[0]):
                found.append((box, *handle))
                break
    return found


def empty_rows(state: EditState, column: list[tuple[Box, Box, float]]) -> list[float]:
    """Stroke centres (y) of the rows of the legend ``column`` (entries whose handles stand at one
    x) that hold a handle of the same length and no text: bands of ink along at least half the
    handle's columns, not reaching past them (no gridline or frame), within ``SEARCH`` line
    heights of the entries, away from every entry's own handle."""
    hx0, hx1 = column[0][1][0], column[0][1][2]
    lh = max(t[3] - t[1] for t, _, _ in column)
    top = max(1, int(min(t[1] for t, _, _ in column) - SEARCH * lh))
    bottom = min(state.arr.shape[0] - 1, int(max(t[3] for t, _, _ in column) + SEARCH * lh))
    bg = np.median(state.arr[top:bottom, hx0:hx1].reshape(-1, 3), axis=0)
    ink = _distance(state.arr, top, bottom, hx0 - 5, hx1 + 5, bg) > INK  # handles' ends differ by a pixel
    inside, outside = ink[:, 5:-5].mean(1), ink[:, :3].any(1) | ink[:, -3:].any(1)
    rows = (inside >= 0.5) & ~outside
    bands = _runs(rows, 0)
    found = []
    for a, b in bands:
        centre = top + float((inside[a:b] * np.arange(a, b)).sum() / inside[a:b].sum())
        if all(abs(centre - c) > 0.5 * lh for _, _, c in column):
            found.append(centre)
    return found


def _ink_baseline(arr: np.ndarray, box: Box, matched: float) -> float:
    """The baseline of the text in ``box`` read from its ink: under the last row inked at least
    ``BASE_ROW`` as much as its fullest row (descenders are few), when within 2 px of the
    ``matched`` one; else ``matched``. Type matching places a label's baseline to about a pixel
    (a 17 px match of matplotlib's 16.7 px "Memberships sold" set it a row high)."""
    x0, y0, x1, y1 = box
    crop = arr[y0:y1, x0:x1].astype(np.int32)
    bg = np.median(crop.reshape(-1, 3), axis=0)
    counts = (np.sqrt(((crop - bg[None, None]) ** 2).sum(2)) > INK).sum(1)
    if counts.max() == 0:
        return matched
    found = y0 + int(np.flatnonzero(counts >= BASE_ROW * counts.max())[-1]) + 1
    return float(found) if abs(found - matched) <= 2 else matched


def _clear(state: EditState, box: Box, bg: np.ndarray) -> bool:
    """Whether ``box`` holds no ink (within ``CLEAR`` of ``bg``) and no OCR word."""
    x0, y0, x1, y1 = box
    d = _distance(state.arr, y0, y1, x0, x1, bg)
    if d.size == 0 or d.max() > CLEAR:
        return False
    words = [wd.box for ln in state.lines + state.placed_lines for wd in ln.words]
    return not any(min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]) for b in words)


def place_in_legend_row(state: EditState, exp: TextExpectation, others_missing: bool, rules: Rules):
    """Write ``exp.text`` right of the legend's one handle with no text (module docstring):
    Written, a Skip saying why not, or None when the page shows no legend handle with text beside
    it (``others_missing``: another legend entry of this edit is missing too)."""
    entries = legend_entries(state)
    if not entries:
        return None
    columns: dict[int, list] = {}
    for e in entries:
        key = next((k for k in columns if abs(k - e[1][0]) <= 2), e[1][0])
        columns.setdefault(key, []).append(e)
    column = max(columns.values(), key=len)
    rows = empty_rows(state, column)
    if not rows:
        return None
    if len(rows) > 1 or others_missing:
        return Skip("skip: the legend keeps more than one empty row, or more than one entry is missing; which "
                    "row is this string's is not told apart; not written")  # fmt: skip
    box, _, centre = min(column, key=lambda e: abs(e[2] - rows[0]))
    style = _style_of(state, box, rules)
    if style is None:
        return None
    shift = rows[0] - centre  # the handles are drawn snapped to whole pixels, the labels' baselines too
    pen = style.left  # every label's pen starts at one x
    alpha, (bx0, by0, _, _) = render_coverage(exp.text, style.face.font(style.size))
    x, y = int(round(pen + bx0)), int(round(style.baseline + shift + by0))
    pad = max(2, round(0.3 * style.size))
    slot = (x - pad, y - pad, x + alpha.shape[1] + pad, y + alpha.shape[0] + pad)
    bg = np.median(state.arr[max(0, slot[1]) : slot[3], max(0, slot[0]) : slot[2]].reshape(-1, 3), axis=0)
    if not _clear(state, slot, bg):
        return Skip("skip: the legend's empty row has no clear room right of its handle; not written")
    moved = replace(style, baseline=_ink_baseline(state.arr, box, style.baseline) + round(shift))
    written = _write(state, exp.text, moved, pen, "left", "place (in the legend's empty row, by its handle)", {},
                     pen=True)  # fmt: skip
    if written is None:
        return Skip("skip: the legend's empty row has no clear room right of its handle; not written")
    return written
