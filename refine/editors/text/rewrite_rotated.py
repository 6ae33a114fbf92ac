"""Rewriting rotated text rotated: a y-axis title read bottom to top is rewritten bottom to top.

The region around the near match (its box grown by twice the text's height) is turned upright
(the turn that made OCR read it, ``Line.angle``: 90 = bottom to top, 270 = top to bottom), the
match is rewritten there by ``rewrite`` (the same erase, type match, size, anchor and alignment as
for level text), and the region is turned back and put in place. The boxes recorded are those of
the page. A match whose words were read at different angles is not rewritten.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.outcomes import Rewrite, Skip, Written
from refine.editors.text.rewrite import rewrite
from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, Word

Box = tuple[int, int, int, int]


def match_angle(target: Rewrite) -> int:
    """The angle (0, 90 or 270) the match's words were read at; -1 when its lines differ."""
    angles = {target.lines[li].angle for li, _ in target.match.words}
    return angles.pop() if len(angles) == 1 else -1


def to_upright(box: Box, angle: int, cw: int, ch: int) -> Box:
    """``box`` of a cw x ch region in the pixels of the region turned upright (``angle`` 90: turned
    clockwise; 270: counter-clockwise)."""
    x0, y0, x1, y1 = box
    return (ch - y1, x0, ch - y0, x1) if angle == 90 else (y0, cw - x1, y1, cw - x0)


def from_upright(box: Box, angle: int, cw: int, ch: int) -> Box:
    """The inverse of :func:`to_upright`."""
    x0, y0, x1, y1 = box
    return (y0, ch - x1, y1, ch - x0) if angle == 90 else (cw - y1, x0, cw - y0, x1)


def rewrite_rotated(state: EditState, target: Rewrite, exp: TextExpectation, rules: Rules) -> Skip | Written:
    """Rewrite the rotated near match ``target`` rotated (module docstring): Written "replace
    (rotated N)" with the page's boxes, or a Skip (saying why) when it cannot be."""
    angle = match_angle(target)
    if angle not in (90, 270):
        return Skip("skip: its words were read at different angles; not rewritten", target.match.box)
    m = target.match
    h, w = state.arr.shape[:2]
    across = m.box[2] - m.box[0]
    pad = 2 * across
    rx0, ry0, rx1, ry1 = max(0, m.box[0] - pad), max(0, m.box[1] - pad), min(w, m.box[2] + pad), min(h, m.box[3] + pad)
    cw, ch = rx1 - rx0, ry1 - ry0
    k = -1 if angle == 90 else 1  # np.rot90: k=-1 turns clockwise
    up = np.ascontiguousarray(np.rot90(state.arr[ry0:ry1, rx0:rx1], k))

    def local(b: Box) -> Box:
        return to_upright((b[0] - rx0, b[1] - ry0, b[2] - rx0, b[3] - ry0), angle, cw, ch)

    def page(b: Box) -> Box:
        x0, y0, x1, y1 = from_upright(tuple(b), angle, cw, ch)
        return (x0 + rx0, y0 + ry0, x1 + rx0, y1 + ry0)

    li = m.words[0][0]
    line = Line(tuple(Word(wd.text, local(wd.box)) for wd in target.lines[li].words), 0)
    sub = EditState.read(up, [line], {}, {})
    upright = Match(m.text, local(m.box), m.similarity, m.found, tuple((0, wi) for _, wi in m.words))
    out = rewrite(sub, Rewrite(upright, [line]), exp, rules)
    if not isinstance(out, Written):
        return out
    state.arr[ry0:ry1, rx0:rx1] = np.rot90(sub.arr, -k)
    lines = tuple(Line(tuple(Word(wd.text, page(wd.box)) for wd in ln.words), angle) for ln in out.lines)
    return Written(f"{out.action} (rotated {angle})", page(out.box), [page(b) for b in out.boxes],
                   out.info | {"angle": angle}, lines, out.was, m.words)  # fmt: skip
