"""TechImage-Bench rubric accuracy and criterion score, pooled over all criteria of all tasks.

Source: TechImage-Bench (Ni et al.) §3.3, Eq. 1-2. With e_i = failed points of criterion i:

    Accuracy = 1 - sum_i e_i / sum_i |c_i|          (Eq. 1)
    Score    = (1 / |C|) * sum_i 0.5 ** e_i         (Eq. 2)

The reference code pools i over every criterion of every task (not a mean of per-task means);
so do we. Its evaluator is "hyper-conservative" (Yes only when every detail is visible), so a
withheld or missing verdict is a failed point. The reference merges a shared "general" rubric
into every task: give items whose rubric already includes it. Per-task values are
:func:`rewards.item_scores.rubric_accuracy` and :func:`rewards.item_scores.criterion_score`.
"""

from __future__ import annotations

from typing import Any

from rewards.scorers.coverage import Results, coverage


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
