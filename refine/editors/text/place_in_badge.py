"""Placing a missing string in an empty badge of its place, centred, in the page's badge type."""

from __future__ import annotations

import numpy as np

from refine.editors.text.colours import box_colours, sits_on
from refine.editors.text.erase import composite
from refine.editors.text.layout import SHRINK
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Written
from refine.editors.text.page import BodyType
from refine.editors.text.placement import anchored, empty_badges, inside, target_area
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle, match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word


def badge_type(arr: np.ndarray, lines: list[Line], fill, height: int, body_style: TypeStyle, rules: Rules):
    """(face, size px, ink) of text on fills of ``fill``'s colour (within 40 per channel) in
    lines at most 0.8x the badge's ``height`` (px; a title band's big type is not a badge's):
    the page's other badges, matched; else the body family's bold face at body size, white on
    a dark fill, near-black on a light one."""
    for ln in sorted(lines, key=lambda ln: -len(ln.text)):
        if sum(ch.isalnum() for ch in ln.text) < 2 or ln.box[3] - ln.box[1] > 0.8 * height:
            continue
        if not sits_on(arr, ln.box, fill):
            continue
        ink, bg = box_colours(arr, ln.box)
        st = match_type(arr, ln.box, ln.text, ink, bg, rules.faces, [(wd.box, wd.text) for wd in ln.words])
        if st is not None and st.score > 0.5:
            return st.face, st.size, st.ink
    face = next(
        (f for f in rules.faces if f.family == body_style.face.family and f.bold and not f.italic), body_style.face
    )
    lum = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]
    return face, body_style.size, (255, 255, 255) if lum < 128 else (25, 25, 25)


def _fitting_badge(arr: np.ndarray, lines: list[Line], exp: TextExpectation, body: BodyType, rules: Rules):
    """(fill share, badge box, font, face, ink) of the empty badge in ``exp``'s place whose
    inner width ``exp.text`` fills most (55-100%), or None."""
    area = target_area(exp, arr.shape[1], arr.shape[0])
    best = None
    for (x0, y0, x1, y1), fill in empty_badges(arr, page_background(arr)):
        if not inside((x0, y0, x1, y1), area):
            continue
        face, size, ink = badge_type(arr, lines, fill, y1 - y0, body.style, rules)
        pad = max(6, round(0.25 * (y1 - y0)))
        for shrink in SHRINK:
            fnt = face.font(size * shrink)
            tw = fnt.getlength(exp.text)
            if tw <= (x1 - x0) - 2 * pad:
                break
        fit = tw / max(1, (x1 - x0) - 2 * pad)
        if 0.55 <= fit <= 1.0 and (best is None or fit > best[0]):
            best = (fit, (x0, y0, x1, y1), fnt, face, ink)
    return best


def place_in_badge(state: EditState, exp: TextExpectation, body: BodyType, rules: Rules) -> Written | None:
    """Typeset ``exp.text`` centred in an empty badge of its place (``placement.empty_badges``)
    whose width fits it (the text fills 55-100% of the badge less its padding, at the type of
    the page's other badges, or bold body type in the colour that contrasts with the fill);
    None when the string is placed by an anchor or no empty badge fits."""
    if anchored(exp):
        return None
    best = _fitting_badge(state.arr, state.lines, exp, body, rules)
    if best is None:
        return None
    _, (x0, y0, x1, y1), fnt, face, ink = best
    alpha, (bx0, by0, bx1, by1) = render_coverage(exp.text, fnt)
    cap = -fnt.getbbox("H", anchor="ls")[1]  # cap height: the label's capitals sit centred in the badge
    base_y = (y0 + y1) / 2 + cap / 2
    ox, oy = int(round((x0 + x1) / 2 - (bx1 - bx0) / 2)), int(round(base_y + by0))
    composite(state.arr, alpha, (ox, oy), ink)
    box = (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0])
    info = {
        "family": face.family,
        "bold": face.bold,
        "italic": face.italic,
        "size": round(fnt.size, 2),
        "align": "centre",
        "lines": 1,
        "badge": [int(x0), int(y0), int(x1), int(y1)],
    }
    row = Line(tuple(Word(t, box) for t in exp.text.split()))
    return Written("place (in its empty badge)", box, [box, box], info, (row,))
