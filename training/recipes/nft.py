"""DiffusionNFT LoRA training of a flow-matching text-to-image pipeline: the recipe, in one loop.

``train`` reads top to bottom: # 0. Setup, then per step # 1. Sample (ODE, old policy) ->
# 2. Reward -> # 3. Advantages -> # 4. Update (NFT loss on the clean samples, re-noised) ->
# 5. Old-policy update -> # 6. Log/checkpoint, and # 7. the final evaluation.
``trainer.algorithm=nft`` (``conf/trainer/nft.yaml``). Source: DiffusionNFT (Zheng et al., arXiv 2509.16117),
NVlabs/DiffusionNFT at commit 24af5554898d85e93efa492f42b5e9cdf4156e9b,
``scripts/train_nft_sd3.py`` (sampling lines 640-676, the loss and the optimizer steps
lines 790-1030, the old-policy update lines 1034-1039) and ``config/nft.py``. The math is in
``training.diffusion.nft_math``; the shared parts (start, prompt draw, advantages, evaluations, end of
a step) in ``training.diffusion.loop``.

The recipe, per step: sample the step's images with the *old* LoRA weights
(``loop.run.extra["old"]``, checkpointed) by the deterministic ODE; score them; group-relative
advantages A -> optimality probabilities r; then for each minibatch and each of K of the T
sampling noise levels t (a fresh random subset per sample, as the reference): fresh noise,
x_t = (1 - t) x0 + t eps, v_old (old weights, no grad), v_theta (grad), v_ref (LoRA off, when
the KL weight ``beta`` > 0), loss = NFT policy loss + beta * KL, backward; after the step's
updates old <- d old + (1 - d) current with d = return_decay(optimizer steps so far).

Deviations from the reference (each documented here; the option ones in ``NFTConfig``):

* Sampler: the reference samples with a deterministic 2nd-order DPM solver (``sample.solver =
  "dpm2"``, ``flow_grpo/diffusers_patch/solver.py``) and passes the transformer the timestep
  sigma * 1000 cast to an integer; ours is the Euler ODE of ``training.diffusion.rollout.sample``
  (``sde_steps=[]``) on float timesteps. The trained noise levels are the sampling sigmas of
  ``schedule_sigmas`` in both (reference: ``pipeline.scheduler.timesteps / 1000``).
* Classifier-free guidance: the reference samples, trains and evaluates at guidance scale 1
  (``config/nft.py``: ``sample.guidance_scale = 1.0``); here ``cfg=true`` is refused for nft
  (``NFTConfig.recipe_problems``), so every velocity is the conditional one.
* Constant-reward groups: the reference trains every sample (advantage 0 -> r = 0.5); that is
  the default here, and ``nft_drop_constant_groups=true`` drops them as GRPO does (option).
* Advantages: ``training.diffusion.loop.advantages`` (float64, (r - group mean) / (global std + 1e-4),
  clipped to ``adv_clip``; the reference clips at the loss, the same for one clip value); a
  group of exactly equal rewards gets exactly 0 (the reference's float64 mean may leave ~1e-16).
* The old policy starts as a copy of the LoRA (the reference copies the trained adapter into a
  separately initialised "old" one before the first step: the same weights) and a resume
  restores the checkpointed old weights (the reference reloads the old adapter from the saved
  trained LoRA, so a resume there resets old = current).
* Velocities are cast to float32 before the loss (the reference runs the loss math on the
  autocast outputs); the weights of the x0 loss are float64, as in the reference.
* Random draws (sample order, trained noise levels, the noise) come from the run's rollout
  generator (checkpointed), so a resume continues exactly; the reference uses the global RNG.
* Minibatches, gradient accumulation and EMA as ``training.recipes.grpo`` (``minibatch_plan``; a last,
  smaller accumulation group is averaged over its own count; the EMA is a plain constant-decay
  EMA, the reference's ``EMAModuleWrapper(decay=0.9)`` with warm-up when ``train.ema``).
* FSDP is refused (the old weights are swapped into the LoRA tensors, which FSDP shards).

Shape legend: P prompts per step (per rank), G images per prompt, B = P * G, b samples per
minibatch, K trained noise levels per sample, T sampling steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import torch
from accelerate.utils import DistributedType

from rewards.reward_fns import RewardFn
from training.diffusion.config import TrainerConfig
from training.diffusion.loop import (
    Loop,
    StepOutcome,
    advantages,
    close,
    optimizer_steps_so_far,
    run_steps,
    sample_clean,
    start,
)
from training.diffusion.nft_math import (
    ADV_MODES,
    DECAY_TYPES,
    nft_policy_loss,
    optimality_probability,
    return_decay,
    velocity_kl,
)
from training.diffusion.rollout import Cond
from training.diffusion.scoring import score_step
from training.diffusion.sde import noise_latents
from training.diffusion.state import accumulate, ema_update, ema_weights
from training.diffusion.update import lora_disabled, minibatch_plan


@dataclass
class NFTConfig(TrainerConfig):
    """DiffusionNFT's knobs: the shared ``TrainerConfig`` fields and the ``nft_*`` fields
    (``conf/trainer/nft.yaml``); the deviations from the reference are in this module's docstring."""

    algorithm: str = "nft"
    """this recipe"""
    nft_beta: float = 1.0
    """DiffusionNFT guidance strength beta (reference ``config.beta``: 1.0 in its base NFT config,
    0.1 in ``sd3_ocr``): v+ = beta v + (1 - beta) v_old, v- = (1 + beta) v_old - beta v; > 0.
    The KL weight is the shared ``beta`` (reference ``train.beta``, 1e-4 there) and the
    advantage clip the shared ``adv_clip`` (reference ``train.adv_clip_max``)"""
    nft_decay_type: int = 1
    """old (sampling) policy decay schedule (reference ``config.decay_type``): after each step's
    updates old = d * old + (1 - d) * current with d = ``training.diffusion.nft_math.return_decay``(optimizer
    steps so far): 0: d = 0 (old = current); 1: d ramps 0.001 per optimizer step to 0.5 (reference
    default); 2: d = 0 for 75 optimizer steps, then ramps 0.0075 per step to 0.999 (``sd3_ocr``)"""
    nft_adv_mode: str = "all"
    """advantage -> optimality probability r (reference ``train.adv_mode``): "all",
    "positive_only", "negative_only", "one_only" or "binary" (``training.diffusion.nft_math.optimality_probability``)"""
    nft_drop_constant_groups: bool = False
    """false (reference): every sample trains, a group of equal rewards at advantage 0, r = 0.5
    (it pulls the policy towards the old one); true: drop such groups as GRPO does"""

    def recipe_problems(self) -> list[str]:
        """The DiffusionNFT fields, and the shared fields NFT reads differently."""
        cfg = self
        problems = []
        if not cfg.nft_beta > 0:
            problems.append(f"nft_beta must be > 0 (the NFT loss divides by it), got {cfg.nft_beta}")
        if cfg.nft_decay_type not in DECAY_TYPES:
            problems.append(f"nft_decay_type must be one of {sorted(DECAY_TYPES)}, got {cfg.nft_decay_type!r}")
        if cfg.nft_adv_mode not in ADV_MODES:
            problems.append(f"nft_adv_mode must be one of {list(ADV_MODES)}, got {cfg.nft_adv_mode!r}")
        if not cfg.adv_clip > 0:
            problems.append(f"adv_clip must be > 0 for nft (r = A / adv_clip / 2 + 0.5), got {cfg.adv_clip}")
        if cfg.cfg:
            problems.append(
                "algorithm=nft samples and trains without classifier-free guidance (DiffusionNFT uses guidance "
                "scale 1): set trainer.cfg=false"
            )
        if cfg.sde_window:
            problems.append(f"algorithm=nft samples by the ODE, no SDE window: set sde_window=0, got {cfg.sde_window}")
        return problems


CONFIG = NFTConfig
TITLE = "DiffusionNFT"


@dataclass
class Samples:
    """The B clean samples of one NFT step on this rank.

    Attributes:
        x0: float32 (B, ...) final latents of the old policy's ODE samples (sigma = 0).
        cond: conditioning, each tensor (B, ...).
    """

    x0: torch.Tensor
    cond: Cond


def trained_levels(cfg: NFTConfig) -> int:
    """K = int(T * timestep_fraction): noise levels trained per sample and step (reference
    ``num_train_timesteps``, train_nft_sd3.py line 569)."""
    return int(cfg.train_sampling_steps * cfg.timestep_fraction)


def update_minibatch(
    loop: Loop,
    x0: torch.Tensor,
    cond: Cond,
    r: torch.Tensor,
    levels: torch.Tensor,
    weight: float,
    grad_accum: int,
) -> dict[str, list[float]]:
    """Backward of the NFT loss of one minibatch, one trained noise level at a time.

    Per level j: eps ~ N(0, I) from the rollout generator, x_t = (1 - t) x0 + t eps with
    t = sigmas[levels[:, j]]; v_old with the old LoRA swapped in (no grad), v_theta (grad), v_ref
    with the LoRA off (only when ``cfg.beta`` > 0); loss = ``nft_policy_loss`` + beta *
    mean(``velocity_kl``); ``accelerator.backward(weight * loss / (K * grad_accum))``. No
    optimizer step. Reference: train_nft_sd3.py lines 860-990.

    Args:
        loop: the run (``cfg``, ``policy``, ``run.extra["old"]``, ``sigmas``).
        x0: float32 (b, ...) clean latents.
        cond: conditioning, each tensor (b, ...).
        r: float32 (b,) optimality probabilities.
        levels: int64 (b, K) indices into ``loop.sigmas`` of the trained noise levels.
        weight: ``minibatch_plan``'s loss weight (0 for a padding minibatch).
        grad_accum: minibatches accumulated into this optimizer step.

    Returns:
        {"loss", "policy_loss", "unweighted_policy_loss", "kl", "old_deviate", "old_kl"}: one
        float per level (old_kl only with the reference pass); empty for weight 0.
    """
    cfg, policy, run = loop.cfg, loop.policy, loop.run
    keys = ("loss", "policy_loss", "unweighted_policy_loss", "kl", "old_deviate", "old_kl")
    stats: dict[str, list[float]] = {k: [] for k in keys}
    n_levels = levels.shape[1]
    for j in range(n_levels):
        t = loop.sigmas[levels[:, j].cpu()]  # (b,)
        noise = torch.randn(x0.shape, generator=run.rollout_gen, dtype=torch.float32).to(x0.device)
        x_t = noise_latents(x0, noise, t.to(x0.device))  # (b, ...)
        with torch.no_grad(), ema_weights(run.lora_params, run.extra["old"]):
            v_old = policy.velocity(x_t, t, cond).float()
        v = policy.velocity(x_t, t, cond).float()
        policy_loss, per_sample = nft_policy_loss(v, v_old, x_t, x0, t, r, cfg.nft_beta, cfg.adv_clip)
        kl = torch.zeros((), device=x0.device)
        old_kl = None
        if cfg.beta > 0:
            with torch.no_grad(), lora_disabled(policy.reference):
                v_ref = policy.velocity(x_t, t, cond).float()
            kl = velocity_kl(v, v_ref).mean()
            old_kl = velocity_kl(v_old, v_ref).mean()
        loss = policy_loss + cfg.beta * kl
        run.accelerator.backward(loss * weight / (n_levels * grad_accum))
        if weight == 0:
            continue
        stats["loss"].append(loss.item())
        stats["policy_loss"].append(policy_loss.item())
        stats["unweighted_policy_loss"].append(per_sample.mean().item())
        stats["kl"].append(kl.item())
        stats["old_deviate"].append(((v.detach() - v_old) ** 2).mean().item())
        if old_kl is not None:
            stats["old_kl"].append(old_kl.item())
    return stats


def _update(
    loop: Loop, samples: Samples, r: torch.Tensor, pool: torch.Tensor, pool_per_rank: list[int]
) -> dict[str, float]:
    """``num_inner_epochs`` passes over the samples ``pool``, freshly permuted each time, each
    sample with its own random K of the T sampling noise levels (reference lines 808-817);
    the same number of minibatches on every rank (``minibatch_plan``); an optimizer step every
    ``grad_accum`` minibatches. Returns the means of ``update_minibatch``'s values and of the
    grad norms."""
    cfg, run = loop.cfg, loop.run
    n_sampling, n_levels = len(loop.sigmas) - 1, trained_levels(cfg)
    pooled: dict[str, list[float]] = {}
    grad_norms = []
    for _ in range(cfg.num_inner_epochs):
        order = pool[torch.randperm(len(pool), generator=run.rollout_gen).to(pool.device)]  # (B_pool,)
        levels = torch.stack(
            [torch.randperm(n_sampling, generator=run.rollout_gen)[:n_levels] for _ in range(len(samples.x0))]
        )  # (B, K): sample i's levels, indexed by sample

        def backward(planned: tuple[torch.Tensor, float], accumulated: int) -> dict[str, list[float]]:
            idx, weight = planned
            cond = {k: v[idx] for k, v in samples.cond.items()}
            return update_minibatch(loop, samples.x0[idx], cond, r[idx], levels[idx.cpu()], weight, accumulated)

        plan = minibatch_plan(order, pool_per_rank, cfg.batch_size)
        stats, norms = accumulate(run, plan, backward, cfg.grad_accum, cfg.max_grad_norm, cfg.ema_decay)
        for s in stats:
            for k, v in s.items():
                pooled.setdefault(k, []).extend(v)
        grad_norms += norms
    pooled["grad_norm"] = grad_norms
    return {k: float(np.mean(v)) if v else 0.0 for k, v in pooled.items()}


def _step(loop: Loop, step: int, items: list) -> StepOutcome:
    """One DiffusionNFT step on this rank's B ``items`` (``training.diffusion.loop.run_steps`` calls it)."""
    run, policy, cfg, old = loop.run, loop.policy, loop.cfg, loop.run.extra["old"]

    # 1. Sample: P prompts x G images, deterministic ODE with the old weights swapped in.
    run.model.eval()
    with ema_weights(run.lora_params, old):
        x0, cond, images, futures = sample_clean(
            policy, items, cfg, loop.sigmas, [], run.rollout_gen, loop.rewarder
        )  # []: the deterministic ODE
    samples = Samples(x0, cond)

    # 2. Reward: weighted sum per image, gathered over ranks; reward-hacking guards.
    rewards = score_step(futures, items, images, loop.named, loop.accelerator)

    # 3. Advantages -> optimality probabilities r; constant groups train at r = 0.5 (reference).
    adv, keep, kept_per_rank = advantages(rewards, loop)
    r = optimality_probability(adv, cfg.adv_clip, cfg.nft_adv_mode)  # (B,)
    if cfg.nft_drop_constant_groups:
        pool, pool_per_rank = keep, kept_per_rank
    else:
        pool = torch.arange(len(adv), device=adv.device)
        pool_per_rank = [len(adv)] * loop.accelerator.num_processes

    # 4. Update: NFT loss at K noise levels per sample + beta * velocity KL.
    run.model.train()
    update = _update(loop, samples, r, pool, pool_per_rank)

    # 5. Old policy: old <- d old + (1 - d) current, d from the optimizer steps so far (in every checkpoint).
    n_optimizer_steps = optimizer_steps_so_far(loop)
    decay = return_decay(n_optimizer_steps, cfg.nft_decay_type)
    ema_update(old, run.lora_params, decay)
    update.update(decay=decay, optimizer_steps=float(n_optimizer_steps), r_mean=r.mean().item())
    return StepOutcome(images, rewards, update, sum(kept_per_rank) / cfg.group_size)


def train(
    cfg: NFTConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with DiffusionNFT; returns the per-step history.

    Args:
        cfg: the knobs (``NFTConfig``: the ``nft_*`` fields, ``beta`` as
            the KL weight, ``adv_clip`` as adv_clip_max, ``cfg`` false).
        pipe, reward_fns, weights, train_items, val_items, family_kwargs: as ``training.recipes.grpo.train``.

    Returns:
        the history (``training.diffusion.logs.RunLog``): per step "step", "loss", "reward_mean", "kl"
        (mean squared velocity gap to the LoRA-off model; 0 when beta = 0), "approx_kl",
        "ratio_mean", "clip_fraction" (0: NFT has no ratio), "image_stats",
        "check_pass_rates"; per evaluation "eval_step", "eval_reward". W&B also gets
        ``train/policy_loss``, ``train/unweighted_policy_loss``, ``train/old_deviate`` (mean
        (v - v_old)^2), ``train/old_kl`` (with beta > 0), ``train/decay`` (the old-policy decay
        applied after the step) and ``train/optimizer_steps``.

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup``,
            ``check_rewards``), or FSDP (the old weights are swapped into the LoRA tensors).
    """
    # 0. Setup: check inputs, LoRA (+ its "old" copy), optimizer, resume; then the steps (``_step``).
    loop = start(
        cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs, desc="NFT", extra_state=("old",)
    )
    if loop.accelerator.distributed_type == DistributedType.FSDP:
        close(loop)
        raise ValueError("algorithm=nft does not run under FSDP (it swaps old LoRA weights into sharded ones)")
    return run_steps(loop, train_items, _step)
