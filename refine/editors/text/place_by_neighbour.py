"""Placing a missing string in the slot next to a string of the same check that is on the page.

For a check whose strings run down (lines, top to bottom, or just listed): directly below the
string before it, or directly above the one after it, at its pen position and at the
sequence's own line pitch (the distance between the neighbour and the string beyond it, when
both are in one column; else 1.3 em). For a check whose strings run left to right (a menu, a
table row): on the neighbour's baseline, after the string before it or before the one after it,
at the sequence's own gap (else 1.5 em); a table row's cell (arrangement "row") starts at the
nearest column edge instead. In the neighbour's type (face, size, colour), except under a number
badge: a string after a badge's label ("04") goes under the badge, at its left edge, in the
page's body type. A neighbour on a band is not used. The slot must also leave room below for
the group's strings still to come.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.erase import composite
from refine.editors.text.layout import Placed, wrap
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.page import body_type
from refine.editors.text.placement import anchored, column_edges, fill_box, inside, is_free, target_area
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle, match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word, union_box


class _Neighbour(NamedTuple):
    """The string written next to: its box (its line's, or its badge's), the type to write in,
    and whether the string beyond it may give the sequence's pitch or gap (not under a badge)."""

    box: tuple[int, int, int, int]
    style: TypeStyle
    beyond_ok: bool


class _Rows(NamedTuple):
    """The rows laid out in the slot: their texts, their coverage and boxes, and the width (px)
    the strings still to come under them wrap to (0 across a row: nothing goes under it)."""

    texts: list[str]
    placed: list[Placed]
    width: float


def _neighbour(arr, lines, found, under_ok: bool, text: str, page, rules: Rules) -> _Neighbour | Skip | None:
    """The neighbour line ``found`` (``Rules.found_line`` of ``text``) as a place to write by; a
    Skip when it sits on a fill that is not a number badge (``under_ok``: the string goes under
    it, where a badge counts), None when its type cannot be matched."""
    box, text_nb, wds = found
    ink, bg = box_colours(arr, box)
    if np.abs(np.asarray(bg, np.float64) - page).max() > 40:
        badge = fill_box(arr, box, bg) if under_ok else None
        if badge is None:
            return Skip(f"skip: its neighbour {text[:40]!r} sits on a badge or a band; not written loose elsewhere")
        # under a number badge ("04" on green, then its heading): in the page's body
        # type, at the badge's left edge, as if the badge were a line of text
        body = body_type(arr, lines, rules.faces).style
        return _Neighbour(
            badge, TypeStyle(body.face, body.size, float(badge[3]), float(badge[0]), body.ink, 0.0), False
        )
    # word by word, unless the words are a row just written (they share its box)
    words = [(wd.box, wd.text) for wd in wds] if len({wd.box for wd in wds}) == len(wds) else None
    style = match_type(arr, box, text_nb, ink, bg, rules.faces, words)
    return None if style is None else _Neighbour(box, style, True)


def _across(exp, nbr: _Neighbour, fnt, beyond, after: bool, arrangement: str, lines, text: str, w, h) -> _Rows | Skip:
    """``exp.text`` as one row on the neighbour's baseline, after it (``after``) or before it, at
    the gap to the string ``beyond`` it (0.3-4 em, else 1.5 em); a table cell at a column edge."""
    box, style = nbr.box, nbr.style
    gap = (beyond[0][0] - box[2] if after else box[0] - beyond[0][2]) if beyond else 0
    gap = gap if 0.3 * style.size <= gap <= 4 * style.size else round(1.5 * style.size)
    rows = [" ".join(exp.text.split())]
    alpha, (bx0, by0, bx1, _) = render_coverage(rows[0], fnt)
    x = box[2] + gap if after else box[0] - gap - (bx1 - bx0)
    if arrangement == "row":  # a table cell starts at a column edge, as the row's other cells
        cols = column_edges(lines, (0, 0, w, h))
        fits = (
            [e for e in cols if e >= box[2] + 0.5 * style.size]
            if after
            else [e for e in cols if e + (bx1 - bx0) <= box[0] - 0.5 * style.size]
        )
        if not fits:
            return Skip(
                f"skip: no column {'after' if after else 'before'} its neighbour {text[:40]!r} for the cell; "
                "not written loose elsewhere"
            )
        x = min(fits) if after else max(fits)
    ox, oy = int(round(x)), int(round(style.baseline + by0))
    return _Rows(rows, [(alpha, (ox, oy), (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0]))], 0.0)


def _down(exp, nbr: _Neighbour, fnt, beyond, after: bool, seq, j: int, k: int, lines, rules: Rules, w, h):
    """``exp.text`` wrapped to its column under the neighbour ``seq[j]`` (``after``) or above it,
    at the pitch between the neighbour and the string ``seq[k]`` beyond it when both are in one
    column (1.1 line heights to 4 em; else 1.3 em). A Skip when a word is wider than the column."""
    box, style = nbr.box, nbr.style
    # the pitch between the two strings' facing lines (a wrapped heading is not one line)
    near = rules.found_line(seq[j].text, lines, w, h, last=not after) if beyond else None
    far = rules.found_line(seq[k].text, lines, w, h, last=after) if beyond else None
    pitch = abs(near[0][1] - far[0][1]) if near and far and abs(far[0][0] - box[0]) <= 4 else round(1.3 * style.size)
    if pitch < 1.1 * (box[3] - box[1]) or pitch > 4 * style.size:
        pitch = round(1.3 * style.size)
    edges = [e for e in column_edges(lines, (0, 0, w, h)) if e > box[0] + 4 * style.size]
    right = min(edges + [w]) - max(8, round(0.8 * style.size))
    rows = wrap(exp.text, fnt, right - box[0], 0.0)
    if max(fnt.getlength(r) for r in rows) > right - box[0]:
        return Skip(f"skip: no room beside its neighbour {seq[j].text[:40]!r}; not written loose elsewhere")
    first = style.baseline + pitch if after else style.baseline - pitch * len(rows)
    placed = []
    for r, row in enumerate(rows):
        alpha, (bx0, by0, _, _) = render_coverage(row, fnt)
        ox, oy = int(round(style.left + bx0)), int(round(first + r * pitch + by0))
        placed.append((alpha, (ox, oy), (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0])))
    return _Rows(rows, placed, right - box[0])


def _slot(arr, busy, lines, page, exp, seq, arrangement: str, after: bool, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` after (``after``) or before its neighbour in the sequence ``seq`` of
    its check: Written, a Skip saying why the slot cannot take it, or None when that neighbour
    is not on the page (or its type cannot be matched)."""
    h, w = arr.shape[:2]
    i = seq.index(exp)
    j, k = (i - 1, i - 2) if after else (i + 1, i + 2)
    if not 0 <= j < len(seq):
        return None
    found = rules.found_line(seq[j].text, lines, w, h, last=after)
    if found is None:
        return None
    across = arrangement in ("left_to_right", "row")
    match _neighbour(arr, lines, found, after and not across, seq[j].text, page, rules):
        case Skip() as skip:
            return skip
        case None:
            return None
        case _Neighbour(box, style, beyond_ok) as nbr:
            pass
    fnt = style.face.font(style.size)
    beyond = rules.found_line(seq[k].text, lines, w, h, last=not after) if 0 <= k < len(seq) and beyond_ok else None
    if across:
        laid = _across(exp, nbr, fnt, beyond, after, arrangement, lines, seq[j].text, w, h)
    else:
        laid = _down(exp, nbr, fnt, beyond, after, seq, j, k, lines, rules, w, h)
    match laid:
        case Skip() as skip:
            return skip
        case _Rows(rows, placed, width):
            pass
    u = union_box(b for _, _, b in placed)
    mh, mv = max(4, round(0.5 * style.size)), max(2, round(0.15 * style.size))
    area = target_area(exp, w, h)
    # room below for the strings of the group still to come (a heading's sentence)
    rest = [
        r
        for o in seq[i + 1 :]
        if not across and after and rules.found_line(o.text, lines, w, h, last=True) is None
        for r in wrap(o.text, fnt, width, 0.0)
    ]
    need = (u[0] - mh, u[1] - mv, u[2] + mh, u[3] + mv + len(rest) * round(1.3 * style.size))
    if not is_free(busy, need) or (inside(box, area) and not inside(u, area)):
        return Skip(
            f"skip: the slot {'after' if after else 'before'} its neighbour {seq[j].text[:40]!r} "
            "is taken or outside its place; not written loose elsewhere"
        )
    for alpha, origin, _ in placed:
        composite(arr, alpha, origin, style.ink)
    face = style.face
    info = {
        "family": face.family,
        "bold": face.bold,
        "italic": face.italic,
        "size": style.size,
        "align": "left",
        "lines": len(rows),
        "next_to": seq[j].text[:40],
    }
    boxes = [u] + [b for _, _, b in placed]
    # a neighbour for the strings after it: one line per row written
    rows_lines = tuple(Line(tuple(Word(t, b) for t in row.split())) for row, b in zip(rows, boxes[1:]))
    return Written(f"place (next to {info['next_to']!r})", u, boxes, info, rows_lines)


def place_by_neighbour(state: EditState, exp: TextExpectation, sequences, rules: Rules) -> Written | Skip | None:
    """Typeset ``exp.text`` in the slot next to a string of the same check that is on the page
    (module docstring), on the page's free pixels (not busy, not a fill).

    Args:
        state: the edit; its page lines and the rows written so far are the neighbours.
        exp: the string to place.
        sequences: ``(strings of a check, arrangement)`` of every check of ``exp`` with several
            strings.
        rules: the editor's rules.

    Returns:
        Written; a Skip when a neighbour is on the page but its slot is not free (a margin of
        half an em each side, 0.15 em above and below), leaves the check's place while the
        neighbour is in it, or the neighbour is on a fill, and when only strings farther along
        its check are on the page (the editor then writes it loose only in a place its check
        names: elsewhere it would break its group); None when no string of its checks is on the
        page, or the string is placed by an anchor.
    """
    if anchored(exp):
        return None
    arr, busy, lines = state.arr, state.busy | state.fills, state.lines + state.placed_lines
    reason = None
    page = page_background(arr)
    for seq, arrangement in sequences:
        i = seq.index(exp) if exp in seq else -1
        for after in (True, False):
            if i < 0:
                continue
            match _slot(arr, busy, lines, page, exp, seq, arrangement, after, rules):
                case Written() as written:
                    return written
                case Skip(why):
                    reason = reason or why
        if reason is None and i >= 0:
            on_page = next(
                (o.text for o in seq if o != exp and rules.found_line(o.text, lines, state.w, state.h, last=True)),
                None,
            )
            if on_page is not None:
                reason = (
                    f"skip: its group is on the page ({on_page[:40]!r}) but not the strings next to it; "
                    "not written loose elsewhere"
                )
    return Skip(reason) if reason is not None else None
