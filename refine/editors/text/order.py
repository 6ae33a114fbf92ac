"""Ordering the strings to fix: which goes first, with a check's groups kept together.

Strings inside another one to fix come after it (written with it, not apart); then strings with
a near match to rewrite, closest first, so a good candidate is not taken by a weaker one; then
strings to place, the narrowest place first (a string asked in two places goes to the narrower
one, "bottom_center" before "bottom", so one placement satisfies both; a string free to go
anywhere does not take the room of one that must go in the top half); ties keep the checks'
order, so each of a check's strings goes under the one before. Last, a string to place moves
after the strings before it in its top-to-bottom group ("61.6" after its callout "Best AP50"),
so it goes next to them rather than ahead of them; a rewrite keeps its turn (the strings placed
next to it need it corrected first).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refine.editors.text.near_match import candidate
from refine.editors.text.placement import anchored, area, target_area
from refine.editors.text.state import EditState, Rules
from refine.editors.text.work import Sequences, Work
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Match, contains, normalize


@dataclass(frozen=True)
class Plan:
    """The strings of one edit in the order they are fixed, and what each needs to know of the others.

    Attributes:
        todo: (expectation, check id) in the order they are fixed.
        matches: each expectation's matches in the page's OCR lines, best first.
        inner_of: expectation -> the longer strings to fix that contain it ("380" of a paragraph).
        group_boxes: expectation -> boxes of its check-mates that are on the page (a near match
            among them is the string's own).
        sequences: the strings of each check in their order (``work.Sequences``).
        at_bottom: strings that go at the bottom of the page (``work.Work.at_bottom``).
        element_of: expectation -> the element its check names (``work.Work.elements``).
        element_boxes: expectation -> boxes of the page's elements of the role its check names,
            or None (``EditState.element_boxes``).
    """

    todo: list[tuple[TextExpectation, str]]
    matches: dict[TextExpectation, list[Match]]
    inner_of: dict[TextExpectation, list[TextExpectation]]
    group_boxes: dict[TextExpectation, list[tuple[int, int, int, int]]]
    sequences: Sequences
    at_bottom: set[TextExpectation]
    element_of: dict = field(default_factory=dict)
    element_boxes: dict = field(default_factory=dict)


def _groups_first(todo: list, placing: set, sequences: Sequences) -> None:
    """Move, in place, each string of ``todo`` to place (``placing``) after the strings before it
    in its check's top-to-bottom sequence that come later (at most ``len(todo)`` moves)."""
    for _ in range(len(todo)):
        at = {e: k for k, (e, _) in enumerate(todo)}
        late = next(
            (
                (k, max(at[o] for o in before))
                for k, (e, _) in enumerate(todo)
                if e in placing
                for before in [
                    [
                        o
                        for sq, arr_ in sequences.get(e, [])
                        if arr_ not in ("left_to_right", "row") and e in sq
                        for o in sq[: sq.index(e)]
                        if at.get(o, -1) > k
                    ]
                ]
                if before
            ),
            None,
        )
        if late is None:
            break
        k, after_k = late
        todo.insert(after_k, todo.pop(k))


def make_plan(
    todo: list[tuple[TextExpectation, str]],
    work: Work,
    matches: dict[TextExpectation, list[Match]],
    state: EditState,
    rules: Rules,
    element_boxes: dict | None = None,
) -> Plan:
    """The ``Plan`` of the strings ``todo`` (still missing, in the order of ``work.strings``),
    ordered as the module docstring says, before any write on ``state``."""
    w, h = state.w, state.h
    inner_of = {
        exp: [
            o
            for o, _ in todo
            if len(normalize(o.text)) > len(normalize(exp.text)) and contains(o.text, exp.text, rules.case_sensitive)
        ]
        for exp, _ in todo
    }
    inner = {exp for exp, outer in inner_of.items() if outer}
    rank = {ec: k for k, ec in enumerate(work.strings)}

    def order(ec):
        sim = matches[ec[0]][0].similarity if matches[ec[0]] else 0.0
        near = sim >= rules.min_similarity
        return (
            ec[0] in inner,
            not near,
            -sim if near else 0.0,
            area(target_area(ec[0], w, h)),
            not anchored(ec[0]),
            rank[ec],
        )

    todo = sorted(todo, key=order)
    boxes = element_boxes or {}
    found_box = {e: ms[0].box for e, ms in matches.items() if ms and ms[0].found}
    group_boxes = {
        e: [found_box[o] for sq, _ in work.sequences.get(e, []) for o in sq if o != e and o in found_box]
        for e, _ in todo
    }
    placing = {
        e
        for e, _ in todo
        if candidate(e, matches[e], state.protected, w, h, state.lines, rules, group_boxes[e], boxes.get(e)) is None
    }
    _groups_first(todo, placing, work.sequences)
    return Plan(todo, matches, inner_of, group_boxes, work.sequences, work.at_bottom, work.elements, boxes)
