"""IGenBench per-item result files (``VISItem`` JSON), in the official format, read and written.

Format of MisterBrookT/IGenBench (``igenbench/vis_item.py``, read at commit f4b253a): one file
per item at ``<output_dir>/<id>/<id>.json`` (``score_cli.py`` reads ``<output_dir>/*/*.json``)::

    {"id": "1", "t2i_prompt": "...", "chart_type": "bar", "generation": {model: image path},
     "evaluation": [{"source": "prompt" | "seed", "ground": "4", "question": "...",
                     "question_type": "Legend",
                     "judgments": [{"gen_model", "eval_model", "analysis", "answer": "1" | "0"}]}]}

The official scorer groups judgments by (gen_model, eval_model); so does
:func:`read_igenbench_results`. A file ``VISItem.from_dict`` cannot read is skipped whole by the
official scorer with a warning (not JSON, no ``id``, ``"evaluation": null``, or a question whose
``"judgments"`` is null or a number, which it cannot iterate: its other questions' judgments are
not counted either); here each is an error line naming the file and the field, and the others are
scored, so the numbers are the official ones.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Mapping

from rewards.common.run_folder import write_json
from rewards.rubric import Check, Item, Rubric, RubricError, Verdict
from rewards.scorers.igenbench import Judged


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RubricError(f"{path}: not readable JSON ({e})") from None
    if not isinstance(data, dict) or "id" not in data:
        raise RubricError(f"{path}: an IGenBench result file must be a JSON object with an 'id'")
    if "evaluation" in data and data["evaluation"] is None:
        raise RubricError(f"{path}: field 'evaluation' is null (the official scorer skips the whole file)")
    evaluation = data.get("evaluation") or []
    if not isinstance(evaluation, list) or not all(isinstance(e, dict) for e in evaluation):
        raise RubricError(f"{path}: field 'evaluation' must be a list of objects")
    for k, entry in enumerate(evaluation, start=1):
        judgments = entry.get("judgments", [])
        if judgments is None or isinstance(judgments, (bool, int, float)):  # what VISItem.from_dict cannot iterate
            raise RubricError(
                f"{path}: question {k}'s 'judgments' is {json.dumps(judgments)}, not a list "
                "(the official scorer skips the whole file)"
            )
    return data


def read_igenbench_results(
    output_dir: str | Path, gen_model: str | None = None, eval_model: str | None = None
) -> tuple[dict[tuple[str, str], list[Judged]], list[str]]:
    """Every question of every ``<output_dir>/*/*.json``, grouped by (gen_model, eval_model).

    Args:
        gen_model, eval_model: keep only judgments by these models (None = all), as the
            official ``--gen-model`` / ``--eval-model`` filters.

    Returns:
        ``({(gen_model, eval_model): [Judged, ...]}, errors)``. For each model pair, every
        question of every item that pair judged at least once is listed; a question that pair
        did not judge has no answers (unjudged). Items the pair never judged are not listed
        (the official scorer does not see them either). One error line per unreadable file.
    """
    errors: list[str] = []
    per_pair: dict[tuple[str, str], list[Judged]] = defaultdict(list)
    for path in sorted(Path(output_dir).glob("*/*.json")):
        try:
            data = _load(path)
        except RubricError as e:
            errors.append(str(e))
            continue
        entries = data.get("evaluation") or []
        answers: dict[tuple[str, str], list[list[Any]]] = defaultdict(lambda: [[] for _ in entries])
        for k, entry in enumerate(entries):
            for j in entry.get("judgments") or []:
                if not isinstance(j, dict):
                    continue
                gm, em = j.get("gen_model", ""), j.get("eval_model", "")
                if (gen_model and gm != gen_model) or (eval_model and em != eval_model):
                    continue
                answers[(gm, em)][k].append(j.get("answer", ""))
        for pair, per_entry in answers.items():
            for entry, found in zip(entries, per_entry):
                per_pair[pair].append(
                    Judged(
                        str(data["id"]),
                        str(entry.get("source") or ""),
                        str(entry.get("question_type") or ""),
                        tuple(found),
                    )
                )
    return dict(per_pair), errors


def igenbench_item(path: str | Path) -> Item:
    """An :class:`Item` from one IGenBench data file (a ``VISItem`` JSON, judgments ignored).

    Checks are ``"1".."n"`` in ``evaluation`` order; the question asks whether the image shows
    ``ground`` as the answer to ``question``; ``tag`` is ``question_type``; the sources are in
    ``meta["question_sources"]``.

    Raises:
        RubricError: naming the file, when it is not a VISItem with a prompt and questions.
    """
    path = Path(path)
    data = _load(path)
    entries = data.get("evaluation") or []
    if not isinstance(data.get("t2i_prompt"), str) or not entries:
        raise RubricError(f"{path}: needs a string 't2i_prompt' and a non-empty 'evaluation'")
    checks = [
        Check(
            str(k),
            f"{e.get('question', '')} (expected answer: {e.get('ground', '')})",
            tag=str(e.get("question_type") or ""),
        )
        for k, e in enumerate(entries, start=1)
    ]
    meta = {key: data.get(key) for key in ("chart_type", "reference_image_url")}
    meta["question_sources"] = {c.id: str(e.get("source") or "") for c, e in zip(checks, entries)}
    meta["igenbench_row"] = data
    return Item(str(data["id"]), data["t2i_prompt"], Rubric.flat(checks), source="igenbench", meta=meta)


def write_igenbench_result(
    output_dir: str | Path,
    item: Item,
    verdicts: Mapping[str, Verdict],
    gen_model: str,
    eval_model: str,
    image_path: str,
) -> Path:
    """Write ``<output_dir>/<id>/<id>.json`` with one judgment per answered check.

    "yes" -> answer "1", "no" -> "0"; a withheld or missing verdict adds no judgment (the
    question stays unjudged, as the official scorer expects).
    """
    row = dict(item.meta.get("igenbench_row") or {"id": item.id, "t2i_prompt": item.prompt, "evaluation": []})
    sources = item.meta.get("question_sources", {})
    old = row.get("evaluation") or []
    evaluation = []
    for k, check in enumerate(item.rubric.checks):
        entry = (
            dict(old[k])
            if k < len(old)
            else {
                "source": sources.get(check.id, ""),
                "ground": "",
                "question": check.question,
                "question_type": check.tag,
            }
        )
        v = verdicts.get(check.id)
        judgments = [
            j
            for j in entry.get("judgments") or []
            if not (j.get("gen_model") == gen_model and j.get("eval_model") == eval_model)
        ]
        if v is not None and v.answer != "withheld":
            judgments.append(
                {
                    "gen_model": gen_model,
                    "eval_model": eval_model,
                    "analysis": v.reason,
                    "answer": "1" if v.answer == "yes" else "0",
                }
            )
        entry["judgments"] = judgments
        evaluation.append(entry)
    row.update(id=item.id, evaluation=evaluation, generation={**(row.get("generation") or {}), gen_model: image_path})
    path = Path(output_dir) / item.id / f"{item.id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, row)  # atomic: a killed run leaves no half file
    return path
