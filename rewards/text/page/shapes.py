"""The filled container around a line of text, measured from the pixels: its box, its shape and
its colour (``rewards.text.page.shape_locators`` reads "inside the blue circle", "the top dark
blue rounded rectangle", "on the green button" with it).

**The container** (:func:`container_around`). The text's background is the median colour of a
ring around its box; it must be flat (``FLAT_SHARE`` of the ring within ``TOLERANCE`` of it per
channel: no gradient, no photo). The container is the connected region of pixels of that colour
(4-connected, ``TOLERANCE``) that holds most of the ring, with its holes filled (the text's ink).
A region that touches the image's edge or covers more than ``MAX_PAGE_SHARE`` of it is the page
or a background panel, no container: None; so is one whose pixels spread more than
``MAX_SPREAD`` levels from its median (a gradient cut into a band by the tolerance). A framed box
on a page of its own colour is found too (its border bounds the region); a frame with a gap is not.

**Its shape** (:class:`Container`): ``ratio``, the region's area over its box's (1 for a
rectangle, pi/4 = 0.785 for a circle or an ellipse, between for rounded corners), and
``corners``, the share of the region in a square patch at each of the box's four corners (side
``CORNER_SIDE`` of the shorter side): about 1 for sharp corners, 0 for a circle and for a pill's
round ends. :meth:`Container.shapes` names it: ``circle`` (ratio 0.72-0.83, corners under 0.1,
width / height 0.85-1.18), ``oval`` (the same at any aspect), ``rect`` (ratio at least 0.96,
corners at least 0.9), ``rounded`` (ratio at least 0.84, some corner cut: corners under 0.75,
and no circle), ``pill`` (rounded, width at least 1.8 heights, corners under 0.3), ``square``
(a rect or rounded box of width / height 0.85-1.18). A shape between these has no name.

**Its colour** (:func:`colour_words`): the fill's median colour, named as
``rewards.text.page.text_style.colour_name`` names ink (None near a bin edge: no name), plus
"dark" (value under 150), "light" and "pale" (value over 170, not dark), "navy" (a dark blue),
"olive" (a dark yellow-green), "beige" and "cream" (a pale warm white), "teal" and "cyan" (hue
165-195; hues 160-195 are neither green nor blue), "magenta" (pink or purple), "grey" for gray.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from rewards.text.page.page_lines import MAX_PAGE_SHARE, Box, _Page
from rewards.text.page.text_style import colour_name

TOLERANCE = 28
"""Per-channel distance within which a pixel has the container's colour (anti-aliased text and
JPEG noise stay inside; a border or another fill does not)."""

FLAT_SHARE = 0.6
"""Share of the ring around the text that must have its background colour."""

MAX_SPREAD = 8.0
"""A fill whose ``Container.spread`` is larger is a gradient or a photo, no container."""

CORNER_SIDE = 0.12
"""Side of the corner patches, as a share of the box's shorter side."""


@dataclass(frozen=True)
class Container:
    """A filled region around a line of text: its box, fill colour (RGB) and shape measures."""

    box: Box
    fill: tuple[int, int, int]
    ratio: float
    corners: float
    key: tuple
    """Which colour map and component it is (siblings are looked up with it)."""
    spread: float = 0.0
    """The 75th percentile of its pixels' largest channel distance to ``fill``: a flat fill's is a
    few levels, a gradient cut at ``TOLERANCE`` spreads across it (no container)."""

    @property
    def aspect(self) -> float:
        """Width over height."""
        return (self.box[2] - self.box[0]) / max(1, self.box[3] - self.box[1])

    def shapes(self) -> set[str]:
        """The shape names that fit (module docstring): circle, oval, rect, rounded, pill, square."""
        out, r, c, a = set(), self.ratio, self.corners, self.aspect
        if 0.72 <= r <= 0.83 and c < 0.1:
            out.add("oval")
            if 0.85 <= a <= 1.18:
                out.add("circle")
        if r >= 0.96 and c >= 0.9:
            out.add("rect")
        if r >= 0.84 and c < 0.75 and "oval" not in out:
            out.add("rounded")
            if max(a, 1 / a) >= 1.8 and c < 0.3:
                out.add("pill")
        if out & {"rect", "rounded"} and 0.85 <= a <= 1.18:
            out.add("square")
        return out


def _ring(rgb: np.ndarray, box: Box, pad: int) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (N, 3) of a ``pad``-pixel ring around ``box`` and their (y, x) positions (N, 2)."""
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)
    mask = np.ones((y1 - y0, x1 - x0), bool)
    mask[max(0, box[1] - y0) : max(0, box[3] - y0), max(0, box[0] - x0) : max(0, box[2] - x0)] = False
    ys, xs = np.nonzero(mask)
    return rgb[ys + y0, xs + x0], np.stack([ys + y0, xs + x0], axis=1)


def _components(page: _Page, colour: np.ndarray) -> tuple[np.ndarray, list]:
    """The 4-connected components of the pixels within ``TOLERANCE`` of ``colour`` (labels (H, W)
    and their slices), kept per page and colour (quantised to 8 levels)."""
    key = ("shape-components", tuple(int(c) // 8 for c in colour))
    if key not in page.memo:
        rgb = page.rgb().astype(np.int16)
        near = (np.abs(rgb - colour.astype(np.int16)) <= TOLERANCE).all(axis=2)
        labels, _ = ndimage.label(near)
        page.memo[key] = (labels, ndimage.find_objects(labels))
    return page.memo[key]


def _measure(labels: np.ndarray, sl: tuple[slice, slice], lab: int, rgb: np.ndarray, key: tuple) -> Container:
    """The container of component ``lab`` within its slice ``sl``."""
    region = ndimage.binary_fill_holes(labels[sl] == lab)
    h, w = region.shape
    k = max(2, round(CORNER_SIDE * min(h, w)))
    corners = np.mean([region[:k, :k].mean(), region[:k, -k:].mean(), region[-k:, :k].mean(), region[-k:, -k:].mean()])
    pixels = rgb[sl][labels[sl] == lab].astype(np.int16)
    fill = np.median(pixels, axis=0)
    spread = float(np.percentile(np.abs(pixels - fill).max(axis=1), 75))
    box = (sl[1].start, sl[0].start, sl[1].stop, sl[0].stop)
    return Container(box, tuple(int(c) for c in fill), float(region.mean()), float(corners), key, spread)


def container_around(page: _Page, box: Box) -> Container | None:
    """The filled container around the text of ``box`` (module docstring), or None."""
    rgb = page.rgb()
    if rgb is None:
        return None
    pad = max(2, (box[3] - box[1]) // 3)
    ring, where = _ring(rgb, box, pad)
    if len(ring) == 0:
        return None
    colour = np.median(ring, axis=0)
    flat = (np.abs(ring.astype(np.int16) - colour.astype(np.int16)) <= TOLERANCE).all(axis=1)
    if flat.mean() < FLAT_SHARE:
        return None
    labels, slices = _components(page, colour)
    hits = labels[where[flat, 0], where[flat, 1]]
    hits = hits[hits > 0]
    if hits.size == 0:
        return None
    lab = int(np.bincount(hits).argmax())
    sl = slices[lab - 1]
    (h, w), (ys, xs) = rgb.shape[:2], sl
    if ys.start == 0 or xs.start == 0 or ys.stop == h or xs.stop == w:
        return None  # the page's own background
    if (ys.stop - ys.start) * (xs.stop - xs.start) > MAX_PAGE_SHARE * h * w:
        return None
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if not (xs.start <= cx <= xs.stop and ys.start <= cy <= ys.stop):
        return None
    c = _measure(labels, sl, lab, rgb, ("shape-components", tuple(int(c) // 8 for c in colour), lab))
    return c if c.spread <= MAX_SPREAD else None


def siblings(page: _Page, c: Container) -> list[Container]:
    """The other containers of ``c``'s colour with a shape name in common and an area within a
    factor of two of its own (the ones "the top ..." ranks it among)."""
    labels, slices = page.memo[c.key[:2]]
    rgb, area, out = page.rgb(), (c.box[2] - c.box[0]) * (c.box[3] - c.box[1]), []
    (h, w), mine = rgb.shape[:2], c.shapes()
    for i, sl in enumerate(slices):
        if sl is None or i + 1 == c.key[2]:
            continue
        ys, xs = sl
        a = (ys.stop - ys.start) * (xs.stop - xs.start)
        if not (area / 2 <= a <= 2 * area) or ys.start == 0 or xs.start == 0 or ys.stop == h or xs.stop == w:
            continue
        other = _measure(labels, sl, i + 1, rgb, c.key[:2] + (i + 1,))
        if other.shapes() & mine:
            out.append(other)
    return out


def colour_words(rgb: tuple[int, int, int]) -> set[str]:
    """The colour words a person may use of a fill of colour ``rgb`` (module docstring)."""
    r, g, b = rgb
    value, chroma = max(rgb), max(rgb) - min(rgb)
    hue = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)[0] * 360.0
    sat = chroma / value if value else 0.0
    name = colour_name(rgb)
    if name in ("green", "blue") and 160 <= hue <= 195 and sat >= 0.3:
        name = None  # teal: green to some, blue to others
    out = {name} if name else set()
    out |= {"dark"} if value < 150 else {"light", "pale"} if value > 170 else set()
    if name == "gray":
        out.add("grey")
    if name == "blue" and value < 140:
        out.add("navy")
    if name in ("pink", "purple"):
        out.add("magenta")
    if 45 <= hue <= 90 and value < 170 and sat > 0.3:
        out.add("olive")
    if 25 <= hue <= 65 and 0.08 <= sat <= 0.35 and value >= 190:
        out |= {"beige", "cream"}
    if 165 <= hue <= 195 and sat >= 0.3:
        out |= {"teal", "cyan"}
    return out
