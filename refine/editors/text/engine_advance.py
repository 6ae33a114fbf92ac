"""Setting a string where an engine sets its glyphs: advances, positions and outlines (``SETTINGS``).

``benchmarks/text_width.py`` measured, on the dev engine documents (seeds 0-23, every one-line
text, in the face and size the engine used), PIL's width of each string against the engine's:

- Chromium (``Range.getBoundingClientRect``, 466 strings): PIL's raqm layout at the size, what
  ``Face.font`` gives, is within 0.5 px on 99% (mean |error| 0.22 px, the misses are glyphs Chromium
  takes from another font); its basic layout (hinted whole-pixel advances) on 43% (1.81 px).
  The width is right; the pixels are not: PIL renders each glyph hinted, at a whole pixel. Set
  at the engine's pen, PIL's rendering missed Chromium's coverage by 0.34 of its ink (dev pages
  0-11, 227 strings) and ended its ink in another column on 45%; rendered at ``SUPER`` times the
  size at the pen's quarter pixel and area-averaged down (unhinted outlines at their unhinted
  positions, as Skia draws with ``--font-render-hinting=none``), 0.22 and 5%.
- matplotlib (``Text.get_window_extent``, 435 strings): the basic layout is within 0.5 px on 87%
  (mean |error| 0.17 px), raqm on 32% (1.65 px: raqm sets them narrower); rendered, basic
  missed Agg's coverage by 0.30 of its ink, raqm and the unhinted rendering by 0.51 (dev charts
  0-9, 170 strings).

A page does not say which engine drew it, so ``pen_phase.set_like`` tries each setting on the line
a list item is written beside and keeps the one that reproduces it (legend entries keep "hinted").
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from documents.fonts import Face
from refine.editors.text.type_match import render_coverage, shift_coverage

SUPER = 4
"""Oversampling of the "linear" setting: the string is set at this many times its size (hinting then
moves an outline by at most 1/SUPER px) at the pen's nearest 1/SUPER px and area-averaged down."""

SETTINGS = ("hinted", "basic", "linear")
"""``hinted``: PIL's raqm layout and hinted glyphs (what the editor drew before); ``basic``: PIL's basic
layout (hinted advances, as matplotlib's Agg); ``linear``: raqm's unhinted advances,
unhinted outlines at quarter pixels (as Chromium)."""


def set_font(face: Face, size: float, setting: str) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` px (a quarter pixel, as ``Face.font``; "linear" a sixteenth, as
    ``linear_size`` finds it) with ``setting``'s layout.

    Raises:
        ValueError: ``setting`` is not one of ``SETTINGS``.
    """
    if setting not in SETTINGS:
        raise ValueError(f"setting must be one of {SETTINGS}, got {setting!r}")
    if setting == "basic":
        return _basic(face.path, round(max(4.0, size) * 4) / 4)
    if setting == "linear":
        return _raqm(face.path, _sixteenth(size))
    return face.font(size)


@lru_cache(maxsize=256)
def _raqm(path: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=256)
def _basic(path: str, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


def advance(text: str, face: Face, size: float, setting: str) -> float:
    """The pen's travel (px) over ``text`` in ``face`` at ``size`` under ``setting``."""
    if setting == "linear":
        return _big(face.path, _sixteenth(size)).getlength(text) / SUPER
    return set_font(face, size, setting).getlength(text)


def linear_size(face: Face, size: float, text: str, span: int) -> float:
    """The size (px, to 1/16) at which ``text``'s unhinted ink in ``face`` spans ``span`` columns
    (``set_width.ink_span``: every column its antialiased edges touch, about one more than the
    outline's extent), when that is within ``MAX_SCALE`` of ``size``; else ``size``. Unhinted, the
    extent is the size times a constant; type matching's sizes are quarter pixels, and a 16.25 px
    Liberation Sans item of a 16 px Chromium list ended its ink two columns past the engine's."""
    x0, _, x1, _ = _big(face.path, _sixteenth(size)).getbbox(text, anchor="ls")
    extent = (x1 - x0) / SUPER
    if extent <= 0 or span <= 1:
        return size
    scale = (span - 1) / extent
    return _sixteenth(size * scale) if 1 / MAX_SCALE <= scale <= MAX_SCALE else size


MAX_SCALE = 1.06
"""The most ``linear_size`` moves a matched size by (6%, as ``set_width.MAX_NARROW``)."""


def _sixteenth(size: float) -> float:
    return round(max(4.0, size) * 16) / 16


@lru_cache(maxsize=256)
def _big(path: str, size: float) -> ImageFont.FreeTypeFont:
    """The file at ``path`` at ``SUPER`` x ``size`` px, raqm layout."""
    return ImageFont.truetype(path, size * SUPER)


def render(
    text: str, face: Face, size: float, setting: str, pen: float, baseline: float
) -> tuple[np.ndarray, int, int]:
    """``text``'s coverage with its pen at x = ``pen`` on a baseline at y = ``baseline`` (px, both
    fractional: "linear" sets both to ``SUPER``-ths of a pixel, the hinted settings the pen to
    an area-shifted fraction and the baseline to a whole row).

    Returns:
        (float32 (h, w) coverage in [0, 1], the image column of its first column, the image row of
        its first row).

    Raises:
        ValueError: ``setting`` is not one of ``SETTINGS``.
    """
    if setting == "linear":
        sub = int(round((pen - math.floor(pen)) * SUPER))  # the pen's quarter pixel, 0..SUPER
        drop = int(round((baseline - math.floor(baseline)) * SUPER))
        alpha, col, row = _linear(text, face.path, _sixteenth(size), sub, drop)
        return alpha, math.floor(pen) + col, math.floor(baseline) + row
    cov, (bx0, by0, _, _) = render_coverage(text, set_font(face, size, setting))
    left, oy = pen + bx0, int(round(baseline + by0))
    ox = math.floor(left)
    if left == ox:
        return np.asarray(cov, np.float32), ox, oy
    return shift_coverage(cov, np.array([left - ox]), np.array([0.0]))[0, 0, :-1], ox, oy


@lru_cache(maxsize=1024)
def _linear(text: str, path: str, size: float, sub: int, drop: int) -> tuple[np.ndarray, int, int]:
    """(coverage, first column, first row) of ``text`` set at ``SUPER`` x ``size`` with its pen
    ``sub`` / ``SUPER`` px right of column 0 and its baseline ``drop`` / ``SUPER`` px below row 0,
    area-averaged down."""
    font = _big(path, size)
    x0, y0, x1, y1 = font.getbbox(text, anchor="ls")
    c0, r0 = math.floor((x0 + sub) / SUPER), math.floor((y0 + drop) / SUPER)
    c1, r1 = math.ceil((x1 + sub) / SUPER), math.ceil((y1 + drop) / SUPER)
    w, h = max(1, c1 - c0), max(1, r1 - r0)
    im = Image.new("L", (w * SUPER, h * SUPER), 0)
    ImageDraw.Draw(im).text((sub - c0 * SUPER, drop - r0 * SUPER), text, font=font, fill=255, anchor="ls")
    cov = np.asarray(im, np.float32).reshape(h, SUPER, w, SUPER).mean((1, 3)) / 255.0
    cov.flags.writeable = False
    return cov, c0, r0
