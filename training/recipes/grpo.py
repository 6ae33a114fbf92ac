"""Flow-GRPO LoRA training of a flow-matching text-to-image pipeline: the recipe, in one loop.

``train`` reads top to bottom: # 0. Setup, then per GRPO step (``grpo_step``) # 1. Sample -> # 2.
Reward -> # 3. Advantages -> # 4. Update, then the shared end of a step (# 5. Log/checkpoint) and
the final evaluation (``training.diffusion.loop.run_steps``). Source: Flow-GRPO (arXiv 2505.05470).
``trainer.algorithm=grpo`` (the default, ``conf/trainer/grpo.yaml``); the other recipes of
``training.recipes`` run on the same shared parts. The parts it calls:

* ``training.diffusion.loop``: the start of a run, the step scaffolding, the prompt draw, advantages,
  evaluations, the end of a step (log, checkpoint), shared by every recipe;

* ``GRPOConfig`` (below: the shared ``training.diffusion.config.TrainerConfig`` and the deviations from the
  reference), ``training.diffusion.config.check_setup``;
* ``training.diffusion.update``: the ``Policy``, the step's ``Rollouts``, ``minibatch_plan``, ``update_minibatch``;
* ``training.diffusion.state``: LoRA, optimizer, EMA, gradient accumulation (``accumulate``), save and resume;
* ``training.diffusion.scoring``: named rewards, the check before step 1, evaluation, reward-hacking logs;
* ``training.diffusion.logs``: one ``StepRecord`` per step -> history.json and the W&B row;
* ``training.diffusion.rollout`` (SDE rollouts), ``training.diffusion.sde`` and
  ``training.diffusion.grpo_math`` (the math), ``training.diffusion.timesteps`` (which steps are
  SDE and trained); rewards are combined by ``rewards.reward_fns.combine_rewards`` in a thread
  (``AsyncRewarder``).

Shape legend: P prompts per step (per rank), G images per prompt, B = P * G, K trained
denoising steps, T sampling steps.

Multi-GPU (accelerate: DDP, DeepSpeed ZeRO-2, FSDP). Every forward pass (rollouts, evaluation,
the policy and the LoRA-disabled reference pass of the update) goes through the prepared
model, so FSDP gathers its sharded weights; every rank runs the same number of forward and
backward passes (``minibatch_plan``), so the gradient all-reduce never waits on a rank that
dropped all its groups; checkpoints gather the full LoRA (``training.diffusion.state.lora_state_dict``).
Every rank evaluates the same validation prompts (FSDP needs all ranks in each forward pass).
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import torch
from PIL import Image

from rewards.reward_fns import AsyncRewarder, RewardFn
from training.diffusion.config import TrainerConfig
from training.diffusion.loop import Loop, StepOutcome, advantages, run_steps, start
from training.diffusion.rollout import to_pil
from training.diffusion.scoring import score_step
from training.diffusion.state import accumulate
from training.diffusion.timesteps import draw_steps
from training.diffusion.update import (
    Policy,
    Rollouts,
    StepLoss,
    clipped_step_loss,
    minibatch_plan,
    pool_stats,
    update_minibatch,
)


@dataclass
class GRPOConfig(TrainerConfig):
    """Flow-GRPO's knobs: the shared ``TrainerConfig`` fields, read as documented there.
    Defaults follow Flow-GRPO's SD3.5 OCR config where one exists.

    Checked against yifan123/flow_grpo (commit 74db6919, ``scripts/train_sd3.py``,
    ``scripts/train_sd3_fast.py``, ``flow_grpo/diffusers_patch/sd3_sde_with_logprob.py``,
    ``flow_grpo/stat_tracking.py``, ``config/grpo.py:general_ocr_sd3``, ``config/base.py``).
    Matching the reference: the SDE step and its log-prob; the KL (``kl_form="flow_grpo"``,
    denominator 2 std_t^2); float64 advantages with constant groups dropped; global std; the
    first int(T * fraction) steps trained; the Flow-GRPO-Fast window drawn per sampling batch
    in ``sde_window_range`` (first half by default); samples permuted each inner epoch; the loss
    of each trained step divided by K * (minibatches accumulated); beta 0.04, clip_range 1e-4,
    adv_clip 5, noise_level 0.7, lr 3e-4, weight_decay 1e-4, LoRA r 32 / alpha 64, T 10 / 40.

    Remaining deviations from the reference:

    * ``group_size`` 8 (reference 24) and ``prompts_per_step`` 4: the reference fills 48 groups
      over 32 GPUs; set them to your hardware.
    * ``ema_decay`` 0 (EMA off). The reference SD3 configs set ``train.ema = True`` with
      ``EMAModuleWrapper(decay=0.9, update_step_interval=8)`` and a warm-up decay
      min((1 + n) / (10 + n), 0.9) (``flow_grpo/ema.py``); ours, when on, is a plain EMA with a
      constant decay after every optimizer step.
    * Dropped groups are not padded back: the reference re-adds random zero-advantage samples
      until the kept count divides ``num_batches_per_epoch`` (fixed tensor shapes); here a last
      partial minibatch runs as it is, and every rank runs as many minibatches
      (``minibatch_plan``).
    * A group is zeroed when its rewards are all equal (max == min), not only when float64
      arithmetic happens to make r - mean exactly 0; for G = 8 and rewards k/n (n <= 10) the
      two agree.
    * ``lr_scheduler``/``lr_warmup_steps``: the reference has a constant LR and no scheduler.
    * Groups are the G consecutive samples of one prompt on one rank (the reference tracker
      groups by prompt text after gathering, its sampler spreading a group over GPUs); the
      gathered rewards still set the global std, and prompts of one step are distinct.
    * The Flow-GRPO-Fast window is drawn per rollout chunk of ``batch_size`` images (whole
      groups) from the rank's rollout generator; the reference draws it per pipeline call
      from Python's ``random``.
    * MixGRPO (``window_schedule="mixgrpo"``, Tencent-Hunyuan/MixGRPO
      ``fastvideo/utils/grpo_states.py``, progressive strategy with overlap): the same windows
      while they fit in [0, T - 2); there the reference keeps sliding, cutting the window at
      T - 2 until it is empty, while ours stops once the window end reaches
      ``sde_window_range[1]`` (default T - 2) and keeps ``sde_window`` steps.
    """

    algorithm: str = "grpo"
    """this recipe"""


CONFIG = GRPOConfig
TITLE = "GRPO"


def sample_rollouts(
    policy: Policy,
    items: list,
    cfg: TrainerConfig,
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


def update_rollouts(
    loop: Loop,
    rollouts: Rollouts,
    adv: torch.Tensor,
    keep: torch.Tensor,
    kept_per_rank: list[int],
    step_loss: StepLoss = clipped_step_loss,
) -> dict[str, float]:
    """``num_inner_epochs`` passes over the kept samples, freshly permuted each time (as the
    reference), in the same number of minibatches on every rank (``minibatch_plan``); an
    optimizer step every ``grad_accum`` minibatches (``training.diffusion.state.accumulate``), each
    minibatch's backward by ``training.diffusion.update.update_minibatch`` with ``step_loss``.
    Returns the means of its values and of the grad norms."""
    cfg, run = loop.cfg, loop.run
    mb_stats, grad_norms = [], []

    def backward(planned: tuple[torch.Tensor, float], accumulated: int) -> dict[str, list[float]]:
        idx, weight = planned
        return update_minibatch(
            rollouts.minibatch(idx, adv, weight),
            loop.policy,
            accelerator=run.accelerator,
            sigmas=loop.sigmas,
            clip_range=cfg.clip_range,
            beta=cfg.beta,
            grad_accum=accumulated,
            kl_form=cfg.kl_form,
            step_loss=step_loss,
        )

    for _ in range(cfg.num_inner_epochs):
        order = keep[torch.randperm(len(keep), generator=run.rollout_gen).to(keep.device)]  # (B_kept,)
        plan = minibatch_plan(order, kept_per_rank, cfg.batch_size)
        stats, norms = accumulate(run, plan, backward, cfg.grad_accum, cfg.max_grad_norm, cfg.ema_decay)
        mb_stats += stats
        grad_norms += norms
    return {k: float(np.mean(v)) if v else 0.0 for k, v in pool_stats(mb_stats, grad_norm=grad_norms).items()}


def grpo_step(
    loop: Loop,
    step: int,
    items: list,
    *,
    step_loss: StepLoss = clipped_step_loss,
    prepare: Callable[[Loop, Rollouts], None] | None = None,
) -> StepOutcome:
    """One Flow-GRPO step on this rank's B ``items`` (``training.diffusion.loop.run_steps`` calls it).

    A variant of the GRPO loss (GRPO-Guard) passes its per-step ``step_loss``
    (``training.diffusion.update.StepLoss``) and a ``prepare(loop, rollouts)`` that adds what
    that loss reads to ``rollouts.extra`` after sampling, before the update."""
    run, policy, cfg = loop.run, loop.policy, loop.cfg

    # 1. Sample: P prompts x G images, SDE steps recorded with their log-probs.
    run.model.eval()
    rollouts, images, futures = sample_rollouts(policy, items, cfg, loop.sigmas, step, run.rollout_gen, loop.rewarder)
    if prepare is not None:
        prepare(loop, rollouts)

    # 2. Reward: weighted sum per image, gathered over ranks; reward-hacking guards.
    rewards = score_step(futures, items, images, loop.named, loop.accelerator)

    # 3. Advantages: group-relative in float64, clipped; groups of equal rewards dropped.
    adv, keep, kept_per_rank = advantages(rewards, loop)

    # 4. Update: clipped policy loss + beta * KL on each trained step, old log-probs from the rollout.
    run.model.train()
    update = update_rollouts(loop, rollouts, adv, keep, kept_per_rank, step_loss)
    return StepOutcome(images, rewards, update, sum(kept_per_rank) / cfg.group_size)


def train(
    cfg: TrainerConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with Flow-GRPO; returns the per-step history.

    Args:
        cfg: the knobs (``GRPOConfig``, or a recipe config built on it).
        pipe: a diffusers flow-matching pipeline (``training.diffusion.rollout.FAMILIES``), weights frozen.
        reward_fns: name -> ``fn(prompts, images, items=...) -> list[float | None]``.
        weights: name -> weight of that reward in the total.
        train_items, val_items: objects with a ``.prompt`` (rubric ``Item``s); passed to the
            rewards as the ``items`` column. ``item.meta["kind"]``, when present, groups the
            ``rewards/kind/<kind>/mean`` logs.
        family_kwargs: extra family arguments (max_sequence_length, FLUX guidance).

    Returns:
        the history (``training.diffusion.logs.RunLog``; a resume continues the checkpoint's): per GRPO
        step "step", "loss", "reward_mean", "kl", "approx_kl", "ratio_mean", "clip_fraction",
        "image_stats", "check_pass_rates";
        per evaluation "eval_step", "eval_reward" (EMA weights when kept; the last one at step
        ``num_steps``). W&B gets each ``training.diffusion.logs.StepRecord``'s row and the evaluations.

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup``, ``check_rewards``);
            a reward that goes bad later raises from ``rewards.reward_fns.combine_rewards`` at that step.
    """
    # 0. Setup: check inputs, LoRA, optimizer, resume; then the steps and the final evaluation.
    loop = start(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs, desc="GRPO")
    return run_steps(loop, train_items, grpo_step)
