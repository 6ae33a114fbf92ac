"""The policy update of Flow-GRPO: the LoRA policy, the step's rollouts, minibatches, and the
backward pass of one minibatch (``update_minibatch``; the step benchmark calls the same function).

Shape legend: B samples of a GRPO step on one rank, b samples per minibatch, K trained
denoising steps. Source: Flow-GRPO (arXiv 2505.05470) Eq. 5-6 and yifan123/flow_grpo
``scripts/train_sd3.py``.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import torch
from accelerate import Accelerator

from training.diffusion.grpo_math import clipped_policy_loss, step_kl
from training.diffusion.rollout import Cond, Rollout, guided_velocity, sample
from training.diffusion.sde import sde_std, sde_step


@contextmanager
def lora_disabled(transformer):
    """The reference policy: the same transformer with its LoRA adapter switched off."""
    transformer.disable_adapters()
    try:
        yield
    finally:
        transformer.enable_adapters()


def _expand(cond: Cond | None, n: int) -> Cond | None:
    return None if cond is None else {k: v.expand(n, *v.shape[1:]) for k, v in cond.items()}


@dataclass
class Policy:
    """The LoRA policy as the loop samples and re-scores it.

    A ``Policy`` is called like a transformer (``policy(**kwargs)`` runs ``model``) and has the
    frozen weights' ``dtype``: that is all ``training.diffusion.rollout`` asks of one, so rollouts and
    updates run the prepared model. A DDP wrapper does not forward attribute look-ups such as
    ``dtype``, hence this object rather than the wrapper itself.

    Attributes:
        family: the pipeline's family adapter (``training.diffusion.rollout.family_for``).
        model: the accelerate-prepared transformer (a DDP, FSDP or DeepSpeed wrapper; the
            transformer itself in one process). Every forward pass goes through it.
        reference: the unwrapped transformer (``accelerator.unwrap_model(model)``) whose LoRA
            adapter is switched off for the reference pass (``lora_disabled``).
        dtype: dtype of the frozen weights; latents are cast to it before each forward pass.
        device: where conditioning and latents live.
        uncond: the negative-prompt conditioning for CFG, each tensor (1, ...); None: no CFG.
        cfg_scale: CFG scale s.
        noise_level: SDE noise level a.
        autocast: context-manager factory for mixed precision (``accelerator.autocast``).
    """

    family: Any
    model: Any
    reference: Any
    dtype: torch.dtype
    device: torch.device | str
    uncond: Cond | None
    cfg_scale: float
    noise_level: float
    autocast: Callable

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.model(*args, **kwargs)

    def rollout(self, cond: Cond, sigmas: torch.Tensor, sde_steps: list[int], generator: torch.Generator) -> Rollout:
        """``training.diffusion.rollout.sample`` for the b samples of ``cond`` (each tensor (b, ...)), no grad."""
        b = next(iter(cond.values())).shape[0]
        return sample(
            self.family,
            self,
            cond,
            sigmas,
            sde_steps,
            self.noise_level,
            generator,
            _expand(self.uncond, b),
            self.cfg_scale,
            self.autocast,
        )

    def velocity(self, latents: torch.Tensor, sigma: float, cond: Cond) -> torch.Tensor:
        """Guided velocity (b, ...) at ``latents`` float32 (b, ...) and ``sigma``, under autocast."""
        with self.autocast():
            return guided_velocity(
                self.family,
                self,
                latents.to(self.dtype),
                sigma,
                cond,
                _expand(self.uncond, latents.shape[0]),
                self.cfg_scale,
            )


@dataclass
class Minibatch:
    """b rollout samples of one update minibatch, at the K trained denoising steps.

    Attributes:
        latents: float32 (b, K, ...) latents before each trained step.
        next_latents: float32 (b, K, ...) latents the rollout stepped to.
        old_log_probs: float32 (b, K) log-probs recorded by the rollout (never recomputed).
        advantages: float32 (b,).
        cond: conditioning, each tensor (b, ...).
        steps: int64 (b, K) trained step indices into ``sigmas``, per sample (Flow-GRPO-Fast
            windows differ between sampling batches, and a shuffled minibatch mixes them).
        weight: loss multiplier from ``minibatch_plan`` (1 in one process; 0 for padding).
    """

    latents: torch.Tensor
    next_latents: torch.Tensor
    old_log_probs: torch.Tensor
    advantages: torch.Tensor
    cond: Cond
    steps: torch.Tensor
    weight: float
    extra: dict[str, torch.Tensor] = field(default_factory=dict)
    """a recipe's own per-sample tensors (b, K, ...), from ``Rollouts.extra``"""


StepLoss = Callable[["Minibatch", int, "StepScore", float], tuple[torch.Tensor, torch.Tensor, torch.Tensor]]
"""A per-step policy loss: (minibatch, trained-step column j, the policy's ``StepScore`` there,
clip_range) -> (loss (), ratio (b,), clip_fraction ()); ``clipped_step_loss`` is Flow-GRPO's."""


@dataclass
class StepScore:
    """The policy's re-score of one trained step of a minibatch (``sde_step`` with the rollout's
    next latents), what a ``StepLoss`` reads.

    Attributes:
        log_prob: float32 (b,) mean per-element log-density of the rollout's step.
        mean: float32 (b, ...) the step's mean under the policy (with grad).
        step_std: float32 (b, 1, ..., 1) the step's std, std_t sqrt(-dt).
    """

    log_prob: torch.Tensor
    mean: torch.Tensor
    step_std: torch.Tensor


def clipped_step_loss(
    mb: "Minibatch", j: int, score: StepScore, clip_range: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Flow-GRPO's per-step loss (Eq. 5): ``clipped_policy_loss`` of the step's log-prob against
    the rollout's old one, with the minibatch's advantages."""
    return clipped_policy_loss(score.log_prob, mb.old_log_probs[:, j], mb.advantages, clip_range)


@dataclass
class Rollouts:
    """The B rollout samples of one GRPO step on this rank, at their K trained denoising steps.

    Attributes:
        latents: float32 (B, K, ...) latents before each trained step.
        next_latents: float32 (B, K, ...) latents the rollout stepped to.
        old_log_probs: float32 (B, K) log-probs recorded by the rollout.
        steps: int64 (B, K) trained step indices into the sampling sigmas.
        cond: conditioning, each tensor (B, ...).
    """

    latents: torch.Tensor
    next_latents: torch.Tensor
    old_log_probs: torch.Tensor
    steps: torch.Tensor
    cond: Cond
    extra: dict[str, torch.Tensor] = field(default_factory=dict)
    """a recipe's own per-sample tensors, each (B, K, ...) (GRPO-Guard's old step means)"""

    def minibatch(self, idx: torch.Tensor, advantages: torch.Tensor, weight: float) -> Minibatch:
        """The samples ``idx`` (int64 (b,)) with their ``advantages`` (float32 (B,), indexed here)."""
        return Minibatch(
            self.latents[idx],
            self.next_latents[idx],
            self.old_log_probs[idx],
            advantages[idx],
            {k: v[idx] for k, v in self.cond.items()},
            self.steps[idx],
            weight,
            {k: v[idx] for k, v in self.extra.items()},
        )


def minibatch_plan(
    keep: torch.Tensor, kept_per_rank: Sequence[int], batch_size: int
) -> list[tuple[torch.Tensor, float]]:
    """This rank's update minibatches: as many on every rank, each with its loss weight.

    DDP and DeepSpeed all-reduce gradients inside every backward pass (and FSDP gathers weights
    in every forward pass), so every rank must run the same number of minibatches, or a rank
    that kept fewer groups leaves the others waiting forever. Each rank runs
    max_r ceil(n_r / batch_size) minibatches of its kept samples; a rank out of samples runs
    sample 0 at weight 0 (zero gradient, but its collectives run). Weight b / n_mean, with
    n_mean the mean over ranks of the kept samples in that minibatch, turns the rank-averaged
    gradient into the mean over every kept sample of the minibatch; in one process it is 1.0.

    Args:
        keep: int64 (B_kept,) indices of this rank's samples whose group has a non-zero advantage.
        kept_per_rank: B_kept of every rank, this one included (``accelerator.gather``).
        batch_size: samples per minibatch (> 0).

    Returns:
        [(idx int64 (b,), weight float)], one per minibatch; [] when no rank kept a sample.
    """
    n_minibatches = max(math.ceil(n / batch_size) for n in kept_per_rank)
    plan = []
    for m in range(n_minibatches):
        idx = keep[m * batch_size : (m + 1) * batch_size]
        n_mean = sum(min(max(n - m * batch_size, 0), batch_size) for n in kept_per_rank) / len(kept_per_rank)
        plan.append((idx, len(idx) / n_mean) if len(idx) else (keep.new_zeros(1), 0.0))
    return plan


def update_minibatch(
    mb: Minibatch,
    policy: Policy,
    *,
    accelerator: Accelerator,
    sigmas: torch.Tensor,
    clip_range: float,
    beta: float,
    grad_accum: int,
    kl_form: str = "flow_grpo",
    step_loss: StepLoss = clipped_step_loss,
) -> dict[str, list[float]]:
    """Backward of the GRPO loss of one minibatch, one trained denoising step at a time.

    Per step k: the policy velocity re-scores the rollout's own step (``sde_step`` with
    ``next_sample``), loss_k = clipped policy loss against the rollout's old log-probs
    (Flow-GRPO Eq. 5) + beta * KL to the LoRA-disabled reference (``step_kl`` on the step
    means, Eq. 6), and ``accelerator.backward(weight * loss_k / (K * grad_accum))``. No
    optimizer step. Both passes run ``policy.model``; the reference pass switches the LoRA off
    on ``policy.reference`` (beta == 0 skips it).

    Args:
        mb: the minibatch (``Minibatch``).
        policy: the LoRA policy (``Policy``).
        accelerator: runs the backward pass (gradient scaling, DDP/DeepSpeed hooks).
        sigmas: float32 (T + 1,) sampling sigmas.
        clip_range: PPO ratio clip eps.
        beta: KL weight.
        grad_accum: minibatches accumulated into this optimizer step (the loss is divided by it).
        kl_form: ``step_kl``'s form ("flow_grpo" or "exact").
        step_loss: the per-step policy loss (``StepLoss``; Flow-GRPO's ``clipped_step_loss`` by
            default, a recipe's variant such as GRPO-Guard's otherwise).

    Returns:
        {"loss", "kl", "ratio", "clip_fraction", "approx_kl"}: one float per trained step (the
        unweighted minibatch means; approx_kl = mean 0.5 (logp - logp_old)^2, the PPO estimate
        of OpenAI Baselines ppo2 and Flow-GRPO); empty lists for a padding minibatch (weight 0).
    """
    stats: dict[str, list[float]] = {"loss": [], "kl": [], "ratio": [], "clip_fraction": [], "approx_kl": []}
    n_steps = mb.steps.shape[1]
    for j in range(n_steps):
        t = mb.steps[:, j].cpu()  # (b,)
        s, s_next = sigmas[t], sigmas[t + 1]  # (b,) each
        x, x_next, old_log_prob = (
            mb.latents[:, j],
            mb.next_latents[:, j],
            mb.old_log_probs[:, j],
        )  # (b, ...), (b, ...), (b,)
        v = policy.velocity(x, s, mb.cond)
        _, log_prob, mean, step_std = sde_step(v, x, s, s_next, policy.noise_level, next_sample=x_next)
        policy_loss, ratio, clip_fraction = step_loss(mb, j, StepScore(log_prob, mean, step_std), clip_range)
        kl = torch.zeros(())
        if beta > 0:
            with torch.no_grad(), lora_disabled(policy.reference):
                v_ref = policy.velocity(x, s, mb.cond)
            _, _, ref_mean, _ = sde_step(v_ref, x, s, s_next, policy.noise_level, next_sample=x_next)
            col = (-1,) + (1,) * (x.ndim - 1)
            sigma, sigma_next = s.to(x.device).view(col), s_next.to(x.device).view(col)
            kl = step_kl(
                mean, ref_mean, sde_std(sigma, sigma_next, policy.noise_level), sigma_next - sigma, kl_form
            ).mean()
        loss = policy_loss + beta * kl
        accelerator.backward(loss * mb.weight / (n_steps * grad_accum))
        if mb.weight == 0:
            continue
        approx_kl = 0.5 * ((log_prob.detach() - old_log_prob) ** 2).mean()
        for k, val in (
            ("loss", loss),
            ("kl", kl),
            ("ratio", ratio.mean()),
            ("clip_fraction", clip_fraction),
            ("approx_kl", approx_kl),
        ):
            stats[k].append(val.item())
    return stats


def pool_stats(mb_stats: list[dict[str, list[float]]], **more: list[float]) -> dict[str, list[float]]:
    """The per-step values of every ``update_minibatch`` result, one list per key (plus ``more``)."""
    keys = ("loss", "kl", "approx_kl", "ratio", "clip_fraction")
    return {**{k: [x for s in mb_stats for x in s[k]] for k in keys}, **more}
