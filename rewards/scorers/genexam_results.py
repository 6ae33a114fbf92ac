"""GenExam per-image eval-result files, in the official format, read as verdicts and ratings.

Format of OpenGVLab/GenExam ``run_eval.py`` (read at commit 6f324dd), one ``<result_dir>/<id>.json``
per image::

    {"answers": [{"answer": 1, ...}, {"answer": 0, ...}, ...],   # one per scoring point, in order
     "global_evaluation": {"Spelling": {"score": 2}, "Clarity and Readability": {"score": 1},
                           "Logical Consistency": {"score": 2}},
     ...the data row's fields (id, subject, scoring_points, ...)}

``answer`` 1 (or ``true``) -> "yes", 0 (or ``false``) -> "no", any other value (our writer's
``null`` for a withheld verdict) -> "withheld" (``cal_score.py`` counts only ``answer == 1`` as
correct, so all three scorers agree). Where ``cal_score.py`` would stop with an assertion or a
``KeyError`` (no ``global_evaluation``, no ``answers``, an entry without ``answer``), the reader
raises one error line naming the file; the caller scores the other files.
:func:`write_genexam_result` writes the same format from our verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from rewards.rubric import Item, RubricError, Verdict
from rewards.scorers.genexam import RATINGS

JUDGE = "genexam-result"
"""Judge name of verdicts read from a result file."""

RATING_NAMES = {
    "spelling": "Spelling",
    "readability": "Clarity and Readability",
    "logical_consistency": "Logical Consistency",
}
"""Our rating key -> the key of ``global_evaluation`` in the official file."""


def result_path(result_dir: str | Path, item: Item) -> Path:
    """``<result_dir>/<item id>.json``, where ``run_eval.py`` saves it."""
    return Path(result_dir) / f"{item.id}.json"


def read_genexam_result(result_dir: str | Path, item: Item) -> tuple[dict[str, Verdict], dict[str, int]] | None:
    """Read one item's eval result.

    Returns:
        None when there is no file; else (verdicts keyed "1".."n" like the item's checks,
        the three ratings).

    Raises:
        RubricError: one line naming the file and item, when the file is not JSON, ``answers``
            is not a list with one entry per scoring point, an entry has no ``answer``,
            ``global_evaluation`` is missing, or a rating is not 0, 1 or 2.
    """
    path = result_path(result_dir, item)
    if not path.is_file():
        return None
    where = f"{path} (item {item.id})"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RubricError(f"{where}: not readable JSON ({e})") from None
    if not isinstance(data, dict):
        raise RubricError(f"{where}: a result file must be a JSON object")
    answers = data.get("answers")
    checks = item.rubric.checks
    if not isinstance(answers, list) or len(answers) != len(checks):
        raise RubricError(f"{where}: field 'answers' must be a list of {len(checks)} entries, one per scoring point")
    verdicts = {}
    for n, (check, entry) in enumerate(zip(checks, answers), start=1):
        if not isinstance(entry, dict) or "answer" not in entry:
            raise RubricError(f"{where}: answers[{n - 1}] has no field 'answer' (scoring point {n})")
        value = entry["answer"]
        if value is True or value == 1 and not isinstance(value, bool):
            answer = "yes"
        elif value is False or value == 0 and not isinstance(value, bool):
            answer = "no"
        else:
            answer = "withheld"
        reason = entry.get("reason", "")
        verdicts[check.id] = Verdict(check.id, answer, JUDGE, reason if isinstance(reason, str) else str(reason))
    glob = data.get("global_evaluation")
    if not isinstance(glob, dict):
        raise RubricError(f"{where}: field 'global_evaluation' is missing or not an object; not scored")
    ratings = {}
    for key in RATINGS:
        node = glob.get(RATING_NAMES[key])
        score = node.get("score") if isinstance(node, dict) else None
        if score not in (0, 1, 2) or isinstance(score, bool):
            raise RubricError(f"{where}: global_evaluation.{RATING_NAMES[key]}.score must be 0, 1 or 2, got {score!r}")
        ratings[key] = int(score)
    return verdicts, ratings


def write_genexam_result(
    result_dir: str | Path, item: Item, verdicts: Mapping[str, Verdict], ratings: Mapping[str, int]
) -> Path:
    """Write one image's eval result in the official format; returns its path.

    "yes" -> ``answer`` 1, "no" -> 0, withheld or missing -> null (read back as withheld).
    """
    answers: list[dict[str, Any]] = []
    for check in item.rubric.checks:
        v = verdicts.get(check.id)
        value = None if v is None or v.answer == "withheld" else int(v.answer == "yes")
        answers.append({"answer": value, "reason": v.reason if v else ""})
    data = {
        "id": item.id,
        "subject": item.meta.get("subject", "all"),
        "prompt": item.prompt,
        "scoring_points": [{"question": c.question, "score": c.weight} for c in item.rubric.checks],
        "answers": answers,
        "global_evaluation": {RATING_NAMES[k]: {"score": ratings[k]} for k in RATINGS},
    }
    path = result_path(result_dir, item)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4, ensure_ascii=False), encoding="utf-8")
    return path
