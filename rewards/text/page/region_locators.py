"""Locator rule of page regions (``rewards.text.page.locators``): a phrase made only of position
words and region nouns ("on the left page", "in the upper central column", "in the lower-right
white section", "at the very bottom of the image", "center") puts the string in a part of the page.

**Reading the phrase** (:func:`parse_region`): its words, hyphenated words split ("lower-right"),
must all be position words (``POSITIONS``), region nouns (``REGION_NOUNS``: column, row, section,
side, area, page, half, corner...), the page's own names after "of" (``FRAMES``: "of the image",
"of the slide"), prepositions and articles (``FILLERS``), or colour and size words
(``MODIFIERS``); at least one position word. An element noun (table, card, box, button, legend,
callout) makes the phrase no region: "in the upper central table" stays a VLM part, since the
region alone does not show that the string is in a table. "-most" words ("the leftmost callout")
and ordinals ("the second row") rank elements among their siblings and are no region either.

**The region** is a set of bounds on each axis, as shares of the page's width and height; a
phrase's words all bound it (their intersection, so several phrases of one question compose):

- left (right): the occurrence's centre in the left (right) third, its box in the left (right)
  half;
- the left (right) page of a two-page spread ("on the left page", "of the large right page"): the
  part of the image left (right) of the spread's seam (:func:`spread_seam`: a vertical edge down
  at least 85% of the image's height, between a fifth and four fifths of its width, that no OCR
  line crosses); the phrase's other words bound the occurrence within that page ("on the
  center-left of the large right page"). No seam found: the part stays a VLM part (the pages of
  a spread need not be halves: "the narrower left page");
- top, upper (bottom, lower): its centre in the top (bottom) 40%, its box in the top (bottom)
  55%; "very top" ("very bottom"): its centre in the top (bottom) 15%;
- center, central, middle, mid: its centre within 14% of the middle, its box clear of the outer
  fifths, on x in a column ("upper central column") and beside a top or bottom word ("upper
  center"), on y in a row and beside a left or right word ("center-left"), on both axes otherwise
  ("the center", "in the central section": the middle of the page both ways; ``_mid_axes``);

The bounds are narrow on purpose. A string of the central column of a three-column page starts
past a third of the width, so its centre is never in the left third; a string across the middle is
no "left" string. "The left (right) column" is the outermost one: no line read lies wholly left
(right) of the occurrence beside it (within three of its heights above or below), so the second of
four columns is no left column (``_beyond``). "The top (bottom) row" is a grid's first (last) row,
left to ``grid_locators``; no region. The colour and size words a phrase may hold ("white section", "large right page")
do not change the region: they name its look, and the verdict asks only where the string stands.

**Yes only**: the part is resolved when each required string has an occurrence (as
``_Ctx.held``: whole lines when the question reads the strings whole) inside the region; else it
stays a VLM part (withheld). The "no" comes only from the text part: the string read nowhere on the
page.
"""

from __future__ import annotations

import re

import numpy as np

from rewards.text.page.locator_base import _Ctx
from rewards.text.page.page_lines import Box, _Page

POSITIONS = {
    "left": ("x", "low"), "right": ("x", "high"),
    "top": ("y", "low"), "upper": ("y", "low"), "bottom": ("y", "high"), "lower": ("y", "high"),
    "center": ("?", "mid"), "centre": ("?", "mid"), "central": ("?", "mid"), "middle": ("?", "mid"),
    "mid": ("?", "mid"), "centered": ("?", "mid"), "midsection": ("?", "mid"),
}  # fmt: skip
"""Position words: the axis they bound ("?": decided by the phrase) and which part of it."""

REGION_NOUNS = frozenset(
    "column columns row section side area part portion region zone corner edge half page pages quadrant "
    "band strip space".split()
)
"""Nouns that name a part of the page, not an element of it."""

FRAMES = frozenset(
    "image slide poster layout figure canvas document infographic spread sheet screen design graphic "
    "full entire whole overall".split()
)
"""The page's own names ("of the image", "of the full figure")."""

FILLERS = frozenset(
    "in on at inside within of the a an along across near toward towards to located positioned placed "
    "set shown found very far hand".split()
)
"""Prepositions, articles and words that do not change the region."""

MODIFIERS = frozenset(
    "white beige gray grey green blue red yellow orange purple pink black dark light pale olive teal navy "
    "brown cream tan gold golden silver shaded large small narrow wide tall big narrower wider larger smaller".split()
)
"""Colour and size words: the look of a region, not its place (module docstring)."""

REGION = re.compile(r"locator '([A-Za-z][A-Za-z -]*)'")
"""A locator part of letters, spaces and hyphens; :func:`parse_region` tells whether it is a region."""

Bounds = dict[str, tuple[float, float, float, float]]
"""Per axis ("x", "y"): (centre low, centre high, box low, box high), shares of the page (of the
spread's page, when there is a "page" entry: all 0.0 for the left page, all 1.0 for the right)."""


def parse_region(phrase: str) -> Bounds | None:
    """The region a locator phrase names (module docstring), or None when it is no region phrase.

    Args:
        phrase: the phrase without its ``locator '...'`` wrapper ("in the upper central column").

    Returns:
        per axis, (centre low, centre high, box low, box high) as shares of the width (x) or height
        (y) of the page; None when a word is outside the vocabulary or no position word is read.
    """
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w]
    known = POSITIONS.keys() | REGION_NOUNS | FRAMES | FILLERS
    tail = words[words.index("of") + 1 :] if "of" in words else []
    if not words or not all(w in known or w in MODIFIERS for w in words):
        return None  # a word of no region
    if any(w in MODIFIERS for w in tail) and page_side(tail) is None:
        return None  # "of the green region": a coloured part, not the page ("of the large right page" is one)
    places = [POSITIONS[w] for w in words if w in POSITIONS]
    if not places or (("row" in words or "rows" in words) and any(a == "y" for a, _ in places)):
        return None  # "the top row": a grid's first row (``grid_locators``), not the top of the page
    side = page_side(words)
    if side is not None:  # "right" of "the large right page" names the page, not a region of it
        k = max(i for i, w in enumerate(words) if w == side and i < words.index("page"))
        words = words[:k] + words[k + 1 :]
        places = [POSITIONS[w] for w in words if w in POSITIONS]
    very = "very" in words
    mid = _mid_axes(words, {a for a, _ in places})
    bounds: Bounds = {"page": (0.0, 0.0, 0.0, 0.0) if side == "left" else (1.0, 1.0, 1.0, 1.0)} if side else {}
    for axis, part in places:
        for a in [axis] if axis != "?" else mid:
            _bound(bounds, a, _part_bounds(part, very))
    outer = [p for a, p in places if a == "x"]
    if ("column" in words or "columns" in words) and len(set(outer)) == 1:  # the outermost column
        bounds["column"] = (0.0, 0.0, 0.0, 0.0) if outer[0] == "low" else (1.0, 1.0, 1.0, 1.0)
    return bounds if _consistent(bounds) else None


def _consistent(bounds: Bounds) -> bool:
    """True when every axis's bounds leave room (the "page" and "column" entries aside)."""
    return all(lo < hi and blo < bhi for axis, (lo, hi, blo, bhi) in bounds.items() if axis in ("x", "y"))


def page_side(words: list[str]) -> str | None:
    """ "left" or "right" when the phrase's ``words`` name a page of a spread ("on the left page",
    "of the narrower left page": the side word before "page", colour and size words skipped)."""
    if "page" not in words:
        return None
    k = words.index("page") - 1
    while k >= 0 and (words[k] in MODIFIERS or words[k] in ("narrower", "wider", "larger", "smaller")):
        k -= 1
    return words[k] if k >= 0 and words[k] in ("left", "right") else None


def _mid_axes(words: list[str], axes: set[str]) -> list[str]:
    """The axes a centre word bounds: x in a column ("upper central column"), y in a row ("middle
    row"), else the axis no other position word bounds ("upper center": x; "center-left": y; "the
    central part of the bottom row": x), both when none does ("the center"), none when both do."""
    if ("column" in words or "columns" in words) and "x" not in axes:
        return ["x"]
    if "row" in words and "y" not in axes:
        return ["y"]
    return [a for a in ("x", "y") if a not in axes]


def _part_bounds(part: str, very: bool) -> tuple[float, float, float, float]:
    """(centre low, centre high, box low, box high) of one position word on its axis."""
    if part == "mid":
        return (0.36, 0.64, 0.2, 0.8)
    if very:
        return (0.0, 0.15, 0.0, 0.3) if part == "low" else (0.85, 1.0, 0.7, 1.0)
    return (0.0, 0.4, 0.0, 0.55) if part == "low" else (0.6, 1.0, 0.45, 1.0)


def _bound(bounds: Bounds, axis: str, b: tuple[float, float, float, float]) -> None:
    """Intersect ``bounds[axis]`` with ``b``."""
    old = bounds.get(axis, (0.0, 1.0, 0.0, 1.0))
    bounds[axis] = (max(old[0], b[0]), min(old[1], b[1]), max(old[2], b[2]), min(old[3], b[3]))


def is_region(part: str) -> bool:
    """True when ``part`` is a ``locator '...'`` VLM part that names a region of the page (:func:`parse_region`)."""
    m = REGION.fullmatch(part)
    return m is not None and parse_region(m.group(1)) is not None


def region_parts(patterns: tuple[str, ...], parts: list[str]) -> list[str | None]:
    """The region rule's parts: every region part of a question (``is_region``: the regions of one
    question bound one region together); none ([None]) when a part names what the region is "of",
    an element's centre rather than the page's ("the center" "of Site A's donut")."""
    if any(p.startswith("locator 'of ") for p in parts):
        return [None]
    return [p for p in parts if is_region(p)] or [None]


def admits_region(part: str, n_texts: int) -> bool:
    """The region rule's pre-check: ``part`` names a region (``is_region``)."""
    return is_region(part)


def in_region(box: Box, bounds: Bounds, size: tuple[int, int]) -> bool:
    """True when ``box`` (pixels, from the frame's top left) lies in the region ``bounds``
    (:func:`parse_region`, its "page" entry aside) of a frame of ``size``."""
    for axis, (lo, hi, blo, bhi) in bounds.items():
        if axis not in ("x", "y"):
            continue
        k, extent = (0, size[0]) if axis == "x" else (1, size[1])
        a, b = box[k] / extent, box[k + 2] / extent
        if not (lo <= (a + b) / 2 <= hi and blo <= a and b <= bhi):
            return False
    return True


def _region(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a region of the page" (module docstring): every region part of the question (``m``,
    one match per part) bounds one region; each required string has an occurrence inside it."""
    bounds: Bounds = {}
    for match in m:
        parsed = parse_region(match.group(1))
        if parsed is None:
            return False
        for axis, b in parsed.items():
            _bound(bounds, axis, b)
    if not _consistent(bounds) or any(k in bounds and bounds[k][0] > bounds[k][1] for k in ("page", "column")):
        return False  # "left" and "right" together, the left and the right page: no region
    (w, h), x0 = ctx.page.size, 0
    if "page" in bounds:  # a page of a spread: the frame is that page
        seam = spread_seam(ctx.page)
        if seam is None:
            return False
        x0, w = (0, seam) if bounds["page"][0] == 0.0 else (seam, w - seam)

    def held(b: Box) -> bool:
        if "column" in bounds and _beyond(ctx.page, b, bounds["column"][0] == 0.0, x0, x0 + w):
            return False  # a line further out beside it: the string is in an inner column
        return x0 <= b[0] and b[2] <= x0 + w and in_region((b[0] - x0, b[1], b[2] - x0, b[3]), bounds, (w, h))

    return bool(ctx.held) and all(any(held(b) for b in boxes) for boxes in ctx.held)


def _beyond(page: _Page, box: Box, left: bool, lo: int, hi: int) -> bool:
    """True when a line read within ``lo``..``hi`` (x pixels) lies wholly left (``left``) or right of
    ``box`` beside it (its height within three of ``box``'s heights above or below): a column further out."""
    reach = 3 * (box[3] - box[1])
    for ln in page.lines:
        a = ln.box
        if a[3] < box[1] - reach or a[1] > box[3] + reach or a[0] < lo or a[2] > hi:
            continue
        if (a[2] < box[0]) if left else (a[0] > box[2]):
            return True
    return False


def spread_seam(page: _Page) -> int | None:
    """The x (pixels) of a two-page spread's seam: the column between a fifth and four fifths of
    the width where the luminance steps by more than 30 levels on the most rows, when that is at
    least 85% of the height and no OCR line crosses it; else None."""
    if "seam" not in page.memo:
        gray, seam = page.gray(), None
        if gray is not None:
            w = gray.shape[1]
            step = (np.abs(np.diff(gray.astype(np.int16), axis=1)) > 30).mean(axis=0)
            lo, hi = w // 5, 4 * w // 5
            x = lo + int(np.argmax(step[lo:hi]))
            crossed = any(ln.box[0] < x < ln.box[2] for ln in page.lines)
            seam = x + 1 if step[x] >= 0.85 and not crossed else None
        page.memo["seam"] = seam
    return page.memo["seam"]
