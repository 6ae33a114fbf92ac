"""Axis tick marks erased before the page passes read a chart.

A chart's tick marks are short thin strokes on the outside of an axis line, a few pixels from
their labels. Tesseract 5.3 reads them into the labels: matplotlib's x tick "|" over "Jan" grows
the word's box upwards (so the row of tick labels no longer has one type size), and a y tick
"-" right of "60" is read as a digit ("604", "S604"; ``documents.engines`` line charts).
:func:`erase_ticks` paints them the page colour on the copy the page passes read; the fill,
rotated and glyph checks keep the original pixels.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

AXIS_SHARE = 0.3
"""An axis line is a straight run of ink at least this share of the image's width (height)..."""

MIN_AXIS = 100
"""... and at least this many pixels: a glyph's stroke in a strip read again on its own is no axis."""

TICK_LENGTH = (2, 12)
"""Pixels: a tick mark's length outside its axis line."""

TICK_WIDTH = 3
"""Pixels: a tick mark's widest stroke."""


def _axis_spans(ink: np.ndarray, min_run: int) -> dict[int, np.ndarray]:
    """Per row of ``ink`` (bool (H, W)) that holds a run of True at least ``min_run`` long: bool (W,),
    the columns of those runs."""
    out = {}
    for y in np.flatnonzero(ink.sum(axis=1) >= min_run):
        edges = np.flatnonzero(np.diff(np.concatenate([[0], ink[y].astype(np.int8), [0]])))
        cols = np.zeros(ink.shape[1], bool)
        for a, b in zip(edges[::2], edges[1::2]):
            if b - a >= min_run:
                cols[a:b] = True
        if cols.any():
            out[int(y)] = cols
    return out


def _ticks_below(ink: np.ndarray) -> np.ndarray:
    """The pixels of tick marks under the horizontal axis lines of ``ink`` (bool (H, W)): lines
    (runs of ``AXIS_SHARE`` of the width and ``MIN_AXIS`` pixels, at most 3 rows thick, not the
    edge of a filled shape: less than 90% ink over them); under the line's columns, runs of ink
    ``TICK_LENGTH`` long that end before ``TICK_LENGTH[1]``, in groups of at most ``TICK_WIDTH``
    columns with no ink in the column on either side."""
    h, w = ink.shape
    marks = np.zeros_like(ink)
    axes = _axis_spans(ink, max(MIN_AXIS, int(AXIS_SHARE * w)))
    lo, hi = TICK_LENGTH
    for y, on in axes.items():
        if y + 1 in axes or y + 1 >= h:
            continue  # not the line's last row: ticks hang from that
        t = next(k for k in range(1, h + 1) if y - k not in axes)  # the line's thickness
        if t > 3 or (y - t >= 0 and ink[y - t][on].mean() >= 0.9):
            continue  # the edge of a filled shape (a band, a bar, a pie), not a line
        band = ink[y + 1 : min(h, y + 2 + hi)]
        length = np.argmin(np.vstack([band, np.zeros((1, w), bool)]), axis=0)  # ink rows before the first gap
        cand = on & (length >= lo) & (length <= hi) & (length < band.shape[0])
        x = 0
        while x < w:
            if not cand[x]:
                x += 1
                continue
            x1 = x
            while x1 + 1 < w and cand[x1 + 1]:
                x1 += 1
            left_free = x == 0 or not band[0, x - 1]
            right_free = x1 + 1 >= w or not band[0, x1 + 1]
            if x1 - x + 1 <= TICK_WIDTH and left_free and right_free:
                for c in range(x, x1 + 1):
                    marks[y + 1 : y + 1 + length[c], c] = True
            x = x1 + 1
    return marks


def tick_marks(gray: np.ndarray) -> np.ndarray:
    """Bool (H, W): the pixels of ``gray`` (uint8 (H, W)) that are tick marks outside an axis line:
    under a horizontal one (x ticks) or left of a vertical one (y ticks). Ink is luminance 60 off
    the median."""
    ink = np.abs(gray.astype(np.int16) - int(np.median(gray))) > 60
    below = _ticks_below(ink)
    left = _ticks_below(ink.T[::-1])[::-1].T  # a vertical line turned: its left side is below it
    return below | left


def erase_ticks(rgb: Image.Image) -> Image.Image:
    """``rgb`` with its tick marks (:func:`tick_marks`) painted the page colour (the median pixel);
    ``rgb`` itself when it has none."""
    a = np.asarray(rgb.convert("RGB"))
    marks = tick_marks(np.asarray(rgb.convert("L")))
    if not marks.any():
        return rgb
    out = a.copy()
    out[marks] = np.median(a.reshape(-1, 3), axis=0).astype(np.uint8)
    return Image.fromarray(out)
