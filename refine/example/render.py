"""Render the bundled example's start images: real BizGenEval text items, with injected text errors.

Run ``python -m refine.example.render`` (from the repository root) to rebuild
``refine/example/images/*.png``, ``manifest.json`` and ``bizgeneval_text.jsonl`` from the shared
BizGenEval subset (``--source``; by default ``../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl``
from the repository root, the shared folder beside the checkout). Rendering is
deterministic for a given seed, Pillow version and DejaVu font files; the outputs are committed,
so the refine example never needs this script.

For each item the strings its text checks require (the text expectations produced by
:func:`rewards.importers.load_items`) are laid out as a plausible document: a dark title band with
light text, four content zones (the quadrants below the band) that hold each string in the half
of the image its checks name, a few light-on-dark "buttons", and domain decorations (bars, table
rules, picture frames) in the space left. A seeded half of the strings (those of >= 4 characters)
get the text errors open generators make: a dropped, swapped or substituted character, or the
whole line missing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rewards.common.one_line import one_line
from rewards.importers import load_items
from rewards.rubric import Item
from rewards.text.keyword_rules import layout_strings
from rewards.text.text_match import contains

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SOURCE = REPO.parent / "shared" / "benchmarks" / "bizgeneval" / "bizgeneval_subset.jsonl"
"""The default ``--source``: the shared BizGenEval subset, in the ``shared`` folder beside the checkout."""
ITEM_IDS = ("322", "140", "142", "381", "81", "20", "21", "22")
"""BizGenEval text-dimension items used (chart, 2 posters, figure, slides, 3 webpages)."""
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
CORRUPT_FRACTION = 0.5
MIN_CORRUPT_LEN = 4
KINDS = ("drop", "swap", "substitute", "missing")
# Look-alike substitutions typical of generated text.
LOOKALIKE = dict(zip("eoaciltnmrsuvhb0158ESOCIRBGTPNM", "caoelifmnnzvuhd8763FZQGLPEC1RMN"))
SIZES = {"16:9": (1024, 576), "4:3": (1024, 768), "3:2": (1024, 683), "1:1": (896, 896), "2:3": (704, 1056)}
PALETTES = {  # background, title band, body text, accent (button fill), decoration
    "chart": ((250, 250, 247), (28, 45, 82), (33, 33, 33), (200, 70, 50), (120, 160, 210)),
    "poster": ((243, 236, 220), (110, 30, 40), (40, 30, 30), (30, 90, 80), (225, 190, 150)),
    "scientific_figure": ((255, 255, 255), (40, 40, 40), (20, 20, 20), (60, 80, 140), (170, 170, 170)),
    "slides": ((248, 248, 252), (0, 70, 120), (25, 25, 40), (0, 120, 110), (170, 200, 225)),
    "webpage": ((252, 247, 240), (60, 40, 110), (35, 30, 50), (230, 110, 60), (205, 195, 230)),
}


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


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Serif (Bold) at ``size`` pixels (serif: OCR tells "AI" from "Al").

    Raises:
        FileNotFoundError: the font file is missing (the message names it).
    """
    path = FONT_DIR / ("DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf")
    if not path.exists():
        raise FileNotFoundError(
            f"{path}: DejaVu fonts are needed to re-render the example (apt-get install fonts-dejavu-core)"
        )
    return ImageFont.truetype(str(path), size)


def corrupt(text: str, kind: str, rng: random.Random) -> str:
    """``text`` with one injected error of ``kind`` ("missing" -> ""). Always differs from ``text``."""
    if kind == "missing":
        return ""
    alnum = [i for i, ch in enumerate(text) if ch.isalnum()]
    if kind == "swap":
        pairs = [i for i in alnum if i + 1 < len(text) and text[i + 1].isalnum() and text[i] != text[i + 1]]
        if pairs:
            i = rng.choice(pairs)
            return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
        kind = "substitute"
    if kind == "substitute":
        subs = [i for i in alnum if text[i] in LOOKALIKE]
        i = rng.choice(subs or alnum)
        new = LOOKALIKE.get(text[i], "x" if text[i] != "x" else "y")
        return text[:i] + new + text[i + 1 :]
    i = rng.choice(alnum[1:] or alnum)  # drop: keep the first character so the line is still findable
    return text[:i] + text[i + 1 :]


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


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` pixels."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        if cur and fnt.getlength(trial) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return lines + ([cur] if cur else [])


def layout(blocks: list[Block], title: Block | None, size: tuple[int, int], body: int):
    """Assign blocks to zones and wrap them at font size ``body`` pixels.

    Returns (zone rectangles, title band height) or None when the text does not fit.
    """
    w, h = size
    margin, gap = 28, 56
    title_font = font(round(body * 1.6), bold=True)
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
    fnt = font(body)
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


def _choose(item: Item, rng: random.Random) -> tuple[list[Block], Block | None]:
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
            b.corruption = rng.choice(KINDS if b is not title else KINDS[:3])
            b.rendered = corrupt(b.text, b.corruption, rng)
        else:
            b.rendered = b.text
    return blocks, title


def _draw_text(
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
        tf, th = font(round(body * 1.6), bold=True), round(body * 1.6 * 1.25)
        for k, line in enumerate(wrap(title.rendered, tf, size[0] - 56) if title.rendered else []):
            draw.text((28, 28 + k * th), line, font=tf, fill=(250, 250, 250))
    fnt, bold = font(body), font(body, bold=True)
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


def _decorate(
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
    blocks, title = _choose(item, rng)
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
    cursor = _draw_text(draw, title, body_blocks, zones, size, band, body, colours)
    _decorate(draw, domain, zones, cursor, colours[4], rng)
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


def recorded_source(source: Path) -> str:
    """``source`` as the manifest records it: relative to the repository root when it lies in the
    folder that holds the checkout ("../shared/benchmarks/..."), so that the manifest names no
    machine's absolute path; else as given."""
    path = source.resolve()
    return os.path.relpath(path, REPO) if path.is_relative_to(REPO.parent) else str(source)


def main(argv: list[str] | None = None) -> None:
    """Render the items of ``--ids`` (default ``ITEM_IDS``); writes images/, manifest.json, bizgeneval_text.jsonl."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--source",
        type=Path,
        default=SOURCE,
        help="BizGenEval JSONL to take the items from (default: ../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl"
        " from the repository root)",
    )
    ap.add_argument("--out", type=Path, default=HERE, help="folder to write into")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--ids", default=",".join(ITEM_IDS), help="comma-separated item ids to render (default: the bundled example's)"
    )
    args = ap.parse_args(argv)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()]
    if not ids:
        ap.error("--ids: no item id given")
    if not args.source.is_file():
        print(
            one_line(f"error: --source {args.source}: no such file (pass the path of bizgeneval_subset.jsonl)"),
            file=sys.stderr,
        )
        raise SystemExit(2)
    items, errors = load_items(args.source)
    if errors:
        raise SystemExit(errors[0])
    by_id = {it.id: it for it in items}
    rows = {
        str(json.loads(line)["id"]): json.loads(line) for line in args.source.read_text().splitlines() if line.strip()
    }
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    manifest, out_rows = {"seed": args.seed, "source": recorded_source(args.source), "items": []}, []
    for k, item_id in enumerate(ids):
        if item_id not in by_id:
            raise SystemExit(f"{args.source}: item {item_id} not found")
        img, entry = render_item(by_id[item_id], random.Random(args.seed * 1000 + k))
        img.save(args.out / entry["image"], optimize=True)
        manifest["items"].append(entry)
        out_rows.append({**rows[item_id], "image": entry["image"]})
        n_bad = sum(s["corrupted"] for s in entry["strings"])
        print(f"item {item_id}: {len(entry['strings'])} strings, {n_bad} corrupted, body {entry['body_px']} px")
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    with open(args.out / "bizgeneval_text.jsonl", "w", encoding="utf-8") as f:
        for row in out_rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    licence = args.source.parent / "LICENSE"
    if licence.exists():
        shutil.copyfile(licence, args.out / "LICENSE.bizgeneval")


if __name__ == "__main__":
    main()
