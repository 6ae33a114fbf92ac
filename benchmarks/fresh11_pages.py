"""An eleventh tester's seeded engine pages (issues 31 and 32): 4 matplotlib charts (a diverging bar
chart with signed value labels, a slope chart, a histogram with a callout, a dumbbell chart) and 5
Chromium pages (a recipe card, a league table, a weather forecast, a job posting, a property listing)
in templates and strings the project has not seen (``benchmarks/fresh11/``), content and injected
errors drawn from the seed, truth taken from the engines (matplotlib ``Text.get_window_extent``, the DOM's
``Range.getBoundingClientRect``), rubric questions by ``documents.engines.questions`` (the project's
BizGenEval phrasing) from that truth.

    python benchmarks/fresh11_pages.py draw --split dev --n 18 --out runs/fresh11_dev     # needs chromium
    python benchmarks/fresh11_pages.py judge --out runs/fresh11_dev                       # the OCR judge
    python benchmarks/fresh11_pages.py refine --out runs/fresh11_dev                      # needs RapidOCR
    python benchmarks/fresh11_pages.py draw --split report --n 18 --out runs/fresh11_report

Seeds: dev = 0..n-1, report = 1000..1000+n-1 (nobody tunes on report); template =
``TEMPLATES[seed % 9]``. Per seed: the content from ``random.Random(seed)``, 2 or 3 defects
(``documents.engines.model.inject``: typo, digit, swap, drop_word, missing) from
``random.Random(seed * 7919 + 11)``. ``judge`` and ``refine`` print and write the figures as
``benchmarks/fresh7_pages.py`` does (its ``judge`` and ``refine``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import tester_set  # noqa: E402
from benchmarks.fresh11 import html_pages, mpl_pages  # noqa: E402

CAN_MISS = {
    "legend_entry", "value_label", "callout", "list_item", "button", "footer", "source_note", "subtitle", "badge",
}  # fmt: skip
"""Roles the "missing" defect may remove (the page still reads as a page without the element)."""
ASKABLE = {
    "title", "subtitle", "section_heading", "list_item", "card_label", "card_value", "paragraph", "table_header",
    "table_cell", "button", "footer", "source_note", "chart_title", "axis_title", "tick_label", "legend_entry",
    "value_label", "callout", "badge", "nav_item", "line_end_label",
}  # fmt: skip
"""Roles a defect may hit."""


SET = tester_set.TesterSet("fresh11", mpl_pages.PAGES, html_pages.PAGES, 11, frozenset(CAN_MISS), frozenset(ASKABLE))
TEMPLATES = SET.templates
"""Template names, matplotlib first; seed s draws ``TEMPLATES[s % 9]``."""


def _render(name: str, seed: int, texts: dict[str, str], path: Path, browser):
    """Draw template ``name`` with the content of ``seed`` and ``texts`` (``tester_set.render``)."""
    return tester_set.render(SET, name, seed, texts, path, browser)


def main(argv: list[str] | None = None) -> None:
    tester_set.main(SET, __doc__, argv)


if __name__ == "__main__":
    main()
