"""The top of a fidelity page: the title band, the navigation bar (webpages) and the subtitle,
each drawn and asked about."""

from __future__ import annotations

from dataclasses import dataclass

from documents.fidelity.page import Page
from documents.fidelity.vocab import DARK, NAV, VOCAB
from documents.fonts import SANS, SANS_BOLD, SERIF, dejavu


@dataclass(frozen=True)
class Title:
    text: str
    drawn: str
    centred: bool
    band_h: int


def draw_title(p: Page) -> Title:
    """Title band: light text on a dark fill, centred or (sometimes) left-aligned; asks place,
    exact and colour of the title."""
    rng, d, w = p.rng, p.draw, p.w
    title = rng.choice(VOCAB[p.kind]["titles"])
    title_drawn = p.miss(title)
    centred = rng.random() < 0.75
    band_h = 86 if p.kind != "poster" else 110
    d.rectangle([0, 0, w, band_h], fill=rng.choice(DARK))
    tf = dejavu(SANS_BOLD, 30 if p.kind != "poster" else 34)
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
    return Title(title, title_drawn, centred, band_h)


def draw_nav(p: Page, y: int) -> None:
    """A navigation bar at ``y`` (webpages), read left to right; asks its order and the items
    between two others."""
    d = p.draw
    nav = p.rng.sample(NAV, 4)
    x = 40
    for item in nav:
        d.text((x, y), item, font=dejavu(SANS, 18), fill=(30, 30, 30))
        x += int(d.textlength(item, font=dejavu(SANS, 18))) + 48
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


def draw_subtitle(p: Page, y: int, title: Title) -> None:
    """Subtitle: small serif text, aligned as the title; asks it exact, and a weight question
    (the bold title, or the regular subtitle)."""
    rng, w = p.rng, p.w
    subtitle = f"Prepared {rng.choice(['March', 'June', 'October'])} {rng.randint(2021, 2025)} for the board"
    sub_drawn = p.miss(subtitle)
    p.draw.text(
        (40 if not title.centred else w / 2, y + 8),
        sub_drawn,
        font=dejavu(SERIF, 15),
        fill=(60, 60, 60),
        anchor="lm" if not title.centred else "mm",
    )
    p.ask("exact", f'Is the subtitle text exactly "{subtitle}"?', sub_drawn == subtitle)
    if p.extra.random() < 0.5:  # weight: the bold title, or the regular subtitle
        p.ask("weight", f'Is the title "{title.text}" written in bold?', title.drawn == title.text)
    else:
        p.ask("weight", f'Is the subtitle "{subtitle}" written in bold?', False)
