"""A page laid out once and drawn twice: its graphics (rectangles, rules, dots), drawn the same on
every page, and its text elements, each drawn as laid out or as a ``shown`` variant (the same
layout with errors injected), with the pixel box of each variant's ink.

Used by the adversarial set (:mod:`documents.adversarial`): the clean and the erroneous page
differ only inside the boxes of the elements whose text differs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from documents.drawing import rotated
from documents.fonts import family_font

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) pixels, end-exclusive."""


@dataclass
class Text:
    """One laid-out text element: its role, text, anchor point ``xy`` (pixels; the centre for a
    rotated one), font, colour, Pillow anchor, angle (0 or 90), the slot it belongs in when
    missing, and free ``meta`` (ordinal, axis, row, column, container)."""

    role: str
    text: str
    xy: tuple[float, float]
    font: ImageFont.FreeTypeFont
    fill: tuple[int, int, int]
    anchor: str = "la"
    angle: int = 0
    slot: Box | None = None
    meta: dict = field(default_factory=dict)


@dataclass
class Layout:
    """A page being laid out: its size (pixels), paper colour, font family (a key of
    ``documents.fonts.FAMILIES``), its seeded generator, graphics and text elements (by id)."""

    w: int
    h: int
    paper: tuple[int, int, int]
    family: str
    rng: random.Random
    shapes: list[tuple] = field(default_factory=list)
    texts: dict[str, Text] = field(default_factory=dict)

    def font(self, px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
        """The page's family at ``px`` pixels."""
        return family_font(self.family, px, bold)

    def text(self, eid: str, role: str, text: str, xy, font, fill, anchor: str = "la", **meta) -> str:
        """Add text element ``eid`` (``meta`` may hold ``angle`` and ``slot``); returns ``eid``."""
        self.texts[eid] = Text(role, text, xy, font, fill, anchor, meta.pop("angle", 0), meta.pop("slot", None), meta)
        return eid

    def rect(self, box, fill=None, outline=None, width: int = 1, radius: int = 0) -> None:
        """Add a rectangle (rounded when ``radius``)."""
        self.shapes.append(("rect", tuple(box), fill, outline, width, radius))

    def line(self, xy, fill, width: int = 1) -> None:
        """Add a line from (x0, y0) to (x1, y1)."""
        self.shapes.append(("line", tuple(xy), fill, width))

    def dot(self, cx: float, cy: float, r: float, fill) -> None:
        """Add a filled circle of radius ``r`` at (cx, cy)."""
        self.shapes.append(("ellipse", (cx - r, cy - r, cx + r, cy + r), fill))

    def length(self, text: str, font) -> float:
        """The advance of ``text`` in ``font``, pixels."""
        return font.getlength(text)


def ink_box(t: Text, text: str) -> Box | None:
    """The pixel box of ``text`` drawn as ``t`` (None for the empty string)."""
    if not text:
        return None
    if t.angle:
        im = rotated(text, t.font, t.fill)
        x0, y0 = round(t.xy[0] - im.width / 2), round(t.xy[1] - im.height / 2)
        return (x0, y0, x0 + im.width, y0 + im.height)
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    x0, y0, x1, y1 = d.textbbox(t.xy, text, font=t.font, anchor=t.anchor)
    return (int(x0), int(y0), int(x1) + 1, int(y1) + 1)


def render(lay: Layout, shown: dict[str, str]) -> Image.Image:
    """Draw the graphics, then every text element as ``shown`` (eid -> text) or as laid out."""
    img = Image.new("RGB", (lay.w, lay.h), lay.paper)
    d = ImageDraw.Draw(img)
    for s in lay.shapes:
        if s[0] == "rect":
            _, box, fill, outline, width, radius = s
            if radius:
                d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
            else:
                d.rectangle(box, fill=fill, outline=outline, width=width)
        elif s[0] == "line":
            d.line(s[1], fill=s[2], width=s[3])
        else:
            d.ellipse(s[1], fill=s[2])
    for eid, t in lay.texts.items():
        text = shown.get(eid, t.text)
        if not text:
            continue
        if t.angle:
            im = rotated(text, t.font, t.fill)
            img.paste(im, (round(t.xy[0] - im.width / 2), round(t.xy[1] - im.height / 2)), im)
        else:
            d.text(t.xy, text, font=t.font, fill=t.fill, anchor=t.anchor)
    return img


def union(a: Box | None, b: Box | None, pad: int = 1) -> Box:
    """The smallest box holding ``a`` and ``b`` (either may be None, not both), padded by ``pad`` px."""
    boxes = [x for x in (a, b) if x is not None]
    return (
        min(x[0] for x in boxes) - pad,
        min(x[1] for x in boxes) - pad,
        max(x[2] for x in boxes) + pad,
        max(x[3] for x in boxes) + pad,
    )
