"""A string missing from the card its check names, written where its sibling cards hold theirs.

A check such as "Does the "New leads" card show the change note "+21 since Q1"?" quotes a string
and the card's label (the expectation's anchor, relation "context"). When the string is read on
the page only outside that card (in another card: "+21 since Q1" under "$48.20"), it is missing
from the card (``off_card``: its matches there are dropped). A row of cards of one kind (the
page's cards, ``rewards.text.page.elements``, like in size within ``LIKE`` px) keeps each line at
one offset from its frame, so the string goes into the card at the offset the sibling card holds
it at: the sibling's line, the same string, is copied pixel for pixel (its face, size and colour as
the engine drew them; type matching picked a sans face for this 13 px serif), when that place is
empty card. The cards are never moved.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.cards import holding, named_card
from refine.editors.text.colours import box_colours
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word

LIKE = 4
"""Most difference (px) of width and of height between two cards of one kind."""
PAD = 2
"""Pixels around the line's box copied with it (its antialiased edges)."""
EMPTY = 12
"""Most difference (any channel) from the card's background of a pixel of the place copied to."""


def place_in_sibling_card(state: EditState, exp: TextExpectation, rules: Rules) -> Written | Skip | None:
    """Copy the line holding ``exp.text`` from a like card into the card its check names, at the
    same offset from the frame (module docstring): Written, a Skip when that place in the card is
    not empty card, None when no like sibling card holds the string."""
    cards = named_card(state, exp, rules)
    found = rules.found_line(exp.text, state.lines, state.w, state.h, last=False) if cards else None
    if cards is None or found is None:
        return None
    own, frames = cards
    sibling = holding(frames, found[0])
    if sibling is None or sibling == own:
        return None
    sizes = [(b[2] - b[0], b[3] - b[1]) for b in (sibling, own)]
    if abs(sizes[0][0] - sizes[1][0]) > LIKE or abs(sizes[0][1] - sizes[1][1]) > LIKE:
        return None  # cards of another kind: their lines need not sit alike
    arr, (x0, y0, x1, y1) = state.arr, found[0]
    _, bg = box_colours(arr, found[0])
    x0, y0, x1, y1 = x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD
    dx, dy = own[0] - sibling[0], own[1] - sibling[1]
    dest = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    inside = own[0] < dest[0] and own[1] < dest[1] and dest[2] < own[2] and dest[3] < own[3]
    empty = inside and (np.abs(arr[dest[1] : dest[3], dest[0] : dest[2]].astype(np.int16) - bg).max() <= EMPTY)
    if not empty or state.busy[dest[1] : dest[3], dest[0] : dest[2]].any():
        return Skip("skip: the place its sibling cards keep the string at is taken in its card; not written")
    arr[dest[1] : dest[3], dest[0] : dest[2]] = arr[y0:y1, x0:x1]
    row = Line(tuple(Word(t, dest) for t in exp.text.split()))
    info = {"copied_from": [x0, y0, x1, y1]}
    return Written(f"place (in its card, as in the card of {found[1][:40]!r})", dest, [dest, dest], info, (row,))
