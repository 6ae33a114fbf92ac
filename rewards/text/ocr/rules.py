"""Table rules (grid lines) erased before the page passes read a page.

A table drawn with a border round every cell (matplotlib's ``plt.table``, a spreadsheet export)
puts a thin vertical rule a few pixels from each cell's text. Tesseract 5.3 then segments the
whole body as one block and reads garbage: a tester's 3-row vendor table read
"[aveoesk [7 [ame |e" for "Bluepeak 97.8% 63 ms B ...", so every body cell was answered a false
"no". With the rules painted the page colour every cell string was read. :func:`erase_rules`
paints the long thin straight runs of ink that make a grid (a table's cell borders; not a chart's
axes) on the copy the page passes read; the fill, rotated, glyph and structure checks keep the
original pixels.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from scipy import ndimage

MIN_RULE = 60
"""Pixels: a rule is a straight run of ink at least this long (a glyph's stroke is shorter at the
type sizes read; a strip read again on its own is narrower than a rule needs)..."""

RULE_WIDTH = 3
"""... and at most this many pixels thick (a bar, a band or a filled box is thicker)..."""

CLEAR_SIDES = 0.8
"""... with no ink two pixels off it, on both sides, along at least this share of its length: a rule
stands on the page. (The dark gaps between the white letters of a title band are thin straight
runs too, but the band is ink beside them above and below the letters.)"""

GRID_RULES = 3
"""Rules of each direction a grid holds at least: a table of one header and one row has 3 horizontal
rules, of two columns 3 vertical ones."""


def _runs(ink: np.ndarray, min_run: int) -> np.ndarray:
    """Bool like ``ink`` (bool (H, W)): the pixels of horizontal runs of True at least ``min_run`` long."""
    out = np.zeros_like(ink)
    for y in np.flatnonzero(ink.sum(axis=1) >= min_run):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], ink[y].astype(np.int8), [0]])))
        for a, b in zip(edges[::2], edges[1::2]):
            if b - a >= min_run:
                out[y, a:b] = True
    return out


def _thin(runs: np.ndarray, width: int) -> np.ndarray:
    """The pixels of ``runs`` (bool (H, W), horizontal runs) whose vertical stack of run pixels is at
    most ``width`` thick: a line, not the inside of a filled shape."""
    out = np.zeros_like(runs)
    for x in np.flatnonzero(runs.any(axis=0)):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], runs[:, x].astype(np.int8), [0]])))
        for a, b in zip(edges[::2], edges[1::2]):
            if b - a <= width:
                out[a:b, x] = True
    return out


def _on_page(lines: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The connected parts of ``lines`` (bool (H, W), horizontal lines) with no ink two pixels above
    and below them along ``CLEAR_SIDES`` of their length (an edge of the image counts as clear)."""
    labels, _ = ndimage.label(lines)
    out = np.zeros_like(lines)
    padded = np.pad(ink, 2)
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        (y0, y1), (x0, x1) = (sl[0].start, sl[0].stop), (sl[1].start, sl[1].stop)
        above = ~padded[y0, x0 + 2 : x1 + 2]  # row y0 - 2 of ink
        below = ~padded[y1 + 3, x0 + 2 : x1 + 2]  # row y1 + 1 of ink
        if (above & below).mean() >= CLEAR_SIDES:
            out[sl] |= labels[sl] == k
    return out


def _grids(across: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The rules of ``across`` and ``down`` (bool (H, W): horizontal and vertical rules) that belong to
    a grid: a connected set of rules (touching within 2 px) with at least ``GRID_RULES`` of each
    direction, as a table's cell borders. A chart's axis lines and spine box (at most 2 of a
    direction) are kept: erasing a lone axis changed how tesseract read the value labels past the
    bars ("45" -> "as" on a drawn test chart)."""
    rules = across | down
    groups, n = ndimage.label(ndimage.binary_dilation(rules, iterations=2), structure=np.ones((3, 3)))
    h_parts, _ = ndimage.label(across)
    v_parts, _ = ndimage.label(down)
    keep = np.zeros(n + 1, bool)
    for g in range(1, n + 1):
        inside = groups == g
        n_h = len(np.unique(h_parts[inside & across]))
        n_v = len(np.unique(v_parts[inside & down]))
        keep[g] = n_h >= GRID_RULES and n_v >= GRID_RULES
    return rules & keep[groups]


def rule_pixels(gray: np.ndarray) -> np.ndarray:
    """Bool (H, W): the pixels of ``gray`` (uint8 (H, W)) on the rules of a grid (``_grids``): runs of
    ink (luminance 60 off the median) at least ``MIN_RULE`` long, at most ``RULE_WIDTH`` thick, clear
    of ink on both sides (``CLEAR_SIDES``)."""
    ink = np.abs(gray.astype(np.int16) - int(np.median(gray))) > 60
    across = _on_page(_thin(_runs(ink, MIN_RULE), RULE_WIDTH), ink)
    down = _on_page(_thin(_runs(ink.T, MIN_RULE), RULE_WIDTH), ink.T).T
    if not (across.any() and down.any()):
        return across & down
    return _grids(across, down)


def erase_rules(rgb: Image.Image) -> Image.Image:
    """``rgb`` with its rules (:func:`rule_pixels`) painted the page colour (the median pixel);
    ``rgb`` itself when it has none."""
    marks = rule_pixels(np.asarray(rgb.convert("L")))
    if not marks.any():
        return rgb
    a = np.asarray(rgb.convert("RGB"))
    out = a.copy()
    out[marks] = np.median(a.reshape(-1, 3), axis=0).astype(np.uint8)
    return Image.fromarray(out)
