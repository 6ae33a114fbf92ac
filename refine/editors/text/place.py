"""Placing a string that is really missing: only into a slot the page offers, in this order of choice.

1. Into an empty badge of the place its check names, that its text fits (``place_in_badge``); a
   button's label into the one empty button bar beside like labelled buttons, grown to their
   height (``place_in_empty_button``).
2. Onto the row of the string before it in its check, in the column where the rows around keep
   their values (a menu's price: ``place_in_row_column``); into the card its check names, where
   its like sibling cards hold the string (``place_in_sibling_card``); else into the slot next to a string
   of the same check that is on the page (``place_by_neighbour``):
   the next item of a list or menu in the same column or row, the next cell of a table row.
3. Into the slot the element its check names leaves empty: the next item of the list under the
   check's heading, in its indent, pitch and bullet, or the row a bulleted list skips (its empty
   bullet) (``place_list_item``); the cell of a table's
   row and column, the next item of a list or menu (``place_in_element``).
   A legend entry goes after the last entry of a one-row legend, with its series' swatch
   (``place_legend_entry``), or right of the one handle a legend kept with no text beside it
   (``place_in_legend_row``).
4. A source line, footnote or footer its check puts at the bottom: at the page's foot
   (``place_at_foot``).
5. Directly under (or over) its check's anchor, when the anchor is on the page and the line
   there is free (``place_in_free_space`` held to the anchor).

Anything else is skipped with the reason logged: no loose text in title bands, headers or
margins (issue 17: strings crammed into a header between a logo and a menu). With
``Rules.free_space`` (off by default) a string no slot takes goes, as before, in the page's body
type in a free rectangle of the check's place, with room for its whole group when none of the
group is on the page; a footnote or footer whose check names no place goes in the bottom half.

It is not written when it is part of a longer missing string that was not written ("380" of a
missing paragraph), when the same string has a narrower place in another check that had no
room, or when its group's first string had no room.
"""

from __future__ import annotations

from dataclasses import replace

from refine.editors.text.insert_list_item import insert_list_item
from refine.editors.text.near_match import names_cell
from refine.editors.text.order import Plan
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_at_foot import place_at_foot
from refine.editors.text.place_by_neighbour import place_by_neighbour
from refine.editors.text.place_in_badge import place_in_badge
from refine.editors.text.place_in_element import place_in_element
from refine.editors.text.place_in_empty_button import place_in_empty_button
from refine.editors.text.place_in_free_space import missing_group, place_in_free_space
from refine.editors.text.place_in_legend_row import place_in_legend_row
from refine.editors.text.place_in_row_column import place_in_row_column
from refine.editors.text.place_in_sibling_card import place_in_sibling_card
from refine.editors.text.place_legend_entry import place_legend_entry
from refine.editors.text.place_list_item import gap_in_list, place_list_item
from refine.editors.text.placement import anchored, inside, target_area, where
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import normalize

BADGE_ROLES = ("button", "card")
"""Element roles (``rewards.text.questions.question_compiler.ELEMENT_ROLES``) whose string may go into an
empty badge when the check names no region: a button, badge or band, a card or tile."""


def _not_apart(state: EditState, plan: Plan, exp: TextExpectation, rules: Rules) -> Skip | None:
    """A Skip when ``exp`` is part of a longer string to fix that was not written, or has a
    narrower place in another check that had no room (it is not written loose elsewhere)."""
    parent = next((o for o in plan.inner_of.get(exp, ()) if o.text not in state.written), None)
    if parent is not None:  # "380" of a missing paragraph goes in with it, or not at all
        return Skip(f"skip: part of {parent.text[:40]!r}, which was not written; not written apart")
    narrower = next(
        (
            o
            for o in state.unplaced
            if normalize(o.text, rules.case_sensitive) == normalize(exp.text, rules.case_sensitive)
            and inside(target_area(o, state.w, state.h), target_area(exp, state.w, state.h))
        ),
        None,
    )
    if narrower is not None:  # "06" of "same row as '02'" is not written loose elsewhere
        return Skip(f"skip: its narrower place ({where(narrower)}) has no room; not written elsewhere")
    return None


def _other_entries_missing(state: EditState, plan: Plan, exp: TextExpectation) -> bool:
    """Whether another legend entry of this edit is missing too (no match on the page, not written)."""
    return any(
        o != exp and getattr(plan.element_of.get(o), "role", None) == "legend_entry" and not plan.matches.get(o)
        and o.text not in state.written
        for o, _ in plan.todo
    )  # fmt: skip


def place_missing(state: EditState, plan: Plan, exp: TextExpectation, rules: Rules) -> Written | Skip:
    """Place ``exp``'s string (module docstring): Written, or a Skip saying why not. A string
    whose place had no room is booked in ``state.unplaced``; when it heads a group, the group's
    other strings are booked in ``state.held`` (they are not written apart)."""
    outcome = _not_apart(state, plan, exp, rules)
    if outcome is not None:
        return outcome
    body = state.body_type(rules.faces)
    sequences = plan.sequences.get(exp, [])
    element = plan.element_of.get(exp)
    names_badge = exp.region is not None or getattr(element, "role", None) in BADGE_ROLES
    outcome = place_in_badge(state, exp, body, rules) if names_badge or rules.free_space else None
    if outcome is None and getattr(element, "role", None) == "button":
        outcome = place_in_empty_button(state, exp, rules)
    if outcome is None and exp.relation == "context":
        outcome = place_in_sibling_card(state, exp, rules)
    if outcome is None:
        outcome = place_in_row_column(state, exp, sequences, rules)
    if outcome is None and names_cell(element):  # "In the 'Free range eggs' row, ... the 'EUR' cell"
        outcome = place_in_element(state, exp, element, rules)
        if isinstance(outcome, Skip):  # not empty: its row's one value against the column's edge is the wrong one
            row_value = place_in_row_column(state, exp, [((TextExpectation(element.row), exp), None)], rules)
            outcome = row_value if isinstance(row_value, Written) else outcome
    if outcome is None:
        outcome = place_by_neighbour(state, exp, sequences, rules)
    if outcome is None and getattr(element, "role", None) == "legend_entry":
        outcome = place_legend_entry(state, exp, plan.element_boxes.get(exp), rules)
        if outcome is None:  # a row whose handle stayed with its text left out (a line series' "—●—")
            outcome = place_in_legend_row(state, exp, _other_entries_missing(state, plan, exp), rules)
    if outcome is None and getattr(element, "role", None) in ("list_item", "bullet"):
        # an empty row the list keeps for it; else the list closed up behind it (insert it, move the
        # items after it down); else one pitch under the last item
        outcome = gap_in_list(state, exp, element, rules) or insert_list_item(state, exp, element, rules)
        outcome = outcome or place_list_item(state, exp, element, rules)
    if outcome is None:
        outcome = place_in_element(state, exp, element, rules)
    if outcome is None and exp in plan.at_bottom and not rules.free_space:
        outcome = place_at_foot(state, exp, rules)
    if outcome is None and exp in state.held:
        outcome = Skip(f"skip: the first string of its group ({state.held[exp][:40]!r}) had no room; not written apart")
    group = [exp.text]
    under_anchor = anchored(exp) and exp.relation in ("directly_below", "directly_above")
    if outcome is None and not (rules.free_space or under_anchor):
        outcome = Skip(
            f"skip: missing, and the page offers no slot for it ({where(exp)}: no string of its list, row or "
            "table on the page, no empty badge in its place, no anchor to write under); not written loose"
        )
    if outcome is None:
        pending = {o for o, _ in plan.todo}
        group = missing_group(exp, sequences, pending, state.written, state.lines, state.w, state.h, rules)
        bottom = exp in plan.at_bottom
        place = replace(exp, region=exp.region or "bottom") if bottom else exp
        outcome = place_in_free_space(
            state, place, body, group, rules, bottom_up=bottom, anchor_only=not rules.free_space
        )
    match outcome:
        case Skip(no_room=no_room):
            state.unplaced.append(exp)
            if no_room and len(group) > 1:
                state.held.update({o: exp.text for s_, _ in sequences if s_ and s_[0] == exp for o in s_[1:]})
    return outcome
