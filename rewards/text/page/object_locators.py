"""Rule "beneath the Nth drawn object of a row" (issue 31, BizGenEval phrasing of the dev half:
"the three-line caption beneath the eighth bottle from the left"), resolved on the page structure
for ``rewards.text.page.locators``.

The phrase (``OBJECT``): "beneath" / "below" / "under" (optionally "directly", "just",
"immediately"), an ordinal (first to twelfth; "the twelfth and rightmost"), a pictured object's
noun (``PICTURES``: "bottle", "image", "icon", "product"...) and the side it counts from ("from
the left", "from the right"; "and rightmost" counts from the left and asks for the last). It holds
when the first required string's line (an occurrence read whole) is the Nth of a row of captions
that a row of drawn objects stands over:

- the row: the lines in one row with it (``locator_base._any_row``), evenly spaced with no ink
  where one more would stand (``locator_base._complete``: a caption OCR missed would shift the count);
- each caption of the row has drawn ink (pixels unlike the page outside every OCR line of text
  size) right above it: from its top edge up to ``REACH`` caption heights, in the middle ``BAND``
  of the gap between captions; the first ink row above the caption no further than ``GAP``
  caption heights (the object stands directly over it, no OCR line between); and no ink midway
  between two captions in that band (``SEAM``: separate objects, not one heading over them all);
- no object one gap before the first caption or after the last (the row of objects is no longer
  than the row of captions, so the Nth caption is under the Nth object);
- every other required string has an occurrence below the first one, in its column (within half a
  gap of its middle): the whole caption stands under that object.

What the object is (a bottle, not a can) is not measured: the rule reads a drawn object over the
caption and its place in the row. A part that fails stays a VLM part (the verdict is withheld).
Boxes are ``(x0, y0, x1, y1)`` pixels.
"""

from __future__ import annotations

import re

import numpy as np

from rewards.text.page.locator_base import ORDINALS, _any_row, _complete, _Ctx, line_of
from rewards.text.page.page_lines import _Page

ORDINALS_TO_12 = {**ORDINALS, "eleventh": 11, "twelfth": 12}
"""Ordinal words of the phrase (a row of a dozen objects is common on a timeline poster)."""

PICTURES = frozenset(
    "bottle bottles can jar cup glass image picture photo photograph icon illustration drawing graphic "
    "product thumbnail logo portrait figure".split()
)
"""Nouns of pictured objects (no text element, no container: those are other rules')."""

OBJECT = re.compile(
    r"locator '(?:located |positioned |placed |centered |centred )?(?:directly |just |immediately |right )?"
    r"(?:beneath|below|under|underneath) the (?P<n>" + "|".join(ORDINALS_TO_12) + r")"
    r"(?: and (?P<most>leftmost|rightmost))? (?P<noun>[a-z-]+)(?: from the (?P<side>left|right))?'"
)
"""The rule's VLM part: "beneath the eighth bottle from the left", "beneath the twelfth and rightmost bottle"."""

REACH = 4.0
"""How far above a caption an object is looked for, in caption heights."""
GAP = 1.5
"""The most space between an object's lowest ink and its caption's top, in caption heights."""
BAND = 0.3
"""Half the width of the probe over a caption's middle, as a share of the gap between captions."""
SEAM = 0.05
"""Half the width of the probe midway between two captions, as a share of the gap between them."""
TALL = 2.5
"""An OCR line taller than this many caption heights is no text line (``_ink_rows``)."""


def parse_object(part: str) -> tuple[int, bool, bool] | None:
    """(ordinal, from the right, the last one) of an ``OBJECT`` part naming a pictured object, or
    None (no side: "beneath the third bottle" counts from where, code cannot tell)."""
    m = OBJECT.fullmatch(part)
    if m is None or m.group("noun") not in PICTURES or (m.group("side") is None) == (m.group("most") is None):
        return None
    n = ORDINALS_TO_12[m.group("n")]
    if n < 0 or (m.group("most") and m.group("most") != "rightmost"):
        return None  # "the last bottle from the left", "the first and leftmost": not yet read
    return n, m.group("side") == "right", m.group("most") == "rightmost"


def admits_object(part: str, n_texts: int) -> bool:
    """The rule's pre-check: ``part`` names a pictured object by its ordinal (``parse_object``)."""
    return parse_object(part) is not None


def _ink_rows(page: _Page, x0: float, x1: float, y0: float, y1: float, h: float) -> np.ndarray:
    """Per pixel row of the probe ``x0..x1`` x ``y0..y1`` (clipped), whether it holds ink outside
    every OCR line of text size (up to ``TALL`` times ``h``, the captions' height: tesseract reads a
    row of drawn objects as one tall line of garbage, which is no text) (luminance 60 off the
    page's median)."""
    gray = page.gray()
    a0, b0 = max(0, int(x0)), max(0, int(y0))
    a1, b1 = min(gray.shape[1], int(x1)), min(gray.shape[0], int(y1))
    if a1 <= a0 or b1 <= b0:
        return np.zeros(0, bool)
    ink = np.abs(gray[b0:b1, a0:a1].astype(np.int16) - int(np.median(gray))) > 60
    for ln in page.lines:
        c0, d0, c1, d1 = ln.box
        if d1 - d0 <= TALL * h:
            ink[max(0, d0 - 1 - b0) : max(0, d1 + 2 - b0), max(0, c0 - 1 - a0) : max(0, c1 + 2 - a0)] = False
    return ink.any(axis=1)


def _object_over(page: _Page, mid: float, top: float, h: float, g: float) -> bool:
    """True when drawn ink stands right over a caption whose middle is ``mid`` and top ``top``
    (height ``h``; ``g`` the gap between captions): within ``REACH`` heights, its lowest row no
    further than ``GAP`` heights above the caption, and no OCR line between them."""
    rows = _ink_rows(page, mid - BAND * g, mid + BAND * g, top - REACH * h, top - 1, h)
    if not rows.any():
        return False
    lowest = top - 1 - (len(rows) - 1 - int(np.flatnonzero(rows)[-1]))
    if top - lowest > GAP * h:
        return False
    return not any(
        ln.box[1] >= lowest and ln.box[3] <= top and ln.box[0] < mid + BAND * g and ln.box[2] > mid - BAND * g
        for ln in page.lines
    )


def _apart(page: _Page, a: float, b: float, top: float, h: float, g: float) -> bool:
    """True when no ink stands midway between two captions' middles ``a`` and ``b`` in the band
    the objects stand in (``REACH`` heights over ``top``): they are two objects, not one wide
    thing (a heading, a banner) over both."""
    mid = (a + b) / 2
    return not _ink_rows(page, mid - SEAM * g, mid + SEAM * g, top - REACH * h, top - 1, h).any()


def _under_nth(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "beneath the Nth drawn object of a row" (module docstring)."""
    parsed = parse_object(m[0].group(0))
    if parsed is None or not ctx.held or ctx.page.gray() is None:
        return False
    n, from_right, last = parsed
    page = ctx.page
    for box in ctx.held[0]:
        li = line_of(page, box)
        row = _any_row(page, li) if li is not None else []
        boxes = [page.lines[i].box for i in row]
        if len(row) < 2 or li not in row or not _complete(page, boxes, 0):
            continue
        k = len(row) - n if from_right else n - 1
        if not 0 <= k < len(row) or row[k] != li or (last and k != len(row) - 1):
            continue
        mids = [(b[0] + b[2]) / 2 for b in boxes]
        g = float(np.median(np.diff(mids)))
        h = float(np.median([b[3] - b[1] for b in boxes]))
        top = min(b[1] for b in boxes)
        if not all(_object_over(page, x, b[1], h, g) for x, b in zip(mids, boxes)):
            continue
        if not all(_apart(page, a, b, top, h, g) for a, b in zip(mids, mids[1:])):
            continue
        if any(_object_over(page, x, top, h, g) for x in (mids[0] - g, mids[-1] + g)):
            continue  # one more object beyond the captions: the count would be off
        below = [
            any(b[1] >= box[3] - 1 and abs((b[0] + b[2]) / 2 - mids[k]) <= g / 2 for b in held) for held in ctx.held[1:]
        ]
        if all(below):
            return True
    return False
