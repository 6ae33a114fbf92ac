"""Type matching: which installed face, size and baseline reproduce the text in a box.

The OCR-read string is rendered in every candidate face (family x weight x slant) at the size
that gives its ink the box's ink height (and, as a second guess, its ink width); the candidate
whose coverage map is closest to the crop's (mean absolute difference of coverage in [0, 1],
over the union of both ink boxes) wins. Coverage of the crop is its luminance rescaled between
the background and the text colour, so anti-aliased edges count fractionally and the comparison
works the same for dark-on-light and light-on-dark text. Engines set text off the pixel grid
(matplotlib at any fraction of a pixel, across and down), so each word is compared at its best of
16 sub-pixel phases of its rendering (``phased``).

The slant is measured, not left to the score: italic and oblique faces are candidates only when
the crop's dominant stroke angle is clearly slanted (``measure_slant``), and then only they are.
A bold upright title scored a bold italic face higher (the slanted strokes of one face can fit
a heavier upright face's pixels better than its own upright cut), so an upright original was
retypeset in italics.

Candidate faces are the DejaVu and Liberation families Debian installs (``scripts/setup.sh``
installs both when missing; the table is ``documents.fonts``); faces whose file is absent are skipped.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from documents.fonts import Face


@dataclass(frozen=True)
class TypeStyle:
    """The type of one line of text.

    Attributes:
        face: the matched face.
        size: em size in pixels.
        baseline: y of the baseline in image pixels.
        left: x where the pen starts (anchor "ls") so the ink starts where the original's did.
        ink: RGB text colour.
        score: 1 - mean absolute coverage difference to the crop, in [0, 1] (1 = identical).
        setting: how a pen write sets the glyphs (``engine_advance.SETTINGS``): "hinted", PIL's
            own rendering, unless ``pen_phase.set_like`` found another reproduces the page.
    """

    face: Face
    size: float
    baseline: float
    left: float
    ink: tuple[int, int, int]
    score: float
    setting: str = "hinted"


def coverage(crop: np.ndarray, ink: tuple[int, int, int], bg: tuple[int, int, int]) -> np.ndarray:
    """float32 (H, W) in [0, 1]: how much of each pixel of ``crop`` (uint8 (H, W, 3)) is text,
    from its luminance between ``bg`` (0) and ``ink`` (1), ITU-R BT.601 weights."""
    wts = np.array([0.299, 0.587, 0.114], np.float32)
    lum = crop.astype(np.float32) @ wts
    li, lb = float(np.dot(ink, wts)), float(np.dot(bg, wts))
    if abs(li - lb) < 1e-3:
        return np.zeros(lum.shape, np.float32)
    return np.clip((lum - lb) / (li - lb), 0.0, 1.0)


def render_coverage(text: str, font: ImageFont.FreeTypeFont) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """Coverage map float32 (h, w) in [0, 1] of ``text``'s ink and its ink box relative to the
    pen position (anchor "ls": left end of the baseline). The map is read-only: the last
    :data:`RENDER_MEMO` renders are remembered (type matching renders each word of a line in
    every candidate face and size, and again for a narrower list of faces)."""
    key = (text, font.path, font.size, font.index, font.layout_engine)
    if key in _RENDERS:
        _RENDERS.move_to_end(key)
        return _RENDERS[key]
    x0, y0, x1, y1 = font.getbbox(text, anchor="ls")
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    im = Image.new("L", (w, h), 0)
    ImageDraw.Draw(im).text((-x0, -y0), text, font=font, fill=255, anchor="ls")
    cov = np.asarray(im, np.float32) / 255.0
    cov.flags.writeable = False
    _RENDERS[key] = found = cov, (x0, y0, x1, y1)
    while len(_RENDERS) > RENDER_MEMO:
        _RENDERS.popitem(last=False)
    return found


RENDER_MEMO = 4096
"""How many renders ``render_coverage`` remembers (a word at 20 px: about 6 KB)."""

_RENDERS: OrderedDict[tuple, tuple[np.ndarray, tuple[int, int, int, int]]] = OrderedDict()


PHASES = (0.0, 0.25, 0.5, 0.75)
"""Sub-pixel offsets (px, right and down) at which ``phased`` sets each rendering. A renderer places
text at fractional positions (matplotlib's annotation "Deploy v2.7", 16.7 px DejaVu Sans white on
a dark chart, sat 0.3 px right and half a pixel down of the pixel grid): each one-pixel stem then
spreads over two columns, and compared with PIL's rendering at whole pixels DejaVu Sans scored
0.64 and DejaVu Serif 0.69; set at its own phase the Sans scores 0.85-0.90 and the Serif 0.79."""

PHASED_MEMO = 1024
"""How many ``phased`` answers are remembered (16 maps each)."""

_PHASED: OrderedDict[tuple, tuple[np.ndarray, ...]] = OrderedDict()


def shift_coverage(cov: np.ndarray, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """``cov`` (float (h, w) in [0, 1]) moved right by each of ``fx`` and down by each of ``fy`` px
    (1-d arrays of floats in [0, 1)), area-sampled (each pixel takes the shares of the pixels it
    overlaps): float32 (len(fy), len(fx), h + 1, w + 1)."""
    fx, fy = np.asarray(fx, np.float32)[:, None, None], np.asarray(fy, np.float32)[:, None, None, None]
    h, w = cov.shape
    across = np.zeros((len(fx), h, w + 1), np.float32)
    across[:, :, :w] = (1 - fx) * cov
    across[:, :, 1:] += fx * cov
    out = np.zeros((len(fy), len(fx), h + 1, w + 1), np.float32)
    out[:, :, :h] = (1 - fy) * across
    out[:, :, 1:] += fy * across
    return out


def phased(text: str, font: ImageFont.FreeTypeFont) -> tuple[np.ndarray, ...]:
    """``text``'s rendering (``render_coverage``) set at each sub-pixel offset of ``PHASES`` x
    ``PHASES`` (``shift_coverage``), each cropped to its ink (coverage >= 0.35, as ``ink_bounds``);
    the first is the rendering at whole pixels. Empty when the text has no ink. Remembered
    (``PHASED_MEMO``)."""
    key = (text, font.path, font.size, font.index, font.layout_engine)
    if key in _PHASED:
        _PHASED.move_to_end(key)
        return _PHASED[key]
    ren, _ = render_coverage(text, font)
    grid = np.asarray(PHASES, np.float32)
    maps = shift_coverage(ren, grid, grid).reshape(-1, ren.shape[0] + 1, ren.shape[1] + 1)
    inked = maps >= 0.35
    rows, cols = inked.any(2), inked.any(1)
    out = []
    for m, r, c in zip(maps, rows, cols):
        ys, xs = np.flatnonzero(r), np.flatnonzero(c)
        if len(ys):
            out.append(m[ys[0] : ys[-1] + 1, xs[0] : xs[-1] + 1])
    _PHASED[key] = found = tuple(out)
    while len(_PHASED) > PHASED_MEMO:
        _PHASED.popitem(last=False)
    return found


def ink_bounds(cov: np.ndarray, level: float = 0.35) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1) of pixels with coverage >= ``level``, or None when there are none."""
    ys, xs = np.nonzero(cov >= level)
    if not len(ys):
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _compare(obs: np.ndarray, ren: np.ndarray) -> float:
    """1 - mean |obs - ren| over the padded union of the two maps, both aligned at their top-left."""
    h, w = max(obs.shape[0], ren.shape[0]), max(obs.shape[1], ren.shape[1])
    a, b = np.zeros((h, w), np.float32), np.zeros((h, w), np.float32)
    a[: obs.shape[0], : obs.shape[1]] = obs
    b[: ren.shape[0], : ren.shape[1]] = ren
    union = (a > 0.1) | (b > 0.1)
    return 1.0 - float(np.abs(a - b)[union].mean()) if union.any() else 0.0


def _best_compare(obs: np.ndarray, shifted: tuple[np.ndarray, ...]) -> float:
    """The largest ``_compare(obs, ren)`` over the maps ``shifted`` (non-empty), in one pass over
    them stacked (zero padding is in neither map's ink, so it changes no score)."""
    h = max(obs.shape[0], *(r.shape[0] for r in shifted))
    w = max(obs.shape[1], *(r.shape[1] for r in shifted))
    a = np.zeros((h, w), np.float32)
    a[: obs.shape[0], : obs.shape[1]] = obs
    b = np.zeros((len(shifted), h, w), np.float32)
    for k, ren in enumerate(shifted):
        b[k, : ren.shape[0], : ren.shape[1]] = ren
    union = (a > 0.1) | (b > 0.1)
    n = union.sum(axis=(1, 2))
    diff = np.where(union, np.abs(a - b), 0.0).sum(axis=(1, 2), dtype=np.float64)
    return float(np.where(n > 0, 1.0 - diff / np.maximum(n, 1), 0.0).max())


def _observed(arr: np.ndarray, box, ink, bg):
    """(coverage cropped to its ink, ink box in image pixels) of ``box`` grown by 2 px, or None."""
    h_img, w_img = arr.shape[:2]
    x0, y0 = max(0, int(box[0]) - 2), max(0, int(box[1]) - 2)
    x1, y1 = min(w_img, int(box[2]) + 2), min(h_img, int(box[3]) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    cov = coverage(arr[y0:y1, x0:x1], ink, bg)
    ib = ink_bounds(cov)
    if ib is None:
        return None
    return cov[ib[1] : ib[3], ib[0] : ib[2]], (x0 + ib[0], y0 + ib[1], x0 + ib[2], y0 + ib[3])


SLANT_SHEARS = np.round(np.arange(-0.15, 0.5001, 0.025), 3)
"""Horizontal shears (x shift per pixel of height, tan of the stroke angle) tried by ``measure_slant``."""
SUBPIXEL = 4
"""Samples per pixel of the projection profiles of ``measure_slant``."""
MIN_SLANT = 0.1
"""Least shear (about 6 degrees) that counts as italic: the italic and oblique cuts installed lean 0.125-0.2,
upright cuts measure 0.0."""
MIN_SLANT_GAIN = 1.01
"""Least ratio of the sheared profile's sharpness to the upright one's for a slant to count as measured.
Rendered in the 16 installed faces, 8 strings at 12-30 px: upright cuts gain at most 1.001; italic cuts
of 18 px and more 1.0075-1.2 (63 of 64 at 18 px counted), of 12-16 px 1.0-1.13 (43-55 of 64 counted:
the rest are typeset upright)."""


def measure_slant(cov: np.ndarray) -> tuple[float, float]:
    """(shear, gain) of the ink in a coverage map (float (H, W) in [0, 1]).

    The dominant stroke angle: the ink is sheared back by each of ``SLANT_SHEARS`` (rows shifted
    left in proportion to their height above the bottom row) and projected onto the x axis; the
    shear whose projection is sharpest (largest sum of squares: vertical strokes pile up into
    peaks) wins. ``shear`` is its tan of the angle from vertical (positive: leaning right, as
    italics do); ``gain`` the ratio of its sharpness to the unsheared one's (>= 1; 1.0 for an
    upright or empty map). Deslanting by projection profiles is the classic handwriting-OCR
    normalisation (Vinciarelli and Luettin, 2001).
    """
    ys, xs = np.nonzero(cov > 0.05)
    if not len(ys):
        return 0.0, 1.0
    wts = cov[ys, xs].astype(np.float64)
    height = ys.max() - ys
    sharp = {}
    for s in SLANT_SHEARS:
        # each pixel projects as a box one pixel wide, sampled at a quarter pixel: rounding to whole
        # columns favours some shears by aliasing, interpolating blurs every one but the upright
        start = np.rint((xs - s * height) * SUBPIXEL).astype(int)
        prof = np.convolve(np.bincount(start - start.min(), weights=wts), np.ones(SUBPIXEL))
        sharp[float(s)] = float((prof**2).sum())
    best = max(sharp, key=lambda s: (sharp[s], -abs(s)))
    return best, sharp[best] / max(sharp[0.0], 1e-12)


def is_slanted(cov: np.ndarray) -> bool:
    """Whether the ink of ``cov`` is clearly italic: its ``measure_slant`` shear is at least
    ``MIN_SLANT`` with a gain of at least ``MIN_SLANT_GAIN``."""
    shear, gain = measure_slant(cov)
    return shear >= MIN_SLANT and gain >= MIN_SLANT_GAIN


def slant_faces(faces: list[Face], cov: np.ndarray) -> list[Face]:
    """The faces of ``faces`` whose slant is the one measured in ``cov``: the italic ones when it
    is clearly slanted, else the upright ones; all of ``faces`` when none has that slant (a single
    given font file)."""
    italic = is_slanted(cov)
    same = [f for f in faces if f.italic == italic]
    return same or list(faces)


_MATCHED: OrderedDict[tuple, TypeStyle | None] = OrderedDict()
"""The last :data:`MATCH_MEMO` answers of ``match_type``, by what decides them (the pixels it looks
at, the boxes, the strings, the colours and the faces): a refine iteration matches the type of the
page's body lines again on every edit (0.1 s per line), and an edit leaves most lines as they were."""

MATCH_MEMO = 2048
"""How many ``match_type`` answers are remembered (each a few hundred bytes)."""


def forget_types() -> None:
    """Forget the remembered answers of ``match_type`` and renders of ``render_coverage``."""
    _MATCHED.clear()
    _RENDERS.clear()
    _PHASED.clear()


def match_type(arr: np.ndarray, box, text: str, ink, bg, faces: list[Face], words=None) -> TypeStyle | None:
    """The face, size and pen position that best reproduce ``text`` as drawn in ``box``.

    Args:
        arr: uint8 (H, W, 3) image.
        box: (x0, y0, x1, y1) pixels around the text (an OCR box; a loose box is fine).
        text: the string as OCR read it from the box (what the pixels show).
        ink, bg: RGB text and background colours (``colours.two_means_colours``).
        faces: candidates (``installed_faces()``).
        words: optional ``[(box, text)]`` of the line's words: each is then compared on its own
            (aligned at its own ink), so word spacing and one misread letter do not decide the face.

    Returns:
        The best ``TypeStyle`` or None when the box holds no ink or ``text`` is blank. Its face has
        the slant measured in the box (``slant_faces``) whenever ``faces`` holds one. The same
        pixels and arguments give the same answer, remembered (``MATCH_MEMO``).
    """
    key = _match_key(arr, box, text, ink, bg, faces, words)
    if key in _MATCHED:
        _MATCHED.move_to_end(key)
        return _MATCHED[key]
    found = _match_type(arr, box, text, ink, bg, faces, words)
    _MATCHED[key] = found
    while len(_MATCHED) > MATCH_MEMO:
        _MATCHED.popitem(last=False)
    return found


def _match_key(arr: np.ndarray, box, text: str, ink, bg, faces: list[Face], words) -> tuple:
    """What ``match_type``'s answer depends on: the pixels of every box it crops (each grown by 2 px,
    as ``_observed`` does) as one digest, and its other arguments."""
    words = tuple((tuple(int(v) for v in b), t) for b, t in (words or []))
    boxes = [tuple(int(v) for v in box)] + [b for b, _ in words]
    h, w = arr.shape[:2]
    x0, y0 = max(0, min(b[0] for b in boxes) - 2), max(0, min(b[1] for b in boxes) - 2)
    x1, y1 = min(w, max(b[2] for b in boxes) + 2), min(h, max(b[3] for b in boxes) + 2)
    crop = np.ascontiguousarray(arr[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else np.zeros(0, np.uint8)
    pixels = hashlib.blake2b(crop.tobytes(), digest_size=16).digest()
    colours = (tuple(float(v) for v in ink), tuple(float(v) for v in bg))
    return (pixels, crop.shape, (h, w), boxes[0], text, colours, tuple(faces), words)


def _score(parts: list[tuple[np.ndarray, str]], fnt: ImageFont.FreeTypeFont) -> float:
    """Mean ``_compare`` of each observed part (coverage, text) with its text rendered in ``fnt``
    at its best sub-pixel phase (``phased``), weighted by the part's area."""
    total = weight = 0.0
    for part_obs, part_text in parts:
        shifted = phased(part_text, fnt)
        if not shifted:
            continue
        wgt = float(part_obs.size)
        total += wgt * _best_compare(part_obs, shifted)
        weight += wgt
    return total / weight if weight else 0.0


def _match_type(arr: np.ndarray, box, text: str, ink, bg, faces: list[Face], words=None) -> TypeStyle | None:
    text = " ".join(text.split())
    if not text or not faces:
        return None
    whole = _observed(arr, box, ink, bg)
    if whole is None:
        return None
    obs, (ix0, iy0, ix1, iy1) = whole
    parts = [
        (o[0], t) for o, t in ((_observed(arr, b, ink, bg), t) for b, t in (words or [])) if o is not None and t.strip()
    ]
    if len(parts) < 2:
        parts = [(obs, text)]
    best, per_face = None, {}
    for face in slant_faces(faces, obs):
        ref = face.font(100)
        rx0, ry0, rx1, ry1 = ref.getbbox(text, anchor="ls")
        by_height, by_width = 100 * (iy1 - iy0) / max(1, ry1 - ry0), 100 * (ix1 - ix0) / max(1, rx1 - rx0)
        mid = (by_height + by_width) / 2
        # integer sizes near each guess too: documents are mostly typeset at whole pixel sizes, and
        # the two guesses of a short string ("01") can straddle its size
        guesses = {by_height, by_width, mid} | {float(round(g) + d) for g in (by_height, mid) for d in (-1, 0, 1)}
        for size in sorted(g for g in guesses if 4 <= g <= 4 * max(iy1 - iy0, 8)):
            fnt = face.font(size)
            score = _score(parts, fnt)
            if face not in per_face or score > per_face[face].score:
                # pen position: the whole rendered string's ink top-left lands on the observed one's
                ren, (bx0, by0, _, _) = render_coverage(text, fnt)
                rb = ink_bounds(ren) or (0, 0, 1, 1)
                per_face[face] = TypeStyle(
                    face, round(size * 4) / 4, float(iy0 - (by0 + rb[1])), float(ix0 - (bx0 + rb[0])), tuple(ink), score
                )
                best = per_face[face] if best is None or score > best.score else best
    return _weight_by_ink(best, per_face, obs, text)


WEIGHT_MARGIN = 0.02
"""Score within which a face's other weight (same family and slant) is a near tie, decided by ink."""


def _weight_by_ink(best: TypeStyle | None, per_face: dict, obs: np.ndarray, text: str) -> TypeStyle | None:
    """``best``, or its face's other weight when that scored within ``WEIGHT_MARGIN`` of it and its
    rendering of ``text`` holds an amount of ink nearer the observed one's (``obs``, coverage):
    matplotlib's Liberation Serif, hinted otherwise than PIL's, scored its bold within 0.002 of its
    regular at some phases, while the bold holds 0.71 of the observed ink and the regular 0.88 (of
    the one-word lines of 11 tester pages, a line's own weight held 0.92-1.17 of its ink, the other
    weight 0.64-0.96 or 1.24-1.68)."""
    if best is None:
        return best
    twin = next(
        (
            st
            for f, st in per_face.items()
            if (f.family, f.italic) == (best.face.family, best.face.italic) and f.bold != best.face.bold
        ),
        None,
    )
    if twin is None or twin.score < best.score - WEIGHT_MARGIN:
        return best

    def off(st: TypeStyle) -> float:  # how far the rendering's ink is from the observed, as a log ratio
        ren, _ = render_coverage(text, st.face.font(st.size))
        return abs(float(np.log(max(float(obs.sum()), 1e-6) / max(float(ren.sum()), 1e-6))))

    return twin if off(twin) < off(best) else best


def stroke_width(cov: np.ndarray, level: float = 0.5) -> float:
    """Mean stroke width in pixels of the ink in a coverage map: 2 x ink area / ink perimeter
    (a stroke of width w and length L has area wL and perimeter ~2L). 0.0 without ink."""
    ink = cov >= level
    area = int(ink.sum())
    if not area:
        return 0.0
    pad = np.pad(ink, 1)
    edges = (
        (pad[1:-1, 1:-1] & ~pad[:-2, 1:-1]).sum()
        + (pad[1:-1, 1:-1] & ~pad[2:, 1:-1]).sum()
        + (pad[1:-1, 1:-1] & ~pad[1:-1, :-2]).sum()
        + (pad[1:-1, 1:-1] & ~pad[1:-1, 2:]).sum()
    )
    return 2.0 * area / max(1, int(edges))
