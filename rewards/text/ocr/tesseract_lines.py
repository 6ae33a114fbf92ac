"""One tesseract call and its answer as words and lines: the OCR read's types (``Fill``, ``_ReadLine``,
``OCRError``), ``image_to_data`` on one image or a batch, and the grouping of its words into lines
(split where a wide gap says two columns). The passes that use them are in ``rewards.text.ocr.ocr_read``.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass

import numpy as np
import pytesseract
from PIL import Image

from rewards.text.ocr import tesseract_engine
from rewards.text.ocr.text_match import Line, Word

MAX_OCR_SIDE = 8000
"""Pixels: ``scale`` never enlarges an image's longer side beyond this."""


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
        grouped.setdefault(key, []).append((Word(text, box, conf), conf))
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
