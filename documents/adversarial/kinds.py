"""The four kinds of adversarial page (slide, chart, dashboard, poster), each laid out from the
parts of ``documents.adversarial.parts``; ``DRAW`` and ``SIZES`` by kind."""

from __future__ import annotations

import re

from documents.adversarial.parts import (
    decoy_title,
    draw_bullets,
    draw_cards,
    draw_footer,
    draw_nav,
    draw_table,
    draw_title_band,
    random_date,
    random_number,
)
from documents.adversarial.vocab import (
    AXES,
    BANDS,
    BULLETS,
    CARD_FILLS,
    DECOY_SUFFIX,
    FOOTERS,
    HEADINGS,
    INKS,
    KPI_LABELS,
    KPI_STYLE,
    SERIES,
    SWATCHES,
    TITLES,
    VENUES,
)
from documents.layout import Layout


def draw_slide(lay: Layout, decoy: bool) -> None:
    """Lay out a slide: title band, menu row, subtitle with a date, heading, bullets, two KPI cards, footer."""
    rng = lay.rng
    title = decoy_title(rng, "slide") if decoy else rng.choice(TITLES["slide"])
    band_h = 84
    draw_title_band(lay, title, band_h, rng.random() < 0.6)
    ink = rng.choice(INKS)
    draw_nav(lay, band_h + 24, 40, 4, ink)
    lay.line((30, band_h + 44, lay.w - 30, band_h + 44), fill=(200, 200, 200))
    lay.text("subtitle", "subtitle", f"Board meeting, {random_date(rng)}", (40, band_h + 70), lay.font(17), ink, "lm")
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(HEADINGS)
    lay.text("heading", "heading", heading, (40, band_h + 112), lay.font(22, True), ink, "lm")
    draw_bullets(lay, 40, band_h + 150, 470, rng.sample(BULLETS, 4), 17, ink)
    x0 = 500
    lay.rect((x0 - 14, band_h + 96, lay.w - 30, band_h + 420), outline=(190, 190, 200), width=1)
    for k, label in enumerate(rng.sample(KPI_LABELS, 2)):
        y = band_h + 112 + k * 150
        lay.rect((x0, y, lay.w - 44, y + 120), fill=rng.choice(CARD_FILLS), outline=(150, 160, 175), width=2, radius=8)
        lay.text(f"card-label-{k + 1}", "card_label", label, (x0 + 14, y + 28), lay.font(15), (80, 85, 95), "lm")
        value = random_number(rng, KPI_STYLE.get(label, "count"))
        lay.text(
            f"card-{k + 1}", "card", value, (x0 + 14, y + 76), lay.font(30, True), (20, 25, 35), "lm",
            ordinal=k + 1, container=label,
        )  # fmt: skip
    draw_footer(lay, rng.choice(FOOTERS))


def draw_chart(lay: Layout, decoy: bool) -> None:
    """Lay out a chart: title band, subtitle, grouped bars with ticks and both axis titles, legend,
    a total card, footer."""
    rng = lay.rng
    title = decoy_title(rng, "chart") if decoy else rng.choice(TITLES["chart"])
    band_h = 76
    draw_title_band(lay, title, band_h, rng.random() < 0.5)
    ink = rng.choice(INKS)
    y_title, x_title, ticks = rng.choice(AXES)
    subtitle = f"{title} {rng.choice(DECOY_SUFFIX).lower()} by category" if decoy else f"Updated {random_date(rng)}"
    lay.text("subtitle", "subtitle", subtitle, (lay.w / 2, band_h + 24), lay.font(16), (70, 70, 75), "mm")
    left, top, right, bottom = 120, band_h + 70, 560, lay.h - 120
    lay.line((left, top, left, bottom), fill=(60, 60, 60), width=2)
    lay.line((left, bottom, right, bottom), fill=(60, 60, 60), width=2)
    tf = lay.font(13)
    vmax = rng.choice([50, 100, 200])
    for k in range(5):
        y = bottom - k * (bottom - top) / 4
        lay.line((left - 5, y, left, y), fill=(60, 60, 60))
        if k:  # a light grid line; the axis itself is the bottom rule
            lay.line((left + 1, y, right, y), fill=(225, 225, 225))
        lay.text(f"ytick-{k + 1}", "tick_label", str(vmax * k // 4), (left - 9, y), tf, ink, "rm", ordinal=k + 1)
    series = rng.sample(SERIES, 2)
    colours = rng.sample(SWATCHES, 2)
    group_w = (right - left) / len(ticks)
    for g, tick in enumerate(ticks):
        gx = left + g * group_w + group_w * 0.2
        bw = group_w * 0.3
        for s in range(2):
            value = rng.randint(vmax // 6, vmax * 9 // 10)
            h = value / vmax * (bottom - top)
            lay.rect((gx + s * bw, bottom - h, gx + (s + 1) * bw - 3, bottom - 1), fill=colours[s])
        lay.text(
            f"xtick-{g + 1}", "tick_label", tick, (left + (g + 0.5) * group_w, bottom + 16), tf, ink, "mm",
            ordinal=g + 1,
        )  # fmt: skip
    lay.text("axis-x", "axis_title", x_title, ((left + right) / 2, bottom + 46), lay.font(16), ink, "mm", axis="x")
    lay.text("axis-y", "axis_title", y_title, (left - 62, (top + bottom) / 2), lay.font(16), ink, angle=90, axis="y")
    # the legend: a bordered box at the right, a swatch then the series name per row
    lx = right + 26
    lay.rect((lx, top, lay.w - 24, top + 100), outline=(170, 170, 170), width=1)
    lay.text("legend-title", "heading", "Legend", (lx + 12, top + 18), lay.font(14, True), ink, "lm")
    for s, name in enumerate(series):
        y = top + 48 + s * 28
        lay.rect((lx + 12, y - 8, lx + 28, y + 8), fill=colours[s])
        lay.text(f"legend-{s + 1}", "legend_entry", name, (lx + 36, y), lay.font(14), ink, "lm", ordinal=s + 1)
    total = random_number(rng, "count")
    lay.rect((lx, top + 130, lay.w - 24, top + 220), fill=rng.choice(CARD_FILLS), outline=(150, 160, 175), radius=8)
    lay.text("card-label-1", "card_label", "Total", (lx + 12, top + 152), lay.font(14), (80, 85, 95), "lm")
    value_font = lay.font(24, True)
    ink_value = (20, 25, 35)
    lay.text("card-1", "card", total, (lx + 12, top + 190), value_font, ink_value, "lm", ordinal=1, container="Total")
    draw_footer(lay, rng.choice(FOOTERS))


def draw_dashboard(lay: Layout, decoy: bool) -> None:
    """Lay out a dashboard: title band, menu row, four KPI cards, heading, table, update date, footer."""
    rng = lay.rng
    title = decoy_title(rng, "dashboard") if decoy else rng.choice(TITLES["dashboard"])
    band_h = 80
    draw_title_band(lay, title, band_h, True)
    ink = rng.choice(INKS)
    draw_nav(lay, band_h + 26, 40, 5, ink)
    lay.line((30, band_h + 48, lay.w - 30, band_h + 48), fill=(200, 200, 200))
    draw_cards(lay, band_h + 66, 4, 40, lay.w - 40)
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(["Results by period", "By region"])
    lay.text("heading", "heading", heading, (40, band_h + 196), lay.font(20, True), ink, "lm")
    draw_table(lay, 40, band_h + 220, 620)
    lay.text(
        "subtitle", "date", f"Last updated {random_date(rng)}", (lay.w - 40, band_h + 196), lay.font(14), ink, "rm"
    )
    draw_footer(lay, rng.choice(FOOTERS))


def draw_poster(lay: Layout, decoy: bool) -> None:
    """Lay out a poster: title band, date, venue, heading, bullets, a price band near the bottom, footer."""
    rng = lay.rng
    title = decoy_title(rng, "poster") if decoy else rng.choice(TITLES["poster"])
    band_h = 130
    draw_title_band(lay, title, band_h, rng.random() < 0.7)
    ink = rng.choice(INKS)
    lay.text("date", "date", random_date(rng), (lay.w / 2, band_h + 40), lay.font(24, True), ink, "mm")
    lay.text("venue", "venue", rng.choice(VENUES), (lay.w / 2, band_h + 78), lay.font(18), ink, "mm")
    lay.line((60, band_h + 104, lay.w - 60, band_h + 104), fill=(180, 180, 180), width=2)
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(HEADINGS)
    lay.text("heading", "heading", heading, (50, band_h + 140), lay.font(22, True), ink, "lm")
    draw_bullets(lay, 50, band_h + 184, lay.w - 50, rng.sample(BULLETS, 4), 17, ink)
    # a band near the bottom: light text on a coloured fill
    by = lay.h - 150
    lay.rect((0, by, lay.w, by + 56), fill=rng.choice(BANDS))
    price = f"Tickets from ${rng.randint(12, 45)}"
    lay.text("card-1", "card", price, (lay.w / 2, by + 28), lay.font(20, True), (250, 250, 250), "mm", ordinal=1)
    draw_footer(lay, f"More at www.{re.sub(r'[^a-z]', '', title.lower())}.org")


DRAW = {"slide": draw_slide, "chart": draw_chart, "dashboard": draw_dashboard, "poster": draw_poster}
SIZES = {"slide": (800, 600), "chart": (800, 600), "dashboard": (800, 600), "poster": (600, 800)}
