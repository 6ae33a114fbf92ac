"""Look-alike characters: before a string tesseract read exactly counts as shown, the glyphs it
may have confused are compared with rendered candidates.

Tesseract's language model turns a glyph that looks like another character into the character
the context expects: a capital O drawn among digits ("Latte 3.5O", visibly wider than a zero) is
read as "3.50", and "Total l00" (a lower-case l) as "Total 100" (DejaVu Sans 30 px, tesseract 5.3).
A check that expects exactly the digits would then be answered "yes" for a price that is not
what the menu prints. The confusable groups (:data:`GROUPS`) are O/0, l/1/I, S/5, B/8 and
rn/m.

For each OCR word of a found string whose text holds such a character (:func:`swaps`: the
letter/digit look-alikes only in a word holding a digit, m / rn in any word), the word's ink (its
box, binarised at Otsu's threshold, cropped to the ink) is compared with the word and each
look-alike word rendered in the reference fonts (:data:`FONTS`, those installed):

1. the font: the one whose render of any candidate fits the whole ink best (:func:`similarity`:
   normalised cross-correlation of the two masks resized to one box and lightly blurred, times
   the ratio of their aspect ratios); among the three best, the first whose render of the word
   splits into as many glyphs (ink column spans, :func:`glyph_spans`) as the ink, else (touching
   glyphs, "AP" kerned) the best, its glyph columns scaled onto the ink's;
2. per confusable glyph: the ink's glyph (full word height, so a taller or wider glyph shows) is
   compared with the same glyph of the word's render and of the look-alike's render; m / rn by
   the renders' glyph counts (the ink splits as one of them) and the "m" glyph's fit;
3. the expected glyph beats the look-alike by :data:`MARGIN` and fits at least :data:`GLYPH_FIT`:
   confirmed; the look-alike beats it by :data:`MARGIN`: ``looks_like``; otherwise, no font
   fits (:data:`MIN_FIT`): ``cannot_tell``. m / rn in touching glyphs: the whole words, by
   :data:`WORD_MARGIN`.

The word's box is read with a 2-pixel ring around it, and the ink is the class the ring mostly
is not (a bold "8" fills most of its tight box, so "fewer pixels" took the background for ink).
Known cost: touching serif "m" in common words ("primary", "Members") often cannot be told from
"rn", and is withheld; letting "cannot tell" pass for m / rn confirmed 25 of 450 look-alike
drawings instead of 5, so it stays withheld.
A word the glyph check cannot tell is compared again at its own size, in grey levels
(:mod:`rewards.text.ocr.lookalike_scale`), which may confirm it; for m / rn only together with
tesseract reading the word alone, enlarged (:mod:`rewards.text.ocr.word_reread`, :func:`_m_rn`).
An "i" / "l" (:func:`_i_or_l`) is never confirmed, only found: in a word tesseract read
below :data:`SURE` confidence, a glyph read "i" that is one unbroken stem (:func:`dotted`) is a
look-alike doubt.
Only "confirmed" lets a "yes" stand; the judge withholds otherwise (``rewards.judges.ocr``),
naming the word and its look-alikes. Measured (``python benchmarks/lookalike_check.py``: 15 pairs
at 14 / 22 / 34 px): in the reference fonts 374 of 450 correctly drawn words confirmed, 5 of
450 look-alike drawings confirmed (a false "yes"; every one was before); in fonts not among them
(oblique, condensed, extra light, narrow, italic) 144 of 270 and 4 of 270.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.lookalike_scale import INK, confirms, line_fonts, word_ink
from rewards.text.ocr.text_match import Line, Word
from rewards.text.ocr.word_reread import reads_as

GROUPS = (("0", "O"), ("1", "l", "I"), ("5", "S"), ("8", "B"), ("m", "rn"))
"""Characters (and "rn") tesseract reads one for another; each group's members are look-alikes."""

_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
_FONT_FILES = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansMono.ttf",
    "LiberationSans-Regular.ttf",
    "LiberationSans-Bold.ttf",
    "LiberationSerif-Regular.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationMono-Regular.ttf",
)
FONTS = tuple(p for d in _FONT_DIRS for f in _FONT_FILES if os.path.isfile(p := os.path.join(d, f)))
"""The reference fonts the candidates are rendered in (those of :data:`_FONT_FILES` installed)."""

MARGIN = 0.03
"""Similarity one candidate must lead the others by to decide (similarities in [-1, 1])."""
MIN_FIT = 0.6
"""Below this best similarity no reference font fits the word: it cannot tell."""
WORD_MARGIN = 0.1
"""m / rn in touching glyphs: the lead the whole word must have over its look-alike word."""
GLYPH_FIT = 0.7
"""A glyph is confirmed only when it matches the expected character's render at least this well."""
MAX_CANDIDATES = 8
"""At most this many look-alike words per word (the first swaps, left to right)."""
_HEIGHT = 32
"""Masks are compared at this ink height, in pixels."""


@dataclass(frozen=True)
class GlyphCheck:
    """The outcome for one word.

    Attributes:
        word: the expected word.
        outcome: "confirmed", "looks_like" or "cannot_tell".
        looks_like: the look-alike word the ink matches better (outcome "looks_like"), else None.
        scores: candidate word -> similarity in the best-fitting font.
        font: that font's file name (None when no font fits).
    """

    word: str
    outcome: str
    looks_like: str | None
    scores: dict[str, float]
    font: str | None


def confusable(text: str) -> bool:
    """Whether ``text`` holds a character (or "rn") of :data:`GROUPS`."""
    return any(member in text for group in GROUPS for member in group)


def candidates(word: str) -> list[str]:
    """``word``'s look-alikes: one confusable character (or "rn"/"m") swapped for each other member
    of its group, left to right, at most :data:`MAX_CANDIDATES`; "3.50" -> ["3.S0", "3.5O"]."""
    out: list[str] = []
    for i in range(len(word)):
        for group in GROUPS:
            for member in group:
                if not word.startswith(member, i):
                    continue
                for other in group:
                    if other != member:
                        out.append(word[:i] + other + word[i + len(member) :])
    return list(dict.fromkeys(c for c in out if c != word))[:MAX_CANDIDATES]


def ink_mask(gray: np.ndarray) -> np.ndarray | None:
    """The ink of a word's box (uint8 grey levels, H x W) as a bool mask cropped to the ink: the
    class of Otsu's threshold that the box's outer ring (the background around the word) mostly is
    not; where the ring is as much one class as the other, the class with fewer pixels (a bold
    glyph can fill most of a tight box). None when the box holds no two levels."""
    from rewards.text.ocr.fills import otsu_threshold

    if gray.size == 0 or int(gray.max()) - int(gray.min()) < 32:
        return None
    upper = gray > otsu_threshold(gray)
    ring = np.concatenate([upper[0], upper[-1], upper[1:-1, 0], upper[1:-1, -1]])
    share = ring.mean() if ring.size else 0.5
    if abs(share - 0.5) < 0.2:
        ink = upper if upper.mean() < 0.5 else ~upper
    else:
        ink = ~upper if share > 0.5 else upper
    ys, xs = np.nonzero(ink)
    if len(ys) == 0:
        return None
    return ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


@functools.lru_cache(maxsize=4096)
def rendered(text: str, font_path: str) -> np.ndarray | None:
    """``text`` drawn black on white in ``font_path`` at 96 px, as its ink mask (:func:`ink_mask`)."""
    font = ImageFont.truetype(font_path, 96)
    x0, y0, x1, y1 = ImageDraw.Draw(Image.new("L", (1, 1))).textbbox((0, 0), text, font=font)
    image = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 255)
    ImageDraw.Draw(image).text((4 - x0, 4 - y0), text, font=font, fill=0)
    return ink_mask(np.asarray(image))


def _scaled(mask: np.ndarray, width: int) -> np.ndarray:
    """``mask`` resized to :data:`_HEIGHT` x ``width`` pixels, as grey levels in [0, 1], blurred
    by a 3-pixel box (a stroke's width at this height)."""
    image = Image.fromarray(mask.astype(np.uint8) * 255).resize((width, _HEIGHT), Image.BILINEAR)
    a = np.pad(np.asarray(image, dtype=np.float64) / 255.0, 1)
    return sum(a[dy : dy + _HEIGHT, dx : dx + width] for dy in range(3) for dx in range(3)) / 9.0


def similarity(ink: np.ndarray, candidate: np.ndarray) -> float:
    """How well ``candidate``'s ink mask matches ``ink``'s: the normalised cross-correlation of the
    two resized to one box (``ink``'s shape at :data:`_HEIGHT`: a glyph wider in the candidate
    takes a larger share of the word and shifts the others), times the ratio of their aspect
    ratios (the smaller over the larger: a wider word costs). In [-1, 1], 1 for the same shape."""
    width = max(4, round(ink.shape[1] * _HEIGHT / ink.shape[0]))
    a, b = _scaled(ink, width).ravel(), _scaled(candidate, width).ravel()
    a, b = a - a.mean(), b - b.mean()
    denom = float(np.sqrt((a * a).sum() * (b * b).sum()))
    ncc = float((a * b).sum() / denom) if denom > 0 else 0.0
    ra, rb = ink.shape[1] / ink.shape[0], candidate.shape[1] / candidate.shape[0]
    return ncc * min(ra, rb) / max(ra, rb)


def glyph_spans(mask: np.ndarray) -> list[tuple[int, int]]:
    """The column spans ``(x0, x1)`` of ``mask`` holding ink, left to right: one per glyph when
    the glyphs do not touch (a dotted "i" is one span; "%" may be two)."""
    cols = mask.any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], cols.astype(np.int8), [0]])))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def swaps(word: str, span: tuple[int, int] | None = None) -> list[tuple[int, str, str]]:
    """``(index, member, look-alike)`` for every confusable character of ``word`` that is checked:
    letter/digit look-alikes in a word that holds a digit (a price, a code, a year: where
    tesseract's number model reads a letter as the digit the context expects), and m / rn in any
    word. ``span``: only the characters ``word[span[0]:span[1]]`` (the part the check expects:
    "19" of "COVID-19"), whose digits count. At most :data:`MAX_CANDIDATES`, left to right."""
    lo, hi = span or (0, len(word))
    digits = any(ch.isdigit() for ch in word[lo:hi])
    out = []
    for i in range(lo, hi):
        for group in GROUPS:
            letters_digits = group != ("m", "rn")
            if letters_digits and not digits:
                continue
            for member in group:
                if word.startswith(member, i) and i + len(member) <= hi:
                    out += [(i, member, other) for other in group if other != member]
    return out[:MAX_CANDIDATES]


def _glyph_score(ink, spans, render, rspans, first: int, count: int) -> float | None:
    """Similarity of the ink's glyphs ``first .. first+count-1`` (full word height) to the same
    glyphs of a rendered word; None when the render has not that many glyphs. ``spans`` None (the
    ink's glyphs touch, so they do not split as the render's do): the ink's columns are the
    render's glyph columns scaled by the two widths' ratio."""
    if first + count > len(rspans) or (spans is not None and first + count > len(spans)):
        return None
    r0, r1 = rspans[first][0], rspans[first + count - 1][1]
    if spans is not None:
        return similarity(ink[:, spans[first][0] : spans[first + count - 1][1]], render[:, r0:r1])
    scale = ink.shape[1] / render.shape[1]
    a0, a1 = int(r0 * scale), int(np.ceil(r1 * scale))
    shift = max(1, round(0.15 * (a1 - a0)))  # the scaled columns are off by a little: the best of a few
    views = [(max(0, a0 + d0), min(ink.shape[1], a1 + d1)) for d0 in (-shift, 0, shift) for d1 in (-shift, 0, shift)]
    scores = [similarity(ink[:, x0:x1], render[:, r0:r1]) for x0, x1 in views if x1 - x0 > 1 and ink[:, x0:x1].any()]
    return max(scores) if scores else None


def _fonts_by_fit(ink: np.ndarray, words: list[str]) -> list[tuple[float, str]]:
    """(the best whole-word similarity to ``ink`` of any of ``words`` rendered in the font, font),
    best first: the font the ink is drawn in, whichever candidate it shows."""
    fits = []
    for f in FONTS:
        scores = [similarity(ink, m) for w in words if (m := rendered(w, f)) is not None]
        if scores:
            fits.append((max(scores), f))
    return sorted(fits, reverse=True)


def check_word(image: Image.Image, box, word: str, span: tuple[int, int] | None = None) -> GlyphCheck:
    """Compare the ink of ``box`` (x0, y0, x1, y1 pixels of ``image``: an OCR word's box) glyph by
    glyph with ``word`` and its look-alikes (:func:`swaps`) rendered in the best-fitting
    reference font whose render splits into as many glyphs as the ink (module docstring)."""
    todo = swaps(word, span)
    if not todo:
        return GlyphCheck(word, "confirmed", None, {}, None)
    x0, y0, x1, y1 = (int(v) for v in box)
    pad = 2  # a ring of background around the word's box, for ink_mask
    region = (max(0, x0 - pad), max(0, y0 - pad), min(image.width, x1 + 1 + pad), min(image.height, y1 + 1 + pad))
    ink = ink_mask(np.asarray(image.convert("L").crop(region)))
    if ink is None or ink.shape[0] < 6 or not FONTS:
        return GlyphCheck(word, "cannot_tell", None, {}, None)
    spans = glyph_spans(ink)
    fits = _fonts_by_fit(ink, [word, *candidates(word)])
    if not fits or fits[0][0] < MIN_FIT:
        return GlyphCheck(word, "cannot_tell", None, {}, None)
    font = next((f for fit, f in fits[:3] if len(glyph_spans(rendered(word, f))) == len(spans)), None)
    if font is None:  # touching glyphs ("AP" kerned): the best font's glyph columns, scaled (_glyph_score)
        font, spans = fits[0][1], None
    own, own_spans = rendered(word, font), glyph_spans(rendered(word, font))
    scores: dict[str, float] = {}
    for i, member, other in todo:
        first = len(glyph_spans(rendered(word[:i], font))) if i else 0
        alt_word = word[:i] + other + word[i + len(member) :]
        alt = rendered(alt_word, font)
        if len(other) != len(member) and spans is None:  # touching glyphs: m / rn by the whole words' fit
            exp_score, alt_score = similarity(ink, own), (-1.0 if alt is None else similarity(ink, alt))
            scores[word], scores[alt_word] = min(scores.get(word, 1.0), exp_score), alt_score
            if alt_score >= exp_score + WORD_MARGIN:
                return GlyphCheck(word, "looks_like", alt_word, scores, os.path.basename(font))
            if exp_score < alt_score + WORD_MARGIN or exp_score < GLYPH_FIT:
                return GlyphCheck(word, "cannot_tell", None, scores, os.path.basename(font))
            continue
        if len(other) != len(member):  # m / rn: the renders' glyph counts tell them apart, when they differ
            alt_spans = [] if alt is None else glyph_spans(alt)
            if len(alt_spans) == len(own_spans):  # the render's r and n touch (serifs): compare that glyph
                exp_score = _glyph_score(ink, spans, own, own_spans, first, 1)
                alt_score = None if alt is None else _glyph_score(ink, spans, alt, alt_spans, first, 1)
            elif len(alt_spans) == len(spans):  # the ink splits as the look-alike does (and not as the word)
                return GlyphCheck(word, "looks_like", alt_word, scores, os.path.basename(font))
            elif member == "m":  # the ink splits as the word: its "m" must fit
                exp_score, alt_score = _glyph_score(ink, spans, own, own_spans, first, 1), -1.0
            else:
                exp_score, alt_score = similarity(ink, own), similarity(ink, alt)
        else:
            exp_score = _glyph_score(ink, spans, own, own_spans, first, 1)
            alt_score = None if alt is None else _glyph_score(ink, spans, alt, glyph_spans(alt), first, 1)
        if exp_score is None or alt_score is None:
            return GlyphCheck(word, "cannot_tell", None, scores, os.path.basename(font))
        scores[word] = min(scores.get(word, 1.0), exp_score)
        scores[alt_word] = alt_score
        if alt_score >= exp_score + MARGIN:
            return GlyphCheck(word, "looks_like", alt_word, scores, os.path.basename(font))
        if exp_score < alt_score + MARGIN or exp_score < GLYPH_FIT:
            return GlyphCheck(word, "cannot_tell", None, scores, os.path.basename(font))
    return GlyphCheck(word, "confirmed", None, scores, os.path.basename(font))


def check_in_line(image: Image.Image, box, word: str, span=None, line_words=()) -> tuple[GlyphCheck, dict | None]:
    """:func:`check_word`, and when it cannot tell a word whose look-alikes are letters and digits
    (O/0, l/1/I, S/5, B/8), the comparison at the ink's own size
    (:func:`rewards.text.ocr.lookalike_scale.confirms`, its face from ``line_words``: the other
    OCR words of the line), which may confirm it. A "looks like" found in a face other than the
    line's (the glyph check picks its face from the word alone: a monospaced "2O26" fits a sans
    "2026" on a line of DejaVu Sans) is no finding: the comparison at the ink's size decides.
    A word with m / rn the glyph check cannot tell is confirmed only by two readers (:func:`_m_rn`).
    Returns (the outcome, that comparison's details or None when it was not made)."""
    g = check_word(image, box, word, span)
    todo = swaps(word, span)
    if g.outcome == "confirmed":
        return g, None
    if any(len(m) != len(o) for _, m, o in todo):  # m / rn: two readers must agree
        return _m_rn(image, box, word, g, todo, line_words)
    faces = None
    if g.outcome == "looks_like":
        faces = line_fonts(image, line_words, FONTS)
        if not faces or g.font in {os.path.basename(f) for f in faces}:
            return g, None
    alts = [word[:i] + o + word[i + len(m) :] for i, m, o in todo]
    ok, details = confirms(image, box, word, alts, line_words, FONTS, faces)
    return (GlyphCheck(word, "confirmed", None, g.scores, g.font) if ok else g), details


def _m_rn(image: Image.Image, box, word: str, g: GlyphCheck, todo, line_words) -> tuple[GlyphCheck, dict | None]:
    """A word with m / rn that the glyph check ``g`` cannot tell: confirmed only when the comparison
    at the ink's own size confirms it against every look-alike of ``todo`` (m / rn and letter/digit)
    and tesseract reading the word's box alone, enlarged 2x, 3x and 4x, reads the word at each
    (:func:`rewards.text.ocr.word_reread.reads_as`). Neither suffices alone: on
    ``benchmarks/lookalike_check.py``'s small type the first confirmed "family" for a drawn
    "farnily" (matplotlib, 12 px) and the second read "Terrns" as "Terms" in 74 of 240 drawings.
    A "looks like" of the glyph check stands when it was found in the line's face (else, as for
    digits in :func:`check_in_line`, the two readers decide). Returns (the outcome, the comparison's details)."""
    faces = None
    if g.outcome == "looks_like":  # found in a face other than the line's: no finding (as for digits)
        faces = line_fonts(image, line_words, FONTS)
        if not faces or g.font in {os.path.basename(f) for f in faces}:
            return g, None
    alts = [word[:i] + o + word[i + len(m) :] for i, m, o in todo]
    ok, details = confirms(image, box, word, alts, line_words, FONTS, faces)
    if ok:
        ok, reads = reads_as(image, box, word)
        details = details | {"read_alone": reads}
    return (GlyphCheck(word, "confirmed", None, g.scores, g.font) if ok else g), details


_FOLD = str.maketrans({"O": "0", "l": "1", "I": "1", "S": "5", "B": "8"})


FACE_CONF = 80
"""Words read below this tesseract confidence give no face (a legend's colour swatch read "Mmm")."""


def context_words(lines, line, word) -> list:
    """The OCR words that give ``word``'s face (:func:`rewards.text.ocr.lookalike_scale.line_fonts`):
    the other words of its ``line``; for a word alone on its line (a value label, a legend entry,
    a table cell) the words of the nearest other upright lines of about its height (0.7-1.4 times),
    nearest first: a chart or a table sets its labels in one face. Words read below
    :data:`FACE_CONF` are left out (a matplotlib legend's swatch read "Mmm" beside "2025" made the
    glyph check's DejaVu Sans the line's face, and "2025" was withheld as "202S")."""
    sure = lambda o: o.conf is None or o.conf >= FACE_CONF  # noqa: E731 - a swatch read "Mmm" shows no face
    own = [o for o in line.words if o is not word and sure(o)]
    own.sort(key=lambda o: -len(o.text))  # the longest tell most
    if any(len(o.text) >= 3 for o in own):
        return own
    h = word.box[3] - word.box[1]
    cx, cy = (word.box[0] + word.box[2]) / 2, (word.box[1] + word.box[3]) / 2
    near = [
        o
        for other in lines
        if other is not line and not getattr(other, "angle", 0)
        for o in other.words
        if len(o.text) >= 3 and 0.7 * h <= o.box[3] - o.box[1] <= 1.4 * h and sure(o)
    ]
    return own + sorted(near, key=lambda o: abs((o.box[0] + o.box[2]) / 2 - cx) + abs((o.box[1] + o.box[3]) / 2 - cy))


def read_as_expected(image: Image.Image, lines, expected: list[str]) -> list:
    """``lines`` with each OCR word that is a letter/digit look-alike spelling of a word of the
    ``expected`` strings ("Ql" read for "Q1", "2O25" for "2025": the two differ only in O/0,
    l/1/I, S/5, B/8, and the expected word holds a digit) read as that word when its ink confirms
    it (:func:`check_in_line`: the glyph check, then the comparison at the ink's own size, the
    OCR's spelling among the look-alikes it must beat). Tesseract reads a serif "1" after a
    letter as "l"; a person reads the row label "Q1". Other lines are returned as they are."""
    wanted = {t for e in expected for t in e.split() if any(ch.isdigit() for ch in t)}
    if not wanted or image is None:
        return lines
    out = []
    for line in lines:
        words = list(line.words)
        for k, w in enumerate(words):
            t = next((t for t in wanted if t != w.text and t.translate(_FOLD) == w.text.translate(_FOLD)), None)
            if t is None or getattr(line, "angle", 0) or len(t) != len(w.text):
                continue
            g, _ = check_in_line(image, w.box, t, None, context_words(lines, line, w))
            if g.outcome == "confirmed" and w.text in candidates(t):
                words[k] = Word(t, w.box, w.conf)
        out.append(line if words == list(line.words) else Line(tuple(words), line.angle))
    return out


def expected_span(word: str, expected: str) -> tuple[int, int] | None:
    """The characters of an OCR ``word`` that belong to the ``expected`` string, as ``(start, end)``:
    the longest run they share (case aside); None when they share none."""
    from difflib import SequenceMatcher

    m = SequenceMatcher(None, word.casefold(), expected.casefold(), autojunk=False).find_longest_match()
    return (m.a, m.a + m.size) if m.size else None


def _inside(box, outer) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


SURE = 90
"""A word tesseract read with at least this confidence is not looked at for an "l" drawn for an "i"
(or the other way): a typo of one letter moved three places on (``documents.engines.model.typo``)
turns "i" into "l", and tesseract's recogniser read the "Deslgn" of a matplotlib slice label as
"Design" with confidence 71 (96 for the correctly drawn word)."""


def dotted(ink: np.ndarray, span: tuple[int, int]) -> bool | None:
    """Whether the narrow glyph in columns ``span`` of a word's darkness map ``ink``
    (``lookalike_scale.word_ink``) is an "i": its ink rows (darkness over ``INK``) are two runs,
    the upper (the dot) at most a third of the glyph's height: True; one unbroken stem as high
    as the word's tallest ink (an "l"): False; else None (cannot tell)."""
    rows = np.flatnonzero((ink[:, span[0] : span[1]] > INK).any(axis=1))
    if len(rows) == 0 or span[1] - span[0] > max(3, ink.shape[0] // 4):
        return None
    runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    height = rows[-1] - rows[0] + 1
    if len(runs) == 2 and len(runs[0]) <= height / 3:
        return True
    tallest = np.flatnonzero((ink > INK).any(axis=1))[0]
    return False if len(runs) == 1 and rows[0] <= tallest + 1 else None


def _i_or_l(image: Image.Image, w, span) -> dict | None:
    """A word read below :data:`SURE` confidence, each glyph apart, whose glyph where the read has
    an "i" is one unbroken stem (:func:`dotted`: an "l"), or where it has an "l" a dot over a
    stem, within the expected part ``span``: the check's record (``looks_like``: the word with
    that glyph swapped), else None. Only finds: a glyph it cannot tell passes."""
    if w.conf is None or w.conf >= SURE or not any(ch in "il" for ch in w.text[span[0] : span[1]]):
        return None
    ink = word_ink(image, w.box)
    if ink is None:
        return None
    cols = (ink > INK).any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], cols.astype(np.int8), [0]])))
    spans = list(zip(edges[::2].tolist(), edges[1::2].tolist()))
    if len(spans) != len(w.text):  # touching glyphs: where each letter stands is not known
        return None
    for k in range(span[0], span[1]):
        ch = w.text[k]
        if ch in "il" and dotted(ink, spans[k]) is (ch == "l"):
            alt = w.text[:k] + ("l" if ch == "i" else "i") + w.text[k + 1 :]
            return {"word": w.text, "box": list(w.box), "outcome": "looks_like", "looks_like": alt}
    return None


def lookalike_doubt(image: Image.Image, lines, records: list[dict]) -> tuple[str, list[dict]] | None:
    """Why a "yes" resting on ``records`` (``rewards.text.page.grounding`` string records: ``found``,
    ``box``) cannot stand: an OCR word inside a found string's box whose text holds a look-alike
    (:func:`swaps`) and whose ink the glyph check (:func:`check_word`) does not confirm. Returns
    ``(reason, checks)`` (``checks``: one dict per word checked: ``word``, ``box``, ``outcome``,
    ``looks_like``, ``font``, and ``at_own_size`` when it was compared again at its own size), or
    None when every such word is confirmed (or there is none).

    Args:
        image: the judged image.
        lines: the OCR lines (``rewards.text.ocr.text_match.Line``) the records were decided on.
    """
    checks, doubt = [], None
    for record in records:
        if not record.get("found") or not record.get("box"):
            continue
        for line in lines:
            if getattr(line, "angle", 0):
                continue  # a rotated line's word boxes are not the upright ink the renders are
            for w in line.words:
                span = expected_span(w.text, str(record.get("text", "")))
                if span is None or not _inside(w.box, record["box"]):
                    continue
                if not swaps(w.text, span):  # i / l: only a word tesseract was unsure of, and only to find
                    if (check := _i_or_l(image, w, span)) is not None:
                        checks.append(check)
                        said = f"OCR read {w.text!r} (confidence {w.conf:.0f}), but its glyphs look more like"
                        doubt = doubt or f"{said} {check['looks_like']!r} (look-alike check)"
                    continue
                g, details = check_in_line(image, w.box, w.text, span, context_words(lines, line, w))
                check = {"word": w.text, "box": list(w.box), "outcome": g.outcome, "looks_like": g.looks_like}
                if details is not None:
                    check["at_own_size"] = details
                checks.append(check | {"font": g.font})
                if g.outcome == "looks_like" and doubt is None:
                    doubt = f"OCR read {w.text!r}, but its glyphs look more like {g.looks_like!r} (look-alike check)"
                elif g.outcome == "cannot_tell" and doubt is None:
                    others = ", ".join(repr(c) for c in candidates(w.text)[:3])
                    doubt = f"OCR read {w.text!r}, but the look-alike check cannot tell it from {others}"
    return (doubt, checks) if doubt else None
