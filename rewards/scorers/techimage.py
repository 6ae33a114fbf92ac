"""TechImage-Bench (ProImage-Bench) rubric accuracy and criterion score, pooled over all criteria.

Sources: TechImage-Bench / ProImage-Bench (Ni et al., arXiv 2512.12220) §3.3, Eq. 1-2, and the
official scorer kodenii/ProImage-Bench ``calc_metrics.py`` (read at commit 0c6bb8e,
2025-12-20). With e_i = failed points of criterion i:

    Accuracy = 1 - sum_i e_i / sum_i |c_i|          (Eq. 1)
    Score    = (1 / |C|) * sum_i 0.5 ** e_i         (Eq. 2)

The official code pools i over every criterion of every task (not a mean of per-task means),
merges the shared general rubric (judged per task, stored as ``<task>_general``) into its task,
and splits domains by task-id prefix (``bio_``, ``engineering_``, ``general_``). It counts a
point as passed for accuracy only when it is judged 1, but penalises in the score only points
judged exactly 0: an unjudged (withheld, missing, odd) point lowers the accuracy and not the
score. We follow the code: ``rubric_accuracy`` = "yes" / points, ``criterion_score`` with e_i =
points answered "no". The paper's reading (every point not "yes" is an e_i) is reported as
``criterion_score_all_failed``. :func:`with_general` merges the general rubric into an item.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rewards.rubric import Criterion, Item, Rubric
from rewards.scorers.coverage import Results, coverage


def with_general(item: Item, general: Rubric) -> Item:
    """A copy of ``item`` whose rubric is its own criteria followed by the shared ``general``
    criteria (TechImage-Bench's reference code merges one general rubric into every task).

    The general checks' ids get the prefix ``general.`` so they cannot collide with the task's.
    """
    merged = tuple(
        Criterion(crit.name, tuple(dataclasses.replace(c, id=f"general.{c.id}") for c in crit.checks))
        for crit in general.criteria
    )
    return dataclasses.replace(item, rubric=Rubric(item.rubric.criteria + merged))


DOMAINS = {"bio": "bio_", "engineering": "engineering_", "general": "general_"}
"""Domain -> task-id prefix (``calc_metrics.py`` modes)."""


def domain_of(task_id: str) -> str | None:
    """The domain whose prefix ``task_id`` starts with, or None."""
    return next((d for d, prefix in DOMAINS.items() if task_id.startswith(prefix)), None)


def _pooled(results: Results) -> dict[str, Any]:
    criteria = points = yes = no = 0
    score_sum = score_all_failed_sum = 0.0
    for item, verdicts in results:
        for crit in item.rubric.criteria:
            answers = [verdicts[c.id].answer if c.id in verdicts else "missing" for c in crit.checks]
            n_yes, n_no = answers.count("yes"), answers.count("no")
            criteria += 1
            points += len(answers)
            yes += n_yes
            no += n_no
            score_sum += 0.5**n_no
            score_all_failed_sum += 0.5 ** (len(answers) - n_yes)
    return {
        "rubric_accuracy": yes / points if points else None,
        "criterion_score": score_sum / criteria if criteria else None,
        "criterion_score_all_failed": score_all_failed_sum / criteria if criteria else None,
        "tasks": len(results),
        "criteria": criteria,
        "points": points,
        "passed_points": yes,
        "failed_points": no,
        "unjudged_points": points - yes - no,
    }


def score_techimage(results: Results) -> dict[str, Any]:
    """Pooled rubric accuracy (Eq. 1) and criterion score (Eq. 2) in [0, 1], overall and per domain.

    Args:
        results: ``(item, verdicts)`` per task, the general rubric already merged
            (:func:`with_general`); the domain comes from the item id's prefix.

    Returns:
        ``{"rubric_accuracy", "criterion_score", "criterion_score_all_failed", "tasks",
        "criteria", "points", "passed_points", "failed_points", "unjudged_points",
        "by_domain": {domain: same keys}, "coverage"}``; the scores are None without
        criteria (or points, for accuracy). Domains without tasks are left out.
    """
    by_domain = {}
    for domain in DOMAINS:
        subset = [(it, v) for it, v in results if domain_of(it.id) == domain]
        if subset:
            by_domain[domain] = _pooled(subset)
    return {**_pooled(results), "by_domain": by_domain, "coverage": coverage(results)}
