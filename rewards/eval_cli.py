"""``rubricloop-eval``: score a folder of per-image judge results, as the official scorers do.

    rubricloop-eval benchmark=bizgeneval data=bizgeneval.jsonl results=eval_results/ out=summary/
    rubricloop-eval benchmark=genexam data=All_Subjects.jsonl results=eval_results/ out=summary/

BizGenEval writes ``summary_by_domain.csv`` and ``summary_by_dimension.csv`` (byte-identical to
microsoft/BizGenEval ``evaluation/summarize.py`` on the same files) and ``scores.json``; GenExam
writes ``scores.json``. Result-file formats: :mod:`rewards.scorers.bizgeneval_results` and
:mod:`rewards.scorers.genexam_results`.

Exit status: 0 when every data row and every existing result file was read; 1 when any was bad
(one ``error:`` line each on stderr; the others are still scored and written), or when no item
has a result file; 2 when ``data``, ``results`` or ``out`` is not given or not usable (``results``
not a folder, ``out`` a file), ``alpha`` is not in (0, 1], ``benchmark`` is unknown, or the data
file cannot be read.
Items without a result file are not scored (as in the official scorers) and are counted in
``scores.json``, not errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import hydra
from omegaconf import DictConfig, OmegaConf

from rewards.importers import load_items
from rewards.rubric import RubricError
from rewards.scorers.bizgeneval import score_bizgeneval
from rewards.scorers.bizgeneval_results import read_result_file, result_filename, write_summary_csvs
from rewards.scorers.genexam import genexam_item, score_genexam
from rewards.scorers.genexam_results import read_genexam_result

UNSCORED_FILE_PROBLEMS = {
    "unreadable": "result file is not readable JSON",
    "malformed": "result file is not a JSON object with an object 'meta_info'",
    "empty": "result file has no answers ('meta_info' is empty)",
}


def eval_bizgeneval(data: Path, results: Path, out: Path, alpha: float) -> tuple[dict[str, Any], list[str]]:
    """Score BizGenEval result files like the official summarize; write the two CSVs.

    Returns:
        (scores, errors): the ``scores.json`` object, and one error line per bad data row or
        bad result file.

    Raises:
        RubricError: when ``data`` cannot be read.
    """
    items, data_errors = load_items(data)
    file_errors = []
    scored, unscored = [], {"missing": [], "unreadable": [], "malformed": [], "empty": []}
    for item in items:
        status, verdicts = read_result_file(results, item)
        if status == "ok":
            scored.append((item, verdicts))
            continue
        unscored[status].append(item.id)
        if status != "missing":
            file_errors.append(f"{results / result_filename(item)} (item {item.id}): {UNSCORED_FILE_PROBLEMS[status]}; not scored")
    scores = score_bizgeneval(scored, alpha=alpha)
    write_summary_csvs(scores, out)
    subsets = scores["subsets"]
    summary = {
        "benchmark": "bizgeneval",
        "data": str(data),
        "results": str(results),
        # The next seven keys mean what they mean in the official summary.json.
        "total_items": len(items),
        "total_scored": subsets["all"]["count"],
        "easy_scored": subsets["easy"]["count"],
        "hard_scored": subsets["hard"]["count"],
        "error_alpha": alpha,
        "by_domain": subsets["all"]["by_domain"],
        "by_dimension": subsets["all"]["by_dimension"],
        "not_scored": unscored,
        "data_errors": data_errors,
        "coverage": scores["coverage"],
        "subsets": subsets,
    }
    return summary, data_errors + file_errors


def eval_genexam(data: Path, results: Path, out: Path, alpha: float) -> tuple[dict[str, Any], list[str]]:
    """Score GenExam eval-result files (``<results>/<id>.json``) with :func:`score_genexam`.

    ``alpha`` is unused (the signature is shared with :func:`eval_bizgeneval`).

    Returns:
        (scores, errors) as :func:`eval_bizgeneval`.

    Raises:
        RubricError: when ``data`` cannot be read.
    """
    items, errors = load_items(data)
    scored, ratings, missing = [], {}, []
    for item in items:
        try:
            found = read_genexam_result(results, item)
            if found is None:
                missing.append(item.id)
                continue
            genexam_item(item, *found)  # bad weights or ratings: this item only, not the run
        except ValueError as e:
            errors.append(str(e))
            continue
        verdicts, ratings[item.id] = found
        scored.append((item, verdicts))
    scores = score_genexam(scored, ratings)
    summary = {"benchmark": "genexam", "data": str(data), "results": str(results), "total_items": len(items),
               "not_scored": {"missing": missing}, "scores": scores}
    return summary, errors


BENCHMARKS = {"bizgeneval": eval_bizgeneval, "genexam": eval_genexam}


def expected_result_name(benchmark: str, data: Path, item_id: str) -> str:
    """The result file name the scorer looks for, for one item of ``data`` (for error messages)."""
    if benchmark != "bizgeneval":
        return f"{item_id}.json"
    items, _ = load_items(data)
    return result_filename(next(it for it in items if it.id == item_id))


def run(cfg: DictConfig) -> int:
    """Score, write ``<out>/scores.json``, print a short report; returns the exit status."""
    if cfg.benchmark not in BENCHMARKS:
        print(f"error: benchmark={cfg.benchmark!r} is not one of {sorted(BENCHMARKS)}", file=sys.stderr)
        return 2
    missing = [k for k in ("data", "results", "out") if OmegaConf.is_missing(cfg, k)]
    if missing:
        print(f"error: missing required argument(s): {' '.join(f'{k}=...' for k in missing)}", file=sys.stderr)
        return 2
    data, results, out = Path(cfg.data), Path(cfg.results), Path(cfg.out)
    alpha = cfg.alpha
    problems = []
    if not isinstance(alpha, (int, float)) or isinstance(alpha, bool) or not 0 < alpha <= 1:
        problems.append(f"alpha must be a number in (0, 1], got {alpha!r}")
    if not results.is_dir():
        problems.append(f"results={results} is not a folder of result files")
    if out.exists() and not out.is_dir():
        problems.append(f"out={out} exists and is not a folder")
    if problems:
        print(f"error: {'; '.join(problems)}", file=sys.stderr)
        return 2
    try:
        summary, errors = BENCHMARKS[cfg.benchmark](data, results, out, float(alpha))
    except RubricError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    (out / "scores.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    n_missing = len(summary["not_scored"]["missing"])
    print(f"{cfg.benchmark}: {summary['total_items']} items read, {n_missing} without a result file, "
          f"{len(errors)} errors; wrote {out}")
    if summary["total_items"] and n_missing == summary["total_items"]:
        expected = summary["not_scored"]["missing"][0]
        print(f"error: no result file in {results} matches an item of {data} (wrong folder? item {expected} "
              f"expects {results / expected_result_name(cfg.benchmark, data, expected)})", file=sys.stderr)
        return 1
    return 1 if errors else 0


@hydra.main(config_path="pkg://conf", config_name="eval", version_base="1.3")
def main(cfg: DictConfig) -> None:
    code = run(cfg)
    if code:
        sys.exit(code)


if __name__ == "__main__":
    main()
