"""Pages drawn for the layout items (:mod:`training.procedural.layout_data`): what the tiny
generator of :mod:`training.diffusion.pretrain` learns to draw.

A page is drawn from an item's ``meta["spec"]`` with PIL at ``size`` px (32 by default): a light
page in the colour its prompt names, and, as the prompt asks,

* **title band**: a dark band across the top, 15-25% of the height, with light text strokes in it;
* **card** (slides): a white card in the left half (rows 30-90%), with dark text strokes, on a
  slide body darker than the card (a card shows on a page only by its edge);
* **bars** (charts): three dark bars of rising heights on a light page, over a dark axis line, with
  gaps of at least an eighth of the page (:data:`GAP`) between them;
* **text strokes**: short dark lines (a line of text at this size) wherever the page has room.

Each element the prompt asks for is drawn as asked only with probability ``follow`` (0.7 by
default); otherwise it is left out (band), put on the other side (card) or drawn falling or flat
(bars). The pages therefore follow their prompts only in part, as a pretrained model does, and
what a reward can teach is to follow them more often. The layout judge
(:class:`rewards.judges.layout.LayoutJudge`) passes the strict checks of the pages drawn as asked
(``tests/training/procedural/test_layout_pages.py`` measures how often).

One ``random.Random`` drives every choice: the same item, seed and size give the same pixels.
"""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from rewards.rubric import Item

PAGE_COLOURS = {
    "white": (250, 250, 250),
    "cream": (250, 244, 222),
    "light grey": (232, 232, 232),
    "off-white": (245, 243, 236),
    "pale": (238, 244, 250),
}
"""The page colour each ``layout_data.PAGES`` word names (RGB)."""

DARK = ((24, 40, 80), (30, 30, 30), (70, 20, 40), (20, 60, 50), (50, 50, 90))
"""Dark colours of bands and bars (luminance 0.1-0.25)."""


GAP = 0.125
"""The narrowest gap between two bars, as a fraction of the page's width: 4 px at 32 px, one token
of the tiny generator (patch 4), so that the bars it learns to draw stay apart (with gaps of 2-3 px
it blurred neighbours together; docs/training.md, the bars check). Four bars would be 3 px wide at
32 px, and the light page between such thin bars reads as a card (``rewards.judges.layout``), so a
chart has three."""


def _scale(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(max(0, min(255, round(c * factor))) for c in colour)


def _strokes(draw: ImageDraw.ImageDraw, rng: random.Random, box: tuple[int, int, int, int], colour, lines: int):
    """``lines`` text-like strokes (1 px high, random lengths) inside ``box`` = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 3 or y1 - y0 < 2:
        return
    for i in range(lines):
        y = y0 + 1 + i * 2
        if y >= y1:
            break
        length = rng.randint(max(2, (x1 - x0) // 2), x1 - x0 - 1)
        draw.line([(x0 + 1, y), (x0 + length, y)], fill=colour)


def _band(draw, rng, size: int, page) -> int:
    """A dark title band across the top; returns its height in px."""
    h = max(2, round(size * rng.uniform(0.17, 0.25)))
    draw.rectangle([0, 0, size - 1, h - 1], fill=rng.choice(DARK))
    _strokes(draw, rng, (size // 8, h // 2 - 1, size // 2 + size // 4, h), page, 1)
    return h


def _card(draw, rng, size: int, side: str, top: int, body) -> None:
    """A white card with dark text strokes in the ``side`` half, below ``top``."""
    w = size // 2
    x0 = round(size * rng.uniform(0.04, 0.08)) + (w if side == "right" else 0)
    x1 = x0 + round(size * rng.uniform(0.36, 0.42))
    y0 = max(top + 2, round(size * rng.uniform(0.3, 0.36)))
    y1 = round(size * rng.uniform(0.86, 0.92))
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=(255, 255, 255))
    _strokes(draw, rng, (x0 + 1, y0 + 1, x1 - 2, y1 - 2), _scale(body, 0.45), rng.randint(2, 3))


def _bars(draw, rng, size: int, top: int, trend: str) -> None:
    """Three dark bars over an axis line, rising, falling or flat (``trend``), at least ``GAP`` apart."""
    n = 3
    base = size - 1 - round(size * 0.06)
    lo = round(size * rng.uniform(0.12, 0.22))
    hi = min(base - top - 2, round(size * rng.uniform(0.55, 0.7)))
    heights = [round(lo + (hi - lo) * i / (n - 1)) for i in range(n)]
    if trend == "fall":
        heights.reverse()
    elif trend == "flat":
        heights = [round((lo + hi) / 2)] * n
    left, right = round(size * 0.06), round(size * 0.96)
    pitch = (right - left) / n
    gap = max(2, round(size * GAP))  # at least an eighth of the page between two bars
    width = max(2, min(round(pitch * rng.uniform(0.45, 0.6)), int(pitch) - gap))
    colour = rng.choice(DARK)
    for i, height in enumerate(heights):
        x0 = round(left + (i + 1) * pitch) - width  # the last bar ends at ``right``
        draw.rectangle([x0, base - height, x0 + width - 1, base - 1], fill=colour)
    draw.line([(left - 1, base), (right, base)], fill=(60, 60, 60))


def render_layout_page(item: Item, rng: random.Random, size: int = 32, follow: float = 0.7) -> Image.Image:
    """Draw ``item`` (a ``layout_data`` slide or chart) as an RGB page of ``size`` x ``size`` px.

    Args:
        item: an item of ``make_layout_dataset``; its ``meta["spec"]`` says what to draw.
        rng: drives every choice (sizes, colours, strokes, whether each element follows the prompt).
        size: the page's side in px (>= 16).
        follow: probability, per element the prompt asks for, that it is drawn as asked.

    Returns:
        The page (PIL RGB).

    Raises:
        ValueError: ``size`` < 16, ``follow`` outside [0, 1], or an item of no layout kind.
    """
    if size < 16:
        raise ValueError(f"render_layout_page: size must be >= 16 px, got {size}")
    if not 0.0 <= follow <= 1.0:
        raise ValueError(f"render_layout_page: follow must be in [0, 1], got {follow}")
    kind, spec = item.meta.get("kind"), item.meta.get("spec", {})
    if kind not in ("slide", "chart"):
        raise ValueError(f"render_layout_page: item {item.id!r} is no layout item (kind {kind!r})")
    page = PAGE_COLOURS.get(spec.get("page"), PAGE_COLOURS["white"])
    body = _scale(page, 0.64) if kind == "slide" else page  # a slide's body, darker than its white card
    image = Image.new("RGB", (size, size), body)
    draw = ImageDraw.Draw(image)
    top = 0
    if spec.get("title_band") and rng.random() < follow:
        top = _band(draw, rng, size, page)
    if kind == "slide":
        side = "left" if rng.random() < follow else "right"
        _card(draw, rng, size, side, top, body)
        half = size // 2
        other = (half + 2, top + 3, size - 2, size - 3) if side == "left" else (2, top + 3, half - 2, size - 3)
        _strokes(draw, rng, other, _scale(body, 0.4), rng.randint(2, 4))
    else:
        trend = "rise" if rng.random() < follow else rng.choice(("fall", "flat"))
        _bars(draw, rng, size, top, trend)
    return image
