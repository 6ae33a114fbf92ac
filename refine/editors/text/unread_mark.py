"""A symbol OCR left unread before the words it rewrites ("&" of "& Harbor Co ..."): erased too.

OCR often drops a lone symbol word: tesseract read the swapped title "& Harbor Co Growth
Dashboard" as "Harbor Co Growth Dashboard", and the rewrite of "Harbor & Co Growth Dashboard"
into those words left the "&" standing before it ("& Harbor & Co ..."). When the string holds a
symbol token (no letter or digit: "&", "+", "/") that the read text lacks, and the block's one
line has, within ``REACH`` line heights before its first word, one run of unread ink as tall as
``TALL`` of the line (a glyph, not a bullet dot or a rule), that run is the dropped symbol: the
block starts at it (its box, its left edge for a left-aligned line, its text), so the erase takes
it and the rewrite starts where it started.

A short word OCR dropped at the head of a line is taken the same way: tesseract read a poster's
small footer "at More www.springfestival.org" (its first two words swapped) as "More
wwwspringfestival.org", and the rewrite of "More at www.springfestival.org" into those words left
the "at" standing before it ("at More at www..."; adversarial dev poster-51). When exactly one
word of the string is missing from the read text and the unread ink before the first read word is
one word (glyph runs at most ``LETTER_GAP`` blank columns apart, ending a word space before it,
as tall as ``TALL_WORD`` of the line) about as wide as that word set in the block's type
(``WIDTH`` either way), that ink is the dropped word.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from rapidfuzz.distance import OSA

from refine.editors.text.bullets import is_dot
from refine.editors.text.layout import Block
from refine.editors.text.set_width import ink_width
from refine.editors.text.type_match import render_coverage

REACH = 2.0
"""How far (line heights) before the first read word the dropped symbol may start."""
TALL = 0.6
"""Least height (share of the line's box height) of the dropped symbol's ink."""
INK = 40
"""Least difference (any channel) from the block's background of an ink pixel."""
TALL_WORD = 0.4
"""Least height (share of the line's box height) of a dropped word's ink (an "at" of x-height letters)."""
LETTER_GAP = 2
"""Most blank columns between the glyphs of one word (a word space is wider)."""
ALIKE = 0.8
"""Least OSA similarity of a read word to a word of the string for that word to count as read."""
WIDTH = 1.4
"""Largest ratio, either way, of the dropped word's ink width to the word set in the block's type."""


def _symbols(text: str) -> list[str]:
    return [w for w in text.split() if not any(c.isalnum() for c in w)]


def with_unread_mark(arr: np.ndarray, blk: Block, text: str) -> Block:
    """``blk`` (one left-aligned line) grown over the symbol or the word OCR dropped before it
    (module docstring); ``blk`` itself when the string has no such token its read text lacks, or
    no such ink stands there. ``arr``: uint8 (H, W, 3)."""
    read = " ".join(blk.texts).split()
    missing = [s for s in _symbols(text) if s not in read]
    words = [w for w in text.split() if any(c.isalnum() for c in w) and not any(_alike(w, r) for r in read)]
    if len(blk.boxes) != 1 or blk.align != "left" or blk.indent or not (missing or len(words) == 1):
        return blk
    x0, y0, x1, y1 = (int(v) for v in blk.boxes[0])
    h = y1 - y0
    lo = max(0, x0 - round(REACH * h))
    rows = arr[max(0, y0) : y1, lo:x0].astype(np.int16)
    if rows.size == 0:
        return blk
    ink = np.abs(rows - np.asarray(blk.bg, np.int16)).max(2) > INK
    inked = ink.any(0)
    end = len(inked)
    while end > 0 and inked[end - 1]:  # the first read word's own ink left of its OCR box
        end -= 1
    cols = np.nonzero(inked[:end])[0]
    if not len(cols) or cols[0] == 0:  # none, or cut by the window (more ink further left)
        return blk
    a, b = int(cols[0]), int(cols[-1]) + 1
    tall = np.nonzero(ink[:, a:b].any(1))[0]
    height = tall[-1] - tall[0] + 1
    if missing and ink[:, a:b].any(0).all() and height >= TALL * h:  # one glyph: the dropped symbol
        token = missing[0]
    elif (
        not missing
        and _one_word(ink[:, a:b].any(0))
        and height >= TALL_WORD * h
        and _as_wide(blk, words[0], b - a)
        and not is_dot(arr, (lo + a, y0 + int(tall[0]), lo + b, y0 + int(tall[-1]) + 1))  # a bullet is no word
    ):
        token = words[0]
    else:
        return blk
    start = lo + a
    return replace(blk, boxes=[(start, y0, x1, y1)], left=float(start), width=blk.width + (x0 - start),
                   texts=(f"{token} {blk.texts[0]}",))  # fmt: skip


def _alike(a: str, b: str) -> bool:
    """Whether word ``b`` is OCR's read of word ``a``: alike to ``ALIKE`` by OSA, case ignored
    ("wwwspringfestival.org" for "www.springfestival.org")."""
    return OSA.normalized_similarity(a.lower(), b.lower()) >= ALIKE


def _one_word(cols: np.ndarray) -> bool:
    """Whether the inked columns ``cols`` (bool, first and last inked) hold no blank run wider than
    ``LETTER_GAP``: the glyphs of one word, no word space between them."""
    blank = np.flatnonzero(np.diff(np.r_[1, cols.astype(np.int8), 1]))  # starts and ends of blank runs
    return all(e - s <= LETTER_GAP for s, e in zip(blank[::2], blank[1::2]))


def _as_wide(blk: Block, word: str, width: int) -> bool:
    """Whether ``width`` px of ink is ``word`` set in the block's type, within ``WIDTH`` either way."""
    set_width = ink_width(render_coverage(word, blk.style.face.font(blk.style.size))[0])
    return set_width > 0 and 1 / WIDTH <= width / set_width <= WIDTH
