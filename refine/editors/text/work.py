"""Collecting the work: which failed checks become which strings to write.

Every text expectation of a failed check is one string to fix, once (the first check naming it
gives its id). A string over ``max_chars`` characters is refused with a one-line "fail:" action.
A string the page's OCR finds is done; so is a long one that wraps over more lines than the
judge joins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from refine.editors.text.outcomes import Skip
from refine.editors.text.state import Rules
from refine.interfaces import Failure
from rewards.rubric import TextExpectation
from rewards.text.text_match import Line, Match, normalize

FOOT_WORDS = re.compile(r"\b(foot-?notes?|footers?)\b", re.IGNORECASE)
"""Words of a check that place its string at the bottom of the page when the check names no
place (the editor's choice only: the judge does not ask for it)."""
LONG_LINES = 16
"""Lines a long expected string (> 40 characters) may wrap over when the editor looks for it."""

Sequences = dict[TextExpectation, list[tuple[tuple[TextExpectation, ...], str]]]
"""Expectation -> (all strings of a check, in their order; the check's arrangement) for every
check of several strings that holds it: a missing string goes next to its neighbours."""


@dataclass
class Work:
    """The strings an edit is asked to fix.

    Attributes:
        strings: (expectation, check id) of every string to work on, in the checks' order.
        refused: (expectation, check id, "fail:" Skip) of the strings over ``max_chars``.
        sequences: the strings of each check in their order (``Sequences``).
        at_bottom: strings a footnote or a footer check asks for without naming a place: they go
            at the bottom, lowest first (in the bottom region if named).
        elements: expectation -> the element its check names (``check.spec.text.element``, a
            ``rewards.text.question_compiler.ElementSpec``; the first check's), when it names one.
    """

    strings: list[tuple[TextExpectation, str]] = field(default_factory=list)
    refused: list[tuple[TextExpectation, str, Skip]] = field(default_factory=list)
    sequences: Sequences = field(default_factory=dict)
    at_bottom: set[TextExpectation] = field(default_factory=set)
    elements: dict = field(default_factory=dict)


def collect_work(failures: Sequence[Failure], max_chars: int) -> Work:
    """The ``Work`` of ``failures`` ((check, verdict) pairs; checks without expectations add
    nothing). Blank strings (nothing left once normalized) are dropped."""
    work = Work()
    expects: list[tuple[TextExpectation, str]] = []
    for check, _verdict in failures:
        for exp in check.expects:
            if all(exp != e for e, _ in expects):
                expects.append((exp, check.id))
            element = getattr(getattr(check.spec, "text", None), "element", None)
            if element is not None:
                work.elements.setdefault(exp, element)
            if (
                (exp.region or "bottom").startswith("bottom")
                and exp.anchor is None
                and FOOT_WORDS.search(check.question)
            ):
                work.at_bottom.add(exp)
            if len(check.expects) > 1:
                arrangement = getattr(getattr(check.spec, "text", None), "arrangement", "all")
                work.sequences.setdefault(exp, []).append((tuple(check.expects), arrangement))
    for exp, cid in expects:
        if len(exp.text) > max_chars:
            reason = f"fail: expected string of {len(exp.text)} characters is over max_chars={max_chars}"
            work.refused.append((exp, cid, Skip(reason)))
        elif normalize(exp.text):
            work.strings.append((exp, cid))
    return work


def still_missing(
    strings: list[tuple[TextExpectation, str]],
    lines: list[Line],
    matches: dict[TextExpectation, list[Match]],
    rules: Rules,
    w: int,
    h: int,
):
    """The strings the page does not hold yet.

    Args:
        strings: (expectation, check id) to fix.
        lines: the page's OCR lines (a w x h page).
        matches: each expectation's matches in ``lines`` (``Rules.matches``), best first.
        rules: the editor's rules.

    Returns:
        (to do, matches, skips): the (expectation, check id) without an exact match; the matches
        with a long string's replaced by its matches over ``LONG_LINES`` lines when they are
        closer (a copy); and (expectation, check id, Skip) of the long strings found over more
        lines than the judge joins, which are on the page all the same.
    """
    matches = dict(matches)
    todo = [(exp, cid) for exp, cid in strings if not (matches[exp] and matches[exp][0].found)]
    skips = []
    for exp, cid in list(todo):
        long = rules.matches(exp, lines, w, h, LONG_LINES) if len(exp.text) > 40 else []
        if long and long[0].found:
            n = len({li for li, _ in long[0].words})
            reason = (
                f"skip: already on the page (judge missed it: it wraps over {n} lines, "
                f"the judge joins at most max_lines={rules.max_lines})"
            )
            skips.append((exp, cid, Skip(reason, long[0].box, long[0].text)))
            todo.remove((exp, cid))
        elif long and long[0].similarity > (matches[exp][0].similarity if matches[exp] else 0.0):
            matches[exp] = long
    return todo, matches, skips
