"""Reading the text of a document image with tesseract: whole-page passes plus coloured fills.

Engine: Debian tesseract 5's ``image_to_data`` (word boxes and confidences), in this process
through tesserocr or as the command through pytesseract (``rewards.text.ocr.tesseract_engine``),
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

Axis tick marks are erased from the copy the page passes read (``rewards.text.ocr.ticks``):
tesseract read a y tick right of "60" as a digit ("604") and an x tick into "Jan".

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
``rewards.text.ocr.ocr_cache`` decides when (and remembers reads).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from rewards.text.ocr.fills import (
    UNREAD_CONF,
    _read_fill_groups,
    find_fills,
    find_small_text,
    find_unread_text,
    find_wedges,
    merge_fill_lines,
    read_fills,
)
from rewards.text.ocr.rotated import (
    _read_rotated_each,
    find_rotated_text,
    horizontal_boxes,
    merge_rotated_lines,
    tall_fills,
)
from rewards.text.ocr.rules import erase_rules
from rewards.text.ocr.tesseract_lines import MAX_OCR_SIDE, Fill, _read, _ReadLine
from rewards.text.ocr.text_match import Line, boxes_meet
from rewards.text.ocr.ticks import erase_ticks


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
            ``rewards.text.ocr.ocr_langs.tesseract_lang``).
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
    """What the page passes read: ``rgb`` without its axis tick marks (``ticks.erase_ticks``) and
    its rules (``rules.erase_rules``: a table's cell borders), upsampled by ``scale``."""
    # Upsampling helps small text only; tesseract refuses sides over 32767 px, so large images
    # are never enlarged past MAX_OCR_SIDE.
    rgb = erase_rules(erase_ticks(rgb))
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
    lines = list(first) + [r for r in second if not any(boxes_meet(r.line.box, b) for b in boxes)]
    found, fill_lines = fills_read or ([], [])
    if settings.fills and fills_read is None:
        found = fill_regions(rgb)
        if found:
            fill_lines = _read_fill_groups(rgb, found, settings.lang)
    if fill_lines:
        lines = merge_fill_lines(lines, [r for group in fill_lines for r in group])
    if settings.fills:  # text no pass read (coloured headings): read again each time, never kept
        unread = find_unread_text(rgb, [r.line.box for r in lines])
        if unread:
            again = read_fills(rgb, unread, settings.lang)
            lines = merge_fill_lines(lines, [r for r in again if r.conf >= UNREAD_CONF and _worded(r.line.text)])
    columns, rotated_lines = [], []
    if settings.rotated:
        known = horizontal_boxes(lines)
        columns = find_rotated_text(rgb, known)
        columns += [f for f in tall_fills(found, known) if not any(boxes_meet(f.box, c.box) for c in columns)]
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


def _worded(text: str) -> bool:
    """True when ``text`` holds at least two letters or digits."""
    return sum(c.isalnum() for c in text) >= 2


def fill_regions(rgb: Image.Image) -> list[Fill]:
    """What the fill pass reads: ``find_fills``, ``find_wedges`` (light labels on pie wedges and
    donut segments, whose boxes are mostly outside them) and then the ``find_small_text`` runs
    outside the fills."""
    found = find_fills(rgb)
    return found + find_wedges(rgb) + find_small_text(rgb, [f.box for f in found])


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
