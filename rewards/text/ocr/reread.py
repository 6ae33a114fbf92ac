"""The incremental re-read of the OCR read (``rewards.text.ocr.ocr_read``): a page an editor changed in a
few places is read again only in the changed boxes grown to the whole earlier lines they touch
(:func:`changed_regions`); the fills and rotated columns with a changed pixel are read again, every
other line is the earlier read's (:func:`reread_page`).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from rewards.text.ocr.fills import FILL_PSM, _fill_groups, fill_tile, find_fills
from rewards.text.ocr.ocr_read import PageRead, ReadSettings, _finish, _reused, _upsampled, fill_regions
from rewards.text.ocr.tesseract_lines import (
    _mosaic,
    _mostly_inside,
    _page_lines,
    _ReadLine,
    _tesseract,
    _tesseract_pages,
)
from rewards.text.ocr.text_match import boxes_meet, union_box

REGION_PAD = 6
"""Pixels of margin around a changed box and around the lines a region takes in."""

REGION_REACH = 24
"""Pixels: at most this far beyond its margin a region's side moves to reach a row or column without
a sharp edge (so that no mark the earlier read missed is cut in two)."""

REGION_CONTEXT = 64
"""Pixels of page around a region on a fill that its crop also holds (read there, then dropped):
tesseract binarises by the whole image it is given, and a badge cut out alone read differently
(an empty badge filled with "Finance": the page read "(Sem |" over it, the badge alone nothing,
so the fill pass's "Finance" won). Regions elsewhere gave the whole read's lines without it, and
context there changed a chart's "6.5" into "-6.5" (bundled example, item 381)."""

CROP_MARGIN = 16
"""Pixels of the upsampled page: the quiet border (the crop's own edge colour) each region's crop
gets before it is read. tesseract loses letters at a crop's edge: a title cut 12 px from its
"F" read "UN FACT ABOUT", with this border "FUN FACT ABOUT" (as the whole page reads it)."""

MAX_REGION_SHARE = 0.35
"""An edited page is read again whole when its regions (changed boxes grown to whole lines) cover
more than this share of its area: a diffusers editor repaints every pixel (share 1.0); the text
editor's edits on the bundled example covered at most about 0.1 (README, "Interactive speed")."""


def reread_page(rgb: Image.Image, old: PageRead, changed: np.ndarray, settings: ReadSettings) -> PageRead | None:
    """Read ``rgb`` again where it differs from the page ``old`` was read from, keep the rest.

    The changed pixels' boxes (``changed_regions``: grown to every earlier page-pass line they
    touch, with a margin) are cut out of the upsampled page (the pixels a full read sees) and
    read with both page passes (as pages of one tesseract process per pass with the command); the
    earlier lines of either pass that overlap a region are dropped, the region's lines take their
    place. Fills and rotated columns are found again on the whole page; those with the same
    outline as before and no changed pixel keep their earlier reading, the others are read (one
    mosaic, as in a full read).

    Args:
        rgb: the edited page, RGB, the size of ``old``'s page.
        old: the read of the earlier page, with the same ``settings``.
        changed: bool (H, W), True where ``rgb`` differs from the earlier page.

    Returns:
        The read, or None when the regions cover more than ``MAX_REGION_SHARE`` of the page (the
        change is not local: read the page whole).

    Raises:
        OCRError: tesseract failed.
    """
    if changed.mean() > MAX_REGION_SHARE:  # the regions hold every changed pixel: no need to grow them
        return None
    gray = np.asarray(rgb.convert("L"))
    regions = changed_regions(changed, [r.line.box for r in (*old.first, *old.second)], gray)
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions) > MAX_REGION_SHARE * rgb.width * rgb.height:
        return None
    big, scale = _upsampled(rgb, settings.scale)
    # a region on a fill (badge, band) is read with REGION_CONTEXT pixels of page around it;
    # regions whose views overlap share one view (its text is read once)
    solid = [f.box for f in find_fills(rgb)] if settings.fills else []
    views = _merged_boxes(
        [_grown(r, REGION_CONTEXT if any(boxes_meet(r, f) for f in solid) else 0, rgb.size) for r in regions]
    )
    corners = [(int(np.floor(x0 * scale)), int(np.floor(y0 * scale))) for x0, y0, _, _ in views]
    crops = [
        _bordered(
            big.crop((left, top, min(big.width, int(np.ceil(x1 * scale))), min(big.height, int(np.ceil(y1 * scale)))))
        )
        for (left, top), (_, _, x1, y1) in zip(corners, views)
    ]
    corners = [(left - CROP_MARGIN, top - CROP_MARGIN) for left, top in corners]
    in_view = [next(k for k, v in enumerate(views) if _inside(r, v)) for r in regions]
    found, groups, tiles = [], [], []
    if settings.fills:
        found = fill_regions(rgb)
        groups = _reused(found, old.fills, old.fill_lines, changed)
        tiles = [fill_tile(gray, found[i]) for i, g in enumerate(groups) if g is None]
    # One read per page segmentation mode (the command's start-up costs ~0.2 s): the regions, and
    # the mosaic of the fills to read again, are pages of one multi-page read.
    mosaic, offsets = _mosaic([t for t, _ in tiles]) if tiles else (None, [])
    with_mosaic = mosaic is not None and settings.psm == FILL_PSM
    pages = _tesseract_pages(crops + ([Image.fromarray(mosaic)] if with_mosaic else []), settings.lang, settings.psm)
    read = [_page_lines(d, scale, *c) for d, c in zip(pages, corners)]
    first = _replace_regions(list(old.first), regions, [read[k] for k in in_view])
    second = list(old.second)
    if settings.second_psm is not None and settings.second_psm != settings.psm:
        read = [
            _page_lines(d, scale, *c)
            for d, c in zip(_tesseract_pages(crops, settings.lang, settings.second_psm), corners)
        ]
        second = _replace_regions(second, regions, [read[k] for k in in_view])
    if mosaic is not None:
        data = pages[-1] if with_mosaic else _tesseract(Image.fromarray(mosaic), settings.lang, FILL_PSM)
        todo = [i for i, g in enumerate(groups) if g is None]
        for i, g in zip(todo, _fill_groups(data, [found[i] for i in todo], tiles, offsets)):
            groups[i] = g
    return _finish(rgb, settings, first, second, old, changed, (found, groups))


def changed_regions(
    changed: np.ndarray, lines: list[tuple[int, int, int, int]], gray: np.ndarray
) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` (pixels, exclusive ends, disjoint) to read again after an edit.

    The changed pixels are cut into boxes (row runs with gaps under 8 px, then column runs with
    gaps under 16 px inside each); each box gets a ``REGION_PAD`` margin and takes in every
    earlier line box it overlaps (with a margin too), boxes that overlap merge, and each side
    moves out by at most ``REGION_REACH`` pixels to a row or column segment without a sharp
    edge (luminance step > 24 between neighbours); this repeats until no earlier line reaches
    into a box without lying wholly inside it.

    Args:
        changed: bool (H, W), True where the page changed.
        lines: the earlier read's line boxes.
        gray: uint8 (H, W) luminance of the new page.
    """
    h, w = changed.shape
    edges = np.zeros((h, w), bool)
    step = np.abs(np.diff(gray.astype(np.int16), axis=1)) > 24
    edges[:, 1:] |= step
    edges[:, :-1] |= step
    step = np.abs(np.diff(gray.astype(np.int16), axis=0)) > 24
    edges[1:] |= step
    edges[:-1] |= step

    def pad(b, m=REGION_PAD):
        return (max(0, b[0] - m), max(0, b[1] - m), min(w, b[2] + m), min(h, b[3] + m))

    boxes = [pad(b) for b in _runs_2d(changed)]
    for _ in range(8):
        boxes = _merged_boxes(boxes)
        for _ in range(64):  # take in the lines each box touches, then the lines those reach
            grown = _merged_boxes([union_box([b, *(pad(ln) for ln in lines if boxes_meet(ln, b))]) for b in boxes])
            if grown == boxes:
                break
            boxes = grown
        boxes = _merged_boxes([_to_quiet(b, edges) for b in boxes])
        if all(boxes_meet(ln, b) <= _inside(ln, b) for ln in lines for b in boxes):
            return boxes
    return boxes


def _runs(mask: np.ndarray, gap: int) -> list[tuple[int, int]]:
    idx = np.flatnonzero(mask)
    if not len(idx):
        return []
    parts = np.split(idx, np.flatnonzero(np.diff(idx) > gap) + 1)
    return [(int(q[0]), int(q[-1]) + 1) for q in parts]


def _runs_2d(changed: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes of the changed pixels: row runs (gaps under 8 px), then column runs inside each with
    gaps under 16 px or the row run's height, whichever is larger (the space between two words of
    a 40 px title is wider than 16 px, and a word read alone loses its line)."""
    out = []
    for y0, y1 in _runs(changed.any(axis=1), 8):
        for x0, x1 in _runs(changed[y0:y1].any(axis=0), max(16, y1 - y0)):
            ys = _runs(changed[y0:y1, x0:x1].any(axis=1), 8)
            out.append((x0, y0 + ys[0][0], x1, y0 + ys[-1][1]))
    return out


def _bordered(crop: Image.Image) -> Image.Image:
    """``crop`` inside a ``CROP_MARGIN`` border of its edge pixels' median colour (a quiet margin)."""
    arr = np.asarray(crop)
    ring = np.concatenate([arr[0], arr[-1], arr[:, 0], arr[:, -1]])
    fill = np.median(ring, axis=0).astype(np.uint8)
    out = np.empty((arr.shape[0] + 2 * CROP_MARGIN, arr.shape[1] + 2 * CROP_MARGIN, *arr.shape[2:]), np.uint8)
    out[:] = fill
    out[CROP_MARGIN:-CROP_MARGIN, CROP_MARGIN:-CROP_MARGIN] = arr
    return Image.fromarray(out, crop.mode)


def _grown(box, m: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    return (max(0, box[0] - m), max(0, box[1] - m), min(size[0], box[2] + m), min(size[1], box[3] + m))


def _inside(a, b) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _merged_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``boxes`` with every group that overlaps joined into its union box (sorted)."""
    boxes = list(boxes)
    while True:
        for i in range(len(boxes)):
            j = next((j for j in range(i + 1, len(boxes)) if boxes_meet(boxes[i], boxes[j])), None)
            if j is not None:
                boxes[i] = union_box([boxes[i], boxes.pop(j)])
                break
        else:
            return sorted(boxes)


def _to_quiet(box, edges: np.ndarray) -> tuple[int, int, int, int]:
    """``box`` with each side moved out (at most ``REGION_REACH`` px) to a row or column segment
    of ``edges`` without an edge; a side that finds none stays."""
    h, w = edges.shape
    x0, y0, x1, y1 = box
    top = next(
        (y for y in range(y0, max(-1, y0 - REGION_REACH - 1), -1) if y == 0 or not edges[y - 1, x0:x1].any()), y0
    )
    bottom = next((y for y in range(y1, min(h, y1 + REGION_REACH) + 1) if y == h or not edges[y, x0:x1].any()), y1)
    left = next(
        (x for x in range(x0, max(-1, x0 - REGION_REACH - 1), -1) if x == 0 or not edges[top:bottom, x - 1].any()), x0
    )
    right = next((x for x in range(x1, min(w, x1 + REGION_REACH) + 1) if x == w or not edges[top:bottom, x].any()), x1)
    return (left, top, right, bottom)


def _replace_regions(
    lines: list[_ReadLine], regions: list[tuple[int, int, int, int]], reads: list[list[_ReadLine]]
) -> list[_ReadLine]:
    """``lines`` without those that overlap a region, each region's read at the place of the first
    line it drops (else before the first line below it)."""
    for box, read in zip(regions, reads):
        read = [r for r in read if _mostly_inside(r.line.box, box)]  # not the context around it
        inside = [i for i, r in enumerate(lines) if boxes_meet(r.line.box, box)]
        at = inside[0] if inside else next((i for i, r in enumerate(lines) if r.line.box[1] >= box[3]), len(lines))
        kept = [r for i, r in enumerate(lines) if i not in set(inside)]
        at -= sum(i < at for i in inside)
        lines = kept[:at] + read + kept[at:]
    return lines
