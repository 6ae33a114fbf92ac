"""Strings asked of one card that stand in a grid of labels and values.

A KPI card holds a label and its value one under the other or side by side. A panel with no
borders between its label/value pairs (a boarding pass: Flight, Date, Boarding, Gate, Seat, Zone
over their values) is found as one card, so "the card 'Gate' showing '1'" finds both strings in
it although the "1" is the Zone's. When the strings share no column and no row, and other words
stand on the row of one of them (the other labels or values of the grid), which value belongs to
which label is left to a VLM (issue 31, the tenth tester's boarding pass: 4 false "yes" on dev).
"""

from __future__ import annotations

from rewards.text.ocr.text_match import Line, Match
from rewards.text.page.page_lines import Box, Element
from rewards.text.page.relations import _x_overlap, _y_overlap


def grid_apart(chosen: list[Match], cards: list[Element], lines: list[Line], canon: list[int]) -> str | None:
    """Why the strings ``chosen`` (one occurrence each, in one card of ``cards``) cannot be told to
    be one label/value pair, or None when they can (or when no card holds them all). ``canon``:
    ``page_lines.canonical_lines`` of ``lines`` (a card's words are on canonical lines).

    They can when every string shares a column (x overlap) or a row (y overlap) with another, or
    when no other word of the card stands on a string's row (a card with one label and one value
    set apart)."""
    if len(chosen) < 2:
        return None
    used = {(canon[li], wi) for m in chosen for li, wi in m.words}
    held = [c for c in cards if {li for li, _ in used} <= set(c.lines)]
    if not held:
        return None
    boxes = [m.box for m in chosen]
    paired = [
        any(_x_overlap(a, b) or _y_overlap(a, b) for j, b in enumerate(boxes) if j != i) for i, a in enumerate(boxes)
    ]
    if all(paired):
        return None
    for li in held[0].lines:
        for wi, word in enumerate(lines[li].words):
            if (li, wi) in used:
                continue
            for m, box in zip(chosen, boxes):
                if _y_overlap(word.box, box) and not _x_overlap(word.box, box):
                    return (
                        f"{m.text!r} stands in a grid of labels and values in the card, in no column or row of"
                        f" the other strings ({word.text!r} beside it): which value is whose needs a VLM"
                    )
    return None


def in_two_cards(passing: list[list], cards: list[Element]) -> str:
    """Why strings asked of one card are not shown by one: each string's occurrences (``passing``,
    per string: matches with a ``box``) lie in card frames (``Element.frame`` of ``cards``), and no
    frame holds an occurrence of every string; else "". A comparison slide's "Three year cost,
    option 2" and the "$806k" of option 1's panel were each "in a card" (a ninth tester's pages:
    a false "yes")."""
    frames = list(dict.fromkeys(e.frame for e in cards if e.frame is not None))
    inside = [[f for f in frames if any(_box_in(m.box, f) for m in occ)] for occ in passing]
    if not all(inside) or set.intersection(*(set(fs) for fs in inside)):
        return ""
    return "the strings asked of one card are read in different cards"


def _box_in(b: Box, f: Box) -> bool:
    return f[0] <= b[0] and f[1] <= b[1] and b[2] <= f[2] and b[3] <= f[3]
