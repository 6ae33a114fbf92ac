"""Failures the page cannot pin on the element the question names (issue 31, an eighth tester's pages).

``ocr_doubt.doubt_no`` withholds a "no" for these, judge=ocr too; each names a layout OCR's lines
do not describe, so the string may be drawn as asked:

- **a label with its value on one line** (``label_before_value``): the string is read exactly,
  but as the start of a line whose other words are a value ("Amount due  EUR 5,900.00": an
  invoice's total, label and amount in one row); the finders take the whole line as the
  element, so "the KPI card labeled 'Amount due'" read "only inside longer text" is no
  refutation: which words are the label, OCR cannot tell.
- **a paragraph continued in the next column** (``continued_in_next_column``): the string's best
  read is its start, and the rest is read at the top of a column right of it ("... to pay for
  itself by" at a column's foot, "2029." over the next column): CSS columns break a paragraph
  where the column ends, and OCR's lines run down one column.
- **nothing read at the element's place** (``unread_place``): a string placed by a read anchor
  ("the value label above the 'Q1 2024' bar") with nothing close read anywhere, while the
  anchor's column holds ink of a line's height no confident word covers (a white ggplot grid
  line through "48k": tesseract read nothing there). Without the image the place cannot be
  seen: withheld too. A place with no unread ink (the label not drawn) keeps the "no". Only for a
  short label (``LABEL_WORDS``): a list item or a line of text "under the 'Highlights' heading"
  has a whole column below its anchor for its place, where any word read with low confidence
  leaves unread ink, and a missing item was withheld.
- **a callout with text OCR did not read** (``unread_callout``): a callout annotation asked and
  not read whole, while a text box of the page (a flat fill the size of a line or two:
  ``fills.find_fills``) holds ink no confident word covers, as wide as a "1" or wider: a
  scatter's callout "Hazel plot 6" over the markers not read at all, "Alder plot 11" read
  "Alder plot 1" (a ninth tester's scatter: 7 false "no" on dev). The string may be that ink.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

import re

import numpy as np

from rewards.text.ocr.text_match import Line, find_matches, normalize

_VALUE_WORD = re.compile(r"^(?:[A-Z]{3}|[^\w\s]{1,2}|[^\s]*\d[^\s]*)$")
"""A word of a value: a currency code ("EUR"), a sign ("$", "-"), or anything with a digit."""
COLUMN_GAP = 2.0
"""Line heights of clear space over the first line of a column (``continued_in_next_column``)."""
INK_CONTRAST = 60
"""Grey levels off a row's paper (its median) from which a pixel is ink (``unread_place``)."""
FILL_ROW = 0.9
"""A row of the place inked over this share of its width is a bar, a rule or a grid line, not text."""
CONF = 80.0
"""Tesseract confidence from which a word read in the place covers its ink (``ocr_doubt.MIN_CONF``)."""
TEXT_ROWS = (0.5, 2.0)
"""Heights (times the anchor's) of a run of inked rows that may be a line of text."""
_VERTICAL = ("above", "directly above", "below", "directly below")
LABEL_WORDS = 3
"""Most words of a label ``unread_place`` looks for ("48k", "Q1 2024"): a value or tick label, not a
list item or a line of text."""


def line_with(lines: list[Line], box) -> tuple[Line, int, int] | None:
    """The horizontal line holding the words inside ``box``: (line, first word, last word + 1)."""
    for ln in lines:
        idx = [
            i
            for i, w in enumerate(ln.words)
            if box[0] - 1 <= w.box[0] and w.box[2] <= box[2] + 1 and box[1] - 1 <= w.box[1] and w.box[3] <= box[3] + 1
        ]
        if ln.angle == 0 and idx and idx == list(range(idx[0], idx[-1] + 1)):
            return ln, idx[0], idx[-1] + 1
    return None


def label_before_value(record: dict, lines: list[Line]) -> str | None:
    """Why an exact read that failed the element rule opens a line whose other words are a value
    (at least one with a digit; module docstring), or None."""
    if not record.get("box") or normalize(record.get("ocr_text", "")) != normalize(record["text"]):
        return None
    found = line_with(lines, record["box"])
    if found is None:
        return None
    ln, start, end = found
    rest = [w.text for w in ln.words[end:]]
    if (
        start > 0
        or not rest
        or not all(_VALUE_WORD.match(t) for t in rest)
        or not any(c.isdigit() for c in "".join(rest))
    ):
        return None
    return f"{record['text']!r} opens the line {ln.text!r}, whose rest is a value: a label and its value on one line"


def continued_in_next_column(record: dict, lines: list[Line], size) -> str | None:
    """Why a string whose best read is its start may go on at the top of a column to the right of
    it (module docstring), or None."""
    text, read, box = normalize(record["text"]), normalize(record.get("ocr_text", "")), record.get("box")
    if not box or not read or not text.startswith(read) or len(read) >= len(text):
        return None
    rest = text[len(read) :].strip()
    for m in find_matches(rest, lines, *size):
        li, wi = m.words[0]
        head = lines[li]
        if not m.found or wi != 0 or m.box[0] < box[2] or m.box[1] >= box[3]:
            continue
        h = max(1, head.box[3] - head.box[1])
        over = [
            ln.box[3]
            for ln in lines
            if ln.box[3] <= head.box[1] and ln.box[0] < head.box[2] and head.box[0] < ln.box[2]
        ]
        if not over or head.box[1] - max(over) >= COLUMN_GAP * h:
            return (
                f"{record['text']!r} read up to {record['ocr_text']!r}; the rest, {rest!r}, opens a column to its right"
            )
    return None


def unread_place(decision, lines: list[Line], image) -> str | None:
    """Why a short label (``LABEL_WORDS``) placed by a read anchor above or below it, with nothing
    close read, may stand unread in its place (module docstring), or None."""
    anchors = [a for a in decision.anchors if a["relation"] in _VERTICAL and a["found"] and a.get("boxes")]
    if not anchors or len(anchors) != len(decision.anchors):
        return None
    unread = [r["text"] for r in decision.records if r["rule"] == "read"]
    if not unread or any(len(normalize(t).split()) > LABEL_WORDS for t in unread):
        return None
    if image is None:
        return f"{anchors[0]['text']!r} read, the string nowhere, and no image to see its place"
    gray = np.asarray(image.convert("L"), dtype=np.int16)
    for a in anchors:
        for box in a["boxes"]:
            if _unread_line(gray, box, "above" in a["relation"], lines):
                return f"the place {a['relation']} {a['text']!r} holds a line of ink OCR did not read"
    return None


def unread_cell(decision, lines: list[Line], image) -> str | None:
    """Why a short value asked of a table cell ("In the 'Thursday' row, does the '10 am' cell read
    '58'?": a ``same_row`` and a ``context`` anchor, both read), not read, may stand unread where the
    row label's row crosses the column label's column: that place holds ink of a line's height no
    confident word covers (a heatmap's "58", white on orange, not read at all), or None. A value
    read with confidence there (a wrong digit) covers its ink: the "no" stands."""
    rel = {a["relation"]: a for a in decision.anchors if a["found"] and a.get("boxes")}
    if len(decision.anchors) != 2 or set(rel) != {"same_row", "context"} or image is None:
        return None
    unread = [r["text"] for r in decision.records if r["rule"] == "read"]
    if not unread or any(len(normalize(t).split()) > LABEL_WORDS for t in unread):
        return None
    gray = np.asarray(image.convert("L"), dtype=np.int16)
    for row in rel["same_row"]["boxes"]:
        for col in rel["context"]["boxes"]:
            h = max(4, row[3] - row[1])
            band = (col[0], row[1] - h // 2, col[2], row[3] + h // 2)  # the crossing, a half line either way
            if col[0] > row[2] and _unread_line(gray, band, False, lines, inside=True):
                row_text, col_text = rel["same_row"]["text"], rel["context"]["text"]
                return f"the {row_text!r} row's cell under {col_text!r} holds ink OCR did not read"
    return None


def _unread_line(gray: np.ndarray, anchor, above: bool, lines: list[Line], inside: bool = False) -> bool:
    """True when the anchor's column, over (``above``) or under it, holds a run of inked rows of a
    line's height (``TEXT_ROWS``) in columns no confident word there covers; rows inked across
    (``FILL_ROW``: a bar, a grid line) are no text."""
    x0, y0, x1, y1 = (int(v) for v in anchor)
    h = max(4, y1 - y0)
    top, bottom = (0, y0 - h // 2) if above else (y1 + h // 2, gray.shape[0])
    if inside:  # the place is ``anchor`` itself (``unread_cell``), a line's height is a third of it
        top, bottom, h = max(0, y0), min(gray.shape[0], y1), max(4, (y1 - y0) // 2)
    if bottom - top < h:
        return False
    strip = gray[top:bottom, x0:x1]
    ink = np.abs(strip - np.median(strip, axis=1, keepdims=True)) > INK_CONTRAST  # each row's paper: a bar's fill too
    across = ink.mean(axis=1) >= FILL_ROW
    for ln in lines:
        for w in ln.words:
            b = w.box
            if (w.conf is None or w.conf >= CONF) and b[3] - b[1] <= 3 * h and b[2] > x0 and b[0] < x1:
                ink[max(0, b[1] - top) : max(0, b[3] - top), max(0, b[0] - x0) : max(0, b[2] - x0)] = False
    texty = ink.any(axis=1) & ~across
    run = 0
    for r in [*texty, False]:
        if r:
            run += 1
            continue
        if TEXT_ROWS[0] * h <= run <= TEXT_ROWS[1] * h:
            return True
        run = 0
    return False


TEXT_BOX_LINES = 4
"""Most text heights a fill may be high to be a text box (a callout, a tag: ``unread_callout``)."""


def unread_callout(lines: list[Line], image) -> str | None:
    """Why a callout string not read whole is not refuted: a text box of ``image`` (a fill at most
    ``TEXT_BOX_LINES`` of its text's heights high, twice as wide as high) holding ink in columns
    that no word read with confidence ``CONF`` covers, a quarter of its text height wide or more (a
    "1"); else None."""
    from rewards.text.ocr.fills import find_fills

    if image is None:
        return None
    sure = [w.box for ln in lines for w in ln.words if w.conf is None or w.conf >= CONF]
    for f in find_fills(image.convert("RGB")):
        x0, y0, x1, y1 = f.box
        th = max(1.0, f.text_height)
        if not (y1 - y0 <= TEXT_BOX_LINES * th and x1 - x0 >= 2 * (y1 - y0)):
            continue
        ink = (f.shape & ~f.fill)[2:-2, 2:-2].any(axis=0)  # the outline's rim is no text
        for b in sure:
            if min(b[3], y1) > max(b[1], y0):
                ink[max(0, b[0] - x0 - 2) : max(0, b[2] - x0 - 2)] = False
        if ink.sum() >= th / 4:
            return f"a text box at {list(f.box)} holds ink OCR did not read with confidence: the callout may be there"
    return None
