"""HTML and CSS pages laid out by headless Chromium, with the truth of every text element taken
from the DOM.

``page_content(kind, rng)`` draws the content (:class:`~.model.Spec` strings plus a style dict:
face, colours, size); ``draw_page(kind, specs, style, browser)`` writes the HTML (every text
element carries its spec id as ``data-eid``), has :class:`~.browser.Browser` lay it out at device
scale 1, and returns the screenshot and the elements with their DOM boxes
(``Range.getBoundingClientRect`` of the element's contents: CSS pixels, equal to image pixels at
scale 1). Kinds: slide, dashboard (KPI cards), landing (nav bar, buttons, badges, footer),
poster, table (header row), menu (sections with headings, items with prices, two columns).
"""

from __future__ import annotations

import html
import random
import re
from typing import Any

from PIL import Image

from documents.engines import vocab as V
from documents.engines.browser import Browser
from documents.engines.model import Element, Spec, outward

PAGE_KINDS = ("slide", "dashboard", "landing", "poster", "table", "menu")
SIZES = {
    "slide": (1024, 576), "dashboard": (1024, 540), "landing": (1024, 600), "poster": (640, 900),
    "table": (900, 560), "menu": (800, 760),
}  # fmt: skip


def _sample(rng: random.Random, pool, k: int) -> list[str]:
    return rng.sample(list(pool), k)


def _slide(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(Spec("title", "title", rng.choice(V.SLIDE_TITLES)))
    specs.append(Spec("subtitle", "subtitle", rng.choice(V.SLIDE_SUBTITLES), can_miss=True))
    for c, heading in enumerate(_sample(rng, V.HEADINGS, 2)):
        specs.append(Spec(f"heading-{c}", "section_heading", heading, {"ordinal": c + 1}))
        items = _sample(rng, V.BULLETS, rng.choice((3, 4)))
        for i, b in enumerate(items):
            specs.append(Spec(f"item-{c}-{i}", "list_item", b, {"heading": heading, "ordinal": i + 1}, can_miss=True))
    specs.append(Spec("footer", "footer", rng.choice(V.FOOTERS), can_miss=True))


def _dashboard(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(
        Spec("title", "title", f"{rng.choice(V.BRANDS)} {rng.choice(('Sales', 'Operations', 'Growth'))} Dashboard")
    )
    period = rng.choice(("Last 30 days", "Week 18, 2026", "Updated hourly"))
    specs.append(Spec("subtitle", "subtitle", period, {"place": "right"}))
    for i, label in enumerate(_sample(rng, V.KPI_LABELS, 4)):
        specs.append(Spec(f"card-label-{i}", "card_label", label, {"ordinal": i + 1}))
        specs.append(Spec(f"icon-card-{i}", "icon", rng.choice(V.ICONS), {"card": label}))
        specs.append(Spec(f"card-value-{i}", "card_value", rng.choice(V.KPI_VALUES[label]), {"card": label}))
        specs.append(Spec(f"card-delta-{i}", "paragraph", rng.choice(V.KPI_DELTAS), {"card": label}, can_miss=True))
    specs.append(Spec("heading-0", "section_heading", rng.choice(("Top regions", "Highlights", "Notes"))))
    heading = specs[-1].text
    for i, b in enumerate(_sample(rng, V.BULLETS, 3)):
        specs.append(Spec(f"item-0-{i}", "list_item", b, {"heading": heading, "ordinal": i + 1}, can_miss=True))
    specs.append(Spec("footer", "source_note", rng.choice(V.SOURCES)))


def _landing(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(Spec("brand", "nav_item", rng.choice(V.BRANDS), {"ordinal": 0}))
    for i, n in enumerate(_sample(rng, V.NAV_ITEMS, 4)):
        specs.append(Spec(f"nav-{i}", "nav_item", n, {"ordinal": i + 1}, can_miss=True))
    specs.append(Spec("badge", "badge", rng.choice(V.BADGES), can_miss=True))
    specs.append(Spec("title", "title", rng.choice(V.HERO_TITLES)))
    specs.append(Spec("paragraph", "paragraph", rng.choice(V.HERO_TEXTS)))
    for i, b in enumerate(_sample(rng, V.BUTTONS, 2)):
        specs.append(Spec(f"button-{i}", "button", b, {"ordinal": i + 1}))
    texts = _sample(rng, V.FEATURE_TEXTS, 3)
    for c, h in enumerate(_sample(rng, ("Fast setup", "Secure by default", "Works offline", "Team sharing",
                                        "Live reports", "Open API"), 3)):  # fmt: skip
        specs.append(Spec(f"icon-{c}", "icon", rng.choice(V.ICONS), {"heading": h}))
        specs.append(Spec(f"heading-{c}", "section_heading", h, {"ordinal": c + 1}))
        specs.append(Spec(f"feat-{c}", "paragraph", texts[c], {"heading": h}, can_miss=True))
    button = next(s.text for s in specs if s.id == "button-0")
    specs.append(Spec("icon-button", "icon", "\u2192", {"button": button}))
    specs.append(Spec("footer", "footer", rng.choice(V.FOOTERS), can_miss=True))


def _poster(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(Spec("badge", "badge", rng.choice(V.BADGES), can_miss=True))
    specs.append(Spec("title", "title", rng.choice(V.POSTER_TITLES)))
    specs.append(Spec("subtitle", "subtitle", rng.choice(V.POSTER_TAGLINES)))
    specs.append(Spec("date", "paragraph", rng.choice(V.DATES), {"label": "date"}))
    specs.append(Spec("venue", "paragraph", rng.choice(V.VENUES), {"label": "venue"}))
    heading = rng.choice(("Program", "Line-up", "Highlights"))
    specs.append(Spec("heading-0", "section_heading", heading))
    for i, b in enumerate(_sample(rng, V.BULLETS, 3)):
        specs.append(Spec(f"item-0-{i}", "list_item", b, {"heading": heading, "ordinal": i + 1}, can_miss=True))
    specs.append(Spec("button-0", "button", rng.choice(V.TICKETS)))
    specs.append(Spec("footer", "footer", rng.choice(V.FOOTERS), can_miss=True))


def _table(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(Spec("title", "title", rng.choice(("Regional results", "Quarterly summary", "Channel report"))))
    specs.append(Spec("subtitle", "subtitle", rng.choice(V.CHART_SUBTITLES), can_miss=True))
    rows = list(rng.choice(V.TABLE_ROWS))[: rng.choice((3, 4))]
    cols = [rng.choice(("Region", "Segment", "Period"))] + _sample(rng, V.TABLE_COLUMNS[1:], 3)
    for j, c in enumerate(cols):
        specs.append(Spec(f"th-{j}", "table_header", c, {"ordinal": j + 1}))
    for i, r in enumerate(rows):
        specs.append(Spec(f"td-{i}-0", "table_cell", r, {"row": r, "column": cols[0], "ordinal": i + 1}))
        for j, c in enumerate(cols[1:], start=1):
            v = {"Revenue": f"${rng.randint(12, 980)}K", "Margin": f"{rng.randint(8, 45)}.{rng.randint(0, 9)}%",
                 "Growth": f"+{rng.randint(1, 30)}%"}.get(c, f"{rng.randint(120, 9800):,}")  # fmt: skip
            specs.append(Spec(f"td-{i}-{j}", "table_cell", v, {"row": r, "column": c}, can_miss=True))
    specs.append(Spec("footer", "source_note", rng.choice(V.SOURCES)))


def _menu(rng: random.Random, specs: list[Spec]) -> None:
    specs.append(Spec("title", "title", rng.choice(V.RESTAURANTS)))
    specs.append(Spec("subtitle", "subtitle", rng.choice(("Lunch & Dinner", "Open daily 8 am - 10 pm", "Menu"))))
    for c, section in enumerate(_sample(rng, V.MENU_SECTIONS, 4)):
        side = "left" if c < 2 else "right"
        specs.append(Spec(f"heading-{c}", "section_heading", section, {"ordinal": c + 1, "column_side": side}))
        for i, item in enumerate(_sample(rng, V.MENU_SECTIONS[section], 3)):
            ctx = {"heading": section, "ordinal": i + 1, "column_side": side}
            specs.append(Spec(f"item-{c}-{i}", "item_name", item, ctx))
            price = f"${rng.randint(3, 28)}.{rng.choice(('00', '50', '95', '25'))}"
            specs.append(Spec(f"price-{c}-{i}", "item_price", price, {**ctx, "item": item}, can_miss=True))
    specs.append(
        Spec(
            "footer", "footer", rng.choice(("Prices include VAT", "Ask us about allergens", "Vegan options available"))
        )
    )


CONTENT = {"slide": _slide, "dashboard": _dashboard, "landing": _landing, "poster": _poster, "table": _table,
           "menu": _menu}  # fmt: skip


def page_content(kind: str, rng: random.Random) -> tuple[list[Spec], dict[str, Any]]:
    """The strings and style of one page of ``kind`` (:data:`PAGE_KINDS`), drawn from ``rng``.

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in CONTENT:
        raise ValueError(f"page kind must be one of {PAGE_KINDS}, got {kind!r}")
    specs: list[Spec] = []
    CONTENT[kind](rng, specs)
    style = {
        "face": rng.choice(V.FACES), "head_face": rng.choice(V.FACES), "band": rng.choice(V.DARK_BANDS),
        "accent": rng.choice(V.ACCENTS), "paper": rng.choice(V.PAPERS), "scale": rng.choice((0.9, 1.0, 1.1)),
    }  # fmt: skip
    return specs, style


# -- HTML ----------------------------------------------------------------------------------------


class _H:
    """Builds the HTML of one page: ``t(eid, tag, cls)`` is the element's tag, or "" when the spec
    is missing (a "missing" defect)."""

    def __init__(self, specs: list[Spec]):
        self.by = {s.id: s for s in specs}

    def t(self, eid: str, tag: str = "div", cls: str = "") -> str:
        s = self.by.get(eid)
        if s is None:
            return ""
        return f'<{tag} class="{cls}" data-eid="{eid}">{html.escape(s.text)}</{tag}>'

    def ids(self, prefix: str) -> list[str]:
        """Ids of the specs that start with ``prefix``, in content order."""
        return [k for k in self.by if k.startswith(prefix)]


def _css(style: dict[str, Any], w: int, h: int) -> str:
    s = style["scale"]
    return f"""
* {{ box-sizing: border-box; margin: 0; padding: 0; }}
html, body {{ width: {w}px; height: {h}px; overflow: hidden; }}
body {{ font-family: "{style["face"]}"; background: {style["paper"]}; color: #1f2328; font-size: {16 * s:.0f}px; }}
h1, h2, h3, .brand {{ font-family: "{style["head_face"]}"; }}
h1 {{ font-size: {36 * s:.0f}px; }} h2 {{ font-size: {24 * s:.0f}px; }} h3 {{ font-size: {19 * s:.0f}px; }}
h1.hero {{ font-size: {44 * s:.0f}px; line-height: 1.15; }} h1.big {{ font-size: {58 * s:.0f}px; line-height: 1.1; }}
.slide li {{ font-size: {21 * s:.0f}px; margin: 14px 0; }}
.band {{ background: {style["band"]}; color: #ffffff; }}
.accent {{ color: {style["accent"]}; }}
.badge {{ display: inline-block; background: {style["accent"]}; color: #fff; border-radius: 999px;
         padding: 4px 14px; font-size: {13 * s:.0f}px; font-weight: bold; }}
.button {{ display: inline-block; background: {style["accent"]}; color: #fff; border-radius: 6px;
          padding: 10px 22px; font-weight: bold; margin-right: 14px; }}
.icon {{ font-family: "DejaVu Sans"; color: {style["accent"]}; font-size: {22 * s:.0f}px; }}
.button.ghost {{ background: transparent; color: {style["accent"]}; border: 2px solid {style["accent"]}; }}
ul {{ list-style: none; }} li {{ margin: 8px 0; }}
li::before {{ content: "\\2022"; color: {style["accent"]}; margin-right: 10px; }}
li > span {{ }}
.foot {{ position: absolute; bottom: 16px; left: 40px; font-size: {12 * s:.0f}px; color: #6a6f76; }}
"""


def _bullets(h: _H, prefix: str) -> str:
    return "<ul>" + "".join(f"<li>{h.t(i, 'span')}</li>" for i in h.ids(prefix)) + "</ul>"


def _html_slide(h: _H, st: dict) -> str:
    cols = "".join(
        f'<div style="flex:1; padding-right:30px">{h.t(f"heading-{c}", "h2", "accent")}'
        f"<div style='margin-top:12px'>{_bullets(h, f'item-{c}-')}</div></div>"
        for c in range(2)
    )
    return (
        f'<div class="band" style="padding:36px 48px 28px">{h.t("title", "h1")}'
        f'<div style="margin-top:10px; opacity:.85">{h.t("subtitle", "p")}</div></div>'
        f'<div class="slide" style="display:flex; padding:34px 48px">{cols}</div>{h.t("footer", "p", "foot")}'
    )


def _html_dashboard(h: _H, st: dict) -> str:
    cards = "".join(
        f'<div style="flex:1; background:#fff; border:1px solid #d9dde3; border-radius:10px; padding:16px 18px;'
        f' margin-right:16px"><div style="display:flex; justify-content:space-between">'
        f"{h.t(f'card-label-{i}', 'span')}{h.t(f'icon-card-{i}', 'span', 'icon')}</div>"
        f'<div style="font-size:30px; font-weight:bold; margin:8px 0">{h.t(f"card-value-{i}", "span")}</div>'
        f'<div style="font-size:13px; color:#5b6470">{h.t(f"card-delta-{i}", "span")}</div></div>'
        for i in range(4)
    )
    return (
        f'<div class="band" style="padding:22px 40px; display:flex; align-items:baseline; gap:24px">'
        f"{h.t('title', 'h1')}{h.t('subtitle', 'span')}</div>"
        f'<div style="display:flex; padding:28px 24px 0 40px">{cards}</div>'
        f'<div style="padding:30px 40px">{h.t("heading-0", "h2")}<div style="margin-top:8px">'
        f"{_bullets(h, 'item-0-')}</div></div>{h.t('footer', 'p', 'foot')}"
    )


def _html_landing(h: _H, st: dict) -> str:
    nav = "".join(h.t(i, "span", "") for i in h.ids("nav-"))
    feats = "".join(
        f'<div style="flex:1; border-top:3px solid {st["accent"]}; padding-top:12px; margin-right:30px">'
        f'<div style="display:flex; align-items:center; gap:10px">{h.t(f"icon-{c}", "span", "icon")}'
        f'{h.t(f"heading-{c}", "h3")}</div><div style="margin-top:6px; color:#5b6470; font-size:14px">'
        f"{h.t(f'feat-{c}', 'p')}</div></div>"
        for c in range(3)
    )
    return (
        f'<div style="display:flex; align-items:center; padding:20px 48px; border-bottom:1px solid #e3e6ea">'
        f'<div style="font-weight:bold; font-size:22px; margin-right:auto">{h.t("brand", "span", "brand")}</div>'
        f'<nav style="display:flex; gap:28px">{nav}</nav></div>'
        f'<div style="padding:40px 48px 20px; max-width:760px">{h.t("badge", "span", "badge")}'
        f'<div style="margin:16px 0 14px">{h.t("title", "h1", "hero")}</div>'
        f'{h.t("paragraph", "p")}<div style="margin-top:26px"><span class="button">{h.t("button-0", "span")}'
        f" {h.t('icon-button', 'span')}</span>"
        f"{h.t('button-1', 'span', 'button ghost')}</div></div>"
        f'<div style="display:flex; padding:20px 48px">{feats}</div>'
        f'<div class="band" style="position:absolute; bottom:0; left:0; right:0; padding:16px 48px;'
        f' font-size:13px">{h.t("footer", "span")}</div>'
    )


def _html_poster(h: _H, st: dict) -> str:
    return (
        f'<div class="band" style="height:100%; padding:56px 48px; text-align:center">'
        f'{h.t("badge", "span", "badge")}<div style="margin:26px 0 12px">{h.t("title", "h1", "big")}</div>'
        f'<div style="font-size:22px; opacity:.9">{h.t("subtitle", "p")}</div>'
        f'<div style="margin:40px auto 0; width:80%; border-top:2px solid {st["accent"]}; padding-top:22px;'
        f' font-size:22px; font-weight:bold">{h.t("date", "p")}</div>'
        f'<div style="font-size:17px; margin-top:8px">{h.t("venue", "p")}</div>'
        f'<div style="margin:40px auto 0; text-align:left; width:80%">{h.t("heading-0", "h2")}'
        f'<div style="margin-top:8px">{_bullets(h, "item-0-")}</div></div>'
        f'<div style="margin-top:36px">{h.t("button-0", "span", "button")}</div>'
        f'<div style="position:absolute; bottom:22px; left:0; right:0; font-size:13px; opacity:.8">'
        f"{h.t('footer', 'span')}</div></div>"
    )


def _html_table(h: _H, st: dict) -> str:
    n_cols = len(h.ids("th-"))
    head = "".join(
        f'<th style="padding:10px 16px; text-align:left">{h.t(f"th-{j}", "span")}</th>' for j in range(n_cols)
    )
    rows = sorted({int(k.split("-")[1]) for k in h.by if k.startswith("td-")})
    body = "".join(
        "<tr>" + "".join(
            f'<td style="padding:10px 16px; border-bottom:1px solid #dde1e6">{h.t(f"td-{i}-{j}", "span")}</td>'
            for j in range(n_cols)
        ) + "</tr>"
        for i in rows
    )  # fmt: skip
    return (
        f'<div style="padding:36px 48px">{h.t("title", "h1")}<div style="color:#5b6470; margin:8px 0 24px">'
        f'{h.t("subtitle", "p")}</div><table style="border-collapse:collapse; width:100%">'
        f'<thead class="band"><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{h.t("footer", "p", "foot")}'
    )


def _html_menu(h: _H, st: dict) -> str:
    def section(c: int) -> str:
        if f"heading-{c}" not in h.by:
            return ""
        items = "".join(
            f'<div style="display:flex; margin:10px 0"><span style="flex:1">{h.t(f"item-{c}-{i}", "span")}</span>'
            f"{h.t(f'price-{c}-{i}', 'span')}</div>"
            for i in range(3)
        )
        head = h.t(f"heading-{c}", "h2", "accent")
        return f'<div style="margin-bottom:34px">{head}<div style="margin-top:8px">{items}</div></div>'

    cols = "".join(f'<div style="flex:1; padding:0 26px">{section(2 * k)}{section(2 * k + 1)}</div>' for k in range(2))
    return (
        f'<div style="text-align:center; padding:48px 0 10px">{h.t("title", "h1")}'
        f'<div style="margin-top:8px; letter-spacing:2px; color:#5b6470">{h.t("subtitle", "p")}</div></div>'
        f'<div style="margin:20px 40px; border-top:2px solid {st["accent"]}; padding-top:30px;'
        f' display:flex">{cols}</div>'
        f'<div style="position:absolute; bottom:26px; left:0; right:0; text-align:center; font-size:13px;'
        f' color:#6a6f76">{h.t("footer", "span")}</div>'
    )


HTML = {"slide": _html_slide, "dashboard": _html_dashboard, "landing": _html_landing, "poster": _html_poster,
        "table": _html_table, "menu": _html_menu}  # fmt: skip

_RGB = re.compile(r"rgba?\((\d+),\s*(\d+),\s*(\d+)")


def page_html(kind: str, specs: list[Spec], style: dict[str, Any]) -> str:
    """The page's HTML document (inline CSS, no external resource)."""
    w, h = SIZES[kind]
    body = HTML[kind](_H(specs), style)
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{_css(style, w, h)}</style></head>'
        f'<body><div style="position:relative; width:{w}px; height:{h}px">{body}</div></body></html>'
    )


def draw_page(
    kind: str, specs: list[Spec], style: dict[str, Any], browser: Browser
) -> tuple[Image.Image, list[Element]]:
    """Lay the page out in ``browser`` and read its elements from the DOM.

    Returns:
        (the RGB screenshot of ``SIZES[kind]``, the elements in the order of ``specs``; a spec
        whose element has no box inside the viewport, or is drawn over, is left out).

    Raises:
        ValueError: an element's rendered text (``innerText``) is not its spec's string.
    """
    w, h = SIZES[kind]
    image, records = browser.render(page_html(kind, specs, style), w, h)
    by_eid = {r["eid"]: r for r in records}
    out = []
    for s in specs:
        r = by_eid.get(s.id)
        if r is None or r.get("covered"):
            continue
        if r["text"] != s.text:  # the truth would not be what the page shows
            raise ValueError(f"page {kind}: element {s.id!r} shows {r['text']!r}, its spec says {s.text!r}")
        box = outward(*r["box"])
        if box[2] <= box[0] or box[3] <= box[1] or box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            continue
        m = _RGB.match(r["color"])
        color = "#{:02x}{:02x}{:02x}".format(*(int(g) for g in m.groups())) if m else ""
        lines = tuple(outward(*q) for q in r["lines"])
        out.append(Element(s.id, s.role, s.text, box, s.context, 0, lines, color))
    return image, out
