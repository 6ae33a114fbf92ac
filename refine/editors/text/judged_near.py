"""The judge's read of a near match, where the editor's page read is further from the string.

The OCR judge reads a crop again before its "no" (``evidence["reread"]``) and names the near
match it read (``evidence["expects"][i]``: its ``ocr_text``, ``box`` and ``similarity``). The
editor reads the whole page once, and may read the same words worse: tester8's y-axis label
"Tllinn" (a typo of "Tallinn", 0.86 alike) was "Tilinn" in the page read (0.71, under the
editor's ``min_similarity``), so the editor found no version to rewrite and skipped it as
missing. Where the judge's read of those very words is closer to the string, the editor's
words take the judge's text (their boxes stay the editor's).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from rapidfuzz.distance import OSA

from refine.interfaces import Failure
from rewards.text.ocr.text_match import Line, normalize


def _judged_reads(failures: Sequence[Failure]):
    """(expected text, OCR text, box) of every near match a "no" verdict's evidence names."""
    for _, v in failures:
        ev = v.evidence if isinstance(v.evidence, dict) else {}
        if v.answer != "no":
            continue
        for e in ev.get("expects") or []:
            if not isinstance(e, dict) or e.get("found") or not e.get("box") or not str(e.get("ocr_text", "")).strip():
                continue
            yield str(e.get("text", "")), str(e["ocr_text"]), tuple(int(c) for c in e["box"])


def _inside(box, wd) -> bool:
    """Whether the centre of word ``wd`` lies in ``box``."""
    cx, cy = (wd.box[0] + wd.box[2]) / 2, (wd.box[1] + wd.box[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def with_judged_near(lines: list[Line], failures: Sequence[Failure]) -> list[Line]:
    """``lines`` with the words of each near match the judge read (module docstring) given the
    judge's text, when they are the words of one line whose centres lie in its box, as many as
    the judge read, and the judge's text is closer to the expected string than theirs."""
    out = list(lines)
    for text, seen, box in _judged_reads(failures):
        hits = [(li, wi) for li, ln in enumerate(out) for wi, wd in enumerate(ln.words) if _inside(box, wd)]
        if not hits or len({li for li, _ in hits}) != 1 or len(hits) != len(seen.split()):
            continue
        li = hits[0][0]
        mine = " ".join(out[li].words[wi].text for _, wi in hits)
        want = normalize(text)
        if OSA.normalized_similarity(normalize(seen), want) <= OSA.normalized_similarity(normalize(mine), want):
            continue
        words = list(out[li].words)
        for (_, wi), t in zip(hits, seen.split()):
            words[wi] = replace(words[wi], text=t)
        out[li] = Line(tuple(words), out[li].angle)
    return out
