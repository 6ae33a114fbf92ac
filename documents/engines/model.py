"""The data model of the engine-drawn documents, and the injected defects.

A document's content is a list of :class:`Spec` (what to draw: id, role, string, context); an
engine (``charts``: matplotlib, ``pages``: Chromium) draws it and returns each drawn element's
box, and the truth is the list of :class:`Element` (the spec plus the engine's box). The defective
variant is the same content with a few strings changed or removed (:data:`DEFECT_KINDS`), drawn
again by the same engine: its truth is the engine's too.

Boxes are ``(x0, y0, x1, y1)`` in image pixels, origin top left, end-exclusive, rounded outwards
from the engine's float extents.
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

Box = tuple[int, int, int, int]

ROLES = (
    "title", "subtitle", "section_heading", "paragraph", "list_item", "card_label", "card_value",
    "table_header", "table_cell", "chart_title", "axis_title", "tick_label", "legend_entry", "value_label",
    "callout", "pie_label", "line_end_label", "nav_item", "button", "badge", "footer", "source_note",
    "item_name", "item_price", "icon",
)  # fmt: skip
"""Element roles (issue 31's list; a menu's item name and price are list items split in two; an icon
is a glyph drawn beside text, recorded so that a judge can tell it from letters, never asked)."""

DEFECT_KINDS = ("typo", "digit", "swap", "drop_word", "missing")
"""typo: one letter changed or dropped; digit: one digit changed; swap: two adjacent words
swapped; drop_word: one word dropped; missing: the element not drawn at all."""

ENGINES = ("matplotlib", "chromium")
VARIANTS = ("clean", "defect")


@dataclass(frozen=True)
class Spec:
    """One text element to draw.

    Attributes:
        id: unique within the document ("title", "bar-South", "item-Starters-1", ...).
        role: one of :data:`ROLES`.
        text: the string drawn.
        context: what locates it, by role: ``heading`` (the section heading above it), ``card``
            (the card label of a card value), ``category`` / ``series`` (a bar's or slice's label,
            a line's series), ``row`` / ``column`` (a table cell's row label and column header),
            ``axis`` ("x"/"y"), ``ordinal`` (1-based among its role in its container, in reading
            order), ``item`` (the item name of a price), ``column_side`` (menu column "left"/"right").
        can_miss: whether the "missing" defect may remove it (the page still reads as a page).
    """

    id: str
    role: str
    text: str
    context: dict[str, Any] = field(default_factory=dict)
    can_miss: bool = False


@dataclass(frozen=True)
class Element:
    """One drawn text element and its truth: the spec's fields plus the engine's box.

    Attributes:
        id, role, text, context: as :class:`Spec` (``text``: the string actually drawn).
        box: the engine's extent of the text, image pixels (see module docstring).
        angle: 90 for text drawn bottom to top (a rotated y-axis title), else 0.
        lines: the box of each drawn line (Chromium wraps; matplotlib draws one line).
        color: the text colour as "#rrggbb".
    """

    id: str
    role: str
    text: str
    box: Box
    context: dict[str, Any] = field(default_factory=dict)
    angle: int = 0
    lines: tuple[Box, ...] = ()
    color: str = ""


@dataclass(frozen=True)
class Defect:
    """An injected error: its kind (:data:`DEFECT_KINDS`), the element, the correct and the drawn string
    ("" when missing)."""

    kind: str
    element: str
    correct: str
    shown: str


@dataclass(frozen=True)
class Question:
    """A rubric question with its truth on each variant.

    Attributes:
        id: "q1", "q2", ... within the document.
        kind: the question's form (``questions.KINDS``: "title", "legend_includes", "value_label_above", ...).
        truth_kind: "exact" (the element's correct string, no defect), a defect kind of
            :data:`DEFECT_KINDS` (asked of the defective element, correct string), or
            "wrong_element" (another element's string asked of this element: false on both).
        question: the text.
        element: the id of the element the question names.
        asked: the quoted string the question asks for.
        answers: {"clean": "yes"|"no", "defect": "yes"|"no"}.
    """

    id: str
    kind: str
    truth_kind: str
    question: str
    element: str
    asked: str
    answers: dict[str, str]


@dataclass
class Page:
    """One drawn variant: its image file and its elements' truth."""

    image_path: Path
    elements: list[Element]

    def element(self, eid: str) -> Element | None:
        """The element with id ``eid``, or None when it was not drawn (a missing defect)."""
        return next((e for e in self.elements if e.id == eid), None)


@dataclass
class Doc:
    """An engine-drawn document: both variants, its defects and its questions.

    Attributes:
        id: "<engine>-<kind>-<seed>" (unique in a split).
        engine: "matplotlib" or "chromium"; kind: the template (bar, grouped_bar, line, pie, donut,
            slide, dashboard, landing, poster, table, menu); seed, split: where it was drawn from.
        size: (width, height) in pixels.
        pages: {"clean": Page, "defect": Page}.
        defects: the injected errors (on the defect page).
        questions: with their truth on each page.
    """

    id: str
    engine: str
    kind: str
    seed: int
    split: str
    size: tuple[int, int]
    pages: dict[str, Page]
    defects: list[Defect]
    questions: list[Question]

    @property
    def image_path(self) -> Path:
        """The defect page's image (the page a judge must find errors on); ``pages["clean"]`` has the other."""
        return self.pages["defect"].image_path

    @property
    def elements(self) -> list[Element]:
        """The clean page's elements (the correct strings)."""
        return self.pages["clean"].elements

    def truth(self) -> dict[str, Any]:
        """JSON-ready truth: the document's fields, both pages' elements, defects and questions."""
        return {
            "id": self.id, "engine": self.engine, "kind": self.kind, "seed": self.seed, "split": self.split,
            "size": list(self.size),
            "pages": {v: {"image": p.image_path.name, "elements": [asdict(e) for e in p.elements]}
                      for v, p in self.pages.items()},
            "defects": [asdict(d) for d in self.defects],
            "questions": [asdict(q) for q in self.questions],
        }  # fmt: skip

    @staticmethod
    def from_truth(data: dict[str, Any], folder: Path) -> "Doc":
        """The document :meth:`truth` wrote, its images in ``folder``."""
        pages = {}
        for v, p in data["pages"].items():
            elements = [
                Element(**{**e, "box": tuple(e["box"]), "lines": tuple(tuple(b) for b in e["lines"])})
                for e in p["elements"]
            ]
            pages[v] = Page(folder / p["image"], elements)
        return Doc(
            data["id"], data["engine"], data["kind"], data["seed"], data["split"], tuple(data["size"]), pages,
            [Defect(**d) for d in data["defects"]], [Question(**q) for q in data["questions"]],
        )  # fmt: skip


def outward(x0: float, y0: float, x1: float, y1: float) -> Box:
    """A float extent as an integer box rounded outwards (floor the start, ceil the end)."""
    import math

    return (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))


# -- defects -----------------------------------------------------------------------------------

_LETTER = re.compile(r"[A-Za-z]")


def typo(text: str, rng: random.Random) -> str | None:
    """One letter (not the first of the string) changed to a neighbour letter or dropped; None
    when the string has fewer than 3 letters."""
    spots = [m.start() for m in _LETTER.finditer(text)][1:]
    if len(spots) < 2:
        return None
    i = rng.choice(spots)
    c = text[i]
    if rng.random() < 0.5:
        return text[:i] + text[i + 1 :]
    base = "a" if c.islower() else "A"
    new = chr(ord(base) + (ord(c.lower()) - ord("a") + rng.choice((1, 2, 3))) % 26)
    return text[:i] + new + text[i + 1 :]


def digit_change(text: str, rng: random.Random) -> str | None:
    """One digit changed to another digit; None when the string has no digit."""
    spots = [i for i, c in enumerate(text) if c.isdigit()]
    if not spots:
        return None
    i = rng.choice(spots)
    new = str((int(text[i]) + rng.randint(1, 8)) % 10)
    if i == spots[0] and new == "0" and len(spots) > 1 and spots[1] == i + 1:
        new = "9"  # no leading zero ("05" reads as a different format)
    return text[:i] + new + text[i + 1 :]


def swap_words(text: str, rng: random.Random) -> str | None:
    """Two adjacent, different words swapped; None for fewer than two words."""
    words = text.split(" ")
    pairs = [i for i in range(len(words) - 1) if words[i] != words[i + 1]]
    if not pairs:
        return None
    i = rng.choice(pairs)
    words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def drop_word(text: str, rng: random.Random) -> str | None:
    """One word dropped; None for fewer than three words (two words leave a string of one)."""
    words = text.split(" ")
    if len(words) < 3:
        return None
    del words[rng.randrange(len(words))]
    return " ".join(words)


CORRUPT = {"typo": typo, "digit": digit_change, "swap": swap_words, "drop_word": drop_word}


def inject(specs: list[Spec], n: int, rng: random.Random, askable: set[str]) -> tuple[list[Spec], list[Defect]]:
    """Choose ``n`` defects on distinct elements whose role is in ``askable``, each of a kind the
    element's string allows (digits for "digit", words for "swap"/"drop_word", ``can_miss`` for
    "missing"); the kinds are drawn in turn so that a document's defects differ.

    Returns:
        (the defective content: removed elements left out, changed ones with their new ``text``;
        the defects in the order chosen).
    """
    candidates = [s for s in specs if s.role in askable]
    rng.shuffle(candidates)
    kinds = list(DEFECT_KINDS)
    rng.shuffle(kinds)
    chosen: dict[str, Defect] = {}
    for spec in candidates:
        if len(chosen) >= n:
            break
        for kind in kinds:
            shown = "" if kind == "missing" else CORRUPT[kind](spec.text, rng)
            if kind == "missing" and not spec.can_miss:
                continue
            if shown is None or shown == spec.text:
                continue
            if shown and any(shown == o.text for o in specs):
                continue  # the wrong string would be another element's right one
            chosen[spec.id] = Defect(kind, spec.id, spec.text, shown)
            kinds.remove(kind)
            kinds.append(kind)  # the next element prefers another kind
            break
    out = []
    for s in specs:
        d = chosen.get(s.id)
        if d is None:
            out.append(s)
        elif d.shown:
            out.append(replace(s, text=d.shown))
    return out, list(chosen.values())
