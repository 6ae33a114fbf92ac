"""A seventh tester's 14 pages (issues 31 and 32): 8 matplotlib charts and 6 Chromium pages in styles
the project's generators do not use (``benchmarks/fresh7/``), their truth taken from the engines
(matplotlib ``Text.get_window_extent``, the DOM's ``Range.getBoundingClientRect``), rubrics and
injected errors written by hand before any page was judged (``fresh7/questions.py``).

    python benchmarks/fresh7_pages.py draw --out runs/fresh7            # needs Debian chromium
    python benchmarks/fresh7_pages.py judge --out runs/fresh7           # the OCR judge, both pages
    python benchmarks/fresh7_pages.py refine --out runs/fresh7          # the text editor (needs RapidOCR)
    python benchmarks/fresh7_pages.py draw --split report --out runs/fresh7_report   # 6 held-out pages

``draw`` writes per page ``<id>_clean.png``, ``<id>_defect.png`` and the truth (``truth.json``,
``rows.jsonl`` for ``rubricloop-judge``, as :func:`documents.engines.write_rows`). ``judge`` counts
true questions answered yes / false no / withheld and false ones no / false yes / withheld per
page variant and lists every false yes and false no. ``refine`` runs
``benchmarks/engine_refine.py``'s loop and measures on each defect page (fixed, contradictions,
written twice, retyped, broken, damaged pixels outside the edited elements), writing
``refine/<id>/before_after.png``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fresh7 import html_pages, mpl_pages, report_pages  # noqa: E402
from benchmarks.fresh7.questions import PAGES  # noqa: E402
from documents.engines.model import Defect, Doc, Element, Page, Question  # noqa: E402


def _hex(color: str) -> str:
    """A CSS ``rgb(r, g, b)`` or "#rrggbb" colour as "#rrggbb"."""
    if color.startswith("rgb"):
        r, g, b = (int(float(v)) for v in color[color.index("(") + 1 : color.index(")")].split(",")[:3])
        return f"#{r:02x}{g:02x}{b:02x}"
    return color


def _elements(records: list[dict]) -> list[Element]:
    return [
        Element(
            r["eid"],
            r["role"],
            r["text"],
            tuple(r["box"]),
            r["context"],
            r["angle"],
            tuple(tuple(b) for b in r.get("lines", ())),
            _hex(r["color"]),
        )
        for r in records
    ]


def truth_of(form: str, element: Element | None, asked: str) -> str:
    """ "yes" when ``element`` is drawn and reads ``asked`` (form "mention": holds it), else "no"."""
    if element is None:
        return "no"
    return "yes" if (asked in element.text if form == "mention" else element.text == asked) else "no"


SPLITS = {"dev": (PAGES, None), "report": (report_pages.QUESTIONS, report_pages.PAGES)}
"""split -> (its rubrics and errors, its draw functions: None for ``mpl_pages`` and ``html_pages``')."""


def make_doc(name: str, out: Path, browser, split: str = "dev") -> Doc:
    """Draw page ``name`` clean and with its defects into ``out``; the document with its truth.

    Raises:
        ValueError: a question whose written label disagrees with the clean page's truth.
    """
    rubrics, fns = SPLITS[split]
    engine, defects, qs = rubrics[name]
    pages, size = {}, None
    for variant, texts in (("clean", {}), ("defect", {e: s for e, (_, s) in defects.items()})):
        path = out / f"fresh7-{name}_{variant}.png"
        if engine == "matplotlib":
            size, recs = mpl_pages.draw(name, texts, path, fns)
        else:
            size, recs = html_pages.draw(name, texts, path, browser, fns)
        pages[variant] = Page(path, _elements(recs))
    clean = {e.id: e for e in pages["clean"].elements}
    questions = []
    for k, (form, eid, asked, text, label) in enumerate(qs, start=1):
        answers = {v: truth_of(form, p.element(eid) if eid else None, asked) for v, p in pages.items()}
        if (answers["clean"] == "yes") != (label == ""):
            raise ValueError(f"{name} q{k}: labelled {label or 'true'} but {answers['clean']} on the clean page")
        kind = label or (defects[eid][0] if eid in defects else "exact")
        questions.append(Question(f"q{k}", form, kind, text, eid or "", asked, answers))
    found = [Defect(kind, eid, clean[eid].text, shown) for eid, (kind, shown) in defects.items()]
    return Doc(f"fresh7-{name}", engine, name, 0, f"fresh7-{split}", size, pages, found, questions)


def draw(out: Path, split: str = "dev") -> list[Doc]:
    """Draw every page of ``split`` into ``out`` and write ``rows.jsonl`` and ``truth.json``."""
    from documents.engines import write_rows
    from documents.engines.browser import Browser

    out.mkdir(parents=True, exist_ok=True)
    with Browser() as browser:
        docs = [make_doc(name, out, browser, split) for name in SPLITS[split][0]]
    write_rows(docs, out)
    n = [q.answers for d in docs for q in d.questions]
    print(
        f"fresh7 {split}: {len(docs)} pages, {len(n)} questions; "
        f"clean page: {sum(a['clean'] == 'yes' for a in n)} true, "
        f"{sum(a['clean'] == 'no' for a in n)} false; defect page: {sum(a['defect'] == 'yes' for a in n)} true, "
        f"{sum(a['defect'] == 'no' for a in n)} false -> {out}"
    )
    return docs


def load(out: Path) -> list[Doc]:
    """The documents ``draw`` wrote into ``out``."""
    return [Doc.from_truth(t, out) for t in json.loads((out / "truth.json").read_text())]


def judge(out: Path) -> None:
    """Judge both pages of every document with ``judge=ocr``; print the counts and every wrong verdict."""
    from documents.engines.score import judge_split, make_judge, tally

    records = judge_split(make_judge("ocr"), out, "ocr")
    (out / "verdicts_ocr.json").write_text(json.dumps(records, indent=1, ensure_ascii=False))
    for variant in ("clean", "defect", None):
        for engine in ("matplotlib", "chromium", None):
            rs = [r for r in records if variant in (None, r["variant"]) and engine in (None, r["engine"])]
            c = tally(rs)
            print(
                f"{variant or 'both':<6} {engine or 'all':<10} true {c['n_true']}: yes {c['true_yes']} / false no "
                f"{c['false_no']} / withheld {c['true_withheld']};  false {c['n_false']}: no {c['true_no']} / "
                f"false yes {c['false_yes']} / withheld {c['false_withheld']}"
            )
    for r in records:
        if r["truth"] != r["answer"] and r["answer"] != "withheld":
            print(
                f"  FALSE {r['answer'].upper():<3} {r['item']} {r['check']} ({r['truth_kind']}): {r['question']}"
                f"\n      {r['reason'][:200]}"
            )


def refine(out: Path, iterations: int, label: str = "fresh7", only: list[str] | None = None) -> None:
    """Refine every defect page (or only the documents whose ids are in ``only``) with the text editor
    and print ``engine_refine``'s figures, each table headed "[<label>] <engine>"."""
    from benchmarks.adversarial_refine import ReadOnceJudge, side_by_side
    from benchmarks.engine_refine import measure_doc, print_table, refine_doc, total
    from scripts.verify_example import rapidocr_reader

    read, judge_ = rapidocr_reader(), ReadOnceJudge()
    rows = []
    for doc in load(out):
        if only and doc.id not in only:
            continue
        start, best, actions = refine_doc(doc, out / "refine", iterations, judge_)
        side_by_side(start, best).save(out / "refine" / doc.id / "before_after.png")
        rows.append(measure_doc(doc, start, best, actions, read))
        print(doc.id, json.dumps(rows[-1]["per_kind"]), json.dumps(rows[-1]["details"]), flush=True)
    name = "refine_only.json" if only else "refine.json"
    (out / name).write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    for engine in ("matplotlib", "chromium"):
        print_table(f"[{label}] {engine}", total(rows, engine))
    print_table(f"[{label}] all engines", total(rows))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cmd", choices=("draw", "judge", "refine"))
    p.add_argument("--out", type=Path, default=ROOT / "runs" / "fresh7")
    p.add_argument("--split", choices=tuple(SPLITS), default="dev", help="draw: dev (14 pages) or report (6)")
    p.add_argument("--iterations", type=int, default=2, help="refine edits per page (default 2)")
    a = p.parse_args(argv)
    if a.cmd == "draw":
        draw(a.out, a.split)
    elif a.cmd == "judge":
        judge(a.out)
    else:
        refine(a.out, a.iterations)


if __name__ == "__main__":
    main()
