"""The blocks below a fidelity page's columns: bars (charts), the note box, a coloured note, a
table (slides and charts), the badge and the source line, each drawn and asked about."""

from __future__ import annotations

import random

from PIL import ImageDraw

from documents.errors import near_miss
from documents.fidelity.page import Page
from documents.fidelity.vocab import (
    BADGE_FILL,
    BADGES,
    COLOUR_NOTES,
    INKS,
    LIGHT_BADGE,
    NOTE_FACES,
    NOTES,
    SOURCES,
    TABLE_HEADS,
    TABLE_LABELS,
)
from documents.fonts import SANS, SANS_BOLD, SERIF, dejavu, font_file


def draw_table(d: ImageDraw.ImageDraw, kind: str, rng: random.Random, at: tuple[int, int], ask) -> None:
    """Draw a table (header plus 2-3 rows: a label and three values) at ``at`` (pixels) and ask
    two row questions: a true row, or a row asked with another row's values, a near-miss value, or
    its first two values swapped (a row reads left to right)."""
    labels = rng.sample(TABLE_LABELS[kind], rng.choice([2, 3]))
    rows = []
    for label in labels:
        a, b = rng.sample(range(10, 100), 2)
        rows.append((label, str(a), str(b), f"{rng.randint(2, 40)}%"))
    x, y = at
    col_w = (110, 70, 70, 80)
    hf, f = dejavu(SANS_BOLD, 16), dejavu(SANS, 16)
    for r, cells in enumerate([TABLE_HEADS[kind], *rows]):
        cx = x
        for c, cell in enumerate(cells):
            d.text((cx, y + 28 * r), cell, font=hf if r == 0 else f, fill=(25, 25, 25))
            cx += col_w[c]
        if r == 0:
            d.line([x, y + 23, x + sum(col_w) - 20, y + 23], fill=(120, 120, 120), width=1)
    for _ in range(2):
        k = rng.randrange(len(rows))
        label, values = rows[k][0], list(rows[k][1:])
        pick = rng.random()
        if pick < 0.4:
            truth = True
        elif pick < 0.65:  # the values of another row
            values = list(rows[(k + 1) % len(rows)][1:])
            truth = values == list(rows[k][1:])
        elif pick < 0.85:  # the first two values swapped
            values[0], values[1] = values[1], values[0]
            truth = False  # the two values of a row always differ (rng.sample)
        else:  # one value one digit off
            i = rng.randrange(3)
            values[i] = near_miss(values[i], rng) if any(ch.isdigit() for ch in values[i]) else values[i]
            while not any(ch.isdigit() for ch in values[i]) or values[i] == rows[k][1 + i]:
                values[i] = str(rng.randint(10, 99))
            truth = False
        ask(
            "row",
            f'Is there a row labeled exactly "{label}" with values "{values[0]}", "{values[1]}", and "{values[2]}"?',
            truth,
        )


def draw_bars(p: Page, y: int) -> None:
    """Four bars with value labels below ``y`` (charts)."""
    base = y + 150
    for i, val in enumerate(p.rng.sample(range(30, 140), 4)):
        x0 = 60 + i * 80
        p.draw.rectangle([x0, base - val, x0 + 44, base], fill=BADGE_FILL[i % 4])
        p.draw.text((x0 + 22, base - val - 12), str(val), font=dejavu(SANS, 13), fill=(20, 20, 20), anchor="mm")


def draw_note_box(p: Page, y: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """A bordered box with a two-line note (right column); (the note, the note as drawn)."""
    d = p.draw
    note = p.rng.choice(NOTES)
    note_drawn = (p.miss(note[0]), note[1])
    bx0, by0 = p.w // 2 + 20, y + 10
    bw = max(int(d.textlength(t, font=dejavu(SANS, 16))) for t in note_drawn) + 36
    d.rectangle([bx0, by0, bx0 + bw, by0 + 78], outline=(40, 40, 40), width=2)
    d.text((bx0 + 18, by0 + 16), note_drawn[0], font=dejavu(SANS, 16), fill=(20, 20, 20))
    d.text((bx0 + 18, by0 + 44), note_drawn[1], font=dejavu(SANS, 16), fill=(20, 20, 20))
    return note, note_drawn


def draw_colour_note(p: Page, y: int) -> None:
    """A note in a real colour and face, left column (below the bars on charts); asks its colour
    (its own or another) and its weight."""
    extra = p.extra
    note_colour = extra.choice(list(INKS))
    colour_note = extra.choice(COLOUR_NOTES)
    face, note_bold = extra.choice(NOTE_FACES)
    cf = font_file(face, extra.choice([17, 20, 24]))
    at = (50, y + 175 if p.kind == "chart" else y + 14)
    p.draw.text(at, colour_note, font=cf, fill=extra.choice(INKS[note_colour]))
    asked_colour = note_colour if extra.random() < 0.5 else extra.choice([c for c in INKS if c != note_colour])
    p.ask("colour", f'Is the note "{colour_note}" written in {asked_colour}?', asked_colour == note_colour)
    p.ask("weight", f'Is the note "{colour_note}" written in bold?', note_bold)


def ask_note_lines(p: Page, note: tuple[str, str], note_drawn: tuple[str, str]) -> None:
    """The note box's two lines, asked in order or (wrongly) swapped."""
    in_order = p.rng.random() < 0.5
    first, second = note if in_order else (note[1], note[0])
    p.ask(
        "lines",
        f'Does the two-line note inside the box read exactly "{first}" on the first line'
        f' and "{second}" on the second line?',
        in_order and note_drawn == note,
    )


def draw_badge(p: Page, band_h: int) -> None:
    """Badge: light text on a coloured fill (or dark text on a yellow one), in the top-right
    corner below the band, or bottom-left; asks its colour, case and quadrant."""
    rng, d, w, h = p.rng, p.draw, p.w, p.h
    badge = rng.choice(BADGES)
    upper = rng.random() < 0.6 or not badge.isalpha()
    badge_drawn = badge if upper else badge.capitalize()
    bf = dejavu(SANS_BOLD, 20)
    tw = int(d.textlength(badge_drawn, font=bf))
    corner = rng.choice(["top_right", "bottom_left"])
    cx, cy = (w - tw / 2 - 34, band_h + 40) if corner == "top_right" else (tw / 2 + 34, h - 60)
    if p.kind == "webpage" and corner == "top_right":
        cy = h / 2 - 40  # the nav bar holds the top: the badge sits at the right, mid-height
    fill = rng.choice(BADGE_FILL)
    light_badge = p.extra.random() < 0.3
    d.rounded_rectangle(
        [cx - tw / 2 - 14, cy - 18, cx + tw / 2 + 14, cy + 18], radius=10, fill=LIGHT_BADGE if light_badge else fill
    )
    d.text((cx, cy), badge_drawn, font=bf, fill=(30, 30, 30) if light_badge else (255, 255, 255), anchor="mm")
    p.ask("colour", f'Is the badge text "{badge_drawn}" written in white?', not light_badge)
    if badge.isalpha():
        p.ask("case", f'Is the badge word "{badge.lower()}" written in all capital letters?', upper)
    where = {"top_right": cy < h / 2 and cx >= w / 2, "bottom_left": cy >= h / 2 and cx < w / 2}
    asked_corner = rng.choice(["top-right", "bottom-left"])
    p.ask(
        "place",
        f'Is the badge "{badge_drawn}" located in the {asked_corner} quadrant of the image?',
        where[asked_corner.replace("-", "_")],
    )


def draw_source(p: Page) -> None:
    """Source line: small serif text at the bottom-right or bottom-left; asks its place."""
    source = p.rng.choice(SOURCES)
    src_right = p.rng.random() < 0.5
    sf = dejavu(SERIF, 13)
    sw = p.draw.textlength(source, font=sf)
    p.draw.text((p.w - sw - 20 if src_right else 20, p.h - 26), source, font=sf, fill=(80, 80, 80))
    p.ask("place", f'Is the text "{source}" placed at the bottom-right of the slide?', src_right)
