"""Score one benchmark's official result files: the ``score`` step of ``rubricloop-eval``.

Each ``score_<benchmark>(data, results, alpha, only=None, limit=None)`` (``only``: score just
these item ids, e.g. the items of a generated run; ``limit``: read only the first that many
items of ``data``, as the run did) returns ``(summary, errors)``: the
``scores.json`` object (full precision, with coverage and not-scored / withheld counts, and a
``per_item`` list used by ``rubricloop-eval compare``) and one error line per bad row or file.
Formats and formulas: :mod:`rewards.scorers`.

``per_item`` entries are ``{"id", "groups": {grouping: value}, "metrics": {metric: float}}``;
metrics are per-item values whose mean over items the paper reports (or, for pooled metrics,
the item's own share).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rewards.common.run_folder import write_json
from rewards.importers import load_items
from rewards.rubric import Item, RubricError
from rewards.scorers.bizgeneval import score_bizgeneval
from rewards.scorers.bizgeneval_results import (
    read_result_file,
    result_filename,
    result_name_problems,
    write_summary_csvs,
)
from rewards.scorers.genexam import genexam_item, score_genexam, score_genolympiad
from rewards.scorers.genexam_results import read_genexam_result
from rewards.scorers.igenbench import score_igenbench_questions
from rewards.scorers.igenbench_results import read_igenbench_results
from rewards.scorers.servimage_results import score_servimage_folder
from rewards.scorers.techimage import domain_of
from rewards.scorers.techimage_results import score_results_file
from rewards.scorers.verdict_results import read_verdicts

RUN_FILE = "run.json"
"""In an eval ``out`` (and each shard folder): the settings a rerun must share."""
SHARD_FILE = "shard.json"
"""In a shard folder: ``{"shard": "i/n", "items": [the ids it took]}``, read by ``merge``."""

UNSCORED_FILE_PROBLEMS = {
    "unreadable": "result file is not readable JSON",
    "malformed": "result file is not a JSON object with an object 'meta_info'",
    "empty": "result file has no answers ('meta_info' is empty)",
}


def _load(data: Path, only: set[str] | None, limit: int | None = None) -> tuple[list[Item], list[str]]:
    items, errors = load_items(data, limit)
    return [it for it in items if only is None or it.id in only], errors


def score_bizgeneval_results(
    data: Path, results: Path, alpha: float, only: set[str] | None = None, limit: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Score BizGenEval result files like the official summarize.

    Raises:
        RubricError: when ``data`` cannot be read.
    """
    items, data_errors = load_items(data, limit)
    refused = result_name_problems(items, results)  # over every row read, as the run that wrote the files
    items = [it for it in items if only is None or it.id in only]
    file_errors = []
    scored, unscored = [], {"missing": [], "unreadable": [], "malformed": [], "empty": [], "refused": []}
    for item in items:
        if item.id in refused:
            unscored["refused"].append(item.id)
            file_errors.append(refused[item.id])
            continue
        status, verdicts = read_result_file(results, item)
        if status == "ok":
            scored.append((item, verdicts))
            continue
        unscored[status].append(item.id)
        if status != "missing":
            file_errors.append(
                f"{results / result_filename(item)} (item {item.id}): {UNSCORED_FILE_PROBLEMS[status]}; not scored"
            )
    scores = score_bizgeneval(scored, alpha=alpha)
    subsets = scores["subsets"]
    per_item: dict[str, dict[str, Any]] = {}
    for subset in ("easy", "hard", "all"):
        for r in subsets[subset]["items"]:
            entry = per_item.setdefault(
                r["id"], {"id": r["id"], "groups": {"domain": r["domain"], "dimension": r["dimension"]}, "metrics": {}}
            )
            entry["metrics"][subset] = r["error_score"]
            if subset == "all":  # share of questions answered True: informative where the penalty floors at 0
                entry["metrics"]["accuracy"] = r["accuracy"]
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
        "per_item": list(per_item.values()),
    }
    return summary, data_errors + file_errors


def score_genexam_results(
    data: Path, results: Path, alpha: float, only: set[str] | None = None, limit: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Score GenExam eval-result files (``<results>/<id>.json``) like ``cal_score.py``.

    A file without ``global_evaluation`` or an ``answer`` is an error line naming it, and is
    not scored (``cal_score.py`` would stop there). ``alpha`` is unused.
    """
    items, errors = _load(data, only, limit)
    scored, ratings, missing, bad = [], {}, [], []
    for item in items:
        try:
            found = read_genexam_result(results, item)
            if found is None:
                missing.append(item.id)
                continue
            genexam_item(item, *found)  # bad weights or ratings: this item only, not the run
        except ValueError as e:
            errors.append(str(e))
            bad.append(item.id)
            continue
        verdicts, ratings[item.id] = found
        scored.append((item, verdicts))
    scores = score_genexam(scored, ratings)
    per_item = [
        {
            "id": r["id"],
            "groups": {"subject": r["subject"]},
            "metrics": {
                "strict": 100.0 * r["strict"],
                "relaxed": 100.0 * r["relaxed"],
                "semantic": 100.0 * r["semantic"],
            },
        }
        for r in scores["items"]
    ]
    summary = {
        "benchmark": "genexam",
        "data": str(data),
        "results": str(results),
        "total_items": len(items),
        "total_scored": len(scored),
        "not_scored": {"missing": missing, "bad_file": bad},
        "coverage": scores["coverage"],
        "scores": scores,
        "per_item": per_item,
    }
    return summary, errors


def score_igenbench_results(
    data: Path | None, results: Path, alpha: float, only: set[str] | None = None, limit: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Score IGenBench ``<results>/*/*.json`` like ``score_cli.py``, per (gen_model, eval_model).

    ``data`` and ``alpha`` are unused (the result files carry their questions).
    """
    per_pair, errors = read_igenbench_results(results)
    models, per_item = [], []
    for (gm, em), questions in sorted(per_pair.items()):
        s = score_igenbench_questions(questions)
        models.append({"gen_model": gm, "eval_model": em, "scores": s})
        by_image: dict[str, list] = {}
        for q in questions:
            by_image.setdefault(q.image, []).append(q)
        for image, qs in by_image.items():
            judged = sum(len(q.answers) for q in qs)
            if judged:
                correct = sum(str(a) == "1" for q in qs for a in q.answers)
                per_item.append(
                    {"id": image, "groups": {"model": f"{gm} / {em}"}, "metrics": {"q_acc": correct / judged}}
                )
    summary = {
        "benchmark": "igenbench",
        "results": str(results),
        "models": models,
        "file_errors": len(errors),
        "coverage": {
            "questions": sum(m["scores"]["questions"] for m in models),
            "judged_questions": sum(m["scores"]["questions"] - m["scores"]["unjudged"] for m in models),
            "unjudged": sum(m["scores"]["unjudged"] for m in models),
            "i_acc_withheld": sum(m["scores"]["i_acc_withheld"] for m in models),
        },
        "per_item": per_item,
    }
    return summary, errors


def score_techimage_results(
    data: Path | None, results: Path, alpha: float, only: set[str] | None = None, limit: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Score ``<results>/results.json`` like ``calc_metrics.py`` in every mode (all, bio, engineering, general).

    Raises:
        RubricError: ``results.json`` is missing or not JSON.
    """
    modes, errors = score_results_file(results)
    tasks = modes["all"].pop("tasks")
    for m in modes.values():
        m.pop("tasks", None)
    per_item = [
        {
            "id": tid,
            "groups": {"domain": domain_of(tid) or "other"},
            "metrics": {
                "Acc": t["ones"] / t["points"] if t["points"] else 0.0,
                "Score": t["score_sum"] / t["criteria"] if t["criteria"] else 0.0,
            },
        }
        for tid, t in sorted(tasks.items())
    ]
    total = modes["all"]
    summary = {
        "benchmark": "techimage",
        "results": str(results),
        "scores": modes,
        "coverage": {
            "points": total["rubric_total"],
            "judged_points": total["rubric_ones"] + total["rubric_zeros"],
            "unjudged_points": total["rubric_total"] - total["rubric_ones"] - total["rubric_zeros"],
        },
        "per_item": per_item,
    }
    return summary, errors


def score_genolympiad_results(
    data: Path, results: Path, alpha: float, only: set[str] | None = None, limit: int | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Score GenOlympiad-style rubric rows (gates, weights) from per-item verdict files."""
    items, errors = _load(data, only, limit)
    scored, missing = [], []
    for item in items:
        try:
            verdicts = read_verdicts(results, item)
        except RubricError as e:
            errors.append(str(e))
            continue
        if verdicts is None:
            missing.append(item.id)
        else:
            scored.append((item, verdicts))
    try:
        scores = score_genolympiad(scored)
    except ValueError as e:
        raise RubricError(str(e)) from None
    per_item = [
        {"id": t["id"], "groups": {}, "metrics": {"strict": t["strict"], "relaxed": t["relaxed"]}}
        for t in scores["tasks"]
        if t["outcome"] != "withheld"
    ]
    summary = {
        "benchmark": "genolympiad",
        "data": str(data),
        "results": str(results),
        "total_items": len(items),
        "not_scored": {"missing": missing},
        "withheld": scores["counts"]["withheld"],
        "coverage": scores["coverage"],
        "scores": scores,
        "per_item": per_item,
    }
    return summary, errors


def score_servimage_results(
    data: Path,
    results: Path,
    alpha: float,
    only: set[str] | None = None,
    limit: int | None = None,
    models: list[str] | None = None,
    exclude: list[str] = (),
) -> tuple[dict[str, Any], list[str]]:
    """Score ServImage payment labels (``<results>/<model>_annotations.jsonl``) against the tasks
    of ``data`` (``ServImage_Bench/``): earnings, share, acceptance and success per model,
    category and creation / editing, the competition, cost savings
    (:mod:`rewards.scorers.servimage_results`). ``alpha``, ``only`` and ``limit`` are unused
    (results are scored, never generated); ``models`` / ``exclude``: the label files to score
    (``score_servimage_folder``; None / () = all).

    Raises:
        RubricError: ``data`` has no readable task files, or the selection names no model of the results.
    """
    return score_servimage_folder(data, results, models=models, exclude=exclude)


SCORERS = {
    "bizgeneval": score_bizgeneval_results,
    "genexam": score_genexam_results,
    "igenbench": score_igenbench_results,
    "techimage": score_techimage_results,
    "genolympiad": score_genolympiad_results,
    "servimage": score_servimage_results,
}
"""benchmark -> its scoring function."""

NEEDS_DATA = {"bizgeneval", "genexam", "genolympiad", "servimage"}
"""Benchmarks whose result files do not carry the rubric: ``data`` is required to score them."""


def write_outputs(benchmark: str, summary: dict[str, Any], out: Path) -> None:
    """The benchmark's official summary files (BizGenEval CSVs) and every table as CSV + Markdown."""
    from evaluation.tables import write_tables

    if benchmark == "bizgeneval":
        write_summary_csvs({"subsets": summary["subsets"]}, out)
    write_tables(benchmark, summary, out, csv_too=benchmark != "bizgeneval")


def score_and_write(
    benchmark: str,
    data: Path | None,
    results: Path,
    out: Path,
    alpha: float,
    only: set[str] | None = None,
    limit: int | None = None,
    **options: Any,
) -> tuple[dict[str, Any], list[str]]:
    """Score ``results`` (only the item ids in ``only``, when given; only the first ``limit``
    items of ``data``), write ``scores.json`` (atomically) and the tables into ``out``.
    ``options``: the benchmark scorer's own keyword arguments (ServImage: ``models``, ``exclude``).

    Raises:
        RubricError: the data (or TechImage ``results.json``) cannot be read.
    """
    summary, errors = SCORERS[benchmark](data, results, alpha, only, limit, **options)
    out.mkdir(parents=True, exist_ok=True)
    write_outputs(benchmark, summary, out)
    write_json(out / "scores.json", summary)
    return summary, errors


def expected_result_name(benchmark: str, items: list[Item], item_id: str) -> str:
    """The result file name the scorer looks for, for one item (for error messages)."""
    if benchmark != "bizgeneval":
        return f"{item_id}.json"
    return result_filename(next(it for it in items if it.id == item_id))
