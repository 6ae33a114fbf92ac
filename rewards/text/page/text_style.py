"""The ink colour and stroke weight of a word, measured from the judged image and its OCR box.

**Ink and background** (``ink_of``). The word's box is grown by ``PAD`` pixels; the grown
box's outer ``PAD``-pixel ring is the local background (its per-channel median). Each pixel's
*inkness* is its RGB distance to the background; two means (Lloyd's 2-means on that distance,
started at 0 and at the 98th percentile) split background from ink. This works for dark text on
a light page and for light text on a dark band or badge alike. When that "ink" covers most of
the box (``FILL_COVERAGE``: OCR gave the box of a whole badge or button), it is a fill, and the
text is separated again among the pixels the fill encloses, against the fill's median colour.
``alpha`` in [0, 1] is (distance - background mean) / (ink mean - background mean), clipped: an
anti-aliased edge pixel counts as part ink, so coverage is measured below one pixel.

**Colour** (``colour_name``). The ink colour is the median RGB of the core ink (pixels with
alpha >= 0.75), named from HSV: low chroma is white / gray / black by value, otherwise the hue
bin (red, orange, yellow, green, blue, purple, pink), with dark orange-red hues named brown and
light, weakly saturated red hues pink. Values near a bin edge (``*_MARGIN``) give None: the
judge then does not know, rather than guess.

**Weight** (``stroke_ratio``). For each ink pixel the horizontal and vertical run through it
(alpha > 0.2) is measured as the sum of alpha along the run (the run's width in pixels of
full ink, exact under anti-aliasing); the pixel's stroke thickness is the shorter of the two;
the word's stroke width is the alpha-weighted median over core pixels. It is divided by the
font size in pixels (em), estimated from the ink's height and the word's characters: capitals,
digits and ascenders reach ``TALL_EM`` of the em, lowercase x-height letters ``SHORT_EM``,
descenders add ``DESCENT_EM`` (the means of DejaVu Sans/Serif and Liberation Sans/Serif).
Bold is a ratio above ``BOLD_RATIO``, regular below ``REGULAR_RATIO``; between, or when the em
is under ``MIN_EM_PX``, None. Thresholds were calibrated on renders of the installed faces
(``scripts/calibrate_text_style.py``, seeds of the fidelity set's dev split).

Boxes are ``(x0, y0, x1, y1)`` pixels of the image, x1/y1 exclusive. A box outside the image is
clipped, and an empty crop gives None estimates; an image that is not uint8 (H, W, 3) raises
ValueError.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

PAD = 3
"""Pixels the box is grown by; the grown box's outer ring of this width is the background."""

MIN_CONTRAST = 40.0
"""RGB distance (0-441) the ink mean must lie from the background; less: no ink found."""

MIN_INK_PIXELS = 12
"""Core ink pixels needed for a colour or weight estimate."""

FILL_COVERAGE = 0.6
"""Share of the box's pixels: "ink" covering more is a fill (a badge or button the OCR box
spans whole), and the text is then looked for in the fill's holes, against the fill's colour."""

RING_INK = 0.2
"""Share of the ring's pixels: "ink" in more of the ring means the box cuts a fill (OCR gave
part of a badge), handled as ``FILL_COVERAGE``."""

MAX_RING_SPREAD = 0.35
"""The ring's median distance to the background over the ink's: above it the background is
not flat (a photo, a gradient, another element in the ring) and no estimate is given."""

# colour bins (HSV: value and chroma in 0-255, hue in degrees)
ACHROMATIC_CHROMA = 36.0
"""Chroma (max - min channel) below this: white, gray or black."""
CHROMA_MARGIN = 14.0
"""Chroma within this of ``ACHROMATIC_CHROMA`` (either side): unknown."""
BLACK_VALUE, WHITE_VALUE = 78.0, 205.0
"""Achromatic value (max channel) up to BLACK_VALUE is black, from WHITE_VALUE white, between gray."""
VALUE_MARGIN = 14.0
"""Value within this of BLACK_VALUE or WHITE_VALUE: unknown."""
PALE_SATURATION = 0.15
"""A light colour (value above WHITE_VALUE + VALUE_MARGIN) with HSV saturation below this is
white whatever its chroma: JPEG chroma subsampling tints thin white strokes with the fill."""
HUE_BINS = (
    (15, "red"),
    (45, "orange"),
    (70, "yellow"),
    (165, "green"),
    (255, "blue"),
    (315, "purple"),
    (340, "pink"),
    (360, "red"),
)
"""Upper hue edge (degrees, exclusive) of each bin, in order."""
HUE_MARGIN = 5.0
"""Hue within this many degrees of a bin edge: unknown."""
BROWN_MAX_VALUE = 175.0
"""Red/orange hues (up to 45 degrees) with value at most this are brown."""

# weight (stroke width / em)
TALL_EM, SHORT_EM, DESCENT_EM, SHORT_DESCENT_EM = 0.72, 0.53, 0.22, 0.12
"""Fractions of the em: cap/ascender height, x-height, descender depth (g, j, p, q, y), and the
depth of shorter descents (comma, semicolon, brackets, "$", "Q")."""
REGULAR_RATIO, BOLD_RATIO = 0.118, 0.130
"""Stroke width / em at most REGULAR_RATIO is regular, at least BOLD_RATIO bold, between unknown."""
MIN_EM_PX = 12.0
"""Pixels: a smaller estimated font size is too small to tell the weight."""

_TALL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhklt%$&#@?!/\\()[]{}|'\"ij")
_DESC = set("gjpqy")
_SHORT_DESC = set(",;()[]{}|$Q")


@dataclass(frozen=True)
class Ink:
    """Ink separated from its local background in one crop.

    Attributes:
        alpha: float (H, W) in [0, 1]: how much of each pixel is ink.
        rgb: the core ink's median colour, 0-255 ints.
        background: the ring's median colour, 0-255 ints.
        core_pixels: pixels with alpha >= 0.75.
    """

    alpha: np.ndarray
    rgb: tuple[int, int, int]
    background: tuple[int, int, int]
    core_pixels: int


@dataclass(frozen=True)
class Style:
    """The measured style of one string (``measure``).

    Attributes:
        rgb: ink colour (0-255) or None when no ink was separated.
        colour: a ``rewards.text.questions.question_compiler.COLOURS`` name, or None (unknown).
        stroke_ratio: stroke width / em, or None.
        weight: "bold", "regular", or None (unknown).
        word_colours: per word ``(colour name or None, characters)``.
    """

    rgb: tuple[int, int, int] | None
    colour: str | None
    stroke_ratio: float | None
    weight: str | None
    word_colours: tuple[tuple[str | None, int], ...] = ()

    def as_dict(self) -> dict:
        """JSON-ready evidence: ``{"rgb", "colour", "stroke_ratio", "weight", "word_colours"}``."""
        return {
            "rgb": list(self.rgb) if self.rgb else None,
            "colour": self.colour,
            "stroke_ratio": None if self.stroke_ratio is None else round(self.stroke_ratio, 4),
            "weight": self.weight,
            "word_colours": [c for c, _ in self.word_colours],
        }


def ink_of(rgb: np.ndarray, box: tuple[int, int, int, int], pad: int = PAD) -> Ink | None:
    """Separate the ink of ``box`` in ``rgb`` (uint8 (H, W, 3)) from its local background.

    Returns None when the box is empty after clipping, the ink lies less than ``MIN_CONTRAST``
    from the background, the background ring is not flat (``MAX_RING_SPREAD``), or fewer than
    ``MIN_INK_PIXELS`` core ink pixels remain.

    Raises:
        ValueError: ``rgb`` is not a uint8 array of shape (H, W, 3).
    """
    if rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"ink_of: expected a uint8 (H, W, 3) image, got {rgb.dtype} {rgb.shape}")
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    gx0, gy0, gx1, gy1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    if gx1 - gx0 <= 2 * pad or gy1 - gy0 <= 2 * pad:
        return None
    crop = rgb[gy0:gy1, gx0:gx1].astype(np.float64)
    ring = np.ones(crop.shape[:2], bool)
    ring[pad:-pad, pad:-pad] = False
    bg = np.median(crop[ring], axis=0)
    alpha = _two_means(crop, bg, ~ring)
    if alpha is None:
        return None
    if (alpha[~ring] >= 0.5).mean() > FILL_COVERAGE or (alpha[ring] >= 0.5).mean() > RING_INK:
        # the box spans or cuts a filled badge: its text is what the fill encloses, against the fill
        return _ink_in_fill(rgb, (gx0, gy0, gx1, gy1), np.median(crop[alpha >= 0.75], axis=0))
    if float(np.median(np.linalg.norm(crop[ring] - bg, axis=1))) > MAX_RING_SPREAD * _contrast(crop, bg, alpha):
        return None
    alpha[ring] = 0.0
    return _ink(crop, alpha, bg)


def _ink_in_fill(rgb: np.ndarray, grown: tuple[int, int, int, int], fill_rgb: np.ndarray) -> Ink | None:
    """The ink inside ``grown`` (the box plus its ring, pixels) that a flat fill of colour
    ``fill_rgb`` encloses: the fill is followed in a window grown by the box's longer side, its
    holes are the text, and the text is separated from the fill's colour."""
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = grown
    g = max(x1 - x0, y1 - y0)
    wx0, wy0, wx1, wy1 = max(0, x0 - g), max(0, y0 - g), min(w, x1 + g), min(h, y1 + g)
    win = rgb[wy0:wy1, wx0:wx1].astype(np.float64)
    in_box = np.zeros(win.shape[:2], bool)
    in_box[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0] = True
    near_fill = np.linalg.norm(win - fill_rgb, axis=2) < MIN_CONTRAST / 2
    labels, _ = ndimage.label(near_fill)
    fill = np.isin(labels, np.unique(labels[in_box & near_fill]))
    inside = ndimage.binary_erosion(ndimage.binary_fill_holes(fill), iterations=2) & in_box
    if not (inside & ~fill).any():
        return None
    bg = np.median(win[fill & inside], axis=0) if (fill & inside).any() else fill_rgb
    alpha = _two_means(win, bg, inside)
    if alpha is None:
        return None
    alpha[~inside] = 0.0
    rows, cols = slice(y0 - wy0, y1 - wy0), slice(x0 - wx0, x1 - wx0)
    return _ink(win[rows, cols], alpha[rows, cols], bg)


def _ink(crop: np.ndarray, alpha: np.ndarray, bg: np.ndarray) -> Ink | None:
    core = alpha >= 0.75
    if core.sum() < MIN_INK_PIXELS:
        return None
    ink_rgb = np.median(crop[core], axis=0)
    return Ink(alpha, tuple(int(round(c)) for c in ink_rgb), tuple(int(round(c)) for c in bg), int(core.sum()))


def _contrast(crop: np.ndarray, bg: np.ndarray, alpha: np.ndarray) -> float:
    """The ink's mean RGB distance to ``bg`` (pixels with alpha >= 0.75)."""
    return float(np.linalg.norm(crop[alpha >= 0.75] - bg, axis=1).mean())


def _two_means(crop: np.ndarray, bg: np.ndarray, where: np.ndarray) -> np.ndarray | None:
    """Alpha (H, W) in [0, 1] of the ink against colour ``bg``, by 2-means on the RGB distance to
    ``bg`` among the pixels ``where`` (alpha is computed for every pixel). None: no ink (all one
    cluster, or the clusters' means less than ``MIN_CONTRAST`` apart)."""
    dist = np.linalg.norm(crop - bg, axis=2)
    values = dist[where]
    if values.size == 0:
        return None
    lo, hi = 0.0, float(np.percentile(values, 98))
    for _ in range(20):
        is_ink = values > (lo + hi) / 2
        if not is_ink.any() or is_ink.all():
            return None
        new_lo, new_hi = float(values[~is_ink].mean()), float(values[is_ink].mean())
        if abs(new_lo - lo) < 0.1 and abs(new_hi - hi) < 0.1:
            break
        lo, hi = new_lo, new_hi
    if hi - lo < MIN_CONTRAST:
        return None
    return np.clip((dist - lo) / (hi - lo), 0.0, 1.0)


def colour_name(rgb: tuple[int, int, int]) -> str | None:
    """The ``COLOURS`` name of ``rgb`` (0-255), or None when it lies within a margin of a bin
    edge (see the module docstring; bins in ``HUE_BINS`` and the value/chroma constants)."""
    r, g, b = (float(c) for c in rgb)
    value, chroma = max(r, g, b), max(r, g, b) - min(r, g, b)
    pale = value > WHITE_VALUE + VALUE_MARGIN and chroma / value < PALE_SATURATION  # a white tinted by its fill
    if abs(chroma - ACHROMATIC_CHROMA) < CHROMA_MARGIN and not pale:
        return None
    if chroma < ACHROMATIC_CHROMA or pale:
        if abs(value - BLACK_VALUE) < VALUE_MARGIN or abs(value - WHITE_VALUE) < VALUE_MARGIN:
            return None
        return "black" if value < BLACK_VALUE else "white" if value > WHITE_VALUE else "gray"
    hue = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)[0] * 360.0
    if 8 <= hue < 45 and value < BROWN_MAX_VALUE + VALUE_MARGIN:  # dark orange-red: brown
        return "brown" if value <= BROWN_MAX_VALUE - VALUE_MARGIN else None
    if (hue < 15 or hue >= 340) and value > 200 and chroma / value < 0.45:  # light, pale red: pink
        return "pink"
    if any(abs(hue - edge) < HUE_MARGIN for edge, _ in HUE_BINS[:-1]):
        return None
    return next(name for edge, name in HUE_BINS if hue < edge)


def _run_widths(alpha: np.ndarray, on: np.ndarray) -> np.ndarray:
    """For every pixel of ``on`` (bool (H, W)), the sum of ``alpha`` along its horizontal run
    of ``on`` pixels (0 off the runs). Float (H, W), pixels."""
    h, w = on.shape
    padded = np.zeros((h, w + 1), bool)
    padded[:, :w] = on
    flat = padded.ravel()
    starts = flat & ~np.concatenate([[False], flat[:-1]])
    ids = np.cumsum(starts) * flat
    a = np.zeros((h, w + 1))
    a[:, :w] = alpha
    sums = np.bincount(ids, weights=a.ravel() * flat)
    sums[0] = 0.0
    return sums[ids].reshape(h, w + 1)[:, :w]


def em_fraction(text: str) -> float:
    """The fraction of the em that the ink of ``text`` spans vertically (module constants)."""
    chars = set(text)
    descent = DESCENT_EM if chars & _DESC else SHORT_DESCENT_EM if chars & _SHORT_DESC else 0.0
    return (TALL_EM if chars & _TALL else SHORT_EM) + descent


def stroke_ratio(ink: Ink, text: str) -> tuple[float, float] | None:
    """(stroke width / em, em in pixels) of ``ink`` showing ``text``, or None when the ink has
    no core or the em is under ``MIN_EM_PX``."""
    alpha = ink.alpha
    on = alpha > 0.2
    rows = np.nonzero(alpha.sum(axis=1) >= 0.5)[0]
    if rows.size == 0:
        return None
    em = float(rows[-1] - rows[0] + 1) / em_fraction(text)
    if em < MIN_EM_PX:
        return None
    thick = np.minimum(_run_widths(alpha, on), _run_widths(alpha.T, on.T).T)
    core = alpha >= 0.75
    if core.sum() < MIN_INK_PIXELS:
        return None
    return float(np.median(thick[core])) / em, float(em)


def weight_name(ratio: float) -> str | None:
    """ "bold", "regular", or None between ``REGULAR_RATIO`` and ``BOLD_RATIO``."""
    return "bold" if ratio >= BOLD_RATIO else "regular" if ratio <= REGULAR_RATIO else None


def measure(rgb: np.ndarray, words: list[tuple[tuple[int, int, int, int], str]]) -> Style:
    """The style of a string shown by ``words`` (``(box, text)`` per OCR word) in ``rgb`` (uint8
    (H, W, 3)).

    Colour: each word with separable ink is named (``colour_name``); ``Style.colour`` is the
    name they share, else None; ``Style.word_colours`` keeps every word's (name, characters).
    Weight: the character-weighted median of the words' stroke ratios, named by
    ``weight_name``. ``Style.rgb`` is the ink colour of the longest word with ink.

    Raises:
        ValueError: ``rgb`` is not a uint8 array of shape (H, W, 3) (``ink_of``).
    """
    inks = [(ink_of(rgb, box), text) for box, text in words]
    word_colours = tuple((colour_name(i.rgb) if i is not None else None, len(t)) for i, t in inks)
    names = {c for c, _ in word_colours}
    longest = max(((len(t), i.rgb) for i, t in inks if i is not None), default=(0, None))[1]
    ratios = sorted((r[0], len(t)) for i, t in inks if i is not None for r in [stroke_ratio(i, t)] if r is not None)
    ratio, acc = None, 0
    for r, n in ratios:
        acc += n
        if acc >= sum(k for _, k in ratios) / 2:
            ratio = r
            break
    return Style(
        longest,
        names.pop() if len(names) == 1 else None,
        ratio,
        weight_name(ratio) if ratio is not None else None,
        word_colours,
    )


def matches(style: Style, weight: str | None, colour: str | None) -> bool | None:
    """Whether ``style`` has the asked ``weight`` and ``colour`` (None: not asked).

    False when a measured part clearly differs (a word's colour is known and another name; the
    weight is known and the other one); True when every asked part is known and equal (the
    colour of words holding at least half of the characters is known, all equal to ``colour``);
    otherwise None (cannot tell).
    """
    verdicts = []
    if colour is not None:
        known = [(c, n) for c, n in style.word_colours if c is not None]
        total = sum(n for _, n in style.word_colours)
        if any(c != colour for c, _ in known):
            return False
        verdicts.append(True if known and 2 * sum(n for _, n in known) >= total else None)
    if weight is not None:
        if style.weight is not None and style.weight != weight:
            return False
        verdicts.append(True if style.weight == weight else None)
    return None if None in verdicts else True
