"""ServImage economic scores: what a model earns on paid commercial design tasks.

Source: "ServImage: An Image Generation and Editing Benchmark from Real-world Commercial Imaging
Services" (§3 task and contract, §5.2 settlement, competition and cost savings). The official
repository mllmagent-jpg/ServImage (read at commit 4772db7) publishes the tasks and the human
payment labels but no scoring code, so every formula here is the paper's:

- Task t has a contract price Price(t) (USD) and Q(t) required deliverables; each deliverable i
  the model hands in carries the human payment label S_{t,i} in {0, 1}. A deliverable the model
  did not hand in is not paid (S = 0).
- Value earned on t: V(t) = sum_i Price(t) / Q(t) * S_{t,i}; total earned = sum_t V(t);
  share = total / B with the budget B = sum_t Price(t) over every task of the benchmark.
- Success(t) = 1 iff all Q(t) deliverables are accepted (§5.2, competition and cost sections).
- Cost savings S_c = 1 - Cost_API / B - (1 / B) sum_t Price(t) (1 - Success(t)); contribution
  ratio R_c = sum_t Price(t) Success(t) / (Cost_API + sum_t Price(t) (1 - Success(t))).
- Crowdsourcing competition: on each task the model with the most accepted deliverables wins,
  ties broken by the summed ServImageScore (BRF + VEQ + CNS); the winner takes Price(t), the
  others nothing.

Where the paper is silent we choose, and say so in the result: a task on which no model has an
accepted deliverable pays nobody in the competition; a tie the summed scores do not break (equal,
or a tied model without scores) splits Price(t) equally among the tied models (``split_ties``);
the summed ServImageScore of a model on a task is the sum over its deliverables of BRF + VEQ + CNS.
The official label rows carry no BRF / VEQ / CNS, so on them every tie is split
(``split_unscored``), where the paper's competition (Table 3) broke them by the scores.
Categories are the paper's three (Portrait, Product, Digital); a task is editing when its brief
comes with a source image to edit (the paper's src_t, §3: "editing if its brief includes at
least one input image"), else creation; :mod:`rewards.scorers.servimage_results` says how a
task file tells which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

CATEGORIES = ("Portrait", "Product", "Digital")
"""The paper's three client-driven categories (the official files write them ``C-Portrait`` ...)."""

MODES = ("creation", "editing")
"""Pure text-to-image creation, or editing (the brief comes with at least one input image)."""


@dataclass(frozen=True)
class Task:
    """One paid design task: Price(t) in USD, Q(t) >= 1 required deliverables, its category
    (one of :data:`CATEGORIES`) and whether it is an editing task."""

    task_id: str
    category: str
    price: float
    quantity: int
    editing: bool


@dataclass(frozen=True)
class Submission:
    """One model's labelled deliverables on one task.

    ``accepted`` maps deliverable index i (0 <= i < Q(t)) to the payment label S_{t,i} (0 or 1);
    deliverables not in it were not handed in (not paid). ``concept_score`` is the summed
    ServImageScore (BRF + VEQ + CNS over the deliverables) used to break competition ties, or
    None when the results carry no scores.
    """

    task_id: str
    accepted: Mapping[int, int] = field(default_factory=dict)
    concept_score: float | None = None


def task_value(price: float, quantity: int, labels: Iterable[int]) -> float:
    """V(t) = sum_i Price(t) / Q(t) * S_{t,i}, in USD.

    Args:
        price: Price(t) >= 0, USD.
        quantity: Q(t) >= 1.
        labels: the payment labels S_{t,i} (0 or 1) of the deliverables handed in, at most Q(t).

    Raises:
        ValueError: a negative price, Q(t) < 1, a label that is not 0 or 1, more labels than Q(t).
    """
    labels = list(labels)
    if price < 0:
        raise ValueError(f"price must be >= 0, got {price}")
    if quantity < 1:
        raise ValueError(f"Q(t) must be >= 1, got {quantity}")
    if any(s not in (0, 1) or isinstance(s, float) for s in labels):
        raise ValueError(f"payment labels must be 0 or 1, got {labels}")
    if len(labels) > quantity:
        raise ValueError(f"{len(labels)} deliverables for a task that requires Q(t)={quantity}")
    return price / quantity * sum(labels)


def cost_savings(prices: Iterable[float], successes: Iterable[int], api_cost: float) -> float | None:
    """S_c = 1 - Cost_API / B - (1 / B) sum_t Price(t) (1 - Success(t)), a fraction (x 100 for %).

    Args:
        prices: Price(t) of every task of the benchmark (USD); B is their sum.
        successes: Success(t) in {0, 1}, in the same order.
        api_cost: Cost_API of the model over those tasks, USD.

    Returns:
        S_c, or None when B is 0.
    """
    prices, successes = list(prices), list(successes)
    budget = sum(prices)
    if budget == 0:
        return None
    rework = sum(p * (1 - s) for p, s in zip(prices, successes, strict=True))
    return 1 - api_cost / budget - rework / budget


def contribution_ratio(prices: Iterable[float], successes: Iterable[int], api_cost: float) -> float | None:
    """R_c = sum_t Price(t) Success(t) / (Cost_API + sum_t Price(t) (1 - Success(t))): USD of
    contract value the model handles per USD spent on its API and on human rework.

    Returns:
        R_c, or None when the denominator is 0 (no API cost and every task successful).
    """
    prices, successes = list(prices), list(successes)
    done = sum(p * s for p, s in zip(prices, successes, strict=True))
    spent = api_cost + sum(p * (1 - s) for p, s in zip(prices, successes, strict=True))
    return done / spent if spent else None


def _totals(tasks: list[Task], subs: Mapping[str, Submission]) -> dict[str, Any]:
    budget = earned = 0.0
    required = handed_in = accepted = successes = submitted = 0
    for t in tasks:
        labels = list(subs[t.task_id].accepted.values()) if t.task_id in subs else []
        n_ok = sum(labels)
        budget += t.price
        earned += task_value(t.price, t.quantity, labels)
        required += t.quantity
        handed_in += len(labels)
        accepted += n_ok
        successes += n_ok == t.quantity
        submitted += t.task_id in subs
    return {
        "tasks": len(tasks),
        "tasks_with_results": submitted,
        "budget": budget,
        "earned": earned,
        "share": earned / budget if budget else None,
        "deliverables": required,
        "handed_in": handed_in,
        "accepted": accepted,
        "acceptance_rate": accepted / required if required else None,
        "acceptance_rate_handed_in": accepted / handed_in if handed_in else None,
        "successes": successes,
        "success_rate": successes / len(tasks) if tasks else None,
    }


def score_model(tasks: Iterable[Task], submissions: Iterable[Submission], api_cost: float | None = None) -> dict:
    """One model's settlement on the benchmark (the paper's Table 2 numbers and their splits).

    Args:
        tasks: every task of the benchmark (the budget B is over all of them; a task without a
            submission earns 0 and is not a success).
        submissions: the model's labelled deliverables, at most one per task.
        api_cost: Cost_API of the model in USD, or None (then no cost savings / contribution ratio).

    Returns:
        ``{"tasks", "tasks_with_results", "budget", "earned", "share", "deliverables"
        (sum of Q), "handed_in", "accepted", "acceptance_rate" (accepted / sum of Q),
        "acceptance_rate_handed_in" (accepted / handed in), "successes", "success_rate",
        "by_category": {category: same keys}, "by_mode": {"creation" | "editing": same keys},
        "api_cost", "cost_savings", "contribution_ratio", "per_task": [{"task_id", "category",
        "mode", "price", "quantity", "accepted", "value", "success"}]}``. Money in USD, rates
        and shares as fractions; a split without tasks is left out.

    Raises:
        ValueError: a submission for a task not in ``tasks``, two for one task, or labels that
            :func:`task_value` refuses.
    """
    tasks = list(tasks)
    by_id = {t.task_id: t for t in tasks}
    subs: dict[str, Submission] = {}
    for s in submissions:
        if s.task_id not in by_id:
            raise ValueError(f"submission for task {s.task_id!r}, which is not a task of the benchmark")
        if s.task_id in subs:
            raise ValueError(f"two submissions for task {s.task_id!r}")
        if any(i < 0 or i >= by_id[s.task_id].quantity for i in s.accepted):
            raise ValueError(
                f"task {s.task_id!r}: deliverable index outside 0..Q(t)-1 = {by_id[s.task_id].quantity - 1}"
            )
        subs[s.task_id] = s
    result = _totals(tasks, subs)
    result["by_category"] = {
        c: _totals(group, subs) for c in CATEGORIES if (group := [t for t in tasks if t.category == c])
    }
    result["by_mode"] = {
        m: _totals(group, subs) for m in MODES if (group := [t for t in tasks if t.editing == (m == "editing")])
    }
    per_task = []
    for t in tasks:
        labels = list(subs[t.task_id].accepted.values()) if t.task_id in subs else []
        per_task.append(
            {
                "task_id": t.task_id,
                "category": t.category,
                "mode": "editing" if t.editing else "creation",
                "price": t.price,
                "quantity": t.quantity,
                "submitted": t.task_id in subs,
                "accepted": sum(labels),
                "value": task_value(t.price, t.quantity, labels),
                "success": int(sum(labels) == t.quantity),
            }
        )
    successes = [r["success"] for r in per_task]
    prices = [t.price for t in tasks]
    result["api_cost"] = api_cost
    result["cost_savings"] = cost_savings(prices, successes, api_cost) if api_cost is not None else None
    result["contribution_ratio"] = contribution_ratio(prices, successes, api_cost) if api_cost is not None else None
    result["per_task"] = per_task
    return result


def competition(tasks: Iterable[Task], submissions: Mapping[str, Iterable[Submission]]) -> dict[str, Any]:
    """The crowdsourcing competition (winner takes all) over several models' submissions.

    On each task, the model with the most accepted deliverables wins (at least one accepted;
    otherwise nobody is paid); a tie is broken by the highest summed ServImageScore; a tie the
    scores cannot break (equal scores, or a tied model without scores) splits Price(t) equally.

    Args:
        tasks: every task of the benchmark.
        submissions: model name -> its submissions (at most one per task).

    Returns:
        ``{"budget", "paid" (USD paid out), "paid_tasks", "unpaid_tasks" (no model had an
        accepted deliverable), "ties_broken" (tasks whose tie the summed scores broke),
        "split_ties" (tasks split between tied models), "split_unscored" (split ties in which a
        tied model had no scores), "split_budget" (USD of the split tasks), "models": {model:
        {"earned", "share", "wins" (tasks won alone), "shared_wins", "shared_earned" (USD from
        split tasks)}}, "winners": {task_id: [models paid]}}``.
    """
    tasks = list(tasks)
    by_model = {m: {s.task_id: s for s in subs} for m, subs in submissions.items()}
    models = {m: {"earned": 0.0, "share": None, "wins": 0, "shared_wins": 0, "shared_earned": 0.0} for m in by_model}
    budget = sum(t.price for t in tasks)
    paid = split_budget = 0.0
    paid_tasks = unpaid = broken = split = unscored = 0
    winners: dict[str, list[str]] = {}
    for t in tasks:
        counts = {m: sum(subs[t.task_id].accepted.values()) for m, subs in by_model.items() if t.task_id in subs}
        best = max(counts.values(), default=0)
        if best == 0:
            unpaid += 1
            winners[t.task_id] = []
            continue
        tied = sorted(m for m, n in counts.items() if n == best)
        scores = {m: by_model[m][t.task_id].concept_score for m in tied}
        if len(tied) > 1 and all(v is not None for v in scores.values()):
            top = max(scores.values())
            tied = [m for m in tied if scores[m] == top]
            broken += len(tied) == 1
        elif len(tied) > 1:
            unscored += 1
        for m in tied:
            models[m]["earned"] += t.price / len(tied)
            if len(tied) > 1:
                models[m]["shared_wins"] += 1
                models[m]["shared_earned"] += t.price / len(tied)
            else:
                models[m]["wins"] += 1
        split += len(tied) > 1
        split_budget += t.price if len(tied) > 1 else 0.0
        paid += t.price
        paid_tasks += 1
        winners[t.task_id] = tied
    for row in models.values():
        row["share"] = row["earned"] / budget if budget else None
    return {
        "budget": budget,
        "paid": paid,
        "paid_tasks": paid_tasks,
        "unpaid_tasks": unpaid,
        "ties_broken": broken,
        "split_ties": split,
        "split_unscored": unscored,
        "split_budget": split_budget,
        "models": models,
        "winners": winners,
    }
