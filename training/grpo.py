"""Flow-GRPO LoRA training of a flow-matching text-to-image pipeline, in one loop.

``train`` reads top to bottom: # 1. Sample -> # 2. Reward -> # 3. Advantages -> # 4. Update ->
# 5. Log/checkpoint. The math lives in ``training.sde`` and ``training.grpo_math``; rollouts in
``training.rollout``; checkpoints in ``training.checkpoint``; rewards are combined by
``rewards.reward_fns.combine_rewards`` (in a thread, ``AsyncRewarder``). Source: Flow-GRPO (arXiv
2505.05470). Shape legend: P prompts per step (per rank), G images per prompt, B = P * G,
K trained denoising steps, T sampling steps.
"""

from __future__ import annotations

import math
import os
import random
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from accelerate import Accelerator
from accelerate.utils import gather_object
from diffusers.optimization import get_scheduler
from peft import LoraConfig
from PIL import Image
from tqdm.auto import tqdm

from rewards.image_stats import image_stats
from rewards.reward_fns import AsyncRewarder, RewardFn, RubricReward, combine_rewards, tag_pass_rates
from training.checkpoint import list_checkpoints, load_checkpoint, restore_rng_states, rng_states, save_checkpoint
from training.grpo_math import clipped_policy_loss, ema_update, group_advantages, nonzero_group_mask, step_kl
from training.rollout import family_for, guided_velocity, sample, schedule_sigmas, to_pil
from training.sde import sde_step

class NamedReward:
    """A reward function under the name it has in ``train``'s ``reward_fns`` (its config key).

    ``rewards.reward_fns.combine_rewards`` names a function by its ``name`` attribute, so
    wrapping makes its errors and ``rewards/<name>/...`` logs use the configured key. When
    ``fn`` is a ``RubricReward``, the verdicts of every call are kept in call order (one list
    per image) until ``take_verdicts``: with one reward thread the calls run in submission
    order, so after all chunks of a step are scored they line up with the step's images.
    """

    def __init__(self, name: str, fn: RewardFn):
        self.name, self.fn = name, fn
        self._verdicts: list = []

    @property
    def is_rubric(self) -> bool:
        return isinstance(self.fn, RubricReward)

    def __call__(self, prompts: list[str], images: list[Image.Image], **columns: Any) -> list:
        values = self.fn(prompts=prompts, images=images, **columns)
        if self.is_rubric:
            self._verdicts.extend(self.fn.last_verdicts)
        return values

    def take_verdicts(self) -> list:
        """The verdict lists collected since the last call (one per image), and forget them."""
        out, self._verdicts = self._verdicts, []
        return out


@dataclass
class GRPOConfig:
    """Every knob of ``train``. Defaults follow Flow-GRPO's SD3.5 OCR config where one exists."""

    run_name: str = "grpo"
    """checkpoints go to <output_dir>/<run_name>/step_<n>/"""
    output_dir: str = "checkpoints"
    """folder holding one subfolder per run"""
    seed: int = 0
    """seeds python, numpy, torch, the rollout noise and the prompt order"""
    num_steps: int = 1000
    """GRPO steps (sample -> reward -> update)"""
    prompts_per_step: int = 4
    """P: prompts sampled per step on each rank"""
    group_size: int = 8
    """G: images per prompt (>= 2; 24 in Flow-GRPO)"""
    batch_size: int = 8
    """images per rollout chunk and per update minibatch"""
    resolution: int = 512
    """image height and width in pixels"""
    train_sampling_steps: int = 10
    """T: denoising steps of training rollouts (denoising reduction)"""
    eval_sampling_steps: int = 40
    """ODE steps of evaluation samples"""
    noise_level: float = 0.7
    """SDE noise level a"""
    timestep_fraction: float = 1.0
    """share of the T steps trained each GRPO step (all sampled with the SDE); used when sde_window == 0"""
    sde_window: int = 0
    """> 0: SDE only inside a random window of this many steps, ODE outside, and only those trained (Flow-GRPO-Fast)"""
    cfg: bool = True
    """classifier-free guidance in rollouts and updates"""
    cfg_scale: float = 4.5
    """CFG scale s"""
    negative_prompt: str = ""
    """the unconditional prompt for CFG"""
    adv_std: str = "group"
    """advantage std over each prompt "group" or the whole gathered batch ("global")"""
    adv_clip: float = 5.0
    """advantages are clipped to +-adv_clip"""
    clip_range: float = 1e-4
    """PPO ratio clip eps"""
    beta: float = 0.04
    """weight of the KL to the LoRA-disabled reference (0 skips the reference pass)"""
    num_inner_epochs: int = 1
    """update passes over each step's samples"""
    lr: float = 3e-4
    """AdamW learning rate"""
    lr_scheduler: str = "constant"
    """diffusers.optimization.get_scheduler name"""
    lr_warmup_steps: int = 0
    """LR warm-up, in optimizer steps"""
    weight_decay: float = 1e-4
    """AdamW weight decay"""
    grad_accum: int = 1
    """minibatches per optimizer step"""
    max_grad_norm: float = 1.0
    """gradient clipping norm"""
    lora_rank: int = 32
    """LoRA rank r"""
    lora_alpha: int = 64
    """LoRA alpha"""
    lora_target_modules: list[str] = field(default_factory=lambda: ["to_q", "to_k", "to_v", "to_out.0"])
    """transformer modules that get a LoRA"""
    ema_decay: float = 0.0
    """> 0: keep an EMA of the LoRA weights, used for evaluation and checkpoints"""
    gradient_checkpointing: bool = False
    """recompute transformer activations in the backward pass"""
    mixed_precision: str = "no"
    """"no", "bf16" or "fp16" autocast (SDE and log-prob math always run in fp32)"""
    eval_every: int = 10
    """held-out evaluation every this many steps (and at the end)"""
    eval_seed: int = 1234
    """fixed noise seed of evaluation samples"""
    num_eval_prompts: int = 8
    """validation prompts per evaluation"""
    save_every: int = 50
    """checkpoint every this many steps (and at the end)"""
    keep_last: int = 3
    """checkpoints kept"""
    resume: bool = False
    """continue from the run's latest checkpoint"""
    wandb_project: str = "rubricloop"
    """W&B project (offline without WANDB_API_KEY; WANDB_MODE=disabled turns it off)"""


def check_setup(cfg: GRPOConfig, reward_fns: dict, weights: dict, train_items: Sequence, resolution_ok: bool = True) -> None:
    """Fail at start, with one line, on a config the loop cannot run. Raises ValueError."""
    problems = []
    if cfg.group_size < 2:
        problems.append(f"group_size must be >= 2 (GRPO compares images of one prompt), got {cfg.group_size}")
    if cfg.sde_window < 0 or cfg.sde_window > cfg.train_sampling_steps:
        problems.append(f"sde_window must be in [0, train_sampling_steps={cfg.train_sampling_steps}], got {cfg.sde_window}")
    if not 0 < cfg.timestep_fraction <= 1:
        problems.append(f"timestep_fraction must be in (0, 1], got {cfg.timestep_fraction}")
    if cfg.adv_std not in ("group", "global"):
        problems.append(f"adv_std must be 'group' or 'global', got {cfg.adv_std!r}")
    if cfg.mixed_precision not in ("no", "bf16", "fp16"):
        problems.append(f"mixed_precision must be 'no', 'bf16' or 'fp16', got {cfg.mixed_precision!r}")
    if (cfg.prompts_per_step * cfg.group_size) % cfg.batch_size:
        problems.append(f"prompts_per_step * group_size = {cfg.prompts_per_step * cfg.group_size} must be divisible by batch_size={cfg.batch_size}")
    if not reward_fns:
        problems.append("no reward function configured")
    if set(reward_fns) != set(weights):
        problems.append(f"reward weights {sorted(weights)} do not match reward functions {sorted(reward_fns)}")
    if len(train_items) < cfg.prompts_per_step:
        problems.append(f"{len(train_items)} training prompts < prompts_per_step={cfg.prompts_per_step}")
    if problems:
        raise ValueError("bad GRPO config: " + "; ".join(problems))


@contextmanager
def lora_disabled(transformer):
    """The reference policy: the same transformer with its LoRA adapter switched off."""
    transformer.disable_adapters()
    try:
        yield
    finally:
        transformer.enable_adapters()


def _swap(params: list[torch.Tensor], values: list[torch.Tensor]) -> None:
    with torch.no_grad():
        for p, v in zip(params, values, strict=True):
            tmp = p.detach().clone()
            p.copy_(v)
            v.copy_(tmp)


def evaluate(family, transformer, cfg, sigmas, items, named: list[NamedReward], weights: list[float], uncond, autocast) -> dict[str, Any]:
    """ODE samples of the first ``num_eval_prompts`` validation items, fixed noise.

    Returns ``eval/reward_mean``, ``eval/<reward name>`` (mean over images with a value),
    ``eval/checks/<tag>/pass_rate`` when a ``RubricReward`` is configured, and the images
    under ``_images``. Rewards are combined by ``rewards.reward_fns.combine_rewards``.
    """
    items = items[: cfg.num_eval_prompts]
    prompts = [it.prompt for it in items]
    cond = family.encode(prompts, transformer.device)
    generator = torch.Generator().manual_seed(cfg.eval_seed)
    rollout = sample(family, transformer, cond, sigmas, [], cfg.noise_level, generator, _expand(uncond, len(prompts)), cfg.cfg_scale, autocast)
    images = to_pil(family.decode(rollout.final))
    total, per = combine_rewards(named, weights, prompts, images, items=items)
    checks = {f"eval/{k}": v for k, v in check_pass_rates(named, items).items()}
    return {"eval/reward_mean": total.mean().item(), **{f"eval/{n}": v.nanmean().item() for n, v in per.items()}, **checks, "_images": images}


def check_pass_rates(named: Sequence[NamedReward], items: Sequence) -> dict[str, float]:
    """``checks/<tag>/pass_rate`` in [0, 1] from the verdicts the rubric rewards collected on ``items``.

    The per-check-type (per-dimension) reward-hacking log: ``rewards.reward_fns.tag_pass_rates``
    over the verdicts since the last call (one list per item, same order). With more than one
    ``RubricReward`` the keys are ``checks/<reward name>/<tag>/pass_rate``. Empty without one.
    """
    rubric = [r for r in named if r.is_rubric]
    out = {}
    for r in rubric:
        prefix = "checks/" if len(rubric) == 1 else f"checks/{r.name}/"
        verdicts = r.take_verdicts()
        if len(verdicts) != len(items):  # a call outside the loop's bookkeeping: a bug, not bad input
            raise RuntimeError(f"reward {r.name!r}: {len(verdicts)} verdict lists collected for {len(items)} images")
        rates = tag_pass_rates(items, verdicts)
        out.update({f"{prefix}{tag}/pass_rate": rate for tag, rate in rates.items()})
    return out


def _expand(cond, n):
    return None if cond is None else {k: v.expand(n, *v.shape[1:]) for k, v in cond.items()}


def _grid(images: list[Image.Image], cols: int) -> Image.Image:
    w, h = images[0].size
    grid = Image.new("RGB", (w * cols, h * math.ceil(len(images) / cols)))
    for i, im in enumerate(images):
        grid.paste(im, ((i % cols) * w, (i // cols) * h))
    return grid


def _init_wandb(cfg, accelerator, run_dir):
    if not accelerator.is_main_process or os.environ.get("WANDB_MODE") == "disabled":
        return None
    import wandb

    mode = os.environ.get("WANDB_MODE") or ("online" if os.environ.get("WANDB_API_KEY") else "offline")
    return wandb.init(project=cfg.wandb_project, name=cfg.run_name, config=asdict(cfg), mode=mode, dir=str(run_dir))


def train(cfg: GRPOConfig, pipe, reward_fns: dict[str, RewardFn], weights: dict[str, float], train_items: Sequence, val_items: Sequence, family_kwargs: dict[str, Any] | None = None) -> dict[str, list]:
    """Train a LoRA on ``pipe.transformer`` with Flow-GRPO; returns the per-step history.

    Args:
        cfg: the knobs (``GRPOConfig``).
        pipe: a diffusers flow-matching pipeline (``training.rollout.FAMILIES``), weights frozen.
        reward_fns: name -> ``fn(prompts, images, items=...) -> list[float | None]``.
        weights: name -> weight of that reward in the total.
        train_items, val_items: objects with a ``.prompt`` (rubric ``Item``s); passed to the
            rewards as the ``items`` column.
        family_kwargs: extra family arguments (max_sequence_length, FLUX guidance).

    Returns:
        {"step", "loss", "reward_mean", "kl", "ratio_mean", "clip_fraction": one float per GRPO
        step; "image_stats": one ``rewards.image_stats.image_stats`` dict per step (dark_fraction,
        color_entropy_bits, edge_density of this rank's rollout images); "check_pass_rates": one
        ``check_pass_rates`` dict per step ({} without a RubricReward); "eval_step",
        "eval_reward": one entry per evaluation}.

    Raises:
        ValueError: bad config or reward output, before any sampling (see ``check_setup`` and
            ``check_rewards``); a reward that goes bad later raises from
            ``rewards.reward_fns.combine_rewards`` at that step.
    """
    # 0. Setup: check inputs, LoRA, optimizer, resume.
    check_setup(cfg, reward_fns, weights, train_items)
    named = [NamedReward(name, fn) for name, fn in reward_fns.items()]
    weight_list = [float(weights[name]) for name in reward_fns]
    check_rewards(named, weight_list, train_items, cfg.resolution)
    accelerator = Accelerator(mixed_precision=cfg.mixed_precision)
    rank, world, device = accelerator.process_index, accelerator.num_processes, accelerator.device
    random.seed(cfg.seed + rank)
    np.random.seed(cfg.seed + rank)
    torch.manual_seed(cfg.seed + rank)
    family = family_for(pipe, cfg.resolution, cfg.resolution, **(family_kwargs or {}))
    pipe.to(device)
    for module in pipe.components.values():
        if isinstance(module, torch.nn.Module):
            module.requires_grad_(False)
    transformer = pipe.transformer
    transformer.add_adapter(LoraConfig(r=cfg.lora_rank, lora_alpha=cfg.lora_alpha, init_lora_weights="gaussian", target_modules=list(cfg.lora_target_modules)))
    lora_params = [p for p in transformer.parameters() if p.requires_grad]
    for p in lora_params:
        p.data = p.data.float()  # trainable weights in fp32 even when the base is bf16
    if cfg.gradient_checkpointing:
        transformer.enable_gradient_checkpointing()
    optimizer = torch.optim.AdamW(lora_params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    n_minibatches = cfg.prompts_per_step * cfg.group_size // cfg.batch_size
    updates_per_step = cfg.num_inner_epochs * max(1, n_minibatches // cfg.grad_accum)
    lr_scheduler = get_scheduler(cfg.lr_scheduler, optimizer, num_warmup_steps=cfg.lr_warmup_steps, num_training_steps=cfg.num_steps * updates_per_step)
    model, optimizer = accelerator.prepare(transformer, optimizer)
    ema = [p.detach().clone() for p in lora_params] if cfg.ema_decay > 0 else None
    autocast = accelerator.autocast
    sigmas = schedule_sigmas(pipe.scheduler, cfg.train_sampling_steps, family.image_seq_len())  # (T + 1,)
    eval_sigmas = schedule_sigmas(pipe.scheduler, cfg.eval_sampling_steps, family.image_seq_len())
    uncond = family.encode([cfg.negative_prompt], device) if cfg.cfg else None  # each (1, ...)
    rollout_gen = torch.Generator().manual_seed(cfg.seed * 1000 + rank)
    prompt_rng = random.Random(cfg.seed)  # identical on all ranks: ranks split one draw
    run_dir = Path(cfg.output_dir) / cfg.run_name
    start = 0
    if cfg.resume and list_checkpoints(run_dir):
        state = load_checkpoint(list_checkpoints(run_dir)[-1], transformer)
        optimizer.load_state_dict(state["optimizer"])
        lr_scheduler.load_state_dict(state["lr_scheduler"])
        restore_rng_states(state["rng"][rank], rollout_gen, prompt_rng)
        if ema is not None:  # the saved LoRA is the EMA one; put the live weights back
            with torch.no_grad():
                for p, e, live, saved_ema in zip(lora_params, ema, state["live_lora"], state["ema"]):
                    p.copy_(live)
                    e.copy_(saved_ema)
        start = state["step"]
    tracker = _init_wandb(cfg, accelerator, run_dir)
    history = {k: [] for k in ("step", "loss", "reward_mean", "kl", "ratio_mean", "clip_fraction", "image_stats", "check_pass_rates", "eval_step", "eval_reward")}
    # One reward thread: chunk k is scored while chunk k+1 samples, calls stay in order.
    rewarder = AsyncRewarder(named, weight_list, max_workers=1)

    bar = tqdm(range(start, cfg.num_steps), initial=start, total=cfg.num_steps, desc="GRPO", unit="step",
               disable=not accelerator.is_main_process)
    for step in bar:
        t0 = time.perf_counter()
        logs: dict[str, Any] = {}
        if step % cfg.eval_every == 0:
            if ema is not None:
                _swap(lora_params, ema)
            ev = evaluate(family, transformer, cfg, eval_sigmas, val_items, named, weight_list, uncond, autocast)
            if ema is not None:
                _swap(lora_params, ema)
            history["eval_step"].append(step)
            history["eval_reward"].append(ev["eval/reward_mean"])
            logs.update({k: v for k, v in ev.items() if k != "_images"}, eval_images=_grid(ev.pop("_images"), 4))

        # 1. Sample: P prompts x G images, SDE steps recorded with their log-probs.
        drawn = prompt_rng.sample(range(len(train_items)), cfg.prompts_per_step * world)
        items = [train_items[i] for i in drawn[rank * cfg.prompts_per_step : (rank + 1) * cfg.prompts_per_step] for _ in range(cfg.group_size)]
        prompts = [it.prompt for it in items]  # (B,) each prompt G times in a row
        T = cfg.train_sampling_steps
        if cfg.sde_window > 0:
            first = prompt_rng.randint(0, T - cfg.sde_window)
            sde_steps = train_steps = list(range(first, first + cfg.sde_window))
        else:
            sde_steps = list(range(T))
            train_steps = sorted(prompt_rng.sample(sde_steps, max(1, round(cfg.timestep_fraction * T))))
        cond = family.encode(prompts[:: cfg.group_size], device)
        cond = {k: v.repeat_interleave(cfg.group_size, dim=0) for k, v in cond.items()}  # each (B, ...)
        model.eval()
        rollouts, futures, images = [], [], []
        for c in range(0, len(prompts), cfg.batch_size):
            part = slice(c, c + cfg.batch_size)
            r = sample(family, transformer, {k: v[part] for k, v in cond.items()}, sigmas, sde_steps, cfg.noise_level, rollout_gen, _expand(uncond, cfg.batch_size), cfg.cfg_scale, autocast)
            chunk_images = to_pil(family.decode(r.final))
            futures.append(rewarder.submit(prompts[part], chunk_images, items=items[part]))
            images.extend(chunk_images)
            rollouts.append(r)
        keep_idx = [sde_steps.index(s) for s in train_steps]
        latents = torch.cat([r.latents[:, keep_idx] for r in rollouts])  # (B, K, ...)
        next_latents = torch.cat([r.next_latents[:, keep_idx] for r in rollouts])  # (B, K, ...)
        old_log_probs = torch.cat([r.log_probs[:, keep_idx] for r in rollouts])  # (B, K)

        # 2. Reward: weighted sum per image, gathered over ranks before normalising.
        results = [f.result() for f in futures]
        rewards = torch.cat([total for total, _ in results]).to(device)  # (B,)
        all_rewards = accelerator.gather(rewards)  # (world * B,)
        for name in reward_fns:
            per = accelerator.gather(torch.cat([p[name] for _, p in results]).to(device))  # (world * B,)
            logs[f"rewards/{name}/mean"], logs[f"rewards/{name}/std"] = per.nanmean().item(), _nanstd(per)
        # Reward-hacking guards (this rank's images): per-check-type pass rates, image statistics.
        pass_rates, stats_images = check_pass_rates(named, items), image_stats(images)
        logs.update(pass_rates)
        logs.update({f"images/{k}": v for k, v in stats_images.items()})

        # 3. Advantages: group-relative, clipped; groups with all-zero advantages dropped.
        advantages = group_advantages(all_rewards, cfg.group_size, cfg.adv_std, clip=cfg.adv_clip)  # (world * B,)
        advantages = advantages.view(world, -1)[rank]  # (B,)
        keep = nonzero_group_mask(advantages, cfg.group_size).nonzero().squeeze(1)  # (B_kept,)

        # 4. Update: clipped policy loss + beta * KL on each trained step, old log-probs from the rollout.
        model.train()
        stats = {"loss": [], "kl": [], "ratio": [], "clip_fraction": [], "grad_norm": []}
        for _ in range(cfg.num_inner_epochs):
            for m, start_mb in enumerate(range(0, len(keep), cfg.batch_size)):
                idx = keep[start_mb : start_mb + cfg.batch_size]
                mb_cond, mb_uncond = {k: v[idx] for k, v in cond.items()}, _expand(uncond, len(idx))
                for j, t in enumerate(train_steps):
                    s, s_next = sigmas[t].item(), sigmas[t + 1].item()
                    x = latents[idx, j]  # (b, ...)
                    with autocast():
                        v = guided_velocity(family, model, x.to(transformer.dtype), s, mb_cond, mb_uncond, cfg.cfg_scale)
                    _, log_prob, mean, step_std = sde_step(v, x, s, s_next, cfg.noise_level, next_sample=next_latents[idx, j])
                    policy_loss, ratio, clip_fraction = clipped_policy_loss(log_prob, old_log_probs[idx, j], advantages[idx], cfg.clip_range)
                    kl = torch.zeros(())
                    if cfg.beta > 0:
                        with torch.no_grad(), lora_disabled(transformer), autocast():
                            v_ref = guided_velocity(family, transformer, x.to(transformer.dtype), s, mb_cond, mb_uncond, cfg.cfg_scale)
                        _, _, ref_mean, _ = sde_step(v_ref, x, s, s_next, cfg.noise_level, next_sample=next_latents[idx, j])
                        kl = step_kl(mean, ref_mean, step_std).mean()
                    loss = policy_loss + cfg.beta * kl
                    accelerator.backward(loss / (len(train_steps) * cfg.grad_accum))
                    for k, val in (("loss", loss), ("kl", kl), ("ratio", ratio.mean()), ("clip_fraction", clip_fraction)):
                        stats[k].append(val.item())
                if (m + 1) % cfg.grad_accum == 0 or start_mb + cfg.batch_size >= len(keep):
                    stats["grad_norm"].append(accelerator.clip_grad_norm_(lora_params, cfg.max_grad_norm).item())
                    optimizer.step()
                    lr_scheduler.step()
                    optimizer.zero_grad()
                    if ema is not None:
                        ema_update(ema, lora_params, cfg.ema_decay)

        # 5. Log/checkpoint.
        means = {k: float(np.mean(v)) if v else 0.0 for k, v in stats.items()}
        history["step"].append(step)
        history["reward_mean"].append(all_rewards.mean().item())
        for k in ("loss", "kl", "clip_fraction"):
            history[k].append(means[k])
        history["ratio_mean"].append(means["ratio"])
        history["image_stats"].append(stats_images)
        history["check_pass_rates"].append(pass_rates)
        logs.update({"reward/mean": all_rewards.mean().item(), "reward/std": all_rewards.std().item(), "loss/policy": means["loss"], "loss/kl": means["kl"], "ratio_mean": means["ratio"], "clip_fraction": means["clip_fraction"], "grad_norm": means["grad_norm"], "lr": lr_scheduler.get_last_lr()[0], "groups_kept": len(keep) / cfg.group_size, "s_per_step": time.perf_counter() - t0})
        bar.set_postfix(reward=f"{logs['reward/mean']:.3f}", kl=f"{means['kl']:.2g}")
        if tracker is not None:
            import wandb

            tracker.log({k: wandb.Image(v) if isinstance(v, Image.Image) else v for k, v in logs.items()}, step=step)
        if (step + 1) % cfg.save_every == 0 or step + 1 == cfg.num_steps:
            _save(run_dir, step + 1, pipe, transformer, optimizer, lr_scheduler, rollout_gen, prompt_rng, ema, lora_params, cfg.keep_last, accelerator)
    rewarder.close()
    if start < cfg.num_steps:
        ev = evaluate(family, transformer, cfg, eval_sigmas, val_items, named, weight_list, uncond, autocast)
        history["eval_step"].append(cfg.num_steps)
        history["eval_reward"].append(ev["eval/reward_mean"])
    if tracker is not None:
        tracker.finish()
    return history


def _nanstd(x: torch.Tensor) -> float:
    x = x[~torch.isnan(x)]
    return x.std(unbiased=False).item() if x.numel() else math.nan


def check_rewards(named: Sequence[NamedReward], weights: Sequence[float], train_items: Sequence, resolution: int) -> None:
    """Score two grey images (the first two training prompts) once, so a broken reward fails before step 1.

    Args:
        named: the reward functions, each under its configured name.
        weights: one per reward.
        train_items: objects with a ``.prompt``; the first two (or the first, twice) are used.
        resolution: side of the grey test images in pixels.

    Raises:
        ValueError: one line naming the reward: it returned a non-list, the wrong number of
            values, a non-number, NaN or inf (``rewards.reward_fns.combine_rewards``), or every
            reward returned None for a test image (no reward to train on: e.g. a judge that
            withholds everything because its server is down, or prompts without quoted text for
            an OCR reward).
    """
    items = [train_items[0], train_items[min(1, len(train_items) - 1)]]
    grey = [Image.new("RGB", (resolution, resolution), (128, 128, 128)) for _ in items]
    prompts = [it.prompt for it in items]
    where = f"reward check on 2 grey {resolution}x{resolution} images before step 1"
    try:
        _, per = combine_rewards(named, weights, prompts, grey, items=items)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    finally:
        for r in named:
            r.take_verdicts()  # test images: keep them out of the step-0 logs
    for i, item in enumerate(items):
        if all(math.isnan(v[i].item()) for v in per.values()):
            name = getattr(item, "id", None) or repr(item.prompt[:60])
            raise ValueError(f"{where}: every reward ({', '.join(per)}) returned None for training item {name}: no reward to train on")


def _save(run_dir, step, pipe, transformer, optimizer, lr_scheduler, rollout_gen, prompt_rng, ema, lora_params, keep_last, accelerator) -> None:
    rng = [rng_states(rollout_gen, prompt_rng)]
    if accelerator.num_processes > 1:
        rng = gather_object(rng)  # one entry per rank
    if not accelerator.is_main_process:
        return
    state = {"optimizer": optimizer.state_dict(), "lr_scheduler": lr_scheduler.state_dict(), "rng": rng}
    if ema is None:
        save_checkpoint(run_dir, step, type(pipe), transformer, state, keep_last)
        return
    state["ema"] = [e.detach().clone() for e in ema]
    state["live_lora"] = [p.detach().clone() for p in lora_params]
    _swap(lora_params, ema)  # the saved LoRA is the EMA one
    save_checkpoint(run_dir, step, type(pipe), transformer, state, keep_last)
    _swap(lora_params, ema)
