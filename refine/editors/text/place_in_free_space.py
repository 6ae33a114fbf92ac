"""Placing a missing string in body type in a free rectangle of its place.

Left-aligned to a column edge, a single line on the baseline of a line already in the place when
that row is free there, else topmost (a footer: lowest). The place is where the judge looks: a
block may run past its region's top or bottom edge as long as its centre stays in the region
(``text_match.in_region``), so a paragraph asked "at the top" starts under the subtitle even
when the top half cannot hold all of it. A group of a check none of whose strings is on the page
is given room for all of it (``missing_group``): its first string is written in a rectangle that
also holds the others stacked under it.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from refine.editors.text.colours import box_pixels, sits_on
from refine.editors.text.erase import composite
from refine.editors.text.layout import wrap
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.page import BodyType
from refine.editors.text.placement import column_edges, is_free, target_area, topmost_free
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word, find_matches, union_box

DESCENDERS = set("gjpqyQ,;()[]{}|/@$")
"""Characters whose ink goes below the baseline: a line holding one has no baseline at its box bottom."""


def missing_group(
    exp: TextExpectation, sequences, pending: set, written: list[str], lines: list[Line], w: int, h: int, rules: Rules
) -> list[str]:
    """The strings to reserve room for when ``exp`` is placed in free space: ``exp.text`` and,
    when it heads a top-to-bottom group of its check none of whose strings is on the page
    ("06", its heading and its sentence), the group's strings after it that are still to fix
    (``pending``), which then go under it one by one. Reserving the group's whole height keeps
    a number label from being written where its heading cannot follow it."""
    for seq, arrangement in sequences:
        if arrangement in ("left_to_right", "row") or exp not in seq or seq.index(exp) != 0:
            continue
        if any(o.text in written or rules.found_line(o.text, lines, w, h, last=True) for o in seq):
            continue
        return [exp.text] + [o.text for o in seq[1:] if o in pending]
    return [exp.text]


class _Frame(NamedTuple):
    """Where a string may be placed.

    Attributes:
        area: the box its text must lie in (its place; for a "directly" relation, reaching left
            to the margin before the anchor).
        inner: the place less the margin on the left and right.
        edges: left x of the columns to try, best first.
        margin: free pixels kept all round the text.
        anchor_box: the box of the check's anchor on the page, or None.
        directly: the check asks for it directly below or above its anchor.
        bottom_up: the lowest free rectangle first, not the topmost.
    """

    area: tuple[int, int, int, int]
    inner: tuple[int, int, int, int]
    edges: list[int]
    margin: int
    anchor_box: tuple[int, int, int, int] | None
    directly: bool
    bottom_up: bool


def _frame(arr: np.ndarray, lines: list[Line], exp: TextExpectation, style: TypeStyle, bottom_up: bool, rules: Rules):
    """The ``_Frame`` of ``exp``: its place, and the column edges of the text in it, then of the
    columns that run through it, then its margin (text on a badge or a band is inset in its fill
    and makes no column edge); under or over an anchor, the anchor's left edge first."""
    h, w = arr.shape[:2]
    anchor_box = None
    if getattr(exp, "anchor", None):
        ms = find_matches(exp.anchor, lines, w, h, None, rules.case_sensitive, rules.lenient, rules.max_lines)
        anchor_box = ms[0].box if ms and ms[0].found else None
    area = target_area(exp, w, h, anchor_box)
    margin = max(8, round(0.8 * style.size))
    inner = (area[0] + margin, area[1], area[2] - margin, area[3])
    page = page_background(arr)
    on_page = [ln for ln in lines if sits_on(arr, ln.box, page)]
    edges = [
        x
        for x in column_edges(on_page, area)
        + column_edges(on_page, (area[0], 0, area[2], h))
        + column_edges(lines, (area[0], 0, area[2], h))
        if inner[0] <= x < inner[2]
    ]
    edges = edges or [inner[0]]  # the margin only where no column runs through the place
    directly = anchor_box is not None and exp.relation in ("directly_below", "directly_above")
    if directly:  # the judge wants it overlapping the anchor and within 4 of its line heights
        edges = [anchor_box[0]] + [x for x in column_edges(on_page, (0, 0, w, h)) if anchor_box[0] < x < anchor_box[2]]
        bottom_up = exp.relation == "directly_above"
        area = (max(0, min(edges) - margin), area[1], area[2], area[3])  # the margin may reach left of the anchor
    return _Frame(area, inner, edges, margin, anchor_box, directly, bottom_up)


def _row_baselines(lines: list[Line], area) -> list[int]:
    """Baselines (box bottoms) of the lines whose middle is in ``area``, top to bottom; lines
    with descenders or brackets are skipped, their bottom is not the baseline."""
    return sorted(
        {
            ln.box[3]
            for ln in lines
            if area[1] <= (ln.box[1] + ln.box[3]) / 2 < area[3] and not any(c in DESCENDERS for c in ln.text)
        }
    )


def _top(busy: np.ndarray, frame: _Frame, exp: TextExpectation, x: int, tw: int, th: int, room: int, tops):
    """Top y of a free tw x th text box at ``x`` (with ``room`` px of height to keep free, and the
    margin all round): on one of the line tops ``tops`` when free there, else the topmost free
    rectangle (``bottom_up``: lowest) inside the place, else with the block's centre in it (half
    its height past the edges); under/over an anchor, within 4 of its line heights. None when
    there is none."""
    area, margin, h = frame.area, frame.margin, busy.shape[0]
    top = next(
        (
            t
            for t in tops
            if area[1] <= t - margin
            and t + th + margin <= area[3]
            and is_free(busy, (x - margin, t - margin, x + tw + margin, t + th + margin))
        ),
        None,
    )
    if top is not None:
        return top
    reach = (room + 2 * margin) // 2 if exp.region and frame.anchor_box is None else 0
    y = None
    for r in dict.fromkeys((0, reach)):
        search = (area[0], max(0, area[1] - r), area[2], min(h, area[3] + r))
        y = topmost_free(busy, x - margin, search, tw + 2 * margin, room + 2 * margin, from_bottom=frame.bottom_up)
        if y is not None:
            break
    if y is None:
        return None
    top = y + margin
    if frame.directly:
        ab = frame.anchor_box
        if (top - ab[3] if exp.relation == "directly_below" else ab[1] - (top + th)) > 4 * (ab[3] - ab[1]):
            return None
    return top


def _luminance(c) -> float:
    """ITU-R BT.601 luminance of an RGB colour."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _typeset(arr: np.ndarray, rows: list[str], fnt, style: TypeStyle, x, top, tw, th, pitch) -> list:
    """Draw ``rows`` at ink left ``x`` from ``top`` at ``pitch``, in the body ink, or near-black /
    near-white when that is within 100 of the luminance of the background there; their boxes."""
    ascent = fnt.getmetrics()[0]
    bg = tuple(int(v) for v in np.median(box_pixels(arr, (x, top, x + tw, top + th), 0), axis=0))
    ink = (
        style.ink
        if abs(_luminance(style.ink) - _luminance(bg)) >= 100
        else ((25, 25, 25) if _luminance(bg) >= 128 else (250, 250, 250))
    )
    boxes = []
    for i, row in enumerate(rows):
        alpha, (bx0, by0, _, _) = render_coverage(row, fnt)
        ox, oy = int(round(x)), int(round(top + ascent + i * pitch + by0))
        composite(arr, alpha, (ox, oy), ink)
        boxes.append((ox, oy, ox + alpha.shape[1], oy + alpha.shape[0]))
    return boxes


def _no_room(exp: TextExpectation, group: Sequence[str], size: float, margin: int) -> Skip:
    """The Skip of a string (or group) no free rectangle of its place holds."""
    where = f"the {exp.region} region" if exp.region else "the page"
    what = (
        f"{len(exp.text)} characters"
        if len(group) < 2
        else f"its group of {len(group)} strings ({sum(map(len, group))} characters)"
    )
    return Skip(
        f"skip: no free space for {what} in {where} at body size {size:g} px (margin {margin} px)", no_room=True
    )


def place_in_free_space(
    state: EditState,
    exp: TextExpectation,
    body: BodyType,
    group: Sequence[str],
    rules: Rules,
    bottom_up: bool = False,
    anchor_only: bool = False,
) -> Written | Skip:
    """Typeset ``exp.text`` in the page's ``body`` type in a free rectangle of its place (module
    docstring), on the page's free pixels (not busy, not a fill).

    Args:
        state: the edit.
        exp: the string, with the place to put it in.
        body: the page's body type.
        group: ``missing_group``: the rectangle must also hold these strings stacked under
            ``exp.text`` at 1.3 em (only ``exp.text`` is written).
        rules: the editor's rules (``max_layout_trials``).
        bottom_up: the lowest free rectangle instead of the topmost (a footer).
        anchor_only: only directly under or over the check's anchor on the page (the slot of the
            line after or before it); a Skip when the anchor is not on the page.

    Returns:
        Written "place" (or "place (first of its group of N)": loose text in free space; "place
        (directly below '...')" under its anchor, a slot); a Skip when no rectangle holds
        it, or a "fail: ..." Skip after ``max_layout_trials`` column widths.
    """
    arr, busy, lines = state.arr, state.busy | state.fills, state.lines
    h, w = arr.shape[:2]
    style, pitch = body.style, body.pitch
    fnt = style.face.font(style.size)
    frame = _frame(arr, lines, exp, style, bottom_up, rules)
    if anchor_only and not frame.directly:
        return Skip(f"skip: its anchor {exp.anchor!r} is not on the page; not written loose elsewhere")
    ascent, descent = fnt.getmetrics()
    trials = 0
    all_edges = column_edges(lines, (0, 0, w, h))
    row_baselines = _row_baselines(lines, frame.area)
    for x in dict.fromkeys(frame.edges):
        # the column runs to the next column's edge (less a gutter), within the place
        nxt = min([e for e in all_edges if e > x + 4 * style.size] + [w])
        right = min(frame.inner[2], nxt - frame.margin)
        if not right - x >= 4 * style.size:
            continue
        trials += 1
        if trials > rules.max_layout_trials:
            return Skip(f"fail: more than max_layout_trials={rules.max_layout_trials} layouts tried")
        rows = wrap(exp.text, fnt, right - x, 0.0)
        reserved = [r for t in group[1:] for r in wrap(t, fnt, right - x, 0.0)]
        tw = int(np.ceil(max(fnt.getlength(r) for r in rows + reserved)))
        if x + tw > frame.inner[2]:
            continue
        th = (len(rows) - 1) * pitch + ascent + descent
        room = th + len(reserved) * round(1.3 * style.size)  # the group's strings go under it at 1.3 em
        # on the baseline of a line already in the place (a label beside "01" sits on its row)
        tops = [b - ascent for b in row_baselines if len(rows) == 1 and not reserved][:: -1 if frame.bottom_up else 1]
        top = _top(busy, frame, exp, x, tw, th, room, tops)
        if top is None:
            continue
        boxes = _typeset(arr, rows, fnt, style, x, top, tw, th, pitch)
        info = {
            "family": style.face.family,
            "bold": style.face.bold,
            "italic": style.face.italic,
            "size": style.size,
            "align": "left",
            "lines": len(rows),
        }
        action = "place" if len(group) == 1 else f"place (first of its group of {len(group)})"
        if frame.directly:  # the slot of the line under (over) its anchor, not loose text
            action = f"place ({exp.relation.replace('_', ' ')} {exp.anchor[:40]!r})"
        # a neighbour for the strings after it: one line per row written
        rows_lines = tuple(Line(tuple(Word(t, b) for t in row.split())) for row, b in zip(rows, boxes))
        return Written(action, union_box(boxes), [union_box(boxes)] + boxes, info, rows_lines)
    return _no_room(exp, group, style.size, frame.margin)
