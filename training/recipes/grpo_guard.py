"""GRPO-Guard LoRA training: Flow-GRPO with a normalised importance ratio and per-step gradient
reweighting (regulated clipping). ``trainer.algorithm=grpo_guard`` (``conf/trainer/grpo_guard.yaml``).

Source: Wang et al., "GRPO-Guard: Mitigating Implicit Over-Optimization in Flow Matching via
Regulated Clipping" (arXiv 2510.22319). Checked against X-GenGroup/Flow-Factory at commit
a0b2bc5a2b4fbf9125429b3fb70c0c5d7631047c, ``src/flow_factory/trainers/grpo.py``
(``GRPOGuardTrainer``: ``sample`` keeps each step's ``next_latents_mean``; ``optimize``, the
"Reweighted ratio" lines) with ``src/flow_factory/scheduler/flow_match_euler_discrete.py``
(``step``, Flow-SDE). yifan123/flow_grpo at ac4c86e (the snapshot we read) has no GRPO-Guard.

What it changes in Flow-GRPO (everything else is ``training.recipes.grpo``): per trained step,
with s = std_t sqrt(-dt) the step's std, mu / mu_old the step means under the current and the
sampling weights, and lp the mean per-element log-density,

    log r_guard = (lp - lp_old) s + mean((mu - mu_old)^2) / (2 s)        (= mean((mu - mu_old) eps))

and the clipped surrogate -min(r A, clip(r, 1 - eps, 1 + eps) A) on r_guard. The plain log-ratio
(lp - lp_old) has a negative mean -mean(dmu^2) / (2 s^2) and a spread ~ |dmu| / s, both growing
as s shrinks, so the clip acts unevenly over the steps (ratio normalisation removes the bias
and the 1 / s scale); multiplying by s also rescales each step's gradient by s, which evens the
steps' gradient sizes (the per-step gradient reweighting). The test
(tests/training/recipes/test_grpo_guard.py) holds the reference's numbers on fixed tensors.

Deviations from the reference:

* The old step means are recomputed after sampling, with the sampling weights and no grad (one
  extra forward pass per trained step and sample), where the reference records them during
  sampling; the values are the same up to float rounding.
* Per sample: in the reference the (B,) log-ratio times the (B, 1, 1) scale broadcasts across
  samples (harmless there: its minibatches share one timestep); here each sample uses its own s
  (a Flow-GRPO-Fast minibatch mixes steps).
* The KL is Flow-GRPO's (``beta``, ``kl_form``), as in ``training.recipes.grpo``; the reference's
  GRPO-Guard has an x- or v-based mean-squared KL, off by default (``kl_beta = 0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Sequence

import torch

from rewards.reward_fns import RewardFn
from training.diffusion.grpo_math import clipped_policy_loss
from training.diffusion.loop import Loop, run_steps, start
from training.diffusion.sde import sde_step
from training.diffusion.update import Minibatch, Rollouts, StepScore
from training.recipes.grpo import GRPOConfig, grpo_step


@dataclass
class GRPOGuardConfig(GRPOConfig):
    """GRPO-Guard's knobs: Flow-GRPO's (``GRPOConfig``, the same defaults); the guard itself has none."""

    algorithm: str = "grpo_guard"
    """this recipe"""


CONFIG = GRPOGuardConfig
TITLE = "GRPO-Guard"


def guard_log_ratio(
    log_prob: torch.Tensor,
    old_log_prob: torch.Tensor,
    mean: torch.Tensor,
    old_mean: torch.Tensor,
    step_std: torch.Tensor,
) -> torch.Tensor:
    """GRPO-Guard's normalised log-ratio per sample, (lp - lp_old) s + mean((mu - mu_old)^2) / (2 s).

    Args:
        log_prob, old_log_prob: float32 (b,) mean per-element log-densities of the rollout's step
            under the current and the sampling weights (``training.diffusion.sde.sde_step``).
        mean: float32 (b, ...) the step mean mu under the current weights (with grad).
        old_mean: float32 (b, ...) mu_old under the sampling weights.
        step_std: float32 (b, 1, ..., 1) or (b,) s = std_t sqrt(-dt), > 0.

    Returns:
        float32 (b,).
    """
    s = step_std.reshape(len(log_prob), -1)[:, 0]  # (b,)
    mse = (mean - old_mean.detach()).flatten(1).pow(2).mean(dim=1)  # (b,)
    return (log_prob - old_log_prob) * s + mse / (2 * s)


def guard_step_loss(
    mb: Minibatch, j: int, score: StepScore, clip_range: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The clipped surrogate on the GRPO-Guard ratio at trained step ``j`` of ``mb`` (a
    ``training.diffusion.update.StepLoss``; ``mb.extra["old_mean"]`` from ``record_old_means``).
    Returns (loss (), ratio (b,), clip_fraction ())."""
    log_ratio = guard_log_ratio(
        score.log_prob, mb.old_log_probs[:, j], score.mean, mb.extra["old_mean"][:, j], score.step_std
    )
    return clipped_policy_loss(log_ratio, torch.zeros_like(log_ratio), mb.advantages, clip_range)


@torch.no_grad()
def record_old_means(loop: Loop, rollouts: Rollouts) -> None:
    """Put the step means under the sampling weights, float32 (B, K, ...), in
    ``rollouts.extra["old_mean"]``: each trained step re-scored by the policy as sampled (before
    any update), in chunks of ``batch_size``."""
    policy, sigmas, size = loop.policy, loop.sigmas, loop.cfg.batch_size
    means = torch.empty_like(rollouts.latents)  # (B, K, ...)
    for c in range(0, len(rollouts.latents), size):
        part = slice(c, c + size)
        cond = {k: v[part] for k, v in rollouts.cond.items()}
        for j in range(rollouts.steps.shape[1]):
            t = rollouts.steps[part, j].cpu()  # (b,)
            x, x_next = rollouts.latents[part, j], rollouts.next_latents[part, j]
            v = policy.velocity(x, sigmas[t], cond)
            means[part, j] = sde_step(v, x, sigmas[t], sigmas[t + 1], policy.noise_level, next_sample=x_next)[2]
    rollouts.extra["old_mean"] = means


def train(
    cfg: GRPOGuardConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with GRPO-Guard; returns the per-step history.

    Args and returns: as ``training.recipes.grpo.train`` ("ratio_mean" and "clip_fraction" are
    of the normalised ratio).

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup``, ``check_rewards``).
    """
    loop = start(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs, desc="GRPO-Guard")
    return run_steps(loop, train_items, partial(grpo_step, step_loss=guard_step_loss, prepare=record_old_means))
