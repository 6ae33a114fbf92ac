"""BizGenEval penalty score per domain, dimension and easy/hard/all subset.

Source: BizGenEval (arXiv 2603.25732) §3.4, and the official scorer microsoft/BizGenEval
``evaluation/summarize.py`` (commit 1c15075), whose numbers this module reproduces exactly:

- per item and subset, errors = questions whose verdict is not exactly "yes" (a missing or
  withheld verdict is an error, as a result that is not ``True`` is there);
- item score = max(0, 1 - alpha * errors), alpha = 2 * ``alpha`` (0.2) on the easy
  (``easy_qidxs``) and on the hard (``hard_qidxs``) questions, ``alpha`` (0.1) on all of them;
- an item without easy (hard) question indices is left out of the easy (hard) subset, and an
  item without questions is not scored at all;
- per domain and per dimension: plain mean over items; "Average" = unweighted mean of the
  group means of the groups in ``DOMAINS`` / ``DIMENSIONS`` that have items.

Means are :func:`statistics.mean` (exact rational sum, one rounding), as in the official
scorer, so the 4-decimal tables match it to the byte.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import mean
from typing import Any

from rewards.rubric import Item
from rewards.scorers.coverage import Results, Verdicts, coverage

DOMAINS = ("slides", "webpage", "poster", "chart", "scientific_figure")
"""The official column order of ``summary_by_domain.csv``."""

DIMENSIONS = ("layout", "attribute", "text", "knowledge")
"""The official column order of ``summary_by_dimension.csv``."""

SUBSETS = ("easy", "hard", "all")


def subset_question_ids(item: Item, subset: str) -> list[str]:
    """The check ids an item's ``subset`` ("easy", "hard" or "all") is scored on.

    "easy"/"hard" use ``item.meta["easy_qidxs"]``/``["hard_qidxs"]`` (1-based indices, kept as
    given, duplicates included, like the official scorer) when the item has them, otherwise
    the checks whose ``difficulty`` is that subset. "all" is every check.

    Raises:
        ValueError: for an unknown subset.
    """
    if subset == "all":
        return [c.id for c in item.rubric.checks]
    if subset not in ("easy", "hard"):
        raise ValueError(f"unknown BizGenEval subset {subset!r}; expected one of {SUBSETS}")
    key = f"{subset}_qidxs"
    if key in item.meta:
        return [str(j) for j in item.meta[key] or []]
    return [c.id for c in item.rubric.checks if c.difficulty == subset]


def item_record(item: Item, verdicts: Verdicts, subset: str, alpha: float) -> dict[str, Any] | None:
    """Score one item on one subset.

    Args:
        alpha: the penalty per error on this subset (0.2 for easy/hard, 0.1 for all).

    Returns:
        ``{"id", "domain", "dimension", "n_questions", "errors", "accuracy", "error_score"}``
        (accuracy = (n - errors) / n, error_score = max(0, 1 - alpha * errors), both in
        [0, 1]), or None when the item has no checks or no questions in this subset.
    """
    if not item.rubric.checks:
        return None
    qids = subset_question_ids(item, subset)
    if not qids:
        return None
    errors = sum(1 for q in qids if q not in verdicts or verdicts[q].answer != "yes")
    return {
        "id": item.id,
        "domain": item.meta.get("domain", ""),
        "dimension": item.meta.get("dimension", ""),
        "n_questions": len(qids),
        "errors": errors,
        "accuracy": (len(qids) - errors) / len(qids),
        "error_score": max(0.0, 1.0 - alpha * errors),
    }


def aggregate(records: list[dict[str, Any]], key: str) -> dict[str, dict[str, float | int]]:
    """Group records by ``key`` ("domain" or "dimension"), sorted by group name.

    Returns:
        group -> ``{"count", "accuracy", "error_score"}`` (plain means over the group's items).
    """
    groups = defaultdict(list)
    for r in records:
        groups[r[key]].append(r)
    return {
        g: {
            "count": len(rs),
            "accuracy": mean(r["accuracy"] for r in rs),
            "error_score": mean(r["error_score"] for r in rs),
        }
        for g, rs in sorted(groups.items())
    }


def _average(groups: dict[str, dict[str, float | int]], order: tuple[str, ...]) -> float | None:
    values = [groups[g]["error_score"] for g in order if g in groups]
    return mean(values) if values else None


def score_bizgeneval(results: Results, alpha: float = 0.1) -> dict[str, Any]:
    """BizGenEval scores of a set of judged images.

    Args:
        results: ``(item, verdicts by check id)`` per scored image. Items need
            ``meta["domain"]`` and ``meta["dimension"]`` (as imported by
            :func:`rewards.importers.parse_bizgeneval`); a missing one groups under "".
        alpha: penalty per error on all questions; easy and hard use ``2 * alpha``.

    Returns:
        ``{"alpha": alpha, "subsets": {subset: {"alpha", "count", "by_domain", "by_dimension",
        "average_by_domain", "average_by_dimension", "items"}}, "coverage": {...}}`` where
        ``by_*`` maps group -> ``{"count", "accuracy", "error_score"}``, the averages are
        floats in [0, 1] or None when no item of a listed group was scored, and ``items``
        lists each item's record (see :func:`item_record`).
    """
    out: dict[str, Any] = {"alpha": alpha, "subsets": {}, "coverage": coverage(results)}
    for subset in SUBSETS:
        subset_alpha = alpha if subset == "all" else alpha * 2
        records = [r for item, v in results if (r := item_record(item, v, subset, subset_alpha)) is not None]
        by_domain = aggregate(records, "domain")
        by_dimension = aggregate(records, "dimension")
        out["subsets"][subset] = {
            "alpha": subset_alpha,
            "count": len(records),
            "by_domain": by_domain,
            "by_dimension": by_dimension,
            "average_by_domain": _average(by_domain, DOMAINS),
            "average_by_dimension": _average(by_dimension, DIMENSIONS),
            "items": records,
        }
    return out
