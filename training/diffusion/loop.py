"""What every training recipe (``training.recipes``) shares around its own sample -> reward ->
update steps: the start of a run, the step scaffolding (``run_steps``: evaluation when due, the
prompt draw, the end of a step, the final evaluation, the end of the run), group-relative
advantages and the clean-sample rollouts.

A recipe reads::

    loop = start(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs)
    return run_steps(loop, train_items, lambda loop, step, items: ...)  # -> StepOutcome
    # the step: 1. sample, 2. reward (score_step), 3. advantages, 4. update: the recipe's own

Shape legend: P prompts per step (per rank), G images per prompt, B = P * G.
"""

from __future__ import annotations

import json
import math
import random
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import torch
from accelerate import Accelerator
from PIL import Image
from tqdm.auto import tqdm

from rewards.reward_fns import AsyncRewarder, RewardFn
from training.diffusion.checkpoint import list_checkpoints, lora_metadata, write_run_record
from training.diffusion.config import TrainerConfig, check_setup
from training.diffusion.grpo_math import group_advantages, nonzero_group_mask
from training.diffusion.logs import RunLog, StepRecord, sample_table, samples_media
from training.diffusion.monitors import check_signals, eval_signals
from training.diffusion.reward_aggregation import gdpo_advantages
from training.diffusion.rollout import Cond, family_for, schedule_sigmas, to_pil
from training.diffusion.scoring import NamedReward, StepRewards, check_rewards, evaluate
from training.diffusion.state import RunState, add_lora, ema_weights, save_run, setup_run
from training.diffusion.update import Policy


@dataclass
class StepOutcome:
    """What a recipe's step gives back to ``run_steps`` (the arguments of ``end_step``).

    Attributes:
        images: this rank's B images of the step, in rollout order.
        rewards: the step's rewards (``training.diffusion.scoring.score_step``).
        update: the recipe's update statistics (see ``end_step``).
        groups_kept: prompt groups with a non-zero advantage, summed over ranks.
    """

    images: list[Image.Image]
    rewards: StepRewards
    update: dict[str, float]
    groups_kept: float


class NonFiniteLoss(ArithmeticError):
    """A step's loss or KL was NaN or inf (``end_step``): the run stops before that step's
    checkpoint, so every checkpoint holds finite weights. One line; ``rubricloop-train`` exits 1."""


@dataclass
class Loop:
    """The run a recipe drives.

    Attributes:
        cfg: the knobs.
        accelerator: the run's ``Accelerator``.
        run: LoRA, optimizer, EMA, generators (``training.diffusion.state.RunState``).
        policy: the LoRA policy (``training.diffusion.update.Policy``).
        sigmas: float32 (T + 1,) sampling sigmas of training rollouts.
        eval_sigmas: float32 (T_eval + 1,) sigmas of the evaluation samples.
        log: history.json and W&B (``training.diffusion.logs.RunLog``).
        named, weights: the rewards under their configured names, and their weights.
        val_kw: ``training.diffusion.scoring.evaluate``'s arguments but the policy.
        rewarder: scores rollout chunks in a thread while the next chunk samples.
        bar: the progress bar over the steps still to run (``for step in loop.bar``).
        start_step: the first step this process runs (> 0 on a resume).
    """

    cfg: TrainerConfig
    accelerator: Accelerator
    run: RunState
    policy: Policy
    sigmas: torch.Tensor
    eval_sigmas: torch.Tensor
    log: RunLog
    named: list[NamedReward]
    weights: list[float]
    val_kw: dict[str, Any]
    rewarder: AsyncRewarder
    bar: Any
    start_step: int


def _setup(
    cfg: TrainerConfig, pipe, family_kwargs: dict[str, Any] | None, accelerator: Accelerator, extra_state: Sequence[str]
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
    run, start = setup_run(cfg, accelerator, pipe, transformer, lora_params, extra_state=extra_state)
    guidance = cfg.cfg  # classifier-free guidance: every velocity also runs the negative prompt
    uncond = family.encode([cfg.negative_prompt], device) if guidance else None  # each (1, ...)
    reference = accelerator.unwrap_model(run.model)
    policy = Policy(
        family, run.model, reference, dtype, device, uncond, cfg.cfg_scale, cfg.noise_level, accelerator.autocast
    )
    return run, start, policy


def start(
    cfg: TrainerConfig,
    pipe,
    reward_fns: dict[str, RewardFn],
    weights: dict[str, float],
    train_items: Sequence,
    val_items: Sequence,
    family_kwargs: dict[str, Any] | None = None,
    *,
    desc: str = "GRPO",
    extra_state: Sequence[str] = (),
) -> Loop:
    """Check the inputs, put the LoRA on, restore a resumed run, open the log.

    Args:
        cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs: as ``training.recipes.grpo.train``.
        desc: the progress bar's label.
        extra_state: names of the recipe's own copies of the LoRA weights (``RunState.extra``,
            e.g. NFT's sampling policy), each started as a copy of the LoRA, saved in every
            checkpoint and restored on a resume.

    Raises:
        ValueError: bad config or reward output, before any sampling (``check_setup``, ``check_rewards``).
    """
    check_setup(cfg, reward_fns, weights, train_items, val_items)
    named, weight_list = [NamedReward(n, fn) for n, fn in reward_fns.items()], [float(weights[n]) for n in reward_fns]
    check_rewards(named, weight_list, train_items, cfg.resolution)
    accelerator = Accelerator(mixed_precision=cfg.mixed_precision)
    run, start_step, policy = _setup(cfg, pipe, family_kwargs, accelerator, extra_state)
    sigmas = schedule_sigmas(pipe.scheduler, cfg.train_sampling_steps, policy.family.image_seq_len())  # (T + 1,)
    eval_sigmas = schedule_sigmas(pipe.scheduler, cfg.eval_sampling_steps, policy.family.image_seq_len())
    # resumed: the history and the W&B run (its id in <run>/wandb_run_id) are continued
    log = RunLog(cfg, accelerator, run.run_dir, len(train_items), history=run.history, resumed=start_step > 0)
    val_kw = dict(sigmas=eval_sigmas, items=val_items[: cfg.num_eval_prompts], named=named, weights=weight_list)
    val_kw["seed"] = cfg.eval_seed  # the same noise every evaluation
    rewarder = AsyncRewarder(named, weight_list, max_workers=1)  # one thread: chunks are scored in order
    quiet = not accelerator.is_main_process  # one progress bar
    bar = tqdm(
        range(start_step, cfg.num_steps), initial=start_step, total=cfg.num_steps, desc=desc, unit="step", disable=quiet
    )
    return Loop(
        cfg, accelerator, run, policy, sigmas, eval_sigmas, log, named, weight_list, val_kw, rewarder, bar, start_step
    )


def draw_items(train_items: Sequence, loop: Loop) -> list:
    """This rank's B items: its P prompts of one draw shared by every rank, each G times in a row."""
    cfg, rank, world = loop.cfg, loop.accelerator.process_index, loop.accelerator.num_processes
    drawn = loop.run.prompt_rng.sample(range(len(train_items)), cfg.prompts_per_step * world)
    mine = drawn[rank * cfg.prompts_per_step : (rank + 1) * cfg.prompts_per_step]
    return [train_items[i] for i in mine for _ in range(cfg.group_size)]


def advantages(rewards: StepRewards, loop: Loop) -> tuple[torch.Tensor, torch.Tensor, list[int]]:
    """This rank's advantages, float32 (B,), from every rank's rewards in float64: with
    ``cfg.reward_aggregation`` "sum", group-relative on the weighted totals (``group_advantages``,
    std per ``cfg.adv_std``); with "gdpo", each reward normalised in its group first
    (``training.diffusion.reward_aggregation.gdpo_advantages``); clipped to ``cfg.adv_clip``.
    Also the indices int64 (B_kept,) of its samples whose group's advantages are not all 0, and
    B_kept of every rank."""
    cfg, accelerator = loop.cfg, loop.accelerator
    rank, world = accelerator.process_index, accelerator.num_processes
    if cfg.reward_aggregation == "gdpo":
        weights = {r.name: w for r, w in zip(loop.named, loop.weights)}
        adv = gdpo_advantages(rewards.gathered, weights, cfg.group_size, cfg.adv_clip)  # (world * B,) float64
        adv = adv.to(rewards.total.device)
    else:
        adv = group_advantages(rewards.total, cfg.group_size, cfg.adv_std, clip=cfg.adv_clip)  # (world * B,) float64
    adv = adv.view(world, -1)[rank]  # (B,)
    keep = nonzero_group_mask(adv, cfg.group_size).nonzero().squeeze(1)  # (B_kept,)
    kept_per_rank = accelerator.gather(torch.tensor([len(keep)], device=accelerator.device)).tolist()  # (world,)
    return adv.float(), keep, kept_per_rank


def sample_clean(
    policy: Policy,
    items: list,
    cfg: TrainerConfig,
    sigmas: torch.Tensor,
    sde_steps: list[int],
    generator: torch.Generator,
    rewarder: AsyncRewarder,
) -> tuple[torch.Tensor, Cond, list[Image.Image], list[Future]]:
    """Rollouts of ``items`` that keep only their clean latents (the recipes that train on the
    forward process: NFT, AWM), in chunks of ``batch_size`` images (SDE at ``sde_steps``, ODE
    elsewhere; [] is the deterministic ODE), each chunk's images submitted to ``rewarder`` while
    the next one samples; the noise from ``generator``. Samples with whatever weights the LoRA
    holds (NFT swaps its old weights in first).

    Returns:
        the clean latents float32 (B, ...), the conditioning (each tensor (B, ...)), the B
        images and one reward future per chunk.
    """
    prompts = [it.prompt for it in items]  # (B,) each prompt G times in a row
    cond = policy.family.encode(prompts[:: cfg.group_size], policy.device)
    cond = {k: v.repeat_interleave(cfg.group_size, dim=0) for k, v in cond.items()}  # each (B, ...)
    finals, futures, images = [], [], []
    for c in range(0, len(prompts), cfg.batch_size):
        part = slice(c, c + cfg.batch_size)
        r = policy.rollout({k: v[part] for k, v in cond.items()}, sigmas, sde_steps, generator)
        finals.append(r.final)
        images.extend(to_pil(policy.family.decode(r.final)))
        futures.append(rewarder.submit(prompts[part], images[part], items=items[part]))
    return torch.cat(finals), cond, images, futures


def optimizer_steps_so_far(loop: Loop) -> int:
    """The optimizer steps taken since the run began (the references' ``global_step``), read from
    the LR schedule's step count, which every optimizer step advances and a checkpoint saves."""
    return int(loop.run.lr_scheduler.last_epoch)


def run_evaluation(loop: Loop, step: int) -> dict[str, Any]:
    """``evaluate`` on the validation prompts with the EMA weights swapped in when kept, recorded
    in the history at ``step``; returns its W&B keys."""
    with ema_weights(loop.run.lora_params, loop.run.ema):
        return loop.log.eval_row(step, evaluate(loop.policy, **loop.val_kw))


def evaluate_due(loop: Loop, step: int) -> dict[str, Any]:
    """``run_evaluation`` when ``step`` is a multiple of ``eval_every``, else {}."""
    return run_evaluation(loop, step) if step % loop.cfg.eval_every == 0 else {}


def end_step(
    loop: Loop,
    step: int,
    items: Sequence,
    images: list[Image.Image],
    rewards: StepRewards,
    update: dict[str, float],
    groups_kept: float,
    t0: float,
    eval_row: dict[str, Any],
) -> None:
    """Log the step (history and W&B), show it on the progress bar and save a checkpoint (and
    ``history.json``) every ``save_every`` steps and after the last.

    When images are due (``RunLog.samples_due``: every ``log_images_every`` steps, 0: once per
    epoch) W&B also gets this rank's images as a grid ``samples`` (P rows, G columns, captioned
    per row with its prompt and each image's total reward) and the per-sample table
    ``samples_table`` (step, prompt, image, total reward, each reward, failed rubric check
    questions: ``training.diffusion.logs.sample_table``).

    Args:
        items, images: this rank's B items (``.prompt``) and images of the step, in rollout order.
        rewards: the step's rewards (``training.diffusion.scoring.score_step``).
        update: the recipe's update statistics; "loss", "kl", "approx_kl", "ratio",
            "clip_fraction", "grad_norm" are logged under their usual keys (a recipe without one
            reports 0.0), any other key as ``train/<key>``.
        groups_kept: prompt groups with a non-zero advantage, summed over ranks.
        t0: ``time.perf_counter()`` at the start of the step.

    Raises:
        NonFiniteLoss: the update's "loss" or "kl" is NaN or inf (nothing of the step is logged or saved).
        training.diffusion.monitors.HackingDetected: a signal of ``cfg.hacking_bounds`` left its
            bound (the step is logged, not saved).
    """
    cfg, log = loop.cfg, loop.log
    grid = table = None
    if log.samples_due(step) and log.tracker is not None:
        prompts = [it.prompt for it in items]
        have = rewards.sample_total.numel() == len(images)  # a StepRewards not from score_step may lack them
        totals = rewards.sample_total.tolist() if have else [math.nan] * len(images)
        per = {n: v.tolist() for n, v in rewards.sample_rewards.items() if v.numel() == len(images)}
        grid = samples_media(images, prompts, totals, cfg.group_size)
        table = sample_table(step, images, prompts, totals, per, rewards.failed)
    if not all(math.isfinite(update.get(k, 0.0)) for k in ("loss", "kl")):
        raise NonFiniteLoss(
            f"step {step}: the {cfg.algorithm} loss is {update.get('loss')} (kl {update.get('kl')}): training "
            f"diverged and stopped before a checkpoint; the last checkpoint in {loop.run.run_dir} is intact "
            "(lower trainer.lr, or check the rewards)"
        )
    lr = loop.run.lr_scheduler.get_last_lr()[0]
    record = StepRecord(step, rewards, update, grid, lr, groups_kept, time.perf_counter() - t0, table)
    log.log_step(record, eval_row)
    signals = {**rewards.image_stats, **eval_signals(eval_row, cfg.gold_reward)}
    check_signals(step, signals, cfg.hacking_bounds, list_checkpoints(loop.run.run_dir))  # logged, not saved
    loop.bar.set_postfix(reward=f"{log.history['reward_mean'][-1]:.3f}", kl=f"{update.get('kl', 0.0):.2g}")
    if (step + 1) % cfg.save_every == 0 or step + 1 == cfg.num_steps:
        save_run(loop.run, step + 1, cfg.keep_last, log.history)
        if loop.accelerator.is_main_process:  # the curves so far, readable while the run goes on or after a kill
            write_run_record(loop.run.run_dir, "history.json", json.dumps(log.history, default=float))


def final_evaluation(loop: Loop) -> None:
    """The last evaluation, logged at step ``num_steps`` (again on a resume of a finished run:
    it is not in the last checkpoint, and a kill may have stopped it), then the final LoRA
    (checkpoint ``step_<num_steps>``) logged to W&B as a "model" artifact (``RunLog.log_model``,
    main process) with its rank, alpha, target modules, base model, step and final eval reward.

    Raises:
        training.diffusion.monitors.HackingDetected: an ``eval_<stat>`` or "gold" signal of the
            final evaluation left its bound (logged; the model artifact is not).
    """
    cfg, log, run = loop.cfg, loop.log, loop.run
    row = run_evaluation(loop, cfg.num_steps)
    log.log(row, cfg.num_steps)
    check_signals(
        cfg.num_steps, eval_signals(row, cfg.gold_reward), cfg.hacking_bounds, list_checkpoints(run.run_dir), final=True
    )
    if log.tracker is not None:
        meta = {**lora_metadata(run.transformer, run.base_model), "base_model": run.base_model}
        meta.update(step=cfg.num_steps, eval_reward=log.history["eval_reward"][-1], algorithm=cfg.algorithm)
        log.log_model(run.run_dir / f"step_{cfg.num_steps}", cfg.num_steps, meta)


def close(loop: Loop) -> None:
    """Stop the reward thread and finish the W&B run."""
    loop.rewarder.close()
    loop.log.finish()


def run_steps(loop: Loop, train_items: Sequence, step_fn: Callable[[Loop, int, list], StepOutcome]) -> dict[str, list]:
    """The step scaffolding every recipe shares: for each step still to run, the evaluation when
    due (``evaluate_due``), this rank's B items (``draw_items``), the recipe's ``step_fn(loop,
    step, items)`` (sample -> reward -> advantages -> update) and ``end_step``; then the final
    evaluation, and ``close`` whatever happens. Returns the history (``loop.log.history``).

    Raises:
        whatever ``step_fn`` raises; ``NonFiniteLoss`` (``end_step``).
    """
    try:
        for step in loop.bar:
            t0 = time.perf_counter()
            eval_row = evaluate_due(loop, step)
            items = draw_items(train_items, loop)
            out = step_fn(loop, step, items)
            end_step(loop, step, items, out.images, out.rewards, out.update, out.groups_kept, t0, eval_row)
        final_evaluation(loop)  # logged at step num_steps
    finally:
        close(loop)
    return loop.log.history
