"""ServImage task files and payment-label files, in the official format, read and scored.

Format of mllmagent-jpg/ServImage (read at commit 4772db7; the repository has no scoring code,
so the scores are :mod:`rewards.scorers.servimage`, from the paper's formulas):

- Tasks (``data``): ``ServImage_Bench/C-<Category>/<Category>.json``, a JSON list of tasks::

      {"task_id": "portrait-010", "task_category": "C-Portrait",
       "original_task_data": {"output_quantity": 1, "price_usd": 51.25, ...}, ...}

  ``output_quantity`` is Q(t), ``price_usd`` is Price(t). ``data`` is that folder (every
  ``*.json`` in it and in its ``C-*`` subfolders) or one such file.
- Editing vs creation (the paper, §3: "editing if its brief includes at least one input image",
  25.2% of the 1,070 tasks): a task is editing when it is a Portrait task or has an image in
  ``C-<Category>/inputs/task_<n>/`` (n = the number in the task id, with or without leading
  zeros), else creation. Why: no field of the task records lists the brief's images
  (``original_task_data.input_assets_original`` is empty in all 76 Portrait and Product records
  we read at 4772db7, ``C-Digital`` has no such field); each of the 63 Portrait briefs we read
  asks to change the client's photo ("Modify the ID photo ...", "将照片风格改为 ..."), and
  ``inputs/`` (the client's source photos, the paper's src_t) exists only under ``C-Portrait``,
  for 98 of its 271 tasks (the others are not published). This gives 271 / 1,070 = 25.3%
  editing on the official data (paper 25.2%, i.e. 270). ``refs/task_<n>/`` holds reference
  material (the paper's refs_t: logos, exemplar images), which does not make a task editing:
  counting it too gives about 37%, ``inputs/`` alone 98 / 1,070 = 9.2%.
- Payment labels (``results``): a folder of ``<model>_annotations.jsonl`` files
  (``main_result/`` in the repository), one row per deliverable::

      {"model": "gemini-banana-pro", "task_id": "product-003", "category": "C-Product",
       "subtask_idx": 1, "subtask_name": "subtask_2", "label": 1}

  ``label`` is the human payment decision S_{t,i} (0 / 1; true / false accepted), ``subtask_idx``
  the deliverable's index i (0 <= i < Q(t)). The model is the row's ``model``, else the file name
  without ``_annotations``. Optional per row (ours; the official files have none): ``brf``, ``veq``,
  ``cns`` in [0, 5], the ServImageScore used to break competition ties; without them every tie
  is split (counted in the competition's ``split_ties``).
- Model selection: ``models`` (only these) and ``exclude`` (all but these), by model name.
  ``main_result/`` at 4772db7 has 18 files for the paper's 16 models: Midjourney's two modes
  come twice, ``mj-relax-edits_1`` / ``_4`` and ``mj-relax-imagine_1`` / ``_4``. The paper's
  Table 2 uses ``mj-relax-imagine_1`` (its Portrait share 57.678% is the paper's 57.7%,
  ``_4`` gives 13.7%); ``mj-relax-edits_1`` by analogy, not checked. So the paper's 16 models:
  ``exclude=[mj-relax-edits_4, mj-relax-imagine_4]``.
- API costs (optional, ours): ``<results>/api_costs.json``, ``{model: USD}`` (Cost_API over the
  scored tasks) or ``{model: {"per_image": USD}}`` (times the deliverables the model handed in);
  with it, each such model gets the cost savings and contribution ratio.

A bad task (no price, Q(t) < 1, unknown category, no id, a repeated id) or a bad row (label not
0/1, more deliverables than Q(t), a task or category the data does not have, a repeated
deliverable) is one error line naming the file, the task or row and the field; it is not scored
and everything else is.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from rewards.rubric import RubricError
from rewards.scorers.servimage import CATEGORIES, Submission, Task, competition, score_model

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif", ".tif", ".tiff"}
SOURCE_FOLDER = "inputs"
"""Per-category folder holding each task's source images to edit (``inputs/task_<n>/``)."""
EDITING_CATEGORIES = ("Portrait",)
"""Categories whose every task edits the client's photo (see the module docstring)."""
EDITING_RULE = "Portrait task or an image in C-<Category>/inputs/task_<n>/ (official data: 271 / 1070 = 25.3%)"
COSTS_FILE = "api_costs.json"
SCORE_FIELDS = ("brf", "veq", "cns")


def _category(value: Any) -> str | None:
    """``C-Portrait`` or ``Portrait`` -> ``Portrait``; None for anything else."""
    if not isinstance(value, str):
        return None
    name = value.removeprefix("C-")
    return name if name in CATEGORIES else None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _tasks_with_inputs(folder: Path) -> set[int]:
    """Task numbers n with at least one image under ``folder/inputs/task_<n>/``."""
    found = set()
    sources = folder / SOURCE_FOLDER
    for d in sorted(sources.glob("task_*")) if sources.is_dir() else []:
        m = re.fullmatch(r"task_(\d+)", d.name)
        if m and d.is_dir() and any(f.suffix.lower() in IMAGE_SUFFIXES for f in d.iterdir() if f.is_file()):
            found.add(int(m.group(1)))
    return found


def _task_number(task_id: str) -> int | None:
    m = re.search(r"(\d+)$", task_id)
    return int(m.group(1)) if m else None


def task_files(data: Path) -> list[Path]:
    """The task files of ``data``: the file itself, or every ``*.json`` in the folder and in its
    ``C-*`` subfolders, sorted.

    Raises:
        RubricError: ``data`` is neither a file nor a folder holding task files.
    """
    if data.is_file():
        return [data]
    if not data.is_dir():
        raise RubricError(f"{data}: no such task file or folder")
    files = sorted(data.glob("*.json")) + sorted(p for d in sorted(data.glob("C-*")) for p in d.glob("*.json"))
    if not files:
        raise RubricError(f"{data}: no task files (*.json or C-<Category>/<Category>.json)")
    return files


def read_tasks(data: str | Path) -> tuple[list[Task], list[str], list[str]]:
    """Every good task of ``data`` (see the module docstring), in file order.

    Returns:
        ``(tasks, errors, bad_ids)``: one error line per bad task (not scored), and the ids of
        the bad tasks that have one (so rows for them are not reported again).

    Raises:
        RubricError: ``data`` has no task files, or one is not a readable JSON list.
    """
    tasks, errors, bad_ids, seen = [], [], [], set()
    for path in task_files(Path(data)):
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise RubricError(f"{path}: not readable JSON ({e})") from None
        if not isinstance(entries, list):
            raise RubricError(f"{path}: a ServImage task file must be a JSON list of tasks")
        with_inputs = _tasks_with_inputs(path.parent)
        for k, entry in enumerate(entries, start=1):
            task_id = entry.get("task_id") if isinstance(entry, dict) else None
            where = f"{path} task {k}" + (f" ({task_id})" if isinstance(task_id, str) else "")
            problem = None
            original = entry.get("original_task_data") if isinstance(entry, dict) else None
            if not isinstance(entry, dict):
                problem = "is not a JSON object"
            elif not isinstance(task_id, str) or not task_id:
                problem = (
                    "field 'task_id' is missing"
                    if task_id is None
                    else f"field 'task_id' must be a string, got {task_id!r}"
                )
            elif task_id in seen:
                problem = "repeats an earlier task_id"
            elif _category(entry.get("task_category")) is None:
                problem = (
                    f"field 'task_category' is {json.dumps(entry.get('task_category'))}, "
                    f"not one of {', '.join('C-' + c for c in CATEGORIES)}"
                )
            elif not isinstance(original, dict) or "price_usd" not in original:
                problem = "field 'original_task_data.price_usd' is missing"
            elif not _number(original["price_usd"]) or original["price_usd"] < 0:
                problem = (
                    f"field 'original_task_data.price_usd' is {json.dumps(original['price_usd'])}, not a price >= 0"
                )
            elif "output_quantity" not in original:
                problem = "field 'original_task_data.output_quantity' is missing"
            elif not isinstance(q := original["output_quantity"], int) or isinstance(q, bool):
                problem = f"field 'original_task_data.output_quantity' is {json.dumps(q)}, not an integer"
            elif original["output_quantity"] < 1:
                problem = (
                    f"field 'original_task_data.output_quantity' is {original['output_quantity']}: Q(t) must be >= 1"
                )
            if problem:
                errors.append(f"{where}: {problem}; task not scored")
                if isinstance(task_id, str) and task_id not in seen:
                    bad_ids.append(task_id)
                    seen.add(task_id)
                continue
            seen.add(task_id)
            number = _task_number(task_id)
            category = _category(entry["task_category"])
            tasks.append(
                Task(
                    task_id=task_id,
                    category=category,
                    price=float(original["price_usd"]),
                    quantity=original["output_quantity"],
                    editing=category in EDITING_CATEGORIES or (number is not None and number in with_inputs),
                )
            )
    return tasks, errors, bad_ids


def _row_problem(row: Any, task: Task | None, bad_task: bool) -> str | None:
    """Why a label row cannot be scored (None when it can); ``task`` is its task or None."""
    if not isinstance(row, dict):
        return "is not a JSON object"
    if not isinstance(row.get("task_id"), str):
        tid = row.get("task_id")
        return "field 'task_id' is missing" if tid is None else f"field 'task_id' must be a string, got {tid!r}"
    if task is None:
        return (
            "its task is not scored (see the task's error)" if bad_task else "field 'task_id' names no task of the data"
        )
    if "category" in row and _category(row["category"]) is None:
        return (
            f"field 'category' is {json.dumps(row['category'])}, not one of {', '.join('C-' + c for c in CATEGORIES)}"
        )
    if "category" in row and _category(row["category"]) != task.category:
        return f"field 'category' is {json.dumps(row['category'])} but task {task.task_id} is C-{task.category}"
    if "label" not in row:
        return "field 'label' is missing"
    if row["label"] not in (0, 1) or isinstance(row["label"], float):  # True / False are 1 / 0
        return f"field 'label' is {json.dumps(row['label'])}, not 0 or 1"
    idx = row.get("subtask_idx")
    if idx is not None and (not isinstance(idx, int) or isinstance(idx, bool) or idx < 0):
        return f"field 'subtask_idx' is {json.dumps(idx)}, not an integer >= 0"
    for key in SCORE_FIELDS:
        if key in row and (not _number(row[key]) or not 0 <= row[key] <= 5):
            return f"field '{key}' is {json.dumps(row[key])}, not a score in [0, 5]"
    return None


def _model_name(path: Path, row: dict) -> str:
    model = row.get("model")
    return model if isinstance(model, str) and model else path.stem.removesuffix("_annotations")


def _rows(path: Path) -> list[tuple[int, Any, str]]:
    """``(line number, parsed row or None, model)`` of each non-blank line of a label file; the
    model of an unparsable line is the file's.

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read as text.
    """
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        rows.append((n, row, _model_name(path, row if isinstance(row, dict) else {})))
    return rows


def label_models(results: str | Path) -> list[str]:
    """The models of every row of ``<results>/*.jsonl``, sorted; an unreadable file adds none."""
    found = set()
    for path in sorted(Path(results).glob("*.jsonl")):
        try:
            found.update(model for _, _, model in _rows(path))
        except (OSError, UnicodeDecodeError):
            continue
    return sorted(found)


def select_models(available: list[str], models: list[str] | None = None, exclude: list[str] = ()) -> list[str]:
    """The models to score: ``models`` (None: all of ``available``) less ``exclude``, sorted.

    Raises:
        RubricError: a name in ``models`` or ``exclude`` that no label row has, a name in both,
            or nothing left to score (one line naming the option).
    """
    for key, names in (("models", models or []), ("exclude", exclude)):
        unknown = [m for m in names if m not in available]
        if unknown:
            raise RubricError(
                f"servimage.{key}: no label rows for {', '.join(unknown)} (the results have: {', '.join(available)})"
            )
    both = sorted(set(models or []) & set(exclude))
    if both:
        raise RubricError(f"servimage.models and servimage.exclude both name {', '.join(both)}")
    chosen = sorted(set(available if models is None else models) - set(exclude))
    if not chosen:
        raise RubricError("servimage.models / servimage.exclude leave no model to score")
    return chosen


def read_labels(
    results: str | Path, tasks: list[Task], bad_ids: list[str] = (), models: list[str] | None = None
) -> tuple[dict[str, list[Submission]], dict[str, int], list[str], list[str]]:
    """The payment labels of every ``<results>/*.jsonl``, as submissions per model; with
    ``models``, only the rows of those models are read (the others are neither scored nor
    checked).

    Returns:
        ``(submissions by model, deliverables handed in by model, errors, bad rows as
        "<file>:<row>")``; rows are numbered from 1 (the file's line number).

    Raises:
        RubricError: ``results`` is not a folder.
    """
    folder = Path(results)
    if not folder.is_dir():
        raise RubricError(f"{folder}: not a folder of <model>_annotations.jsonl files")
    by_id = {t.task_id: t for t in tasks}
    bad = set(bad_ids)
    labels: dict[str, dict[str, dict[int, int]]] = {}
    scores: dict[str, dict[str, list[float | None]]] = {}
    errors, bad_rows = [], []
    for path in sorted(folder.glob("*.jsonl")):
        try:
            rows = _rows(path)
        except (OSError, UnicodeDecodeError) as e:
            errors.append(f"{path}: not a readable text file ({e}); not scored")
            continue
        for n, row, model in rows:
            if models is not None and model not in models:
                continue
            tid = row.get("task_id") if isinstance(row, dict) else None
            tid = tid if isinstance(tid, str) else None
            task = by_id.get(tid)
            problem = _row_problem(row, task, tid in bad)
            if problem is None:
                got = labels.get(model, {}).get(task.task_id, {})
                idx = row.get("subtask_idx")
                idx = len(got) if idx is None else idx
                if idx >= task.quantity:
                    problem = (
                        f"field 'subtask_idx' is {idx}: more deliverables than task {task.task_id} "
                        f"requires (Q(t)={task.quantity})"
                    )
                elif idx in got:
                    problem = f"repeats deliverable {idx} of task {task.task_id} for model {model}"
            if problem is not None:
                errors.append(f"{path} row {n}" + (f" (task {tid})" if tid else "") + f": {problem}; not scored")
                bad_rows.append(f"{path}:{n}")
                continue
            labels.setdefault(model, {}).setdefault(task.task_id, {})[idx] = int(row["label"])
            has_scores = all(k in row for k in SCORE_FIELDS)
            row_score = sum(float(row[k]) for k in SCORE_FIELDS) if has_scores else None
            scores.setdefault(model, {}).setdefault(task.task_id, []).append(row_score)
    submissions, handed_in = {}, {}
    for model, per_task in labels.items():
        subs = []
        for task_id, got in per_task.items():
            row_scores = scores[model][task_id]
            concept = sum(row_scores) if all(s is not None for s in row_scores) else None
            subs.append(Submission(task_id, dict(got), concept))
        submissions[model] = subs
        handed_in[model] = sum(len(got) for got in per_task.values())
    return submissions, handed_in, errors, bad_rows


def read_api_costs(results: str | Path, handed_in: dict[str, int]) -> tuple[dict[str, float], list[str]]:
    """Cost_API per model from ``<results>/api_costs.json`` (see the module docstring); ``{}``
    without that file. A model whose cost is not a number >= 0 (or ``{"per_image": number}``)
    is an error line and gets no cost figures."""
    path = Path(results) / COSTS_FILE
    if not path.is_file():
        return {}, []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return {}, [f"{path}: not readable JSON ({e}); no cost savings computed"]
    if not isinstance(data, dict):
        return {}, [f"{path}: must be a JSON object {{model: USD}}; no cost savings computed"]
    costs, errors = {}, []
    for model, value in data.items():
        per_image = value.get("per_image") if isinstance(value, dict) else None
        if _number(value) and value >= 0:
            costs[model] = float(value)
        elif _number(per_image) and per_image >= 0:
            costs[model] = float(per_image) * handed_in.get(model, 0)
        else:
            errors.append(
                f"{path} (model {model}): {json.dumps(value)} is not a USD cost >= 0 or "
                '{"per_image": USD}; no cost savings for it'
            )
    return costs, errors


def score_servimage_folder(
    data: str | Path, results: str | Path, models: list[str] | None = None, exclude: list[str] = ()
) -> tuple[dict[str, Any], list[str]]:
    """Score the label files in ``results`` against the tasks of ``data``: every model's, or
    those :func:`select_models` keeps (``models``, less ``exclude``).

    Returns:
        ``(summary, errors)``: the ``scores.json`` object (``"models"``: one
        :func:`rewards.scorers.servimage.score_model` result per model, without its per-task
        list; ``"model_selection"``: ``{"available", "scored", "excluded"}``; ``"editing_tasks"``
        and ``"editing_rule"``; ``"competition"`` among the scored models, with two or more
        (:func:`rewards.scorers.servimage.competition`: ``split_ties`` counts the tasks split
        between tied models); ``"per_item"``, one entry per model and task: id ``<task_id>``
        with one model, ``<model>/<task_id>`` with more, metrics ``value`` (USD),
        ``acceptance`` (accepted / Q(t)), ``success`` (0 / 1)) and one line per bad task, row
        or cost.

    Raises:
        RubricError: ``data`` has no readable task files, ``results`` is not a folder, a bad
            model selection (:func:`select_models`).
    """
    if not Path(results).is_dir():
        raise RubricError(f"{results}: not a folder of <model>_annotations.jsonl files")
    available = label_models(results)
    selecting = models is not None or bool(exclude)
    chosen = select_models(available, models, exclude) if selecting else available
    tasks, errors, bad_ids = read_tasks(data)
    submissions, handed_in, row_errors, bad_rows = read_labels(results, tasks, bad_ids, chosen if selecting else None)
    costs, cost_errors = read_api_costs(results, handed_in)
    scored, per_item = [], []
    for model in sorted(submissions):
        scores = score_model(tasks, submissions[model], costs.get(model))
        for r in scores.pop("per_task"):
            per_item.append(
                {
                    "id": r["task_id"] if len(submissions) == 1 else f"{model}/{r['task_id']}",
                    "groups": {"model": model, "category": r["category"], "mode": r["mode"]},
                    "metrics": {
                        "value": r["value"],
                        "acceptance": r["accepted"] / r["quantity"],
                        "success": r["success"],
                    },
                }
            )
        scored.append({"model": model, "scores": scores})
    summary = {
        "benchmark": "servimage",
        "data": str(data),
        "results": str(results),
        "tasks": len(tasks),
        "budget": sum(t.price for t in tasks),
        "tasks_by_category": {c: sum(t.category == c for t in tasks) for c in CATEGORIES},
        "editing_tasks": sum(t.editing for t in tasks),
        "editing_rule": EDITING_RULE,
        "model_selection": {
            "available": available,
            "scored": chosen,
            "excluded": [m for m in available if m not in chosen],
        },
        "models": scored,
        "competition": competition(tasks, submissions) if len(submissions) > 1 else None,
        "not_scored": {"bad_task": bad_ids, "bad_row": bad_rows},
        "coverage": {
            "tasks": len(tasks),
            "models": len(scored),
            "deliverables_required": sum(t.quantity for t in tasks) * len(scored),
            "deliverables_labelled": sum(handed_in.values()),
            "bad_rows": len(bad_rows),
        },
        "per_item": per_item,
    }
    return summary, errors + row_errors + cost_errors


def _k(usd: float | None) -> str:
    return "" if usd is None else f"{usd / 1000:.2f}"


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def servimage_tables(summary: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """The paper's tables from a :func:`score_servimage_folder` summary: revenue ($k, 2
    decimals) and share (%, 1 decimal) overall and per category (Table 2), acceptance / success
    and the creation vs editing split, the competition (Table 3, with two or more models; "From
    split ties": what each model got from ties split equally, which the paper broke by the
    BRF + VEQ + CNS scores the official rows lack) and the cost savings (%) / contribution ratio
    (4 decimals) of the models with an API cost."""
    revenue, rates, costs = [], [], []
    for m in summary["models"]:
        s = m["scores"]
        row = [m["model"], _k(s["earned"]), _pct(s["share"])]
        for c in CATEGORIES:
            g = s["by_category"].get(c, {})
            row += [_k(g.get("earned")), _pct(g.get("share"))]
        revenue.append(row)
        modes = [s["by_mode"].get(k, {}) for k in ("creation", "editing")]
        rates.append(
            [m["model"], _pct(s["acceptance_rate"]), _pct(s["success_rate"])]
            + [_pct(g.get("acceptance_rate")) for g in modes]
            + [v for g in modes for v in (_k(g.get("earned")), _pct(g.get("share")))]
            + [f"{s['tasks_with_results']}/{s['tasks']}"]
        )
        if s["api_cost"] is not None:
            ratio = s["contribution_ratio"]
            costs.append(
                [m["model"], f"{s['api_cost']:.2f}", _pct(s["cost_savings"]), "" if ratio is None else f"{ratio:.4f}"]
            )
    header = ["Model", "Revenue ($k)", "Share (%)"] + [f"{c} {u}" for c in CATEGORIES for u in ("($k)", "(%)")]
    tables = [
        ("servimage_revenue", header, revenue),
        (
            "servimage_rates",
            ["Model", "Acceptance (%)", "Success (%)", "Creation acceptance (%)", "Editing acceptance (%)"]
            + ["Creation ($k)", "Creation (%)", "Editing ($k)", "Editing (%)", "Tasks with results"],
            rates,
        ),
    ]
    comp = summary.get("competition")
    if comp:
        rows = [
            [model, _k(r["earned"]), _pct(r["share"]), str(r["wins"]), str(r["shared_wins"]), _k(r["shared_earned"])]
            for model, r in sorted(comp["models"].items(), key=lambda kv: -kv[1]["earned"])
        ]
        header = ["Model", "Revenue ($k)", "Share (%)", "Wins", "Shared wins", "From split ties ($k)"]
        tables.append(("servimage_competition", header, rows))
    if costs:
        tables.append(("servimage_cost", ["Model", "API cost ($)", "Cost Savings (%)", "Contribution Ratio"], costs))
    return tables
