"""The truth of an adversarial document: its elements (text, box, role), its errors and its
questions with their answer on each page, and the seeds of each split."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from PIL import Image

from documents.adversarial.vocab import SPLITS
from documents.layout import Box
from documents.pages import seeds_of


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
    return seeds_of(split, n, SPLITS)
