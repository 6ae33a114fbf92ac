"""The rectangles of a page: a border or the edge of a filled panel found on all four sides of a
line (:func:`enclosing_box`), the cards, tiles, buttons and bands a finder
(``rewards.text.page.finders``) frames lines with, and the groups of like rectangles.
"""

from __future__ import annotations

import numpy as np

from rewards.text.page.page_lines import MAX_PAGE_SHARE, Box, Element, _inside, _ordered, _Page

CARD_LIKE = 0.2
"""Rectangles whose widths and heights differ by at most this share are cards of one kind."""

FAINT_BORDER = 20.0
"""Luminance contrast of the second look for a line's rectangle, when none is found at
``enclosing_box``'s 40: a card's light grey border (#ddd on white, Chromium dashboards)."""
PALE_FILL = 8.0
"""Luminance contrast of the card finder's third look (``card_rectangles``): a pastel panel with no
border, 11-14 levels off white (#edf6f9, #fdf0d5: a ninth tester's comparison slide)."""


# ---------------------------------------------------------------- enclosing rectangles


def _ink_around(gray: np.ndarray, box: Box, pad: int, min_contrast: float) -> np.ndarray | None:
    """The ink mask (bool (H, W)) of ``gray``: pixels whose luminance differs by more than
    ``min_contrast`` from the text's background, the median of a ``pad``-pixel ring around
    ``box``; None when the ring is empty (the box lies outside the image)."""
    h, w = gray.shape
    x0, y0, x1, y1 = box
    ring = np.concatenate(
        [
            gray[max(0, y0 - pad) : y0, max(0, x0) : x1].ravel(),
            gray[y1 : min(h, y1 + pad), max(0, x0) : x1].ravel(),
            gray[max(0, y0) : y1, max(0, x0 - pad) : x0].ravel(),
            gray[max(0, y0) : y1, x1 : min(w, x1 + pad)].ravel(),
        ]
    )
    if ring.size == 0:
        return None
    return np.abs(gray.astype(np.float64) - float(np.median(ring))) > min_contrast


def _run_starts(line: np.ndarray, start: int, step: int) -> list[int]:
    """Positions where an ink run starts along ``line`` (bool), walking from ``start`` by ``step``
    (+1 or -1)."""
    seq = line[start::step] if step > 0 else line[start::-1] if start >= 0 else line[:0]
    starts = np.nonzero(seq & ~np.concatenate([[False], seq[:-1]]))[0]
    return [start + step * int(k) for k in starts]


def _shared_edge(scans: list[list[int]], covered, start: int) -> int | None:
    """The candidate position nearest ``start`` that at least 3 probe scans share (within 3 px)
    and that ``covered(position)`` accepts, or None."""
    for pos in sorted({p for sc in scans for p in sc}, key=lambda p: abs(p - start)):  # nearest the text first
        if sum(any(abs(p - pos) <= 3 for p in sc) for sc in scans) >= 3 and covered(pos):
            return pos
    return None


def _row_covered(ink: np.ndarray, y: int, lo: int, hi: int, min_coverage: float) -> bool:
    """True when one of the rows ``y - 1 .. y + 1`` is ink along ``min_coverage`` of columns ``lo .. hi``."""
    h = ink.shape[0]
    return any(ink[t, lo : hi + 1].mean() >= min_coverage for t in range(max(0, y - 1), min(h, y + 2)) if hi > lo)


def _col_covered(ink: np.ndarray, x: int, lo: int, hi: int, min_coverage: float) -> bool:
    """True when one of the columns ``x - 1 .. x + 1`` is ink along ``min_coverage`` of rows ``lo .. hi``."""
    w = ink.shape[1]
    return any(ink[lo : hi + 1, t].mean() >= min_coverage for t in range(max(0, x - 1), min(w, x + 2)) if hi > lo)


def enclosing_box(
    gray: np.ndarray, box: Box, min_contrast: float = 40.0, probes: int = 7, min_coverage: float = 0.5
) -> Box | None:
    """A rectangle enclosing ``box`` in ``gray`` (uint8 or float (H, W) luminance), or None.

    A pixel is *ink* when its luminance differs from the text's background (the median of a
    3-pixel ring around ``box``) by more than ``min_contrast``. From the text box outwards, along
    ``probes`` rows (for the left and right sides) and columns (top and bottom), every start of
    an ink run is a candidate edge. A side is the nearest candidate that at least 3 probes share
    (within 3 px) and whose line is ink along at least ``min_coverage`` of the box's extent on
    that side: a solid or dashed border, or the edge of a filled panel, and not the aligned feet
    of another line of text. All four sides must be found.

    Returns:
        ``(x0, y0, x1, y1)``: pixel positions of the four sides (of a border: its pixels nearest
        the text; of a filled panel: the first pixels outside the fill), or None.
    """
    h, w = gray.shape
    x0, y0, x1, y1 = (int(v) for v in box)
    pad = 3
    ink = _ink_around(gray, (x0, y0, x1, y1), pad, min_contrast)
    if ink is None:
        return None
    rows = np.linspace(y0, max(y0, y1 - 1), probes).round().astype(int).clip(0, h - 1)
    cols = np.linspace(x0, max(x0, x1 - 1), probes).round().astype(int).clip(0, w - 1)
    a, b = max(0, x0 - pad), min(w, x1 + pad)  # the scans start just outside the text
    c, d = max(0, y0 - pad), min(h, y1 + pad)

    def rows_covered(y: int, lo: int, hi: int) -> bool:
        return _row_covered(ink, y, lo, hi, min_coverage)

    def cols_covered(x: int, lo: int, hi: int) -> bool:
        return _col_covered(ink, x, lo, hi, min_coverage)

    left = _shared_edge([_run_starts(ink[r], a - 1, -1) for r in rows], lambda x: cols_covered(x, y0, y1), a)
    right = _shared_edge([_run_starts(ink[r], b, 1) for r in rows], lambda x: cols_covered(x, y0, y1), b)
    if left is None or right is None:
        return None
    # top and bottom must cover the span between the sides: a text line above or below does not
    top = _shared_edge([_run_starts(ink[:, q], c - 1, -1) for q in cols], lambda y: rows_covered(y, left, right), c)
    bottom = _shared_edge([_run_starts(ink[:, q], d, 1) for q in cols], lambda y: rows_covered(y, left, right), d)
    if top is None or bottom is None:
        return None
    if not (
        rows_covered(top, left, right)
        and rows_covered(bottom, left, right)
        and cols_covered(left, top, bottom)
        and cols_covered(right, top, bottom)
    ):
        return None
    return (left, top, right, bottom)


def rectangles(page: _Page) -> list[Box]:
    """The distinct rectangles around the page's horizontal lines (``enclosing_box`` of each
    line, at ``FAINT_BORDER`` contrast when none is found at the default; two within 4 px on
    every side are one), smaller than ``MAX_PAGE_SHARE`` of the image, left to right then top to
    bottom."""
    if "rectangles" not in page.memo:
        page.memo["rectangles"] = _find_rectangles(page)
    return page.memo["rectangles"]


def _find_rectangles(page: _Page) -> list[Box]:
    gray = page.gray()
    if gray is None:
        return []
    w, h = page.size
    found: list[Box] = []
    for i in page.flat:
        # a light border (#ddd on a white card: 34 levels) is found at half the contrast
        r = enclosing_box(gray, page.lines[i].box) or enclosing_box(gray, page.lines[i].box, FAINT_BORDER)
        if r is not None and (r[2] - r[0]) * (r[3] - r[1]) <= MAX_PAGE_SHARE * w * h:
            found.append(r)
    found = _distinct(found)
    return [found[k] for k in _ordered(found)]


def card_rectangles(page: _Page) -> list[Box]:
    """``rectangles`` and, for the lines in none of them, a pastel panel around the line found at
    ``PALE_FILL`` contrast: the cards a card finder chooses from. Only cards look this far: at this
    contrast a table's striped row is a rectangle too, which the other finders must not frame
    lines with. Without it a comparison slide's two pale option panels were not found, its one
    dark bar was "the card", and each panel's label was refuted by the bar's text."""
    if "card_rectangles" not in page.memo:
        found = rectangles(page)
        gray = page.gray()
        pale = []
        if gray is not None:
            w, h = page.size
            for i in page.flat:
                box = page.lines[i].box
                if any(_inside(box, r) for r in found):
                    continue
                r = enclosing_box(gray, box, PALE_FILL)
                if r is not None and (r[2] - r[0]) * (r[3] - r[1]) <= MAX_PAGE_SHARE * w * h:
                    pale.append(r)
        both = _distinct(found + pale)
        page.memo["card_rectangles"] = [both[k] for k in _ordered(both)]
    return page.memo["card_rectangles"]


def _distinct(boxes: list[Box]) -> list[Box]:
    """``boxes`` without repeats: a box within 4 px on every side of an earlier one is that one."""
    out: list[Box] = []
    for b in boxes:
        if not any(all(abs(p - q) <= 4 for p, q in zip(b, o)) for o in out):
            out.append(b)
    return out


def _lines_in(page: _Page, frame: Box) -> list[int]:
    """The lines most of whose words (with letters or digits) have their centre in ``frame``
    (not the line's box: OCR adds the corner of a badge to its text as a word "L")."""
    out = []
    for i in page.flat:
        words = [w for w in page.lines[i].words if any(c.isalnum() for c in w.text)]
        if 2 * sum(_inside(w.box, frame) for w in words) > len(words):
            out.append(i)
    return out


def _framed(page: _Page, role: str, frame: Box) -> list[Element]:
    """The text of ``frame`` as elements: each line in it, each block of lines in it, and all
    of its text together (a card's "reads exactly" may mean any of them)."""
    inside = _lines_in(page, frame)
    blocks = dict.fromkeys(tuple(page.block(i)) for i in inside)
    groups = [[i] for i in inside] + [list(b) for b in blocks if len(b) > 1]
    groups = [[j for j in g if j in inside] for g in groups]
    if len(inside) > 1:
        groups.append(sorted(inside, key=lambda j: (page.lines[j].box[1], page.lines[j].box[0])))
    return page.elements(role, groups, frame)


def _like_groups(rects: list[Box]) -> list[list[Box]]:
    """``rects`` grouped into kinds: widths and heights within ``CARD_LIKE`` of the group's first."""
    groups: list[list[Box]] = []
    for r in rects:
        rw, rh = r[2] - r[0], r[3] - r[1]
        for g in groups:
            gw, gh = g[0][2] - g[0][0], g[0][3] - g[0][1]
            if abs(rw - gw) <= CARD_LIKE * max(rw, gw) and abs(rh - gh) <= CARD_LIKE * max(rh, gh):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups
