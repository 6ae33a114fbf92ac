"""Collecting the work: which failed checks become which strings to write.

Every text expectation of a failed check is one string to fix, once (the first check naming it
gives its id). A string over ``max_chars`` characters is refused with a one-line "fail:" action,
and so is every string after the first ``max_strings`` of one edit (a check quoting 3000 strings
kept the editor on one item for minutes: its planning compares every string with every other).
A string the page's OCR finds is done; so is a long one that wraps over more lines than the
judge joins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from refine.editors.text.outcomes import Skip
from refine.editors.text.place_nav_item import nav_place
from refine.editors.text.state import Rules
from refine.editors.text.tick_label import tick_place
from refine.interfaces import Failure
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, normalize

FOOT_WORDS = re.compile(r"\b(foot-?notes?|footers?|source (?:note|line))\b", re.IGNORECASE)
"""Words of a check that place its string at the bottom of the page when the check names no
place (the editor's choice only: the judge does not ask for it)."""
LONG_LINES = 16
MAX_STRINGS = 200
"""Default of ``max_strings``: most distinct strings one edit works on (a real page's failed
checks quote a few dozen; the editor's planning time grows with the square of the count)."""
"""Lines a long expected string (> 40 characters) may wrap over when the editor looks for it."""

Sequences = dict[TextExpectation, list[tuple[tuple[TextExpectation, ...], str]]]
"""Expectation -> (all strings of a check, in their order; the check's arrangement) for every
check of several strings that holds it: a missing string goes next to its neighbours."""


@dataclass
class Work:
    """The strings an edit is asked to fix.

    Attributes:
        strings: (expectation, check id) of every string to work on, in the checks' order.
        refused: (expectation, check id, "fail:" Skip) of the strings over ``max_chars``, and of
            the strings after the first ``max_strings``.
        sequences: the strings of each check in their order (``Sequences``).
        at_bottom: strings a footnote or a footer check asks for without naming a place: they go
            at the bottom, lowest first (in the bottom region if named).
        value_of: expectation -> the tick label (string) of the bar whose value label its check
            asks for (``bar_value``), for the ``place_at_bar`` job.
        tick_of: expectation -> (ordinal, "left" or "right") of the x-axis tick label its
            one-string check names (``tick_label.tick_place``).
        nav_of: expectation -> the ordinal (from the left) of the navigation menu link its
            one-string check names (``place_nav_item.nav_place``).
        wedge_of: expectation -> the label of the pie or donut slice whose value its check asks
            for (``slice_value``), for the ``place_in_wedge`` job.
        series_of: expectation (in ``value_of``) -> the series of its bar, when the check names
            a grouped bar ("the value label above the "2024" bar in the "Wind" group": the
            group "Wind" in ``value_of``, the series "2024" here; ``GROUPED_BAR``).
        elements: expectation -> the element its check names (``check.spec.text.element``, a
            ``rewards.text.questions.question_compiler.ElementSpec``; the first check's), when it names one.
    """

    strings: list[tuple[TextExpectation, str]] = field(default_factory=list)
    refused: list[tuple[TextExpectation, str, Skip]] = field(default_factory=list)
    sequences: Sequences = field(default_factory=dict)
    at_bottom: set[TextExpectation] = field(default_factory=set)
    elements: dict = field(default_factory=dict)
    value_of: dict = field(default_factory=dict)
    tick_of: dict = field(default_factory=dict)
    nav_of: dict = field(default_factory=dict)
    wedge_of: dict = field(default_factory=dict)
    series_of: dict = field(default_factory=dict)


GROUPED_BAR = re.compile(r"""['"]([^'"]+)['"] bar in the ['"]([^'"]+)['"] group""", re.IGNORECASE)
"""A grouped bar's value label check: the series (1) and the group (2) it quotes."""
VALUE_LABEL = re.compile(r"\bvalue label\b.*\bbar\b|\bbar\b.*\bvalue label\b", re.IGNORECASE)
"""A check about a bar's value label ("the value label at the end of the "Juice" bar")."""
SLICE_VALUE = re.compile(r"\b(slices?|wedges?|segments?)\b", re.IGNORECASE)
"""A check about a pie or donut slice ("Is the "Research" slice labeled with "31%"?")."""
NUMBER = re.compile(r"^[$€£]?[+-]?[0-9][0-9.,]*[%kKmMbB]?$")
NAMED_BAR = re.compile(r"""\bthe ['"]([^'"]+)['"] bar\b""", re.IGNORECASE)
"""The bar a value label check names by its category ("above the "Online" bar")."""


def bar_value(check) -> tuple[TextExpectation, str] | None:
    """(the value's expectation, the bar's tick label) of a check that asks for the value label
    of one bar: it quotes two strings, its category and a number ("at the end of the "Juice" bar
    "35"": both compiled as strings), or one number whose bar the question names once and no
    group ("above the "Online" bar "26"": the category compiled as the number's anchor,
    ``NAMED_BAR``); else None."""
    if not VALUE_LABEL.search(check.question):
        return None
    if len(check.expects) == 1:
        bars = NAMED_BAR.findall(check.question)
        value = check.expects[0]
        if len(bars) != 1 or GROUPED_BAR.search(check.question) or not NUMBER.match(value.text.strip()):
            return None
        return value, bars[0]
    if len(check.expects) != 2:
        return None
    a, b = check.expects
    numbers = [e for e in (a, b) if NUMBER.match(e.text.strip())]
    if len(numbers) != 1:
        return None
    value = numbers[0]
    return value, (b if value is a else a).text


def slice_value(check) -> tuple[TextExpectation, str] | None:
    """(the value's expectation, the slice's label) of a check that asks for a pie or donut
    slice's value ('Is the "Wind" slice labeled with the percentage "23%"?'): two strings, one a
    number; else None."""
    if len(check.expects) != 2 or not SLICE_VALUE.search(check.question):
        return None
    numbers = [e for e in check.expects if NUMBER.match(e.text.strip())]
    if len(numbers) != 1:
        return None
    a, b = check.expects
    return numbers[0], (b if numbers[0] is a else a).text


def collect_work(failures: Sequence[Failure], max_chars: int, max_strings: int = MAX_STRINGS) -> Work:
    """The ``Work`` of ``failures`` ((check, verdict) pairs; checks without expectations add
    nothing). Blank strings (nothing left once normalized) are dropped. The first ``max_strings``
    strings within ``max_chars``, in the checks' order, are worked on; the rest are refused, and
    the checks' sequences keep only the strings worked on."""
    work = Work()
    expects: dict[TextExpectation, str] = {}  # each string once, with its first check's id, in order
    for check, _verdict in failures:
        text_spec = getattr(check.spec, "text", None)
        element = getattr(text_spec, "element", None)
        at_foot = FOOT_WORDS.search(check.question) is not None
        sequence = (tuple(check.expects), getattr(text_spec, "arrangement", "all"))
        value = bar_value(check)
        tick = tick_place(check.question) if len(check.expects) == 1 else None
        if tick is not None:
            work.tick_of.setdefault(check.expects[0], tick)
        if len(check.expects) == 1 and (nav := nav_place(check.question)) is not None:
            work.nav_of.setdefault(check.expects[0], nav)
        if value is not None:
            work.value_of.setdefault(value[0], value[1])
            grouped = GROUPED_BAR.search(check.question)
            if grouped is not None and grouped.group(2) == value[1]:
                work.series_of.setdefault(value[0], grouped.group(1))
        if (wedge := slice_value(check)) is not None:
            work.wedge_of.setdefault(wedge[0], wedge[1])
        # a slice's value stands inside its wedge, not after the slice's name: no neighbour slot
        in_wedge = SLICE_VALUE.search(check.question) is not None and any(NUMBER.match(e.text) for e in check.expects)
        for exp in check.expects:
            expects.setdefault(exp, check.id)
            if element is not None:
                work.elements.setdefault(exp, element)
            if (exp.region or "bottom").startswith("bottom") and exp.anchor is None and at_foot:
                work.at_bottom.add(exp)
            if len(check.expects) > 1 and not in_wedge:
                work.sequences.setdefault(exp, []).append(sequence)
    over = Skip(f"fail: over max_strings={max_strings} strings in one edit (the first {max_strings} are edited)")
    n_over = 0
    for exp, cid in expects.items():
        if len(exp.text) > max_chars:
            reason = f"fail: expected string of {len(exp.text)} characters is over max_chars={max_chars}"
            work.refused.append((exp, cid, Skip(reason)))
        elif not normalize(exp.text):
            continue
        elif len(work.strings) < max_strings:
            work.strings.append((exp, cid))
        else:
            work.refused.append((exp, cid, over))
            n_over += 1
    if n_over:  # a string's neighbours are then only the strings worked on
        kept = {exp for exp, _ in work.strings}
        cut: dict[int, tuple] = {}  # id of a check's sequence (one tuple per check) -> its strings worked on
        for exp in kept:
            for sq, _ in work.sequences.get(exp, []):
                if id(sq) not in cut:
                    cut[id(sq)] = tuple(o for o in sq if o in kept)
        work.sequences = {
            exp: [(cut[id(sq)], arrangement) for sq, arrangement in seqs if len(cut[id(sq)]) > 1]
            for exp, seqs in work.sequences.items()
            if exp in kept
        }
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
