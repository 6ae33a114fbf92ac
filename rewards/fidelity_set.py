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
style (text plus a style only a VLM can see: code may only say "no").

Splits by seed: dev = seeds 0..n-1, test = seeds 1000..1000+n-1 (``split_seeds``).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
SANS, SANS_BOLD, SERIF = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"
KINDS = ("slide", "chart", "poster", "webpage")
QTYPES = ("exact", "list", "lines", "order", "count", "case", "place", "relation", "style")

VOCAB = {
    "slide": {"titles": ["Quarterly Revenue Review", "Market Outlook 2025", "Operating Plan FY24", "Customer Growth Update"],
              "heads": [("Revenue", "Costs"), ("Highlights", "Risks"), ("Regions", "Products")],
              "items": ["North America 42%", "Europe 31%", "Asia Pacific 19%", "Latin America 8%", "Net margin 12.5%",
                        "Churn rate 3.2%", "New accounts 1,240", "Headcount 318", "Capex $4.2M", "Opex $9.8M"]},
    "chart": {"titles": ["Sales by Region 2024", "Energy Mix by Source", "Monthly Active Users", "Revenue per Segment"],
              "heads": [("Series", "Notes"), ("Legend", "Key facts")],
              "items": ["Solar 24%", "Wind 31%", "Hydro 12%", "Coal 18%", "Gas 15%", "Peak in July", "Low in February",
                        "Growth 7.4%", "Average 3,150", "Median 2,980"]},
    "poster": {"titles": ["Spring Design Festival", "City Jazz Night", "Annual Science Fair", "Open Studio Weekend"],
               "heads": [("Program", "Tickets"), ("Speakers", "Venue")],
               "items": ["Doors open 18:00", "Main stage 19:30", "Adults $25", "Students $12", "Hall B, Level 2",
                         "Workshops daily", "Free parking", "Live music", "Food market", "Family area"]},
    "webpage": {"titles": ["Every Child Deserves Care", "Build Faster With Us", "Fresh Food Delivered", "Learn Data Science"],
                "heads": [("Features", "Pricing"), ("Services", "Contact")],
                "items": ["Free trial 14 days", "Basic plan $9", "Pro plan $29", "Team plan $99", "Support 24/7",
                          "Call 555-0142", "Open Monday to Friday", "Secure payments", "Fast setup", "Cancel anytime"]},
}
NAV = ["Home", "About", "Programs", "Blog", "Gallery", "Contact"]
SOURCES = ["Source: internal finance data", "Source: company filings 2024", "Data: national statistics office",
           "Source: annual survey 2023"]
NOTES = [("Results are unaudited", "and may change"), ("Figures in thousands", "unless stated"),
         ("Tickets sold at the door", "while stocks last"), ("Prices include tax", "for all plans")]
BADGES = ["NEW", "03", "TOP", "Q3", "BETA", "24"]
COUNT_WORDS = ["Total", "Bonus", "Draft"]
DARK = [(25, 40, 90), (20, 80, 60), (90, 30, 40), (40, 40, 40)]
BADGE_FILL = [(200, 60, 40), (30, 120, 70), (40, 70, 160), (120, 50, 140)]


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
        return text[:i] + str((int(text[i]) + rng.randint(1, 8)) % 10) + text[i + 1:]
    if kind == "case":
        m = rng.choice(words)
        w = m.group(0)
        flipped = w.lower() if w[0].isupper() else w.capitalize()
        flipped = w.upper() if flipped == w else flipped
        return text[:m.start()] + flipped + text[m.end():]
    if kind == "drop":
        m = rng.choice(words)
        i = rng.randrange(m.start() + 1, m.end())
        return text[:i] + text[i + 1:]
    last = list(re.finditer(r"[A-Za-z]+", text))
    if not last:
        return text + "s"
    m = last[-1]
    return text[:m.end()] + "s" + text[m.end():]


def _font(name: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / name), px)


def _word_count(word: str, texts: list[str]) -> int:
    return sum(len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", t)) for t in texts)


def make_document(seed: int) -> Document:
    """Render document ``seed`` and its labelled questions (deterministic in ``seed``)."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    vocab = VOCAB[kind]
    w, h = {"slide": (800, 600), "chart": (800, 600), "poster": (600, 800), "webpage": (900, 640)}[kind]
    img = Image.new("RGB", (w, h), (250, 250, 247))
    d = ImageDraw.Draw(img)
    miss = lambda s: near_miss(s, rng) if rng.random() < 0.35 else s  # noqa: E731
    qs: list[Question] = []

    def ask(qtype: str, question: str, truth: bool):
        qs.append(Question(f"{seed}-{len(qs) + 1}", qtype, question, "yes" if truth else "no"))

    # Title band: light text on a dark fill, centred or (sometimes) left-aligned.
    title = rng.choice(vocab["titles"])
    title_drawn = miss(title)
    centred = rng.random() < 0.75
    band_h = 86 if kind != "poster" else 110
    d.rectangle([0, 0, w, band_h], fill=rng.choice(DARK))
    tf = _font(SANS_BOLD, 30 if kind != "poster" else 34)
    if centred:
        d.text((w / 2, band_h / 2), title_drawn, font=tf, fill=(250, 250, 250), anchor="mm")
    else:
        d.text((24, band_h / 2), title_drawn, font=tf, fill=(250, 250, 250), anchor="lm")
    # exact + place: a centred title is in very_top_center; a left one is not
    ask("place", f'Does the main title located at the very top-center of the image read exactly "{title}"?',
        title_drawn == title and centred)
    ask("exact", f'Is the title text exactly "{title}"?', title_drawn == title)
    y = band_h + 14
    if kind == "webpage":  # a navigation bar under the band, read left to right
        nav = rng.sample(NAV, 4)
        x = 40
        for item in nav:
            d.text((x, y), item, font=_font(SANS, 18), fill=(30, 30, 30))
            x += int(d.textlength(item, font=_font(SANS, 18))) + 48
        asked = list(nav) if rng.random() < 0.5 else [nav[1], nav[0], nav[2], nav[3]]
        ask("order", "Does the navigation menu read exactly, from left to right: " + ", ".join(f'"{t}"' for t in asked) + "?",
            asked == nav)
        y += 40
    # Subtitle: small serif text.
    subtitle = f"Prepared {rng.choice(['March', 'June', 'October'])} {rng.randint(2021, 2025)} for the board"
    sub_drawn = miss(subtitle)
    d.text((40 if not centred else w / 2, y + 8), sub_drawn, font=_font(SERIF, 15), fill=(60, 60, 60),
           anchor="lm" if not centred else "mm")
    ask("exact", f'Is the subtitle text exactly "{subtitle}"?', sub_drawn == subtitle)
    y += 40
    # Two columns under bold headings.
    h1, h2 = rng.choice(vocab["heads"])
    items = rng.sample(vocab["items"], 6)
    count_word = rng.choice(COUNT_WORDS)
    n_count = rng.choice([1, 2])
    for k in rng.sample(range(6), n_count):
        items[k] = f"{count_word} {items[k]}"
    drawn = [miss(t) for t in items]
    col_x = (50, w // 2 + 20)
    hf, itf = _font(SANS_BOLD, 22), _font(SERIF if rng.random() < 0.5 else SANS, 17)
    d.text((col_x[0], y), h1, font=hf, fill=(20, 20, 20))
    d.text((col_x[1], y), h2, font=hf, fill=(20, 20, 20))
    for col in range(2):
        for k in range(3):
            d.text((col_x[col], y + 36 + 28 * k), drawn[3 * col + k], font=itf, fill=(35, 35, 35))
    left, right = items[:3], items[3:]
    left_drawn, right_drawn = drawn[:3], drawn[3:]
    # relation: the first item directly below the left heading is left_drawn[0]
    pick = rng.random()
    if pick < 0.5:
        ask("relation", f'Does the first item directly below the "{h1}" heading read exactly "{left[0]}"?', left_drawn[0] == left[0])
    else:  # an item of the other column is not directly below this heading
        ask("relation", f'Does the first item directly below the "{h1}" heading read exactly "{right[0]}"?', False)
    if rng.random() < 0.5:
        ask("relation", f'Is the heading "{h2}" to the right of "{h1}"?', True)
    else:
        ask("relation", f'Is the heading "{h1}" to the right of "{h2}"?', False)
    # order: the right column from top to bottom, sometimes asked with two items swapped
    asked = list(right) if rng.random() < 0.5 else [right[1], right[0], right[2]]
    ask("order", f'Under the "{h2}" heading, do the items read exactly, from top to bottom: ' + ", ".join(f'"{t}"' for t in asked) + "?",
        asked == right_drawn)
    # list: the left column's items, all present
    ask("list", "Does the left column include the items " + ", ".join(f'"{t}"' for t in left[:2]) + f', and "{left[2]}"?',
        left_drawn == left)
    # exact near misses on single items
    k = rng.randrange(6)
    ask("exact", f'Is there an item that reads exactly "{items[k]}"?', items[k] in drawn)
    # count: how often a word was drawn (as a whole word)
    n_drawn = _word_count(count_word, drawn)
    asked_n = rng.choice([1, 2])
    ask("count", f'Does the word "{count_word}" appear exactly {"once" if asked_n == 1 else "twice"}?', n_drawn == asked_n)
    # style: the headings are drawn bold, so the truth is the string's; code can only say "no"
    asked = h2 if rng.random() < 0.5 else near_miss(h2, rng)
    ask("style", f'Is there a bold heading reading exactly "{asked}"?', asked == h2)
    y += 36 + 28 * 3 + 24
    if kind == "chart":  # bars with value labels
        base = y + 150
        for i, val in enumerate(rng.sample(range(30, 140), 4)):
            x0 = 60 + i * 80
            d.rectangle([x0, base - val, x0 + 44, base], fill=BADGE_FILL[i % 4])
            d.text((x0 + 22, base - val - 12), str(val), font=_font(SANS, 13), fill=(20, 20, 20), anchor="mm")
    # Note box: a bordered box with two lines.
    note = rng.choice(NOTES)
    note_drawn = (miss(note[0]), note[1])
    bx0, by0 = w // 2 + 20, y + 10
    bw = max(int(d.textlength(t, font=_font(SANS, 16))) for t in note_drawn) + 36
    d.rectangle([bx0, by0, bx0 + bw, by0 + 78], outline=(40, 40, 40), width=2)
    d.text((bx0 + 18, by0 + 16), note_drawn[0], font=_font(SANS, 16), fill=(20, 20, 20))
    d.text((bx0 + 18, by0 + 44), note_drawn[1], font=_font(SANS, 16), fill=(20, 20, 20))
    if rng.random() < 0.5:
        ask("lines", f'Does the two-line note inside the box read exactly "{note[0]}" on the first line and "{note[1]}" on the second line?',
            note_drawn == note)
    else:  # the lines asked in the wrong order
        ask("lines", f'Does the two-line note inside the box read exactly "{note[1]}" on the first line and "{note[0]}" on the second line?',
            False)
    # Badge: light text on a coloured fill, in the top-right corner below the band, or bottom-left.
    badge = rng.choice(BADGES)
    upper = rng.random() < 0.6 or not badge.isalpha()
    badge_drawn = badge if upper else badge.capitalize()
    bf = _font(SANS_BOLD, 20)
    tw = int(d.textlength(badge_drawn, font=bf))
    corner = rng.choice(["top_right", "bottom_left"])
    cx, cy = (w - tw / 2 - 34, band_h + 40) if corner == "top_right" else (tw / 2 + 34, h - 60)
    if kind == "webpage" and corner == "top_right":
        cy = h / 2 - 40  # the nav bar holds the top: the badge sits at the right, mid-height
    d.rounded_rectangle([cx - tw / 2 - 14, cy - 18, cx + tw / 2 + 14, cy + 18], radius=10, fill=rng.choice(BADGE_FILL))
    d.text((cx, cy), badge_drawn, font=bf, fill=(255, 255, 255), anchor="mm")
    if badge.isalpha():
        ask("case", f'Is the badge word "{badge.lower()}" written in all capital letters?', upper)
    where = {"top_right": cy < h / 2 and cx >= w / 2, "bottom_left": cy >= h / 2 and cx < w / 2}
    asked_corner = rng.choice(["top-right", "bottom-left"])
    ask("place", f'Is the badge "{badge_drawn}" located in the {asked_corner} quadrant of the image?',
        where[asked_corner.replace("-", "_")])
    # Source line: small text at the bottom-right or bottom-left.
    source = rng.choice(SOURCES)
    src_right = rng.random() < 0.5
    sf = _font(SERIF, 13)
    sw = d.textlength(source, font=sf)
    d.text((w - sw - 20 if src_right else 20, h - 26), source, font=sf, fill=(80, 80, 80))
    ask("place", f'Is the text "{source}" placed at the bottom-right of the slide?', src_right)
    return Document(f"{kind}-{seed}", kind, img, qs)
