"""The fill pass of the OCR read (``rewards.text.ocr.ocr_read``): the page's flat colour fills that enclose
text (:func:`find_fills`, memoised per image), small text, each fill's tile binarised on its own,
the tiles read in one mosaic, and the fill lines merged into the page's lines.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
from PIL import Image
from scipy import ndimage

from rewards.text.ocr.tesseract_lines import (
    MAX_OCR_SIDE,
    Fill,
    _lines_with_keys,
    _mean_conf,
    _mosaic,
    _mostly_inside,
    _ReadLine,
    _tesseract,
    _words,
)
from rewards.text.ocr.text_match import Word, boxes_meet

SEGMENT_SIDE = 1024
"""Pixels: fills are found on a copy whose longer side is at most this (box-filter downsampling)."""

FILL_TEXT_HEIGHT = 32.0
"""Pixels: a fill is scaled so the median height of what it encloses (its text) becomes this."""

MAX_FILLS = 48
"""At most this many fills are read per image (smallest first: large ones the page pass reads)."""

SMALL_TEXT_HEIGHT = 11
"""Pixels: ink runs up to this high that the page passes did not read are re-read like fills."""

MIN_FILL_CONF = 50.0
"""Tesseract confidence (0-100) a fill line needs when it overlaps nothing the page pass read."""

FILL_PSM = 11
"""Tesseract page segmentation mode of the fill pass's mosaic (sparse text)."""


_FILLS_FOUND: OrderedDict[tuple, list[Fill]] = OrderedDict()
"""The last few pages' fills by (pixel digest, settings): the judge asks for the fills of one page
once per check (``rewards.text.page.elements``), and the read asks again (0.2-0.5 s each)."""


def forget_fills() -> None:
    """Forget the remembered fills of ``find_fills``."""
    _FILLS_FOUND.clear()


def find_fills(
    rgb: Image.Image, colors: int = 16, min_side: int = 10, min_solidity: float = 0.5, max_fills: int = MAX_FILLS
) -> list[Fill]:
    """``_find_fills``' solid fills, remembered for the last 8 pages (the same pixels give the same fills)."""
    return list(_fills_and_wedges(rgb, colors, min_side, min_solidity, max_fills)[0])


def find_wedges(rgb: Image.Image) -> list[Fill]:
    """``_find_fills``' shaped fills (pie wedges, donut segments: ``_is_wedge``), remembered as
    ``find_fills``. They are read like fills (``rewards.text.ocr.ocr_read.fill_regions``) but are
    not boxes of the page structure (``rewards.text.page``): a wedge is not a card."""
    return list(_fills_and_wedges(rgb)[1])


def _fills_and_wedges(rgb, colors=16, min_side=10, min_solidity=0.5, max_fills=MAX_FILLS):
    key = (hashlib.blake2b(rgb.tobytes(), digest_size=16).digest(), rgb.size, rgb.mode, colors, min_side, min_solidity)
    key += (max_fills,)
    found = _FILLS_FOUND.get(key)
    if found is None:
        found = _find_fills(rgb, colors, min_side, min_solidity, max_fills)
        _FILLS_FOUND[key] = found
        while len(_FILLS_FOUND) > 8:
            _FILLS_FOUND.popitem(last=False)
    return found


WEDGE_SOLIDITY = 0.2
"""Least share of its box a shaped fill (``_is_wedge``) covers: a donut's 38% segment covers 0.46,
a 7% pie wedge 0.3 (matplotlib, ``documents.engines``)."""

WEDGE_TEXT_SIDES = 4.0
"""A shaped fill's box is at least this many times its enclosed text's height on both sides, and
at least ``WEDGE_MIN_SIDE`` pixels: a letter's counter ("O", "A") is half its letter's height."""

WEDGE_MIN_SIDE = 40


def _is_wedge(h: int, w: int, solidity: float, holes: list[slice], f: float) -> bool:
    """A shaped fill: a component with a low solidity (``WEDGE_SOLIDITY`` to the solid fills'
    threshold) that is large beside its holes (``WEDGE_TEXT_SIDES``) and whose holes are together
    at least 1.5 times as wide as high (a word: "38%", whose anti-aliased glyphs may join into one
    hole; a letter's counter is about as wide as high). Sizes in pixels of the downsampled copy
    (``f``: its scale); ``holes``: the holes' slices."""
    heights = [s[0].stop - s[0].start for s in holes]
    text_h = float(np.median(heights))
    if solidity < WEDGE_SOLIDITY or sum(s[1].stop - s[1].start for s in holes) < 1.5 * text_h:
        return False
    return min(h, w) >= max(WEDGE_MIN_SIDE * f, WEDGE_TEXT_SIDES * text_h)


def _find_fills(
    rgb: Image.Image, colors: int = 16, min_side: int = 10, min_solidity: float = 0.5, max_fills: int = MAX_FILLS
) -> tuple[list[Fill], list[Fill]]:
    """Flat-coloured regions of ``rgb`` that enclose other pixels: badges, buttons, bands, boxes;
    and, apart, pie wedges and donut segments.

    The image (downsampled to ``SEGMENT_SIDE``) is reduced to a ``colors``-entry median-cut
    palette; every connected component (4-connectivity) of one palette colour, other than the
    most frequent colour (the page), whose box is at least ``min_side`` pixels (original scale)
    on both sides and that has holes, is a fill when it covers at least ``min_solidity`` of its box
    (letters with counters such as "A" cover ~0.3), else a wedge when ``_is_wedge`` says so (a
    wedge's box is mostly outside it). The holes' median height is its text height.

    Returns:
        (fills, wedges): at most ``max_fills`` of each, smallest area first.
    """
    f = min(1.0, SEGMENT_SIDE / max(rgb.size))
    small = (
        rgb
        if f == 1.0
        else rgb.resize((max(1, round(rgb.width * f)), max(1, round(rgb.height * f))), Image.Resampling.BOX)
    )
    index = np.asarray(small.quantize(colors=colors, method=Image.Quantize.MEDIANCUT))
    counts = np.bincount(index.ravel(), minlength=colors)
    page = int(counts.argmax())
    min_px = max(2, int(min_side * f))
    found: tuple[list, list] = ([], [])
    for c in np.flatnonzero(counts):
        if c == page:
            continue
        labels, _ = ndimage.label(index == c)
        for k, sl in enumerate(ndimage.find_objects(labels), start=1):
            h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
            if h < min_px or w < min_px:
                continue
            comp = labels[sl] == k
            solidity = comp.sum() / (h * w)
            if solidity < min(min_solidity, WEDGE_SOLIDITY):
                continue
            shape = ndimage.binary_fill_holes(comp)
            holes, n_holes = ndimage.label(shape & ~comp)
            if n_holes == 0:
                continue
            slices = ndimage.find_objects(holes)
            heights = [s[0].stop - s[0].start for s in slices]
            kind = 0 if solidity >= min_solidity else 1 if _is_wedge(h, w, solidity, slices, f) else None
            if kind is not None:
                found[kind].append((h * w, sl, comp, shape, float(np.median(heights)) / f))
    return _as_fills(found[0], rgb, f, max_fills), _as_fills(found[1], rgb, f, max_fills)


def _as_fills(found: list, rgb: Image.Image, f: float, max_fills: int) -> list[Fill]:
    """The ``max_fills`` smallest of ``found`` (area, slices, component, shape, text height) as
    ``Fill``s in pixels of ``rgb`` (``f``: the downsampled copy's scale)."""
    found.sort(key=lambda t: t[0])
    fills = []
    for _, sl, comp, shape, text_h in found[:max_fills]:
        box = (
            int(sl[1].start / f),
            int(sl[0].start / f),
            min(rgb.width, int(np.ceil(sl[1].stop / f))),
            min(rgb.height, int(np.ceil(sl[0].stop / f))),
        )
        size = (box[2] - box[0], box[3] - box[1])
        fills.append(Fill(box, _resize_mask(shape, size), _resize_mask(comp, size), text_h))
    return fills


def find_small_text(
    rgb: Image.Image,
    known: list[tuple[int, int, int, int]],
    max_height: int = SMALL_TEXT_HEIGHT,
    contrast: int = 40,
    max_boxes: int = MAX_FILLS,
) -> list[Fill]:
    """Runs of small ink (text lines up to ``max_height`` pixels high) that overlap none of the
    ``known`` boxes (the fills): at the page passes' 2x, 7-8 px text is still too small for
    tesseract, so these are cut out and read at ``FILL_TEXT_HEIGHT``.

    Ink is every pixel whose luminance differs from the page's (the median) by more than
    ``contrast``; ink dilated by 1 px vertically and 6 px horizontally joins the words of a line
    into one component (so a word without ascenders is not taken for small text); components
    4..``max_height`` pixels high and at least 8 wide are kept, padded by 3 px. Images whose
    longer side exceeds ``MAX_OCR_SIDE / 4`` are skipped, to bound the cost (not measured there).

    Returns:
        At most ``max_boxes`` fills (``shape`` all True, ``fill`` = the non-ink pixels).
    """
    return _ink_runs(rgb, known, contrast, max_boxes, lambda h, w, region: 4 <= h <= max_height and w >= 8)


UNREAD_CONF = 70.0
"""Tesseract confidence (0-100) a line read in an unread run (``find_unread_text``) needs."""


def find_unread_text(
    rgb: Image.Image, known: list[tuple[int, int, int, int]], contrast: int = 40, max_boxes: int = MAX_FILLS
) -> list[Fill]:
    """Runs of ink that look like a line of text and that overlap none of the ``known`` boxes (the
    lines read so far): text whose colour tesseract's one global threshold put
    on the page's side (teal headings under a navy band: the band pulls the threshold below them).

    Ink as in ``find_small_text`` (luminance ``contrast`` off the median), its words joined by
    a 1 x 6 px dilation; a run is kept when it is 6-80 px high, at least 1.5 times as wide as high
    and 8 px wide, at most 80% of the image wide, inked on 10-70% of its box (not a bar, not a
    line), and holds at least two glyphs (undilated ink components: not a lone icon); padded by 3 px.

    Returns:
        At most ``max_boxes`` fills (``shape`` all True, ``fill`` = the non-ink pixels).
    """

    def looks_like_a_line(h: int, w: int, region: np.ndarray) -> bool:
        if not (6 <= h <= 80 and w >= max(8, 1.5 * h) and w <= 0.8 * rgb.width):
            return False
        return 0.1 <= region.mean() <= 0.7 and ndimage.label(region)[1] >= 2

    return _ink_runs(rgb, known, contrast, max_boxes, looks_like_a_line)


def _ink_runs(rgb: Image.Image, known, contrast: int, max_boxes: int, keep) -> list[Fill]:
    """The runs of ink of ``find_small_text`` and ``find_unread_text``: ink is every pixel whose
    luminance is more than ``contrast`` off the median, dilated 1 px vertically and 6 px
    horizontally into runs; a run (its undilated height ``h`` and width ``w``, and the ink of its
    box padded by 3 px) is kept when ``keep(h, w, region)`` holds and the padded box overlaps none
    of ``known``. Images whose longer side exceeds ``MAX_OCR_SIDE / 4`` give none."""
    if max(rgb.size) > MAX_OCR_SIDE // 4:
        return []
    gray = np.asarray(rgb.convert("L")).astype(np.int16)
    ink = np.abs(gray - int(np.median(gray))) > contrast
    labels, _ = ndimage.label(ndimage.binary_dilation(ink, structure=np.ones((3, 13), bool)))
    out = []
    for sl in ndimage.find_objects(labels):
        y0, y1, x0, x1 = sl[0].start + 1, sl[0].stop - 1, sl[1].start + 6, sl[1].stop - 6  # undo the dilation
        box = (max(0, x0 - 3), max(0, y0 - 3), min(rgb.width, x1 + 3), min(rgb.height, y1 + 3))
        region = ink[box[1] : box[3], box[0] : box[2]]
        if any(boxes_meet(box, k) for k in known) or not keep(y1 - y0, x1 - x0, region):
            continue
        out.append(Fill(box, np.ones_like(region), ~region, float(y1 - y0)))
        if len(out) >= max_boxes:
            break
    return out


def _resize_mask(mask: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    if mask.shape[::-1] == size:
        return mask
    return np.asarray(Image.fromarray(mask.astype(np.uint8) * 255).resize(size, Image.Resampling.NEAREST)) > 127


def otsu_threshold(values: np.ndarray) -> float:
    """Otsu's threshold (N. Otsu, IEEE Trans. SMC 9(1), 1979, Eq. 18: the level maximising the
    between-class variance) of uint8 ``values``; pixels > threshold form the upper class."""
    hist = np.bincount(values.ravel(), minlength=256).astype(float)
    p = hist / max(1.0, hist.sum())
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mu[-1] * omega - mu) ** 2 / (omega * (1 - omega))
    return float(np.nanargmax(np.nan_to_num(between, nan=-1.0)))


def fill_tile(gray: np.ndarray, fill: Fill, max_width: int = 4000) -> tuple[np.ndarray, float]:
    """One fill as black text on white, ready for tesseract.

    Args:
        gray: uint8 luminance of the whole image, shape (H, W).
        fill: the fill to cut out.

    Returns:
        (tile, s): uint8 array (h, w) in {0, 255} with a white margin of ``pad(s)`` pixels, and the
        scale ``s`` from original pixels to tile pixels (before the margin).
    """
    x0, y0, x1, y1 = fill.box
    crop = gray[y0:y1, x0:x1].astype(np.uint8).copy()
    level = float(np.median(crop[fill.fill])) if fill.fill.any() else float(np.median(crop))
    # Only the fill and what it encloses remain; a 2 px rim inside the outline (anti-aliased or
    # outlined edges, which would read as brackets) takes the fill's level too.
    crop[~ndimage.binary_erosion(fill.shape, iterations=2)] = round(level)
    s = float(np.clip(FILL_TEXT_HEIGHT / max(1.0, fill.text_height), 1.0, 4.0))
    s = min(s, max_width / max(1, crop.shape[1]))
    big = np.asarray(
        Image.fromarray(crop).resize(
            (max(1, round(crop.shape[1] * s)), max(1, round(crop.shape[0] * s))), Image.Resampling.LANCZOS
        )
    )
    t = otsu_threshold(big)
    other = big[(big > t) != (level > t)]  # the class the fill is not in: the text
    ink = float(np.median(other)) if other.size else 255.0 - level
    # Grey levels stretched so the fill is white and the text black (inverted when the text is
    # lighter): tesseract reads small text better from grey edges than from a binarised copy.
    tile = np.clip((big.astype(np.float32) - level) / (ink - level if ink != level else 1.0), 0, 1)
    tile = np.round(255 * (1 - tile)).astype(np.uint8)
    pad = _pad(s)
    return np.pad(tile, pad, constant_values=255), s


def _pad(s: float) -> int:
    return int(round(0.5 * FILL_TEXT_HEIGHT)) + 4


def read_fills(rgb: Image.Image, fills: list[Fill], lang: str = "eng", psm: int = FILL_PSM) -> list[_ReadLine]:
    """Read every fill in one tesseract call on a vertical mosaic of their tiles (``fill_tile``).

    Returns lines with boxes in pixels of ``rgb``, fill by fill; a word belongs to the tile its
    centre is in.

    Raises:
        OCRError: tesseract failed.
    """
    return [r for group in _read_fill_groups(rgb, fills, lang, psm) for r in group]


def _read_fill_groups(
    rgb: Image.Image, fills: list[Fill], lang: str = "eng", psm: int = FILL_PSM
) -> list[list[_ReadLine]]:
    """``read_fills``, the lines of each fill apart (one list per fill, in the order of ``fills``)."""
    gray = np.asarray(rgb.convert("L"))
    tiles = [fill_tile(gray, f) for f in fills]
    mosaic, offsets = _mosaic([t for t, _ in tiles])
    return _fill_groups(_tesseract(Image.fromarray(mosaic), lang, psm), fills, tiles, offsets)


def _fill_groups(data: dict, fills: list[Fill], tiles: list, offsets: list[int]) -> list[list[_ReadLine]]:
    """Per fill, the lines of tesseract's ``data`` for the mosaic of their ``tiles`` (``_mosaic``)."""
    grouped: dict[tuple, list[tuple[Word, float]]] = {}
    for key, text, conf, (x, wy, w, h) in _words(data):
        i = int(np.searchsorted(offsets, wy + h / 2, side="right")) - 1
        (_, s), f = tiles[i], fills[i]
        pad = _pad(s)
        bx, by = f.box[0] - pad / s, f.box[1] - pad / s  # the tile's origin in original pixels
        ty = wy - offsets[i]
        box = (int(bx + x / s), int(by + ty / s), int(round(bx + (x + w) / s)), int(round(by + (ty + h) / s)))
        box = (max(f.box[0], box[0]), max(f.box[1], box[1]), min(f.box[2], box[2]), min(f.box[3], box[3]))
        grouped.setdefault((i, *key), []).append((Word(text, box, conf), conf))
    groups: list[list[_ReadLine]] = [[] for _ in fills]
    for r, key in zip(*_lines_with_keys(grouped, {k: fills[k[0]].box for k in grouped})):
        groups[key[0]].append(r)
    return groups


def _within(p: _ReadLine, fbox) -> bool:
    """A page line that belongs to a fill: 80% of its box inside it, or its middle inside it and
    its confidence below ``MIN_FILL_CONF`` (a button's white text read as "L CigCOC SIE |", the
    box grown by the button's rim)."""
    if _mostly_inside(p.line.box, fbox):
        return True
    cx, cy = (p.line.box[0] + p.line.box[2]) / 2, (p.line.box[1] + p.line.box[3]) / 2
    return p.conf < MIN_FILL_CONF and fbox[0] <= cx <= fbox[2] and fbox[1] <= cy <= fbox[3]


def merge_fill_lines(page: list[_ReadLine], fill_lines: list[_ReadLine]) -> list[_ReadLine]:
    """Page lines plus fill lines, without duplicates.

    A fill line that overlaps no page line is added when its confidence is at least
    ``MIN_FILL_CONF``. One that overlaps page lines replaces them when every one of them lies
    inside the fill line's fill (``_within``) and their character-weighted mean confidence is
    lower (the badge read as "o"); otherwise the page lines are kept and the fill line is dropped:
    a word re-read alone never replaces the page line it is part of.
    """
    kept = list(page)
    for r in fill_lines:
        fbox = r.fill_box
        hits = [p for p in kept if boxes_meet(p.line.box, r.line.box)]
        if not hits:
            if r.conf >= MIN_FILL_CONF:
                kept.append(r)
        elif fbox is not None and all(_within(p, fbox) for p in hits) and r.conf > _mean_conf(hits):
            kept = [p for p in kept if not any(p is h for h in hits)] + [r]
    return kept
