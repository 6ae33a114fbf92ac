"""A line's pen position to a quarter pixel, from its first word's antialiased edge.

A browser sets text at fractional positions: a list indented 1.2 em at 18.6 px starts its items
at x = 71.4, and ``Range.getBoundingClientRect`` reports the box from 71.4, which an integer box
holds from 71 (floor) to the end's ceiling. Type matching (``type_match.match_type``) puts the pen
where the whole-pixel rendering's first ink column meets the observed one's, so an item whose
first letter's left edge is faint ("T", "O") is given 72 and another of the same list 71 (dev
Chromium lists of seeds 24-71: 30 of 101 items one pixel right of the engine's box). A new item
written at 72 ends its ink a column past the box the engine would give it. ``set_like`` measures
the fraction: the first word rendered at the matched size, moved right by quarter pixels
(``type_match.shift_coverage``, area-sampled), against the observed coverage; for a pen write, the
whole line, in each of several settings of the type (``engine_advance.SETTINGS``: the hinted glyphs
PIL draws, matplotlib's hinted advances, Chromium's unhinted outlines), sizes and baselines, keeping
the one that reproduces it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.engine_advance import render
from refine.editors.text.type_match import TypeStyle, coverage

OFFSETS = (-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75)
"""Pen offsets (px) from the whole-pixel match tried (``set_like``)."""


def set_like(arr: np.ndarray, word_box, word: str, styles: list[TypeStyle], drops=(0,)) -> TypeStyle:
    """Of ``styles`` (one line's type under different ``setting`` and size, ``engine_advance``), the
    one whose rendering of ``word`` at its best pen (``style.left`` plus one of ``OFFSETS``) and
    baseline (``style.baseline`` plus one of ``drops``, px) differs least from the observed pixels
    in the word's box grown by 3 px, with ``left`` and ``baseline`` there.

    Args:
        arr: uint8 (H, W, 3) page.
        word_box: (x0, y0, x1, y1) OCR box of the text rendered (a word, or a whole line).
        word: that text as read.
        styles: candidates, the first the fallback (returned as it is when the text renders no ink
            or the box leaves the page).
        drops: baseline offsets tried (px; a hinted match's baseline is a whole row, a browser
            sets an unhinted one at a fraction).

    Returns:
        The best candidate, ``left`` set to its best pen (px, a multiple of 0.25 from its ``left``).
    """
    H, W = arr.shape[:2]
    x0, y0 = int(word_box[0]) - 3, int(word_box[1]) - 3
    x1, y1 = int(word_box[2]) + 3, int(word_box[3]) + 3
    if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
        return styles[0]
    ink, bg = box_colours(arr, word_box)
    obs = coverage(arr[y0:y1, x0:x1], ink, bg)
    best, best_err = styles[0], math.inf
    for style in styles:
        for d in OFFSETS:
            pen = style.left + d
            for drop in drops:
                ren, ox, oy = render(word, style.face, style.size, style.setting, pen, style.baseline + drop)
                if not ren.any():
                    continue
                canvas = np.zeros_like(obs)
                cx0, cy0 = ox - x0, oy - y0
                a0, b0 = max(0, cx0), max(0, cy0)
                a1, b1 = min(obs.shape[1], cx0 + ren.shape[1]), min(obs.shape[0], cy0 + ren.shape[0])
                if a1 <= a0 or b1 <= b0:
                    continue
                canvas[b0:b1, a0:a1] = ren[b0 - cy0 : b1 - cy0, a0 - cx0 : a1 - cx0]
                err = float(np.abs(canvas - obs).sum())
                if err < best_err - 1e-6:
                    best, best_err = replace(style, left=pen, baseline=style.baseline + drop), err
    return best
