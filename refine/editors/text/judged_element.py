"""The element the judge read for a "no" at a positional locator (issue 31): the editor's target.

When the OCR judge answers "no" because the element a locator pins by position reads other text
("the fourth y-axis category label from the top reads 'Gau', not 'Gas'":
``rewards.judges.ocr.OCRJudge._refuted``), its verdict's evidence holds that element
(``evidence["element_read"]``: its box and text). The quoted string may be read elsewhere on the
page ("Gas" in the annotation "Highest: Gas (93%)"), which the editor took for the string already
there. :func:`judged_boxes` gives each such string the element's box as the element its check
names, so an occurrence inside a longer line outside it is not taken for it
(``near_match.in_element_only``) and the near match inside it ("Gau") is rewritten.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from refine.editors.text.outcomes import Rewrite
from refine.editors.text.state import EditState
from refine.interfaces import Failure
from rewards.text.ocr.text_match import Line, Match, Word, boxes_meet


def judged_boxes(failures: Sequence[Failure], strings: list, element_boxes: dict) -> dict:
    """``element_boxes`` (expectation -> boxes or None) with, for each ``(expectation, check id)``
    of ``strings`` whose check's verdict read a positional element (``evidence["element_read"]``),
    that element's box ``(x0, y0, x1, y1)`` (pixels) as its only box; the others as they were."""
    judged = judged_elements(failures, strings)
    return {exp: [judged[exp]] if exp in judged else boxes for exp, boxes in element_boxes.items()}


def with_judged_reads(lines: list[Line], failures: Sequence[Failure]) -> list[Line]:
    """``lines`` (the editor's OCR read of the page) with, for each verdict whose element the
    judge read on its own (``evidence["element_read"]``) where no word of ``lines`` stands, that
    element as one more line of one word (its text, box and confidence): the judge reads a lone
    glyph over a short bar ("2") in a crop of its own (``positional_reads.group_value``), which
    the page read drops; without it the editor had no wrong version to rewrite and skipped the
    value as having no slot."""
    out = list(lines)
    for _, v in failures:
        el = v.evidence.get("element_read") if isinstance(v.evidence, dict) else None
        if not el or not el.get("box") or not str(el.get("text", "")).strip():
            continue
        box = tuple(int(c) for c in el["box"])
        if not any(boxes_meet(w.box, box) for ln in out for w in ln.words):
            out.append(Line((Word(str(el["text"]), box, el.get("conf")),)))
    return out


def judged_elements(failures: Sequence[Failure], strings: list) -> dict:
    """Expectation -> the box ``(x0, y0, x1, y1)`` (pixels) of the element its check's verdict
    read for its "no" (``evidence["element_read"]``), for each ``(expectation, check id)`` of
    ``strings`` whose verdict has one and that is the string the element should read (its
    ``expected``, when the evidence names it)."""
    read = {c.id: v.evidence.get("element_read") for c, v in failures if isinstance(v.evidence, dict)}
    out = {}
    for exp, cid in strings:
        el = read.get(cid) or {}
        # the string the element should read; the check's other strings ("Tiramisu", its section) are not it
        if el.get("box") and el.get("expected", exp.text) == exp.text:
            out[exp] = tuple(int(c) for c in el["box"])
    return out


def judged_target(state: EditState, box) -> Rewrite | None:
    """The Rewrite of the words the judge read in ``box`` for its "no" (the element a positional
    locator pins: a bar's value, a tick label), when no near match of the string was found: the
    words of one OCR line whose centres lie in ``box``, none protected (a string already fixed);
    None when there are none or they span several lines. "2" read over a short bar for "9" is
    no near match by spelling (0 alike), yet it is the value the check names, read for sure."""
    inside = [
        (li, wi)
        for li, ln in enumerate(state.lines)
        for wi, wd in enumerate(ln.words)
        if box[0] <= (wd.box[0] + wd.box[2]) / 2 <= box[2] and box[1] <= (wd.box[1] + wd.box[3]) / 2 <= box[3]
    ]
    if not inside or len({li for li, _ in inside}) != 1 or any(w in state.protected for w in inside):
        return None
    words = [state.lines[li].words[wi] for li, wi in inside]
    union = (min(w.box[0] for w in words), min(w.box[1] for w in words),
             max(w.box[2] for w in words), max(w.box[3] for w in words))  # fmt: skip
    return Rewrite(Match(" ".join(w.text for w in words), union, 0.0, False, tuple(inside)), state.lines)


def judged_over(state: EditState, box, outcome):
    """``outcome`` (what ``near_match.locate`` made of a string) unless it rewrites nothing inside
    ``box``, the element the judge read for its "no": then the Rewrite of that element
    (``judged_target``) when there is one. The judge pinned the element and read it with
    confidence, so a copy of the string elsewhere ("$17.25", another item's price) is not this
    element's, and a skip for it ("on the page outside its place") left the wrong price."""
    if isinstance(outcome, Rewrite) and boxes_meet(outcome.match.box, box):
        return outcome
    return judged_target(state, box) or outcome


def judged_matches(matches: dict, judged: dict) -> dict:
    """``matches`` (expectation -> its OCR matches) with, for each expectation of ``judged``
    (``judged_elements``), every exact occurrence outside the judged element's box marked not
    found: the string read elsewhere ("$17.25", another item's price) is not the element the
    judge pinned and read otherwise, so the string is still to be fixed there."""
    return {
        exp: [m if exp not in judged or boxes_meet(m.box, judged[exp]) else replace(m, found=False) for m in ms]
        for exp, ms in matches.items()
    }


def refused_reads(failures: Sequence[Failure], strings: list) -> dict:
    """Expectation -> boxes ``(x0, y0, x1, y1)`` where its check's judge read the string exactly and
    refused it as the element the check names (its verdict's ``evidence["expects"]`` record of the
    string: ``found`` False at similarity 1.0 by rule "element"), for each ``(expectation, check
    id)`` of ``strings`` that has such a read."""
    refused: dict[str, list] = {}
    for check, verdict in failures:
        ev = verdict.evidence if isinstance(verdict.evidence, dict) else {}
        for r in ev.get("expects") or ():
            if r.get("rule") == "element" and r.get("found") is False and r.get("similarity") == 1.0 and r.get("box"):
                refused.setdefault(check.id, []).append((r.get("text"), tuple(int(c) for c in r["box"])))
    out = {}
    for exp, cid in strings:
        if boxes := [box for text, box in refused.get(cid, ()) if text == exp.text]:
            out[exp] = boxes
    return out


def not_refused(matches: list[Match], boxes, lines: list[Line]) -> list[Match]:
    """``matches`` (of one string, in ``lines``) without each exact occurrence inside a longer line
    at one of ``boxes`` (``refused_reads``): "Gate" inside the footer "Gate closes 20 minutes before
    departure." is not the card labelled "Gate", though the editor's element for a card, its frame,
    holds the footer too. Taken for the label, the string was dropped as already on the page and
    the misspelt label "Gawe" stayed."""
    if not boxes:
        return matches
    return [m for m in matches if not (m.similarity == 1.0 and _refused(m, boxes, lines))]


def _refused(m: Match, boxes, lines: list[Line]) -> bool:
    """True when ``m`` overlaps one of ``boxes`` and leaves other words on its OCR line."""
    ids = {li for li, _ in m.words}
    longer = any(len([1 for li2, _ in m.words if li2 == li]) < len(lines[li].words) for li in ids)
    return longer and any(boxes_meet(m.box, b) for b in boxes)
