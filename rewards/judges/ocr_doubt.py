"""When the OCR judge may say "no": a "no" needs the same certainty as a "yes" (issue 31).

A text part that fails is a "no" only when what failed was seen clearly. :func:`doubt_no` gives the
reason to withhold instead (the router then hands the check to the next judge, a VLM), or None
when the "no" stands. Rules, by the rule that failed (``rewards.text.page.grounding``):

- **anchor not read** (the quoted anchor of a relation, "above the 'South' bar", is not read
  anywhere, while the string asked for is read): the element the question names was not found,
  so it was not read either: withheld, whatever OCR read in the anchor's place. A person finds the
  element without its anchor being read as quoted: the 'On time' column under a header drawn
  "On tine" (the header's own typo), the 'Price' cell of a table drawn with no header row
  (a tester's pages, ``benchmarks/fresh7_pages.py``); tesseract drops a short anchor ("Q1")
  alone. (Until issue 31's seventh-tester round a long anchor with nothing like it on the page,
  or read as a confident near miss, kept the "no": it refuted correct cells there.)
- **anchor relation** failed for a string the question quotes inside a locator only a VLM can
  check ("'Tea' read, but not above '2024'" of "the '2024' bar in the 'Tea' group"): the string
  is part of the locator, not the element asked about: withheld.
  Also when the string is read elsewhere and a line in the anchor's place (under or over it, in
  its column) reads it but for spaces or look-alikes ("Anew benefits portal" under "In this
  issue", the string read exactly as another column's heading): withheld (``_variant_in_place``).
- **element** (the string is read, but not as the element named): withheld when a locator only a
  VLM can check is left ("the header *of the third column*": the tree's candidates are not the
  element the question names), when the string is read exactly as two or more whole lines (a
  list item that wraps: the finders' items are lines, so "the third item" reads only its first
  line), or when the element's words were read with confidence below ``MIN_CONF`` (an icon
  read as letters), or the string's own words where it stands (``_occurrence_conf``: a legend's
  swatch read as a quote mark glued to its entry, '"Wind' at confidence 0).
  Also when a card's name (the first string asked of a card) is read in no card the finder
  frames (``_card_unframed``): its own card and value are not found, so not read either.
  Also when a section heading is asked and the string is read exactly as a whole line of its
  own, measured bold (``_bold_line``): a heading the finder did not type (a spec sheet's
  "TECHNICAL SPECIFICATIONS" over a striped table, typed on one page of a template and not on the
  next) is not refuted by the headings it did find.
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
     rating "B", a cell in the 'Q1' row), or of an element (a role) placed by a locator only a VLM
     can check ("the header of the second column" "P", a league table's one-letter head): tesseract
     drops isolated glyphs (as the short anchors above): withheld. Asked alone ("1" where only
     "1,206" is read) the "no" stands.

  4b. nothing close read while the page holds slanted text OCR does not read (tick labels turned
     by 45 degrees: ``rewards.text.ocr.slanted``): withheld, judge=ocr too: the string may be one
     of them (a tester's chart: "2025 Q2" was a false "no").

  Without a VLM behind (``judge=ocr``) a near miss, and nothing close, stay "no": on the
  real-engine dev split every low-confidence near miss (15) and all but one string with nothing
  close (6 of 7) were true "no"s (tesseract is least sure of misspelt words, and a missing
  element leaves nothing close), and on the fidelity set withholding them lost true "no"s.

  5a. the best read of the string lacks only its closing marks (")"), and a word of just those
     marks is read right after it on its row (``_marks_apart``): withheld, judge=ocr too.
  5. the best read of the string differs from it only in look-alike glyphs ("object 01?" for
     "object o1?", "| found" for "I found", "¢ Thermal" for the quoted bullet "• Thermal", an "i"
     where the string has a "1": "Oat milk iL" in Liberation Mono; a bold "I" read "!" and joined to
     the word before it, "How do! add" for "How do I add"; ``_lookalike_spelling``):
     withheld, judge=ocr too.
     Tesseract reads them with high confidence, so confidence cannot tell the two apart; a
     string drawn with a look-alike typo is then withheld, never "yes".
  5c. the best read of the string differs from it only in spaces and in sentence marks at a
     word's end (``_spacing_or_marks``: "decision Smaller" for "decision. Smaller", a period
     tesseract drops at a line's end in 17 px Liberation Serif; "$ 5 2" for "$52", a 36 px bold
     price read a glyph a word): withheld, judge=ocr too (an eighth tester's pages).
  5d. the string is read exactly as two lines side by side on one row, the gap between them a
     word space (``_split_in_row``: tesseract's sparse mode split a monospaced title "Fennel &
     Fig Deli" at its wide space, a ninth tester's receipt): withheld, judge=ocr too.

  5f. the words of the best read that are not the string's were read unsure, in boxes off the
     rows of its words read with confidence ("Days a order to ens", "a" and "ens" at 47 and 19
     reaching into the tick labels over a chart's x-axis title; ``unsure_reads``): withheld,
     judge=ocr too. A word of the string dropped, or a differing word read on the line, stays "no".

  5e. a card asked by its name and its value ("Is the KPI card 'Price' showing 'EUR 1467'?"): the
     value is read and the name is not, nor anything close (``_card_unnamed``): the card the
     question names is not found (a spec sheet's price set large with no "Price" label on the
     page, a tenth tester's pages), so it was not read: withheld, judge=ocr too, as an anchor not
     read is. A name read as a near miss ("Prise") stays "no".

  7c. a callout annotation not read whole while a text box of the page holds ink no confident
     word covers (``unread_places.unread_callout``): withheld, judge=ocr too.

  6. the string read only in part (its best match ``MISSING`` characters or more shorter, and
     the string's start, or its end) while a line's height below (above) the part read holds
     ink across ``INK_SPAN`` of its width that no word read with confidence covers (a line of
     the paragraph or bullet tesseract did not read; a row inked across, a fill's edge or a
     rule, is no line): withheld, judge=ocr too: the rest of the string may be there, unread.
     A word dropped inside the string ("Start trial" for "Start free trial") stays "no".

  7. the best read is the string's start and the rest opens a column to its right, or nothing
     close is read of a short label (three words at most; a short value, ``SHORT``, whatever its
     near miss elsewhere: a waterfall's "-5" over its thin bar is not read, "-35" of the next bar
     is) and its place by a read anchor above or below holds unread ink (or there is no image to
     look): withheld, judge=ocr too (``unread_places``; an element rule: a string that opens a
     line whose rest is a value, "Amount due  EUR 5,900.00"); so is a short value asked of a
     table cell whose row and column labels are read, where the row crosses the column holds
     unread ink (``unread_cell``: a heatmap's "58", white on orange, not read). A value read with
     confidence in the place covers its ink: a wrong digit there stays "no".

Every other failure (region, count, arrangement, style) stands: the string was read with its box.

Confidences are tesseract's word confidences (``rewards.text.ocr.text_match.Word.conf``, 0-100);
a word with none (text an editor placed) counts as confident.
"""

from __future__ import annotations

import re

import numpy as np
from rapidfuzz.distance import OSA

from rewards.judges.unread_places import (
    continued_in_next_column,
    label_before_value,
    line_with,
    unread_callout,
    unread_cell,
    unread_place,
)
from rewards.judges.unsure_reads import unsure_off_rows
from rewards.text.ocr.slanted import slanted_runs
from rewards.text.ocr.text_match import LOOKALIKES, Line, find_matches, normalize, words_conf
from rewards.text.page.card_pairs import outside_cards
from rewards.text.page.page_lines import _Page
from rewards.text.page.text_style import measure

MIN_CONF = 80.0
"""Tesseract word confidence (0-100) a near miss or an element's words need for a "no"."""
NEAR = 0.5
"""Similarity (``Match.similarity``) from which the best OCR match is a near miss of the string."""
MISSING = 4
"""Characters a near miss may lack before rule 6 looks for a line of the string OCR did not read."""
INK_CONTRAST = 60
"""Grey levels from the read part's background (its median) from which a pixel is ink (rule 6)."""
INK_SPAN = 0.3
"""Share of the near miss's width that ink must span in the strip above or below it (rule 6)."""
PART_LIKE = 0.9
"""Similarity (OSA) from which the part read is the start or the end of the string (rule 6)."""
FILL_ROW = 0.9
"""A strip row inked over this share of its width is a fill's edge or a rule, not a line of text (rule 6)."""
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


_BANG_AS_I = str.maketrans({"!": "1"})
"""A bold "I" read as "!" (``_lookalike_spelling``), folded as "I" is (``LOOKALIKES``)."""
_LEAD_MARK = re.compile(r"^[^\w\s]{1,2}(?: |$)")


def _lookalike_spelling(read: str, text: str) -> bool:
    """True when OCR's ``read`` differs from ``text`` only in look-alike glyphs (o / O / 0, I / l /
    1 / |, S / 5, B / 8, rn / m, a leading bullet and any mark read for it): "object 01?" for
    "object o1?", "| found" for "I found", "¢ Thermal: ..." for "• Thermal: ...". Tesseract
    is sure of such a read (confidence 94 for "01?" in DejaVu Sans 14 px) while a person reads the
    string; the page cannot refute it."""
    fold = lambda t: _LEAD_MARK.sub("• ", normalize(t.translate(LOOKALIKES)).replace("rn", "m"))  # noqa: E731
    if normalize(read) == normalize(text):
        return False
    if fold(_one_read_as_i(read, text)) == fold(text):
        return True
    # a bold capital "I" alone between two words is read "!" and joined to the word before it
    # ("How do! add" for "How do I add", 17 px bold Liberation Sans; a tenth tester's FAQ)
    bang = lambda t: fold(t).translate(_BANG_AS_I).replace(" ", "")  # noqa: E731
    return "!" in read and "!" not in text and bang(read) == bang(text)


def _one_read_as_i(read: str, text: str) -> str:
    """``read`` with each "i" that stands where ``text`` has the digit "1" read as "1": Liberation
    Mono's "1" (a flag and a foot serif) is read "i" ("Oat milk iL" for "Oat milk 1L", confidence
    83; a ninth tester's receipt). Only at a "1" of the string asked: a letter "i" misspelt for an
    "l" stays a difference."""
    if len(read) != len(text):
        return read
    return "".join("1" if r == "i" and t == "1" else r for r, t in zip(read, text))


def _marks_apart(text: str, read: str, box, lines: list[Line]) -> bool:
    """True when OCR's ``read`` is ``text`` without its last characters, marks with no letter or
    digit (")", ".)"), and a word of just those marks stands right after ``box`` on its row,
    within half its height: "Hour of day (UTC" and a ")" read as a line of its own (Liberation
    Mono, a tester's dark chart). The string is drawn whole; the line was split."""
    text, read = normalize(text), normalize(read)
    tail = text[len(read) :]
    if not tail or not text.startswith(read) or any(c.isalnum() or c.isspace() for c in tail):
        return False
    h, mid = box[3] - box[1], (box[1] + box[3]) / 2
    return any(
        normalize(w.text) == tail and 0 <= w.box[0] - box[2] <= h / 2 and w.box[1] <= mid <= w.box[3]
        for ln in lines
        for w in ln.words
    )


_END_MARK = re.compile(r"[.,;:](?=\s|$)")


def _spacing_or_marks(read: str, text: str) -> bool:
    """True when OCR's ``read`` differs from ``text`` only in spaces and in ".,;:" at a word's end
    (not between digits: "$599" for "$5.99" is another value). A period tesseract drops at the end
    of a wrapped line, and glyphs of a wide bold price read one a word, leave the string as drawn."""
    fold = lambda t: "".join(_END_MARK.sub("", normalize(t)).split())  # noqa: E731
    return normalize(read) != normalize(text) and fold(read) == fold(text)


def _quoted_in(text: str, parts: list[str]) -> bool:
    """True when ``text`` is quoted in one of the VLM-only ``parts`` ("locator \"in the 'Tea' group\"")."""
    return any(f"'{text}'" in p or f'"{text}"' in p for p in parts)


def _doubt_relation(decision, vlm_parts: list[str], lines: list[Line]) -> str | None:
    """The anchor rules of :func:`doubt_no`."""
    missing = [
        t
        for a in decision.anchors
        if not a["found"]
        for t, boxes in ((a["text"], a.get("boxes")), (a.get("other"), a.get("other_boxes")))
        if t is not None and not boxes
    ]
    if missing:
        return f"anchor {missing[0]!r} not read: the element the question names is not found"
    failed = next((r for r in decision.records if r["rule"] == "anchor"), None)
    if failed is not None and _quoted_in(failed["text"], vlm_parts):
        return f"{failed['text']!r} belongs to a locator only a VLM can check"
    if failed is not None and (line := _variant_in_place(failed["text"], decision.anchors, lines)) is not None:
        why = "which differs only in spaces or look-alikes"
        return f"{failed['text']!r} read elsewhere; in its place OCR read {line!r}, {why}"
    return None


def _variant_in_place(text: str, anchors: list[dict], lines: list[Line]) -> str | None:
    """The text of a line in the place a read anchor gives (under or over it, overlapping its
    column) that reads ``text`` but for spaces, end marks or look-alike glyphs, or None. The
    string is read exactly elsewhere (a main column's heading "A new benefits portal") while the
    sidebar item under "In this issue" is read "Anew benefits portal": the relation failed on a
    misread, not on the page (a ninth tester's newsletter)."""
    for a in anchors:
        if not a["found"] or a.get("relation") not in ("above", "directly above", "below", "directly below"):
            continue
        for box in a.get("boxes") or []:
            for ln in lines:
                b = ln.box
                side = b[3] <= box[1] + 2 if "above" in a["relation"] else b[1] >= box[3] - 2
                if ln.angle or not side or min(b[2], box[2]) <= max(b[0], box[0]):
                    continue
                if _spacing_or_marks(ln.text, text) or _lookalike_spelling(ln.text, text):
                    return ln.text
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
    for r in decision.records:
        conf = _occurrence_conf(r, lines) if r["rule"] == "element" else 100.0
        if conf < MIN_CONF:
            return (
                f"{r['text']!r} is read with low OCR confidence ({conf:.0f}) where it stands: what opens it is unsure"
            )
    return next(
        (why for r in decision.records if r["rule"] == "element" and (why := label_before_value(r, lines))), None
    )


def _occurrence_conf(record: dict, lines: list[Line]) -> float:
    """The lowest confidence of the OCR words inside the box of ``record``'s occurrence (100 when
    none, or none given). A legend's swatch read as a quote mark glued to its entry ('"Wind' at
    confidence 0, the word's box over the swatch too: a ninth tester's area chart, re-read where
    an edit changed the row) hides the mark that makes the line an entry: the element rule's "no"
    rests on a read OCR was not sure of."""
    box = record.get("box")
    if not box:
        return 100.0
    confs = [
        w.conf
        for ln in lines
        for w in ln.words
        if w.conf is not None
        and box[0] <= w.box[0]
        and w.box[2] <= box[2]
        and box[1] <= w.box[1]
        and w.box[3] <= box[3]
    ]
    return min(confs, default=100.0)


def _bold_line(records: list[dict], lines: list[Line], image, role: str | None) -> str | None:
    """The element rule's doubt for a heading (``role`` "heading") whose string is read exactly as
    the whole text of one line, its words measured bold (``text_style.measure``), not set on a
    fill of about its height (a button's label is bold too)."""
    from rewards.text.ocr.fills import find_fills

    if role != "heading" or image is None:
        return None
    rgb, fills = None, [f.box for f in find_fills(image.convert("RGB"))]
    for r in records:
        if r["rule"] != "element" or normalize(r.get("ocr_text", "")) != normalize(r["text"]):
            continue
        for ln in lines:
            b, h = ln.box, ln.box[3] - ln.box[1]
            on_fill = any(
                f[0] <= b[0] and b[2] <= f[2] and f[1] <= b[1] and b[3] <= f[3] <= f[1] + 4 * h for f in fills
            )
            if ln.angle or on_fill or normalize(ln.text) != normalize(r["text"]):
                continue
            rgb = np.asarray(image.convert("RGB")) if rgb is None else rgb
            if measure(rgb, [(w.box, w.text) for w in ln.words]).weight == "bold":
                return f"{r['text']!r} is read as a bold line of its own: a heading the page structure did not type"
    return None


def _unread_ink(box, lines: list[Line], image, sides: tuple[bool, bool] = (True, True)) -> bool:
    """True when a line's height above or below the near miss's ``box`` holds ink across
    ``INK_SPAN`` of its width in columns no OCR word there covers (a word of a line's height, most
    of it in the strip, read with confidence ``MIN_CONF``): a line of the string's element that
    OCR did not read with confidence. ``sides``: (below, above) looked at."""
    gray = np.asarray(image.convert("L"), dtype=np.int16)
    x0, _, x1, _ = box
    words = _word_boxes(lines, box)  # a word's box may swallow the unread line under it: its top counts
    h = max(4, int(np.median([b[3] - b[1] for b in words])))
    y0, y1 = min(b[1] for b in words), max(b[1] for b in words) + h
    paper = np.median(gray[y0:y1, x0:x1])  # the read part's background
    for (top, bottom), side in zip(((y1 + h // 4, y1 + 2 * h), (y0 - 2 * h, y0 - h // 4)), sides):
        top, bottom = max(0, top), min(gray.shape[0], bottom)
        if not side or bottom - top < 2:
            continue
        strip = gray[top:bottom, x0:x1]
        ink = np.abs(strip - paper) > INK_CONTRAST
        ink = ink[ink.mean(axis=1) < FILL_ROW].any(axis=0)  # a row inked across is a fill's edge or a rule
        sure = (w.box for ln in lines for w in ln.words if w.conf is None or w.conf >= MIN_CONF)
        for b in sure:  # columns of words read there with confidence are read
            if b[3] - b[1] <= 1.5 * h and min(b[3], bottom) - max(b[1], top) > (b[3] - b[1]) / 2:
                ink[max(0, b[0] - x0) : max(0, b[2] - x0)] = False
        if ink.mean() >= INK_SPAN:
            return True
    return False


def _word_boxes(lines: list[Line], box) -> list:
    """The boxes of the OCR words inside ``box`` (at least ``box`` itself)."""
    inside = [
        w.box
        for ln in lines
        for w in ln.words
        if box[0] <= w.box[0] and w.box[2] <= box[2] and box[1] <= w.box[1] and w.box[3] <= box[3]
    ]
    return inside or [box]


def _like(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same text but for OCR's slips (``PART_LIKE``)."""
    return OSA.normalized_similarity(a, b) >= PART_LIKE


def _part_unread(records, lines: list[Line], image) -> str | None:
    """Rule 6: a string read only in part (its near miss shorter than it by ``MISSING`` characters
    or more, and its start or its end: a word dropped inside it is no unread line) whose element
    has a line OCR did not read below (above) the part read."""
    for r in records:
        if r["rule"] != "read" or not r["box"] or r["similarity"] < NEAR:
            continue
        text, read = normalize(r["text"]), normalize(r["ocr_text"])
        # the part read opens the string (the rest is on a line below) or ends it (above)
        sides = (_like(read, text[: len(read)]), _like(read, text[len(text) - len(read) :]))
        if len(text) - len(read) >= MISSING and any(sides) and _unread_ink(r["box"], lines, image, sides):
            return f"{r['text']!r} read only in part ({r['ocr_text']!r}); a line beside it holds ink OCR did not read"
    return None


def _split_in_row(text: str, lines: list[Line]) -> str | None:
    """The two lines, joined by " | ", that read ``text`` one after the other on one row (their
    middles within each other's height, the gap between them at most ``ROW_GAP`` of their heights,
    as ``tesseract_lines.split_columns`` keeps words of one line), or None. Tesseract's sparse mode
    split a monospaced title "Fennel & Fig Deli" at its wide word space into "Fennel & Fig" and
    "Deli" (a ninth tester's receipt): the string is on the page, read in two pieces."""
    target = normalize(text)
    for a in lines:
        for b in lines:
            if a is b or getattr(a, "angle", 0) or getattr(b, "angle", 0) or normalize(f"{a.text} {b.text}") != target:
                continue
            (_, ay0, ax1, ay1), (bx0, by0, _, by1) = a.box, b.box
            h = max(ay1 - ay0, by1 - by0, 1)
            same_row = ay0 <= (by0 + by1) / 2 <= ay1 and by0 <= (ay0 + ay1) / 2 <= by1
            if same_row and 0 <= bx0 - ax1 <= ROW_GAP * h:
                return f"{a.text!r} | {b.text!r}"
    return None


ROW_GAP = 1.5
"""Heights a gap between two lines of one row may span for them to be read as one (``_split_in_row``)."""


def _card_unnamed(records: list[dict], role: str | None) -> str | None:
    """Rule 5e: the name of a card asked with its value (the first of two or more strings of an
    element of ``role`` "card") not read, nor anything close, while every other string is read
    (wherever it stands: with no name read, no card is the one asked about)."""
    if role != "card" or len(records) < 2:
        return None
    name, rest = records[0], records[1:]
    if name["found"] or name["similarity"] >= NEAR or any(r["rule"] == "read" for r in rest):
        return None
    return f"the card's name {name['text']!r} not read, nor anything close: the card the question names is not found"


def _inside_longer_label(record: dict, lines: list[Line]) -> bool:
    """True when ``record``'s read (its box) lies in a line with other words that are no value
    (``label_before_value``): the string is read only as part of a longer label or phrase."""
    found = line_with(lines, record["box"])
    if found is None:
        return False
    ln, start, end = found
    return (start, end) != (0, len(ln.words)) and label_before_value(record, lines) is None


def _card_unframed(records: list[dict], role: str | None, lines: list[Line], image, size) -> str | None:
    """The element rule's doubt for a card (``role`` "card") whose name (the first string asked)
    is read, but in no card the finder frames (``card_pairs.outside_cards``), no card placed by
    its position: the card the question names, with its value, is not found, so it was not read
    either (a weather hero's "Wind  22 km/h" on a pill too faint to frame: the finder answered with
    a day card and refuted "Wind"). A value asked with it that is read nowhere keeps the "no"."""
    if role != "card" or not records or records[0]["rule"] != "element" or not records[0]["box"]:
        return None
    if any(r["rule"] == "read" for r in records[1:]):
        return None  # the value asked is read nowhere: no card shows it
    if _inside_longer_label(records[0], lines):
        return None  # "Cloud migration" read in the line "Cloud migration sprint": not a card's name
    if not outside_cards(tuple(records[0]["box"]), _Page.of(lines, image, size)):
        return None
    return f"{records[0]['text']!r} is read outside every card found: its own card and value are not found"


def doubt_no(
    decision,
    vlm_parts: list[str],
    lines: list[Line],
    size: tuple[int, int],
    vlm_follows: bool = False,
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
    image=None,
    role: str | None = None,
    locators: tuple[str, ...] = (),
    ordinal: int | None = None,
) -> str | None:
    """Why the failed ``decision`` (a ``grounding.TextDecision`` with ``holds`` False) is not a
    confident "no" (module rules), or None when the "no" stands.

    Args:
        vlm_parts: the parts of the question only a VLM can decide (``Check.spec.vlm_parts``).
        lines: the OCR lines the decision was made on; size: (width, height) pixels.
        vlm_follows: a VLM judge follows in the router: a string not read is never refuted
            while a VLM-only part is left, nor when nothing close to it was read.
        case_sensitive, lenient, max_lines: the judge's matching rules (``text_match``).
        image: the judged image (rule 6 looks for ink OCR did not read); None skips rule 6.
        role: the role of the element the question names (``ElementSpec.role``; rule 5e: "card").
        locators: the spec's locators (``TextSpec.locators``; rule 7c: a "callout").
        ordinal: the element's position (``ElementSpec.ordinal``): a card placed by it is found,
            and what it reads refutes a string read outside it (``_card_unframed`` does not apply).
    """
    if decision.rule == "anchor":
        return _doubt_relation(decision, vlm_parts, lines)
    if decision.rule == "element":
        return (
            _doubt_element(decision, vlm_parts, lines)
            or _bold_line(decision.records, lines, image, role)
            or (_card_unframed(decision.records, role, lines, image, size) if ordinal is None else None)
        )
    if decision.rule != "read":
        return None
    unread = _part_unread(decision.records, lines, image) if image is not None else None
    if unread is not None:
        return unread
    if (unnamed := _card_unnamed(decision.records, role)) is not None:
        return unnamed
    if any("callout" in p for p in locators) and (why := unread_callout(lines, image)):
        return why
    for r in decision.records:
        if r["rule"] != "read":
            continue
        if vlm_parts and vlm_follows:
            return f"{r['text']!r} not read; where it should be only a VLM can tell ({vlm_parts[0]})"
        placed = role is not None and any(p.startswith("locator") for p in vlm_parts)  # "the second column's header"
        if len(normalize(r["text"])) == 1 and (len(decision.records) > 1 or decision.anchors or placed):
            return f"{r['text']!r} not read: tesseract drops a lone glyph, so its absence is not seen"
        if r["ocr_text"] and r["box"] and _marks_apart(r["text"], r["ocr_text"], r["box"], lines):
            return f"{r['text']!r} not read whole; OCR read {r['ocr_text']!r} and its closing marks as a word apart"
        if r["ocr_text"] and _lookalike_spelling(r["ocr_text"], r["text"]):
            return f"{r['text']!r} not read; OCR read {r['ocr_text']!r}, which differs only in look-alike glyphs"
        if (row := _split_in_row(r["text"], lines)) is not None:
            return f"{r['text']!r} is read as two lines side by side on one row ({row}), split at a word space"
        if r["ocr_text"] and _spacing_or_marks(r["ocr_text"], r["text"]):
            return f"{r['text']!r} not read; OCR read {r['ocr_text']!r}, which differs only in spaces and end marks"
        if r["ocr_text"] and r["box"] and (why := unsure_off_rows(r["text"], r["ocr_text"], r["box"], lines)):
            return why
        sim, conf = _near_conf(r["text"], lines, size, case_sensitive, lenient, max_lines)
        if sim >= NEAR and vlm_parts and _short_value(r["text"]):
            return f"{r['text']!r} not read; a short near miss ({r['ocr_text']!r}) may be another element's"
        if vlm_follows and sim >= NEAR and conf < MIN_CONF:
            return f"{r['text']!r} not read; its near miss {r['ocr_text']!r} has low OCR confidence ({conf:.0f})"
        if sim < NEAR and vlm_follows:
            return f"{r['text']!r} not read, nor anything close: it may be unreadable rather than absent"
        if sim < NEAR and image is not None and (runs := slanted_runs(image, lines)):
            why = "on a page with slanted text OCR does not read"
            return f"{r['text']!r} not read, nor anything close, {why} (at {runs[0]})"
        if sim >= NEAR and (why := continued_in_next_column(r, lines, size)):
            return why
        unread = unread_place(decision, lines, image) or unread_cell(decision, lines, image)
        if (sim < NEAR or _short_value(r["text"])) and (why := unread):
            return why
    return None
