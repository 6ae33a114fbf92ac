"""A fidelity document being drawn and its truth: the kinds, question types, the labelled
question, the rendered document, the page with its three seeded generators, and the splits."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from documents.errors import near_miss
from documents.pages import seeds_of

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
    """Seeds of a split: dev = 0..n-1, test = 1000..1000+n-1. Raises ValueError for another split."""
    return seeds_of(split, n, ("dev", "test"))


def word_count(word: str, texts: list[str]) -> int:
    """How often ``word`` stands in ``texts`` as a whole word (not inside a longer one)."""
    return sum(len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", t)) for t in texts)


@dataclass
class Page:
    """A document being drawn: its kind and size (pixels), the drawing, the three generators
    (``documents.fidelity`` docstring) and the questions asked so far."""

    seed: int
    kind: str
    w: int
    h: int
    draw: ImageDraw.ImageDraw
    rng: random.Random
    extra: random.Random
    questions: list[Question] = field(default_factory=list)

    def ask(self, qtype: str, question: str, truth: bool) -> None:
        """Record a question of ``qtype`` whose true answer for the drawn page is ``truth``."""
        self.questions.append(
            Question(f"{self.seed}-{len(self.questions) + 1}", qtype, question, "yes" if truth else "no")
        )

    def miss(self, text: str) -> str:
        """``text``, or (35% of draws) a near miss of it."""
        return near_miss(text, self.rng) if self.rng.random() < 0.35 else text
