"""Report: the judges on documents drawn by real layout engines (issue 31), per split and engine.

Usage::

    python benchmarks/engine_judge.py                                  # both splits, OCR judge (judge=ocr)
    python benchmarks/engine_judge.py --oracle-vlm                     # also judge=ocr_vlm with an oracle VLM
    python benchmarks/engine_judge.py --split report --n 12 --cache runs/engine_docs --out runs/engine_judge.json

The documents are :mod:`documents.engines`' (matplotlib charts and Chromium pages; dev =
seeds 0..n-1, report = seeds 1000..1000+n-1; nobody tunes on report), drawn once into
``--cache/<split>`` and loaded from there afterwards. Their rows (``rows.jsonl``, written there
too) are loaded by ``rewards.importers.load_items``, as ``rubricloop-judge`` loads them, so the
checks are compiled as the importers compile them. Each page (clean and defect) is judged with
every question of its document.

Judges, built from the project's Hydra configs (``conf/judge/*.yaml``, defaults unchanged):

- ``ocr``: ``judge=ocr`` (the offline OCR judge behind the router);
- ``ocr_vlm+oracle`` (``--oracle-vlm``): ``judge=ocr_vlm`` whose VLM is
  :class:`documents.engines.oracle.OracleServer` on 127.0.0.1, answering each question
  from the truth (so every error it makes is OCR's).

Printed per split, engine and judge: over the true questions (truth "yes" on that page) the
answers yes / no (false no) / withheld; over the false questions (truth "no") no / yes (false
yes) / withheld; then the same per document kind (bar, ..., menu), per question form
(``questions.KINDS``) and per truth kind (exact, the defect kinds, wrong_element, near_miss); last
a summary line per judge and engine: the share of true questions answered yes, the share answered
no (false no), and the false yes count. ``--out`` writes every verdict with its
truth and the counts as JSON.

``--score runs/judge/verdicts.jsonl --rows <cache>/<split>/rows.jsonl`` prints the same figures
for a ``rubricloop-judge data=<cache>/<split>/rows.jsonl out=runs/judge judge=...`` run (any judge).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from documents.engines import ENGINES, SPLITS, build_split, write_rows  # noqa: E402
from documents.engines.oracle import OracleServer  # noqa: E402
from documents.engines.score import judge_split, make_judge, score_verdicts, tally  # noqa: E402


def _line(label: str, t: dict[str, int]) -> str:
    return (
        f"  {label:<28} true {t['n_true']:>4}: yes {t['true_yes']:>4}  no {t['false_no']:>3}  withheld"
        f" {t['true_withheld']:>4}  | false {t['n_false']:>4}: no {t['true_no']:>4}  yes {t['false_yes']:>3}"
        f"  withheld {t['false_withheld']:>4}"
    )


def print_report(split: str, records: list[dict]) -> dict:
    """Print the split's figures (module docstring) and return them as a dict."""
    report: dict = {}
    by_judge = defaultdict(list)
    for r in records:
        by_judge[r["judge"]].append(r)
    for judge, rs in by_judge.items():
        report[judge] = {}
        for engine in (*ENGINES, "all"):
            sel = [r for r in rs if engine == "all" or r["engine"] == engine]
            if not sel:
                continue
            print(f"\n{split} | {judge} | {engine}")
            print(_line("all questions", tally(sel)))
            for variant in ("clean", "defect"):
                print(_line(f"{variant} pages", tally([r for r in sel if r["variant"] == variant])))
            entry = {"all": tally(sel), "by_kind": {}, "by_form": {}, "by_truth_kind": {}}
            if engine != "all":
                for key, name in (("kind", "by_kind"), ("form", "by_form"), ("truth_kind", "by_truth_kind")):
                    print(f"  -- per {'document kind' if key == 'kind' else key.replace('_', ' ')}")
                    for value in sorted({r[key] for r in sel}):
                        t = tally([r for r in sel if r[key] == value])
                        entry[name][value] = t
                        print(_line(value, t))
            report[judge][engine] = entry
    print(f"\n{split} summary (share of true questions answered yes / no, and false questions answered yes)")
    for judge, engines in report.items():
        for engine, entry in engines.items():
            t = entry["all"]
            print(
                f"  {judge:<16} {engine:<11} yes {t['true_yes'] / max(1, t['n_true']):6.1%}  false no"
                f" {t['false_no'] / max(1, t['n_true']):6.1%}  false yes {t['false_yes']:>3} of {t['n_false']}"
            )
    return report


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except ValueError as e:  # a bad row or verdict line, a judge that cannot be built: one line
        print(f"engine_judge: {e}", file=sys.stderr)
        return 1


def _main(argv: list[str] | None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=SPLITS, action="append", help="repeatable; default both")
    ap.add_argument("--n", type=int, default=12, help="documents per engine and split")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "engine_docs", help="where the documents are drawn")
    ap.add_argument("--oracle-vlm", action="store_true", help="also judge=ocr_vlm with the oracle VLM server")
    ap.add_argument("--no-ocr", action="store_true", help="skip the judge=ocr pass (with --oracle-vlm)")
    ap.add_argument("--out", type=Path, help="write the verdicts and figures as JSON here")
    ap.add_argument("--score", type=Path, metavar="VERDICTS", help="only score a rubricloop-judge verdicts.jsonl")
    ap.add_argument("--rows", type=Path, help="with --score: the rows.jsonl that run judged")
    args = ap.parse_args(argv)
    if args.score:
        if args.rows is None:
            ap.error("--score needs --rows (the rows.jsonl the run judged)")
        print_report(args.rows.parent.name, score_verdicts(args.score, args.rows))
        return 0
    result = {}
    for split in args.split or SPLITS:
        folder = args.cache / split
        t0 = time.perf_counter()
        docs = [d for e in ENGINES for d in build_split(split, e, folder, args.n)]
        write_rows(docs, folder)
        n_q = sum(len(d.questions) for d in docs)
        print(
            f"{split}: {len(docs)} documents, {n_q} questions x 2 pages ({time.perf_counter() - t0:.0f} s)",
            file=sys.stderr,
        )
        records = [] if args.no_ocr else judge_split(make_judge("ocr"), folder, "ocr")
        if args.oracle_vlm:
            with OracleServer(docs) as server:
                records += judge_split(make_judge("ocr_vlm", server.base_url), folder, "ocr_vlm+oracle")
                print(f"  oracle: {server.requests} requests, {server.questions} questions, {server.unknown} unknown",
                      file=sys.stderr)  # fmt: skip
        result[split] = {"figures": print_report(split, records), "verdicts": records}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
