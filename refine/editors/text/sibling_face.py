"""The face of a line to rewrite, checked against its siblings' (issue 32).

A short label's own ink is little evidence: the bar chart's category label "Tallinn" (14 px,
regular among regular labels) matched Liberation Sans Bold by 0.67 and was rewritten bold. Its
siblings (lines of its height in its column, aligned on one edge, or on its row) are matched too;
when at least two of them agree on a face that is not the line's own, the line is matched again
in that face alone, and that face is taken when it reproduces the line's own ink within
``SIBLING_MARGIN`` of its best face's score. A line whose own ink is clearly another face (a bold
total under regular rows) keeps its own.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.type_match import TypeStyle, match_type
from rewards.text.ocr.text_match import Line

SIBLING_MARGIN = 0.04
"""Most score (1 - mean coverage difference) the siblings' face may lose to the line's own best."""
MAX_SIBLINGS = 4
"""Most sibling lines matched (the nearest)."""


def siblings(lines: list[Line], own: set[int], box) -> list[Line]:
    """The lines (not of ``own``, indices into ``lines``) of ``box``'s height (within 25%) that
    share its left, right or centre (3 px) or its row, nearest first, at most ``MAX_SIBLINGS``."""
    hgt = box[3] - box[1]
    mid = lambda b: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)  # noqa: E731
    (cx, cy) = mid(box)
    out = []
    for li, ln in enumerate(lines):
        b = ln.box
        if li in own or abs((b[3] - b[1]) - hgt) > 0.25 * hgt or sum(c.isalpha() for c in ln.text) < 2:
            continue
        column = abs(b[0] - box[0]) <= 3 or abs(b[2] - box[2]) <= 3 or abs(mid(b)[0] - cx) <= 3
        row = abs(mid(b)[1] - cy) <= hgt / 2
        if column or row:
            out.append(ln)
    return sorted(out, key=lambda ln: abs(mid(ln.box)[1] - cy) + abs(mid(ln.box)[0] - cx))[:MAX_SIBLINGS]


def with_siblings(arr: np.ndarray, lines: list[Line], own: set[int], box, text: str, words, style: TypeStyle, faces):
    """``style`` (the type matched on ``box``'s own ink, ``text`` and ``words`` as for
    ``match_type``), or the same line matched in the face its siblings agree on (module
    docstring)."""
    votes = Counter()
    for ln in siblings(lines, own, box):
        ink, bg = box_colours(arr, ln.box)
        found = match_type(arr, ln.box, ln.text, ink, bg, faces, [(wd.box, wd.text) for wd in ln.words])
        if found is not None:
            votes[found.face] += 1
    if not votes:
        return style
    face, n = votes.most_common(1)[0]
    if face == style.face or n < 2 or 2 * n <= sum(votes.values()):
        return style
    _, bg = box_colours(arr, box)
    again = match_type(arr, box, text, style.ink, bg, [face], words)
    return again if again is not None and again.score >= style.score - SIBLING_MARGIN else style
