"""GenExam and GenOlympiad strict and relaxed scores, in percent.

GenExam (OpenGVLab/GenExam ``cal_score.py``, read at commit 6f324dd, 2026-05-27): each item's
scoring points carry weights summing to 1, and a judge gives three global 0-2 ratings
(spelling, readability, logical consistency). Per item, as ``cal_score_single``:

- semantic = sum of the weights of the points answered "yes", rounded to 4 decimals;
- strict = 1 iff every point is "yes" and all three ratings are 2;
- relaxed = 0.7 * semantic + 0.05 * (spelling + readability + logical consistency), rounded
  to 3 decimals.

Per subject: mean over its items. Overall (``overall``): the pooled mean over *all* items, as
the current ``cal_score.py`` (since commit 1341943, 2026-03-29). The older overall, the
unweighted mean of the subject means (commit 39b1767, used by older tables), is reported as
``overall_subject_mean``. Reported x100 (the paper's tables are percentages; ``cal_score.py``
prints ``round(x * 100, 1)``). A withheld or missing verdict is not "yes" (``cal_score.py``
counts only ``answer == 1``). An item without ratings (only possible through this API: the
result-file reader refuses such files) is scored with ratings 0 and counted.

GenOlympiad (arXiv 2610.26850 §3.3; Appendix A.3 rule 13): easy questions (``Check.gate``)
gate the task, then weighted hard questions are scored:

- any easy "no" -> the task scores 0, a zero caused by the image;
- else any easy or hard verdict withheld or missing -> the task is *withheld*: excluded from the
  means, counted and listed, never scored as zero;
- else strict = 100 iff every hard check is "yes", relaxed = 100 * sum of passed hard weights /
  sum of hard weights (dividing by the sum normalises weights that do not sum to 1).

Strict and relaxed are means over the tasks not withheld (scored and zero).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping

from rewards.rubric import Item
from rewards.scorers.coverage import Results, Verdicts, coverage
from rewards.scorers.item_scores import passed

RATINGS = ("spelling", "readability", "logical_consistency")
"""GenExam's three global ratings, each an integer 0, 1 or 2."""

PERCENT_KEYS = ("strict", "relaxed", "semantic")
"""GenExam scores reported in percent."""


def _check_ratings(item: Item, ratings: Mapping[str, Any]) -> dict[str, int]:
    out = {}
    for key in RATINGS:
        value = ratings.get(key)
        if value not in (0, 1, 2) or isinstance(value, bool):
            raise ValueError(f"item {item.id}: rating '{key}' must be 0, 1 or 2, got {value!r}")
        out[key] = int(value)
    return out


def genexam_item(item: Item, verdicts: Verdicts, ratings: Mapping[str, Any] | None) -> dict[str, Any]:
    """GenExam scores of one image.

    Args:
        ratings: ``{"spelling", "readability", "logical_consistency"}`` -> 0, 1 or 2; None when
            the judge gave none (scored as all 0).

    Returns:
        ``{"id", "subject", "semantic", "strict", "relaxed", "spelling", "readability",
        "logical_consistency", "ratings_withheld"}``: semantic (4 decimals) and relaxed (3
        decimals) in [0, 1], strict 0 or 1, ratings 0-2.

    Raises:
        ValueError: naming the item, when its weights do not sum to 1 (to 4 decimals, as
            ``cal_score.py`` asserts) or a rating is not 0, 1 or 2.
    """
    checks = item.rubric.checks
    total = sum(c.weight for c in checks)
    if round(total, 4) != 1:
        raise ValueError(f"item {item.id}: scoring point weights sum to {total}, expected 1")
    r = _check_ratings(item, ratings) if ratings is not None else dict.fromkeys(RATINGS, 0)
    semantic = round(sum(c.weight for c in checks if passed(verdicts, c.id)), 4)
    all_yes = all(passed(verdicts, c.id) for c in checks)
    return {
        "id": item.id,
        "subject": str(item.meta.get("subject", "all")),
        "semantic": semantic,
        "strict": int(all_yes and all(r[k] == 2 for k in RATINGS)),
        "relaxed": round(0.7 * semantic + 0.05 * sum(r.values()), 3),
        **r,
        "ratings_withheld": ratings is None,
    }


def score_genexam(results: Results, ratings: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """GenExam strict / relaxed / semantic per subject and overall, in percent.

    Args:
        results: ``(item, verdicts)`` per image; the subject is ``item.meta["subject"]``
            ("all" when absent, as ``cal_score.py``).
        ratings: item id -> its three global ratings (see :func:`genexam_item`). An item
            missing here is scored with ratings 0 and counted in ``ratings_withheld``.

    Returns:
        ``{"overall": {"strict", "relaxed", "semantic", "spelling", "readability",
        "logical_consistency"}`` (pooled over all items: the current official overall),
        ``"overall_subject_mean": {"strict", "relaxed", "semantic"}`` (mean of the subject
        means: the pre-2026-03-29 official overall), ``"by_subject": {subject: {"count",
        "strict", "relaxed", "semantic"}}, "ratings_withheld": int, "items": [...],
        "coverage": {...}}``; strict, relaxed and semantic in [0, 100], the ratings as means in
        [0, 2]; ``overall`` and ``overall_subject_mean`` are None when nothing was scored.

    Raises:
        ValueError: see :func:`genexam_item`.
    """
    records = [genexam_item(item, v, ratings.get(item.id)) for item, v in results]
    groups = defaultdict(list)
    for r in records:
        groups[r["subject"]].append(r)
    by_subject = {
        s: {"count": len(rs), **{k: 100 * sum(r[k] for r in rs) / len(rs) for k in PERCENT_KEYS}}
        for s, rs in sorted(groups.items())
    }
    overall = subject_mean = None
    if records:
        overall = {k: 100 * sum(r[k] for r in records) / len(records) for k in PERCENT_KEYS}
        overall |= {k: sum(r[k] for r in records) / len(records) for k in RATINGS}
        subject_mean = {k: sum(g[k] for g in by_subject.values()) / len(by_subject) for k in PERCENT_KEYS}
    return {
        "overall": overall,
        "overall_subject_mean": subject_mean,
        "by_subject": by_subject,
        "ratings_withheld": sum(r["ratings_withheld"] for r in records),
        "items": records,
        "coverage": coverage(results),
    }


def genolympiad_task(item: Item, verdicts: Verdicts) -> dict[str, Any]:
    """GenOlympiad outcome of one task.

    Returns:
        ``{"id", "outcome", "strict", "relaxed", "reason"}``: outcome "scored" (strict 0 or
        100, relaxed in [0, 100]), "zero" (an easy check answered "no"; strict = relaxed = 0)
        or "withheld" (strict = relaxed = None; reason names the unanswered check).

    Raises:
        ValueError: naming the item, when it has no hard (non-gate) checks or their weights
            sum to <= 0.
    """
    easy = [c for c in item.rubric.checks if c.gate]
    hard = [c for c in item.rubric.checks if not c.gate]
    total = sum(c.weight for c in hard)
    if not hard or total <= 0:
        raise ValueError(f"item {item.id}: GenOlympiad needs hard (gate=False) checks with positive total weight")
    failed_gate = next((c for c in easy if c.id in verdicts and verdicts[c.id].answer == "no"), None)
    if failed_gate is not None:
        return {
            "id": item.id,
            "outcome": "zero",
            "strict": 0.0,
            "relaxed": 0.0,
            "reason": f"easy check {failed_gate.id} failed",
        }
    unanswered = next((c for c in easy + hard if c.id not in verdicts or verdicts[c.id].answer == "withheld"), None)
    if unanswered is not None:
        return {
            "id": item.id,
            "outcome": "withheld",
            "strict": None,
            "relaxed": None,
            "reason": f"check {unanswered.id} has no yes/no verdict",
        }
    passed = sum(c.weight for c in hard if verdicts[c.id].answer == "yes")
    all_pass = all(verdicts[c.id].answer == "yes" for c in hard)
    return {
        "id": item.id,
        "outcome": "scored",
        "strict": 100.0 if all_pass else 0.0,
        "relaxed": 100.0 * passed / total,
        "reason": "",
    }


def score_genolympiad(results: Results) -> dict[str, Any]:
    """GenOlympiad strict and relaxed over all tasks, withheld tasks excluded.

    Returns:
        ``{"strict", "relaxed"}`` (means over scored + zero tasks, in [0, 100]; None when no
        task was scored), ``"counts": {"scored", "zero", "withheld"}``, ``"withheld": [ids]``,
        ``"tasks": [per-task records]``, ``"coverage": {...}``.

    Raises:
        ValueError: see :func:`genolympiad_task`.
    """
    tasks = [genolympiad_task(item, v) for item, v in results]
    counted = [t for t in tasks if t["outcome"] != "withheld"]
    counts = {k: sum(t["outcome"] == k for t in tasks) for k in ("scored", "zero", "withheld")}
    return {
        "strict": sum(t["strict"] for t in counted) / len(counted) if counted else None,
        "relaxed": sum(t["relaxed"] for t in counted) / len(counted) if counted else None,
        "counts": counts,
        "withheld": [t["id"] for t in tasks if t["outcome"] == "withheld"],
        "tasks": tasks,
        "coverage": coverage(results),
    }
