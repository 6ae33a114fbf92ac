"""Reward-hacking monitors that act: each logged image statistic (``rewards.image_stats``:
dark fraction, colour entropy, edge density, light fraction), of the step's rollouts
(``<stat>``) and of each evaluation's validation images (``eval_<stat>``: the same prompts and
noise every time, so unlike the rollouts' it does not move with the prompts a step drew), and a
held-out gold judge (``trainer.gold_reward``: a configured reward of weight 0, scored on the
validation prompts at each evaluation) get a bound ``trainer.hacking_bounds.<signal> = [lo, hi]``;
a step whose signal leaves its bound stops the run in one line (``HackingDetected``, exit status
1) before that step's checkpoint. The final evaluation (after the last step) is checked too.

Which checkpoint is good: a step's rollouts and its evaluation (at the start of the step) use
the weights entering the step, the ones checkpoint ``step_<s>`` holds. A signal out of bound at
step s therefore condemns ``step_<s>`` (when it was saved) and the last good checkpoint is the
newest one before it; the line names both, and no later checkpoint is written.
"""

from __future__ import annotations

import math
from pathlib import Path

from rewards.image_stats import STAT_NAMES

SIGNALS = (*STAT_NAMES, *(f"eval_{name}" for name in STAT_NAMES), "gold")
"""The bounded signals: the four image statistics of every step's rollouts, the same of each
evaluation's images (``eval_<stat>``, from ``eval/images/<stat>``), and "gold" (the
``eval/<gold_reward>`` value of each evaluation)."""


class HackingDetected(ArithmeticError):
    """A monitored signal left its bound (``check_signals``); one line; ``rubricloop-train`` exits 1."""


def bound_problems(bounds: dict, gold_reward: str, reward_names) -> list[str]:
    """The config problems of ``trainer.hacking_bounds`` and ``trainer.gold_reward``, one message each."""
    problems = []
    for name, bound in bounds.items():
        if name not in SIGNALS:
            problems.append(f"hacking_bounds.{name}: no such signal (one of {list(SIGNALS)})")
        elif bound is not None and (
            not isinstance(bound, (list, tuple))
            or len(bound) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in bound)
            or not bound[0] <= bound[1]
        ):
            problems.append(f"hacking_bounds.{name} must be null or [lo, hi] with lo <= hi, got {bound!r}")
    if bounds.get("gold") is not None and not gold_reward:
        problems.append("hacking_bounds.gold needs trainer.gold_reward (the reward that is the gold judge)")
    if gold_reward and gold_reward not in reward_names:
        problems.append(f"gold_reward {gold_reward!r} is not a configured reward ({sorted(reward_names)})")
    return problems


def drifted_signal(values: dict[str, float], bounds: dict) -> tuple[str, float, list[float]] | None:
    """The first signal of ``values`` (name -> value) outside its bound, with its value and bound;
    None when every bounded one is inside (or not measured this step). A NaN value is outside."""
    for name in SIGNALS:
        bound = bounds.get(name)
        if bound is None or name not in values:
            continue
        value = float(values[name])
        if math.isnan(value) or not bound[0] <= value <= bound[1]:
            return name, value, list(bound)
    return None


EVAL_IMAGES = "eval/images/"
"""Prefix of the image statistics in an evaluation's row (``training.diffusion.scoring.evaluate``)."""


def eval_image_stats(eval_row: dict) -> dict[str, float]:
    """Stat name -> value of the ``eval/images/<stat>`` entries of an evaluation's row; {} for none."""
    return {k[len(EVAL_IMAGES) :]: v for k, v in eval_row.items() if k.startswith(EVAL_IMAGES)}


def eval_signals(eval_row: dict, gold_reward: str) -> dict[str, float]:
    """The signals an evaluation's row (``training.diffusion.scoring.evaluate``) holds:
    ``eval_<stat>`` from ``eval/images/<stat>``, and "gold" from ``eval/<gold_reward>`` when
    ``gold_reward`` is set and scored; {} for a step without an evaluation."""
    out = {f"eval_{k}": v for k, v in eval_image_stats(eval_row).items()}
    if gold_reward and f"eval/{gold_reward}" in eval_row:
        out["gold"] = eval_row[f"eval/{gold_reward}"]
    return out


def check_signals(
    step: int, values: dict[str, float], bounds: dict, checkpoints: list[Path], final: bool = False
) -> None:
    """Raise ``HackingDetected`` when a signal of step ``step`` left its bound.

    Args:
        step: the step (0-based) whose rollouts and evaluation gave ``values``; with ``final``,
            ``num_steps`` (the final evaluation, of the weights checkpoint ``step_<num_steps>`` holds).
        values: signal name -> value (``SIGNALS``; "gold" only at an evaluation).
        bounds: ``trainer.hacking_bounds``.
        checkpoints: the run's ``step_<n>`` folders, oldest first (``list_checkpoints``).
        final: the values are the final evaluation's: the line says so instead of "stopped
            before this step's checkpoint" (that checkpoint exists: it is named as the drifted one).

    Raises:
        HackingDetected: ``step 4: reward hacking: dark_fraction 0.91 left its bound [0, 0.5]
        (trainer.hacking_bounds.dark_fraction); stopped before this step's checkpoint; last good
        checkpoint: .../step_3 ...``.
    """
    found = drifted_signal(values, bounds)
    if found is None:
        return
    name, value, bound = found
    number = {c: int(c.name.removeprefix("step_")) for c in checkpoints}
    good = [c for c in checkpoints if number[c] < step]
    bad = [c for c in checkpoints if number[c] == step]
    where = f"last good checkpoint: {good[-1]}" if good else "no checkpoint before it"
    if bad:
        where += f" ({bad[0]} holds the weights that drifted)"
    when = "at the final evaluation" if final else "stopped before this step's checkpoint"
    raise HackingDetected(
        f"step {step}: reward hacking: {name} {value:.4g} left its bound [{bound[0]:.4g}, {bound[1]:.4g}] "
        f"(trainer.hacking_bounds.{name}); {when}; {where}"
    )
