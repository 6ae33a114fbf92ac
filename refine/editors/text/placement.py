"""Where a missing string may go: free space, column edges, the check's place, badges.

A pixel is *busy* when something is drawn there: an edge (a luminance step > 12 between
neighbours, so smooth gradients are free but glyphs, rules and shapes are not) or an OCR'd word.
A string is placed only in a rectangle whose text box grown by a margin holds no busy pixel,
left-aligned to a column edge (the left edge shared by text lines in the area), topmost first.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
from scipy import ndimage

from rewards.text.ocr.text_match import Line, region_box

RELATION_AREAS = (
    "below",
    "directly_below",
    "above",
    "directly_above",
    "right_of",
    "left_of",
    "same_row",
    "same_column",
)


def busy_mask(arr: np.ndarray, lines: list[Line], grow: int = 2) -> np.ndarray:
    """bool (H, W): True where something is drawn (an edge, grown by ``grow`` px, or an OCR word)."""
    gray = arr.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    edge = np.zeros(gray.shape, bool)
    edge[:, 1:] |= np.abs(np.diff(gray, axis=1)) > 12
    edge[1:, :] |= np.abs(np.diff(gray, axis=0)) > 12
    busy = ndimage.binary_dilation(edge, iterations=grow) if grow else edge
    for line in lines:
        for wd in line.words:
            x0, y0, x1, y1 = wd.box
            busy[max(0, y0) : y1, max(0, x0) : x1] = True
    return busy


def is_free(busy: np.ndarray, box) -> bool:
    """True when ``box`` (x0, y0, x1, y1) lies inside the image and holds no busy pixel."""
    H, W = busy.shape
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    if x0 < 0 or y0 < 0 or x1 > W or y1 > H or x1 <= x0 or y1 <= y0:
        return False
    return not busy[y0:y1, x0:x1].any()


def topmost_free(
    busy: np.ndarray, x0: int, area, rw: int, rh: int, step: int = 2, from_bottom: bool = False
) -> int | None:
    """The smallest y (``from_bottom``: the largest) such that the rw x rh rectangle at (x0, y)
    inside ``area`` is free, or None."""
    ax0, ay0, ax1, ay1 = area
    if x0 < ax0 or x0 + rw > ax1 or ay1 - ay0 < rh or x0 < 0 or x0 + rw > busy.shape[1]:
        return None
    col = busy[ay0:ay1, x0 : x0 + rw].any(1).astype(np.int32)  # (rows,) any busy pixel in the row
    run = np.concatenate([[0], np.cumsum(col)])
    ys = np.arange(0, ay1 - ay0 - rh + 1, step)
    ok = (run[ys + rh] - run[ys]) == 0
    if not ok.any():
        return None
    return int(ay0 + (ys[np.flatnonzero(ok)[-1]] if from_bottom else ys[np.argmax(ok)]))


def column_edges(lines: list[Line], area, tol: int = 4) -> list[int]:
    """Left x of the text columns inside ``area``: left edges of lines of >= 4 letters or digits
    (fragments of a misread are not columns) within ``tol`` px clustered, most lines first
    (ties: leftmost first)."""
    ax0, ay0, ax1, ay1 = area
    lefts = sorted(
        ln.box[0]
        for ln in lines
        if ax0 <= ln.box[0] < ax1
        and ay0 <= (ln.box[1] + ln.box[3]) / 2 < ay1
        and sum(ch.isalnum() for ch in ln.text) >= 4
    )
    clusters: list[list[int]] = []
    for x in lefts:
        if clusters and x - clusters[-1][-1] <= tol:
            clusters[-1].append(x)
        else:
            clusters.append([x])
    clusters.sort(key=lambda c: (-len(c), c[0]))
    return [min(c) for c in clusters]


BADGE_MEMO = 8
"""Pages whose empty badges are remembered: an edit asks once per missing string (0.05 s a page)."""

_BADGES: OrderedDict[tuple, list] = OrderedDict()


def forget_badges() -> None:
    """Forget the remembered answers of ``empty_badges``."""
    _BADGES.clear()


def empty_badges(arr: np.ndarray, page_bg) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int]]]:
    """``_empty_badges``, remembered for the last :data:`BADGE_MEMO` pages (the same pixels give
    the same badges)."""
    key = (hashlib.blake2b(np.ascontiguousarray(arr).tobytes(), digest_size=16).digest(), arr.shape)
    key += (tuple(float(v) for v in page_bg),)
    found = _BADGES.get(key)
    if found is None:
        found = _BADGES[key] = _empty_badges(arr, page_bg)
        while len(_BADGES) > BADGE_MEMO:
            _BADGES.popitem(last=False)
    else:
        _BADGES.move_to_end(key)
    return list(found)


def _empty_badges(arr: np.ndarray, page_bg) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int]]]:
    """Empty badges: (box, fill colour) of flat fills (> 40 per channel from ``page_bg``) shaped
    like a label's background: 12..100 px high, at least 1.5x as wide as high and at most 60% of
    the page wide (not a band), filling >= 85% of their box (a rounded rectangle, not a disc),
    whose inside (less a fifth of the height all round) is flat: every pixel within 24 per
    channel of its median (no glyph; OCR's stray reads of an empty fill, a "(" over it, do not
    count)."""
    H, W = arr.shape[:2]
    fg = np.abs(arr.astype(np.int16) - np.asarray(page_bg, np.int16)[None, None]).max(2) > 40
    labels, _ = ndimage.label(fg)
    out = []
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is None:
            continue
        y0, y1, x0, x1 = sl[0].start, sl[0].stop, sl[1].start, sl[1].stop
        h, w = y1 - y0, x1 - x0
        if not 12 <= h <= 100 or w < 1.5 * h or w > 0.6 * W:
            continue
        if (labels[sl] == k).mean() < 0.85:
            continue
        m = max(3, h // 5)
        inside = arr[y0 + m : y1 - m, x0 + m : x1 - m].reshape(-1, 3).astype(np.int16)
        fill = np.median(inside, 0)
        if not len(inside) or np.abs(inside - fill).max() > 24:
            continue
        out.append(((x0, y0, x1, y1), tuple(int(v) for v in fill)))
    return out


def target_area(exp, width: int, height: int, anchor_box=None) -> tuple[int, int, int, int]:
    """The box a placed string's text must lie in: the check's region (``region_box``), cut to
    the side of the anchor's box its relation names; the whole page without either."""
    area = region_box(exp.region, width, height) if exp.region else (0, 0, width, height)
    relation = getattr(exp, "relation", None)
    if anchor_box is None or relation is None:
        return area
    x0, y0, x1, y1 = area
    a0, b0, a1, b1 = anchor_box
    side = {
        "below": (x0, max(y0, b1), x1, y1),
        "directly_below": (a0, max(y0, b1), x1, y1),
        "above": (x0, y0, x1, min(y1, b0)),
        "directly_above": (a0, y0, x1, min(y1, b0)),
        "right_of": (max(x0, a1), max(y0, b0 - (b1 - b0)), x1, min(y1, b1 + (b1 - b0))),
        "left_of": (x0, max(y0, b0 - (b1 - b0)), min(x1, a0), min(y1, b1 + (b1 - b0))),
        "same_row": (x0, max(y0, b0 - (b1 - b0)), x1, min(y1, b1 + (b1 - b0))),
        "same_column": (a0, y0, x1, y1),
    }.get(relation, area)
    return side if side[2] > side[0] and side[3] > side[1] else area


def area(box) -> int:
    """Area in pixels of ``box`` (x0, y0, x1, y1)."""
    return (box[2] - box[0]) * (box[3] - box[1])


def inside(box, outer) -> bool:
    """True when ``box`` lies within ``outer`` (both (x0, y0, x1, y1) pixels)."""
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def anchored(exp) -> bool:
    """True when the check places ``exp`` (a ``rewards.rubric.TextExpectation``) by an anchor
    (below it, in its row...), not just names the element with it (relation "context")."""
    return exp.anchor is not None and exp.relation in RELATION_AREAS


def where(exp) -> str:
    """The place a check names for its string, in words ("region top_left, same_row '02'")."""
    parts = ([f"region {exp.region}"] if exp.region else []) + (
        [f"{exp.relation} {exp.anchor!r}"] if exp.anchor else []
    )
    return ", ".join(parts) or "anywhere"


def fill_box(arr: np.ndarray, box, fill, tol: int = 24, max_grow: float = 3.0):
    """The box (x0, y0, x1, y1) of the flat fill of colour ``fill`` that holds the text ``box``
    (a badge), or None when that fill is not a badge: more than ``max_grow`` x the text's height
    or 60% of the page wide (a band, a panel)."""
    H, W = arr.shape[:2]
    th = box[3] - box[1]
    x0, y0 = max(0, box[0] - round(max_grow * th)), max(0, box[1] - round(max_grow * th))
    x1, y1 = min(W, box[2] + round(max_grow * th)), min(H, box[3] + round(max_grow * th))
    near = np.abs(arr[y0:y1, x0:x1].astype(np.int16) - np.asarray(fill, np.int16)).max(2) <= tol
    labels, _ = ndimage.label(near)
    ring = labels[max(0, box[1] - y0 - 2) : box[3] - y0 + 2, max(0, box[0] - x0 - 2) : box[2] - x0 + 2]
    ids = np.bincount(ring[ring > 0].ravel())
    if not len(ids) or ids.max() == 0:
        return None
    ys, xs = np.nonzero(labels == int(ids.argmax()))
    fx0, fy0, fx1, fy1 = x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1
    touches = fx0 == x0 > 0 or fy0 == y0 > 0 or fx1 == x1 < W or fy1 == y1 < H  # runs past the window: not a badge
    if touches or fx0 == 0 or fx1 == W or fx1 - fx0 > 0.6 * W or fy1 - fy0 > max_grow * th:
        return None
    return fx0, fy0, fx1, fy1
