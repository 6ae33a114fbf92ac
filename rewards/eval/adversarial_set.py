"""An adversarial development set: seeded rendered documents, each as a clean page and an erroneous
page, with rubric questions that name their elements and the ground truth of every element.

``make_document(seed)`` renders one document (slide, chart, dashboard or poster, by ``seed % 4``)
with real layout: a title in the top band, headings, bulleted lists with dot bullets, a menu row,
KPI cards, a table, grouped bars with a legend of colour swatches, tick labels, an x-axis title
and a y-axis title rotated 90 degrees (read bottom to top), a footer or source note, borders and
rules; the face (DejaVu or Liberation, sans or serif) and colours are drawn per seed.

The erroneous page differs from the clean one only inside the boxes of its errors' elements
(``Element.box``). Error kinds (``ERROR_KINDS``), each the kind of mistake image generators make:

- number: one digit of a number changed or two adjacent digits swapped ("18,540" for "18,450");
- date: a digit of a date changed or two swapped ("July 21-14, 2025" for "July 12-14, 2025");
- missing_word: a word of a line dropped; swapped: two adjacent words of a line swapped;
- list_item: a bullet's or a menu item's text missing, its slot (``Element.slot``) left empty
  (the bullet dot stays);
- table_cell: a table cell left empty (its slot is the cell);
- decoy: the title with one letter dropped ("BREAKAST") while the title's wanted string also
  stands inside a longer line elsewhere ("BREAKFAST COMBOS", a heading).

Besides errors, every chart's y-axis title is drawn rotated (correct on both pages: a test of
reading), and some questions ask an element for a sibling's text (a string on the page, but not
in that element: "wrong_element", false on both pages).

Question types (``QTYPES``): the error kinds (asked of the erroneous element: true on the clean
page, false on the erroneous one), axis_title (the rotated y-axis title, true on both), exact (an
element without error, true on both), wrong_element (false on both). Phrasing follows the shared
BizGenEval subset ("Does the main title at the top of the slide read exactly ...", "Is the y-axis
labeled exactly '...'?", "In the 'Q2' row, does the 'Revenue' cell read exactly '...'?").

Splits by seed (``split_seeds``): dev = seeds 0..n-1, report = seeds 1000..1000+n-1. Nobody tunes
on report. ``write_rows`` (or ``python -m rewards.eval.adversarial_set --split dev --out DIR``)
writes a split as rubric rows with their images, for ``rubricloop-judge`` and ``rubricloop-refine``;
``benchmarks/adversarial_refine.py`` is the report.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rewards.importers import expectations_of
from rewards.rubric import Check, Criterion, Item, Rubric
from rewards.text.question_compiler import compile_question

FONT_ROOT = Path("/usr/share/fonts/truetype")
FAMILIES = {
    "DejaVu Sans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    "DejaVu Serif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
    "Liberation Sans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf"),
    "Liberation Serif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf"),
}
KINDS = ("slide", "chart", "dashboard", "poster")
ERROR_KINDS = ("number", "date", "missing_word", "swapped", "list_item", "table_cell", "decoy")
QTYPES = (*ERROR_KINDS, "axis_title", "exact", "wrong_element")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
SPLITS = ("dev", "report")
Box = tuple[int, int, int, int]

TITLES = {
    "slide": ["QUARTERLY REVIEW", "BREAKFAST", "PRODUCT ROADMAP", "SALES KICKOFF", "Team Update", "Growth Plan"],
    "chart": ["Monthly Active Users", "Revenue by Region", "Energy Mix", "Orders per Channel", "Survey Results"],
    "dashboard": ["SALES DASHBOARD", "Operations Overview", "Marketing Pulse", "STORE METRICS", "Support Desk"],
    "poster": ["CITY JAZZ NIGHT", "SPRING FESTIVAL", "Science Fair", "OPEN STUDIO", "FOOD MARKET", "Film Week"],
}
DECOY_SUFFIX = ["COMBOS", "HIGHLIGHTS", "DETAILS", "NOTES", "SPECIALS", "AGENDA"]
HEADINGS = ["Key takeaways", "This quarter", "Next steps", "What we learned", "Priorities", "Program highlights"]
BULLETS = [
    "Revenue grew faster than planned",
    "Three new regional offices opened",
    "Customer churn fell for the third month",
    "Hiring plan approved for the autumn",
    "Support tickets resolved within one day",
    "Launch the partner portal in May",
    "Reduce shipping costs across all stores",
    "Expand the loyalty program nationwide",
    "Fresh coffee served all day long",
    "Live music on the main stage",
    "Workshops for young makers",
    "Free entry for students and seniors",
    "Local food trucks every evening",
    "Guided tours of the old harbor",
    "New mobile app released in beta",
    "Onboarding time cut by two weeks",
    "Open data shared with every team",
    "Meet the artists after each show",
]
NAV = ["Home", "Overview", "Results", "Team", "Pricing", "Contact", "About", "Reports", "Events", "Products"]
KPI_LABELS = ["Revenue", "Active users", "Orders", "Sessions", "Conversion", "New leads", "Churn", "Visitors"]
KPI_STYLE = {"Revenue": "money", "Conversion": "percent", "Churn": "percent"}  # the rest are counts
METRIC_COLUMNS = ["Revenue", "Orders", "Margin", "Visits", "Returns"]
ROW_LABELS = [["Q1", "Q2", "Q3", "Q4"], ["North", "South", "East", "West"], ["Online", "Retail", "Partners"]]
FOOTERS = [
    "Source: Internal sales data",
    "Source: Company filings and analyst estimates",
    "Source: Customer survey of regional stores",
    "Data: Regional offices and partner reports",
    "Source: Finance team monthly close",
]
MONTHS = ["January", "March", "April", "May", "June", "July", "September", "October", "November"]
VENUES = [
    "Harbor Convention Center, Hall B",
    "Riverside Park Main Stage",
    "Old Town Library, Second Floor",
    "Central Station Market Hall",
    "North Campus Arts Building",
]
AXES = [
    ("Users (thousands)", "Month", ["Jan", "Feb", "Mar", "Apr"]),
    ("Revenue (USD millions)", "Sales region", ["North", "South", "East", "West"]),
    ("Share of respondents (%)", "Age group", ["18-24", "25-34", "35-44", "45-54"]),
    ("Orders per day", "Quarter of the year", ["Q1", "Q2", "Q3", "Q4"]),
]
SERIES = ["Online store", "Retail partners", "Direct sales", "Mobile app", "Last year", "This year"]
INKS = [(25, 25, 30), (30, 40, 70), (45, 30, 30)]
BANDS = [(28, 52, 96), (20, 90, 80), (110, 30, 50), (40, 40, 48)]
PAPER = [(250, 250, 247), (255, 255, 255), (246, 244, 238)]
SWATCHES = [(52, 120, 200), (235, 140, 40), (70, 160, 90), (190, 60, 70)]
CARD_FILLS = [(234, 240, 250), (240, 246, 238), (250, 242, 232)]


@dataclass(frozen=True)
class Element:
    """One text element of a document and its truth.

    Attributes:
        id: unique within the document ("title", "bullet-2", "cell-Q2-Revenue", ...).
        role: title, subtitle, heading, bullet, menu_item, card, card_label, legend_entry,
            axis_title, tick_label, table_cell, table_header, date, venue, footer.
        box: (x0, y0, x1, y1) pixels, end-exclusive: the union of the text's ink box on the
            clean and the erroneous page (padded by 1 px).
        shown: the text on the erroneous page ("" when missing).
        correct: the text on the clean page (what the rubric wants).
        slot: for a missing item, the box its text belongs in (the rest of the list row, or the
            table cell), pixels; else None.
        angle: 90 for text printed bottom to top (the y-axis title), else 0.
        ordinal: 1-based position among the elements of its role (top to bottom, left to right).
        axis, row, column, container: the y/x axis of an axis title; a table cell's row and
            column label; the card label of a card value.
    """

    id: str
    role: str
    box: Box
    shown: str
    correct: str
    slot: Box | None = None
    angle: int = 0
    ordinal: int | None = None
    axis: str | None = None
    row: str | None = None
    column: str | None = None
    container: str | None = None


@dataclass(frozen=True)
class Error:
    """An error of the erroneous page: its kind (``ERROR_KINDS``), the element it is in, the
    wrong text shown ("" for a missing item) and the correct text."""

    kind: str
    element: str
    shown: str
    correct: str


@dataclass(frozen=True)
class Question:
    """A rubric question about one element, with its truth on each page ("yes"/"no")."""

    id: str
    qtype: str
    question: str
    element: str
    asked: str
    answer_clean: str
    answer_erroneous: str


@dataclass
class Document:
    """A rendered document: both pages, the ground truth of its elements, its errors and questions."""

    id: str
    seed: int
    kind: str
    clean: Image.Image
    erroneous: Image.Image
    elements: list[Element]
    errors: list[Error]
    questions: list[Question]

    def truth(self) -> dict:
        """The ground truth as JSON-ready data: id, seed, kind, elements, errors, questions."""
        return {
            "id": self.id,
            "seed": self.seed,
            "kind": self.kind,
            "elements": [asdict(e) for e in self.elements],
            "errors": [asdict(e) for e in self.errors],
            "questions": [asdict(q) for q in self.questions],
        }

    def element(self, eid: str) -> Element:
        """The element ``eid``; KeyError when there is none."""
        for e in self.elements:
            if e.id == eid:
                return e
        raise KeyError(eid)


def split_seeds(split: str, n: int = 16) -> list[int]:
    """Seeds of a split: dev = 0..n-1, report = 1000..1000+n-1. Raises ValueError for another split."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    return list(range(n)) if split == "dev" else list(range(1000, 1000 + n))


# -- the errors -------------------------------------------------------------------------------


def wrong_number(text: str, rng: random.Random) -> str:
    """``text`` with two adjacent different digits swapped, else one digit changed (never equal)."""
    pairs = [i for i in range(len(text) - 1) if text[i].isdigit() and text[i + 1].isdigit() and text[i] != text[i + 1]]
    if pairs and rng.random() < 0.6:
        i = rng.choice(pairs)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        raise ValueError(f"no digit in {text!r}")
    i = rng.choice(digits)
    return text[:i] + str((int(text[i]) + rng.randint(1, 8)) % 10) + text[i + 1 :]


def wrong_date(text: str, rng: random.Random) -> str:
    """A date with the two digits of its first day swapped ("July 21-14, 2025" for "July 12-14,
    2025"), else a number error (``wrong_number``) in it; never equal to ``text``."""
    day = re.search(r"\b(\d)(\d)(?=[-,])", text)
    if day and day.group(1) != day.group(2) and rng.random() < 0.6:
        return text[: day.start()] + day.group(2) + day.group(1) + text[day.end() :]
    return wrong_number(text, rng)


def missing_word(text: str, rng: random.Random) -> str:
    """``text`` with one word (not the first) dropped; needs >= 3 words."""
    words = text.split(" ")
    k = rng.randrange(1, len(words))
    return " ".join(words[:k] + words[k + 1 :])


def swapped_words(text: str, rng: random.Random) -> str:
    """``text`` with two adjacent different words swapped."""
    words = text.split(" ")
    ks = [k for k in range(len(words) - 1) if words[k] != words[k + 1]]
    k = rng.choice(ks)
    words[k], words[k + 1] = words[k + 1], words[k]
    return " ".join(words)


def dropped_letter(text: str, rng: random.Random) -> str:
    """``text`` with one inner letter of its longest word dropped ("BREAKFAST" -> "BREAKAST")."""
    m = max(re.finditer(r"[A-Za-z]+", text), key=lambda m: len(m.group(0)))
    i = rng.randrange(m.start() + 1, m.end() - 1)
    return text[:i] + text[i + 1 :]


# -- layout -----------------------------------------------------------------------------------


@dataclass
class _Text:
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
class _Layout:
    """A page being laid out: its graphics (drawn on both pages) and its text elements."""

    w: int
    h: int
    paper: tuple[int, int, int]
    family: str
    rng: random.Random
    shapes: list[tuple] = field(default_factory=list)
    texts: dict[str, _Text] = field(default_factory=dict)

    def font(self, px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(FONT_ROOT / FAMILIES[self.family][bold]), px)

    def text(self, eid: str, role: str, text: str, xy, font, fill, anchor: str = "la", **meta) -> str:
        self.texts[eid] = _Text(role, text, xy, font, fill, anchor, meta.pop("angle", 0), meta.pop("slot", None), meta)
        return eid

    def rect(self, box, fill=None, outline=None, width: int = 1, radius: int = 0) -> None:
        self.shapes.append(("rect", tuple(box), fill, outline, width, radius))

    def line(self, xy, fill, width: int = 1) -> None:
        self.shapes.append(("line", tuple(xy), fill, width))

    def dot(self, cx: float, cy: float, r: float, fill) -> None:
        self.shapes.append(("ellipse", (cx - r, cy - r, cx + r, cy + r), fill))

    def length(self, text: str, font) -> float:
        return font.getlength(text)


def _rotated(text: str, font, fill) -> Image.Image:
    """``text`` as an RGBA image turned 90 degrees counter-clockwise (it reads bottom to top)."""
    l, t, r, b = font.getbbox(text)
    im = Image.new("RGBA", (max(1, r - l + 2), max(1, b - t + 2)), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((1 - l, 1 - t), text, font=font, fill=fill)
    return im.rotate(90, expand=True)


def _ink_box(t: _Text, text: str) -> Box | None:
    """The pixel box of ``text`` drawn as ``t`` (None for the empty string)."""
    if not text:
        return None
    if t.angle:
        im = _rotated(text, t.font, t.fill)
        x0, y0 = round(t.xy[0] - im.width / 2), round(t.xy[1] - im.height / 2)
        return (x0, y0, x0 + im.width, y0 + im.height)
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    x0, y0, x1, y1 = d.textbbox(t.xy, text, font=t.font, anchor=t.anchor)
    return (int(x0), int(y0), int(x1) + 1, int(y1) + 1)


def _render(lay: _Layout, shown: dict[str, str]) -> Image.Image:
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
            im = _rotated(text, t.font, t.fill)
            img.paste(im, (round(t.xy[0] - im.width / 2), round(t.xy[1] - im.height / 2)), im)
        else:
            d.text(t.xy, text, font=t.font, fill=t.fill, anchor=t.anchor)
    return img


def _union(a: Box | None, b: Box | None, pad: int = 1) -> Box:
    boxes = [x for x in (a, b) if x is not None]
    return (
        min(x[0] for x in boxes) - pad,
        min(x[1] for x in boxes) - pad,
        max(x[2] for x in boxes) + pad,
        max(x[3] for x in boxes) + pad,
    )


def _title_band(lay: _Layout, title: str, band_h: int, dark: bool) -> None:
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


def _nav(lay: _Layout, y: float, x0: float, n: int, fill) -> list[str]:
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


def _bullets(lay: _Layout, x: float, y: float, right: float, items: list[str], px: int, ink) -> list[str]:
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


def _number(rng: random.Random, style: str) -> str:
    if style == "money":
        return f"${rng.randint(1200, 98000):,}"
    if style == "percent":
        return f"{rng.randint(11, 98)}.{rng.randint(1, 9)}%"
    return f"{rng.randint(1200, 98000):,}"


def _cards(lay: _Layout, y: float, n: int, x0: float, x1: float) -> list[str]:
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
        value = _number(rng, KPI_STYLE.get(label, "count"))
        ids.append(
            lay.text(
                f"card-{k + 1}", "card", value, (cx0 + 14, y + 62), lay.font(28, True), (20, 25, 35), "lm",
                ordinal=k + 1, container=label,
            )
        )  # fmt: skip
    return ids


def _table(lay: _Layout, x0: float, y0: float, x1: float) -> list[str]:
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


def _footer(lay: _Layout, text: str) -> str:
    """A rule over the bottom band and a small source note at its left or right."""
    lay.line((30, lay.h - 44, lay.w - 30, lay.h - 44), fill=(170, 170, 170), width=1)
    f = lay.font(13)
    right = lay.rng.random() < 0.4
    xy = (lay.w - 30, lay.h - 24) if right else (30, lay.h - 24)
    return lay.text("footer", "footer", text, xy, f, (95, 95, 95), "rm" if right else "lm")


def _date(rng: random.Random) -> str:
    month, year = rng.choice(MONTHS), rng.choice([2024, 2025, 2026])
    day = rng.randint(10, 24)
    if rng.random() < 0.6:
        return f"{month} {day}-{day + rng.randint(1, 4)}, {year}"
    return f"{month} {day}, {year}"


def _decoy_title(rng: random.Random, kind: str) -> str:
    return rng.choice([t for t in TITLES[kind] if t.isupper()] or TITLES[kind])


# -- the four kinds ---------------------------------------------------------------------------


def _slide(lay: _Layout, decoy: bool) -> None:
    rng = lay.rng
    title = _decoy_title(rng, "slide") if decoy else rng.choice(TITLES["slide"])
    band_h = 84
    _title_band(lay, title, band_h, rng.random() < 0.6)
    ink = rng.choice(INKS)
    _nav(lay, band_h + 24, 40, 4, ink)
    lay.line((30, band_h + 44, lay.w - 30, band_h + 44), fill=(200, 200, 200))
    lay.text("subtitle", "subtitle", f"Board meeting, {_date(rng)}", (40, band_h + 70), lay.font(17), ink, "lm")
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(HEADINGS)
    lay.text("heading", "heading", heading, (40, band_h + 112), lay.font(22, True), ink, "lm")
    _bullets(lay, 40, band_h + 150, 470, rng.sample(BULLETS, 4), 17, ink)
    x0 = 500
    lay.rect((x0 - 14, band_h + 96, lay.w - 30, band_h + 420), outline=(190, 190, 200), width=1)
    for k, label in enumerate(rng.sample(KPI_LABELS, 2)):
        y = band_h + 112 + k * 150
        lay.rect((x0, y, lay.w - 44, y + 120), fill=rng.choice(CARD_FILLS), outline=(150, 160, 175), width=2, radius=8)
        lay.text(f"card-label-{k + 1}", "card_label", label, (x0 + 14, y + 28), lay.font(15), (80, 85, 95), "lm")
        value = _number(rng, KPI_STYLE.get(label, "count"))
        lay.text(
            f"card-{k + 1}", "card", value, (x0 + 14, y + 76), lay.font(30, True), (20, 25, 35), "lm",
            ordinal=k + 1, container=label,
        )  # fmt: skip
    _footer(lay, rng.choice(FOOTERS))


def _chart(lay: _Layout, decoy: bool) -> None:
    rng = lay.rng
    title = _decoy_title(rng, "chart") if decoy else rng.choice(TITLES["chart"])
    band_h = 76
    _title_band(lay, title, band_h, rng.random() < 0.5)
    ink = rng.choice(INKS)
    y_title, x_title, ticks = rng.choice(AXES)
    subtitle = f"{title} {rng.choice(DECOY_SUFFIX).lower()} by category" if decoy else f"Updated {_date(rng)}"
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
    total = _number(rng, "count")
    lay.rect((lx, top + 130, lay.w - 24, top + 220), fill=rng.choice(CARD_FILLS), outline=(150, 160, 175), radius=8)
    lay.text("card-label-1", "card_label", "Total", (lx + 12, top + 152), lay.font(14), (80, 85, 95), "lm")
    value_font = lay.font(24, True)
    ink_value = (20, 25, 35)
    lay.text("card-1", "card", total, (lx + 12, top + 190), value_font, ink_value, "lm", ordinal=1, container="Total")
    _footer(lay, rng.choice(FOOTERS))


def _dashboard(lay: _Layout, decoy: bool) -> None:
    rng = lay.rng
    title = _decoy_title(rng, "dashboard") if decoy else rng.choice(TITLES["dashboard"])
    band_h = 80
    _title_band(lay, title, band_h, True)
    ink = rng.choice(INKS)
    _nav(lay, band_h + 26, 40, 5, ink)
    lay.line((30, band_h + 48, lay.w - 30, band_h + 48), fill=(200, 200, 200))
    _cards(lay, band_h + 66, 4, 40, lay.w - 40)
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(["Results by period", "By region"])
    lay.text("heading", "heading", heading, (40, band_h + 196), lay.font(20, True), ink, "lm")
    _table(lay, 40, band_h + 220, 620)
    lay.text("subtitle", "date", f"Last updated {_date(rng)}", (lay.w - 40, band_h + 196), lay.font(14), ink, "rm")
    _footer(lay, rng.choice(FOOTERS))


def _poster(lay: _Layout, decoy: bool) -> None:
    rng = lay.rng
    title = _decoy_title(rng, "poster") if decoy else rng.choice(TITLES["poster"])
    band_h = 130
    _title_band(lay, title, band_h, rng.random() < 0.7)
    ink = rng.choice(INKS)
    lay.text("date", "date", _date(rng), (lay.w / 2, band_h + 40), lay.font(24, True), ink, "mm")
    lay.text("venue", "venue", rng.choice(VENUES), (lay.w / 2, band_h + 78), lay.font(18), ink, "mm")
    lay.line((60, band_h + 104, lay.w - 60, band_h + 104), fill=(180, 180, 180), width=2)
    heading = f"{title} {rng.choice(DECOY_SUFFIX)}" if decoy else rng.choice(HEADINGS)
    lay.text("heading", "heading", heading, (50, band_h + 140), lay.font(22, True), ink, "lm")
    _bullets(lay, 50, band_h + 184, lay.w - 50, rng.sample(BULLETS, 4), 17, ink)
    # a band near the bottom: light text on a coloured fill
    by = lay.h - 150
    lay.rect((0, by, lay.w, by + 56), fill=rng.choice(BANDS))
    price = f"Tickets from ${rng.randint(12, 45)}"
    lay.text("card-1", "card", price, (lay.w / 2, by + 28), lay.font(20, True), (250, 250, 250), "mm", ordinal=1)
    _footer(lay, f"More at www.{re.sub(r'[^a-z]', '', title.lower())}.org")


DRAW = {"slide": _slide, "chart": _chart, "dashboard": _dashboard, "poster": _poster}
SIZES = {"slide": (800, 600), "chart": (800, 600), "dashboard": (800, 600), "poster": (600, 800)}

# which error kinds each element role can carry (the generator's plausible mistakes there)
ROLE_ERRORS = {
    "card": ("number",),
    "table_cell": ("table_cell", "number"),
    "bullet": ("missing_word", "swapped", "list_item"),
    "menu_item": ("list_item",),
    "subtitle": ("date", "swapped"),
    "date": ("date",),
    "venue": ("missing_word", "swapped"),
    "footer": ("missing_word", "swapped"),
    "axis_title": ("missing_word", "swapped"),
    "legend_entry": ("swapped",),
}


PRIMARY = {
    "slide": ("list_item", "number", "missing_word", "swapped"),
    "chart": ("number", "missing_word", "swapped", "date"),
    "dashboard": ("table_cell", "number", "list_item", "date"),
    "poster": ("date", "list_item", "missing_word", "swapped"),
}
"""Per kind, the error kind each of four consecutive seeds of that kind is sure to carry."""


def _can_carry(kind: str, t: _Text) -> bool:
    words = t.text.split(" ")
    if kind == "number":
        return sum(c.isdigit() for c in t.text) >= 3
    if kind == "date":
        return bool(re.search(r"\d{1,2}(-\d{1,2})?, \d{4}", t.text))
    if kind == "missing_word":
        return len(words) >= 3 and t.angle == 0
    if kind == "swapped":
        return len(words) >= 2 and len(set(words)) >= 2 and t.angle == 0 and not re.search(r"\d", t.text)
    return True


def _corrupt(kind: str, text: str, rng: random.Random) -> str:
    if kind == "number":
        return wrong_number(text, rng)
    if kind == "date":
        m = re.search(r"[A-Z][a-z]+ \d.*\d{4}", text)
        return text[: m.start()] + wrong_date(m.group(0), rng) + text[m.end() :]
    if kind == "missing_word":
        return missing_word(text, rng)
    if kind == "swapped":
        return swapped_words(text, rng)
    if kind == "decoy":
        return dropped_letter(text, rng)
    return ""  # list_item, table_cell: the text is missing


def _choose_errors(lay: _Layout, decoy: bool, primary: str, rng: random.Random) -> dict[str, tuple[str, str]]:
    """eid -> (kind, shown): an error of kind ``primary``, then 1-2 of other kinds, on different
    elements (and the decoy title's dropped letter when ``decoy``)."""
    options = [
        (kind, eid)
        for eid, t in lay.texts.items()
        for kind in ROLE_ERRORS.get(t.role, ())
        if _can_carry(kind, t) and not (t.role == "axis_title" and t.meta.get("axis") == "y")
    ]
    chosen: dict[str, tuple[str, str]] = {}
    if decoy:
        chosen["title"] = ("decoy", _corrupt("decoy", lay.texts["title"].text, rng))
    kinds = sorted({k for k, _ in options} - {primary})
    rng.shuffle(kinds)
    for kind in [primary, *kinds[: rng.choice([1, 2])]]:
        free = [eid for k, eid in options if k == kind and eid not in chosen]
        if free:
            eid = rng.choice(free)
            chosen[eid] = (kind, _corrupt(kind, lay.texts[eid].text, rng))
    return chosen


# -- questions --------------------------------------------------------------------------------


def phrase(e: Element, kind: str, text: str, rng: random.Random, named: bool = False) -> str:
    """A question asking whether element ``e`` reads exactly ``text``, in the benchmarks' phrasing
    (the shared BizGenEval subset), naming the element by its role, position or labels;
    ``named``: never a phrasing that names no single element ("Does the legend include ...")."""
    page = {"slide": "slide", "chart": "chart", "dashboard": "dashboard", "poster": "poster"}[kind]
    q = rng.choice
    if e.role == "title":
        return q(
            [
                f'Does the main title at the top of the {page} read exactly "{text}"?',
                f'Is the large title in the top band exactly "{text}"?',
            ]
        )
    if e.role == "subtitle":
        return f'Does the subtitle directly beneath the title read exactly "{text}"?'
    if e.role == "heading":
        return f'Does the section heading read exactly "{text}"?'
    if e.role == "bullet":
        return q(
            [
                f'Does the {ORDINALS[e.ordinal - 1]} bullet read exactly "{text}"?',
                f'In the bulleted list, does the {ORDINALS[e.ordinal - 1]} bullet point read exactly "{text}"?',
            ]
        )
    if e.role == "menu_item":
        return f'Is the {ORDINALS[e.ordinal - 1]} item of the navigation menu from the left exactly "{text}"?'
    if e.role == "card":
        if e.container and kind != "poster" and rng.random() < 0.4:
            return f"Does the '{e.container}' card show exactly '{text}'?"
        if kind == "poster":
            return f'Does the text in the colored band near the bottom read exactly "{text}"?'
        return f"Does the {ORDINALS[e.ordinal - 1]} KPI card from the left show exactly '{text}'?"
    if e.role == "legend_entry":
        if named or rng.random() < 0.5:
            return f'Is the {ORDINALS[e.ordinal - 1]} legend entry labeled exactly "{text}"?'
        return f'Does the legend include an entry labeled exactly "{text}"?'
    if e.role == "axis_title":
        return f"Is the {e.axis}-axis labeled exactly '{text}'?"
    if e.role == "table_cell":
        return f"In the '{e.row}' row, does the '{e.column}' cell read exactly '{text}'?"
    if e.role == "date":
        return q([f'Does the date line read exactly "{text}"?', f'Is the event date shown exactly as "{text}"?'])
    if e.role == "venue":
        return f'Does the venue line below the date read exactly "{text}"?'
    if e.role == "footer":
        return q([f"Does the footer source note read exactly '{text}'?", f'Is the footer text exactly "{text}"?'])
    raise ValueError(f"no phrasing for role {e.role!r}")


ASKABLE = {"title", "subtitle", "heading", "bullet", "menu_item", "card", "legend_entry", "axis_title"}
ASKABLE |= {"table_cell", "date", "venue", "footer"}


def _sibling_text(doc_elements: list[Element], e: Element) -> str | None:
    """The text of another element of ``e``'s role (a string on the page, in another element)."""
    others = [
        o.correct
        for o in doc_elements
        if o.role == e.role and o.id != e.id and o.correct and o.correct != e.correct and o.correct == o.shown
    ]
    return others[0] if others else None


def _questions(kind: str, elements: list[Element], errors: list[Error], rng: random.Random) -> list[Question]:
    by_id = {e.id: e for e in elements}
    out: list[Question] = []

    def ask(qtype: str, e: Element, text: str, clean: bool, erroneous: bool) -> None:
        qid = f"q{len(out) + 1}"
        yn = ("no", "yes")
        named = qtype == "wrong_element"
        out.append(Question(qid, qtype, phrase(e, kind, text, rng, named), e.id, text, yn[clean], yn[erroneous]))

    for err in errors:
        ask(err.kind, by_id[err.element], err.correct, True, False)
    if "axis-y" in by_id:
        e = by_id["axis-y"]
        ask("axis_title", e, e.correct, True, True)
    wrong = {err.element for err in errors}
    fine = [e for e in elements if e.role in ASKABLE and e.id not in wrong and e.id != "axis-y" and e.correct]
    for e in rng.sample(fine, min(2, len(fine))):
        ask("exact", e, e.correct, True, True)
    tries = [e for e in fine if _sibling_text(elements, e)]
    for e in rng.sample(tries, min(1, len(tries))):
        ask("wrong_element", e, _sibling_text(elements, e), False, False)
    return out


def make_document(seed: int) -> Document:
    """Render document ``seed``: both pages, its elements' truth, its errors and questions
    (deterministic in ``seed``; the kind is ``KINDS[seed % 4]``)."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    w, h = SIZES[kind]
    lay = _Layout(w, h, rng.choice(PAPER), rng.choice(list(FAMILIES)), rng)
    decoy = rng.random() < 0.35
    DRAW[kind](lay, decoy)
    lay.texts = {k: t for k, t in lay.texts.items() if t.text}  # an empty corner header is no element
    err_rng = random.Random(seed * 7919 + 17)
    # every 16 consecutive seeds give each kind its four primary error kinds (PRIMARY)
    chosen = _choose_errors(lay, decoy, PRIMARY[kind][(seed // 4) % 4], err_rng)
    shown = {eid: s for eid, (_, s) in chosen.items()}
    clean, erroneous = _render(lay, {}), _render(lay, shown)
    elements = []
    for eid, t in lay.texts.items():
        s = shown.get(eid, t.text)
        elements.append(
            Element(
                eid, t.role, _union(_ink_box(t, t.text), _ink_box(t, s)), s, t.text,
                t.slot if not s else None, t.angle, t.meta.get("ordinal"), t.meta.get("axis"),
                t.meta.get("row"), t.meta.get("column"), t.meta.get("container"),
            )
        )  # fmt: skip
    errors = [Error(kind_, eid, shown[eid], lay.texts[eid].text) for eid, (kind_, _) in chosen.items()]
    questions = _questions(kind, elements, errors, err_rng)
    return Document(f"{kind}-{seed}", seed, kind, clean, erroneous, elements, errors, questions)


def make_checks(doc: Document, rubric_only: bool = True) -> list[Check]:
    """The document's questions as checks, compiled as the importers compile them (``spec`` and
    ``expects``); ``rubric_only``: only the questions true on the clean page (the rubric a
    refine run fixes the erroneous page towards)."""
    checks = []
    for q in doc.questions:
        if rubric_only and q.answer_clean != "yes":
            continue
        spec = compile_question(q.question)
        checks.append(Check(q.id, q.question, tag=q.qtype, expects=expectations_of(spec), spec=spec))
    return checks


def make_item(doc: Document, image: Path) -> Item:
    """A refine item of the erroneous page saved at ``image``: the rubric of ``make_checks``."""
    return Item(doc.id, f"a {doc.kind}", Rubric((Criterion("text", tuple(make_checks(doc))),)), image=image)


def write_rows(split: str, n: int, folder: Path, page: str = "erroneous") -> Path:
    """Write the split's documents as the project's own rubric rows (``rewards.importers``
    format), for ``rubricloop-judge`` and ``rubricloop-refine``: per document
    ``<id>_clean.png``, ``<id>_erroneous.png`` and ``<id>_truth.json`` (``Document.truth``), and
    ``rows.jsonl`` whose rows name the ``page`` image ("erroneous" or "clean") and carry the
    rubric of ``make_checks`` (the questions true on the clean page; tag = question type).
    Returns the path of ``rows.jsonl``. Raises ValueError for another split or page."""
    if page not in ("erroneous", "clean"):
        raise ValueError(f"page must be 'erroneous' or 'clean', got {page!r}")
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for seed in split_seeds(split, n):
        doc = make_document(seed)
        doc.clean.save(folder / f"{doc.id}_clean.png")
        doc.erroneous.save(folder / f"{doc.id}_erroneous.png")
        (folder / f"{doc.id}_truth.json").write_text(json.dumps(doc.truth(), indent=1))
        checks = [{"id": c.id, "question": c.question, "tag": c.tag} for c in make_checks(doc)]
        rows.append(
            {
                "id": doc.id,
                "prompt": f"a {doc.kind}",
                "image": f"{doc.id}_{page}.png",
                "criteria": [{"name": "text", "checks": checks}],
                "meta": {"split": split, "seed": seed, "kind": doc.kind},
            }
        )
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Write the adversarial set's rows and images (write_rows).")
    ap.add_argument("--split", choices=SPLITS, default="dev")
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--page", choices=("erroneous", "clean"), default="erroneous")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    print(write_rows(args.split, args.n, args.out, args.page))
