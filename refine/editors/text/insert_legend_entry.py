"""A pie's legend entry the engine left out of its column legend: inserted, the other entries moved.

A pie's legend is a column centred beside it (matplotlib ``loc="center left"``); when an entry is
left out the column closes up and, centred, shrinks by one row from both ends. A designer puts
the entry back in the slices' order, with its slice's colour, and re-centres the column: the
entries before it move up and those after it down by half a row each. ``insert_legend_entry``
does that when the chart tells everything:

1. **The order.** The legend lists the slices in their order around the pie. Each entry's slice
   label (an OCR line outside the legend reading it, ``LABEL_SIMILARITY`` alike: a label may be
   misspelt) gives its angle about the pie's centre (the middle of the pie's solid regions, the
   ``PIE_AREA`` share of the page and over: ``pie_box``); the shown entries' angles, in legend order, go round
   in one direction, and the missing entry goes between the two shown entries its label's angle
   lies between. A label lying between the last entry and the first (the legend could start or
   end with it) is told by where the pie starts: charting tools start the first slice at 12 or
   3 o'clock (``START_ANGLES``), so when just one of the two wedge edges around the missing
   slice stands there (``opens_pie``: the colours ``EDGE_STEP`` degrees before and after it are
   the last shown slice's and the missing one's, or the missing one's and the first shown's), the
   entry opens or closes the legend; otherwise it is withheld.
2. **The colour.** The solid run of colour the ray from the pie's centre to the label crosses
   last before the label (its wedge), when no swatch of the legend shows that colour.
3. **The layout.** The column is centred on the pie (its middle within half a row of the pie's
   centre): the entries before the slot move ``round(pitch / 2)`` px up, the rest as far down,
   where the rows they move into are empty page; the new entry's text goes one pitch above the
   entry after it (moved), in its type, and its swatch is that entry's swatch, recoloured (its
   antialiased edge kept as coverage).

Anything else (no slice label for an entry, the order or colour not told, a legend not centred on
the pie, no room) is a ``Skip`` saying why, and nothing is drawn.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from rapidfuzz.distance import OSA
from scipy import ndimage

from refine.editors.text.insert_list_item import PAD, _ground
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.placement import busy_mask
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import boxes_meet

Box = tuple[int, int, int, int]
LABEL_SIMILARITY = 0.75
"""Least OSA similarity of a slice label to its legend entry's text (a misspelt label still places it)."""
PIE_AREA = 0.002
"""Least share of the page's area of a solid region that is part of the pie."""
STRONG = 60
"""Least RGB distance from the page background of a wedge's pixel."""
START_ANGLES = (90.0, 0.0)
"""Where charting tools start a pie's first slice (degrees counter-clockwise from 3 o'clock): 12
o'clock (Excel, Plotly, Google Charts, matplotlib's ``startangle=90``) and 3 o'clock
(matplotlib's default)."""
EDGE_STEP = 3.0
"""Degrees each side of a start angle at which the two slices meeting there are sampled (past the
white edge drawn between wedges)."""


def _near(a, b, tol: int = 30) -> bool:
    return max(abs(int(x) - int(y)) for x, y in zip(a, b)) <= tol


def pie_box(arr: np.ndarray, away: Box) -> Box | None:
    """The box of the pie: of the solid regions of at least ``PIE_AREA`` of the page outside the
    box ``away`` (the legend); None when there are none."""
    bg = page_background(arr).astype(np.int32)
    strong = np.sqrt(((arr.astype(np.int32) - bg) ** 2).sum(2)) > STRONG
    x0, y0, x1, y1 = away
    strong[max(0, y0) : y1, max(0, x0) : x1] = False
    labels, _ = ndimage.label(strong)
    big = [sl for k, sl in enumerate(ndimage.find_objects(labels), start=1)
           if (labels[sl] == k).sum() >= PIE_AREA * arr.shape[0] * arr.shape[1]]  # fmt: skip
    if not big:
        return None
    return (min(s[1].start for s in big), min(s[0].start for s in big),
            max(s[1].stop for s in big), max(s[0].stop for s in big))  # fmt: skip


def _label(state: EditState, text: str, legend: Box) -> Box | None:
    """The box of the one OCR line outside ``legend`` that reads ``text`` (``LABEL_SIMILARITY``)."""
    found = [ln.box for ln in state.lines if ln.words and not boxes_meet(ln.box, legend)
             and OSA.normalized_similarity(ln.text, text) >= LABEL_SIMILARITY]  # fmt: skip
    return found[0] if len(found) == 1 else None


def _angle(centre, box: Box) -> float:
    """Degrees (counter-clockwise from +x, y up) of ``box``'s middle about ``centre``."""
    return math.degrees(math.atan2(centre[1] - (box[1] + box[3]) / 2, (box[0] + box[2]) / 2 - centre[0])) % 360


def slot_in_order(angles: list[float], new: float) -> int | None:
    """Index (0..len) at which the angle ``new`` joins ``angles`` (the shown entries' slices, in
    legend order) going round in the one direction they go; None when they go round in neither,
    or ``new`` lies between the last and the first (the start or the end of the legend)."""
    found = set()
    for sign in (1, -1):  # two entries go round both ways: then both must give one slot
        rel = [((a - angles[0]) * sign) % 360 for a in angles]
        if all(x < y for x, y in zip(rel, rel[1:])):
            pos = ((new - angles[0]) * sign) % 360
            found.add(sum(r < pos for r in rel))
    return found.pop() if len(found) == 1 and len(angles) not in found else None


def ways_round(angles: list[float]) -> list[int]:
    """The directions (+1 counter-clockwise, -1 clockwise) in which the shown entries' slices
    (``angles``, in legend order) go round: both for two entries, none for a legend out of order."""
    found = []
    for sign in (1, -1):
        rel = [((a - angles[0]) * sign) % 360 for a in angles]
        if all(x < y for x, y in zip(rel, rel[1:])):
            found.append(sign)
    return found


def colour_at(arr: np.ndarray, centre, radius: float, angle: float) -> np.ndarray | None:
    """The median colour of the pie's solid pixels on the ray at ``angle`` (degrees, counter-
    clockwise from 3 o'clock) from 0.7 to 0.95 of its ``radius`` (a donut's ring too); None when
    fewer than half of them are solid."""
    bg = page_background(arr).astype(np.int32)
    rad = math.radians(angle)
    px = []
    for r in np.linspace(0.7 * radius, 0.95 * radius, 16):
        x, y = int(round(centre[0] + r * math.cos(rad))), int(round(centre[1] - r * math.sin(rad)))
        if 0 <= y < arr.shape[0] and 0 <= x < arr.shape[1]:
            p = arr[y, x].astype(np.int32)
            if np.sqrt(((p - bg) ** 2).sum()) > STRONG:
                px.append(p)
    return np.median(px, axis=0) if len(px) >= 8 else None


def opens_pie(arr: np.ndarray, pie: Box, first, last, missing, signs: list[int]) -> int | None:
    """0 when the missing slice (colour ``missing``) is the pie's first, 1 when it is its last:
    the one of its two edges that stands at a ``START_ANGLES`` angle, with the slices going round
    in one of the ``signs``, between the ``last`` shown slice and it (first) or between it and the
    ``first`` shown one (last); None when neither or both are seen."""
    centre = ((pie[0] + pie[2]) / 2, (pie[1] + pie[3]) / 2)
    radius = min(pie[2] - pie[0], pie[3] - pie[1]) / 2
    found = set()
    for start in START_ANGLES:
        for sign in signs:
            before = colour_at(arr, centre, radius, start - sign * EDGE_STEP)
            after = colour_at(arr, centre, radius, start + sign * EDGE_STEP)
            if before is None or after is None:
                continue
            if _near(before, last) and _near(after, missing):
                found.add(0)
            if _near(before, missing) and _near(after, first):
                found.add(1)
    return found.pop() if len(found) == 1 else None


def wedge_colour(arr: np.ndarray, centre, label: Box) -> tuple[int, int, int] | None:
    """The colour of the last solid run (over 6 px of one colour, ``STRONG`` off the page) on the
    ray from ``centre`` to ``label``'s middle, before the label; None when there is none."""
    bg = page_background(arr).astype(np.int32)
    lx, ly = (label[0] + label[2]) / 2, (label[1] + label[3]) / 2
    n = int(math.hypot(lx - centre[0], ly - centre[1]))
    runs: list[list] = []
    for t in range(n):
        x, y = int(centre[0] + (lx - centre[0]) * t / n), int(centre[1] + (ly - centre[1]) * t / n)
        if label[0] - 2 <= x < label[2] + 2 and label[1] - 2 <= y < label[3] + 2:
            break
        px = arr[y, x].astype(np.int32)
        if np.sqrt(((px - bg) ** 2).sum()) <= STRONG:
            runs.append([])
            continue
        if runs and runs[-1] and _near(runs[-1][-1], px, 12):
            runs[-1].append(px)
        else:
            runs.append([px])
    solid = [r for r in runs if len(r) > 6]
    return tuple(int(v) for v in np.median(solid[-1], axis=0)) if solid else None


def insert_legend_entry(state: EditState, exp: TextExpectation, swatches: list, rules: Rules) -> Written | Skip:
    """Insert ``exp.text`` into the column legend whose entries are ``swatches`` ((text box,
    (swatch box, colour)), top to bottom) (module docstring): Written, or a Skip saying why not."""
    texts = [" ".join(wd.text for ln in state.lines for wd in ln.words if boxes_meet(wd.box, b)) for b, _ in swatches]
    legend = (min(s[0] for _, (s, _) in swatches) - PAD, swatches[0][0][1] - PAD,
              max(b[2] for b, _ in swatches) + PAD, swatches[-1][0][3] + PAD)  # fmt: skip
    pie = pie_box(state.arr, legend)
    labels = [_label(state, t, legend) for t in [*texts, exp.text]]
    if pie is None or any(lb is None for lb in labels):
        return Skip("skip: the legend is a column that closed up; the slices' labels that order it are not all read; "
                    "not inserted")  # fmt: skip
    centre = ((pie[0] + pie[2]) / 2, (pie[1] + pie[3]) / 2)
    angles = [_angle(centre, lb) for lb in labels[:-1]]
    k = slot_in_order(angles, _angle(centre, labels[-1]))
    colour = wedge_colour(state.arr, centre, labels[-1])
    if k is None and colour is not None and ways_round(angles):  # its label lies between the last and the first
        end = opens_pie(state.arr, pie, swatches[0][1][1], swatches[-1][1][1], colour, ways_round(angles))
        k = None if end is None else end * len(swatches)
    if k is None or colour is None or any(_near(colour, c) for _, (_, c) in swatches):
        return Skip("skip: the legend is a column that closed up; where the entry goes in the slices' order, or its "
                    "slice's colour, is not told apart; not inserted")  # fmt: skip
    tops = [b[1] for b, _ in swatches]
    pitch = float(np.median(np.diff(tops)))
    if abs((legend[1] + legend[3]) / 2 - centre[1]) > pitch / 2:
        return Skip("skip: the legend is a column not centred on the pie; which way it grows is not known; not "
                    "inserted")  # fmt: skip
    return _relay(state, exp, swatches, k, int(round(pitch / 2)), pitch, colour, legend, rules)


def _relay(state: EditState, exp, swatches: list, k: int, half: int, pitch: float, colour, legend: Box, rules):
    """Step 3 of the module docstring: entries before ``k`` up ``half`` px, the rest down, the new
    entry written at slot ``k``; a Skip (nothing drawn) when there is no room or no one ground."""
    x0, y0, x1, y1 = legend
    cut = (swatches[k - 1][0][3] + swatches[k][0][1]) // 2 if 0 < k < len(swatches) else (y0 if k == 0 else y1)
    up, down = (x0, y0, x1, cut), (x0, cut, x1, y1)
    rooms = [(x0, y0 - half - PAD, x1, y0 - 1), (x0, y1 + 1, x1, y1 + half + PAD)]
    if any(r[1] < 0 or r[3] > state.h or state.busy[r[1] : r[3], r[0] : r[2]].any() for r in rooms):
        return Skip("skip: the legend's column has no room to grow by one row; not inserted")
    ink = [b for b, _ in swatches] + [s for _, (s, _) in swatches]
    ground = _ground(state.arr, (x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD), ink)
    style = _style_of(state, swatches[min(k, len(swatches) - 1)][0], rules)
    if ground is None or style is None:
        return Skip("skip: the legend stands on no one ground colour, or its type is not read; not inserted")
    saved, busy_before = state.arr.copy(), state.busy.copy()
    for (a0, b0, a1, b1), dy in ((up, -half), (down, half)):
        if b1 > b0:
            state.arr[b0:b1, a0:a1] = ground
    for (a0, b0, a1, b1), dy in ((up, -half), (down, half)):
        if b1 > b0:
            state.arr[b0 + dy : b1 + dy, a0:a1] = saved[b0:b1, a0:a1]
    b0, b1 = y0 - half - PAD, y1 + half + PAD
    state.busy[b0:b1, x0:x1] = busy_mask(state.arr[b0:b1, x0:x1], [])
    # the new row: one pitch above the entry after it (moved down), or below the one before it (moved up)
    sbox = swatches[min(k, len(swatches) - 1)][1][0]
    dy = (half - pitch) if k < len(swatches) else (-half + pitch)
    action = f"place (entry {k + 1} of the column legend, in its slice's order and colour; the others re-centred)"
    written = _write(state, exp.text, replace(style, baseline=style.baseline + dy), style.left, "left", action, {},
                     pen=True)  # fmt: skip
    if written is None:
        state.arr[:] = saved
        state.busy[:] = busy_before
        return Skip("skip: the legend's new row is taken; not inserted")
    new_swatch = _recoloured(saved, state.arr, sbox, int(round(dy)), colour, ground)
    info = written.info | {"swatch": list(colour), "moved": [[list(up), -half], [list(down), half]]}
    moved = [(up[0], up[1] - half, up[2], up[3] - half), (down[0], down[1] + half, down[2], down[3] + half)]
    return Written(action, written.box, [*written.boxes, new_swatch, *moved], info, written.lines, erased=(legend,))


def _recoloured(src: np.ndarray, dst: np.ndarray, sbox: Box, dy: int, colour, ground) -> Box:
    """Draw the swatch ``sbox`` of ``src`` (grown by 1 px, its antialiased edge) ``dy`` px lower
    in ``dst`` in ``colour``: its coverage (its distance from ``ground`` over its colour's) kept.
    Returns the box drawn."""
    x0, y0, x1, y1 = sbox[0] - 1, sbox[1] - 1, sbox[2] + 1, sbox[3] + 1
    crop = src[y0:y1, x0:x1].astype(np.float32)
    g = np.array(ground, np.float32)
    own = np.median(src[sbox[1] : sbox[3], sbox[0] : sbox[2]].reshape(-1, 3), axis=0).astype(np.float32)
    span = np.abs(own - g).max()
    alpha = np.clip(np.abs(crop - g).max(2) / max(span, 1.0), 0, 1)[..., None]
    dst[y0 + dy : y1 + dy, x0:x1] = np.round(alpha * np.array(colour, np.float32) + (1 - alpha) * g).astype(np.uint8)
    return (x0, y0 + dy, x1, y1 + dy)
