"""One tester's seeded engine set (``benchmarks/fresh8_pages.py``, ``benchmarks/fresh9_pages.py``):
templates drawn by matplotlib and Chromium (``benchmarks/fresh7``'s drawers), content from the seed,
2 or 3 injected defects (``documents.engines.model.inject``), truth from the engines, questions by
``documents.engines.questions.make_questions``; ``judge`` and ``refine`` as
``benchmarks/fresh7_pages.py`` has them.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from benchmarks import fresh7_pages
from benchmarks.fresh7 import html_pages as html_draw
from benchmarks.fresh7 import mpl_pages as mpl_draw
from documents.engines.model import Doc, Page, Spec, inject
from documents.engines.questions import make_questions

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class TesterSet:
    """A tester's templates: ``mpl`` and ``html`` (name -> draw function of (texts, rng)), the
    defects of seed s from ``random.Random(s * 7919 + salt)``, the roles a "missing" defect may
    remove (``can_miss``) and those any defect may hit (``askable``)."""

    name: str
    mpl: dict
    html: dict
    salt: int
    can_miss: frozenset
    askable: frozenset

    @property
    def templates(self) -> list[str]:
        """Template names, matplotlib first; seed s draws ``templates[s % len(templates)]``."""
        return [*self.mpl, *self.html]


def seeds(split: str, n: int) -> list[int]:
    """dev = 0..n-1, report = 1000..1000+n-1. Raises ValueError for another split."""
    if split not in ("dev", "report"):
        raise ValueError(f"split must be dev or report, got {split!r}")
    return list(range(0 if split == "dev" else 1000, (0 if split == "dev" else 1000) + n))


def render(ts: TesterSet, name: str, seed: int, texts: dict[str, str], path: Path, browser):
    """Draw template ``name`` with the content of ``seed`` and ``texts`` (eid -> string; "" = left out)."""
    if name in ts.mpl:
        fn = ts.mpl[name]
        return mpl_draw.draw(name, texts, path, {name: lambda t: fn(t, random.Random(seed))})
    fn = ts.html[name]
    return html_draw.draw(name, texts, path, browser, {name: lambda t: fn(t, random.Random(seed))})


def make_doc(ts: TesterSet, seed: int, split: str, out: Path, browser) -> Doc:
    """Draw document ``seed`` clean and with its defects into ``out``; the document with its truth and
    questions (``documents.engines.questions.make_questions``)."""
    name = ts.templates[seed % len(ts.templates)]
    engine = "matplotlib" if name in ts.mpl else "chromium"
    did = f"{ts.name}-{name}-{seed}"
    size, recs = render(ts, name, seed, {}, out / f"{did}_clean.png", browser)
    specs = [Spec(r["eid"], r["role"], r["text"], r["context"], r["role"] in ts.can_miss) for r in recs]
    err = random.Random(seed * 7919 + ts.salt)
    _, defects = inject(specs, err.choice((2, 3)), err, set(ts.askable))
    _, bad = render(ts, name, seed, {d.element: d.shown for d in defects}, out / f"{did}_defect.png", browser)
    pages = {
        "clean": Page(out / f"{did}_clean.png", fresh7_pages._elements(recs)),
        "defect": Page(out / f"{did}_defect.png", fresh7_pages._elements(bad)),
    }
    questions = make_questions(name, pages["clean"].elements, pages["defect"].elements, defects, err)
    return Doc(did, engine, name, seed, f"{ts.name}-{split}", size, pages, defects, questions)


def draw(ts: TesterSet, out: Path, split: str, n: int) -> list[Doc]:
    """Draw ``n`` documents of ``split`` into ``out`` and write ``rows.jsonl`` and ``truth.json``."""
    from documents.engines import write_rows
    from documents.engines.browser import Browser

    out.mkdir(parents=True, exist_ok=True)
    with Browser() as browser:
        docs = [make_doc(ts, s, split, out, browser) for s in seeds(split, n)]
    write_rows(docs, out)
    qs = [q for d in docs for q in d.questions]
    kinds = {}
    for d in docs:
        for f in d.defects:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
    print(f"{ts.name} {split}: {len(docs)} pages, {len(qs)} questions, defects {kinds} -> {out}")
    return docs


def main(ts: TesterSet, doc: str, argv: list[str] | None = None) -> None:
    """The command line of a tester's set: ``draw``, ``judge`` or ``refine`` (``doc``: the script's docstring)."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("cmd", choices=("draw", "judge", "refine"))
    p.add_argument("--out", type=Path, default=ROOT / "runs" / f"{ts.name}_dev")
    p.add_argument("--split", choices=("dev", "report"), default="dev")
    p.add_argument("--n", type=int, default=18, help="draw: documents (default 18: each template twice)")
    p.add_argument("--iterations", type=int, default=2, help="refine edits per page (default 2)")
    p.add_argument("--only", action="append", metavar="DOCID", help="refine: only this document (repeatable)")
    a = p.parse_args(argv)
    if a.cmd == "draw":
        draw(ts, a.out, a.split, a.n)
    elif a.cmd == "judge":
        fresh7_pages.judge(a.out)
    else:
        fresh7_pages.refine(a.out, a.iterations, label=ts.name, only=a.only)
