"""Near matches the editor cannot tell apart: a label one letter from another label.

A four-letter label one letter off ("Gawe" for "Gate") is 0.75 alike to the string, and so is a
correct label beside it ("Date"): spelling alone cannot say which one is the wrong version, and
rewriting the first read ("Date" -> "Gate") broke a correct label and left the misspelt one, a
page that contradicts itself. Two rules keep such a rewrite off a correct string:

- a near match that reads exactly another string the same failed checks ask for ("Date", asked
  by the "Date" card's value check) is that string, not a version of this one (``not_asked``);
- when the best versions tie in similarity with different texts, a version the page prints again
  on another line ("Gate" in the footer "Gate closes ...") is the page's word, not the
  misspelling ("Dave" is rewritten "Date", not "Gate"); when that leaves several and neither the
  check's other strings nor its element single one out, the string is not rewritten (``untie``):
  the editor skips it, naming the version it could not place (``near_match.rival``).
"""

from __future__ import annotations

from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, normalize


def not_asked(matches: dict[TextExpectation, list[Match]], case_sensitive: bool) -> dict:
    """``matches`` (expectation -> its near matches) without, for each expectation, the inexact
    matches whose whole text is another expectation's string (normalized; strings with a digit
    are left to the number rules: a value one digit off may equal another bar's value)."""
    asked = {normalize(e.text, case_sensitive) for e in matches}
    out = {}
    for exp, ms in matches.items():
        own = normalize(exp.text, case_sensitive)
        out[exp] = [
            m
            for m in ms
            if m.similarity == 1.0
            or any(c.isdigit() for c in m.text)
            or (seen := normalize(m.text, case_sensitive)) == own
            or seen not in asked
        ]
    return out


def untie(versions: list[tuple[Match, str]], lines: list[Line], placed, element_boxes, in_any):
    """``versions`` ((match, verdict), best first) as the editor may take them, or None when it
    cannot tell which is the wrong version. When the best version taken as a misspelling (verdict
    ``take``) ties in similarity with others of a different text, a tied version whose words the
    page prints again on another line ("Gate" of the footer "Gate closes ...") is the page's own
    word, not the misspelling, and is dropped; the others are kept when one is left, or when
    ``placed`` (a match -> whether it lies in the check's region or by one of its other strings)
    or ``element_boxes`` (``in_any(box, boxes)``) singles one out; else None. Versions whose
    numbers differ are left to their own rule (located, or not rewritten)."""
    taken = [m for m, verdict in versions if verdict == "take"]
    if len(taken) < 2:
        return versions
    best = max(m.similarity for m in taken)
    top = [m for m in taken if m.similarity == best]
    if len({normalize(m.text, False) for m in top}) < 2:
        return versions
    mine = [m for m in top if not _printed_again(m, lines)]
    if len(mine) == 1:
        return [(m, v) for m, v in versions if m is mine[0] or m not in top]
    if sum(placed(m) for m in top) == 1 or (element_boxes and sum(in_any(m.box, element_boxes) for m in top) == 1):
        return versions
    return None


def _printed_again(m: Match, lines: list[Line]) -> bool:
    """Whether the words of ``m`` stand, in order, on an OCR line ``m`` does not cover."""
    want = [w.strip(".,:;!?()").casefold() for w in m.text.split()]
    own = {li for li, _ in m.words}
    for li, ln in enumerate(lines):
        if li in own:
            continue
        words = [w.text.strip(".,:;!?()").casefold() for w in ln.words]
        if any(words[k : k + len(want)] == want for k in range(len(words) - len(want) + 1)):
            return True
    return False
