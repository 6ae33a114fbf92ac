"""Which OCR text is an expected string: the near match to rewrite, and text a judge would accept.

A near match is rewritten only when it is a wrong version of the string, not another label: not
a longer phrase holding it ("Female" for "Male"), not a word of running text. A version whose
numbers differ from the string's ("18,540" for "18,450", "July 21-14" for "July 12-14, 2025",
"Segment 1" for "Segment 8") is the wrong version only where the editor can tell: it lies in the
place the check names, in the element the check names (``rewards.text.page.elements``), beside one of
the check's other strings, or it is the only such version on the page. Otherwise it may be the
wrong version or another label, and the string is not written at all (``rival``): a second copy
beside the wrong one would make the page contradict itself (issue 17).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from rapidfuzz.distance import OSA

from refine.editors.text.cards import off_card
from refine.editors.text.colours import box_colours
from refine.editors.text.judged_element import not_refused
from refine.editors.text.numbered_series import numbers, only_numbers_differ, series_siblings
from refine.editors.text.other_list import off_list
from refine.editors.text.outcomes import Rewrite, Skip
from refine.editors.text.row_pieces import row_continues
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tied_versions import untie
from refine.editors.text.type_match import match_type
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import LOOKALIKES, Line, Match, in_region, normalize

SEPARATORS = str.maketrans({c: " " for c in "\u00b7\u2022\u2219\u2027\u2013\u2014\u2012-|\u00a9\u00ae\u2122"})
"""Marks OCR misreads or drops (a middle dot "·" read as "-", an en dash as a hyphen, a "©" or
"™" not read): a near match that differs from its string only in these reads the string, and is
not retyped."""
INSIDE_LINE_SIMILARITY = 0.85
"""Least similarity for rewriting a near match that is only part of its OCR line(s): running text
around it makes a chance resemblance likelier than a misspelt label."""
SHORT_TYPO = 3
"""Least length of a one-word string whose one-edit version (``_short_typo``) is a near match
below ``min_similarity``; a two-letter word one edit off is as likely another word."""
PARTIAL_SIMILARITY = 0.4
"""Least similarity of a near match that is the expected string with words missing
(``_words_in_order``: "Q3 Review" for "Q3 Revenue Review"), on a line of its own
(``_lone_line``); it is rewritten as the whole string (a string written beside it would repeat
its words). Lines of a paragraph are not taken: the last line "verdicts." of a subtitle is not
"Verdict: NEI", nor two lines of a paragraph the whole paragraph."""


def fold(text: str, case_sensitive: bool) -> str:
    """``text`` normalized, look-alikes folded (``LOOKALIKES``)."""
    return normalize(text, case_sensitive).translate(LOOKALIKES)


def separators_only(seen: str, target: str, case_sensitive: bool) -> bool:
    """True when ``seen`` differs from ``target`` only in separator marks (``SEPARATORS``, spaces
    around them ignored): "Made in Lisbon - Since 2014" for "Made in Lisbon · Since 2014", and
    "2026 Northwind Inc." for "© 2026 Northwind Inc.", are misreads, not errors."""
    a, b = (" ".join(normalize(t, case_sensitive).translate(SEPARATORS).split()) for t in (seen, target))
    # the raw strings, not normalize's: it folds a lone separator to "·" itself (text_match rule 4)
    raw_a, raw_b = (" ".join((t if case_sensitive else t.casefold()).split()) for t in (seen, target))
    return a == b and raw_a != raw_b


def _words(text: str) -> list[str]:
    """Words of ``text``, punctuation at their ends stripped."""
    return [w for w in (w.strip(".,;:!?") for w in text.split()) if w]


def _one_edit(a: str, b: str) -> bool:
    """True when word ``a`` is word ``b`` with one character changed, or two neighbouring
    characters swapped ("540" / "450", "21-14" / "12-14"): same length, OSA distance 1."""
    return len(a) == len(b) and OSA.distance(a, b) == 1


def _words_in_order(seen: str, target: str, min_share: float = 0.4, one_off: bool = False) -> bool:
    """True when ``seen`` is ``target`` with whole words missing: at least two words, each, in
    order, a word of ``target`` (punctuation at a word's ends ignored), fewer words than
    ``target``, and at least ``min_share`` of its characters. With ``one_off``, one of its words
    may be a word of ``target`` with one edit (``_one_edit``: "July 21-14" for "July 12-14,
    2025"). Both normalized."""
    have, want = _words(seen), _words(target)
    if len(have) < 2 or len(have) >= len(want) or len(seen) < min_share * len(target):
        return False
    k, spare = 0, one_off
    for word in have:
        j = next((j for j in range(k, len(want)) if want[j] == word), None)
        if j is None and spare:
            j = next((j for j in range(k, len(want)) if _one_edit(word, want[j])), None)
            spare = False
        if j is None:
            return False
        k = j + 1
    return True


def _swapped(seen: str, target: str) -> bool:
    """True when ``seen`` holds the words of ``target`` in another order ("Revenue Q3" for "Q3
    Revenue"). Both normalized."""
    have, want = _words(seen), _words(target)
    return len(want) > 1 and have != want and sorted(have) == sorted(want)


def _short_typo(seen: str, target: str) -> bool:
    """True when ``seen`` is the one-word ``target`` (letters only, at least ``SHORT_TYPO`` of
    them) with one letter changed, dropped, added, or two swapped ("Gds" for "Gas"): a short
    word's one typo is under ``min_similarity`` by OSA (0.67 for three letters). A number is
    never one ("38%" for "18%" is another slice's value). Both normalized."""
    words = seen.isalpha() and target.isalpha()  # a number one digit off is another slice's value ("38%")
    return words and len(target) >= SHORT_TYPO and OSA.distance(seen, target) == 1


CURRENCY = set("$€£¥")
"""Marks of a price: ``digit_off`` takes only a price one digit off for a version of the string."""


def digit_off(seen: str, target: str) -> bool:
    """True when ``seen`` is the one-word price ``target`` (both with a currency mark) with one
    digit changed ("$22" for "$52", 0.67 alike by OSA): a short price one digit off, which ``_verdict`` makes a
    version whose place must be located (``candidate``), as "Segment 1" is for "Segment 8".
    Both normalized."""
    if " " in seen or " " in target or len(seen) != len(target) or not any(c.isdigit() for c in target):
        return False
    if not (CURRENCY & set(target) and CURRENCY & set(seen)):
        return False  # "02" for "06", "12" for "11": another label or cell of a numbered series
    diff = [(a, b) for a, b in zip(seen, target) if a != b]
    return len(diff) == 1 and diff[0][0].isdigit() and diff[0][1].isdigit()


def other_letter(seen: str, target: str) -> bool:
    """True when ``seen`` and ``target`` differ in one word only, a single letter in both ("Team
    B" for "Team A", "Plan C" for "Plan A"): a series' or a group's name, another label, never
    rewritten as a typo. Both normalized."""
    have, want = _words(seen), _words(target)
    diff = [(a, b) for a, b in zip(have, want) if a != b]
    return len(have) == len(want) > 1 and len(diff) == 1 and all(len(w) == 1 and w.isalpha() for w in diff[0])


def _numbers_changed(seen: str, target: str) -> bool:
    """True when ``seen`` holds a number ``target`` does not ("540" of "18,540" for "18,450"):
    its digits say something else, so it may be another label as well as a typo."""
    return bool(set(numbers(seen)) - set(numbers(target)))


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


TAKE, UNLOCATED, OTHER = "take", "unlocated", "other"
"""``_verdict``s of a near match: rewrite it; a wrong version the editor cannot place (it may be
another label); not a version of the string at all."""


def _in_any(box, boxes) -> bool:
    """True when the centre of ``box`` lies in one of ``boxes`` (all (x0, y0, x1, y1) pixels)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def _verdict(exp, m, seen, target, lines, rules: Rules, named: bool = False, whole: bool = False) -> str:
    """What the near match ``m`` (``seen``: its normalized text) is of ``exp`` (``target``:
    normalized, case ignored), before its place is looked at: ``TAKE`` (a misspelling, rewritten
    wherever it is), ``UNLOCATED`` (a version whose numbers differ: rewritten only where it is
    located, see ``candidate``) or ``OTHER``.

    ``named``: ``m`` is the whole text of the one element the check names (``_named``): the
    string with words missing or swapped is then that element's wrong version even when it is
    short or wraps ("More at" is the footer "More at www.foodmarket.org" with its address dropped;
    a bullet of two lines with two words swapped), so it is rewritten in place, not added beside.
    ``whole``: ``m`` is the whole text of one of the several elements of the role the check names
    (``_whole_element``: a button "Start trial free" beside an arrow OCR reads as a word, among
    the page's buttons); it counts as a line of its own. The string's words in another order that
    are whole OCR lines are a version of it wherever they stand (``_swapped_line``)."""
    # words missing, unless OCR read the line in pieces: "the play-off." apart from its first words
    cut = _words_in_order(seen, target, min_share=0.0 if named or whole else 0.4, one_off=True)
    cut = cut and not row_continues(m, lines)
    partial = ((cut or _swapped(seen, target)) and (named or whole or _lone_line(m, lines))) or _swapped_line(
        m, seen, target, lines
    )
    digit = digit_off(seen, target)
    short = (_short_typo(seen, target) and (named or whole or _lone_line(m, lines))) or digit
    if m.similarity < rules.min_similarity and not (partial or short):
        return OTHER  # far from the string, unless it is the string with words missing or swapped ("Q3 Review")
    if target in seen and len(seen) > len(target):
        return OTHER  # a longer word/phrase that contains the string: not a misspelling of it
    inside = not whole and not digit and _inside_longer_line(m, lines)  # a price before its "per month" is whole
    if inside and (seen == target or m.similarity < INSIDE_LINE_SIMILARITY):
        return OTHER  # a word of running text ("finance" in a sentence is not the label "Finance")
    if only_numbers_differ(seen, target) and [len(n) for n in numbers(seen)] != [len(n) for n in numbers(target)]:
        return OTHER  # "Segment 18" is another label than "Segment 8", not a typo of it
    if other_letter(seen, target):
        return UNLOCATED  # "Team B" for "Team A": another series' label, or the wrong one; never taken
    if _numbers_changed(seen, target) or (short and m.similarity < rules.min_similarity):
        return UNLOCATED  # "Segment 1" for "Segment 8", "Gds" for "Gas": a typo, or another label
    return TAKE


def _swapped_line(m: Match, seen: str, target: str, lines: list[Line]) -> bool:
    """True when ``m`` is whole OCR lines (no other word on its first or last line) holding the
    words of ``target`` in another order (``_swapped``; both normalized): the string's version
    even where it looks like a line of a paragraph. A tight list's item stands a line's pitch
    under the one above it, and when the list's first item is missing (its bullet drawn empty)
    the check's "fourth bullet" names no item code finds; the swapped "grew Revenue faster than
    planned" was then neither a lone line nor an element's whole text, and was taken for missing
    (adversarial dev poster-55). A line of running text holding exactly the string's words and
    nothing else is its version, not another sentence."""
    return _swapped(seen, target) and not _inside_longer_line(m, lines)


def _named(m: Match, lines: list[Line], element_boxes) -> bool:
    """True when the check names one element on the page (``element_boxes`` holds one box) and
    ``m`` is the whole text of the lines it covers, inside that element."""
    return (
        element_boxes is not None
        and len(element_boxes) == 1
        and _in_any(m.box, element_boxes)
        and not _inside_longer_line(m, lines)
    )


def _whole_element(m: Match, lines: list[Line], element_boxes) -> bool:
    """True when ``m``'s centre lies in exactly one of ``element_boxes`` (the page's elements of
    the role the check names) and ``m`` holds every OCR word with a letter or digit whose centre
    lies in that box: the element's whole text (a button's arrow, read ">", is no word of it)."""
    if not element_boxes:
        return False
    inside = [b for b in element_boxes if _in_any(m.box, [b])]
    if len(inside) != 1:
        return False
    own = {
        (li, wi)
        for li, ln in enumerate(lines)
        for wi, wd in enumerate(ln.words)
        if _in_any(wd.box, inside) and any(c.isalnum() for c in wd.text)
    }
    return bool(own) and own <= set(m.words)


def _versions(
    exp: TextExpectation, matches: list[Match], protected: set, lines: list[Line], rules: Rules, element_boxes=None
):
    """(match, verdict) of every match of ``exp`` that is a version of it (``_verdict`` not
    ``OTHER``), best first, not holding protected words, one per OCR line (the best). Matches
    below ``PARTIAL_SIMILARITY`` are versions only as the whole text of the one element the
    check names (``_named``), or as the string's words in another order (``_swapped``: "year
    Last" is 0.11 alike to "Last year" by OSA; ``_verdict`` still wants it a line of its own or
    the whole text of an element of the check's role). The other members of a numbered series
    are no versions (``numbered_series.series_siblings``)."""
    target = normalize(exp.text, case_sensitive=False)
    out, taken = [], set()
    for m in matches:
        named = _named(m, lines, element_boxes)
        whole = not named and _whole_element(m, lines, element_boxes)
        swapped = _swapped(normalize(m.text, case_sensitive=False), target)
        if m.similarity < PARTIAL_SIMILARITY and not (named or whole or swapped):
            continue
        ids = {li for li, _ in m.words}
        if protected.intersection(m.words) or ids & taken:
            continue
        verdict = _verdict(exp, m, normalize(m.text, case_sensitive=False), target, lines, rules, named, whole)
        if verdict != OTHER:
            out.append((m, verdict))
            taken |= ids
    return series_siblings(out, target)


def in_element_only(matches: list[Match], element_boxes, lines: list[Line]) -> list[Match]:
    """``matches`` with an exact occurrence inside a longer line outside every element of
    ``element_boxes`` marked not found ("BREAKFAST" in the heading "BREAKFAST COMBOS" is not the
    title "BREAKFAST"); as they are when ``element_boxes`` is None."""
    if element_boxes is None:
        return matches
    return [
        replace(m, found=False)
        if m.found and not _in_any(m.box, element_boxes) and _inside_longer_line(m, lines)
        else m
        for m in matches
    ]


def off_legend(exp: TextExpectation, work, matches: dict, element_boxes: dict) -> bool:
    """Whether ``exp`` is a legend entry its check asks for (``work.elements``: role
    "legend_entry") that the page shows exactly only outside every legend entry code finds
    (``element_boxes``): the slice's own label, not the legend's."""
    element = work.elements.get(exp)
    boxes = element_boxes.get(exp)
    if getattr(element, "role", None) != "legend_entry" or not boxes:
        return False
    exact = [m for m in matches.get(exp, []) if m.found]
    return bool(exact) and not any(_in_any(m.box, boxes) for m in exact)


def _same_row(a, b) -> bool:
    """Whether box ``a``'s vertical middle lies within box ``b``'s rows."""
    return b[1] <= (a[1] + a[3]) / 2 <= b[3]


def candidate(
    exp: TextExpectation,
    matches: list[Match],
    protected: set,
    w: int,
    h: int,
    lines: list[Line],
    rules: Rules,
    group_boxes=(),
    element_boxes=None,
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
        element_boxes: boxes of the page's elements of the role the check names
            (``EditState.element_boxes``), or None when it names none or they cannot be found.

    A version whose numbers differ from the string ("Segment 1" for "Segment 8", "-6.6" for
    "-6.5", "July 21-14" for "July 12-14, 2025") is rewritten only where the editor can tell it is
    the wrong version: it lies in the place the check names, or in the element it names, or it
    stands by one of the check's other strings on the page (``group_boxes``; in its row or column,
    or within 4 line heights: "-6.6" on the row of "55.2"), or it is the page's only version of
    the string. Otherwise ``rival`` names it.
    """
    exact = [m for m in matches if m.similarity == 1.0]
    if element_boxes is not None:  # "BREAKFAST" inside "BREAKFAST COMBOS" is not the title "BREAKFAST"
        exact = [m for m in exact if _in_any(m.box, element_boxes) or not _inside_longer_line(m, lines)]
    if exact:
        return None  # the string is on the page (outside its place): nothing to rewrite
    versions = _versions(exp, matches, protected, lines, rules, element_boxes)
    numbered = [m for m, verdict in versions if verdict == UNLOCATED]
    # a version on the row of one of the check's other strings first: "$31.25" on the row of
    # "Fresh Lemonade" is its price, not "$24.25" a row above it
    versions = sorted(versions, key=lambda v: not any(_same_row(v[0].box, b) for b in group_boxes))
    # "Team B" for "Team A" is never rewritten: it may be the other line's label (``rival`` skips)
    versions = [(m, v) for m, v in versions if not other_letter(normalize(m.text, False), normalize(exp.text, False))]

    def placed(m: Match) -> bool:  # the check's own region, or beside one of its other strings
        return (exp.region is not None and in_region(m.box, exp.region, w, h)) or any(
            _beside(m.box, b) for b in group_boxes
        )

    versions = untie(versions, lines, placed, element_boxes, _in_any)
    if versions is None:
        return None  # "Date" and "Gawe" both one letter from "Gate": ``rival`` skips
    for anywhere in (False, True):
        for m, verdict in versions:
            in_place = in_region(m.box, exp.region, w, h)
            in_element = element_boxes is not None and _in_any(m.box, element_boxes)
            if not anywhere and not (in_place and (in_element or not element_boxes)):
                continue  # first pass: only in the check's place (and element)
            if verdict == TAKE:
                return m
            located = (
                (exp.region is not None and in_place)
                or in_element
                or any(_beside(m.box, b) for b in group_boxes)
                or numbered == [m]
            )
            if located:
                return m
    return None


def rival(
    exp: TextExpectation, matches: list[Match], protected: set, lines: list[Line], rules: Rules, element_boxes=None
) -> Skip | None:
    """A Skip when the page shows a version of ``exp`` that ``candidate`` does not take (the
    editor cannot tell whether it is the wrong version or another label): writing the string
    anyway could put the right and the wrong version on one page."""
    versions = _versions(exp, matches, protected, lines, rules, element_boxes)
    if not versions:
        return None
    m = versions[0][0]
    more = f" (and {len(versions) - 1} more)" if len(versions) > 1 else ""
    return Skip(
        f"skip: {m.text[:40]!r}{more} may be the wrong version of {exp.text[:40]!r}; not writing a second copy",
        m.box,
        m.text,
    )


def accepts(exp: TextExpectation, m: Match, w: int, h: int, case_sensitive: bool, anywhere: bool = False) -> bool:
    """A judge would accept ``m`` as ``exp``: exact, or equal up to case (when not
    ``case_sensitive``) and look-alikes, in its region (``anywhere``: in any place) of a w x h page."""
    if not anywhere and not in_region(m.box, exp.region, w, h):
        return False
    if m.found or m.similarity == 1.0:
        return True
    return fold(exp.text, case_sensitive) == fold(m.text, case_sensitive)


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


def in_capitals(arr: np.ndarray, lines: list[Line], m: Match, text: str, rules: Rules) -> bool:
    """Whether the near match ``m`` is ``text`` set in capitals (CSS ``text-transform:
    uppercase``, a card's "COOK" for the label "Cook"): equal to it up to case, ``text`` not in
    capitals itself, and read in capitals or drawn as ``text.upper()`` at least as well as the
    OCR text (``drawn_as_expected``: tesseract reads 9 px capitals "COOK" as "cook")."""
    if text.upper() == text or normalize(m.text, case_sensitive=False) != normalize(text, case_sensitive=False):
        return False
    return m.text.upper() == m.text or drawn_as_expected(arr, lines, m, text.upper(), rules)


def whole_line(m: Match, lines: list[Line], target: str) -> Match:
    """``m`` widened to its whole OCR line when the line's other words are words of ``target``
    too (as many times as ``target`` holds them, punctuation at their ends ignored, case
    ignored): the footer "at More www.filmweek.org" for "More at www.filmweek.org" is one
    wrong version, and a rewrite of its best-matching span "More www.filmweek.org" would leave
    the "at" before it ("at More at www..."). ``m`` as it is when it spans several lines or
    the line holds a word ``target`` does not (running text around a label)."""
    ids = {li for li, _ in m.words}
    if len(ids) != 1:
        return m
    li = ids.pop()
    line = lines[li]
    if len(m.words) == len(line.words):
        return m
    want = [w.casefold() for w in _words(target)]
    for word in _words(line.text):
        if word.casefold() not in want:
            return m
        want.remove(word.casefold())
    words = tuple((li, wi) for wi in range(len(line.words)))
    seen = normalize(line.text, case_sensitive=False)
    sim = OSA.normalized_similarity(normalize(target, case_sensitive=False), seen)
    return Match(line.text, tuple(int(v) for v in line.box), sim, False, words)


def names_cell(element) -> bool:
    """Whether ``element`` is one table cell named by its row and column labels."""
    return getattr(element, "role", None) == "table_cell" and bool(element.row) and bool(element.column)


def locate(
    state: EditState,
    exp: TextExpectation,
    matches: list[Match],
    group_boxes,
    rules: Rules,
    element_boxes=None,
    element=None,
    refused=None,
) -> Skip | Rewrite | None:
    """Where ``exp`` stands on the page of ``state``.

    Its near match to rewrite (``candidate``); with none, the coloured regions and unread marks
    are read again (``Rules.look_harder``, once per edit) and a string a judge would accept there
    (``accepts``) is left alone, as is a string that is on the page outside its place, or a near
    match whose pixels show the expected string better than the OCR text (``drawn_as_expected``).
    A version of the string that is not taken (``rival``) stops it too: the string is not written
    beside what may be its wrong version. A check that names a table cell by its row and column
    takes only matches inside the cell code finds there (``element_boxes``): a near match in
    another row ("VAT 3.96" for the eggs' "3.90") is another cell's right value.

    Args:
        state: the edit (its lines, the words already protected, the image as it is now).
        exp: the expected string.
        matches: its matches in the page's lines, best first.
        group_boxes: boxes of its check-mates on the page.
        rules: the editor's rules.
        element_boxes: boxes of the elements of the role its check names, or None.
        element: the element its check names (a list item under a heading: a line read under
            another heading is not it, ``place_list_item.off_list``), or None.
        refused: boxes where the judge read the string inside a longer line and refused it as
            the element (``judged_element.refused_reads``): not taken when looking harder.

    Returns:
        A Skip when the string is to be left alone; a Rewrite of its near match; None when it is
        missing (to be placed).
    """
    w, h = state.w, state.h
    cell = names_cell(element) and bool(element_boxes)

    def own(found: list[Match]) -> list[Match]:  # another row's value ("VAT 3.96") is another cell
        return [m for m in found if _in_any(m.box, element_boxes)] if cell else found

    source, ms = state.lines, own(matches)
    cand = candidate(exp, ms, state.protected, w, h, source, rules, group_boxes, element_boxes)
    if cand is None and rules.look_harder:
        source = state.lines + state.harder_lines(rules.lang)  # main lines keep their indices, so ``protected`` applies
        ms = off_card(state, exp, rules.matches(exp, source, w, h), rules)  # not a sibling card's line
        ms = own(off_list(state, exp, ms, element, rules))  # nor another list's item
        ms = not_refused(ms, refused, source)  # nor the footer's "Gate" the judge refused as the card
        seen = next((m for m in ms if accepts(exp, m, w, h, rules.case_sensitive)), None)
        if seen is not None and (element_boxes is None or _in_any(seen.box, element_boxes)):
            return Skip("skip: already on the page (judge missed it)", seen.box, seen.text)
        cand = candidate(exp, ms, state.protected, w, h, source, rules, group_boxes, element_boxes)
    if cand is None:
        elsewhere = next((m for m in ms if accepts(exp, m, w, h, rules.case_sensitive, anywhere=True)), None)
        if elsewhere is not None and not (element_boxes is not None and _inside_longer_line(elsewhere, source)):
            return Skip(
                "skip: on the page outside its place (moving it is a layout edit)", elsewhere.box, elsewhere.text
            )
        return rival(exp, ms, state.protected, source, rules, element_boxes)
    if in_capitals(state.arr, source, cand, exp.text, rules):  # a person reads "COOK" as the label "Cook"
        return Skip("skip: on the page in capitals (set so by its style); not retyped", cand.box, cand.text)
    if accepts(exp, cand, w, h, rules.case_sensitive, anywhere=True) and drawn_as_expected(
        state.arr, source, cand, exp.text, rules
    ):
        return Skip(
            "skip: already on the page (judge missed it: the pixels match the expected string "
            "better than the OCR text)",
            cand.box,
            cand.text,
        )
    if separators_only(cand.text, exp.text, rules.case_sensitive):
        return Skip(
            "skip: already on the page (judge missed it: the text differs only in a separator mark OCR "
            "misreads); not retyped",
            cand.box,
            cand.text,
        )
    return Rewrite(whole_line(cand, source, exp.text), source)
