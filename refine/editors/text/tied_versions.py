"""Near matches the editor cannot tell apart: a label one letter from another label.

A four-letter label one letter off ("Gawe" for "Gate") is 0.75 alike to the string, and so is a
correct label beside it ("Date"): spelling alone cannot say which one is the wrong version, and
rewriting the first read ("Date" -> "Gate") broke a correct label and left the misspelt one, a
page that contradicts itself. Two rules keep such a rewrite off a correct string:

- a near match that reads exactly another string the same failed checks ask for ("Date", asked
  by the "Date" card's value check) is that string, not a version of this one (``not_asked``);
- when the best versions tie in similarity with different texts and neither the check's other
  strings nor its element single one out, the string is not rewritten (``tied``): the editor
  skips it, naming the version it could not place (``near_match.rival``).
"""

from __future__ import annotations

from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Match, normalize


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


def tied(versions: list[tuple[Match, str]], placed, element_boxes, in_any) -> bool:
    """True when the best of ``versions`` ((match, verdict), best first) taken as a misspelling
    (verdict ``take``) ties in similarity with another of a different text, and neither
    ``placed`` (a match -> whether it lies in the check's region or by one of its other strings)
    nor ``element_boxes`` (``in_any(box, boxes)``) singles out one of the tied: the editor cannot
    tell which is the wrong version. Versions whose numbers differ are left to their own rule
    (located, or not rewritten)."""
    taken = [m for m, verdict in versions if verdict == "take"]
    if len(taken) < 2:
        return False
    best = max(m.similarity for m in taken)
    top = [m for m in taken if m.similarity == best]
    if len({normalize(m.text, False) for m in top}) < 2:
        return False
    if sum(placed(m) for m in top) == 1:
        return False
    return not (element_boxes and sum(in_any(m.box, element_boxes) for m in top) == 1)
