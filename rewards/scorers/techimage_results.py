"""TechImage-Bench / ProImage-Bench ``results.json``, in the official format, read, scored and written.

Format of kodenii/ProImage-Bench (``judger.py`` writes, ``eval.py`` collects, ``calc_metrics.py``
reads; read at commit 0c6bb8e): ``<results_dir>/results.json`` is a list (or ``{"results":
[...]}``, or one object) of entries, two per task::

    {"task_id": "bio_12", "image_path": "...", "rubrics": [{"Criterion A": [1, 0, 1]}, ...]}
    {"task_id": "bio_12_general", ..., "rubrics": [{"Clarity": [1, 1]}, ...]}

:func:`score_results_file` computes what ``calc_metrics.py`` prints for every mode (all, bio,
engineering, general): entries are filtered by prefix, ``<task>_general`` is merged into
``<task>``, then Acc = points scored 1 / points and Score = mean over criteria of 0.5 ** (points
scored 0). Where ``calc_metrics.py`` silently skips (a criterion object that is not an object,
scores that are not a list) or would crash (an entry that is not an object), we skip the same
way and add one error line naming the file and the task.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping

from rewards.rubric import Check, Criterion, Item, Rubric, RubricError, Verdict
from rewards.scorers.techimage import DOMAINS, with_general

RESULTS_FILE = "results.json"


def base_task_id(task_id: str) -> str:
    """``bio_12_general`` -> ``bio_12`` (``get_base_task_id``)."""
    return re.sub(r"_general$", "", task_id)


def read_entries(results_dir: str | Path) -> tuple[list[Any], Path]:
    """The entries of ``<results_dir>/results.json`` as ``calc_metrics.py`` unwraps them.

    Raises:
        RubricError: naming the file, when it is missing or not readable JSON.
    """
    path = Path(results_dir) / RESULTS_FILE
    if not path.is_file():
        raise RubricError(f"{path}: no such results file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RubricError(f"{path}: not readable JSON ({e})") from None
    if isinstance(data, dict) and "results" in data:
        return data["results"], path
    return (data if isinstance(data, list) else [data]), path


def score_entries(
    entries: list[Any], path: Path | str = RESULTS_FILE, mode: str = "all"
) -> tuple[dict[str, Any], list[str]]:
    """One ``calc_metrics.py`` mode over result entries.

    Returns:
        ``({"mode", "Acc", "Score", "rubric_total", "rubric_ones", "rubric_zeros",
        "criteria_total", "base_task_total", "tasks": {base id: {"points", "ones", "zeros",
        "criteria", "score_sum"}}}, errors)``: Acc and Score in [0, 1] (0.0 without points or
        criteria, as the official code). ``tasks`` holds per-task sums for paired comparisons.
    """
    prefix = None if mode == "all" else DOMAINS[mode]
    errors, merged = [], {}
    for k, entry in enumerate(entries):
        if not isinstance(entry, dict):
            errors.append(f"{path}: entry {k} is not an object; skipped")
            continue
        task_id = str(entry.get("task_id", ""))
        if prefix is not None and not task_id.startswith(prefix):
            continue
        rubrics = entry.get("rubrics", [])
        if not isinstance(rubrics, list):
            errors.append(f"{path} (task {task_id}): field 'rubrics' is not a list; skipped")
            rubrics = []
        merged.setdefault(base_task_id(task_id), []).extend((task_id, c) for c in rubrics)
    tasks = {}
    for base, crits in merged.items():
        t = tasks[base] = {"points": 0, "ones": 0, "zeros": 0, "criteria": 0, "score_sum": 0.0}
        for task_id, crit in crits:
            if not isinstance(crit, dict):
                errors.append(f"{path} (task {task_id}): a rubric entry is not an object; skipped")
                continue
            for name, scores in crit.items():
                if not isinstance(scores, list):
                    errors.append(f"{path} (task {task_id}): criterion {name!r} scores are not a list; skipped")
                    continue
                zeros = sum(1 for s in scores if s == 0)
                t["points"] += len(scores)
                t["ones"] += sum(1 for s in scores if s == 1)
                t["zeros"] += zeros
                t["criteria"] += 1
                t["score_sum"] += 0.5**zeros
    total = {key: sum(t[key] for t in tasks.values()) for key in ("points", "ones", "zeros", "criteria", "score_sum")}
    return {
        "mode": mode,
        "Acc": total["ones"] / total["points"] if total["points"] else 0.0,
        "Score": total["score_sum"] / total["criteria"] if total["criteria"] else 0.0,
        "rubric_total": total["points"],
        "rubric_ones": total["ones"],
        "rubric_zeros": total["zeros"],
        "criteria_total": total["criteria"],
        "base_task_total": len(tasks),
        "tasks": tasks,
    }, errors


def score_results_file(results_dir: str | Path) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Every ``calc_metrics.py`` mode over ``<results_dir>/results.json``.

    Returns:
        ``({"all": ..., "bio": ..., "engineering": ..., "general": ...}, errors)`` (see
        :func:`score_entries`); a domain without tasks is left out. Errors are reported once.

    Raises:
        RubricError: see :func:`read_entries`.
    """
    entries, path = read_entries(results_dir)
    scores, errors = {}, []
    for mode in ("all", *DOMAINS):
        s, errs = score_entries(entries, path, mode)
        if mode == "all":
            errors = errs
        if mode == "all" or s["base_task_total"]:
            scores[mode] = s
    return scores, errors


def _score_value(v: Verdict | None) -> int | None:
    if v is None or v.answer == "withheld":
        return None  # counted as a point, but neither 1 nor 0 (not a failed point for Score)
    return int(v.answer == "yes")


def result_entries(item: Item, verdicts: Mapping[str, Verdict], image_path: str) -> list[dict[str, Any]]:
    """The two official entries of one task: its own criteria, then ``<task>_general``.

    Criteria whose checks come from :func:`rewards.scorers.techimage.with_general` (ids
    ``general.*``) go to the general entry. "yes" -> 1, "no" -> 0, withheld or missing -> null.
    """
    own, general = [], []
    for crit in item.rubric.criteria:
        target = general if crit.checks and crit.checks[0].id.startswith("general.") else own
        target.append({crit.name: [_score_value(verdicts.get(c.id)) for c in crit.checks]})
    common = {"detailed_description": item.prompt, "image_path": image_path}
    return [
        {"task_id": item.id, **common, "rubrics": own},
        {"task_id": f"{item.id}_general", **common, "rubrics": general},
    ]


def upsert_results(results_dir: str | Path, entries: list[dict[str, Any]]) -> Path:
    """Insert or replace entries by ``task_id`` in ``results.json``, sorted by task id (as ``eval.py``)."""
    path = Path(results_dir) / RESULTS_FILE
    existing = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    by_id = {e.get("task_id", ""): e for e in existing if isinstance(e, dict)}
    by_id.update({e["task_id"]: e for e in entries})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(
        json.dumps(sorted(by_id.values(), key=lambda e: e.get("task_id", "")), indent=2, ensure_ascii=False),
        encoding="utf-8",
    )
    tmp.replace(path)
    return path


GENERAL_TASK_ID = "general_rubric"
"""The task id of the shared general rubric in ``ProImageBench.json`` (excluded from tasks)."""


def _rubric(rubrics: Any, where: str) -> Rubric:
    if not isinstance(rubrics, list):
        raise RubricError(f"{where}: field 'rubrics' must be a list of {{criterion: [checks]}} objects")
    criteria = []
    for crit in rubrics:
        if not crit:
            continue
        if not isinstance(crit, dict) or len(crit) != 1:
            raise RubricError(f"{where}: each rubric entry must be one {{criterion: [checks]}} object")
        ((name, points),) = crit.items()
        if not isinstance(points, list) or not all(isinstance(q, str) for q in points):
            raise RubricError(f"{where}: criterion {name!r} must list its checks as strings")
        prefix = re.sub(r"[^A-Za-z0-9]+", "_", str(name))[:40]
        criteria.append(
            Criterion(str(name), tuple(Check(f"{len(criteria)}.{k}.{prefix}", q) for k, q in enumerate(points)))
        )
    return Rubric(tuple(criteria))


def techimage_items(path: str | Path) -> tuple[list[Item], list[str]]:
    """Tasks of a ``ProImageBench.json`` (a list of ``{"task_id", "detailed_description",
    "image_path", "rubrics"}``), each with the shared ``general_rubric`` merged in
    (:func:`rewards.scorers.techimage.with_general`), as ``judger.py`` judges them.

    Returns:
        (items, errors): one error line per bad task (named by file and task id).

    Raises:
        RubricError: naming the file, when it is not readable JSON or not a list.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RubricError(f"{path}: not readable JSON ({e})") from None
    if not isinstance(data, list):
        raise RubricError(f"{path}: ProImageBench.json must be a list of tasks")
    general = Rubric(())
    items, errors = [], []
    for row in data:
        if isinstance(row, dict) and row.get("task_id") == GENERAL_TASK_ID:
            general = _rubric(row.get("rubrics", []), f"{path} (task {GENERAL_TASK_ID})")
    for k, row in enumerate(data):
        if not isinstance(row, dict) or not isinstance(row.get("task_id"), str):
            errors.append(f"{path}: entry {k} is not a task object with a string 'task_id'")
            continue
        if row["task_id"] == GENERAL_TASK_ID:
            continue
        try:
            rubric = _rubric(row.get("rubrics", []), f"{path} (task {row['task_id']})")
        except RubricError as e:
            errors.append(str(e))
            continue
        item = Item(
            row["task_id"],
            str(row.get("detailed_description", "")),
            rubric,
            source="techimage",
            meta={"image_path": row.get("image_path", "")},
        )
        items.append(with_general(item, general))
    return items, errors
