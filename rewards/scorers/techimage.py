"""TechImage-Bench rubric accuracy and criterion score, pooled over all criteria of all tasks.

Source: TechImage-Bench (Ni et al.) §3.3, Eq. 1-2. With e_i = failed points of criterion i:

    Accuracy = 1 - sum_i e_i / sum_i |c_i|          (Eq. 1)
    Score    = (1 / |C|) * sum_i 0.5 ** e_i         (Eq. 2)

The reference code pools i over every criterion of every task (not a mean of per-task means);
so do we. Its evaluator is "hyper-conservative" (Yes only when every detail is visible), so a
withheld or missing verdict is a failed point. The reference merges a shared "general" rubric
into every task: :func:`with_general` does that for an item. Per-task values are
:func:`rewards.item_scores.rubric_accuracy` and :func:`rewards.item_scores.criterion_score`.
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


def score_techimage(results: Results) -> dict[str, Any]:
    """Pooled rubric accuracy (Eq. 1) and criterion score (Eq. 2), both in [0, 1].

    Returns:
        ``{"rubric_accuracy", "criterion_score", "tasks", "criteria", "points",
        "failed_points", "coverage"}``; the two scores are None when there are no criteria
        (or no points, for accuracy).
    """
    criteria = points = failed = 0
    criterion_sum = 0.0
    for item, verdicts in results:
        for crit in item.rubric.criteria:
            e = sum(1 for c in crit.checks if c.id not in verdicts or verdicts[c.id].answer != "yes")
            criteria += 1
            points += len(crit.checks)
            failed += e
            criterion_sum += 0.5 ** e
    return {
        "rubric_accuracy": 1.0 - failed / points if points else None,
        "criterion_score": criterion_sum / criteria if criteria else None,
        "tasks": len(results),
        "criteria": criteria,
        "points": points,
        "failed_points": failed,
        "coverage": coverage(results),
    }
