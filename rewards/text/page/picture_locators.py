"""Rule "beside a picture" (issue 31, BizGenEval phrasing: "the caption directly below the RGB inset",
"the heading to the left of the stretching person illustration", "the label positioned above the
circular illustration of a first-aid kit and bottle"), resolved on the page structure for
``rewards.text.page.locators``.

The phrase (``PICTURE_SIDE``): an optional participle ("positioned", "located"...) and degree word
("directly", "just", "immediately", "slightly"), a side ("below", "beneath", "under", "above",
"to the (immediate) right of", "left of"; "next to", "beside": either side), "the", any
describing words, and a picture's noun as the head of the phrase (``PICTURE_NOUNS``:
illustration, image, photo, icon, logo, inset, thumbnail, cartoon, bottle, person...),
optionally followed by what it shows ("of a first-aid kit", "holding items"). "To the right
of the logo text" is no picture phrase (its head is "text"); nor is one whose describing words
rank or place the picture among others ("the eighth bottle", "the left graphic": ``RANKS``),
which this rule cannot tell apart.

**A picture** is a blob of drawn ink (``picture_beside``): pixels whose colour is off the
occurrence's own background (the median colour of a ring one line height around it; more than
``INK`` in some channel), outside every text line (``_text_lines``) (dilated by a third of a line
height, so a drawing of several strokes is one blob, and labelled with ``scipy.ndimage.label``);
the blob must be

- at least ``SIZE`` line heights tall and wide (no rule, underline or bullet dot);
- no flat fill: under ``FLAT`` of its box inked, or at least two colours each on ``MIXED`` of its
  ink (a card's or band's fill is one flat colour filling its box; a drawn picture is not);
- no frame around the string (its box does not hold the occurrence's middle: that is a container);
- not the whole page (under ``PAGE`` of its width and height).

**The rule holds** when the required strings have occurrences (``_Ctx.held``: whole lines when
the question reads the strings whole) stacked in one block of lines (``_one_block``: "the two
caption lines below the graphic") whose box has such a picture on the named side: "below the picture"
-> the blob's lowest row above the occurrence's top by at most ``GAP`` line heights, overlapping
it horizontally by half the narrower of the two; "to the right of the picture" -> the blob's right
edge left of the occurrence's left by at most ``GAP_SIDE`` line heights, overlapping it vertically
by half the narrower; and no text line between them. What the picture shows (a lightbulb, an
open book) is not measured; the rule reads a drawn picture on that side of the string. A part that
fails stays a VLM part (the verdict is withheld): the rule never says "no".
Boxes are ``(x0, y0, x1, y1)`` pixels.
"""

from __future__ import annotations

import re

import numpy as np
from scipy import ndimage

from rewards.text.page.locator_base import _Ctx
from rewards.text.page.page_lines import Box, _Page

PICTURE_NOUNS = (
    "illustrations? images? photos? photographs? pictures? drawings? cartoons? graphics? icons? logos? insets? "
    "thumbnails? bottles? portraits? person people man woman figurines? mascots? artwork"
).split()
"""Head nouns of a picture phrase (no text element, no container: those are other rules')."""

SIDES = {
    "below": "below", "beneath": "below", "under": "below", "underneath": "below",
    "above": "above",
    "to the right of": "right", "right of": "right", "to the immediate right of": "right",
    "to the left of": "left", "left of": "left", "to the immediate left of": "left",
    "next to": "beside", "beside": "beside",
}  # fmt: skip
"""The phrase's side words -> where the string stands from the picture."""

PICTURE_SIDE = re.compile(
    r"locator '(?:(?:positioned|located|placed|set|shown|centered|centred) )?"
    r"(?:(?:directly|just|immediately|right|slightly) )?(?P<side>" + "|".join(SIDES) + r") the "
    r"(?P<desc>(?:[\w’'-]+ ){0,4}?)(?P<noun>" + "|".join(PICTURE_NOUNS) + r")"
    r"(?: (?:of|with|showing|holding|giving|depicting) [\w ’'-]{1,60})?'"
)
"""The rule's VLM part: "directly below the RGB inset", "to the right of the person holding items"."""

INK = 40
"""A pixel is ink when some channel is this far from the occurrence's background (0-255)."""
SIZE = 1.5
"""A picture's least height and width, in line heights."""
FLAT = 0.9
"""A blob inking more than this share of its box is a flat fill, unless it holds two colours."""
MIXED = 0.1
"""Each of a drawn picture's two main colours covers at least this share of its ink."""
PAGE = 0.9
"""A blob this share of the page's width and height is the page's frame, no picture."""
GAP = 2.5
"""The most space between a picture and a string above or below it, in line heights."""
GAP_SIDE = 5.0
"""The most space between a picture and a string beside it, in line heights."""
STACK = 1.0
"""The most space between two lines of one block, in line heights (``_one_block``)."""
REACH = 12.0
"""How far from the string a picture is looked for, in line heights (its near edge within ``GAP``)."""


RANKS = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|last|next|other"
    r"|same|previous|\w+most|left|right|top|bottom|upper|lower|middle|mid|center|centre|central|\d+(?:st|nd|rd|th))\b"
)
"""Words that pick one picture among several ("the eighth bottle", "the left map-style graphic",
"the topmost icon"): the rule does not rank pictures, so such a phrase is none of its
(``object_locators`` reads "the eighth bottle from the left")."""


def is_picture(part: str) -> bool:
    """True when ``part`` is a picture phrase of this rule (``PICTURE_SIDE``) whose describing
    words pick no picture by rank or place (``RANKS``)."""
    m = PICTURE_SIDE.fullmatch(part)
    return m is not None and not RANKS.search(m.group("desc"))


def admits_picture(part: str, n_texts: int) -> bool:
    """The rule's pre-check: ``part`` names a side of a picture (``is_picture``)."""
    return is_picture(part)


def _background(rgb: np.ndarray, box: Box, h: float) -> np.ndarray:
    """The median colour (3,) of the ring one line height ``h`` wide around ``box``, box excluded."""
    x0, y0, x1, y1 = box
    m = int(max(2, h))
    a0, b0, a1, b1 = max(0, x0 - m), max(0, y0 - m), min(rgb.shape[1], x1 + m), min(rgb.shape[0], y1 + m)
    ring = np.ones((b1 - b0, a1 - a0), bool)
    ring[max(0, y0 - b0) : y1 - b0, max(0, x0 - a0) : x1 - a0] = False
    return np.median(rgb[b0:b1, a0:a1][ring], axis=0)


def _ink(page: _Page, bg: np.ndarray, window: Box, h: float) -> np.ndarray:
    """(rows, cols) bool of ``window``: pixels off ``bg`` by more than ``INK``, outside every text
    line (``_text_lines``): drawn ink, no text."""
    rgb = page.rgb()
    x0, y0, x1, y1 = window
    ink = (np.abs(rgb[y0:y1, x0:x1].astype(np.int16) - bg.astype(np.int16)) > INK).any(axis=2)
    for i in _text_lines(page, h):
        c0, d0, c1, d1 = page.lines[i].box
        ink[max(0, d0 - 1 - y0) : max(0, d1 + 2 - y0), max(0, c0 - 1 - x0) : max(0, c1 + 2 - x0)] = False
    return ink


DOUBT = 40.0
"""tesseract's confidence (0-100) under which every word of a tall line marks it as a drawing read as text."""


def _text_lines(page: _Page, h: float) -> list[int]:
    """The OCR lines that are text beside a string of line height ``h``: a letter or digit
    (``_Page.read``; tesseract reads a drawing as "." or "@"), no taller than three line heights,
    and not a line over 1.5 heights whose every word tesseract doubts (confidence under ``DOUBT``:
    a drawing it read as "py", 104 px tall, confidence 15)."""
    out = []
    for i in page.read:
        ln = page.lines[i]
        tall = ln.box[3] - ln.box[1]
        doubted = all(w.conf is not None and w.conf < DOUBT for w in ln.words)
        if tall <= 3 * h and not (tall > 1.5 * h and doubted):
            out.append(i)
    return out


def _drawn(rgb: np.ndarray, ink: np.ndarray, box: Box) -> bool:
    """True when the blob ``ink`` (its mask inside ``box``, pixels of ``rgb``) is no flat fill:
    under ``FLAT`` of its box inked, or two colours (quantised to 32 levels) each on ``MIXED`` of it."""
    if ink.mean() < FLAT:
        return True
    x0, y0, x1, y1 = box
    q = (rgb[y0:y1, x0:x1][ink] // 32).astype(np.int32)
    _, counts = np.unique(q[:, 0] * 64 + q[:, 1] * 8 + q[:, 2], return_counts=True)
    top = np.sort(counts)[::-1] / counts.sum()
    return len(top) >= 2 and top[1] >= MIXED


def picture_beside(page: _Page, box: Box, side: str, h: float) -> Box | None:
    """The box of a drawn picture (module docstring) that ``box`` (an occurrence, line height
    ``h`` px) stands on ``side`` of ("below": the string under the picture), or None.

    Raises nothing; a page without pixels has no picture (None)."""
    rgb = page.rgb()
    if rgb is None or h <= 0:
        return None
    height, width = rgb.shape[:2]
    r = int(REACH * h)
    window = (max(0, box[0] - r), max(0, box[1] - r), min(width, box[2] + r), min(height, box[3] + r))
    ink = _ink(page, _background(rgb, box, h), window, h)
    grown = ndimage.binary_dilation(ink, iterations=max(1, int(h / 3)))
    labels, n = ndimage.label(grown)
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        own = (labels[sl] == k) & ink[sl]
        if not own.any():
            continue
        ys, xs = np.nonzero(own)
        b = (window[0] + sl[1].start + int(xs.min()), window[1] + sl[0].start + int(ys.min()))
        b += (window[0] + sl[1].start + int(xs.max()) + 1, window[1] + sl[0].start + int(ys.max()) + 1)
        if _placed(b, box, side, h) and _picture_like(page, rgb, own, sl, b, box, h, (width, height)):
            return b
    return None


def _picture_like(page, rgb, own, sl, b: Box, box: Box, h: float, size: tuple[int, int]) -> bool:
    """True when blob ``b`` (mask ``own`` over slice ``sl`` of the window) is big enough, no flat
    fill, no frame around the occurrence ``box`` and not the page (module docstring)."""
    w, t = b[2] - b[0], b[3] - b[1]
    if w < SIZE * h or t < SIZE * h or (w > PAGE * size[0] and t > PAGE * size[1]):
        return False
    mx, my = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if b[0] <= mx <= b[2] and b[1] <= my <= b[3]:
        return False  # it frames the string: a container
    ys, xs = np.nonzero(own)
    crop = own[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return _drawn(rgb, crop, b) and not _text_between(page, b, box, h)


def _placed(b: Box, box: Box, side: str, h: float) -> bool:
    """True when picture ``b`` stands so that ``box`` is on its ``side``, near enough (``GAP``,
    ``GAP_SIDE``) and overlapping it across (half the narrower extent)."""
    if side == "beside":  # "next to the brain icon": on its left or its right
        return _placed(b, box, "right", h) or _placed(b, box, "left", h)
    if side in ("below", "above"):
        gap = box[1] - b[3] if side == "below" else b[1] - box[3]
        over = min(b[2], box[2]) - max(b[0], box[0])
        return -1 <= gap <= GAP * h and over >= 0.5 * min(b[2] - b[0], box[2] - box[0])
    gap = box[0] - b[2] if side == "right" else b[0] - box[2]
    over = min(b[3], box[3]) - max(b[1], box[1])
    return -1 <= gap <= GAP_SIDE * h and over >= 0.5 * min(b[3] - b[1], box[3] - box[1])


def _text_between(page: _Page, b: Box, box: Box, h: float) -> bool:
    """True when a text line (``_text_lines``, line height ``h``) stands in the gap between
    picture ``b`` and occurrence ``box``."""
    gx0, gx1 = max(b[0], box[0]), min(b[2], box[2])
    gy0, gy1 = max(b[1], box[1]), min(b[3], box[3])
    if gx1 <= gx0:  # side by side: the gap is between their x edges, over their shared rows
        gx0, gx1 = min(b[2], box[2]), max(b[0], box[0])
    else:
        gy0, gy1 = min(b[3], box[3]), max(b[1], box[1])
    for i in _text_lines(page, h):
        c0, d0, c1, d1 = page.lines[i].box
        cx, cy = (c0 + c1) / 2, (d0 + d1) / 2
        if gx0 < cx < gx1 and gy0 < cy < gy1 and page.lines[i].box != box:
            return True
    return False


def _beside_picture(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "beside a picture" (module docstring)."""
    side = SIDES[m[0].group("side")]
    if not is_picture(m[0].group(0)) or not ctx.held or not all(ctx.held) or ctx.page.rgb() is None:
        return False
    for box in ctx.held[0]:
        group = _one_block(ctx.page, box, ctx.held[1:])
        if group is not None and picture_beside(ctx.page, group, side, _line_height(ctx.page, group)):
            return True
    return False


def _one_block(page: _Page, box: Box, others: list[list[Box]]) -> Box | None:
    """The union of ``box`` (an occurrence of the first string) and, per other string in turn, one
    of its occurrences ``others`` stacked on the union so far: overlapping it across, its top or
    bottom within ``STACK`` line heights of the union's (the strings read as one block beside the
    picture: "the two caption lines below the graphic"); None when a string has no such occurrence."""
    h = _line_height(page, box)
    out = box
    for held in others:
        near = [
            b for b in held if min(b[2], out[2]) > max(b[0], out[0]) and max(b[1] - out[3], out[1] - b[3]) <= STACK * h
        ]
        if not near:
            return None
        b = near[0]
        out = (min(out[0], b[0]), min(out[1], b[1]), max(out[2], b[2]), max(out[3], b[3]))
    return out


def _line_height(page: _Page, box: Box) -> float:
    """The median height of the text lines (``_Page.read``) whose middle lies in ``box`` (a block
    of two lines is measured by its lines, not by the block), else the box's own height."""
    heights = [
        page.lines[i].box[3] - page.lines[i].box[1]
        for i in page.read
        if box[0] <= (page.lines[i].box[0] + page.lines[i].box[2]) / 2 <= box[2]
        and box[1] <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= box[3]
    ]
    return float(np.median(heights)) if heights else float(box[3] - box[1])
