"""The text-editor benchmark's documents (``benchmarks/text_editor.py``): seeded pages with a real
layout, the text errors open generators make injected into a share of their strings, and the
truth of how every string was typeset.

Layout: 800 x 600 px; a title band (solid or horizontal gradient, dark) with a bold light title,
left-aligned or centred, in a bold serif or sans face; two columns (x 32..376 and 424..768) each
stacking a bold heading, a wrapped paragraph, labels and a light-on-dark badge, with the lower
part of each column left free; serif or sans body type; the page is light, flat or a vertical
gradient. A seeded 40% of the strings of >= 4 characters get an error of
``documents.errors.corrupt`` (the title is never missing).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from PIL import Image, ImageDraw

from documents.drawing import gradient, wrap
from documents.errors import CORRUPTIONS, corrupt
from documents.fonts import Face, installed_faces
from rewards.rubric import Check, Criterion, Item, Rubric, TextExpectation

WORDS = (
    "market growth revenue customer service quality design team report annual plan budget "
    "strategy product launch sales region partner network energy future digital cloud data "
    "insight value support program event summer winter health safety travel finance share "
    "global local people vision mission impact focus review results goals brand story"
).split()
W, H = 800, 600
COLUMNS = ((32, 376), (424, 768))
"""The two columns' x ranges, pixels."""


@dataclass
class Placed:
    """One string of a rendered document and the truth about how it was typeset.

    Attributes:
        text: the correct string; role: title | heading | body | label | badge.
        family, bold, size: the face (``documents.fonts`` family name), weight and em size (px).
        region: the half of the page it belongs in ("top", "left", "right").
        box: the ink box of the correct string on the clean page, pixels.
        corruption: the ``corrupt`` kind of its error, or None; rendered: what the start page shows.
        lines: the correct string as wrapped.
    """

    text: str
    role: str  # title | heading | body | label | badge
    family: str
    bold: bool
    size: int
    region: str
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    corruption: str | None = None
    rendered: str = ""
    lines: list[str] = field(default_factory=list)


class DrawOp(NamedTuple):
    """How one string is drawn: its face and colour, the pen's x and first baseline (pixels,
    anchor "ls"), the wrap width (None: one line) and whether it sits on a badge."""

    p: Placed
    face: Face
    colour: tuple
    x: float
    baseline: float
    width: int | None
    badge: bool


def _phrase(rng: random.Random, n: int, used: set) -> str:
    while True:
        words = rng.sample(WORDS, n)
        text = " ".join(words).capitalize()
        if text not in used and not any(text in u or u in text for u in used):
            used.add(text)
            return text


def _sentence(rng: random.Random, n: int, used: set) -> str:
    parts = [_phrase(rng, rng.randint(4, 7), used).lower() for _ in range(n)]
    text = ". ".join(p.capitalize() for p in parts) + "."
    used.add(text)
    return text


@dataclass
class _Style:
    family: str
    title_family: str
    page: Image.Image
    band_h: int
    ink: tuple
    badge_c: tuple


def _style(rng: random.Random, faces: dict) -> _Style:
    """The page's faces, paper (flat or a vertical gradient), title band and colours."""
    family = rng.choice(
        [
            f
            for f in ("DejaVu Serif", "DejaVu Sans", "Liberation Serif", "Liberation Sans")
            if (f, False, False) in faces
        ]
    )
    title_family = rng.choice([family, "DejaVu Serif" if "Sans" in family else "DejaVu Sans"])
    page0 = tuple(rng.randint(238, 252) for _ in range(3))
    page = (
        gradient((W, H), page0, tuple(max(0, c - rng.randint(10, 30)) for c in page0), True)
        if rng.random() < 0.4
        else Image.new("RGB", (W, H), page0)
    )
    band_c = tuple(rng.randint(20, 90) for _ in range(3))
    band_h = rng.randint(74, 92)
    if rng.random() < 0.5:
        page.paste(gradient((W, band_h), band_c, tuple(min(255, c + 60) for c in band_c), False), (0, 0))
    else:
        ImageDraw.Draw(page).rectangle([0, 0, W, band_h], fill=band_c)
    ink = tuple(rng.randint(15, 50) for _ in range(3))
    badge_c = tuple(rng.randint(20, 120) for _ in range(3))
    return _Style(family, title_family, page, band_h, ink, badge_c)


def _column(rng, faces, st: _Style, body: int, used: set, col: int, ops: list[DrawOp]) -> list[Placed]:
    """Stack a heading, a paragraph, two labels and a badge (in a seeded order) down column
    ``col``, skipping those that would reach into the page's lower 150 px; appends their draw ops."""
    x0, x1 = COLUMNS[col]
    y = st.band_h + 34
    region = ("left", "right")[col]
    placed = []
    for role in rng.sample(["heading", "para", "label", "badge", "label"], 5):
        if role == "heading":
            p = Placed(_phrase(rng, rng.randint(2, 3), used), "heading", st.family, True, body + 4, region)
        elif role == "para":
            p = Placed(_sentence(rng, 2, used), "body", st.family, False, body, region)
        elif role == "label":
            p = Placed(_phrase(rng, rng.randint(2, 3), used), "label", st.family, False, body, region)
        else:
            p = Placed(_phrase(rng, rng.randint(1, 2), used), "badge", st.family, True, body, region)
        face = faces[(st.family, p.bold, False)]
        fnt = face.font(p.size)
        p.lines = wrap(p.text, fnt, x1 - x0) if role == "para" else [p.text]
        pitch = round(p.size * 1.35)
        height = pitch * len(p.lines) + (12 if role == "badge" else 0)
        if y + height > H - 150:
            continue
        colour = (255, 255, 255) if role == "badge" else st.ink
        x = x0 + (12 if role == "badge" else 0)
        baseline = y + (6 if role == "badge" else 0) + p.size * 0.8
        ops.append(DrawOp(p, face, colour, x, baseline, x1 - x0 if role == "para" else None, role == "badge"))
        placed.append(p)
        y += height + round(body * 1.1)
    return placed


def _strings(rng: random.Random, faces: dict, st: _Style) -> tuple[list[Placed], list[DrawOp]]:
    """The title and both columns' strings, with how each is drawn."""
    used: set = set()
    body = rng.choice([15, 16, 17, 18])
    tsize = rng.randint(28, 34)
    title = Placed(_phrase(rng, rng.randint(2, 3), used), "title", st.title_family, True, tsize, "top")
    tface = faces[(st.title_family, True, False)]
    tw = tface.font(tsize).getlength(title.text)
    centred = rng.random() < 0.4
    x = (W - tw) / 2 if centred else 32
    ops = [DrawOp(title, tface, (250, 250, 250), x, st.band_h / 2 + tsize * 0.36, None, False)]
    strings = [title]
    for col in range(2):
        strings += _column(rng, faces, st, body, used, col, ops)
    return strings, ops


def _inject(rng: random.Random, strings: list[Placed], fraction: float) -> None:
    """Give a seeded ``fraction`` of the strings of >= 4 characters an error (the title is never
    missing); set every string's ``rendered``."""
    eligible = [p for p in strings if len(p.text) >= 4]
    for p in rng.sample(eligible, round(fraction * len(eligible))):
        p.corruption = rng.choice(CORRUPTIONS[:3] if p.role == "title" else CORRUPTIONS)
        p.rendered = corrupt(p.text, p.corruption, rng)
    for p in strings:
        if p.corruption is None:
            p.rendered = p.text


def _paint(page: Image.Image, ops: list[DrawOp], badge_c) -> tuple[Image.Image, Image.Image]:
    """Draw every string on two copies of ``page``: as correct (clean, setting each ``box``) and
    as rendered (start)."""
    clean, start = page.copy(), page.copy()
    for img, which in ((clean, "text"), (start, "rendered")):
        draw = ImageDraw.Draw(img)
        for p, face, colour, x, baseline, width, badge in ops:
            text = getattr(p, which)
            fnt = face.font(p.size)
            rows = wrap(text, fnt, width) if width else ([text] if text else [])
            pitch = round(p.size * 1.35)
            if badge:
                bw = fnt.getlength(p.text) + 24
                draw.rounded_rectangle(
                    [x - 12, baseline - p.size * 0.8 - 6, x - 12 + bw, baseline - p.size * 0.8 + pitch + 6],
                    radius=8,
                    fill=badge_c,
                )
            for k, row in enumerate(rows):
                draw.text((x, baseline + k * pitch), row, font=fnt, fill=colour, anchor="ls")
            if which == "text":
                boxes = [
                    draw.textbbox((x, baseline + k * pitch), row, font=fnt, anchor="ls") for k, row in enumerate(rows)
                ]
                p.box = tuple(
                    int(v)
                    for v in (
                        min(b[0] for b in boxes),
                        min(b[1] for b in boxes),
                        max(b[2] for b in boxes),
                        max(b[3] for b in boxes),
                    )
                )
    return clean, start


def render_document(seed: int, corrupt_fraction: float = 0.4) -> tuple[Image.Image, Image.Image, list[Placed]]:
    """One seeded document: (clean image, start image with errors, list[Placed]); layout in the
    module docstring. Raises KeyError when a needed face is not installed."""
    rng = random.Random(seed)
    faces = {(f.family, f.bold, f.italic): f for f in installed_faces()}
    st = _style(rng, faces)
    strings, ops = _strings(rng, faces, st)
    _inject(rng, strings, corrupt_fraction)
    clean, start = _paint(st.page, ops, st.badge_c)
    return clean, start, strings


def make_item(seed: int, strings: list[Placed], image: Path) -> Item:
    """The rubric of a rendered document: one check per string, in its half of the page."""
    checks = tuple(
        Check(str(k), f'Does the page read exactly "{p.text}"?', expects=(TextExpectation(p.text, p.region),))
        for k, p in enumerate(strings)
    )
    return Item(f"doc{seed}", "a document", Rubric((Criterion("text", checks),)), image=image)
