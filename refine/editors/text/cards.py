"""The card a check names by its label, and the matches of its string outside that card.

A check such as "Does the "New leads" card show the change note "+21 since Q1"?" quotes a string
and the card's label (the expectation's anchor, relation "context"). A string read only in
another card (its sibling "Avg. order value" shows "+21 since Q1") is missing from this one:
``off_card`` drops its matches outside the card, so no rewrite takes the sibling's line and no
"already on the page" stops it (``place_in_sibling_card`` writes it).
"""

from __future__ import annotations

from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Match
from rewards.text.questions.question_compiler import ElementSpec

Box = tuple[int, int, int, int]
CARD = ElementSpec("card", whole=False, phrase="card")


def holding(boxes: list[Box], box) -> Box | None:
    """The one of ``boxes`` that holds the centre of ``box``, or None."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return next((b for b in boxes if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]), None)


def named_card(state: EditState, exp: TextExpectation, rules: Rules) -> tuple[Box, list[Box]] | None:
    """(the frame of the card ``exp``'s anchor names, the page's card frames), or None when the
    check names no card by its label or the label is in none."""
    if exp.relation != "context" or not exp.anchor:
        return None
    frames = state.element_boxes(CARD) or []
    label = rules.found_line(exp.anchor, state.lines, state.w, state.h, last=False)
    own = holding(frames, label[0]) if label is not None else None
    return (own, frames) if own is not None else None


def off_card(state: EditState, exp: TextExpectation, matches: list[Match], rules: Rules) -> list[Match]:
    """``matches`` without those outside the card ``exp``'s check names, when an exact one lies
    outside it (module docstring: a sibling card's own line, and its parts, are neither this
    card's string nor a version of it to rewrite); as they are otherwise."""
    cards = named_card(state, exp, rules) if any(m.found for m in matches) else None
    if cards is None or not any(m.found and holding([cards[0]], m.box) is None for m in matches):
        return matches
    return [m for m in matches if holding([cards[0]], m.box) is not None]
