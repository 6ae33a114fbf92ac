"""Rendering a fidelity document from its seed."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from documents.fidelity.blocks import (
    ask_note_lines,
    draw_badge,
    draw_bars,
    draw_colour_note,
    draw_note_box,
    draw_source,
    draw_table,
)
from documents.fidelity.columns import ask_column_style, ask_column_text, draw_columns
from documents.fidelity.page import EXTRA_SEED, KINDS, Document, Page
from documents.fidelity.top import draw_nav, draw_subtitle, draw_title
from documents.fidelity.vocab import TABLE_LABELS


def make_document(seed: int) -> Document:
    """Render document ``seed`` and its labelled questions (deterministic in ``seed``).

    The elements are drawn, and their questions asked, in this order (each generator's draws
    follow it): title band, navigation bar (webpages), subtitle, two columns, bars (charts), note
    box, colour note, table (slides and charts), badge, source line.
    """
    kind = KINDS[seed % len(KINDS)]
    w, h = {"slide": (800, 600), "chart": (800, 600), "poster": (600, 800), "webpage": (900, 640)}[kind]
    img = Image.new("RGB", (w, h), (250, 250, 247))
    # the added elements draw their choices from ``extra`` (``documents.fidelity`` docstring)
    p = Page(seed, kind, w, h, ImageDraw.Draw(img), random.Random(seed), random.Random(seed + EXTRA_SEED))
    title = draw_title(p)
    y = title.band_h + 14
    if kind == "webpage":
        draw_nav(p, y)
        y += 40
    draw_subtitle(p, y, title)
    y += 40
    cols = draw_columns(p, y)
    ask_column_text(p, cols)
    ask_column_style(p, cols)
    y += 36 + 28 * 3 + 24
    if kind == "chart":
        draw_bars(p, y)
    note, note_drawn = draw_note_box(p, y)
    draw_colour_note(p, y)
    if kind in TABLE_LABELS:  # row: a small table, header plus 2-3 rows
        draw_table(p.draw, kind, p.extra, (50, y + 60) if kind == "slide" else (w // 2 + 20, y + 100), p.ask)
    ask_note_lines(p, note, note_drawn)
    draw_badge(p, title.band_h)
    draw_source(p)
    return Document(f"{kind}-{seed}", kind, img, p.questions)
