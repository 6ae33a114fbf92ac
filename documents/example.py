"""The bundled example's start images: real BizGenEval text items laid out as documents, with
injected text errors (``python -m refine.example.render`` writes them into ``refine/example/``).

For each item the strings its text checks require (the text expectations produced by
:func:`rewards.importers.load_items`) are laid out as a plausible document: a dark title band with
light text, four content zones (the quadrants below the band) that hold each string in the half
of the image its checks name, a few light-on-dark "buttons", and domain decorations (bars, table
rules, picture frames) in the space left. A seeded half of the strings (those of >= 4 characters)
get the text errors open generators make (``documents.errors.corrupt``): a dropped, swapped or
substituted character, or the whole line missing. Rendering is deterministic for a given seed,
Pillow version and DejaVu font files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from documents.drawing import wrap
from documents.errors import CORRUPTIONS, corrupt
from documents.fonts import dejavu_serif
from rewards.rubric import Item
from rewards.text.ocr.text_match import contains
from rewards.text.questions.keyword_rules import layout_strings

ITEM_IDS = ("322", "140", "142", "381", "81", "20", "21", "22")
"""BizGenEval text-dimension items used (chart, 2 posters, figure, slides, 3 webpages)."""
CORRUPT_FRACTION = 0.5
MIN_CORRUPT_LEN = 4
SIZES = {"16:9": (1024, 576), "4:3": (1024, 768), "3:2": (1024, 683), "1:1": (896, 896), "2:3": (704, 1056)}
PALETTES = {  # background, title band, body text, accent (button fill), decoration
    "chart": ((250, 250, 247), (28, 45, 82), (33, 33, 33), (200, 70, 50), (120, 160, 210)),
    "poster": ((243, 236, 220), (110, 30, 40), (40, 30, 30), (30, 90, 80), (225, 190, 150)),
    "scientific_figure": ((255, 255, 255), (40, 40, 40), (20, 20, 20), (60, 80, 140), (170, 170, 170)),
    "slides": ((248, 248, 252), (0, 70, 120), (25, 25, 40), (0, 120, 110), (170, 200, 225)),
    "webpage": ((252, 247, 240), (60, 40, 110), (35, 30, 50), (230, 110, 60), (205, 195, 230)),
}
__all__ = ["CORRUPTIONS", "ITEM_IDS", "MIN_CORRUPT_LEN", "Block", "corrupt", "render_item"]


@dataclass
class Block:
    """One string laid out in a zone."""

    text: str  # the expected string
    regions: set[str]
    rendered: str = ""  # what is actually drawn ("" when the line is missing)
    corruption: str | None = None
    button: bool = False
    zone: str = ""
    lines: list[str] = field(default_factory=list)
    covers: list[str] = field(default_factory=list)  # shorter expected strings inside this one


def collect_blocks(item: Item) -> list[Block]:
    """One block per distinct expected string of ``item``; strings inside a longer one are covered."""
    regions: dict[str, set[str]] = {}
    for check in item.rubric.checks:
        for text, region in layout_strings(check.question):
            regions.setdefault(text, set())
            if region:
                regions[text].add(region)
    texts = list(regions)
    blocks = []
    for t in texts:
        container = next((o for o in texts if o != t and len(o) > len(t) and contains(o, t)), None)
        if container is None:
            blocks.append(Block(t, regions[t]))
    for t in texts:
        for b in blocks:
            if t != b.text and contains(b.text, t):
                b.covers.append(t)
                b.regions |= regions[t]
                break
    return blocks


def allowed_zones(regions: set[str]) -> list[str]:
    """Quadrants (TL, TR, BL, BR) whose centre half matches every region; all when none fit."""
    zones = {"TL": {"top", "left"}, "TR": {"top", "right"}, "BL": {"bottom", "left"}, "BR": {"bottom", "right"}}
    ok = [z for z, halves in zones.items() if regions <= halves]
    return ok or list(zones)


def layout(blocks: list[Block], title: Block | None, size: tuple[int, int], body: int):
    """Assign blocks to zones and wrap them at font size ``body`` pixels.

    Returns (zone rectangles, title band height) or None when the text does not fit.
    """
    w, h = size
    margin, gap = 28, 56
    title_font = dejavu_serif(round(body * 1.6), bold=True)
    title_lines = wrap(title.rendered or title.text, title_font, w - 2 * margin) if title else []
    band = (len(title_lines) * round(body * 1.6 * 1.25) + 2 * margin) if title else margin
    if title and band > h / 2 - gap:
        return None
    mid_x, mid_y = w // 2, max(h // 2, band + gap)
    zones = {
        "TL": (margin, band + gap, mid_x - gap // 2, mid_y - gap // 2),
        "TR": (mid_x + gap // 2, band + gap, w - margin, mid_y - gap // 2),
        "BL": (margin, mid_y + gap // 2, mid_x - gap // 2, h - margin),
        "BR": (mid_x + gap // 2, mid_y + gap // 2, w - margin, h - margin),
    }
    fill = dict.fromkeys(zones, 0)
    fnt = dejavu_serif(body)
    line_h, block_gap = round(body * 1.3), round(body * 0.9)
    for b in blocks:
        best = None
        for z in allowed_zones(b.regions):
            x0, y0, x1, y1 = zones[z]
            lines = wrap(b.text, fnt, x1 - x0 - (24 if b.button else 0))
            need = len(lines) * line_h + (12 if b.button else 0) + block_gap
            if fill[z] + need <= y1 - y0 and (best is None or fill[z] < fill[best[0]]):
                best = (z, lines, need)
        if best is None:
            return None
        b.zone, b.lines = best[0], best[1]
        fill[best[0]] += best[2]
    if title:
        title.lines = title_lines
    return zones, band


def choose_blocks(item: Item, rng: random.Random) -> tuple[list[Block], Block | None]:
    """The item's blocks and its title (the first string allowed at the top, if it is short
    enough for a band, else None); draws which body blocks are buttons and which strings get an
    error (a seeded ``CORRUPT_FRACTION`` of those of >= ``MIN_CORRUPT_LEN`` characters; the
    title's line is never missing), and sets each block's ``rendered`` text."""
    blocks = collect_blocks(item)
    title = next((b for b in blocks if b.regions <= {"top"} and len(b.text) <= 60), None)
    for b in blocks:
        if b is not title:
            b.button = len(b.text) <= 24 and len(b.text.split()) <= 3 and rng.random() < 0.3
    eligible = [b for b in blocks if len(b.text) >= MIN_CORRUPT_LEN]
    chosen = set(id(b) for b in rng.sample(eligible, round(CORRUPT_FRACTION * len(eligible))))
    for b in blocks:
        if id(b) in chosen:
            b.corruption = rng.choice(CORRUPTIONS if b is not title else CORRUPTIONS[:3])
            b.rendered = corrupt(b.text, b.corruption, rng)
        else:
            b.rendered = b.text
    return blocks, title


def draw_blocks(
    draw: ImageDraw.ImageDraw,
    title: Block | None,
    body_blocks: list[Block],
    zones: dict[str, tuple[int, int, int, int]],
    size: tuple[int, int],
    band: int,
    body: int,
    colours: tuple,
) -> dict[str, int]:
    """Draw the title band and every block at font size ``body`` pixels; returns each zone's
    first free y (pixels) below its blocks."""
    _, band_col, ink, accent, _ = colours
    # Title band: light text on a dark fill.
    draw.rectangle([0, 0, size[0], band - 8], fill=band_col)
    if title:
        tf, th = dejavu_serif(round(body * 1.6), bold=True), round(body * 1.6 * 1.25)
        for k, line in enumerate(wrap(title.rendered, tf, size[0] - 56) if title.rendered else []):
            draw.text((28, 28 + k * th), line, font=tf, fill=(250, 250, 250))
    fnt, bold = dejavu_serif(body), dejavu_serif(body, bold=True)
    line_h, block_gap = round(body * 1.3), round(body * 0.9)
    cursor = {z: zones[z][1] for z in zones}
    for b in body_blocks:
        x0, y0, x1, y1 = zones[b.zone]
        y = cursor[b.zone]
        cursor[b.zone] += len(b.lines) * line_h + (12 if b.button else 0) + block_gap
        # Draw the corrupted text wrapped like the original (a missing line leaves its space empty).
        lines = wrap(b.rendered, fnt, x1 - x0 - (24 if b.button else 0)) if b.rendered else []
        if b.button:
            tw = max((bold.getlength(s) for s in lines or b.lines), default=0)
            draw.rounded_rectangle([x0, y, x0 + tw + 24, y + len(b.lines) * line_h + 12], radius=8, fill=accent)
            for k, line in enumerate(lines):
                draw.text((x0 + 12, y + 6 + k * line_h), line, font=bold, fill=(255, 255, 255))
        else:
            for k, line in enumerate(lines):
                draw.text((x0, y + k * line_h), line, font=fnt, fill=ink)
    return cursor


def decorate(
    draw: ImageDraw.ImageDraw,
    domain: str,
    zones: dict[str, tuple[int, int, int, int]],
    cursor: dict[str, int],
    deco: tuple[int, int, int],
    rng: random.Random,
) -> None:
    """Domain decorations (bars, table rules, picture frames) in each zone's free space below
    ``cursor`` (zones with less than 60 px left get none)."""
    for z, (x0, y0, x1, y1) in zones.items():
        top, room = cursor[z] + 8, y1 - cursor[z] - 8
        if room < 60:
            continue
        if domain == "chart":
            n = 6
            for k in range(n):
                bh = int(room * (0.3 + 0.7 * rng.random()))
                bx = x0 + k * (x1 - x0) // n
                draw.rectangle([bx + 6, y1 - bh, bx + (x1 - x0) // n - 6, y1], fill=deco)
        elif domain == "scientific_figure":
            for k in range(0, room, 22):
                draw.line([x0, top + k, x1, top + k], fill=deco, width=1)
        elif domain == "poster":
            r = min(room, x1 - x0) // 3
            cx, cy = (x0 + x1) // 2, top + room // 2
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=deco)
        else:
            draw.rectangle([x0, top, x1, y1], outline=deco, width=3)
            draw.line([x0, top, x1, y1], fill=deco, width=2)
            draw.line([x0, y1, x1, top], fill=deco, width=2)


def render_item(item: Item, rng: random.Random) -> tuple[Image.Image, dict]:
    """The start image of one item and its manifest entry.

    Raises:
        ValueError: the item's strings do not fit its page even at 14 px.
    """
    domain = item.meta.get("domain", "slides")
    size = SIZES.get(item.meta.get("aspect_ratio") or "4:3", SIZES["4:3"])
    colours = PALETTES.get(domain, PALETTES["slides"])
    blocks, title = choose_blocks(item, rng)
    body_blocks = [b for b in blocks if b is not title]
    for body in (22, 20, 18, 17, 16, 15, 14):
        placed = layout(body_blocks, title, size, body)
        if placed:
            break
    else:
        raise ValueError(f"item {item.id}: its {len(blocks)} strings do not fit a {size[0]}x{size[1]} page at 14 px")
    zones, band = placed
    img = Image.new("RGB", size, colours[0])
    draw = ImageDraw.Draw(img)
    cursor = draw_blocks(draw, title, body_blocks, zones, size, band, body, colours)
    decorate(draw, domain, zones, cursor, colours[4], rng)
    entry = {
        "id": item.id,
        "domain": domain,
        "image": f"images/{item.id}.png",
        "size": list(size),
        "body_px": body,
        "strings": [
            {
                "text": b.text,
                "regions": sorted(b.regions),
                "corrupted": b.corruption is not None,
                "corruption": b.corruption,
                "rendered": b.rendered,
                "role": "title" if b is title else "button" if b.button else "body",
                "covers": b.covers,
            }
            for b in blocks
        ],
    }
    return img, entry
