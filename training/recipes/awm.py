"""Advantage Weighted Matching (AWM) LoRA training of a flow-matching text-to-image pipeline:
the recipe, in one loop. ``trainer.algorithm=awm`` (``conf/trainer/awm.yaml``).

``train`` reads top to bottom: # 0. Setup, then per AWM step # 1. Sample -> # 2. Reward ->
# 3. Advantages -> # 4. Update (per minibatch: the advantage-weighted flow-matching loss at
fresh timesteps and noise + the KLs to the base and to the EMA reference) -> # 5. EMA reference
-> # 6. Log/checkpoint, and # 7. the final evaluation. The math is ``training.diffusion.awm_math``; the
shared parts are ``training.diffusion.loop`` (start, prompt draw, advantages, evaluations, end of step).

Source: Xue et al., "Advantage Weighted Matching" (arXiv 2509.25050), scxue/advantage_weighted_matching
at commit be5137232e33a21b449ed65a533211d0deb97ed8, ``scripts/train_sd3_awm.py`` (the script)
with ``config/dgx_awm.py:ocr_sd3_no_cfg_1node``. What AWM does, as the script: sample with the
current LoRA; rewards -> per-prompt advantages (global std), clipped to ``adv_clip`` and
rescaled by ``awm_advantage_max / adv_clip``; the rollouts' clean latents x_0 are re-noised at
K timesteps per minibatch (x_t = (1 - t) x_0 + t eps, eps fresh), and the loss is the
PPO-clipped surrogate of lp = -weighted ||v(x_t, t) - (eps - x_0)||^2 with the ratio against
the pre-update lp (exactly 1 before the first optimizer step of the AWM step: the gradient is
then -A grad lp, an advantage-weighted flow-matching loss), + ``beta`` KL to the LoRA-disabled
base + ``awm_ema_beta`` KL to an EMA of the LoRA (both mean squared velocity differences);
after the step's updates the EMA reference moves by ref <- d ref + (1 - d) LoRA, d =
min(awm_ema_decay, 0.001 n) (the reference's warm-up), n the optimizer steps so far.

Deviations from the script (each an option, or documented here and in ``AWMConfig``):

* Sampler: our Euler steps (``training.diffusion.rollout``), SDE (Flow-GRPO's) on the steps whose end
  sigma lies in ``awm_sde_sigma_range`` (the reference SA-Solver's band [0.3, 0.9]) with noise
  level a = sqrt(2) tau (``awm_math.sa_tau_to_noise_level``: the same diffusion per unit time
  as SA-Solver's tau), ODE elsewhere; the reference uses SA-Solver (stochastic Adams,
  predictor and corrector of order 2). ``awm_sde_sigma_range=[]``: plain ODE.
* CFG: sampling and evaluation follow ``cfg`` / ``cfg_scale`` (the script's
  ``sample.guidance_scale``; its AWM configs use 1, and our AWM presets set ``cfg: false``);
  the matching loss and the KLs use the conditional velocity alone unless ``awm_train_cfg``
  (the script's ``train.cfg``, false in its configs).
* The EMA-reference KL is applied whenever ``awm_ema_beta > 0``; the script computes it only
  inside ``if config.train.beta > 0`` (line 1341: beta = 0 silently drops it as well).
* Constant groups (all rewards equal): kept, advantage 0, as the script (it does not filter);
  ``awm_drop_constant_groups=true`` drops them.
* Optimizer steps: one every ``grad_accum`` minibatches (the script accumulates all of an
  epoch's minibatches into one step: set ``grad_accum`` to prompts_per_step * group_size /
  batch_size for that); before each AWM step's first optimizer step the ratio is 1, after it
  against the lp under the sampling weights at the same timesteps and noise (as the script's
  old log-probs for ``i >= gradient_accumulation_steps``, lines 1227-1238). One pass over the
  samples (``num_inner_epochs`` must be 1: the script has no inner epochs).
* The evaluation EMA (``ema_decay > 0``) follows the script's ``EMAModuleWrapper``: once per
  AWM step, decay min((1 + n) / (10 + n), ema_decay) (``awm_math.eval_ema_update``), not the
  constant-decay EMA after every optimizer step of ``training.recipes.grpo``.
* The LR is constant by default (the script's cosine over 1e10 steps to lr / 3 is constant in
  practice); the discrete samplers take ``sigmas[i]`` where the script divides the
  scheduler's timesteps (1000 sigma, float32) by 1000 (a difference below 1e-7).
* Randomness (minibatch order, timesteps, noise) comes from the run's rollout generator
  (checkpointed: a resumed run continues exactly), not torch's global RNG on the device.

Shape legend: P prompts per step (per rank), G images per prompt, B = P * G, b samples per
minibatch, K = ``awm_train_timesteps``, N = K * b rows, timestep-major (``training.diffusion.awm_math``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import torch

from rewards.reward_fns import RewardFn
from training.diffusion import awm_math
from training.diffusion.awm_math import EMA_DECAY_TYPES, KL_WEIGHTINGS, LOSS_TYPES, TIMESTEP_SAMPLERS, WEIGHTINGS
from training.diffusion.config import TrainerConfig
from training.diffusion.loop import (
    Loop,
    StepOutcome,
    advantages,
    optimizer_steps_so_far,
    run_steps,
    sample_clean,
    start,
)
from training.diffusion.rollout import Cond, guided_velocity
from training.diffusion.scoring import score_step
from training.diffusion.sde import noise_latents
from training.diffusion.state import accumulate, ema_update, ema_weights
from training.diffusion.update import Policy, lora_disabled, minibatch_plan


@dataclass
class AWMConfig(TrainerConfig):
    """Advantage Weighted Matching's knobs: the shared ``TrainerConfig`` fields and the ``awm_*``
    fields (``conf/trainer/awm.yaml``); the deviations from the reference are in this module's docstring."""

    algorithm: str = "awm"
    """this recipe"""
    awm_train_timesteps: int = 6
    """K: training timesteps per update minibatch, shared by its samples, each with fresh noise
    (reference ``train.train_timesteps``); the minibatch runs as one K * batch_size forward pass"""
    awm_timestep_sampler: str = "discrete_wo_init"
    """how the K training timesteps are drawn (reference ``time_type``,
    ``training.diffusion.awm_math.draw_train_sigmas``):
    "discrete_wo_init" (strata of the sampling steps 1 .. int(T * timestep_fraction)), "discrete"
    (from step 0), "discrete_with_init" (step 0 + strata), "logit_normal" (stratified, shifted),
    "uniform" (stratified on [0.2, 1], shifted)"""
    awm_time_shift: float = 3.0
    """time shift of the continuous samplers, shift t / (1 + (shift - 1) t) (reference ``time_shift``)"""
    awm_weighting: str = "ghuber"
    """weighting of the per-sample flow-matching error e (``training.diffusion.awm_math.matching_log_prob``):
    "Uniform" e, "t" e t, "t**2" e t^2, "huber" (sqrt(e + 1e-10) - 1e-5) t, "ghuber" ((e + 1e-10)^p - 1e-10^p) t / p
    (reference ``train.weighting``)"""
    awm_ghuber_power: float = 0.25
    """p of the "ghuber" weighting (reference ``train.ghuber_power``)"""
    awm_loss_type: str = "exp_first"
    """"exp_first": ratio exp(lp - lp_old) per timestep and sample; "sum_first": per sample, of the
    mean over timesteps (reference ``train.loss_type``); clipped at ``clip_range`` (1 in the reference)"""
    awm_advantage_max: float = 1.0
    """> 0: advantages rescaled to A * awm_advantage_max / adv_clip after the clip (reference
    ``train.advantage_max``); 0: only clipped"""
    awm_kl_weighting: str = "Uniform"
    """the KL to the LoRA-disabled base (weight ``beta``): "Uniform" mean (v - v_base)^2 or "ELBO"
    (divided by 2 std_t^2, std_t = 0.7 sqrt(t / (1 - min(t, 0.99)))) (reference ``train.kl_weight``)"""
    awm_ema_beta: float = 1.0
    """weight of the KL to the EMA reference (the LoRA's EMA ``awm_ema_decay``; 0 skips its pass)
    (reference ``train.ema_beta``)"""
    awm_ema_kl_weighting: str = "Uniform"
    """"Uniform" or "ELBO", as ``awm_kl_weighting``, for the EMA reference KL (reference ``train.kl_ema_weight``)"""
    awm_ema_decay: float = 0.3
    """decay of the EMA reference, updated once per AWM step: ref <- d ref + (1 - d) LoRA
    (reference ``train.kl_ema_decay``)"""
    awm_ema_decay_type: str = "linear"
    """"linear": d = min(awm_ema_decay, 0.001 n) after n optimizer steps (the reference's warm-up);
    "constant": d = awm_ema_decay (reference ``train.kl_ema_decay_type``)"""
    awm_sde_sigma_range: list[float] = field(default_factory=lambda: [0.3, 0.9])
    """[lo, hi]: rollout steps whose end sigma lies in it are SDE steps with ``noise_level``, the others
    ODE (the reference SA-Solver's band; its tau = 0.4 is noise_level = sqrt(2) 0.4 = 0.566 here);
    []: every step ODE (reference ``sde_frac = 0`` without SA-Solver)"""
    awm_train_cfg: bool = False
    """the matching loss and KLs on the guided velocity (needs ``cfg``); false: on the conditional
    velocity alone, whatever the sampler uses (reference ``train.cfg = False``)"""
    awm_drop_constant_groups: bool = False
    """drop groups whose rewards are all equal from the update; false (the reference): they stay,
    with advantage 0, and still feel the KL terms"""

    def recipe_problems(self) -> list[str]:
        """The Advantage Weighted Matching fields, and the shared fields AWM reads differently."""
        cfg = self
        problems = []
        for name, allowed in (
            ("awm_timestep_sampler", TIMESTEP_SAMPLERS),
            ("awm_weighting", WEIGHTINGS),
            ("awm_loss_type", LOSS_TYPES),
            ("awm_kl_weighting", KL_WEIGHTINGS),
            ("awm_ema_kl_weighting", KL_WEIGHTINGS),
            ("awm_ema_decay_type", EMA_DECAY_TYPES),
        ):
            if getattr(cfg, name) not in allowed:
                problems.append(f"{name} must be one of {list(allowed)}, got {getattr(cfg, name)!r}")
        if cfg.awm_train_timesteps < 1:
            problems.append(f"awm_train_timesteps must be >= 1, got {cfg.awm_train_timesteps}")
        if not 0 <= cfg.awm_ema_decay <= 1:
            problems.append(f"awm_ema_decay must be in [0, 1], got {cfg.awm_ema_decay}")
        if cfg.awm_ema_beta < 0 or cfg.beta < 0:
            problems.append(f"awm_ema_beta and beta must be >= 0, got {cfg.awm_ema_beta} and {cfg.beta}")
        if not cfg.awm_ghuber_power > 0 or not cfg.awm_time_shift > 0:
            problems.append(
                f"awm_ghuber_power and awm_time_shift must be > 0, got {cfg.awm_ghuber_power} and {cfg.awm_time_shift}"
            )
        band = cfg.awm_sde_sigma_range
        if band and (len(band) != 2 or not all(isinstance(v, (int, float)) for v in band) or band[0] > band[1]):
            problems.append(f"awm_sde_sigma_range must be [] or [lo, hi] with lo <= hi, got {band}")
        elif band and not cfg.noise_level > 0:
            problems.append(f"awm_sde_sigma_range {band} has SDE steps: noise_level must be > 0, got {cfg.noise_level}")
        if cfg.num_inner_epochs != 1:
            problems.append(
                f"algorithm=awm makes one pass per step: num_inner_epochs must be 1, got {cfg.num_inner_epochs}"
            )
        if cfg.awm_train_cfg and not cfg.cfg:
            problems.append("awm_train_cfg=true trains on the guided velocity: it needs cfg=true")
        if cfg.sde_window:
            problems.append(
                f"algorithm=awm picks SDE steps by awm_sde_sigma_range: set sde_window=0, got {cfg.sde_window}"
            )
        return problems

    def backward_passes_per_minibatch(self) -> int:
        """One: all K timesteps of a minibatch are in one loss."""
        return 1


CONFIG = AWMConfig
TITLE = "AWM"


def _velocity(policy: Policy, x: torch.Tensor, sigma: torch.Tensor, cond: Cond, guided: bool) -> torch.Tensor:
    """The policy's velocity (N, ...) at ``x`` float32 (N, ...) and ``sigma`` (N,): guided
    (CFG with ``policy.cfg_scale``) when ``guided`` and the policy has an unconditional
    prompt, else the conditional one alone; under autocast."""
    uncond = None
    if guided and policy.uncond is not None:
        uncond = {k: v.expand(x.shape[0], *v.shape[1:]) for k, v in policy.uncond.items()}
    with policy.autocast():
        return guided_velocity(policy.family, policy, x.to(policy.dtype), sigma, cond, uncond, policy.cfg_scale)


@dataclass
class MatchBatch:
    """One update minibatch of AWM: b samples at K timesteps, N = K * b rows timestep-major.

    Attributes:
        idx: int64 (b,) the samples (indices into the step's B).
        weight: loss multiplier from ``minibatch_plan`` (1 in one process; 0 for padding).
        sigma: float32 (N,) training sigmas (``awm_math.draw_train_sigmas``).
        noise: float32 (N, ...) fresh noise eps.
        clean: float32 (N, ...) the samples' clean latents x_0, repeated K times.
        cond: conditioning, each tensor (N, ...).
        old_log_prob: float64 (K, b) lp under the sampling weights; None: this minibatch
            trains before the step's first optimizer step, where old = lp.detach().
    """

    idx: torch.Tensor
    weight: float
    sigma: torch.Tensor
    noise: torch.Tensor
    clean: torch.Tensor
    cond: Cond
    old_log_prob: torch.Tensor | None = None

    @property
    def noised(self) -> torch.Tensor:
        return noise_latents(self.clean, self.noise, self.sigma).float()


def _minibatches(
    loop: Loop, clean: torch.Tensor, cond: Cond, keep: torch.Tensor, kept_per_rank: list[int]
) -> list[MatchBatch]:
    """The step's minibatches in a fresh random order, as many on every rank (``minibatch_plan``),
    each with its K timesteps and noise drawn from the rollout generator (all drawn before any
    update, as the script's first pass, lines 1119-1238), and the old log-probs of those
    trained after the step's first optimizer step (m >= grad_accum), under the sampling weights."""
    cfg, run, K = loop.cfg, loop.run, loop.cfg.awm_train_timesteps
    order = keep[torch.randperm(len(keep), generator=run.rollout_gen).to(keep.device)]  # (B_kept,)
    batches = []
    for idx, weight in minibatch_plan(order, kept_per_rank, cfg.batch_size):
        b = len(idx)
        sigma = awm_math.draw_train_sigmas(
            cfg.awm_timestep_sampler, K, b, loop.sigmas, cfg.timestep_fraction, cfg.awm_time_shift, run.rollout_gen
        ).to(clean.device)  # (N,)
        noise = torch.randn((K * b, *clean.shape[1:]), generator=run.rollout_gen).to(clean.device)  # (N, ...)
        reps = lambda t: t[idx].repeat(K, *([1] * (t.ndim - 1)))  # noqa: E731  (b, ...) -> (K * b, ...)
        batches.append(MatchBatch(idx, weight, sigma, noise, reps(clean), {k: reps(v) for k, v in cond.items()}))
    for mb in batches[cfg.grad_accum :]:
        with torch.no_grad():
            v = _velocity(loop.policy, mb.noised, mb.sigma, mb.cond, cfg.awm_train_cfg)
            lp = awm_math.matching_log_prob(v, mb.noise, mb.clean, mb.sigma, cfg.awm_weighting, cfg.awm_ghuber_power)
        mb.old_log_prob = lp.view(K, -1)
    return batches


def _update_minibatch(loop: Loop, mb: MatchBatch, adv: torch.Tensor, accumulated: int) -> dict[str, float]:
    """Backward of one minibatch's AWM loss: policy loss + beta KL(base) + awm_ema_beta KL(EMA
    reference), divided by the minibatches ``accumulated`` into this optimizer step. The two
    reference passes run first, without grad (the EMA swap writes the LoRA weights in place,
    which must not happen between the policy's forward and backward passes)."""
    cfg, run, policy, K = loop.cfg, loop.run, loop.policy, loop.cfg.awm_train_timesteps
    x = mb.noised  # (N, ...)
    zero = torch.zeros((), dtype=torch.float64)
    v_ema = v_base = None
    if cfg.awm_ema_beta > 0:
        with torch.no_grad(), ema_weights(run.lora_params, run.extra["ema_ref"]):
            v_ema = _velocity(policy, x, mb.sigma, mb.cond, cfg.awm_train_cfg)
    if cfg.beta > 0:
        with torch.no_grad(), lora_disabled(policy.reference):
            v_base = _velocity(policy, x, mb.sigma, mb.cond, cfg.awm_train_cfg)
    v = _velocity(policy, x, mb.sigma, mb.cond, cfg.awm_train_cfg)  # (N, ...) with grad
    lp = awm_math.matching_log_prob(v, mb.noise, mb.clean, mb.sigma, cfg.awm_weighting, cfg.awm_ghuber_power)
    lp = lp.view(K, -1)  # (K, b)
    old = lp.detach() if mb.old_log_prob is None else mb.old_log_prob
    a = adv[mb.idx]  # (b,)
    policy_loss, ratio, clip_fraction = awm_math.awm_policy_loss(lp, old, a, cfg.clip_range, cfg.awm_loss_type)
    kl = awm_math.velocity_kl(v, v_base, mb.sigma, K, cfg.awm_kl_weighting) if v_base is not None else zero
    ema_kl = awm_math.velocity_kl(v, v_ema, mb.sigma, K, cfg.awm_ema_kl_weighting) if v_ema is not None else zero
    loss = policy_loss + cfg.beta * kl + cfg.awm_ema_beta * ema_kl
    run.accelerator.backward(loss * mb.weight / accumulated)
    with torch.no_grad():
        error = ((v.double() - (mb.noise.double() - mb.clean.double())) ** 2).mean()
    return {
        "loss": loss.item(),
        "policy_loss": policy_loss.item(),
        "kl": kl.item(),
        "ema_kl": ema_kl.item(),
        "ratio": ratio.mean().item(),
        "clip_fraction": clip_fraction.item(),
        "approx_kl": (0.5 * (lp.detach() - old) ** 2).mean().item(),
        "matching_error": error.item(),
    }


def _update(loop: Loop, batches: list[MatchBatch], adv: torch.Tensor) -> dict[str, float]:
    """Every minibatch once, an optimizer step every ``grad_accum`` minibatches (a last, smaller
    group is averaged over its own count). The evaluation EMA is left to ``train`` (decay 1.0
    here makes ``optimizer_step``'s own EMA update a no-op). Returns the means over the
    minibatches (padding ones left out) and the grad norms."""
    cfg, run = loop.cfg, loop.run
    values, grad_norms = accumulate(
        run,
        batches,
        lambda mb, accumulated: _update_minibatch(loop, mb, adv, accumulated),
        cfg.grad_accum,
        cfg.max_grad_norm,
        1.0,
    )
    stats: dict[str, list[float]] = {}
    for mb, value in zip(batches, values):
        if mb.weight != 0:
            for k, v in value.items():
                stats.setdefault(k, []).append(v)
    out = {k: float(np.mean(v)) for k, v in stats.items()}
    out["grad_norm"] = float(np.mean(grad_norms)) if grad_norms else 0.0
    return out


def _step(loop: Loop, step: int, items: list) -> StepOutcome:
    """One AWM step on this rank's B ``items`` (``training.diffusion.loop.run_steps`` calls it)."""
    run, policy, cfg, sde_steps = loop.run, loop.policy, loop.cfg, _sde_steps(loop)

    # 1. Sample: P prompts x G images with the current LoRA; only the clean latents are kept.
    run.model.eval()
    clean, cond, images, futures = sample_clean(
        policy, items, cfg, loop.sigmas, sde_steps, run.rollout_gen, loop.rewarder
    )

    # 2. Reward: weighted sum per image, gathered over ranks; reward-hacking guards.
    rewards = score_step(futures, items, images, loop.named, loop.accelerator)

    # 3. Advantages: group-relative (float64, std per adv_std), clipped, rescaled to +-awm_advantage_max.
    adv, keep, kept_per_rank = advantages(rewards, loop)
    groups_kept = sum(kept_per_rank) / cfg.group_size
    if not cfg.awm_drop_constant_groups:  # the reference trains every sample
        keep = torch.arange(len(adv), device=adv.device)
        kept_per_rank = [len(adv)] * loop.accelerator.num_processes
    adv = awm_math.scale_advantages(adv, cfg.adv_clip, cfg.awm_advantage_max)

    # 4. Update: per minibatch the advantage-weighted matching loss at K fresh timesteps and noises,
    #    + beta KL(base) + awm_ema_beta KL(EMA reference); an optimizer step every grad_accum minibatches.
    run.model.train()
    batches = _minibatches(loop, clean, cond, keep, kept_per_rank)
    update = _update(loop, batches, adv)

    # 5. EMA reference (and the evaluation EMA) after the step's updates; n = optimizer steps so far.
    n = optimizer_steps_so_far(loop)
    decay = awm_math.ema_ref_decay(n, cfg.awm_ema_decay, cfg.awm_ema_decay_type)
    ema_update(run.extra["ema_ref"], run.lora_params, decay)
    if run.ema is not None:
        ema_update(run.ema, run.lora_params, awm_math.eval_ema_decay(n, cfg.ema_decay))
    update["ema_ref_decay"] = decay
    return StepOutcome(images, rewards, update, groups_kept)


def _sde_steps(loop: Loop) -> list[int]:
    """The rollout steps whose end sigma lies in ``awm_sde_sigma_range`` ([] when it is empty: the ODE)."""
    band = loop.cfg.awm_sde_sigma_range
    return awm_math.sde_steps_in_band(loop.sigmas, band[0], band[1]) if band else []


def train(
    cfg: AWMConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with Advantage Weighted Matching; returns the per-step history.

    Args:
        cfg: the knobs (``AWMConfig``: the ``awm_*`` fields, and ``beta`` as the weight of the
            KL to the LoRA-disabled base).
        pipe: a diffusers flow-matching pipeline (``training.diffusion.rollout.FAMILIES``), weights frozen.
        reward_fns: name -> ``fn(prompts, images, items=...) -> list[float | None]``.
        weights: name -> weight of that reward in the total.
        train_items, val_items: objects with a ``.prompt``, passed to the rewards as ``items``.
        family_kwargs: extra family arguments (max_sequence_length, FLUX guidance).

    Returns:
        the history (``training.diffusion.logs.RunLog``; a resume continues the checkpoint's): per step
        "step", "loss", "reward_mean", "kl" (to the base), "approx_kl", "ratio_mean",
        "clip_fraction", ...; W&B also gets ``train/policy_loss``, ``train/ema_kl``,
        ``train/matching_error`` (unweighted mean ||v - (eps - x_0)||^2) and
        ``train/ema_ref_decay``; per evaluation "eval_step", "eval_reward".

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup`` with
            ``AWMConfig.recipe_problems``, ``check_rewards``); a reward that goes bad later raises at that step.
    """
    # 0. Setup: check inputs, LoRA, optimizer, the EMA reference (a copy of the LoRA), resume; then the steps.
    loop = start(
        cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs, desc="AWM", extra_state=("ema_ref",)
    )
    return run_steps(loop, train_items, _step)
