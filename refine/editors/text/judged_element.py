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

from typing import Sequence

from refine.interfaces import Failure


def judged_boxes(failures: Sequence[Failure], strings: list, element_boxes: dict) -> dict:
    """``element_boxes`` (expectation -> boxes or None) with, for each ``(expectation, check id)``
    of ``strings`` whose check's verdict read a positional element (``evidence["element_read"]``),
    that element's box ``(x0, y0, x1, y1)`` (pixels) as its only box; the others as they were."""
    read = {c.id: v.evidence.get("element_read") for c, v in failures if isinstance(v.evidence, dict)}
    out = dict(element_boxes)
    for exp, cid in strings:
        el = read.get(cid)
        if el and el.get("box"):
            out[exp] = [tuple(int(v) for v in el["box"])]
    return out
