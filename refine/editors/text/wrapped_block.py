"""Whether a near match that spans OCR lines is one wrapped block of text.

``find_matches`` joins consecutive lines of a column into one window, so a near match may take a
word of the line above its string: on a diverging bar chart the x tick "20" above the axis title
"agreement Net (percentage points)" (words swapped) made "20 agreement Net (percentage points)",
more similar to "Net agreement (percentage points)" (0.806) than the title line alone (0.758), and
the rewrite of both lines set the title over the tick labels. Lines an engine wrapped share an edge
(left, right or centre, as the block is aligned) and follow at the pitch of their type; a tick label
over a title does neither.
"""

from __future__ import annotations

from rewards.text.ocr.text_match import Line, Match

EDGE_TOL = 0.25
"""Most difference of the lines' shared edge, as a share of the line height (at least ``EDGE_PX``):
OCR boxes of one block's lines differ by a glyph's side bearing, a pixel or two."""
EDGE_PX = 3.0
"""Least edge tolerance, pixels."""
PITCH = (0.8, 2.5)
"""Least and most distance between two wrapped lines' centres, in line heights (the smaller
height for the least, the larger for the most): a line pitch is 1-2 times the type's height."""


def _aligned(values: list[float], tol: float) -> bool:
    return max(values) - min(values) <= tol


def wrapped(m: Match, lines: list[Line]) -> bool:
    """Whether the OCR lines ``m`` spans form a wrapped block: one line; or lines whose left
    edges (the first line's from its first matched word too: a list item's text after its
    number), right edges or centres agree within ``EDGE_TOL`` of a line height, each line at most
    2.5 and at least 0.8 line heights under the one before (``PITCH``). Rotated lines are taken
    as a block (their boxes are of the turned page)."""
    ids = list(dict.fromkeys(li for li, _ in m.words))
    if len(ids) < 2 or any(lines[li].angle for li in ids):
        return True
    boxes = [lines[li].box for li in ids]
    heights = [max(1, b[3] - b[1]) for b in boxes]
    for (a, b), ha, hb in zip(zip(boxes, boxes[1:]), heights, heights[1:]):
        pitch = (b[1] + b[3]) / 2 - (a[1] + a[3]) / 2
        if not PITCH[0] * min(ha, hb) <= pitch <= PITCH[1] * max(ha, hb):
            return False
    tol = max(EDGE_PX, EDGE_TOL * min(heights))
    first = lines[ids[0]].words[m.words[0][1]].box[0]
    lefts = [b[0] for b in boxes]
    return (
        _aligned(lefts, tol)
        or _aligned([first, *lefts[1:]], tol)
        or _aligned([b[2] for b in boxes], tol)
        or _aligned([(b[0] + b[2]) / 2 for b in boxes], tol)
    )


def block_matches(matches: list[Match], lines: list[Line]) -> list[Match]:
    """``matches`` without the near matches whose lines do not form a wrapped block (``wrapped``):
    the match within one of those lines, found in its own window, is the string's version there.
    Exact occurrences stay (the string is on the page, however it is laid out)."""
    return [m for m in matches if m.found or m.similarity == 1.0 or wrapped(m, lines)]
