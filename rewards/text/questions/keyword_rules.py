"""The former importer's keyword rules for text questions, frozen (a deliberate copy of
``rewards.importers.text_expectations`` at commit fcbf093, before the question compiler).

Kept for two users: the bundled example's renderer (``refine/example/render.py``), whose images
were laid out with these rules and must stay reproducible, and ``rubricloop-judge-bench``,
which reports them as the baseline judge "ocr-keywords". New code uses
``rewards.text.questions.question_compiler``.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<![A-Za-z0-9])'(.+?)'(?![A-Za-z0-9])", re.S)
_LIST_GAP = re.compile(r"[\s,;:.]*(?:(?:and|or|then)[\s,;:.]*)?", re.I)
_KEYWORD = re.compile(r"\b(exact(?:ly)?|reads?|reading|includes?|contains?|label(?:ed|led)?|matches)\b", re.I)
_NOT_TEXT_ONLY = re.compile(
    r"\bexactly (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b|\bhow many\b|"
    r"\b(?:bold|italic|underlined?|colou?r(?:ed)?|font|size|larger|smaller|highlighted|"
    r"order|left to right|top to bottom|followed by|then|aligned|same|match the|each|every|all|"
    r"icon|symbol|arrow|pointing|logo)\b",
    re.I,
)


def layout_strings(question: str) -> list[tuple[str, str | None]]:
    """(string, half or None) pairs a text question asks for: the quoted strings after the first
    "exactly"/"read"/"label"/"include"/"contain", when the question has no count, style or order
    word and no other words between the quotes; the half is "top"/"bottom" when exactly one of
    those words occurs, else "left"/"right" likewise."""
    m = _KEYWORD.search(question)
    if m is None or _NOT_TEXT_ONLY.search(question):
        return []
    quotes = list(_QUOTED.finditer(question, m.end()))
    if not quotes:
        return []
    for a, b in zip(quotes, quotes[1:]):
        if not _LIST_GAP.fullmatch(question[a.end() : b.start()]):
            return []
    texts = [t.strip() for q in quotes if (t := next(g for g in q.groups() if g is not None)).strip()]
    words = set(re.findall(r"[a-z]+", question.lower()))
    vertical = [r for r in ("top", "bottom") if r in words]
    horizontal = [r for r in ("left", "right") if r in words]
    region = vertical[0] if len(vertical) == 1 else horizontal[0] if len(horizontal) == 1 else None
    return [(t, region) for t in texts]
