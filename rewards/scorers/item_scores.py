"""Per-item scores in [0, 1] computed from one item's verdicts.

The refine loop keeps the best iteration by one of these (``ITEM_SCORES``), and the rubric
reward turns verdicts into a scalar with them. Benchmark-level aggregation (pooling, per-domain
tables, withheld policies) lives in :mod:`rewards.scorers`.

A missing or withheld verdict is never a pass: every score below counts it as a failed check.
``coverage`` reports how many checks were actually answered.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rewards.rubric import Item, Verdict

Verdicts = Mapping[str, Verdict]


def passed(verdicts: Verdicts, check_id: str) -> bool:
    """True iff the check has a verdict and it is "yes" (missing and withheld are not passes)."""
    v = verdicts.get(check_id)
    return v is not None and v.answer == "yes"


def pass_rate(item: Item, verdicts: Verdicts) -> float:
    """Fraction of the item's checks answered "yes" (IGenBench Q-ACC of a single image)."""
    checks = item.rubric.checks
    return sum(passed(verdicts, c.id) for c in checks) / len(checks) if checks else 0.0


def rubric_accuracy(item: Item, verdicts: Verdicts) -> float:
    """TechImage-Bench Eq. 1 on one item: 1 - sum_i e_i / sum_i |c_i| (e_i = failed points)."""
    total = sum(len(crit.checks) for crit in item.rubric.criteria)
    failed = sum(not passed(verdicts, c.id) for c in item.rubric.checks)
    return 1.0 - failed / total if total else 0.0


def criterion_score(item: Item, verdicts: Verdicts) -> float:
    """TechImage-Bench Eq. 2 on one item: (1/|C|) * sum_i 0.5 ** e_i."""
    crits = item.rubric.criteria
    if not crits:
        return 0.0
    return sum(0.5 ** sum(not passed(verdicts, c.id) for c in crit.checks) for crit in crits) / len(crits)


def bizgeneval_penalty(item: Item, verdicts: Verdicts, alpha: float = 0.1) -> float:
    """BizGenEval §3.4 on all questions: max(0, 1 - alpha * errors), errors = checks not "yes"."""
    errors = sum(not passed(verdicts, c.id) for c in item.rubric.checks)
    return max(0.0, 1.0 - alpha * errors)


def mean_p_yes(item: Item, verdicts: Verdicts) -> float:
    """Soft pass rate: the mean over the item's checks of the judge's p_yes, where a verdict
    without p_yes counts 1 for "yes" and 0 for "no", and a withheld or missing verdict counts 0.

    With a hard judge (OCR) it equals ``pass_rate``; with a p_yes judge (local VLM, or the VLM
    judge in ``mode=p_yes``) it rises with the judge's confidence even before an answer flips,
    the soft verdict VQAScore (Lin et al. 2024) scores images with.
    """
    checks = item.rubric.checks
    if not checks:
        return 0.0
    total = 0.0
    for c in checks:
        v = verdicts.get(c.id)
        if v is None or v.answer == "withheld":
            continue
        total += v.p_yes if v.p_yes is not None else float(v.answer == "yes")
    return total / len(checks)


def coverage(item: Item, verdicts: Verdicts) -> float:
    """Fraction of the item's checks with a yes/no verdict (not withheld, not missing)."""
    checks = item.rubric.checks
    answered = sum(1 for c in checks if c.id in verdicts and verdicts[c.id].answer != "withheld")
    return answered / len(checks) if checks else 0.0


ITEM_SCORES: dict[str, Callable[[Item, Verdicts], float]] = {
    "pass_rate": pass_rate,
    "rubric_accuracy": rubric_accuracy,
    "criterion_score": criterion_score,
    "bizgeneval": bizgeneval_penalty,
    "mean_p_yes": mean_p_yes,
}
"""Score name -> function(item, verdicts by check id) -> float in [0, 1]."""


def score_item(item: Item, verdicts: Verdicts) -> dict[str, float]:
    """All of ``ITEM_SCORES`` plus ``coverage`` for one item."""
    out = {name: fn(item, verdicts) for name, fn in ITEM_SCORES.items()}
    out["coverage"] = coverage(item, verdicts)
    return out
