"""Look-alikes compared at the page's own scale: a second opinion for small digits.

:func:`rewards.text.ocr.lookalikes.check_word` compares a word's binarised ink, enlarged, with
glyphs rendered at 96 px. At 7-14 px (source notes, footers, table cells, value labels drawn by
matplotlib or Chromium) a binarised glyph is a few pixels wide, and that check mostly "cannot
tell": "2025" in a 9 px source note, "$7.00" in a menu, "+17%" in a table cell. Enlarging the
ink instead was tried and let more look-alike drawings pass (``docs/offline-judge.md``).

Here the comparison is made the other way round: the candidates (the word and its look-alikes,
:func:`rewards.text.ocr.lookalikes.swaps`) are drawn at the ink's own size, anti-aliased (drawn at
:data:`SUPERSAMPLE` times and averaged down, at two sub-pixel offsets, a few sizes around the one
whose ink height matches, with the font's own advances and with advances rounded to whole pixels
as Chromium lays text out), and compared in grey levels with the page's ink ("darkness": 0 = the
background around the word, 1 = the ink) at the best shift of up to :data:`SHIFT` pixels
(:func:`grey_fit`: normalised cross-correlation). A look-alike drawn at the same size is as
blurred as the page is, so a glyph a pixel wider (O against 0) or a missing foot (l against 1)
shows.

The face is taken from the word's line (:func:`line_fonts`): the reference fonts
(``rewards.text.ocr.lookalikes.FONTS``) that fit the other words of the line as read about as
well as the best one, so a lone "2025" is not matched in a monospaced face that happens to fit
"2O25". A word alone on its line takes the faces that fit any of its candidates about as well as
the best. In each such face the word must fit at least :data:`FIT` and lead every look-alike by
:data:`LEAD`; then it is **confirmed**. Anything else stays "cannot tell": this check never finds
a look-alike, it only confirms.

Only the letter/digit look-alikes (O/0, l/1/I, S/5, B/8 in a word with a digit) are checked so:
at 10-14 px an "rn" drawn by PIL blurs into an "m", and this comparison confirmed "Terms" for a
drawn "Terrns" (2 of 288 look-alike drawings), so for m / rn it never decides alone: a word
with m / rn the glyph check cannot tell is confirmed only when this comparison confirms it and
tesseract reading the word alone, enlarged, reads it too (``lookalikes._m_rn``,
:mod:`rewards.text.ocr.word_reread`).
"""

from __future__ import annotations

import functools
import os

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 4
"""Candidates are drawn at this many times the size and averaged down (anti-aliasing)."""
SIZES = (0.92, 0.96, 1.0, 1.04, 1.08)
"""Sizes tried around the one whose ink height matches the page's (hinting moves heights a pixel)."""
SHIFT = 2
"""Pixels the candidate may move against the ink, each way."""
FIT = 0.85
"""The word's grey-level fit in the line's face must reach this."""
LEAD = 0.04
"""...and lead each look-alike's fit by this."""
FONT_TIE = 0.015
"""Fonts whose fit is within this of the best are all kept, and the word must be confirmed in each."""
LINE_FIT = 0.8
"""The line's face must fit its other words at least this well on average (else no face is trusted)."""
LINE_WORDS = 4
"""At most this many other words of the line are used to find its face (the longest)."""
INK = 0.35
"""Darkness above which a pixel counts as ink (for boxes and heights)."""


def darkness(gray: np.ndarray) -> np.ndarray | None:
    """The ink of a grey crop (uint8, the word with a ring of background) as darkness in [0, 1]:
    0 at the ring's median level, 1 at the level farthest from it (the 2nd or 98th percentile),
    cropped to the ink with one pixel around. None when the crop holds no ink (< 32 levels apart)."""
    g = gray.astype(np.float64)
    if g.shape[0] < 3 or g.shape[1] < 3:
        return None
    bg = float(np.median(np.concatenate([g[0], g[-1], g[1:-1, 0], g[1:-1, -1]])))
    lo, hi = np.percentile(g, 2), np.percentile(g, 98)
    ink = lo if abs(lo - bg) > abs(hi - bg) else hi
    if abs(ink - bg) < 32:
        return None
    return _crop(np.clip((g - bg) / (ink - bg), 0.0, 1.0))


def _crop(d: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(d > INK)
    if len(ys) == 0:
        return None
    return d[max(0, ys.min() - 1) : ys.max() + 2, max(0, xs.min() - 1) : xs.max() + 2]


LAYOUTS = ("fractional", "whole_pixels", "hinted")
"""How a candidate is drawn (:func:`drawn`)."""


@functools.lru_cache(maxsize=8192)
def drawn(text: str, font_path: str, size8: int, offset: int, layout: str = "fractional") -> np.ndarray | None:
    """``text`` in ``font_path`` at ``size8 / 8`` px as darkness cropped like :func:`darkness`.
    ``layout`` (:data:`LAYOUTS`): "fractional" and "whole_pixels" draw at :data:`SUPERSAMPLE` times
    the size, moved right by ``offset`` sub-pixels, and average down (anti-aliased, unhinted);
    "whole_pixels" advances each character by its width rounded to whole pixels at that size, as
    a browser lays text out without sub-pixel positioning (Chromium on Linux), "fractional" by the
    font's own advances (matplotlib). "hinted" draws at the size itself (FreeType's hinting, as PIL
    and hinting engines draw), from ``offset`` quarter pixels (PIL starts a line at a fractional x,
    which moves where each glyph is rounded to)."""
    s = 1 if layout == "hinted" else SUPERSAMPLE
    font = ImageFont.truetype(font_path, max(1.0, size8 / 8 * s))
    x0, y0, x1, y1 = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=font)
    w, h = ((x1 - x0 + 8 * s + offset + 2 * s * len(text)) // s + 1) * s, ((y1 - y0 + 8 * s) // s + 1) * s
    image = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(image)
    if layout == "whole_pixels":
        x = 4 * s - x0 + offset
        for ch in text:
            draw.text((x, 4 * s - y0), ch, font=font, fill=255)
            x += s * round(font.getlength(ch) / s)
    else:
        draw.text((4 * s - x0 + offset * s / SUPERSAMPLE, 4 * s - y0), text, font=font, fill=255)
    a = np.asarray(image, dtype=np.float64).reshape(h // s, s, w // s, s).mean(axis=(1, 3)) / 255.0
    return _crop(a)


def grey_fit(ink: np.ndarray, candidate: np.ndarray) -> float:
    """The normalised cross-correlation of ``ink`` and ``candidate`` (darkness maps) on one canvas
    (the larger of the two plus :data:`SHIFT` each way), at the candidate's best shift: a
    candidate wider or narrower than the ink, or a glyph of another shape, leaves ink unmatched.
    In [-1, 1]. (Letting each glyph move a pixel on its own was tried: it let a narrow "l" fit
    where a "1" is drawn, and "6,111" in a table cell was no longer confirmed.)"""
    h, w = candidate.shape
    H, W = max(ink.shape[0], h) + 2 * SHIFT, max(ink.shape[1], w) + 2 * SHIFT
    canvas = np.zeros((H, W))
    canvas[SHIFT : SHIFT + ink.shape[0], SHIFT : SHIFT + ink.shape[1]] = ink
    n = H * W
    pm, rm = canvas.mean(), candidate.sum() / n
    pvar = (canvas * canvas).sum() - n * pm * pm
    rvar = (candidate * candidate).sum() - n * rm * rm
    if pvar <= 0 or rvar <= 0:
        return 0.0
    windows = sliding_window_view(canvas, (h, w))
    cross = np.einsum("ijkl,kl->ij", windows, candidate) - n * pm * rm
    return float(cross.max() / np.sqrt(pvar * rvar))


def fit(ink: np.ndarray, text: str, font_path: str) -> float:
    """The best :func:`grey_fit` of ``text`` drawn in ``font_path`` at the ink's size (:data:`SIZES`
    around the size whose ink height matches, two sub-pixel offsets, unhinted; and hinted at the
    whole pixel sizes among them)."""
    rows = np.flatnonzero((ink > INK).any(axis=1))
    big = drawn(text, font_path, 96 * 8, 0)  # at 96 px: the ink height of this text in this face
    if len(rows) == 0 or big is None:
        return -1.0
    size = (rows[-1] - rows[0] + 1) * 96 / (big.shape[0] - 2)
    tries = [(round(size * f * 8), offset, layout) for f in SIZES for layout in LAYOUTS[:2] for offset in (0, 2)]
    # hinting works in whole px sizes; PIL starts a line at a fractional x, which moves each glyph's rounding
    tries += [(8 * px, offset, "hinted") for px in sorted({round(size * f) for f in SIZES}) for offset in range(4)]
    fits = [grey_fit(ink, cand) for args in tries if (cand := drawn(text, font_path, *args)) is not None]
    return max(fits, default=-1.0)


def word_ink(image: Image.Image, box) -> np.ndarray | None:
    """The darkness map (:func:`darkness`) of an OCR word's box with a 2-pixel ring around it."""
    x0, y0, x1, y1 = (int(v) for v in box)
    region = (max(0, x0 - 2), max(0, y0 - 2), min(image.width, x1 + 3), min(image.height, y1 + 3))
    return darkness(np.asarray(image.convert("L").crop(region)))


def _word_fonts(ink: np.ndarray, words: list[str], fonts) -> list[str]:
    """A word alone on its line: the ``fonts`` that fit any of ``words`` about as well as the best."""
    return _near_best([(max(fit(ink, w, f) for w in words), f) for f in fonts])


def _near_best(scored: list[tuple[float, str]]) -> list[str]:
    """The fonts of ``scored`` ((fit, font) pairs) within :data:`FONT_TIE` of the best, best first."""
    best = max(scored)[0]
    return [f for v, f in sorted(scored, reverse=True) if v >= best - FONT_TIE]


def line_fonts(image: Image.Image, words, fonts) -> list[str]:
    """The reference fonts that fit ``words`` (OCR words beside the one checked, ``text`` and
    ``box``, those that tell most first: ``rewards.text.ocr.lookalikes.context_words``) as read
    about as well as the best one (within :data:`FONT_TIE`), on average over the first
    :data:`LINE_WORDS` with at least 3 characters; empty when there is
    no such word or no font reaches :data:`LINE_FIT`. At 10 px a regular face and its bold often
    fit almost equally: both are kept, and a word must be confirmed in each."""
    inks = []
    for w in [w for w in words if len(w.text) >= 3][:LINE_WORDS]:
        ink = word_ink(image, w.box)
        if ink is not None and ink.shape[0] >= 5:
            inks.append((w.text, ink))
    if not inks:
        return []
    scored = [(sum(fit(ink, text, f) for text, ink in inks) / len(inks), f) for f in fonts]
    return _near_best(scored) if max(scored)[0] >= LINE_FIT else []


def confirms(image: Image.Image, box, word: str, look_alikes, line_words, fonts, faces=None) -> tuple[bool, dict]:
    """Whether the ink of ``box`` (an OCR word's) shows ``word`` rather than any of ``look_alikes``
    (words, each one letter/digit look-alike away), compared at the ink's own scale in the
    reference ``fonts`` (paths; module docstring). ``line_words``: the other OCR words of its line;
    ``faces``: their fonts when already found (:func:`line_fonts`).
    Returns (confirmed, details: ``fonts``, ``fits``: font -> candidate -> fit)."""
    ink = word_ink(image, box)
    if not look_alikes or ink is None or ink.shape[0] < 5 or not fonts:
        return False, {}
    words = [word, *dict.fromkeys(look_alikes)]
    if faces is None:
        faces = line_fonts(image, line_words, fonts)
    fonts = faces or _word_fonts(ink, words, fonts)
    fits = {os.path.basename(f): {w: round(fit(ink, w, f), 4) for w in words} for f in fonts}
    ok = all(
        row[word] >= FIT and all(row[word] >= v + LEAD for w, v in row.items() if w != word) for row in fits.values()
    )
    return ok, {"fonts": list(fits), "fits": fits}
