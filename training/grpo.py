"""Flow-GRPO LoRA training of a flow-matching text-to-image pipeline: the recipe, in one loop.

``train`` reads top to bottom: # 0. Setup, then per GRPO step # 1. Sample -> # 2. Reward ->
# 3. Advantages -> # 4. Update -> # 5. Log/checkpoint, and # 6. the final evaluation. Source:
Flow-GRPO (arXiv 2505.05470). ``trainer.algorithm=grpo`` (the default); ``training.nft`` and
``training.awm`` are the other recipes, on the same shared parts. The parts it calls:

* ``training.loop``: the start of a run, the prompt draw, advantages, evaluations, the end of a
  step (log, checkpoint), shared by every recipe;

* ``training.config``: ``GRPOConfig`` (every knob, and the deviations from the reference), ``check_setup``;
* ``training.update``: the ``Policy``, the step's ``Rollouts``, ``minibatch_plan``, ``update_minibatch``;
* ``training.state``: LoRA, optimizer, EMA, save and resume;
* ``training.scoring``: named rewards, the check before step 1, evaluation, reward-hacking logs;
* ``training.logs``: one ``StepRecord`` per step -> history.json and the W&B row;
* ``training.rollout`` (SDE rollouts), ``training.sde`` and ``training.grpo_math`` (the math),
  ``training.timesteps`` (which steps are SDE and trained); rewards are combined by
  ``rewards.reward_fns.combine_rewards`` in a thread (``AsyncRewarder``).

Shape legend: P prompts per step (per rank), G images per prompt, B = P * G, K trained
denoising steps, T sampling steps.

Multi-GPU (accelerate: DDP, DeepSpeed ZeRO-2, FSDP). Every forward pass (rollouts, evaluation,
the policy and the LoRA-disabled reference pass of the update) goes through the prepared
model, so FSDP gathers its sharded weights; every rank runs the same number of forward and
backward passes (``minibatch_plan``), so the gradient all-reduce never waits on a rank that
dropped all its groups; checkpoints gather the full LoRA (``training.state.lora_state_dict``).
Every rank evaluates the same validation prompts (FSDP needs all ranks in each forward pass).
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import Any, Sequence

import numpy as np
import torch
from PIL import Image

from rewards.reward_fns import AsyncRewarder, RewardFn
from training.config import GRPOConfig
from training.loop import Loop, advantages, close, draw_items, end_step, evaluate_due, final_evaluation, start
from training.rollout import to_pil
from training.scoring import score_step
from training.state import optimizer_step
from training.timesteps import draw_steps
from training.update import Policy, Rollouts, minibatch_plan, pool_stats, update_minibatch


def _sample(
    policy: Policy,
    items: list,
    cfg: GRPOConfig,
    sigmas: torch.Tensor,
    step: int,
    generator: torch.Generator,
    rewarder: AsyncRewarder,
) -> tuple[Rollouts, list[Image.Image], list[Future]]:
    """SDE rollouts of ``items`` in chunks of ``batch_size`` images (whole groups), each chunk's
    images submitted to ``rewarder`` while the next one samples. The SDE and trained steps are
    drawn per chunk (the Flow-GRPO-Fast window), from ``generator`` like the noise.

    Returns:
        the rollouts at their trained steps (``Rollouts``, B samples), the B images, and one
        reward future per chunk (``AsyncRewarder.submit``).
    """
    prompts = [it.prompt for it in items]  # (B,) each prompt G times in a row
    cond = policy.family.encode(prompts[:: cfg.group_size], policy.device)
    cond = {k: v.repeat_interleave(cfg.group_size, dim=0) for k, v in cond.items()}  # each (B, ...)
    parts, futures, images = [], [], []
    for c in range(0, len(prompts), cfg.batch_size):
        part = slice(c, c + cfg.batch_size)
        sde_steps, train_steps = draw_steps(
            cfg.train_sampling_steps,
            sde_window=cfg.sde_window,
            timestep_fraction=cfg.timestep_fraction,
            schedule=cfg.window_schedule,
            sde_window_range=cfg.sde_window_range,
            shift_every=cfg.window_shift_every,
            stride=cfg.window_stride,
            grpo_step=step,
            generator=generator,
        )
        r = policy.rollout({k: v[part] for k, v in cond.items()}, sigmas, sde_steps, generator)
        cols = [sde_steps.index(t) for t in train_steps]
        steps = torch.tensor(train_steps).expand(len(r.final), -1)
        parts.append((r.latents[:, cols], r.next_latents[:, cols], r.log_probs[:, cols], steps))
        images.extend(to_pil(policy.family.decode(r.final)))
        futures.append(rewarder.submit(prompts[part], images[part], items=items[part]))
    latents, next_latents, old_log_probs, steps = (torch.cat(x) for x in zip(*parts))  # (B, K, ...) .. (B, K)
    return Rollouts(latents, next_latents, old_log_probs, steps, cond), images, futures


def _update(
    loop: Loop, rollouts: Rollouts, adv: torch.Tensor, keep: torch.Tensor, kept_per_rank: list[int]
) -> dict[str, float]:
    """``num_inner_epochs`` passes over the kept samples, freshly permuted each time (as the
    reference), in the same number of minibatches on every rank (``minibatch_plan``); an
    optimizer step every ``grad_accum`` minibatches (a last, smaller group is averaged over its
    own count). Returns the means of ``update_minibatch``'s values and of the grad norms."""
    cfg, run = loop.cfg, loop.run
    mb_stats, grad_norms = [], []
    for _ in range(cfg.num_inner_epochs):
        order = keep[torch.randperm(len(keep), generator=run.rollout_gen).to(keep.device)]  # (B_kept,)
        plan = minibatch_plan(order, kept_per_rank, cfg.batch_size)
        for m, (idx, weight) in enumerate(plan):
            first = m - m % cfg.grad_accum  # first minibatch of this accumulation group
            accumulated = min(cfg.grad_accum, len(plan) - first)
            mb = rollouts.minibatch(idx, adv, weight)
            stats = update_minibatch(
                mb,
                loop.policy,
                accelerator=run.accelerator,
                sigmas=loop.sigmas,
                clip_range=cfg.clip_range,
                beta=cfg.beta,
                grad_accum=accumulated,
                kl_form=cfg.kl_form,
            )
            mb_stats.append(stats)
            if m + 1 - first == accumulated:
                grad_norms.append(optimizer_step(run, cfg.max_grad_norm, cfg.ema_decay))
    return {k: float(np.mean(v)) if v else 0.0 for k, v in pool_stats(mb_stats, grad_norm=grad_norms).items()}


def train(
    cfg: GRPOConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with Flow-GRPO; returns the per-step history.

    Args:
        cfg: the knobs (``GRPOConfig``).
        pipe: a diffusers flow-matching pipeline (``training.rollout.FAMILIES``), weights frozen.
        reward_fns: name -> ``fn(prompts, images, items=...) -> list[float | None]``.
        weights: name -> weight of that reward in the total.
        train_items, val_items: objects with a ``.prompt`` (rubric ``Item``s); passed to the
            rewards as the ``items`` column. ``item.meta["kind"]``, when present, groups the
            ``rewards/kind/<kind>/mean`` logs.
        family_kwargs: extra family arguments (max_sequence_length, FLUX guidance).

    Returns:
        the history (``training.logs.RunLog``; a resume continues the checkpoint's): per GRPO
        step "step", "loss", "reward_mean", "kl", "approx_kl", "ratio_mean", "clip_fraction",
        "image_stats", "check_pass_rates";
        per evaluation "eval_step", "eval_reward" (EMA weights when kept; the last one at step
        ``num_steps``). W&B gets each ``training.logs.StepRecord``'s row and the evaluations.

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup``, ``check_rewards``);
            a reward that goes bad later raises from ``rewards.reward_fns.combine_rewards`` at that step.
    """
    # 0. Setup: check inputs, LoRA, optimizer, resume.
    loop = start(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs, desc="GRPO")
    run, policy = loop.run, loop.policy
    try:
        for step in loop.bar:
            t0 = time.perf_counter()
            eval_row = evaluate_due(loop, step)

            # 1. Sample: P prompts x G images, SDE steps recorded with their log-probs.
            items = draw_items(train_items, loop)
            run.model.eval()
            rollouts, images, futures = _sample(policy, items, cfg, loop.sigmas, step, run.rollout_gen, loop.rewarder)

            # 2. Reward: weighted sum per image, gathered over ranks; reward-hacking guards.
            rewards = score_step(futures, items, images, loop.named, loop.accelerator)

            # 3. Advantages: group-relative in float64, clipped; groups of equal rewards dropped.
            adv, keep, kept_per_rank = advantages(rewards.total, loop)

            # 4. Update: clipped policy loss + beta * KL on each trained step, old log-probs from the rollout.
            run.model.train()
            update = _update(loop, rollouts, adv, keep, kept_per_rank)

            # 5. Log/checkpoint.
            end_step(loop, step, items, images, rewards, update, sum(kept_per_rank) / cfg.group_size, t0, eval_row)

        # 6. Final evaluation, logged at step num_steps.
        final_evaluation(loop)
    finally:
        close(loop)
    return loop.log.history
