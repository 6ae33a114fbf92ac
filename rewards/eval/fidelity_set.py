"""A labelled fidelity set for judges: rendered documents with rubric questions and true answers.

``make_document(seed)`` renders one document (slide, chart, poster or webpage, by ``seed % 4``)
with real layout: a dark title band with light text, a subtitle, two columns under headings,
a coloured badge with light text, a bordered note box, small serif source text, and, by kind,
bars with a legend or a navigation bar. Some rendered strings are near misses of what the
questions ask ("Revenue" vs "Revenues", one digit changed, case flipped, a dropped letter), some
elements move (title left instead of centred, source in the other corner), and every question's
true answer follows from what was drawn, by the rules written next to each template (never by a
judge). Question phrasing follows the shared BizGenEval subset ("read exactly", "from top to
bottom", "directly below", "placed at the bottom-right of the slide", "appear exactly once").

Question types (``Question.qtype``): exact, list, lines, order, count, case, place, relation,
context (a quote naming the element: an item of the named heading's column, or of the other
column), weight (bold asked of bold headings, titles and items, and of regular ones), colour (white asked
of the title band's and badges' text and of dark body text; a note drawn in red, blue, green,
orange, purple or gray asked in its colour or another), between (the navigation item between
two others, webpages), row (a table row's label and values, slides and charts: true rows, values
of another row, a near-miss value), style (text plus a style only a VLM can see, an underline:
code may only say "no").

The elements added for weight, colour, between, row and style draw their choices from a second
generator (``random.Random(seed + EXTRA_SEED)``), and the context question from a third
(``seed + 2 * EXTRA_SEED``), so every other element and question is the one the seed drew before
they were added.

Splits by seed: dev = seeds 0..n-1, test = seeds 1000..1000+n-1 (``split_seeds``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rewards.eval.fidelity_vocab import (
    BADGE_FILL,
    BADGES,
    COLOUR_NOTES,
    COUNT_WORDS,
    DARK,
    INKS,
    LIGHT_BADGE,
    NAV,
    NOTE_FACES,
    NOTES,
    SOURCES,
    TABLE_HEADS,
    TABLE_LABELS,
    VOCAB,
)

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SANS, SANS_BOLD, SERIF, SERIF_BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"
KINDS = ("slide", "chart", "poster", "webpage")
QTYPES = (
    "exact",
    "list",
    "lines",
    "order",
    "count",
    "case",
    "place",
    "relation",
    "context",
    "weight",
    "colour",
    "between",
    "row",
    "style",
)
EXTRA_SEED = 7_919_000


@dataclass(frozen=True)
class Question:
    """One labelled rubric question: ``answer`` is the truth ("yes"/"no") for the drawn image."""

    id: str
    qtype: str
    question: str
    answer: str


@dataclass
class Document:
    """A rendered document with its questions."""

    id: str
    kind: str
    image: Image.Image
    questions: list[Question]


def split_seeds(split: str, n: int) -> list[int]:
    """Seeds of a split: dev = 0..n-1, test = 1000..1000+n-1."""
    if split not in ("dev", "test"):
        raise ValueError(f"split must be 'dev' or 'test', got {split!r}")
    return list(range(n)) if split == "dev" else list(range(1000, 1000 + n))


def near_miss(text: str, rng: random.Random) -> str:
    """A string one typical generator error away from ``text``: a plural "s", a changed digit,
    one word's case flipped, or a dropped letter (always different from ``text``)."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    words = [m for m in re.finditer(r"[A-Za-z]{3,}", text)]
    kinds = ["plural"] + (["digit"] if digits else []) + (["case"] if words else []) + (["drop"] if words else [])
    kind = rng.choice(kinds)
    if kind == "digit":
        i = rng.choice(digits)
        return text[:i] + str((int(text[i]) + rng.randint(1, 8)) % 10) + text[i + 1 :]
    if kind == "case":
        m = rng.choice(words)
        w = m.group(0)
        flipped = w.lower() if w[0].isupper() else w.capitalize()
        flipped = w.upper() if flipped == w else flipped
        return text[: m.start()] + flipped + text[m.end() :]
    if kind == "drop":
        m = rng.choice(words)
        i = rng.randrange(m.start() + 1, m.end())
        return text[:i] + text[i + 1 :]
    last = list(re.finditer(r"[A-Za-z]+", text))
    if not last:
        return text + "s"
    m = last[-1]
    return text[: m.end()] + "s" + text[m.end() :]


def _font(name: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / name), px)


def _word_count(word: str, texts: list[str]) -> int:
    return sum(len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", t)) for t in texts)


def _table(d: ImageDraw.ImageDraw, kind: str, rng: random.Random, at: tuple[int, int], ask) -> None:
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
    hf, f = _font(SANS_BOLD, 16), _font(SANS, 16)
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


@dataclass
class _Page:
    """A document being drawn: its kind and size (pixels), the drawing, the three generators
    (module docstring) and the questions asked so far."""

    seed: int
    kind: str
    w: int
    h: int
    draw: ImageDraw.ImageDraw
    rng: random.Random
    extra: random.Random
    questions: list[Question] = field(default_factory=list)

    def ask(self, qtype: str, question: str, truth: bool) -> None:
        self.questions.append(
            Question(f"{self.seed}-{len(self.questions) + 1}", qtype, question, "yes" if truth else "no")
        )

    def miss(self, text: str) -> str:
        """``text``, or (35% of draws) a near miss of it."""
        return near_miss(text, self.rng) if self.rng.random() < 0.35 else text


@dataclass(frozen=True)
class _Title:
    text: str
    drawn: str
    centred: bool
    band_h: int


def _draw_title(p: _Page) -> _Title:
    """Title band: light text on a dark fill, centred or (sometimes) left-aligned; asks place,
    exact and colour of the title."""
    rng, d, w = p.rng, p.draw, p.w
    title = rng.choice(VOCAB[p.kind]["titles"])
    title_drawn = p.miss(title)
    centred = rng.random() < 0.75
    band_h = 86 if p.kind != "poster" else 110
    d.rectangle([0, 0, w, band_h], fill=rng.choice(DARK))
    tf = _font(SANS_BOLD, 30 if p.kind != "poster" else 34)
    if centred:
        d.text((w / 2, band_h / 2), title_drawn, font=tf, fill=(250, 250, 250), anchor="mm")
    else:
        d.text((24, band_h / 2), title_drawn, font=tf, fill=(250, 250, 250), anchor="lm")
    # exact + place: a centred title is in very_top_center; a left one is not
    p.ask(
        "place",
        f'Does the main title located at the very top-center of the image read exactly "{title}"?',
        title_drawn == title and centred,
    )
    p.ask("exact", f'Is the title text exactly "{title}"?', title_drawn == title)
    # colour + weight: the title is drawn white and bold
    p.ask("colour", f'Is the title "{title}" in white text?', title_drawn == title)
    return _Title(title, title_drawn, centred, band_h)


def _draw_nav(p: _Page, y: int) -> None:
    """A navigation bar at ``y`` (webpages), read left to right; asks its order and the items
    between two others."""
    d = p.draw
    nav = p.rng.sample(NAV, 4)
    x = 40
    for item in nav:
        d.text((x, y), item, font=_font(SANS, 18), fill=(30, 30, 30))
        x += int(d.textlength(item, font=_font(SANS, 18))) + 48
    asked = list(nav) if p.rng.random() < 0.5 else [nav[1], nav[0], nav[2], nav[3]]
    p.ask(
        "order",
        "Does the navigation menu read exactly, from left to right: " + ", ".join(f'"{t}"' for t in asked) + "?",
        asked == nav,
    )
    # between: each inner item asked as drawn, and a wrong item asked there (one drawn elsewhere
    # or not drawn, never a neighbour: that is its own anchor), in random order
    for i in (1, 2):
        wrong = p.extra.choice([t for t in NAV if t not in nav[i - 1 : i + 2]])
        for asked_item in p.extra.sample([nav[i], wrong], 2):
            phrase = p.extra.choice(
                [
                    'Is the navigation item located between "{a}" and "{b}" the single word "{c}"?',
                    'Does the menu item between "{a}" and "{b}" read exactly "{c}"?',
                ]
            )
            p.ask("between", phrase.format(a=nav[i - 1], b=nav[i + 1], c=asked_item), asked_item == nav[i])


def _draw_subtitle(p: _Page, y: int, title: _Title) -> None:
    """Subtitle: small serif text, aligned as the title; asks it exact, and a weight question
    (the bold title, or the regular subtitle)."""
    rng, w = p.rng, p.w
    subtitle = f"Prepared {rng.choice(['March', 'June', 'October'])} {rng.randint(2021, 2025)} for the board"
    sub_drawn = p.miss(subtitle)
    p.draw.text(
        (40 if not title.centred else w / 2, y + 8),
        sub_drawn,
        font=_font(SERIF, 15),
        fill=(60, 60, 60),
        anchor="lm" if not title.centred else "mm",
    )
    p.ask("exact", f'Is the subtitle text exactly "{subtitle}"?', sub_drawn == subtitle)
    if p.extra.random() < 0.5:  # weight: the bold title, or the regular subtitle
        p.ask("weight", f'Is the title "{title.text}" written in bold?', title.drawn == title.text)
    else:
        p.ask("weight", f'Is the subtitle "{subtitle}" written in bold?', False)


@dataclass(frozen=True)
class _Columns:
    """The two columns as asked (``items``, 3 per column) and as drawn (``drawn``)."""

    h1: str
    h2: str
    items: list[str]
    drawn: list[str]
    count_word: str
    bold_item: int | None
    underlined: bool


def _draw_columns(p: _Page, y: int) -> _Columns:
    """Two columns of three items under bold headings at ``y``; some items carry the count word,
    one may be drawn bold, the left heading may be underlined."""
    rng, extra, d, w = p.rng, p.extra, p.draw, p.w
    h1, h2 = rng.choice(VOCAB[p.kind]["heads"])
    items = rng.sample(VOCAB[p.kind]["items"], 6)
    count_word = rng.choice(COUNT_WORDS)
    n_count = rng.choice([1, 2])
    for k in rng.sample(range(6), n_count):
        items[k] = f"{count_word} {items[k]}"
    drawn = [p.miss(t) for t in items]
    col_x = (50, w // 2 + 20)
    serif_items = rng.random() < 0.5
    hf, itf = _font(SANS_BOLD, 22), _font(SERIF if serif_items else SANS, 17)
    bold_item = extra.randrange(6) if extra.random() < 0.6 else None  # one item drawn bold
    itf_bold = _font(SERIF_BOLD if serif_items else SANS_BOLD, 17)
    underlined = extra.random() < 0.5
    d.text((col_x[0], y), h1, font=hf, fill=(20, 20, 20))
    d.text((col_x[1], y), h2, font=hf, fill=(20, 20, 20))
    if underlined:  # style: an underline under the left heading
        d.line([col_x[0], y + 27, col_x[0] + d.textlength(h1, font=hf), y + 27], fill=(20, 20, 20), width=2)
    for col in range(2):
        for k in range(3):
            d.text(
                (col_x[col], y + 36 + 28 * k),
                drawn[3 * col + k],
                font=itf_bold if 3 * col + k == bold_item else itf,
                fill=(35, 35, 35),
            )
    return _Columns(h1, h2, items, drawn, count_word, bold_item, underlined)


def _ask_column_text(p: _Page, cols: _Columns) -> None:
    """The columns' text questions: relation, context, order, list, exact and count."""
    rng, h1, h2, items, drawn = p.rng, cols.h1, cols.h2, cols.items, cols.drawn
    left, right = items[:3], items[3:]
    left_drawn, right_drawn = drawn[:3], drawn[3:]
    # relation: the first item directly below the left heading is left_drawn[0]
    pick = rng.random()
    if pick < 0.5:
        p.ask(
            "relation",
            f'Does the first item directly below the "{h1}" heading read exactly "{left[0]}"?',
            left_drawn[0] == left[0],
        )
    else:  # an item of the other column is not directly below this heading
        p.ask("relation", f'Does the first item directly below the "{h1}" heading read exactly "{right[0]}"?', False)
    if rng.random() < 0.5:
        p.ask("relation", f'Is the heading "{h2}" to the right of "{h1}"?', True)
    else:
        p.ask("relation", f'Is the heading "{h1}" to the right of "{h2}"?', False)
    # context: a quote naming the element ("the item under the heading with the word ..."): the
    # second item of that column, or (asked wrongly) the other column's
    ctx = random.Random(p.seed + 2 * EXTRA_SEED)
    k, own = ctx.randrange(3), ctx.random() < 0.5
    asked = left[k] if own else right[k]
    p.ask(
        "context",
        f'Does the item under the heading with the word "{h1}" read exactly "{asked}"?',
        own and left_drawn[k] == left[k],
    )
    # order: the right column from top to bottom, sometimes asked with two items swapped
    asked = list(right) if rng.random() < 0.5 else [right[1], right[0], right[2]]
    p.ask(
        "order",
        f'Under the "{h2}" heading, do the items read exactly, from top to bottom: '
        + ", ".join(f'"{t}"' for t in asked)
        + "?",
        asked == right_drawn,
    )
    # list: the left column's items, all present
    p.ask(
        "list",
        "Does the left column include the items " + ", ".join(f'"{t}"' for t in left[:2]) + f', and "{left[2]}"?',
        left_drawn == left,
    )
    # exact near misses on single items
    k = rng.randrange(6)
    p.ask("exact", f'Is there an item that reads exactly "{items[k]}"?', items[k] in drawn)
    # count: how often a word was drawn (as a whole word)
    n_drawn = _word_count(cols.count_word, drawn)
    asked_n = rng.choice([1, 2])
    p.ask(
        "count",
        f'Does the word "{cols.count_word}" appear exactly {"once" if asked_n == 1 else "twice"}?',
        n_drawn == asked_n,
    )


def _ask_column_style(p: _Page, cols: _Columns) -> None:
    """The columns' style questions: weight of a heading and of an item, colour of an item, and
    the underline (a style only a VLM can see)."""
    rng, extra, h1, h2, items, drawn = p.rng, p.extra, cols.h1, cols.h2, cols.items, cols.drawn
    # weight: the headings are drawn bold, so the truth is the string's
    asked = h2 if rng.random() < 0.5 else near_miss(h2, rng)
    p.ask("weight", f'Is there a bold heading reading exactly "{asked}"?', asked == h2)
    # weight: an item asked bold (the one drawn bold, or a regular one)
    j = cols.bold_item if cols.bold_item is not None and extra.random() < 0.5 else extra.randrange(6)
    p.ask("weight", f'Is the item "{items[j]}" written in bold?', j == cols.bold_item and drawn[j] == items[j])
    # colour: dark body text asked as white
    j = extra.randrange(6)
    p.ask("colour", f'Is the item "{items[j]}" written in white?', False)
    # style (VLM-only): the underline; code may only say "no" (when the string is not read)
    asked = h1 if extra.random() < 0.6 else near_miss(h1, extra)
    p.ask("style", f'Is the heading "{asked}" underlined?', cols.underlined and asked == h1)


def _draw_bars(p: _Page, y: int) -> None:
    """Four bars with value labels below ``y`` (charts)."""
    base = y + 150
    for i, val in enumerate(p.rng.sample(range(30, 140), 4)):
        x0 = 60 + i * 80
        p.draw.rectangle([x0, base - val, x0 + 44, base], fill=BADGE_FILL[i % 4])
        p.draw.text((x0 + 22, base - val - 12), str(val), font=_font(SANS, 13), fill=(20, 20, 20), anchor="mm")


def _draw_note_box(p: _Page, y: int) -> tuple[tuple[str, str], tuple[str, str]]:
    """A bordered box with a two-line note (right column); (the note, the note as drawn)."""
    d = p.draw
    note = p.rng.choice(NOTES)
    note_drawn = (p.miss(note[0]), note[1])
    bx0, by0 = p.w // 2 + 20, y + 10
    bw = max(int(d.textlength(t, font=_font(SANS, 16))) for t in note_drawn) + 36
    d.rectangle([bx0, by0, bx0 + bw, by0 + 78], outline=(40, 40, 40), width=2)
    d.text((bx0 + 18, by0 + 16), note_drawn[0], font=_font(SANS, 16), fill=(20, 20, 20))
    d.text((bx0 + 18, by0 + 44), note_drawn[1], font=_font(SANS, 16), fill=(20, 20, 20))
    return note, note_drawn


def _draw_colour_note(p: _Page, y: int) -> None:
    """A note in a real colour and face, left column (below the bars on charts); asks its colour
    (its own or another) and its weight."""
    extra = p.extra
    note_colour = extra.choice(list(INKS))
    colour_note = extra.choice(COLOUR_NOTES)
    face, note_bold = extra.choice(NOTE_FACES)
    cf = ImageFont.truetype(str(FONT_DIR.parent / face), extra.choice([17, 20, 24]))
    at = (50, y + 175 if p.kind == "chart" else y + 14)
    p.draw.text(at, colour_note, font=cf, fill=extra.choice(INKS[note_colour]))
    asked_colour = note_colour if extra.random() < 0.5 else extra.choice([c for c in INKS if c != note_colour])
    p.ask("colour", f'Is the note "{colour_note}" written in {asked_colour}?', asked_colour == note_colour)
    p.ask("weight", f'Is the note "{colour_note}" written in bold?', note_bold)


def _ask_note_lines(p: _Page, note: tuple[str, str], note_drawn: tuple[str, str]) -> None:
    """The note box's two lines, asked in order or (wrongly) swapped."""
    in_order = p.rng.random() < 0.5
    first, second = note if in_order else (note[1], note[0])
    p.ask(
        "lines",
        f'Does the two-line note inside the box read exactly "{first}" on the first line'
        f' and "{second}" on the second line?',
        in_order and note_drawn == note,
    )


def _draw_badge(p: _Page, band_h: int) -> None:
    """Badge: light text on a coloured fill (or dark text on a yellow one), in the top-right
    corner below the band, or bottom-left; asks its colour, case and quadrant."""
    rng, d, w, h = p.rng, p.draw, p.w, p.h
    badge = rng.choice(BADGES)
    upper = rng.random() < 0.6 or not badge.isalpha()
    badge_drawn = badge if upper else badge.capitalize()
    bf = _font(SANS_BOLD, 20)
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


def _draw_source(p: _Page) -> None:
    """Source line: small serif text at the bottom-right or bottom-left; asks its place."""
    source = p.rng.choice(SOURCES)
    src_right = p.rng.random() < 0.5
    sf = _font(SERIF, 13)
    sw = p.draw.textlength(source, font=sf)
    p.draw.text((p.w - sw - 20 if src_right else 20, p.h - 26), source, font=sf, fill=(80, 80, 80))
    p.ask("place", f'Is the text "{source}" placed at the bottom-right of the slide?', src_right)


def make_document(seed: int) -> Document:
    """Render document ``seed`` and its labelled questions (deterministic in ``seed``).

    The elements are drawn, and their questions asked, in this order (each generator's draws
    follow it): title band, navigation bar (webpages), subtitle, two columns, bars (charts), note
    box, colour note, table (slides and charts), badge, source line.
    """
    kind = KINDS[seed % len(KINDS)]
    w, h = {"slide": (800, 600), "chart": (800, 600), "poster": (600, 800), "webpage": (900, 640)}[kind]
    img = Image.new("RGB", (w, h), (250, 250, 247))
    # the added elements draw their choices from ``extra`` (module docstring)
    p = _Page(seed, kind, w, h, ImageDraw.Draw(img), random.Random(seed), random.Random(seed + EXTRA_SEED))
    title = _draw_title(p)
    y = title.band_h + 14
    if kind == "webpage":
        _draw_nav(p, y)
        y += 40
    _draw_subtitle(p, y, title)
    y += 40
    cols = _draw_columns(p, y)
    _ask_column_text(p, cols)
    _ask_column_style(p, cols)
    y += 36 + 28 * 3 + 24
    if kind == "chart":
        _draw_bars(p, y)
    note, note_drawn = _draw_note_box(p, y)
    _draw_colour_note(p, y)
    if kind in TABLE_LABELS:  # row: a small table, header plus 2-3 rows
        _table(p.draw, kind, p.extra, (50, y + 60) if kind == "slide" else (w // 2 + 20, y + 100), p.ask)
    _ask_note_lines(p, note, note_drawn)
    _draw_badge(p, title.band_h)
    _draw_source(p)
    return Document(f"{kind}-{seed}", kind, img, p.questions)
