"""The adversarial set: seeded rendered documents, each as a clean page and an erroneous
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
on report. ``write_rows`` (or ``python -m documents.adversarial --split dev --out DIR``)
writes a split as rubric rows with their images, for ``rubricloop-judge`` and ``rubricloop-refine``;
``benchmarks/adversarial_refine.py`` is the report.

Modules: ``vocab`` (what is drawn), ``truth`` (elements, errors, questions, documents, splits),
``parts`` and ``kinds`` (the layout), ``inject`` (which errors), ``questions`` (the rubric),
``document`` (``make_document``, ``make_checks``, ``make_item``, ``write_rows``).
"""

from documents.adversarial.document import make_checks, make_document, make_item, write_rows
from documents.adversarial.questions import phrase
from documents.adversarial.truth import Document, Element, Error, Question, split_seeds
from documents.adversarial.vocab import ERROR_KINDS, KINDS, QTYPES, SPLITS
from documents.errors import dropped_letter, missing_word, swapped_words, wrong_date, wrong_number

__all__ = [
    "ERROR_KINDS",
    "KINDS",
    "QTYPES",
    "SPLITS",
    "Document",
    "Element",
    "Error",
    "Question",
    "dropped_letter",
    "make_checks",
    "make_document",
    "make_item",
    "missing_word",
    "phrase",
    "split_seeds",
    "swapped_words",
    "write_rows",
    "wrong_date",
    "wrong_number",
]
