"""``rubricloop-judge-bench``: how faithfully the offline judges answer the labelled fidelity set.

Renders the fidelity set (:mod:`documents.fidelity`) of the chosen split, compiles every
question as the importers do, and judges it with:

- ``ocr``: the OCR judge deciding compiled specs (``rewards.text.page.grounding``);
- ``ocr-keywords``: the same OCR reads, but the former importer's keyword rules (the strings
  quoted after "exactly"/"read"/... of questions with no count, style or order word, anywhere in
  the image or in a named half): the baseline before the question compiler.

Per judge and per question type it reports: n, coverage (decided / n), agreement (withheld
counted as wrong), Cohen's kappa with withheld counted as a wrong answer, kappa on the decided
checks alone, false yes and false no (counts), and seconds per check (the image's OCR time
shared over its checks, plus the judge's own time). It prints one line ``kappa <value>`` per
judge (all types, withheld counted wrong), and writes ``<out>/judge_bench.json`` and
``<out>/verdicts.jsonl`` when ``--out`` is given; ``--markdown`` also prints the ``ocr`` judge's
per-type table in the README's form. Question types are ``documents.fidelity.QTYPES`` (exact,
list, lines, order, count, case, place, relation, weight, colour, between, row, style).

Cohen's kappa: (p_o - p_e) / (1 - p_e), p_o the observed agreement, p_e = sum over answers of
the product of both raters' marginal shares (Cohen 1960, Eq. 1); 1.0 when p_e = 1 and p_o = 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

from documents.fidelity import QTYPES, make_document, split_seeds
from rewards.common.task import run_console_script
from rewards.importers import expectations_of
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.questions.keyword_rules import layout_strings
from rewards.text.questions.question_compiler import compile_question


def cohen_kappa(truth: list[str], answers: list[str]) -> float | None:
    """Cohen's kappa of two raters over the same items (any answer labels); None when empty."""
    n = len(truth)
    if n == 0:
        return None
    labels = set(truth) | set(answers)
    p_o = sum(t == a for t, a in zip(truth, answers)) / n
    p_e = sum((truth.count(x) / n) * (answers.count(x) / n) for x in labels)
    if p_e >= 1.0:
        return 1.0 if p_o >= 1.0 else 0.0
    return (p_o - p_e) / (1 - p_e)


def summarize(rows: list[dict]) -> dict:
    """Metrics of one judge over ``rows`` (dicts with ``truth``, ``answer``, ``seconds``)."""
    n = len(rows)
    decided = [r for r in rows if r["answer"] != "withheld"]
    as_wrong = [r["answer"] if r["answer"] != "withheld" else ("no" if r["truth"] == "yes" else "yes") for r in rows]
    truth = [r["truth"] for r in rows]
    kappa = cohen_kappa(truth, as_wrong)
    kappa_decided = cohen_kappa([r["truth"] for r in decided], [r["answer"] for r in decided])
    return {
        "n": n,
        "coverage": len(decided) / n if n else None,
        "agreement": sum(t == a for t, a in zip(truth, as_wrong)) / n if n else None,
        "kappa": kappa,
        "kappa_decided": kappa_decided,
        "false_yes": sum(r["answer"] == "yes" and r["truth"] == "no" for r in rows),
        "false_no": sum(r["answer"] == "no" and r["truth"] == "yes" for r in rows),
        "withheld": n - len(decided),
        "seconds_per_check": sum(r["seconds"] for r in rows) / n if n else None,
    }


def keyword_check(cid: str, question: str) -> Check:
    """The check as the former importer built it (keyword rules, expectations only)."""
    return Check(cid, question, expects=tuple(TextExpectation(t, r) for t, r in layout_strings(question)))


def run(split: str, n_docs: int, out: Path | None = None) -> dict:
    """Judge the fidelity set's ``split`` (``n_docs`` documents) with both judges; the report."""
    judge = OCRJudge()
    rows: dict[str, list[dict]] = {"ocr": [], "ocr-keywords": []}
    verdict_lines = []
    for seed in tqdm(split_seeds(split, n_docs), desc=f"fidelity {split}", file=sys.stderr):
        doc = make_document(seed)
        t0 = time.perf_counter()
        lines = judge.read(doc.image)
        read_s = (time.perf_counter() - t0) / max(1, len(doc.questions))
        for q in doc.questions:
            spec = compile_question(q.question)
            checks = {
                "ocr": Check(q.id, q.question, tag=q.qtype, expects=expectations_of(spec), spec=spec),
                "ocr-keywords": keyword_check(q.id, q.question),
            }
            for name, check in checks.items():
                t1 = time.perf_counter()
                v = judge.judge_lines(lines, doc.image.size, check, doc.image)
                seconds = read_s + time.perf_counter() - t1
                rows[name].append({"qtype": q.qtype, "truth": q.answer, "answer": v.answer, "seconds": seconds})
                verdict_lines.append(
                    {
                        "judge": name,
                        "doc": doc.id,
                        "check": q.id,
                        "qtype": q.qtype,
                        "question": q.question,
                        "truth": q.answer,
                        "answer": v.answer,
                        "reason": v.reason,
                        "evidence": v.evidence,
                    }
                )
    report = {"split": split, "n_docs": n_docs, "judges": {}}
    for name, rs in rows.items():
        report["judges"][name] = {
            "all": summarize(rs),
            "by_type": {
                t: summarize([r for r in rs if r["qtype"] == t]) for t in QTYPES if any(r["qtype"] == t for r in rs)
            },
        }
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "judge_bench.json").write_text(json.dumps(report, indent=2))
        with open(out / "verdicts.jsonl", "w") as f:
            for line in verdict_lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
    return report


def _fmt(x, digits=3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def print_report(report: dict) -> None:
    """The per-judge, per-type table, then one ``kappa <value>`` line per judge."""
    head = (
        f"{'judge':<13} {'type':<9} {'n':>4} {'cover':>6} {'agree':>6} {'kappa':>6} {'k_dec':>6} "
        f"{'f_yes':>5} {'f_no':>5} {'s/chk':>6}"
    )
    print(f"fidelity set, split {report['split']}, {report['n_docs']} documents (withheld counted as a wrong answer)")
    print(head)
    for name, res in report["judges"].items():
        for t, m in [*res["by_type"].items(), ("ALL", res["all"])]:
            print(
                f"{name:<13} {t:<9} {m['n']:>4} {_fmt(m['coverage'], 2):>6} {_fmt(m['agreement'], 2):>6} "
                f"{_fmt(m['kappa']):>6} {_fmt(m['kappa_decided']):>6} {m['false_yes']:>5} {m['false_no']:>5} "
                f"{_fmt(m['seconds_per_check'], 3):>6}"
            )
    for name, res in report["judges"].items():
        print(f"kappa {_fmt(res['all']['kappa'])} judge={name} split={report['split']}")


def markdown_table(report: dict, judge: str = "ocr", baseline: str = "ocr-keywords") -> str:
    """The per-type table of ``judge`` as Markdown (the README's fidelity table), with the
    baseline judge's coverage and kappa in the last two columns."""
    lines = [
        f"| type | n | coverage | agreement | kappa | k_dec | false yes | false no | s/check "
        f"| {baseline}: coverage | kappa |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    res, base = report["judges"][judge], report["judges"].get(baseline, {"by_type": {}, "all": None})
    for t, m in [*res["by_type"].items(), ("all", res["all"])]:
        b = base["by_type"].get(t) if t != "all" else base["all"]
        lines.append(
            f"| {t} | {m['n']} | {_fmt(m['coverage'], 2)} | {_fmt(m['agreement'], 2)} | {_fmt(m['kappa'])} | "
            f"{_fmt(m['kappa_decided'])} | {m['false_yes']} | {m['false_no']} | {_fmt(m['seconds_per_check'], 2)} | "
            f"{_fmt(b['coverage'] if b else None, 2)} | {_fmt(b['kappa'] if b else None)} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Console entry point; option errors exit 2 (argparse)."""
    p = argparse.ArgumentParser(prog="rubricloop-judge-bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--split", choices=("dev", "test"), default="test", help="fidelity split (default: test)")
    p.add_argument("--docs", type=int, default=24, help="documents in the split (default 24)")
    p.add_argument("--out", type=Path, default=None, help="folder for judge_bench.json and verdicts.jsonl")
    p.add_argument("--markdown", action="store_true", help="also print the ocr judge's per-type table as Markdown")
    args = p.parse_args(argv)
    if args.docs < 1:
        p.error("--docs must be >= 1")
    report = run(args.split, args.docs, args.out)
    print_report(report)
    if args.markdown:
        print(markdown_table(report))
    return 0


def console() -> None:
    """Console entry point (``rewards.common.task``): ``main``'s status is the exit status."""
    run_console_script(main)


if __name__ == "__main__":
    console()
