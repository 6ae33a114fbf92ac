"""A capital I read as a bar or an exclamation mark: the ink decides.

In a bold sans face a capital "I" is a plain stem, and tesseract reads it "|" ("Can | pause my
subscription?") or, after a word it joined it to, "!" ("How do! add a team member?"; a tenth
tester's FAQ pages: 6 withheld on dev as "differs only in look-alike glyphs"). The pixels tell the
three apart: a "!" is a stem over a dot (two runs of ink rows), a "|" reaches below the baseline
(and in most faces above the capitals), an "I" is one stem from the capitals' top to the baseline
of the words beside it. :func:`bars_as_i` reads such a glyph "I" when the string asked has the word
"I" there and the glyph's ink is one unbroken stem of even width (no flag: a "1"), at most
``STEM_WIDTH`` of its height wide, its top within ``EDGE`` pixels of the line's capitals' top and
its bottom within ``EDGE`` of the line's baseline (both from the other words of the line). A
serif "I" has serifs, is no such stem, and stays as read. Like a read "I", a stem drawn for an
"l" in a face whose "l" is as tall as its capitals reads "I" (the glyph check never compares
them: ``lookalikes.swaps``).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from rewards.text.ocr.lookalike_scale import INK, word_ink
from rewards.text.ocr.text_match import Line, Word

BARS = ("|", "!")
"""What tesseract reads a bold sans capital I as."""
STEM_WIDTH = 0.3
"""A stem's ink is at most this share of its height wide."""
EDGE = 1
"""Pixels the stem's top (bottom) may lie from the capitals' top (the baseline)."""
SPACE = 1.8
"""A stem joined to the word before it stands this many times its widest glyph gap apart (a word space)."""
_DESCENDERS = set("gjpqy,;Q()[]{}|/")
_TALL = set("ABCDEFGHIJKLMNOPRSTUVWXYZbdfhklt")


def bars_as_i(image: Image.Image | None, lines: list[Line], expected: list[str]) -> list[Line]:
    """``lines`` with each bar read for a capital I (module docstring) read "I", where a string of
    ``expected`` has the word "I" (after the word the bar was joined to, for "do!"); other lines
    as they are."""
    words = {w for e in expected for w in e.split()}
    if image is None or "I" not in words:
        return lines
    pairs = {a for e in expected for a, b in zip(e.split(), e.split()[1:]) if b == "I"}
    gray = np.asarray(image.convert("L"))
    out = []
    for line in lines:
        if getattr(line, "angle", 0):
            out.append(line)
            continue
        new: list[Word] = []
        for w in line.words:
            if w.text in BARS and _stem(image, w.box, line, w):
                new.append(Word("I", w.box, w.conf))
            elif len(w.text) > 1 and w.text[-1] in BARS and w.text[:-1] in pairs:
                new += _split_stem(image, gray, w, line) or [w]
            else:
                new.append(w)
        out.append(line if new == list(line.words) else Line(tuple(new), line.angle))
    return out


def _line_edges(line: Line, skip: Word) -> tuple[float, float] | None:
    """(capitals' top, baseline) of ``line`` from its other words: the top of words holding a
    capital or an ascender, the bottom of words with no descender; None when no word gives both."""
    tops = [w.box[1] for w in line.words if w is not skip and any(c in _TALL for c in w.text)]
    bottoms = [w.box[3] for w in line.words if w is not skip and w.text.isalpha() and not set(w.text) & _DESCENDERS]
    if not tops or not bottoms:
        return None
    return float(np.median(tops)), float(np.median(bottoms))


def _stem(image: Image.Image, box, line: Line, skip: Word) -> bool:
    """True when the ink of ``box`` is one stem from the line's capitals' top to its baseline."""
    edges = _line_edges(line, skip)
    ink = word_ink(image, box)
    if edges is None or ink is None:
        return False
    mask = ink > INK
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if len(rows) < 5 or len(cols) == 0:
        return False
    height = rows[-1] - rows[0] + 1
    if len(rows) != height or cols[-1] - cols[0] + 1 > max(2, STEM_WIDTH * height):
        return False  # a gap in the stem (the dot of a "!") or too wide for a stem
    widths = mask[rows].sum(axis=1)
    if widths.max() - widths.min() > 1:
        return False  # a flag or serifs: a "1", a serif "I"
    top = max(0, int(box[1]) - 2) + rows[0]  # word_ink reads the box with a 2-pixel ring
    bottom = max(0, int(box[1]) - 2) + rows[-1] + 1
    return abs(top - edges[0]) <= EDGE and abs(bottom - edges[1]) <= EDGE


def _split_stem(image: Image.Image, gray: np.ndarray, w: Word, line: Line) -> list[Word] | None:
    """``w`` ("do!") as its word and an "I" when its last glyph is a stem (``_stem``) a word space
    (``SPACE``) apart from the glyphs before it; None otherwise."""
    x0, y0, x1, y1 = (int(v) for v in w.box)
    crop = gray[y0 : y1 + 1, x0 : x1 + 1].astype(float)
    if crop.size == 0:
        return None
    background = float(np.median(np.concatenate([crop[0], crop[-1]])))
    cols = (np.abs(crop - background) > 255 * INK).any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], cols.astype(np.int8), [0]])))
    spans = list(zip(edges[::2].tolist(), edges[1::2].tolist()))
    if len(spans) < 2:
        return None
    gaps = [b[0] - a[1] for a, b in zip(spans, spans[1:])]
    if gaps[-1] < 2 or (len(gaps) > 1 and gaps[-1] < SPACE * max(gaps[:-1])):
        return None
    stem = (x0 + spans[-1][0], y0, x0 + spans[-1][1] - 1, y1)
    rest = (x0, y0, x0 + spans[-2][1] - 1, y1)
    if not _stem(image, stem, line, w):
        return None
    return [Word(w.text[:-1], rest, w.conf), Word("I", stem, w.conf)]
