"""A near miss whose differing words OCR was not sure of where they stand (issue 31, ``ocr_doubt``).

Tesseract's page pass read a chart's x-axis title "Days from order to doorstep" (Liberation Sans on
a tinted ``Solarize_Light2`` background, an eleventh tester's histogram) as "Days a order to ens":
"Days", "order" and "to" at confidence 96 on the title's rows, "a" (47) and "ens" (19) in boxes
reaching 20 px up into the tick labels over it. The read words the string does not have are no
glyphs of the title's line, so they refute nothing: withheld, judge=ocr too.

A misspelt word is read on its line (its box on the line's rows), often with high confidence, so
a typo drawn on the page keeps its "no"; so does a word dropped from the string ("Start trial" for
"Start free trial": nothing was read in its place).
"""

from __future__ import annotations

from difflib import SequenceMatcher
from statistics import median

from rewards.text.ocr.text_match import Line, Word, normalize

SURE = 80.0
"""Tesseract confidence (0-100) from which a word is read with confidence (``ocr_doubt.MIN_CONF``)."""
OFF_ROWS = 0.5
"""Share of the sure words' height by which an unsure word's box must reach past their rows."""


def _words_in(box, lines: list[Line]) -> list[Word]:
    """The words of ``lines`` whose boxes lie inside ``box``, in reading order of their lines."""
    return [
        w
        for ln in lines
        for w in ln.words
        if box[0] <= w.box[0] and w.box[2] <= box[2] and box[1] <= w.box[1] and w.box[3] <= box[3]
    ]


def unsure_off_rows(text: str, read: str, box, lines: list[Line]) -> str | None:
    """Why OCR's best read ``read`` (its box ``box``) does not refute the string ``text``, or None:
    every word of ``read`` that is not the string's is read under ``SURE`` confidence in a box
    that reaches past the rows of the words read with confidence by ``OFF_ROWS`` of their height,
    at least half the string's words are read with confidence, and no word of the string is
    dropped (each differing run of the string's words has a run of read words in its place)."""
    words = _words_in(box, lines)
    if [normalize(w.text) for w in words] != normalize(read).split():
        return None  # the read's words are not those inside its box: nothing to measure
    want = normalize(text).split()
    ops = SequenceMatcher(a=want, b=[normalize(w.text) for w in words], autojunk=False).get_opcodes()
    same = [w for tag, _, _, j0, j1 in ops if tag == "equal" for w in words[j0:j1]]
    sure = [w for w in same if w.conf is None or w.conf >= SURE]
    if 2 * len(sure) < len(want):
        return None
    top, bottom = median(w.box[1] for w in sure), median(w.box[3] for w in sure)
    reach = OFF_ROWS * (bottom - top)
    for tag, i0, i1, j0, j1 in ops:
        if tag == "equal":
            continue
        if j0 == j1:
            return None  # a word of the string dropped: nothing read in its place
        for w in words[j0:j1]:
            off = w.box[1] < top - reach or w.box[3] > bottom + reach
            if (w.conf is not None and w.conf >= SURE) or not off:
                return None
    unsure = [w.text for tag, _, _, j0, j1 in ops if tag != "equal" for w in words[j0:j1]]
    return (
        f"{text!r} not read; OCR read {read!r}, whose words {unsure} it was unsure of, in boxes off the rows"
        " of the words it read with confidence"
    )
