"""Which OCR text is an expected string: the near match to rewrite, and text a judge would accept.

A near match is rewritten only when it is a misspelling of the string, not another label: not
a longer phrase holding it ("Female" for "Male"), not a word of running text, not a label that
differs only in its numbers unless the check points at it ("Segment 1" for "Segment 8").
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.outcomes import Rewrite, Skip
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import match_type
from rewards.rubric import TextExpectation
from rewards.text.text_match import Line, Match, in_region, normalize

LOOKALIKES = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1", "S": "5", "B": "8"})
"""Characters OCR and judges confuse, folded when deciding that a string read by the harder pass
is already on the page (case is kept when the judge is case-sensitive)."""
INSIDE_LINE_SIMILARITY = 0.85
"""Least similarity for rewriting a near match that is only part of its OCR line(s): running text
around it makes a chance resemblance likelier than a misspelt label."""
PARTIAL_SIMILARITY = 0.4
"""Least similarity of a near match that is the expected string with words missing
(``_words_in_order``: "Q3 Review" for "Q3 Revenue Review"), on a line of its own
(``_lone_line``); it is rewritten as the whole string (a string written beside it would repeat
its words). Lines of a paragraph are not taken: the last line "verdicts." of a subtitle is not
"Verdict: NEI", nor two lines of a paragraph the whole paragraph."""


def _fold(text: str, case_sensitive: bool) -> str:
    """``text`` normalized, look-alikes folded (``LOOKALIKES``)."""
    return normalize(text, case_sensitive).translate(LOOKALIKES)


def _folded_words(text: str) -> list[str]:
    """``text``'s words after NFKC, look-alikes folded in words that hold a digit."""
    text = unicodedata.normalize("NFKC", text)
    return [w.translate(LOOKALIKES) if any(c in "0123456789" for c in w) else w for w in text.split()]


def _numbers(text: str) -> list[str]:
    """The numbers of ``text`` as ASCII digit strings (NFKC: "km²" holds a 2), look-alikes folded
    in words that hold a digit ("2O25" -> "2025")."""
    return [run for w in _folded_words(text) for run in re.findall(r"[0-9]+", w)]


def _only_numbers_differ(seen: str, target: str) -> bool:
    """True when ``seen`` and ``target`` differ, and only in their numbers: the same text once
    the digits are taken out ("segment 18" / "segment 8"; not "km?" / "km²", an OCR slip)."""
    a, b = (re.sub(r"[0-9]+", "#", " ".join(_folded_words(t))) for t in (seen, target))
    return a == b and _numbers(seen) != _numbers(target)


def _words_in_order(seen: str, target: str, min_share: float = 0.4) -> bool:
    """True when ``seen`` is ``target`` with whole words missing: at least two words, each, in
    order, a word of ``target`` (punctuation at a word's ends ignored), fewer words than
    ``target``, and at least ``min_share`` of its characters. Both normalized."""
    strip = lambda t: [w.strip(".,;:!?") for w in t.split()]  # noqa: E731
    have, want = strip(seen), strip(target)
    if len(have) < 2 or len(have) >= len(want) or len(seen) < min_share * len(target):
        return False
    k = 0
    for word in have:
        while k < len(want) and want[k] != word:
            k += 1
        if k == len(want):
            return False
        k += 1
    return True


def _inside_longer_line(m: Match, lines: list[Line]) -> bool:
    """True when the matched words leave other words on their first or last line."""
    by_line: dict[int, list[int]] = {}
    for li, wi in m.words:
        by_line.setdefault(li, []).append(wi)
    return any(len(wis) < len(lines[li].words) for li, wis in by_line.items())


def _lone_line(m: Match, lines: list[Line]) -> bool:
    """True when ``m`` is one whole OCR line that no line of the same size continues just above
    or below it in its column (it is not a line of a paragraph)."""
    ids = {li for li, _ in m.words}
    if len(ids) != 1 or _inside_longer_line(m, lines):
        return False
    x0, y0, x1, y1 = lines[ids.pop()].box
    hgt = y1 - y0
    for ln in lines:
        a0, b0, a1, b1 = ln.box
        same = abs((b1 - b0) - hgt) <= 0.2 * hgt and abs(a0 - x0) <= 4 and ln.box != (x0, y0, x1, y1)
        if same and (0 <= b0 - y1 <= hgt or 0 <= y0 - b1 <= hgt):
            return False
    return True


def _beside(a, b) -> bool:
    """Box ``a`` stands by box ``b``: on its row (centres within half a line height), in its
    column (left edges within 4 px), or within 4 of ``a``'s line heights of it."""
    line = a[3] - a[1]
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    same_row = abs((a[1] + a[3]) - (b[1] + b[3])) / 2 <= 0.5 * line
    return same_row or abs(a[0] - b[0]) <= 4 or float(np.hypot(dx, dy)) <= 4 * line


def _may_rewrite(exp, m, seen, target, anywhere, group_boxes, lines, rules: Rules) -> bool:
    """True when the near match ``m`` (``seen``: its normalized text) may be rewritten to
    ``exp`` (``target``: normalized, case ignored); see ``candidate``."""
    if m.similarity < rules.min_similarity and not (_words_in_order(seen, target) and _lone_line(m, lines)):
        return False  # far from the string, unless it is the string with words missing ("Q3 Review")
    if target in seen and len(seen) > len(target):
        return False  # a longer word/phrase that contains the string: not a misspelling of it
    if _only_numbers_differ(seen, target):
        if [len(n) for n in _numbers(seen)] != [len(n) for n in _numbers(target)]:
            return False  # "Segment 18" is another label than "Segment 8", not a typo of it
        placed = exp.region is not None and not anywhere
        near = any(_beside(m.box, b) for b in group_boxes)
        if not (placed or near):
            return False  # "Segment 1" is another label than "Segment 8" unless the check points at it
    if _inside_longer_line(m, lines) and (seen == target or m.similarity < INSIDE_LINE_SIMILARITY):
        return False  # a word of running text ("finance" in a sentence is not the label "Finance")
    return True


def candidate(
    exp: TextExpectation,
    matches: list[Match],
    protected: set,
    w: int,
    h: int,
    lines: list[Line],
    rules: Rules,
    group_boxes=(),
) -> Match | None:
    """The best near match that may be rewritten, in the check's place if there is one there,
    else anywhere (the spelling is fixed where the string is; its place is a layout edit);
    None when there is none.

    Args:
        exp: the expected string.
        matches: its matches in ``lines`` (``Rules.matches``), best first.
        protected: (line index, word index) of words that are not rewritten.
        w, h: page size, pixels.
        lines: the OCR lines the matches refer to.
        rules: the editor's rules (``min_similarity``).
        group_boxes: boxes of the check's other strings that are on the page.

    A near match that differs from the string only in its numbers ("Segment 1" for "Segment
    8", "-6.6" for "-6.5") is another label unless the check locates it: it lies in the place the check
    names, or it stands by one of the check's other strings on the page (``group_boxes``; in
    its row or column, or within 4 line heights: "-6.6" on the row of "55.2"). Numbers of another length
    ("Segment 18") are never a typo of it.
    """
    target = normalize(exp.text, case_sensitive=False)
    if any(m.similarity == 1.0 for m in matches):
        return None  # the string is on the page (outside its place): nothing to rewrite
    for anywhere in (False, True):
        for m in matches:
            if m.similarity < PARTIAL_SIMILARITY:
                break
            if (not anywhere and not in_region(m.box, exp.region, w, h)) or protected.intersection(m.words):
                continue  # out of region (first pass), or someone else's words
            seen = normalize(m.text, case_sensitive=False)
            if _may_rewrite(exp, m, seen, target, anywhere, group_boxes, lines, rules):
                return m
    return None


def accepts(exp: TextExpectation, m: Match, w: int, h: int, case_sensitive: bool, anywhere: bool = False) -> bool:
    """A judge would accept ``m`` as ``exp``: exact, or equal up to case (when not
    ``case_sensitive``) and look-alikes, in its region (``anywhere``: in any place) of a w x h page."""
    if not anywhere and not in_region(m.box, exp.region, w, h):
        return False
    if m.found or m.similarity == 1.0:
        return True
    return _fold(exp.text, case_sensitive) == _fold(m.text, case_sensitive)


def drawn_as_expected(arr: np.ndarray, lines: list[Line], m: Match, text: str, rules: Rules) -> bool:
    """For a near match equal to ``text`` up to look-alikes ("Al" read for "AI"): True when
    the pixels of ``arr`` (uint8 (H, W, 3)) match ``text`` in the matched type at least as well
    as the OCR text (``type_match`` scores; one line, as many words as ``text``)."""
    li = m.words[0][0]
    if any(l2 != li for l2, _ in m.words) or len(text.split()) != len(m.words):
        return False
    words = [lines[li].words[wi] for _, wi in m.words]
    ink, bg = box_colours(arr, m.box)
    seen = match_type(arr, m.box, m.text, ink, bg, rules.faces, [(wd.box, wd.text) for wd in words])
    if seen is None:
        return False
    want = match_type(arr, m.box, text, ink, bg, [seen.face], [(wd.box, t) for wd, t in zip(words, text.split())])
    return want is not None and want.score >= seen.score


def locate(
    state: EditState, exp: TextExpectation, matches: list[Match], group_boxes, rules: Rules
) -> Skip | Rewrite | None:
    """Where ``exp`` stands on the page of ``state``.

    Its near match to rewrite (``candidate``); with none, the coloured regions and unread marks
    are read again (``Rules.look_harder``, once per edit) and a string a judge would accept there
    (``accepts``) is left alone, as is a string that is on the page outside its place, or a near
    match whose pixels show the expected string better than the OCR text (``drawn_as_expected``).

    Args:
        state: the edit (its lines, the words already protected, the image as it is now).
        exp: the expected string.
        matches: its matches in the page's lines, best first.
        group_boxes: boxes of its check-mates on the page.
        rules: the editor's rules.

    Returns:
        A Skip when the string is to be left alone; a Rewrite of its near match; None when it is
        missing (to be placed).
    """
    w, h = state.w, state.h
    source, ms = state.lines, matches
    cand = candidate(exp, ms, state.protected, w, h, source, rules, group_boxes)
    if cand is None and rules.look_harder:
        source = state.lines + state.harder_lines(rules.lang)  # main lines keep their indices, so ``protected`` applies
        ms = rules.matches(exp, source, w, h)
        seen = next((m for m in ms if accepts(exp, m, w, h, rules.case_sensitive)), None)
        if seen is not None:
            return Skip("skip: already on the page (judge missed it)", seen.box, seen.text)
        cand = candidate(exp, ms, state.protected, w, h, source, rules, group_boxes)
    if cand is None:
        elsewhere = next((m for m in ms if accepts(exp, m, w, h, rules.case_sensitive, anywhere=True)), None)
        if elsewhere is not None:
            return Skip(
                "skip: on the page outside its place (moving it is a layout edit)", elsewhere.box, elsewhere.text
            )
        return None
    if accepts(exp, cand, w, h, rules.case_sensitive, anywhere=True) and drawn_as_expected(
        state.arr, source, cand, exp.text, rules
    ):
        return Skip(
            "skip: already on the page (judge missed it: the pixels match the expected string "
            "better than the OCR text)",
            cand.box,
            cand.text,
        )
    return Rewrite(cand, source)
