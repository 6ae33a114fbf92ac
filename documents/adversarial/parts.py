"""The parts an adversarial page is built of, each laid out on a ``documents.layout.Layout``: the
title band, a menu row, a bulleted list, KPI cards, a bordered table, the footer, and the seeded
numbers, dates and decoy titles they show."""

from __future__ import annotations

import random

from documents.adversarial.vocab import (
    BANDS,
    CARD_FILLS,
    INKS,
    KPI_LABELS,
    KPI_STYLE,
    METRIC_COLUMNS,
    MONTHS,
    NAV,
    ROW_LABELS,
    TITLES,
)
from documents.layout import Layout


def draw_title_band(lay: Layout, title: str, band_h: int, dark: bool) -> None:
    """The title in the top band: light on a dark fill, or dark over a rule."""
    rng = lay.rng
    px = rng.choice([34, 38, 42]) if lay.h > lay.w else rng.choice([30, 34, 38])
    centred = rng.random() < 0.6
    x = lay.w / 2 if centred else 40
    if dark:
        lay.rect((0, 0, lay.w, band_h), fill=rng.choice(BANDS))
        fill = (250, 250, 250)
    else:
        lay.line((0, band_h, lay.w, band_h), fill=(60, 60, 60), width=3)
        fill = rng.choice(INKS)
    lay.text("title", "title", title, (x, band_h / 2), lay.font(px, True), fill, "mm" if centred else "lm")


def draw_nav(lay: Layout, y: float, x0: float, n: int, fill) -> list[str]:
    """A menu row of ``n`` items from ``x0`` at height ``y``, a rule under it; the element ids."""
    items = lay.rng.sample(NAV, n)
    f = lay.font(16)
    x, ids = x0, []
    for k, item in enumerate(items):
        w = lay.length(item, f)
        slot = (int(x) - 2, int(y - 12), int(x + w) + 2, int(y + 12))
        ids.append(lay.text(f"menu-{k + 1}", "menu_item", item, (x, y), f, fill, "lm", ordinal=k + 1, slot=slot))
        x += w + 34
    return ids


def draw_bullets(lay: Layout, x: float, y: float, right: float, items: list[str], px: int, ink) -> list[str]:
    """A bulleted list: a dot, then the item, one per row (pitch 1.9 x size); the element ids."""
    f = lay.font(px)
    pitch = round(px * 1.9)
    ids = []
    for k, item in enumerate(items):
        cy = y + k * pitch
        lay.dot(x + 5, cy, max(3, px // 5), ink)
        slot = (int(x + 18), int(cy - pitch / 2) + 1, int(right), int(cy + pitch / 2) - 1)
        ids.append(lay.text(f"bullet-{k + 1}", "bullet", item, (x + 20, cy), f, ink, "lm", ordinal=k + 1, slot=slot))
    return ids


def random_number(rng: random.Random, style: str) -> str:
    """A seeded KPI value: "money" ("$18,450"), "percent" ("42.7%"), else a count ("18,450")."""
    if style == "money":
        return f"${rng.randint(1200, 98000):,}"
    if style == "percent":
        return f"{rng.randint(11, 98)}.{rng.randint(1, 9)}%"
    return f"{rng.randint(1200, 98000):,}"


def draw_cards(lay: Layout, y: float, n: int, x0: float, x1: float) -> list[str]:
    """A row of ``n`` KPI cards (filled, bordered rectangles): a small label over a large value."""
    rng = lay.rng
    labels = rng.sample(KPI_LABELS, n)
    gap = 18
    cw = (x1 - x0 - gap * (n - 1)) / n
    fill = rng.choice(CARD_FILLS)
    ids = []
    for k, label in enumerate(labels):
        cx0 = x0 + k * (cw + gap)
        lay.rect((cx0, y, cx0 + cw, y + 96), fill=fill, outline=(150, 160, 175), width=2, radius=8)
        lay.text(f"card-label-{k + 1}", "card_label", label, (cx0 + 14, y + 24), lay.font(15), (80, 85, 95), "lm")
        value = random_number(rng, KPI_STYLE.get(label, "count"))
        ids.append(
            lay.text(
                f"card-{k + 1}", "card", value, (cx0 + 14, y + 62), lay.font(28, True), (20, 25, 35), "lm",
                ordinal=k + 1, container=label,
            )
        )  # fmt: skip
    return ids


def draw_table(lay: Layout, x0: float, y0: float, x1: float) -> list[str]:
    """A bordered table: a header row of metric columns and 3-4 labelled rows of numbers."""
    rng = lay.rng
    rows = list(rng.choice(ROW_LABELS))[: rng.choice([3, 4])]
    cols = rng.sample(METRIC_COLUMNS, 3)
    rh, first = 32, 110
    cw = (x1 - x0 - first) / len(cols)
    lay.rect((x0, y0, x1, y0 + rh), fill=(232, 234, 240))
    hf, cf = lay.font(15, True), lay.font(15)
    ink = (30, 30, 35)
    lay.text("table-head-0", "table_header", "", (x0 + 10, y0 + rh / 2), hf, ink, "lm")
    for c, col in enumerate(cols):
        lay.text(f"table-head-{c + 1}", "table_header", col, (x0 + first + c * cw + 10, y0 + rh / 2), hf, ink, "lm")
    ids = []
    for r, row in enumerate(rows):
        top = y0 + rh * (r + 1)
        lay.text(f"row-{row}", "table_header", row, (x0 + 10, top + rh / 2), hf, ink, "lm")
        for c, col in enumerate(cols):
            cx = x0 + first + c * cw
            value = f"{rng.randint(12, 980)}" if col != "Margin" else f"{rng.randint(5, 60)}.{rng.randint(0, 9)}%"
            if col == "Revenue":
                value = f"${rng.randint(1100, 9900):,}"
            slot = (int(cx) + 3, int(top) + 3, int(cx + cw) - 3, int(top + rh) - 3)
            ids.append(
                lay.text(
                    f"cell-{row}-{col}", "table_cell", value, (cx + 10, top + rh / 2), cf, ink, "lm",
                    row=row, column=col, slot=slot,
                )
            )  # fmt: skip
    bottom = y0 + rh * (len(rows) + 1)
    lay.rect((x0, y0, x1, bottom), outline=(120, 125, 135), width=1)
    for r in range(1, len(rows) + 1):
        lay.line((x0, y0 + rh * r, x1, y0 + rh * r), fill=(170, 175, 185))
    for c in range(len(cols)):
        cx = x0 + first + c * cw
        lay.line((cx, y0, cx, bottom), fill=(170, 175, 185))
    return ids


def draw_footer(lay: Layout, text: str) -> str:
    """A rule over the bottom band and a small source note at its left or right."""
    lay.line((30, lay.h - 44, lay.w - 30, lay.h - 44), fill=(170, 170, 170), width=1)
    f = lay.font(13)
    right = lay.rng.random() < 0.4
    xy = (lay.w - 30, lay.h - 24) if right else (30, lay.h - 24)
    return lay.text("footer", "footer", text, xy, f, (95, 95, 95), "rm" if right else "lm")


def random_date(rng: random.Random) -> str:
    """A seeded event date: "July 12-14, 2025" (60%) or "July 12, 2025"."""
    month, year = rng.choice(MONTHS), rng.choice([2024, 2025, 2026])
    day = rng.randint(10, 24)
    if rng.random() < 0.6:
        return f"{month} {day}-{day + rng.randint(1, 4)}, {year}"
    return f"{month} {day}, {year}"


def decoy_title(rng: random.Random, kind: str) -> str:
    """A title of ``kind`` in capitals (a decoy's title), else any title of ``kind``."""
    return rng.choice([t for t in TITLES[kind] if t.isupper()] or TITLES[kind])
