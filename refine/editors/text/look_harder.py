"""A second, harder OCR read of the places the page OCR may have missed.

Before the editor writes a string it believes is missing, it looks again where a judge's OCR
often fails: coloured fills (badges, buttons, tags, light text on dark) and small isolated
marks the page pass read nothing in. Every such region is cut out, normalised to dark text on
white (its coverage between its own background and text colours, so white-on-green becomes
black-on-white), enlarged to a readable height, and stacked with the others into one mosaic
that tesseract reads in a single call; the words are mapped back to page pixels.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from scipy import ndimage

from rewards.text.ocr.ocr_cache import part_lines
from rewards.text.ocr.ocr_read import ReadSettings
from rewards.text.ocr.text_match import Line, Word

MAX_REGIONS = 40
"""At most this many regions are read per page (the smallest first: badges before pictures)."""
MOSAIC_HEIGHT = 48
"""Pixels: each region is scaled so its height is about this (x1 to x4)."""
GAP = 24


def page_background(arr: np.ndarray) -> np.ndarray:
    """float (3,): the page's dominant colour, the median of its border pixels."""
    border = np.concatenate([arr[0], arr[-1], arr[:, 0], arr[:, -1]]).astype(np.float64)
    return np.median(border, 0)


def candidate_regions(arr: np.ndarray, lines: list[Line], max_height: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of coloured or inked regions of text size that the page OCR did
    not fully read: components of the pixels far (> 40 per channel) from the page background,
    grown by 3 px so a word's glyphs join, 6..``max_height`` px high (badges, labels, bands),
    not mostly inside OCR'd words; the smallest ``MAX_REGIONS`` by area."""
    H, W = arr.shape[:2]
    fg = np.abs(arr.astype(np.int16) - page_background(arr)[None, None]).max(2) > 40
    grown = ndimage.binary_dilation(fg, iterations=3)
    labels, _ = ndimage.label(grown)
    read = np.zeros((H, W), bool)
    for ln in lines:
        for wd in ln.words:
            if sum(ch.isalnum() for ch in wd.text) < 2:
                continue  # a stray one-character read ("o" for a badge) does not count as read
            read[wd.box[1] : wd.box[3], wd.box[0] : wd.box[2]] = True
    boxes = []
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        if sl is None:
            continue
        ys, xs = np.nonzero(fg[sl] & (labels[sl] == k))  # the drawn pixels, not the grown margin
        if not len(ys):
            continue
        y0, y1 = sl[0].start + int(ys.min()), sl[0].start + int(ys.max()) + 1
        x0, x1 = sl[1].start + int(xs.min()), sl[1].start + int(xs.max()) + 1
        h, w = y1 - y0, x1 - x0
        if not 6 <= h <= max_height or w < 6:
            continue
        if read[y0:y1, x0:x1].mean() > 0.5:
            continue
        boxes.append((x0, y0, x1, y1))
    boxes.sort(key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    return boxes[:MAX_REGIONS]


def _normalised(crop: np.ndarray, page_bg: np.ndarray) -> np.ndarray:
    """uint8 (h, w) grey: the crop's text black on white whatever its colours. The background
    is modelled per pixel as column median + row median - overall median of the luminance (a
    flat fill, a horizontal or a vertical gradient); a pixel's darkness is its distance from that
    model over the crop's 99th-percentile distance, so light-on-dark and dark-on-light text both
    come out black. On a fill, page-coloured pixels connected to the crop's border (the rounded
    corners of a badge) count as background."""
    lum = crop.astype(np.float64) @ np.array([0.299, 0.587, 0.114])
    bg_lum = np.median(lum, 0)[None, :] + np.median(lum, 1)[:, None] - np.median(lum)
    dist = np.abs(lum - bg_lum)
    if np.abs(np.median(crop.reshape(-1, 3).astype(np.float64), 0) - page_bg).max() > 40:
        near_page = np.abs(crop.astype(np.float64) - page_bg).max(2) <= 15
        labels, _ = ndimage.label(near_page)
        edge_ids = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
        dist[np.isin(labels, edge_ids[edge_ids > 0])] = 0.0
    top = float(np.percentile(dist, 99))
    cov = np.clip(dist / max(top, 24.0), 0.0, 1.0)
    return np.clip(255 * (1 - cov), 0, 255).astype(np.uint8)


def read_regions(image: Image.Image, boxes, lang: str = "eng") -> list[Line]:
    """OCR lines read in ``boxes`` of ``image``, in page pixels (see the module docstring).

    Raises:
        rewards.text.ocr.tesseract_lines.OCRError: tesseract failed.
    """
    arr = np.asarray(image.convert("RGB"))
    H, W = arr.shape[:2]
    page_bg = page_background(arr)
    tiles, placed, y = [], [], GAP
    for x0, y0, x1, y1 in boxes:
        X0, Y0, X1, Y1 = x0, y0, x1, y1
        grey = _normalised(arr[Y0:Y1, X0:X1], page_bg)
        s = float(np.clip(MOSAIC_HEIGHT / max(1, Y1 - Y0), 1.0, 4.0))
        tile = Image.fromarray(grey).resize(
            (max(1, round((X1 - X0) * s)), max(1, round((Y1 - Y0) * s))), Image.Resampling.LANCZOS
        )
        tiles.append((tile, GAP, y))
        placed.append((y, y + tile.height, X0, Y0, s))
        y += tile.height + GAP
    if not tiles:
        return []
    mosaic = Image.new("L", (max(t.width for t, _, _ in tiles) + 2 * GAP, y), 255)
    for tile, x, ty in tiles:
        mosaic.paste(tile, (x, ty))
    out = []
    for line in part_lines(mosaic, ReadSettings(lang, psm=11, scale=1.0, second_psm=None, fills=False)):
        words = []
        for wd in line.words:
            cy = (wd.box[1] + wd.box[3]) / 2
            for ty0, ty1, X0, Y0, s in placed:
                if ty0 <= cy < ty1:
                    bx = (
                        X0 + (wd.box[0] - GAP) / s,
                        Y0 + (wd.box[1] - ty0) / s,
                        X0 + (wd.box[2] - GAP) / s,
                        Y0 + (wd.box[3] - ty0) / s,
                    )
                    words.append((ty0, Word(wd.text, tuple(int(round(v)) for v in bx))))
                    break
        for tile_y in sorted({t for t, _ in words}):
            out.append(Line(tuple(wd for t, wd in words if t == tile_y)))
    return out
