"""A numbered series of labels ("Q1 2026", "Q2 2026", "Q3 2026"): its members are siblings of a
string that differs from them in one number, not versions of it (``near_match._versions``)."""

from __future__ import annotations

import re
import unicodedata

from rewards.text.ocr.text_match import LOOKALIKES, normalize


def folded_words(text: str) -> list[str]:
    """``text``'s words after NFKC, look-alikes folded in words that hold a digit."""
    text = unicodedata.normalize("NFKC", text)
    return [w.translate(LOOKALIKES) if any(c in "0123456789" for c in w) else w for w in text.split()]


def numbers(text: str) -> list[str]:
    """The numbers of ``text`` as ASCII digit strings (NFKC: "km²" holds a 2), look-alikes folded
    in words that hold a digit ("2O25" -> "2025")."""
    return [run for w in folded_words(text) for run in re.findall(r"[0-9]+", w)]


def only_numbers_differ(seen: str, target: str) -> bool:
    """True when ``seen`` and ``target`` differ, and only in their numbers: the same text once
    the digits are taken out ("segment 18" / "segment 8"; not "km?" / "km²", an OCR slip)."""
    a, b = (re.sub(r"[0-9]+", "#", " ".join(folded_words(t))) for t in (seen, target))
    return a == b and numbers(seen) != numbers(target)


SERIES = 3
"""Least number of near matches differing from a string in one number only, all in one row or
column, that make a numbered series ("Q1 2026", "Q2 2026", "Q3 2026"; ``_series_siblings``)."""


def _series_number(seen: str, target: str) -> tuple[int, int] | None:
    """(index, value) of the one number of ``seen`` that differs from ``target``'s, when ``seen``
    differs from ``target`` in that number only (the same count of numbers, one at the same index),
    else None. A word of ``seen`` is read with look-alikes folded where ``target``'s word holds a
    digit ("Ql 2026" is "Q1 2026")."""
    have, want = seen.split(), target.split()
    if len(have) == len(want):
        seen = " ".join(h.translate(LOOKALIKES) if any(c.isdigit() for c in w) else h for h, w in zip(have, want))
    if not only_numbers_differ(seen, target):
        return None
    have, want = numbers(seen), numbers(target)
    diff = [i for i, (a, b) in enumerate(zip(have, want)) if a != b]
    return (diff[0], int(have[diff[0]])) if len(have) == len(want) and len(diff) == 1 else None


def _reading_order(boxes: list) -> list[int] | None:
    """Indices of ``boxes`` left to right when they share a row, top to bottom when they share a
    column (left edges within 4 px); None when they do neither."""
    mids = [(b[1] + b[3]) / 2 for b in boxes]
    height = max(b[3] - b[1] for b in boxes)
    if max(mids) - min(mids) <= 0.5 * height:
        return sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    if max(b[0] for b in boxes) - min(b[0] for b in boxes) <= 4:
        return sorted(range(len(boxes)), key=lambda i: boxes[i][1])
    return None


def _arithmetic(values: list[int]) -> bool:
    """True when ``values`` step by one nonzero constant (1, 2, 3, 4; 2020, 2022, 2024)."""
    steps = {b - a for a, b in zip(values, values[1:])}
    return len(steps) == 1 and steps != {0}


def series_siblings(versions: list, target: str) -> list:
    """``versions`` less the siblings of a numbered series: when at least ``SERIES`` of them differ
    from ``target`` in the same one number and stand in one row or column, they are the series'
    other members ("Q1 2026" .. "Q3 2026" for a missing "Q4 2026"), never its misspelling, unless
    putting ``target``'s number in one of them makes the series step evenly in reading order
    ("Q5 2026" between "Q2 2026" and "Q4 2026" for "Q3 2026"): that one is kept, the rest dropped.
    When two of them could be the wrong one, ``versions`` stay as they are."""
    index = {id(m): _series_number(normalize(m.text, case_sensitive=False), target) for m, _ in versions}
    series = [(m, v) for m, v in versions if index[id(m)] is not None]
    if len(series) < SERIES or len({index[id(m)][0] for m, _ in series}) != 1:
        return versions
    order = _reading_order([m.box for m, _ in series])
    if order is None:
        return versions
    want = int(numbers(target)[index[id(series[0][0])][0]])
    values = [index[id(series[k][0])][1] for k in order]
    wrong = [order[j] for j in range(len(order)) if _arithmetic(values[:j] + [want] + values[j + 1 :])]
    if len(wrong) > 1:
        return versions  # 1, 2, 5 for 3: "5" or "2" may be the wrong one; as any version, placed or not
    keep = {id(series[wrong[0]][0])} if wrong else set()
    return [(m, v) for m, v in versions if index[id(m)] is None or id(m) in keep]
