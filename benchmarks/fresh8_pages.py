"""An eighth tester's seeded engine pages (issues 31 and 32): 4 matplotlib charts and 5 Chromium pages
in templates and strings the project has not seen (``benchmarks/fresh8/``), content and injected
errors drawn from the seed, truth taken from the engines (matplotlib ``Text.get_window_extent``, the
DOM's ``Range.getBoundingClientRect``), rubric questions by ``documents.engines.questions`` (the
project's BizGenEval phrasing) from that truth.

    python benchmarks/fresh8_pages.py draw --split dev --n 18 --out runs/fresh8_dev     # needs chromium
    python benchmarks/fresh8_pages.py judge --out runs/fresh8_dev                       # the OCR judge
    python benchmarks/fresh8_pages.py refine --out runs/fresh8_dev                      # needs RapidOCR
    python benchmarks/fresh8_pages.py draw --split report --n 18 --out runs/fresh8_report

Seeds: dev = 0..n-1, report = 1000..1000+n-1 (nobody tunes on report); template =
``TEMPLATES[seed % 9]``. Per seed: the content from ``random.Random(seed)``, 2 or 3 defects
(``documents.engines.model.inject``: typo, digit, swap, drop_word, missing) from
``random.Random(seed * 7919 + 8)``. ``judge`` and ``refine`` print and write the figures as
``benchmarks/fresh7_pages.py`` does (its ``judge`` and ``refine``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import fresh7_pages  # noqa: E402
from benchmarks.fresh7 import html_pages as html_draw  # noqa: E402
from benchmarks.fresh7 import mpl_pages as mpl_draw  # noqa: E402
from benchmarks.fresh8 import html_pages, mpl_pages  # noqa: E402
from documents.engines.model import Doc, Page, Spec, inject  # noqa: E402
from documents.engines.questions import make_questions  # noqa: E402

TEMPLATES = [*mpl_pages.PAGES, *html_pages.PAGES]
"""Template names, matplotlib first; seed s draws ``TEMPLATES[s % 9]``."""
CAN_MISS = {"legend_entry", "value_label", "callout", "list_item", "button", "footer", "source_note", "subtitle"}
"""Roles the "missing" defect may remove (the page still reads as a page without the element)."""
ASKABLE = {
    "title", "subtitle", "section_heading", "list_item", "card_label", "card_value", "paragraph", "table_header",
    "table_cell", "button", "footer", "source_note", "chart_title", "axis_title", "tick_label", "legend_entry",
    "value_label", "callout",
}  # fmt: skip
"""Roles a defect may hit (a pull quote is never asked: it repeats a body sentence as a distractor)."""


def seeds(split: str, n: int) -> list[int]:
    """dev = 0..n-1, report = 1000..1000+n-1. Raises ValueError for another split."""
    if split not in ("dev", "report"):
        raise ValueError(f"split must be dev or report, got {split!r}")
    return list(range(0 if split == "dev" else 1000, (0 if split == "dev" else 1000) + n))


def _render(name: str, seed: int, texts: dict[str, str], path: Path, browser):
    """Draw template ``name`` with the content of ``seed`` and ``texts`` (eid -> string; "" = left out)."""
    if name in mpl_pages.PAGES:
        fn = mpl_pages.PAGES[name]
        size, recs = mpl_draw.draw(name, texts, path, {name: lambda t: fn(t, random.Random(seed))})
        return size, recs
    fn = html_pages.PAGES[name]
    return html_draw.draw(name, texts, path, browser, {name: lambda t: fn(t, random.Random(seed))})


def make_doc(seed: int, split: str, out: Path, browser) -> Doc:
    """Draw document ``seed`` clean and with its defects into ``out``; the document with its truth and
    questions (``documents.engines.questions.make_questions``)."""
    name = TEMPLATES[seed % len(TEMPLATES)]
    engine = "matplotlib" if name in mpl_pages.PAGES else "chromium"
    did = f"fresh8-{name}-{seed}"
    size, recs = _render(name, seed, {}, out / f"{did}_clean.png", browser)
    specs = [Spec(r["eid"], r["role"], r["text"], r["context"], r["role"] in CAN_MISS) for r in recs]
    err = random.Random(seed * 7919 + 8)
    _, defects = inject(specs, err.choice((2, 3)), err, ASKABLE)
    _, bad = _render(name, seed, {d.element: d.shown for d in defects}, out / f"{did}_defect.png", browser)
    pages = {
        "clean": Page(out / f"{did}_clean.png", fresh7_pages._elements(recs)),
        "defect": Page(out / f"{did}_defect.png", fresh7_pages._elements(bad)),
    }
    questions = make_questions(name, pages["clean"].elements, pages["defect"].elements, defects, err)
    return Doc(did, engine, name, seed, f"fresh8-{split}", size, pages, defects, questions)


def draw(out: Path, split: str, n: int) -> list[Doc]:
    """Draw ``n`` documents of ``split`` into ``out`` and write ``rows.jsonl`` and ``truth.json``."""
    from documents.engines import write_rows
    from documents.engines.browser import Browser

    out.mkdir(parents=True, exist_ok=True)
    with Browser() as browser:
        docs = [make_doc(s, split, out, browser) for s in seeds(split, n)]
    write_rows(docs, out)
    qs = [q for d in docs for q in d.questions]
    kinds = {}
    for d in docs:
        for f in d.defects:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
    print(f"fresh8 {split}: {len(docs)} pages, {len(qs)} questions, defects {kinds} -> {out}")
    return docs


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cmd", choices=("draw", "judge", "refine"))
    p.add_argument("--out", type=Path, default=ROOT / "runs" / "fresh8_dev")
    p.add_argument("--split", choices=("dev", "report"), default="dev")
    p.add_argument("--n", type=int, default=18, help="draw: documents (default 18: each template twice)")
    p.add_argument("--iterations", type=int, default=2, help="refine edits per page (default 2)")
    p.add_argument("--only", action="append", metavar="DOCID", help="refine: only this document (repeatable)")
    a = p.parse_args(argv)
    if a.cmd == "draw":
        draw(a.out, a.split, a.n)
    elif a.cmd == "judge":
        fresh7_pages.judge(a.out)
    else:
        fresh7_pages.refine(a.out, a.iterations, label="fresh8", only=a.only)


if __name__ == "__main__":
    main()
