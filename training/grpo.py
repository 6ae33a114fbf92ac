"""Flow-GRPO LoRA training of a flow-matching text-to-image pipeline: the recipe, in one loop.

``train`` reads top to bottom: # 0. Setup, then per GRPO step # 1. Sample -> # 2. Reward ->
# 3. Advantages -> # 4. Update -> # 5. Log/checkpoint, and # 6. the final evaluation. Source:
Flow-GRPO (arXiv 2505.05470). The parts it calls:

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

import random
import time
from concurrent.futures import Future
from typing import Any, Sequence

import numpy as np
import torch
from accelerate import Accelerator
from PIL import Image
from tqdm.auto import tqdm

from rewards.reward_fns import AsyncRewarder, RewardFn
from training.config import GRPOConfig, check_setup
from training.grpo_math import group_advantages, nonzero_group_mask
from training.logs import RunLog, StepRecord, image_grid
from training.rollout import family_for, schedule_sigmas, to_pil
from training.scoring import NamedReward, check_rewards, evaluate, score_step
from training.state import RunState, add_lora, ema_weights, optimizer_step, save_run, setup_run
from training.timesteps import draw_steps
from training.update import Policy, Rollouts, minibatch_plan, pool_stats, update_minibatch


def _setup(
    cfg: GRPOConfig, pipe, family_kwargs: dict[str, Any] | None, accelerator: Accelerator
) -> tuple[RunState, int, Policy]:
    """Seed, put a LoRA on ``pipe.transformer``, build the optimizer (resumed when ``cfg.resume``)
    and the policy. Returns the run state, the first step to run and the policy."""
    rank, device = accelerator.process_index, accelerator.device
    random.seed(cfg.seed + rank)
    np.random.seed(cfg.seed + rank)
    torch.manual_seed(cfg.seed + rank)
    family = family_for(pipe, cfg.resolution, cfg.resolution, **(family_kwargs or {}))
    transformer, lora_params = add_lora(pipe, cfg, device)
    dtype = transformer.dtype  # read before prepare: wrappers hide it
    run, start = setup_run(cfg, accelerator, pipe, transformer, lora_params)
    guidance = cfg.cfg  # classifier-free guidance: every velocity also runs the negative prompt
    uncond = family.encode([cfg.negative_prompt], device) if guidance else None  # each (1, ...)
    reference = accelerator.unwrap_model(run.model)
    policy = Policy(
        family, run.model, reference, dtype, device, uncond, cfg.cfg_scale, cfg.noise_level, accelerator.autocast
    )
    return run, start, policy


def _draw_items(train_items: Sequence, rng: random.Random, cfg: GRPOConfig, accelerator: Accelerator) -> list:
    """This rank's B items: its P prompts of one draw shared by every rank, each G times in a row."""
    rank, world = accelerator.process_index, accelerator.num_processes
    drawn = rng.sample(range(len(train_items)), cfg.prompts_per_step * world)
    mine = drawn[rank * cfg.prompts_per_step : (rank + 1) * cfg.prompts_per_step]
    return [train_items[i] for i in mine for _ in range(cfg.group_size)]


def _sample(
    policy: Policy,
    items: list,
    cfg: GRPOConfig,
    sigmas: torch.Tensor,
    step: int,
    run: RunState,
    rewarder: AsyncRewarder,
) -> tuple[Rollouts, list[Image.Image], list[Future]]:
    """SDE rollouts of ``items`` in chunks of ``batch_size`` images (whole groups), each chunk's
    images submitted to ``rewarder`` while the next one samples. The SDE and trained steps are
    drawn per chunk (the Flow-GRPO-Fast window), from ``run.rollout_gen`` like the noise.

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
            generator=run.rollout_gen,
        )
        r = policy.rollout({k: v[part] for k, v in cond.items()}, sigmas, sde_steps, run.rollout_gen)
        cols = [sde_steps.index(t) for t in train_steps]
        steps = torch.tensor(train_steps).expand(len(r.final), -1)
        parts.append((r.latents[:, cols], r.next_latents[:, cols], r.log_probs[:, cols], steps))
        images.extend(to_pil(policy.family.decode(r.final)))
        futures.append(rewarder.submit(prompts[part], images[part], items=items[part]))
    latents, next_latents, old_log_probs, steps = (torch.cat(x) for x in zip(*parts))  # (B, K, ...) .. (B, K)
    return Rollouts(latents, next_latents, old_log_probs, steps, cond), images, futures


def _advantages(
    rewards: torch.Tensor, cfg: GRPOConfig, accelerator: Accelerator
) -> tuple[torch.Tensor, torch.Tensor, list[int]]:
    """This rank's advantages, float32 (B,): group-relative over every rank's ``rewards``
    (world * B,) in float64 (``group_advantages``, std per ``cfg.adv_std``, clipped); the indices
    int64 (B_kept,) of its samples whose group's rewards are not all equal; B_kept of every rank."""
    rank, world = accelerator.process_index, accelerator.num_processes
    advantages = group_advantages(rewards, cfg.group_size, cfg.adv_std, clip=cfg.adv_clip)  # (world * B,) float64
    advantages = advantages.view(world, -1)[rank]  # (B,)
    keep = nonzero_group_mask(advantages, cfg.group_size).nonzero().squeeze(1)  # (B_kept,)
    kept_per_rank = accelerator.gather(torch.tensor([len(keep)], device=accelerator.device)).tolist()  # (world,)
    return advantages.float(), keep, kept_per_rank


def _evaluate(run: RunState, policy: Policy, log: RunLog, step: int, **kwargs: Any) -> dict[str, Any]:
    """``evaluate(policy, **kwargs)`` with the EMA weights swapped in when kept, recorded in
    ``log`` at ``step``; returns its W&B keys."""
    with ema_weights(run.lora_params, run.ema):
        return log.eval_row(step, evaluate(policy, **kwargs))


def _update(
    run: RunState,
    policy: Policy,
    rollouts: Rollouts,
    advantages: torch.Tensor,
    keep: torch.Tensor,
    kept_per_rank: list[int],
    sigmas: torch.Tensor,
    cfg: GRPOConfig,
) -> dict[str, float]:
    """``num_inner_epochs`` passes over the kept samples, freshly permuted each time (as the
    reference), in the same number of minibatches on every rank (``minibatch_plan``); an
    optimizer step every ``grad_accum`` minibatches (a last, smaller group is averaged over its
    own count). Returns the means of ``update_minibatch``'s values and of the grad norms."""
    mb_stats, grad_norms = [], []
    for _ in range(cfg.num_inner_epochs):
        order = keep[torch.randperm(len(keep), generator=run.rollout_gen).to(keep.device)]  # (B_kept,)
        plan = minibatch_plan(order, kept_per_rank, cfg.batch_size)
        for m, (idx, weight) in enumerate(plan):
            first = m - m % cfg.grad_accum  # first minibatch of this accumulation group
            accumulated = min(cfg.grad_accum, len(plan) - first)
            mb = rollouts.minibatch(idx, advantages, weight)
            stats = update_minibatch(
                mb,
                policy,
                accelerator=run.accelerator,
                sigmas=sigmas,
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
    check_setup(cfg, reward_fns, weights, train_items, val_items)
    named, weight_list = [NamedReward(n, fn) for n, fn in reward_fns.items()], [float(weights[n]) for n in reward_fns]
    check_rewards(named, weight_list, train_items, cfg.resolution)
    accelerator = Accelerator(mixed_precision=cfg.mixed_precision)
    run, start, policy = _setup(cfg, pipe, family_kwargs, accelerator)
    sigmas = schedule_sigmas(pipe.scheduler, cfg.train_sampling_steps, policy.family.image_seq_len())  # (T + 1,)
    eval_sigmas = schedule_sigmas(pipe.scheduler, cfg.eval_sampling_steps, policy.family.image_seq_len())
    log = RunLog(cfg, accelerator, run.run_dir, len(train_items), history=run.history)  # resumed: continued
    val_kw = dict(sigmas=eval_sigmas, items=val_items[: cfg.num_eval_prompts], named=named, weights=weight_list)
    val_kw["seed"] = cfg.eval_seed  # the same noise every evaluation
    rewarder = AsyncRewarder(named, weight_list, max_workers=1)  # one thread: chunks are scored in order
    quiet = not accelerator.is_main_process  # one progress bar
    bar = tqdm(range(start, cfg.num_steps), initial=start, total=cfg.num_steps, desc="GRPO", unit="step", disable=quiet)
    try:
        for step in bar:
            t0 = time.perf_counter()
            eval_row = _evaluate(run, policy, log, step, **val_kw) if step % cfg.eval_every == 0 else {}

            # 1. Sample: P prompts x G images, SDE steps recorded with their log-probs.
            items = _draw_items(train_items, run.prompt_rng, cfg, accelerator)
            run.model.eval()
            rollouts, images, futures = _sample(policy, items, cfg, sigmas, step, run, rewarder)

            # 2. Reward: weighted sum per image, gathered over ranks; reward-hacking guards.
            rewards = score_step(futures, items, images, named, accelerator)

            # 3. Advantages: group-relative in float64, clipped; groups of equal rewards dropped.
            advantages, keep, kept_per_rank = _advantages(rewards.total, cfg, accelerator)

            # 4. Update: clipped policy loss + beta * KL on each trained step, old log-probs from the rollout.
            run.model.train()
            update = _update(run, policy, rollouts, advantages, keep, kept_per_rank, sigmas, cfg)

            # 5. Log/checkpoint.
            grid = image_grid(images, cfg.group_size) if log.samples_due(step) else None  # P rows, G columns
            lr, groups_kept = run.lr_scheduler.get_last_lr()[0], sum(kept_per_rank) / cfg.group_size
            log.log_step(StepRecord(step, rewards, update, grid, lr, groups_kept, time.perf_counter() - t0), eval_row)
            bar.set_postfix(reward=f"{log.history['reward_mean'][-1]:.3f}", kl=f"{update['kl']:.2g}")
            if (step + 1) % cfg.save_every == 0 or step + 1 == cfg.num_steps:
                save_run(run, step + 1, cfg.keep_last, log.history)

        # 6. Final evaluation, logged at step num_steps (again on a resume of a finished run: it is
        # not in the last checkpoint, and a kill may have stopped it).
        log.log(_evaluate(run, policy, log, cfg.num_steps, **val_kw), cfg.num_steps)
    finally:
        rewarder.close()
        log.finish()
    return log.history
