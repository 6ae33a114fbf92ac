"""Procedural page-layout items whose every check the layout judge decides from pixels.

``data.task=layout`` of ``rubricloop-train`` (``training.procedural.data.make_dataset``). Two kinds:

* **slide**: a dark title band across the top and a light card in the left half;
* **chart**: bars rising from left to right, with a dark title band on half of them.

Each item's rubric has 5 (slide) or 6-8 (chart) checks, every one a question of the phrase table of
:mod:`rewards.judges.layout` (``LayoutJudge``), so the reward goes rubric -> judge -> verdicts
-> pass rate with no OCR and no VLM. Every layout element is asked at two strengths:
the element itself (clearly: "Is there a dark title band across the top of the page?") and its
direction to a degree drawn per item, "at least slightly" or "noticeably" ("Is the top of the
page noticeably darker than the rest of the page?"). The second is a weaker, honest question
about the same element: the partial credit that gives a model which draws noise a reward that
varies within a GRPO group (the first is "no" on every noise image), and, over items, a ladder
(slight, noticeable, clear) so that the reward still varies once the slight rung is passed
everywhere; the tags tell them apart (``band`` / ``band_hint``, ``card`` /
``card_hint``, ``bars`` / ``bars_hint``, ``ink``).

A chart also asks what a chart is and a slide is not: no light card anywhere (``no_card``) and
a white or nearly white background (``background``, the page its prompt names), and its bars
have a shape rung (``bars_rung``: three separate bars, the last taller than the first). Without
them a slide's page scored 0.46 on a chart prompt, more than a chart drawn against its prompt
(0.31), and RL drew slides' features on charts (docs/training.md, the tiny layout generator).

Ink coverage (ink = pixels darker than mid-grey) is asked at :data:`INK_RANGE` (20-50%) on
every item: what a light page with a title band or bars holds, and the guard against the
trivial answers (a solid dark page passes the band and bar hints, not this).

One ``random.Random(seed)`` drives all choices: the same arguments give the same items.
"""

from __future__ import annotations

import random
from typing import Sequence

from rewards.rubric import Check, Criterion, Item, Rubric
from training.procedural.item_split import generate_split

LAYOUT_KINDS = ("slide", "chart")

INK_RANGE = (20, 50)
"""Ink coverage of both kinds, in percent of the page: a title band across a fifth of a light
page plus text, or bars on a light page, covers between a fifth and a half of it with ink; a
solid dark page (or a blank one) does not."""

STYLES = ("clean", "minimal", "modern", "corporate", "flat", "bold", "simple", "crisp")
PAGES = ("white", "cream", "light grey", "off-white", "pale")
TOPICS = (
    "quarterly review",
    "sales update",
    "team roadmap",
    "budget summary",
    "product launch",
    "hiring plan",
    "market overview",
    "project status",
    "customer survey",
    "annual report",
    "growth targets",
    "risk register",
)

Q_BAND = "Is there a dark title band across the top of the page?"
Q_CARD = "Is there a light card in the left half of the page?"
Q_BARS = "Do the bars rise from left to right?"
HINT_DEGREES = ("at least slightly", "noticeably")
"""The partial-credit rungs (``rewards.judges.layout.DEGREES``); each item asks one per element."""


def q_band_hint(degree: str) -> str:
    """The band's partial-credit question at ``degree`` (one of ``HINT_DEGREES``)."""
    return f"Is the top of the page {degree} darker than the rest of the page?"


def q_card_hint(degree: str) -> str:
    """The card's partial-credit question at ``degree``."""
    return f"Is the left half of the page {degree} lighter than the other half?"


def q_bars_hint(degree: str) -> str:
    """The bars' partial-credit question at ``degree``."""
    return f"Does ink increase {degree} from left to right?"


def q_bars_rung(degree: str) -> str:
    """The bars' shape rung at ``degree``: three separate bars, the last taller than the first."""
    return f"Do the bars rise {degree} from left to right?"


Q_NO_CARD = "Is the page free of light cards?"
"""The charts' kind check: a bar chart holds no card (a slide's card fails it)."""


Q_BACKGROUND = "Is the page's background white or nearly white?"
"""The charts' other kind check: bars stand on the light page the prompt names (a slide's body is grey)."""


def q_ink(low: int, high: int) -> str:
    """The ink coverage question for [low, high] percent."""
    return f"Does ink cover between {low}% and {high}% of the page?"


def _band_criterion(rng: random.Random) -> Criterion:
    hint = Check("band-hint", q_band_hint(rng.choice(HINT_DEGREES)), tag="band_hint")
    return Criterion("Title band", (Check("band", Q_BAND, tag="band"), hint))


def _ink_criterion() -> Criterion:
    low, high = INK_RANGE
    return Criterion("Ink", (Check("ink", q_ink(low, high), tag="ink"),))


def make_layout_slide(rng: random.Random, item_id: str) -> Item:
    """A slide: dark title band at the top, light card on the left; 5 checks (band, band hint,
    card, card hint, ink coverage)."""
    style, page, topic = rng.choice(STYLES), rng.choice(PAGES), rng.choice(TOPICS)
    prompt = (
        f"A {style} {topic} slide on a {page} page with a dark title band across the top and a light card on the left."
    )
    rubric = Rubric(
        (
            _band_criterion(rng),
            Criterion(
                "Card",
                (
                    Check("card", Q_CARD, tag="card"),
                    Check("card-hint", q_card_hint(rng.choice(HINT_DEGREES)), tag="card_hint"),
                ),
            ),
            _ink_criterion(),
        )
    )
    spec = {"title_band": True, "card": "left", "style": style, "page": page, "topic": topic}
    return Item(item_id, prompt, rubric, meta={"kind": "slide", "spec": spec})


def make_layout_chart(rng: random.Random, item_id: str) -> Item:
    """A bar chart: bars rising left to right, a dark title band on half of them; 6 or 8 checks
    (bars, bars rung, bars hint, [band, band hint,] no card, white background, ink coverage)."""
    style, page, topic = rng.choice(STYLES), rng.choice(PAGES), rng.choice(TOPICS)
    band = rng.random() < 0.5
    prompt = (
        f"A {style} {topic} bar chart on a {page} page"
        + (" with a dark title band across the top" if band else "")
        + ", bars rising from left to right."
    )
    degree = rng.choice(HINT_DEGREES)  # one draw for both rungs: the prompts stay those of earlier versions
    hint = Check("bars-hint", q_bars_hint(degree), tag="bars_hint")
    rung = Check("bars-rung", q_bars_rung(degree), tag="bars_rung")
    criteria = [Criterion("Bars", (Check("bars", Q_BARS, tag="bars"), rung, hint))]
    if band:
        criteria.append(_band_criterion(rng))
    kind = (Check("no-card", Q_NO_CARD, tag="no_card"), Check("background", Q_BACKGROUND, tag="background"))
    criteria.append(Criterion("A chart, not a slide", kind))
    criteria.append(_ink_criterion())
    spec = {"title_band": band, "bars": "rise", "style": style, "page": page, "topic": topic}
    return Item(item_id, prompt, Rubric(tuple(criteria)), meta={"kind": "chart", "spec": spec})


LAYOUT_MAKERS = {"slide": make_layout_slide, "chart": make_layout_chart}


def make_layout_dataset(
    n: int, seed: int, val_fraction: float = 0.1, kinds: Sequence[str] = LAYOUT_KINDS
) -> tuple[list[Item], list[Item]]:
    """Generate ``n`` layout items with distinct prompts, split into train and validation.

    As ``training.procedural.data.make_dataset``: kinds alternate in the order given, ids are
    ``"<kind>-<index>"`` (``"slide-00003"``), ``round(n * val_fraction)`` items chosen by a
    seeded shuffle go to validation, ``meta`` holds ``kind``, ``split``, ``seed`` and ``spec``
    (title_band, card or bars, style, page, topic).

    Args:
        n: total number of items, >= 1 (at most a few thousand: the vocabulary gives
            8 styles x 5 pages x 12 topics = 480 slides, charts x 2 = 960).
        seed: the same seed (and arguments) gives identical data.
        val_fraction: in [0, 1).
        kinds: a non-empty subset of ``LAYOUT_KINDS``.

    Returns:
        (train, val): lists of ``Item`` (source "rubricloop"); every check's question is one
        ``rewards.judges.layout.LayoutJudge`` answers.

    Raises:
        ValueError: bad arguments, or the vocabulary cannot give ``n`` distinct prompts.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"make_layout_dataset: n must be an integer >= 1, got {n!r}")
    if isinstance(kinds, str) or not kinds or any(k not in LAYOUT_KINDS for k in kinds):
        raise ValueError(f"make_layout_dataset: kinds must be a non-empty subset of {LAYOUT_KINDS}, got {kinds!r}")
    if isinstance(val_fraction, bool) or not isinstance(val_fraction, (int, float)) or not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"make_layout_dataset: val_fraction must be in [0, 1), got {val_fraction!r}")
    return generate_split(n, seed, kinds, LAYOUT_MAKERS, val_fraction, tries=200, caller="make_layout_dataset")
