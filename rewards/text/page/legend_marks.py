"""The marks that open a legend entry: a solid swatch left of its text (``swatch_left``, from the
pixels) and a line legend's handle that OCR read as a word (``handle_left``). The legend-entry
finder, the chart locators and the positional reads use them."""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from rewards.text.page.page_lines import _HANDLE, Box, _Page

SWATCH_WIDTH = 3.2
"""The widest swatch, in ems: matplotlib's legend handle of a bar series is a 2.8 em wide bar."""


def swatch_left(rgb: np.ndarray, box: Box, em: float) -> bool:
    """True when a solid swatch stands just left of the text box ``box`` (type size ``em``
    pixels): a connected region of one colour (RGB distance > 60 from the background, channel
    spread < 40; also a region of one of the crop's main colours: a legend drawn over the bars
    has the swatch's colour for its median, a tester's stacked bars) 55-200% of the em high and
    55% to ``SWATCH_WIDTH`` em wide, filling at least 70% of its box (squares, circles, and the
    flat bars matplotlib draws for a bar series: 45% of the em high will do for a bar 1.2 em wide
    or wider, as the em of a word with no descender, "Wind", is read about 15% large and a 9 px
    handle was no swatch at it: engine dev pie-23), its right edge within 1.5 em of the text,
    centred within half an em of the text's middle. Bullet dots are smaller (``_dot_left``)."""
    x0, y0, x1, y1 = box
    lh = max(1.0, em)
    a, b = max(0, int(x0 - (SWATCH_WIDTH + 1.5) * lh)), max(0, x0 - 1)
    top, bottom = max(0, int(y0 - lh)), min(rgb.shape[0], int(y1 + lh))
    if b - a < 3 or bottom - top < 3:
        return False
    crop = rgb[top:bottom, a:b].astype(np.int16)
    bg = np.median(crop.reshape(-1, 3), axis=0)
    ink = np.sqrt(((crop - bg) ** 2).sum(axis=2)) > 60
    colours = main_colours(crop.reshape(-1, 3), 0.3 * lh * lh)
    masks = [ink] + [np.abs(crop - c).max(axis=2) <= 12 for c in colours]
    for mask in masks:  # by colour too: a legend over a bar of the swatch's colour, which the median takes
        labels, _ = ndimage.label(mask)
        for k, sl in enumerate(ndimage.find_objects(labels), start=1):
            hh, ww = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
            comp = labels[sl] == k
            low = 0.55 * lh if ww < 1.2 * lh else 0.45 * lh  # a flat bar: matplotlib's handle, 0.7 x 2 em
            if not (low <= hh <= 2 * lh and 0.55 * lh <= ww <= SWATCH_WIDTH * lh and comp.mean() >= 0.7):
                continue
            cy = top + (sl[0].start + sl[0].stop) / 2
            near = x0 - (a + sl[1].stop) <= 1.5 * lh
            if near and abs(cy - (y0 + y1) / 2) <= lh / 2 and crop[sl][comp].std(axis=0).max() < 40:
                return True
    return False


HANDLE_SPAN = (1.4, 3.2)
"""Ems a line legend's handle spans (matplotlib's is 2 em long: a stroke, dashed or solid, with a marker or none)."""


def stroke_left(rgb: np.ndarray, box: Box, em: float) -> bool:
    """True when a line legend's handle is drawn just left of the text box ``box`` (type size
    ``em`` pixels), whatever OCR read of it (a dashed stroke and its square marker read as lines
    of their own, "— i" and "-", beside "Returns": a tenth tester's dual-axis chart): in the rows
    within half an em of the text's middle, pixels of one colour off the background (RGB distance
    > 60 from the crop's median) whose columns run ``HANDLE_SPAN`` ems from their first to their
    last, inked on at least half of them, the run's right end within 1.5 em of the text and its
    left end clear of the crop's edge (a grid line or a rule runs on: no handle); over those
    columns the colour spans no more than 1.2 em up and down, looked at 1.5 em either way of the
    text's middle (a pie's wedge beside its label runs on: no handle)."""
    x0, y0, x1, y1 = box
    lh = max(1.0, em)
    mid = (y0 + y1) / 2
    a, b = max(0, int(x0 - (HANDLE_SPAN[1] + 2.5) * lh)), max(0, int(x0 - 1))
    top, bottom = max(0, int(mid - lh / 2)), min(rgb.shape[0], int(mid + lh / 2) + 1)
    high, low = max(0, int(mid - 1.5 * lh)), min(rgb.shape[0], int(mid + 1.5 * lh) + 1)
    if b - a < HANDLE_SPAN[0] * lh or bottom - top < 3:
        return False
    crop = rgb[top:bottom, a:b].astype(np.int16)
    tall = rgb[high:low, a:b].astype(np.int16)
    bg = np.median(crop.reshape(-1, 3), axis=0)
    for colour in main_colours(crop.reshape(-1, 3), 0.5 * lh)[:4]:
        if np.sqrt(((colour - bg) ** 2).sum()) <= 60:
            continue
        cols = np.nonzero((np.abs(crop - colour).max(axis=2) <= 40).any(axis=0))[0]
        if not len(cols) or cols[0] == 0:
            continue
        span = cols[-1] - cols[0] + 1
        near = (b - a) - cols[-1] <= 1.5 * lh
        if not (HANDLE_SPAN[0] * lh <= span <= HANDLE_SPAN[1] * lh and len(cols) >= span / 2 and near):
            continue
        rows = np.nonzero((np.abs(tall[:, cols[0] : cols[-1] + 1] - colour).max(axis=2) <= 40).any(axis=1))[0]
        if rows[-1] - rows[0] + 1 <= 1.2 * lh:
            return True
    return False


def main_colours(pixels: np.ndarray, least: float, most: int = 6) -> list[np.ndarray]:
    """The colours (RGB, 0-255) of at least ``least`` of ``pixels`` ((N, 3)), most frequent first,
    at most ``most``."""
    if not len(pixels):
        return []
    # one int per colour: a 1-D unique sorts several times faster than rows (axis=0), in the same order
    keys = (pixels[:, 0].astype(np.int32) << 16) | (pixels[:, 1].astype(np.int32) << 8) | pixels[:, 2]
    packed, counts = np.unique(keys, return_counts=True)
    colours = np.stack([packed >> 16, (packed >> 8) & 255, packed & 255], axis=1).astype(pixels.dtype)
    order = np.argsort(-counts)[:most]
    return [colours[k] for k in order if counts[k] >= least]


def handle_left(page: _Page, li: int, wi: int) -> bool:
    """True when OCR read a line legend's handle (``_HANDLE``: a marker between two strokes,
    "—e—"; or a plain stroke, 2 em long, read as one dash 1.6 em or wider) as the word just left of word ``wi`` of
    line ``li``, within 1.5 em of it."""
    words = page.lines[li].words
    if wi == 0:
        return False
    mark = words[wi - 1]
    wide = mark.box[2] - mark.box[0] >= 1.6 * max(1.0, page.sizes[li])  # a typeset dash is 1 em at most
    drawn = len(mark.text) == 1 and mark.text in "\u2012\u2013\u2014\u2015" and wide
    if not (_HANDLE.fullmatch(mark.text) or drawn):
        return False
    return words[wi].box[0] - words[wi - 1].box[2] <= 1.5 * max(1.0, page.sizes[li])
