"""Per-template figures of a drawn, judged and refined tester set (``benchmarks/fresh11_pages.py``):
the judge's counts per template from ``verdicts_ocr.json`` and the editor's per template and per
document from ``refine.json`` (written by the set's ``judge`` and ``refine`` commands), or, while
``refine`` runs, from the lines it printed so far (a log of its output given after the folder).

    python benchmarks/fresh11/summary.py runs/fresh11_dev [refine_log.txt]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from documents.engines.score import tally  # noqa: E402


def template(doc_id: str) -> str:
    """The template of a document id "<set>-<template>-<seed>"."""
    return doc_id.split("-", 1)[1].rsplit("-", 1)[0]


def judge_table(records: list[dict]) -> None:
    """Per template: true questions yes / false no / withheld, false questions no / false yes / withheld."""
    by = defaultdict(list)
    for r in records:
        by[r["kind"]].append(r)
    for name, rs in [*sorted(by.items()), ("all", records)]:
        c = tally(rs)
        yes = f"{c['true_yes']:>3} / {c['false_no']} / {c['true_withheld']:>2}"
        no = f"{c['true_no']:>3} / {c['false_yes']} / {c['false_withheld']:>2}"
        print(f"  {name:<13} true {c['n_true']:>3}: {yes}   false {c['n_false']:>3}: {no}")


def refine_table(rows: list[dict]) -> None:
    """Per template: fixed / errors, contradictions, twice, retyped, broken, damaged px; then each
    document with damage or an unfixed error."""
    by = defaultdict(lambda: defaultdict(int))
    for r in rows:
        for figs in r["per_kind"].values():
            for k, v in figs.items():
                by[template(r["doc"])][k] += v
                by["all"][k] += v
    for name in [*sorted(k for k in by if k != "all"), "all"]:
        f = by[name]
        print(f"  {name:<13} fixed {f['fixed']:>2}/{f['errors']:<2} contra {f['contradictions']} "
              f"twice {f['written_twice']} retyped {f['retyped']} broken {f['broken']} "
              f"damaged_px {f['damaged_px']}")  # fmt: skip
    for r in rows:
        px = sum(f.get("damaged_px", 0) for f in r["per_kind"].values())
        unfixed = [f"{d['kind']} {d['element']} {d['correct']!r}->{d['shown']!r}" for d in r["details"]
                   if "fixed" in d and not d["fixed"]]  # fmt: skip
        if px or unfixed:
            print(f"    {r['doc']}: damaged_px {px}; unfixed {unfixed}")


def rows_from_log(log: Path) -> list[dict]:
    """The documents ``refine`` printed to ``log`` ("<doc id> <per kind json> <details json>")."""
    rows = []
    for line in log.read_text().splitlines():
        doc, sep, rest = line.partition(" {")
        if not sep or " " in doc:
            continue
        per_kind, end = json.JSONDecoder().raw_decode("{" + rest)
        rows.append({"doc": doc, "per_kind": per_kind, "details": json.loads(("{" + rest)[end:].strip())})
    return rows


def main(argv: list[str] | None = None) -> None:
    args = argv or sys.argv[1:]
    folder = Path(args[0])
    if (folder / "verdicts_ocr.json").exists():
        print(f"judge {folder}")
        judge_table(json.loads((folder / "verdicts_ocr.json").read_text()))
    if (folder / "refine.json").exists():
        print(f"editor {folder}")
        refine_table(json.loads((folder / "refine.json").read_text()))
    elif len(args) > 1:
        rows = rows_from_log(Path(args[1]))
        print(f"editor {folder}: {len(rows)} documents so far ({args[1]})")
        refine_table(rows)


if __name__ == "__main__":
    main()
