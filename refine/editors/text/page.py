"""Reading the page: its body type, and how tall a region of text on it may be."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from refine.editors.text.colours import box_colours, sits_on
from refine.editors.text.look_harder import page_background
from refine.editors.text.type_match import Face, TypeStyle, match_type
from rewards.text.ocr.text_match import Line


class BodyType(NamedTuple):
    """The page's body text: its type, the background it sits on (RGB) and its line pitch (px)."""

    style: TypeStyle
    bg: tuple[int, int, int]
    pitch: float


def _fallback_body(arr: np.ndarray, faces: list[Face]) -> BodyType:
    """Body type of a page without readable lines: the first face at 1/45 of the page height
    (at least 12 px), near-black on a light page, near-white on a dark one."""
    face = faces[0]
    size = max(12.0, arr.shape[0] / 45)
    bg = tuple(int(v) for v in np.median(arr.reshape(-1, 3), 0))
    ink = (25, 25, 25) if np.dot(bg, [0.299, 0.587, 0.114]) >= 128 else (250, 250, 250)
    return BodyType(TypeStyle(face, size, 0.0, 0.0, ink, 0.0), bg, round(size * 1.3))


def _body_lines(arr: np.ndarray, cands: list[Line]) -> list[Line]:
    """The (at most two) longest lines on the page's own background whose height is within 20%
    of the median line height; a line on a badge or a band only when the page has none."""
    med = float(np.median([ln.box[3] - ln.box[1] for ln in cands]))
    page = page_background(arr)

    def on_page(ln) -> bool:  # body text sits on the page, not on a badge or a band
        return sits_on(arr, ln.box, page)

    body = sorted(
        (ln for ln in cands if abs((ln.box[3] - ln.box[1]) - med) <= 0.2 * med),
        key=lambda ln: (not on_page(ln), -len(ln.text)),
    )[:2]
    if not body:  # a title and one body line: neither is near their median height; the page's own line is body
        body = sorted(cands, key=lambda ln: (not on_page(ln), abs((ln.box[3] - ln.box[1]) - med)))[:1]
    if len(body) == 2 and on_page(body[0]) and not on_page(body[1]):
        body = body[:1]  # a title on a band is not body text when the page has its own lines
    return body


def _line_type(arr: np.ndarray, ln: Line, faces: list[Face]):
    """(matched type or None, background colour) of one OCR line, word by word."""
    ink, bg = box_colours(arr, ln.box)
    return match_type(arr, ln.box, ln.text, ink, bg, faces, [(wd.box, wd.text) for wd in ln.words]), bg


def body_type(arr: np.ndarray, lines: list[Line], faces: list[Face]) -> BodyType:
    """The page's body type, read from ``arr`` (uint8 (H, W, 3)) and its OCR ``lines``.

    The two longest lines on the page's own background (not in a badge or a band) whose height
    is within 20% of the median line height (each line counts once, so a long title does not
    outweigh many short labels) give weight and size. The family is voted by the page's six
    longest lines, each weighing its letters and digits (the two body lines in full, the others
    half), so two-character labels ("01", "02") do not decide it alone: their digits look alike
    in every face, while the title's letters say serif. Pitch: 1.3 x the size, rounded.
    """
    cands = [ln for ln in lines if sum(ch.isalnum() for ch in ln.text) >= 2]
    if not cands:
        return _fallback_body(arr, faces)
    body = _body_lines(arr, cands)
    votes: dict[str, float] = {}
    for ln in sorted(cands, key=lambda ln: -sum(ch.isalnum() for ch in ln.text))[:6]:
        st, _ = _line_type(arr, ln, faces)
        if st is not None:
            weight = 1.0 if ln in body else 0.5
            votes[st.face.family] = votes.get(st.face.family, 0.0) + weight * sum(ch.isalnum() for ch in ln.text)
    family = max(votes, key=votes.get) if votes else None
    body_faces = [f for f in faces if f.family == family] or faces
    styles = []
    for ln in body:
        st, bg = _line_type(arr, ln, body_faces)
        if st is not None:
            styles.append((st, bg))
    if not styles:
        return _fallback_body(arr, faces)
    found = [st.face for st, _ in styles]
    face = max(set(found), key=found.count)
    st, bg = next((s, b) for s, b in styles if s.face == face)
    size = float(np.median([s.size for s, _ in styles]))
    return BodyType(TypeStyle(face, size, 0.0, 0.0, st.ink, st.score), bg, round(size * 1.3))


def max_text_height(lines: list[Line], h: int) -> int:
    """Tallest region the harder read looks at (a badge, a title band): 5x the median OCR line
    height, at least 100 px (a sixth of the page height ``h`` without lines)."""
    heights = sorted(ln.box[3] - ln.box[1] for ln in lines)
    return int(max(100, 5 * heights[len(heights) // 2])) if heights else max(100, h // 6)
