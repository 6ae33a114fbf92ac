"""When the OCR judge may say "no": a "no" needs the same certainty as a "yes" (issue 31).

A text part that fails is a "no" only when what failed was seen clearly. :func:`doubt_no` gives the
reason to withhold instead (the router then hands the check to the next judge, a VLM), or None
when the "no" stands. Rules, by the rule that failed (``rewards.text.page.grounding``):

- **anchor not read** (the quoted anchor of a relation, "above the 'South' bar", is not read
  anywhere): the element the question names was not found: withheld when a VLM follows or a
  VLM-only part is left, the anchor is short (``SHORT``: tesseract drops a lone "Q1"), or the
  anchor's near miss has low confidence; nothing like a longer anchor
  on a page read without a VLM behind: the "no" stands (the named element is not there).
- **anchor relation** failed for a string the question quotes inside a locator only a VLM can
  check ("'Tea' read, but not above '2024'" of "the '2024' bar in the 'Tea' group"): the string
  is part of the locator, not the element asked about: withheld.
- **element** (the string is read, but not as the element named): withheld when a locator only a
  VLM can check is left ("the header *of the third column*": the tree's candidates are not the
  element the question names), when the string is read exactly as two or more whole lines (a
  list item that wraps: the finders' items are lines, so "the third item" reads only its first
  line), or when the element's words were read with confidence below ``MIN_CONF`` (an icon
  read as letters).
- **read** (a required string is not read anywhere on the page):

  1. ``vlm_follows`` (``judge=ocr_vlm``: a VLM judge comes next in the router) and a part of the
     question only a VLM can check (``Check.spec.vlm_parts``): withheld, whatever OCR read.
  2. a near miss of a short value (``SHORT`` characters with a digit: "38%" and the "18%" of the
     next wedge; a short word, "Feb" for "Fed", stays "no")
     while a VLM-only part is left: withheld (code cannot tell it is the named element's).
  3. ``vlm_follows`` and a near miss (best OCR match with ``similarity`` >= ``NEAR``) with a word
     tesseract read with confidence below ``MIN_CONF``: withheld, the VLM looks again.
  4. ``vlm_follows`` and nothing close read (best similarity < ``NEAR``): the string may be
     unreadable rather than absent (teal headings on a page with a dark band are not read at
     all): withheld.
  5. a lone glyph (one letter or digit) asked beside other strings or anchors (a table row's
     rating "B", a cell in the 'Q1' row): tesseract drops isolated glyphs (as the short anchors
     above): withheld. Asked alone ("1" where only "1,206" is read) the "no" stands.

  Without a VLM behind (``judge=ocr``) a near miss, and nothing close, stay "no": on the
  real-engine dev split every low-confidence near miss (15) and all but one string with nothing
  close (6 of 7) were true "no"s (tesseract is least sure of misspelt words, and a missing
  element leaves nothing close), and on the fidelity set withholding them lost true "no"s.

Every other failure (region, count, arrangement, style) stands: the string was read with its box.

Confidences are tesseract's word confidences (``rewards.text.ocr.text_match.Word.conf``, 0-100);
a word with none (text an editor placed) counts as confident.
"""

from __future__ import annotations

from rewards.text.ocr.text_match import Line, find_matches, normalize, words_conf

MIN_CONF = 80.0
"""Tesseract word confidence (0-100) a near miss or an element's words need for a "no"."""
NEAR = 0.5
"""Similarity (``Match.similarity``) from which the best OCR match is a near miss of the string."""
SHORT = 4
"""A value of at most this many characters ("38%") has near misses in every other value of a chart
("18%"): under a locator code cannot resolve, its near miss refutes nothing."""


def _near_conf(text: str, lines: list[Line], size, case_sensitive: bool, lenient: bool, max_lines: int):
    """(similarity, lowest word confidence) of the best OCR match of ``text``, or (0.0, 100.0)."""
    ms = find_matches(text, lines, *size, None, case_sensitive, lenient, max_lines)
    if not ms:
        return 0.0, 100.0
    return ms[0].similarity, words_conf(lines, ms[0].words)


def _short_value(text: str) -> bool:
    """True for a short value ("38%", "$12": ``SHORT`` characters at most, with a digit): a chart
    holds many of them, one digit apart."""
    text = normalize(text)
    return len(text) <= SHORT and any(c.isdigit() for c in text)


def _quoted_in(text: str, parts: list[str]) -> bool:
    """True when ``text`` is quoted in one of the VLM-only ``parts`` ("locator \"in the 'Tea' group\"")."""
    return any(f"'{text}'" in p or f'"{text}"' in p for p in parts)


def _doubt_relation(decision, vlm_parts: list[str], lines, size, vlm_follows: bool, match) -> str | None:
    """The anchor rules of :func:`doubt_no`."""
    missing = [a["text"] for a in decision.anchors if not a["found"]]
    for text in missing:
        sim, conf = _near_conf(text, lines, size, *match)
        if vlm_follows or vlm_parts or len(normalize(text)) <= SHORT or (sim >= NEAR and conf < MIN_CONF):
            return f"anchor {text!r} not read: the element the question names is not found"
    failed = next((r for r in decision.records if r["rule"] == "anchor"), None)
    if failed is not None and _quoted_in(failed["text"], vlm_parts):
        return f"{failed['text']!r} belongs to a locator only a VLM can check"
    return None


def _wraps(record: dict, lines: list[Line]) -> bool:
    """True when the string of ``record`` was read exactly as two or more whole lines (those whose
    middle lies in its box): an element that wraps, whose extent OCR's lines do not give."""
    box = record.get("box")
    if not box or normalize(record.get("ocr_text", "")) != normalize(record["text"]):
        return False
    inside = [
        ln
        for ln in lines
        if ln.angle == 0
        and box[0] <= (ln.box[0] + ln.box[2]) / 2 <= box[2]
        and box[1] <= (ln.box[1] + ln.box[3]) / 2 <= box[3]
    ]
    return len(inside) >= 2 and normalize(" ".join(ln.text for ln in inside)) == normalize(record["text"])


def _doubt_element(decision, vlm_parts: list[str], lines: list[Line]) -> str | None:
    """The element rules of :func:`doubt_no`."""
    locators = [p for p in vlm_parts if p.startswith("locator")]
    if locators:
        return f"the element found is not located as the question says ({locators[0]}: only a VLM can check)"
    wrapped = next((r for r in decision.records if r["rule"] == "element" and _wraps(r, lines)), None)
    if wrapped is not None:
        return f"{wrapped['text']!r} is read as whole lines that wrap: which element they make, OCR cannot tell"
    shown = [r["element"] for r in decision.records if r.get("element")]
    low = [e for e in shown if e.get("conf", 100.0) < MIN_CONF]
    if low:
        return f"the element reads {low[0]['text']!r} with low OCR confidence ({low[0]['conf']:.0f})"
    return None


def doubt_no(
    decision,
    vlm_parts: list[str],
    lines: list[Line],
    size: tuple[int, int],
    vlm_follows: bool = False,
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> str | None:
    """Why the failed ``decision`` (a ``grounding.TextDecision`` with ``holds`` False) is not a
    confident "no" (module rules), or None when the "no" stands.

    Args:
        vlm_parts: the parts of the question only a VLM can decide (``Check.spec.vlm_parts``).
        lines: the OCR lines the decision was made on; size: (width, height) pixels.
        vlm_follows: a VLM judge follows in the router: a string not read is never refuted
            while a VLM-only part is left, nor when nothing close to it was read.
        case_sensitive, lenient, max_lines: the judge's matching rules (``text_match``).
    """
    if decision.rule == "anchor":
        return _doubt_relation(decision, vlm_parts, lines, size, vlm_follows, (case_sensitive, lenient, max_lines))
    if decision.rule == "element":
        return _doubt_element(decision, vlm_parts, lines)
    if decision.rule != "read":
        return None
    for r in decision.records:
        if r["rule"] != "read":
            continue
        if vlm_parts and vlm_follows:
            return f"{r['text']!r} not read; where it should be only a VLM can tell ({vlm_parts[0]})"
        if len(normalize(r["text"])) == 1 and (len(decision.records) > 1 or decision.anchors):
            return f"{r['text']!r} not read: tesseract drops a lone glyph, so its absence is not seen"
        sim, conf = _near_conf(r["text"], lines, size, case_sensitive, lenient, max_lines)
        if sim >= NEAR and vlm_parts and _short_value(r["text"]):
            return f"{r['text']!r} not read; a short near miss ({r['ocr_text']!r}) may be another element's"
        if vlm_follows and sim >= NEAR and conf < MIN_CONF:
            return f"{r['text']!r} not read; its near miss {r['ocr_text']!r} has low OCR confidence ({conf:.0f})"
        if sim < NEAR and vlm_follows:
            return f"{r['text']!r} not read, nor anything close: it may be unreadable rather than absent"
    return None
