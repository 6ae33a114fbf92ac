"""Reading the text of a document image with tesseract: whole-page passes plus coloured fills.

Engine: Debian tesseract 5's ``image_to_data`` (word boxes and confidences), in this process
through tesserocr or as the command through pytesseract (``rewards.text.tesseract_engine``),
words grouped into lines by tesseract's (block, paragraph, line) numbers.

Whole-page passes: upsampling 2x makes light-on-dark titles readable (at 1x tesseract 5.3
dropped half of a white-on-navy title) for ~1.3x the time; sparse text (psm 11) then automatic
layout (psm 3), each catch lines the other misses.

Fill pass: tesseract binarises the page with one global threshold, so short light text on a
dark fill (a white "03" on a dark green badge, a label on a button) ends up as a solid blob and
is dropped or read as "o". :func:`find_fills` segments the page into flat colour regions
(median-cut palette, connected components) that enclose something else (the text is a hole in
the fill); each fill is cut out, everything outside its shape is painted with the fill colour,
binarised on its own (Otsu), inverted when the text is lighter than the fill, scaled so its text
is ~32 px high, and all fills are stacked into one mosaic read by a single tesseract call. A fill
line replaces the page lines it overlaps when it is read with higher confidence; page lines
that reach outside the fill are kept.

Rotated pass: a y-axis title or a vertical tag is printed at 90 degrees; tesseract 5.3 reads
such a column not at all, as a few 1-2 character words, upside down ("(spuesnou}) siasn") or,
for text printed bottom to top, as tall words in the wrong order ("(thousands) Users").
:func:`find_rotated_text` groups letter-sized ink components into columns much taller than
wide that the page passes did not read as horizontal words; each column is cut out, turned by
90 and by 270 degrees and read as one line; the turn read with the higher confidence (odd
characters counted against it) becomes a ``Line`` with that ``angle`` and replaces the page
lines inside the column. Fills whose enclosed text is such a column (a vertical tag, light text
on a dark band: :func:`tall_fills`) are read the same way.

Incremental re-read (:func:`reread_page`): a page an editor changed in a few places is read again
only in the changed boxes grown to the whole earlier lines they touch (:func:`changed_regions`),
with both page passes (one tesseract process per pass when tesseract runs as a command); the
fills and rotated columns with a changed pixel are read again; every other line is the earlier
read's.
``rewards.text.ocr_cache`` decides when (and remembers reads).
"""

from __future__ import annotations

import hashlib
import tempfile
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pytesseract
from PIL import Image
from scipy import ndimage

from rewards.text import tesseract_engine
from rewards.text.text_match import Line, Word, union_box

MAX_OCR_SIDE = 8000
"""Pixels: ``scale`` never enlarges an image's longer side beyond this."""

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

COLUMN_RATIO = 2.5
"""A column of ink is read rotated when its height is at least this many times its width."""

MIN_ROTATED_CONF = 75.0
"""Tesseract confidence (0-100) a rotated reading needs to be kept: axis titles read 94-96 on the
rendered and matplotlib charts; columns that were no rotated text (horizontal lines that touch)
read up to 64."""

FILL_PSM = 11
"""Tesseract page segmentation mode of the fill pass's mosaic (sparse text)."""

ROTATED_SIDE = 2000
"""Pixels: rotated columns are looked for on a copy whose longer side is at most this."""


class OCRError(RuntimeError):
    """The OCR engine failed on one image (not installed, crashed, bad image)."""


@dataclass(frozen=True)
class Fill:
    """A flat-coloured region that encloses other pixels (text, usually).

    Attributes:
        box: ``(x0, y0, x1, y1)`` in pixels of the original image (x1, y1 exclusive).
        shape: bool array ``(y1 - y0, x1 - x0)``, True inside the fill's outline (holes included).
        fill: bool array of the same shape, True on the fill colour itself.
        text_height: median height in pixels of the enclosed components (the text size).
    """

    box: tuple[int, int, int, int]
    shape: np.ndarray
    fill: np.ndarray
    text_height: float


@dataclass(frozen=True)
class _ReadLine:
    line: Line
    conf: float  # mean tesseract word confidence, 0-100
    fill_box: tuple[int, int, int, int] | None = None  # the fill it was read in (fill lines only)


@dataclass(frozen=True)
class ReadSettings:
    """What one read is: the arguments of :func:`ocr_lines` other than the image."""

    lang: str = "eng"
    psm: int = 11
    scale: float = 2.0
    second_psm: int | None = 3
    fills: bool = True
    rotated: bool = True


@dataclass(frozen=True)
class PageRead:
    """One read of a page, pass by pass, so that a later read of an edited copy can keep what
    the edit did not touch (:func:`reread_page`).

    Attributes:
        size: ``(width, height)`` of the page in pixels.
        first: lines of the first page pass (``psm``).
        second: every line of the second page pass (``second_psm``; [] without one), before
            the lines that overlap the first pass are dropped.
        fills: the fills and small-text runs read by the fill pass.
        fill_lines: per fill, the lines read in it.
        columns: the columns read turned (rotated pass).
        rotated_lines: per column, the kept turn's line or None.
        lines: the merged result (what :func:`ocr_lines` returns).
    """

    size: tuple[int, int]
    first: tuple[_ReadLine, ...]
    second: tuple[_ReadLine, ...]
    fills: tuple[Fill, ...]
    fill_lines: tuple[tuple[_ReadLine, ...], ...]
    columns: tuple[Fill, ...]
    rotated_lines: tuple[_ReadLine | None, ...]
    lines: tuple[Line, ...]


def ocr_lines(
    image: Image.Image,
    lang: str = "eng",
    psm: int = 11,
    scale: float = 2.0,
    second_psm: int | None = 3,
    fills: bool = True,
    rotated: bool = True,
) -> list[Line]:
    """Read the text lines of ``image`` with tesseract.

    Args:
        image: any PIL image; converted to RGB.
        lang: tesseract language code(s), e.g. "eng" or "chi_sim+eng" (see
            ``rewards.text.ocr_langs.tesseract_lang``).
        psm: tesseract page segmentation mode (11 = sparse text, 3 = automatic page layout).
        scale: upsampling factor applied before OCR (Lanczos), lowered so the longer side stays
            within ``MAX_OCR_SIDE`` (never below 1); boxes are mapped back.
        second_psm: a second pass in this mode (None: none) whose lines that overlap no line of
            the first pass are added: with psm 11 tesseract 5.3 read nothing of a lone white
            title on a navy band, which psm 3 reads; psm 3 alone garbled short isolated lines.
        fills: also read flat-coloured fills (badges, buttons, bands) one by one, binarised
            and inverted on their own (module docstring); False = the page passes only.
        rotated: also read tall thin columns of text turned by 90 and 270 degrees (module
            docstring); False = horizontal text only.

    Returns:
        Lines in reading order of the passes (page passes, then fill lines, then rotated lines),
        horizontal ones split at column gaps (``split_columns``); word boxes ``(x0, y0, x1, y1)``
        in pixels of ``image``. A rotated line has ``angle`` 90 (printed bottom to top) or 270
        (top to bottom) and its words in reading order.

    Raises:
        OCRError: tesseract is missing or failed; the message is one line.
    """
    settings = ReadSettings(lang, psm, scale, second_psm, fills, rotated)
    return list(read_page(image.convert("RGB"), settings).lines)


def read_page(rgb: Image.Image, settings: ReadSettings) -> PageRead:
    """The whole read of ``rgb`` (RGB) with ``settings``, pass by pass (``ocr_lines``). Raises OCRError."""
    big, scale = _upsampled(rgb, settings.scale)
    first = _read(big, settings.lang, settings.psm, scale)
    second = []
    if settings.second_psm is not None and settings.second_psm != settings.psm:
        second = _read(big, settings.lang, settings.second_psm, scale)
    return _finish(rgb, settings, first, second, None, None)


def _upsampled(rgb: Image.Image, scale: float) -> tuple[Image.Image, float]:
    # Upsampling helps small text only; tesseract refuses sides over 32767 px, so large images
    # are never enlarged past MAX_OCR_SIDE.
    scale = min(scale, max(1.0, MAX_OCR_SIDE / max(rgb.size)))
    if scale == 1.0:
        return rgb, scale
    size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
    return rgb.resize(size, Image.Resampling.LANCZOS), scale


def _finish(
    rgb: Image.Image,
    settings: ReadSettings,
    first: list[_ReadLine],
    second: list[_ReadLine],
    old: PageRead | None,
    changed: np.ndarray | None,
    fills_read: tuple[list[Fill], list] | None = None,
) -> PageRead:
    """The fill and rotated passes on top of the page passes, and the merge. With ``old`` (an
    earlier read of the same page) and ``changed`` (bool (H, W), pixels that differ from it), a
    column with the same outline and no changed pixel keeps its earlier reading. ``fills_read``:
    the fills and their lines when the caller read them already (``reread_page``)."""
    boxes = [r.line.box for r in first]
    lines = list(first) + [r for r in second if not any(_overlap(r.line.box, b) for b in boxes)]
    found, fill_lines = fills_read or ([], [])
    if settings.fills and fills_read is None:
        found = fill_regions(rgb)
        if found:
            fill_lines = _read_fill_groups(rgb, found, settings.lang)
    if fill_lines:
        lines = merge_fill_lines(lines, [r for group in fill_lines for r in group])
    columns, rotated_lines = [], []
    if settings.rotated:
        known = horizontal_boxes(lines)
        columns = find_rotated_text(rgb, known)
        columns += [f for f in tall_fills(found, known) if not any(_overlap(f.box, c.box) for c in columns)]
        if columns:
            groups = _reuse_or_read(
                columns,
                old and old.columns,
                old and [(r,) if r else () for r in old.rotated_lines],
                changed,
                lambda todo: [(r,) if r else () for r in _read_rotated_each(rgb, todo, settings.lang)],
            )
            rotated_lines = [g[0] if g else None for g in groups]
            lines = merge_rotated_lines(lines, [r for r in rotated_lines if r is not None])
    return PageRead(
        rgb.size,
        tuple(first),
        tuple(second),
        tuple(found),
        tuple(tuple(g) for g in fill_lines),
        tuple(columns),
        tuple(rotated_lines),
        tuple(r.line for r in lines),
    )


def fill_regions(rgb: Image.Image) -> list[Fill]:
    """What the fill pass reads: ``find_fills`` and then the ``find_small_text`` runs outside them."""
    found = find_fills(rgb)
    return found + find_small_text(rgb, [f.box for f in found])


def _same_fill(a: Fill, b: Fill) -> bool:
    return (
        a.box == b.box
        and a.text_height == b.text_height
        and np.array_equal(a.shape, b.shape)
        and np.array_equal(a.fill, b.fill)
    )


def _reused(found: list[Fill], old_found, old_groups, changed) -> list:
    """Per region of ``found``, its earlier lines when an earlier region had the same outline and
    no pixel of its box changed, else None (to be read)."""
    groups: list = [None] * len(found)
    if old_found is None or changed is None:
        return groups
    for i, f in enumerate(found):
        x0, y0, x1, y1 = f.box
        if changed[y0:y1, x0:x1].any():
            continue
        j = next((j for j, o in enumerate(old_found) if _same_fill(f, o)), None)
        if j is not None:
            groups[i] = old_groups[j]
    return groups


def _reuse_or_read(found, old_found, old_groups, changed, read) -> list:
    """``_reused``, and the regions without earlier lines read by ``read`` (one call for all)."""
    groups = _reused(found, old_found, old_groups, changed)
    todo = [i for i, g in enumerate(groups) if g is None]
    if todo:
        for i, g in zip(todo, read([found[i] for i in todo])):
            groups[i] = g
    return groups


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
        [_grown(r, REGION_CONTEXT if any(_overlap(r, f) for f in solid) else 0, rgb.size) for r in regions]
    )
    corners = [(int(np.floor(x0 * scale)), int(np.floor(y0 * scale))) for x0, y0, _, _ in views]
    crops = [
        big.crop((left, top, min(big.width, int(np.ceil(x1 * scale))), min(big.height, int(np.ceil(y1 * scale)))))
        for (left, top), (_, _, x1, y1) in zip(corners, views)
    ]
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
            grown = _merged_boxes([union_box([b, *(pad(ln) for ln in lines if _overlap(ln, b))]) for b in boxes])
            if grown == boxes:
                break
            boxes = grown
        boxes = _merged_boxes([_to_quiet(b, edges) for b in boxes])
        if all(_overlap(ln, b) <= _inside(ln, b) for ln in lines for b in boxes):
            return boxes
    return boxes


def _runs(mask: np.ndarray, gap: int) -> list[tuple[int, int]]:
    idx = np.flatnonzero(mask)
    if not len(idx):
        return []
    parts = np.split(idx, np.flatnonzero(np.diff(idx) > gap) + 1)
    return [(int(q[0]), int(q[-1]) + 1) for q in parts]


def _runs_2d(changed: np.ndarray) -> list[tuple[int, int, int, int]]:
    out = []
    for y0, y1 in _runs(changed.any(axis=1), 8):
        for x0, x1 in _runs(changed[y0:y1].any(axis=0), 16):
            ys = _runs(changed[y0:y1, x0:x1].any(axis=1), 8)
            out.append((x0, y0 + ys[0][0], x1, y0 + ys[-1][1]))
    return out


def _grown(box, m: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    return (max(0, box[0] - m), max(0, box[1] - m), min(size[0], box[2] + m), min(size[1], box[3] + m))


def _inside(a, b) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _merged_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``boxes`` with every group that overlaps joined into its union box (sorted)."""
    boxes = list(boxes)
    while True:
        for i in range(len(boxes)):
            j = next((j for j in range(i + 1, len(boxes)) if _overlap(boxes[i], boxes[j])), None)
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
        inside = [i for i, r in enumerate(lines) if _overlap(r.line.box, box)]
        at = inside[0] if inside else next((i for i, r in enumerate(lines) if r.line.box[1] >= box[3]), len(lines))
        kept = [r for i, r in enumerate(lines) if i not in set(inside)]
        at -= sum(i < at for i in inside)
        lines = kept[:at] + read + kept[at:]
    return lines


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _tesseract(image: Image.Image | str, lang: str, psm: int) -> dict:
    """Tesseract's ``image_to_data`` dict of ``image`` (or of the pages a list file names, for the
    command). Raises OCRError."""
    if isinstance(image, Image.Image) and image.mode in ("RGB", "L"):
        # The engine gets the image as a file in its format: PPM (raw pixels) is written at once
        # where PNG took 0.3 s for a 2048x1536 page; the pixels tesseract reads are the same
        image = image.copy()
        image.format = "PPM"
    try:
        data = tesseract_engine.image_to_data(image, lang=lang, psm=psm)
    except (
        tesseract_engine.EngineError,
        pytesseract.TesseractError,
        pytesseract.TesseractNotFoundError,
        OSError,
        RuntimeError,
    ) as e:
        raise OCRError(f"tesseract failed: {' '.join(str(e).split())[:200]}") from None
    if "text" not in data:  # its TSV always has a header and a page row: the file was lost (disk full)
        raise OCRError(f"tesseract failed: it wrote no output (is the disk of {tempfile.gettempdir()} full?)")
    return data


def _tesseract_pages(images: list[Image.Image], lang: str, psm: int) -> list[dict]:
    """``_tesseract`` of each image, each page segmented and read on its own, as in a call of its
    own. The command reads them all as the pages of one document (a list file of images), without
    a process start-up per image; the library engine reads them one by one. Raises OCRError."""
    try:
        one_by_one = len(images) <= 1 or tesseract_engine.engine() == "library"
    except tesseract_engine.EngineError as e:
        raise OCRError(f"tesseract failed: {e}") from None
    if one_by_one:
        return [_tesseract(im, lang, psm) for im in images]
    with tempfile.TemporaryDirectory(prefix="rubricloop_ocr_") as folder:
        names = []
        for k, im in enumerate(images):
            names.append(f"{folder}/page{k}.{'ppm' if im.mode in ('RGB', 'L') else 'png'}")
            im.save(names[-1])
        listing = f"{folder}/pages.txt"
        with open(listing, "w", encoding="utf-8") as f:
            f.write("\n".join(names) + "\n")
        data = _tesseract(listing, lang, psm)
    pages = [np.asarray(data["page_num"]) == k + 1 for k in range(len(images))]
    return [{key: [v for v, keep in zip(values, page) if keep] for key, values in data.items()} for page in pages]


def _words(data: dict):
    """``(key, text, conf, (x, y, w, h))`` per non-empty word of tesseract's ``image_to_data``."""
    for i, text in enumerate(data["text"]):
        text = (text or "").strip()
        conf = float(data["conf"][i])
        if text and conf >= 0:
            key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
            yield key, text, conf, tuple(data[k][i] for k in ("left", "top", "width", "height"))


def _lines(
    grouped: dict[tuple, list[tuple[Word, float]]], fill_boxes: dict[tuple, tuple] | None = None
) -> list[_ReadLine]:
    return _lines_with_keys(grouped, fill_boxes)[0]


def _lines_with_keys(
    grouped: dict[tuple, list[tuple[Word, float]]], fill_boxes: dict[tuple, tuple] | None = None
) -> tuple[list[_ReadLine], list[tuple]]:
    out, keys = [], []
    for key, words in grouped.items():
        confs = {w: c for w, c in words}
        for piece in split_columns([w for w, _ in words]):
            conf = sum(confs[w] for w in piece.words) / len(piece.words)
            out.append(_ReadLine(piece, conf, (fill_boxes or {}).get(key)))
            keys.append(key)
    return out, keys


def _read(rgb: Image.Image, lang: str, psm: int, scale: float) -> list[_ReadLine]:
    """Lines of one page pass over ``rgb`` (the page upsampled by ``scale``), boxes in pixels of the page."""
    return _page_lines(_tesseract(rgb, lang, psm), scale)


def _page_lines(data: dict, scale: float, left: int = 0, top: int = 0) -> list[_ReadLine]:
    """The lines of tesseract's ``data`` for an upsampled page (or a part of it whose top left
    corner is ``(left, top)`` in the upsampled page), boxes mapped to pixels of the page."""
    grouped: dict[tuple, list[tuple[Word, float]]] = {}
    for key, text, conf, (x, y, w, h) in _words(data):
        x, y = x + left, y + top
        box = (int(x / scale), int(y / scale), int(round((x + w) / scale)), int(round((y + h) / scale)))
        grouped.setdefault(key, []).append((Word(text, box), conf))
    return _lines(grouped)


def split_columns(words: list[Word], gap: float = 1.5) -> list[Line]:
    """Split one engine line where two neighbouring words are more than ``gap`` x the line's
    median word height apart: tesseract joins text of two columns at the same height into one
    line, which would break matching of a string that wraps inside its column."""
    words = sorted(words, key=lambda wd: wd.box[0])
    heights = sorted(wd.box[3] - wd.box[1] for wd in words)
    limit = gap * max(1, heights[len(heights) // 2])
    pieces, cur = [], [words[0]]
    for prev, wd in zip(words, words[1:]):
        if wd.box[0] - prev.box[2] > limit:
            pieces.append(Line(tuple(cur)))
            cur = []
        cur.append(wd)
    return pieces + [Line(tuple(cur))]


_FILLS_FOUND: OrderedDict[tuple, list[Fill]] = OrderedDict()
"""The last few pages' fills by (pixel digest, settings): the judge asks for the fills of one page
once per check (``rewards.text.elements``), and the read asks again (0.2-0.5 s each)."""


def forget_fills() -> None:
    """Forget the remembered fills of ``find_fills``."""
    _FILLS_FOUND.clear()


def find_fills(
    rgb: Image.Image, colors: int = 16, min_side: int = 10, min_solidity: float = 0.5, max_fills: int = MAX_FILLS
) -> list[Fill]:
    """``_find_fills``, remembered for the last 8 pages (the same pixels give the same fills)."""
    key = (hashlib.blake2b(rgb.tobytes(), digest_size=16).digest(), rgb.size, rgb.mode, colors, min_side, min_solidity)
    key += (max_fills,)
    found = _FILLS_FOUND.get(key)
    if found is None:
        found = _find_fills(rgb, colors, min_side, min_solidity, max_fills)
        _FILLS_FOUND[key] = found
        while len(_FILLS_FOUND) > 8:
            _FILLS_FOUND.popitem(last=False)
    return list(found)


def _find_fills(
    rgb: Image.Image, colors: int = 16, min_side: int = 10, min_solidity: float = 0.5, max_fills: int = MAX_FILLS
) -> list[Fill]:
    """Flat-coloured regions of ``rgb`` that enclose other pixels: badges, buttons, bands, boxes.

    The image (downsampled to ``SEGMENT_SIDE``) is reduced to a ``colors``-entry median-cut
    palette; every connected component (4-connectivity) of one palette colour, other than the
    most frequent colour (the page), whose box is at least ``min_side`` pixels (original scale)
    on both sides, that covers at least ``min_solidity`` of its box (letters with counters such as
    "A" cover ~0.3) and that has holes, is a fill. The holes' median height is its text height.

    Returns:
        At most ``max_fills`` fills, smallest area first.
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
    found = []
    for c in np.flatnonzero(counts):
        if c == page:
            continue
        labels, _ = ndimage.label(index == c)
        for k, sl in enumerate(ndimage.find_objects(labels), start=1):
            h, w = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
            if h < min_px or w < min_px:
                continue
            comp = labels[sl] == k
            if comp.sum() < min_solidity * h * w:
                continue
            shape = ndimage.binary_fill_holes(comp)
            holes, n_holes = ndimage.label(shape & ~comp)
            if n_holes == 0:
                continue
            heights = [s[0].stop - s[0].start for s in ndimage.find_objects(holes)]
            found.append((h * w, sl, comp, shape, float(np.median(heights)) / f))
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
    if max(rgb.size) > MAX_OCR_SIDE // 4:
        return []
    gray = np.asarray(rgb.convert("L")).astype(np.int16)
    ink = np.abs(gray - int(np.median(gray))) > contrast
    runs = ndimage.binary_dilation(ink, structure=np.ones((3, 13), bool))
    labels, _ = ndimage.label(runs)
    out = []
    for sl in ndimage.find_objects(labels):
        y0, y1, x0, x1 = sl[0].start + 1, sl[0].stop - 1, sl[1].start + 6, sl[1].stop - 6  # undo the dilation
        h, w = y1 - y0, x1 - x0
        if not 4 <= h <= max_height or w < 8:
            continue
        box = (max(0, x0 - 3), max(0, y0 - 3), min(rgb.width, x1 + 3), min(rgb.height, y1 + 3))
        if any(_overlap(box, k) for k in known):
            continue
        region = ink[box[1] : box[3], box[0] : box[2]]
        out.append(Fill(box, np.ones_like(region), ~region, float(h)))
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
        grouped.setdefault((i, *key), []).append((Word(text, box), conf))
    groups: list[list[_ReadLine]] = [[] for _ in fills]
    for r, key in zip(*_lines_with_keys(grouped, {k: fills[k[0]].box for k in grouped})):
        groups[key[0]].append(r)
    return groups


def _mosaic(tiles: list[np.ndarray]) -> tuple[np.ndarray, list[int]]:
    """The uint8 ``tiles`` stacked top to bottom on white, left-aligned, and each one's top row."""
    offsets, y = [], 0
    for t in tiles:
        offsets.append(y)
        y += t.shape[0]
    mosaic = np.full((y, max(t.shape[1] for t in tiles)), 255, np.uint8)
    for t, oy in zip(tiles, offsets):
        mosaic[oy : oy + t.shape[0], : t.shape[1]] = t
    return mosaic, offsets


def _mostly_inside(box, fbox) -> bool:
    """At least 80% of ``box`` lies in ``fbox``."""
    w = max(0, min(box[2], fbox[2]) - max(box[0], fbox[0]))
    h = max(0, min(box[3], fbox[3]) - max(box[1], fbox[1]))
    return w * h >= 0.8 * max(1, (box[2] - box[0]) * (box[3] - box[1]))


def _mean_conf(lines: list[_ReadLine]) -> float:
    sizes = [max(1, len(r.line.text)) for r in lines]
    return sum(r.conf * n for r, n in zip(lines, sizes)) / sum(sizes)


def merge_fill_lines(page: list[_ReadLine], fill_lines: list[_ReadLine]) -> list[_ReadLine]:
    """Page lines plus fill lines, without duplicates.

    A fill line that overlaps no page line is added when its confidence is at least
    ``MIN_FILL_CONF``. One that overlaps page lines replaces them when every one of them lies
    (80% of its box) inside the fill line's fill and their character-weighted mean confidence is
    lower (the badge read as "o"); otherwise the page lines are kept and the fill line is dropped:
    a word re-read alone never replaces the page line it is part of.
    """
    kept = list(page)
    for r in fill_lines:
        fbox = r.fill_box
        hits = [p for p in kept if _overlap(p.line.box, r.line.box)]
        if not hits:
            if r.conf >= MIN_FILL_CONF:
                kept.append(r)
        elif fbox is not None and all(_mostly_inside(p.line.box, fbox) for p in hits) and r.conf > _mean_conf(hits):
            kept = [p for p in kept if not any(p is h for h in hits)] + [r]
    return kept


def find_rotated_text(
    rgb: Image.Image,
    known: list[tuple[int, int, int, int]],
    contrast: int = 40,
    ratio: float = COLUMN_RATIO,
    min_width: int = 6,
    max_glyph: int = 120,
    max_columns: int = 8,
) -> list[Fill]:
    """Columns of letter-sized ink much taller than wide that no horizontal reading covers.

    Ink is every pixel whose luminance differs from the page's (the median) by more than
    ``contrast``, on a copy whose longer side is at most ``ROTATED_SIDE``. Its connected components
    (8-connectivity) are glyphs when their short side is 2..``max_glyph`` pixels, their long side
    at most 15x the short one (axis lines and grid lines are not), and they are not solid blocks
    (bars). Each glyph's box is stretched up and down by half its width (the gap between two
    words of a rotated line is ~0.3 of its type size, the width of a glyph of that line ~0.7), and
    the stretched boxes that touch form a column. A column is kept when it holds at least two
    glyphs, is at least ``min_width`` pixels wide (smaller than a letter is skipped), at least
    ``ratio`` x as high as wide and at most 3x as wide as its median glyph (one line of rotated
    text is 1.2-1.6x; stacked horizontal lines joined through a badge were 4.5-7.5x), and the
    ``known`` boxes (words read horizontally, with confidence) that overlap it cover less than
    half its height: a stack of short horizontal lines (a table column of numbers) is also tall
    and thin, and so are letters of two lines of a paragraph that touch ("by" above "th"), which
    are also told apart by the ink beside them (``_flanked``: at least 30% of the column's rows
    have ink within a quarter of its width left or right of it).

    Args:
        rgb: the page.
        known: ``(x0, y0, x1, y1)`` boxes, in pixels of ``rgb``, of trusted horizontal words
            (``horizontal_boxes``).

    Returns:
        At most ``max_columns`` columns, tallest first, as fills (``box`` padded by 3 px,
        ``shape`` all True, ``fill`` = the non-ink pixels, ``text_height`` = the median width of
        its glyphs) in pixels of ``rgb``.
    """
    gray_full = np.asarray(rgb.convert("L")).astype(np.int16)
    page = int(np.median(gray_full))
    ink_full = np.abs(gray_full - page) > contrast
    f = min(1.0, ROTATED_SIDE / max(rgb.size))
    ink = ink_full
    if f < 1.0:
        small = rgb.convert("L").resize((max(1, round(rgb.width * f)), max(1, round(rgb.height * f))), Image.BOX)
        ink = np.abs(np.asarray(small).astype(np.int16) - page) > contrast
    labels, n = ndimage.label(ink, structure=np.ones((3, 3), bool))
    if n == 0:
        return []
    area = np.bincount(labels.ravel(), minlength=n + 1)
    stretched = np.zeros_like(ink)
    glyphs = []  # (x0, y0, x1, y1) of every glyph, small-copy pixels
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        y0, y1, x0, x1 = sl[0].start, sl[0].stop, sl[1].start, sl[1].stop
        h, w = y1 - y0, x1 - x0
        short, long = min(h, w), max(h, w)
        if not 2 <= short <= max_glyph * f or long > 15 * short:
            continue
        if short > 4 and area[k] > 0.9 * h * w:
            continue  # a solid block: a bar or a swatch, not a letter
        g = int(np.ceil(0.5 * w))
        stretched[max(0, y0 - g) : y1 + g, x0:x1] = True
        glyphs.append((x0, y0, x1, y1))
    if not glyphs:
        return []
    g_boxes = np.array(glyphs)
    cols, _ = ndimage.label(stretched)
    label = cols[(g_boxes[:, 1] + g_boxes[:, 3]) // 2, (g_boxes[:, 0] + g_boxes[:, 2]) // 2]
    order = np.argsort(label, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(label[order]) != 0])
    members = np.split(order, starts[1:])  # glyph indices per cluster
    boxes = np.stack(
        [
            np.minimum.reduceat(g_boxes[order, 0], starts),
            np.minimum.reduceat(g_boxes[order, 1], starts),
            np.maximum.reduceat(g_boxes[order, 2], starts),
            np.maximum.reduceat(g_boxes[order, 3], starts),
        ],
        axis=1,
    )
    out = []
    for k in np.flatnonzero((boxes[:, 3] - boxes[:, 1]) >= 1.5 * (boxes[:, 2] - boxes[:, 0])):
        if len(members[k]) < 2 or (boxes[k, 2] - boxes[k, 0]) < min_width * f:
            continue
        box, glyph_ids = _grow_column(boxes, members, k)
        widths = g_boxes[glyph_ids, 2] - g_boxes[glyph_ids, 0]
        x0, y0, x1, y1 = (v / f for v in box)
        w, h, text_h = x1 - x0, y1 - y0, float(np.median(widths)) / f
        if h < ratio * w or w > 3 * text_h:
            continue
        box = (
            max(0, int(x0) - 3),
            max(0, int(y0) - 3),
            min(rgb.width, int(np.ceil(x1)) + 3),
            min(rgb.height, int(np.ceil(y1)) + 3),
        )
        if _covered_height(box, known) >= 0.5 * h or any(_overlap(box, o.box) for _, o in out):
            continue
        if _flanked(ink_full, box, max(2, round(0.25 * w))) >= 0.3:
            continue
        region = ink_full[box[1] : box[3], box[0] : box[2]]
        out.append((h, Fill(box, np.ones_like(region), ~region, text_h)))
    out.sort(key=lambda t: -t[0])
    return [fl for _, fl in out[:max_columns]]


def tall_fills(
    fills: list[Fill], known: list[tuple[int, int, int, int]], ratio: float = COLUMN_RATIO, min_width: int = 6
) -> list[Fill]:
    """The ``fills`` (``find_fills``) whose enclosed text is a column: a vertical tag or ribbon
    with light text on a dark band, which the ink of ``find_rotated_text`` (pixels unlike the page)
    sees as one solid block. The text (pixels inside the fill's outline, not of its colour) spans
    a box at least ``min_width`` wide and ``ratio`` x as high as wide, and the ``known`` words cover
    less than half of it (a bar with its value label on top encloses no such column)."""
    out = []
    for f in fills:
        ys, xs = np.nonzero(f.shape & ~f.fill)
        if not len(ys):
            continue
        w, h = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        if w >= min_width and h >= ratio * w and _covered_height(f.box, known) < 0.5 * h:
            out.append(f)
    return out


def _flanked(ink: np.ndarray, box, side: int) -> float:
    """Share of the rows of ``box`` that have ink within ``side`` pixels left or right of it: letters
    of a paragraph's lines stacked into a column have their words' other letters beside them, a
    rotated line has free space (or a tick label further off)."""
    x0, y0, x1, y1 = box
    left = ink[y0:y1, max(0, x0 - side) : x0].any(axis=1)
    right = ink[y0:y1, x1 : x1 + side].any(axis=1)
    return float((left | right).mean()) if y1 > y0 else 0.0


def _grow_column(boxes: np.ndarray, members: list[np.ndarray], k: int) -> tuple[tuple, np.ndarray]:
    """Cluster ``k`` joined with the clusters above and below it that continue it: at most 1.3x as
    wide, overlapping it horizontally by half the narrower width, at most one column width away
    (a monospaced face leaves a whole cell between two rotated words; a short last word such as
    "(ms)" is no column of its own)."""
    x0, y0, x1, y1 = (int(v) for v in boxes[k])
    ids, taken = [members[k]], {int(k)}
    widths = boxes[:, 2] - boxes[:, 0]
    for _ in range(16):
        w = x1 - x0
        overlap = np.minimum(boxes[:, 2], x1) - np.maximum(boxes[:, 0], x0)
        gap = np.maximum(boxes[:, 1] - y1, y0 - boxes[:, 3])
        near = (widths <= 1.3 * w) & (overlap >= 0.5 * np.minimum(widths, w)) & (gap <= w)
        new = [int(j) for j in np.flatnonzero(near) if int(j) not in taken]
        if not new:
            break
        for j in new:
            taken.add(j)
            ids.append(members[j])
            x0, y0 = min(x0, int(boxes[j, 0])), min(y0, int(boxes[j, 1]))
            x1, y1 = max(x1, int(boxes[j, 2])), max(y1, int(boxes[j, 3]))
    return (x0, y0, x1, y1), np.concatenate(ids)


def _covered_height(box, known) -> int:
    """Pixels of ``box``'s height covered by the ``known`` boxes that overlap it."""
    rows = np.zeros(box[3] - box[1], bool)
    for k in known:
        if _overlap(box, k):
            rows[max(0, k[1] - box[1]) : max(0, k[3] - box[1])] = True
    return int(rows.sum())


def horizontal_boxes(lines: list[_ReadLine], min_conf: float = 70.0) -> list[tuple[int, int, int, int]]:
    """Word boxes of the lines read horizontally with at least ``min_conf``: lines in which every
    word of at least two characters is at least as wide as high (tesseract's own reading of a
    column printed bottom to top gives tall words in the wrong order, which does not count)."""
    out = []
    for r in lines:
        words = r.line.words
        if r.conf >= min_conf and r.line.angle == 0 and not any(_tall(wd) for wd in words):
            out.extend(wd.box for wd in words)
    return out


def _tall(word: Word) -> bool:
    x0, y0, x1, y1 = word.box
    return len(word.text) >= 2 and (y1 - y0) > (x1 - x0)


_PLAIN = set("()[]%$€£#&+-.,:;/'\"!?")


def _plausibility(text: str) -> float:
    """Share of the characters that are letters, digits, spaces or ordinary punctuation."""
    return sum(c.isalnum() or c.isspace() or c in _PLAIN for c in text) / max(1, len(text))


def read_rotated(rgb: Image.Image, columns: list[Fill], lang: str = "eng", psm: int = 6) -> list[_ReadLine]:
    """Read every column turned by 90 and by 270 degrees, in one tesseract call on a vertical
    mosaic of the turned tiles (``fill_tile``: black text on white, ~``FILL_TEXT_HEIGHT`` high):
    psm 6 (a block of lines, each tile one line) instead of one psm 7 call per tile, which would
    cost two tesseract starts per column.

    Per column the turn with the higher score (character-weighted mean confidence x the share of
    ordinary characters) is kept: an upside-down reading comes out as "(spuesnou}) siasn" at a
    low confidence. Words are ordered along the turned line (reading order) and their boxes
    mapped back to pixels of ``rgb``.

    Returns:
        One line per column that read anything, ``angle`` 90 or 270, ``fill_box`` = the column.

    Raises:
        OCRError: tesseract failed.
    """
    gray = np.asarray(rgb.convert("L"))
    tiles = []  # (turned tile, column index, angle, tile shape before turning, scale)
    for i, col in enumerate(columns):
        tile, s = fill_tile(gray, col)
        tiles.append((np.rot90(tile, k=-1), i, 90, tile.shape, s))  # bottom-to-top text turned clockwise
        tiles.append((np.rot90(tile, k=1), i, 270, tile.shape, s))
    mosaic, offsets = _mosaic([t for t, *_ in tiles])
    read: dict[int, list[tuple[float, Word, float]]] = {}  # tile -> (position along the line, word, conf)
    for _, text, conf, (x, wy, w, h) in _words(_tesseract(Image.fromarray(mosaic), lang, psm)):
        j = int(np.searchsorted(offsets, wy + h / 2, side="right")) - 1
        _, i, angle, (th, tw), s = tiles[j]
        col = columns[i]
        rx0, ry0, rx1, ry1 = x, wy - offsets[j], x + w, wy - offsets[j] + h
        if angle == 90:  # turned[i, j] = tile[th - 1 - j, i]
            tx0, ty0, tx1, ty1 = ry0, th - rx1, ry1, th - rx0
        else:  # turned[i, j] = tile[j, tw - 1 - i]
            tx0, ty0, tx1, ty1 = tw - ry1, rx0, tw - ry0, rx1
        pad = _pad(s)
        bx, by = col.box[0] - pad / s, col.box[1] - pad / s  # the tile's origin in pixels of rgb
        box = (int(bx + tx0 / s), int(by + ty0 / s), int(round(bx + tx1 / s)), int(round(by + ty1 / s)))
        box = (max(col.box[0], box[0]), max(col.box[1], box[1]), min(col.box[2], box[2]), min(col.box[3], box[3]))
        if box[2] > box[0] and box[3] > box[1]:
            read.setdefault(j, []).append((x, Word(text, box), conf))
    best: dict[int, tuple[float, _ReadLine]] = {}
    for j, found in read.items():
        _, i, angle, _, _ = tiles[j]
        found.sort(key=lambda t: t[0])
        words = tuple(wd for _, wd, _ in found)
        sizes = [max(1, len(wd.text)) for wd in words]
        conf = sum(c * n for (_, _, c), n in zip(found, sizes)) / sum(sizes)
        line = Line(words, angle=angle)
        score = conf * _plausibility(line.text)
        if i not in best or score > best[i][0]:
            best[i] = (score, _ReadLine(line, conf, columns[i].box))
    return [best[i][1] for i in sorted(best)]


def _read_rotated_each(rgb: Image.Image, columns: list[Fill], lang: str = "eng") -> list[_ReadLine | None]:
    """``read_rotated``, per column: its line, or None when it read nothing."""
    read = {r.fill_box: r for r in read_rotated(rgb, columns, lang)}
    return [read.get(c.box) for c in columns]


def merge_rotated_lines(page: list[_ReadLine], rotated: list[_ReadLine]) -> list[_ReadLine]:
    """Page lines plus rotated lines: a rotated line read with at least ``MIN_ROTATED_CONF``
    replaces the page lines that lie (80% of their box) inside its column when there are none,
    when one of them is tesseract's own vertical reading (tall words, ``horizontal_boxes``) or when
    their mean confidence is lower (a rotated word read as "s", "fe", "Bs"); otherwise it is
    dropped. Page lines that reach outside the column are kept without their words of at most two
    characters whose centre lies in it (the fragments tesseract makes of a rotated word)."""
    kept = list(page)
    for r in rotated:
        if r.conf < MIN_ROTATED_CONF or r.fill_box is None:
            continue
        hits = [p for p in kept if _mostly_inside(p.line.box, r.fill_box)]
        if hits and not any(_tall(w) for p in hits for w in p.line.words) and r.conf <= _mean_conf(hits):
            continue
        kept = [_without_words_in(p, r.fill_box) for p in kept if not any(p is h for h in hits)]
        kept = [p for p in kept if p.line.words] + [r]
    return kept


def _without_words_in(r: _ReadLine, box) -> _ReadLine:
    """``r`` without its words of at most two characters whose centre lies in ``box`` (a letter of
    a rotated line that tesseract joined to a horizontal neighbour: "s 30" = "s" of "Revenue" +
    the tick label "30")."""

    def fragment(w):
        cx, cy = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
        return len(w.text) <= 2 and box[0] <= cx < box[2] and box[1] <= cy < box[3]

    words = tuple(w for w in r.line.words if not fragment(w))
    return r if len(words) == len(r.line.words) else _ReadLine(Line(words, r.line.angle), r.conf, r.fill_box)
