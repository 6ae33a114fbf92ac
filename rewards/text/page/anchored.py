"""Anchors of a text spec, read and measured (rule 3 of :mod:`rewards.text.page.grounding`).

``read_anchors`` reads every anchor of a spec ("below 'Revenue'", "between 'A' and 'B'") with the
judge's exact matcher; ``anchored`` keeps the occurrences of a string that stand in every anchor's
relation, with "directly" reaching further down a stack of strings and "right of"/"left of"
optionally holding off the anchor's row. Boxes are ``(x0, y0, x1, y1)`` pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rewards.text.ocr.text_match import Line, Match, label_spellings
from rewards.text.page.page_lines import canonical_lines
from rewards.text.page.relations import (
    anchor_kind,
    beside_off_row,
    between,
    down_number_column,
    in_column,
    in_section,
    line_between,
    satisfies_relation,
)
from rewards.text.questions.question_compiler import TextSpec

Exact = Callable[[str], tuple[list[Match], Match | None]]
"""``exact(text) -> (exact occurrences of text, the best match or None)`` on the judged lines."""


@dataclass
class ReadAnchor:
    """One anchor of a spec as read: its record (``TextDecision.anchors``) and the exact
    occurrences of its text and, for "between", of its other text."""

    record: dict
    occ: list[Match]
    other: list[Match]


def _occurrences(exact: Exact, text: str) -> list[Match]:
    """The occurrences of anchor ``text`` read with ``exact``, in its first spelling read
    (``label_spellings``: as written, in capitals, its words run together)."""
    for variant in label_spellings(text):
        occ, _ = exact(variant)
        if occ:
            return occ
    return []


def label_exact(exact: Exact) -> Exact:
    """``exact`` for a label that places the string asked (a card's name, asked with its value:
    "Is the KPI card 'Cook' showing '45 min'?"): its occurrences in its first spelling read
    (``label_spellings``: a stat label set with CSS ``text-transform: uppercase`` reads "COOK", an
    eleventh tester's recipe card), else ``exact``'s answer as written."""

    def spelled(text: str) -> tuple[list[Match], Match | None]:
        occ = _occurrences(exact, text)
        return (occ, occ[0]) if occ else exact(text)

    return spelled


def read_anchors(spec: TextSpec, exact: Exact) -> list[ReadAnchor]:
    """Every anchor of ``spec``, read with ``exact`` (``_occurrences``)."""
    read = []
    for a in spec.anchors:
        occ = _occurrences(exact, a.text)
        other = _occurrences(exact, a.other) if a.relation == "between" and a.other else []
        record = {
            "text": a.text,
            "relation": a.relation,
            "found": bool(occ) and (a.relation != "between" or bool(other)),
            "boxes": [list(m.box) for m in occ],
        }
        if a.relation == "between":
            record |= {"other": a.other, "other_boxes": [list(m.box) for m in other]}
        read.append(ReadAnchor(record, occ, other))
    return read


STACK_STEP = 1.5
"""Line heights each string of a stack adds to the reach of "directly below" (``anchored``)."""


def anchored(
    kept: list[Match],
    anchors: list[ReadAnchor],
    locators: tuple[str, ...] = (),
    lines: list[Line] = (),
    alone: bool = True,
    stack: int = 1,
    off_row: bool = False,
    rgb=None,
) -> list[Match]:
    """The occurrences of ``kept`` that stand in every anchor's relation (rule 3); an occurrence
    never shares words with the anchor it stands to, except a context anchor ("the note with the
    year '2024'" may contain its anchor). "directly" below or above a string asked ``alone`` (the
    spec's only string) also needs no other line between them; the items of a list "directly under"
    a heading stand under one another. A locator of the anchor may narrow the relation
    (``anchor_kind``: the heading's section, the bar's column; a cell's column label is also
    reached down a column of numbers, ``down_number_column``). ``stack``: the strings asked
    stand one under another (``top_to_bottom``, ``lines``): "directly below" a card's name, the
    last of four stands further down, each string above it adding ``STACK_STEP`` line heights to
    the reach. ``off_row``: "right of" and "left of" also hold off the anchor's row
    (``beside_off_row``). ``rgb``: the image, for the type size of a line in a pill between a heading
    and its item (``in_section``). Empty as soon as one anchor keeps none."""
    for a in anchors:
        relation = a.record["relation"]
        kind = anchor_kind(a.record["text"], locators)
        if kind == "section":
            kept = [m for m in kept if any(in_section(m.box, o.box, lines, rgb) for o in a.occ)]
        elif kind == "column":
            kept = [m for m in kept if any(in_column(m.box, o.box) for o in a.occ)]
        lh = max([m.box[3] - m.box[1] for m in a.occ] or [1])
        if relation.startswith("directly"):  # reach: 4 line heights, and STACK_STEP per string above
            lh *= 1 + STACK_STEP / 4 * (stack - 1)
        canon = canonical_lines(lines) if alone and relation.startswith("directly") else []  # no line between
        if relation == "between":
            kept = [
                m
                for m in kept
                if any(
                    set(m.words).isdisjoint(o.words)
                    and set(m.words).isdisjoint(p.words)
                    and between(m.box, o.box, p.box)
                    for o in a.occ
                    for p in a.other
                )
            ]
        else:
            kept = [
                m
                for m in kept
                if any(
                    (relation == "context" or set(m.words).isdisjoint(o.words))
                    and (
                        satisfies_relation(m.box, o.box, relation, lh)
                        or (off_row and beside_off_row(m.box, o.box, relation))
                        or (kind == "cell" and relation == "context" and down_number_column(m.box, o.box, lines))
                    )
                    and not (canon and line_between(m.box, o.box, relation, lines, own_lines(canon, m, o)))
                    for o in a.occ
                )
            ]
        if not kept:
            break
    return kept


def own_lines(canon: list[int], *matches: Match) -> set[int]:
    """The indices of the lines ``matches`` stand on, with every other read of those lines (``canon``:
    ``canonical_lines``)."""
    on = {canon[li] for m in matches for li, _ in m.words}
    return {i for i, c in enumerate(canon) if c in on}
