"""Flow-GRPO LoRA training of a flow-matching text-to-image pipeline, in one loop.

``train`` reads top to bottom: # 1. Sample -> # 2. Reward -> # 3. Advantages -> # 4. Update ->
# 5. Log/checkpoint. The math lives in ``training.sde`` and ``training.grpo_math``; rollouts in
``training.rollout``; checkpoints in ``training.checkpoint``; rewards are combined by
``rewards.reward_fns.combine_rewards`` (in a thread, ``AsyncRewarder``). The update of one
minibatch is ``update_minibatch`` (the step benchmark calls the same function). Source:
Flow-GRPO (arXiv 2505.05470). Shape legend: P prompts per step (per rank), G images per prompt,
B = P * G, b samples per minibatch, K trained denoising steps, T sampling steps.

Multi-GPU (accelerate: DDP, DeepSpeed ZeRO-2, FSDP). Every forward pass (rollouts, evaluation,
the policy and the LoRA-disabled reference pass of the update) goes through the prepared
model, so FSDP gathers its sharded weights; every rank runs the same number of forward and
backward passes (``minibatch_plan``), so the gradient all-reduce never waits on a rank that
dropped all its groups; checkpoints gather the full LoRA (``lora_state_dict``). Every rank
evaluates the same validation prompts (FSDP needs all ranks in each forward pass).
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import torch
from accelerate import Accelerator
from accelerate.utils import DistributedType, gather_object
from diffusers.optimization import get_scheduler
from peft import LoraConfig
from peft.utils import get_peft_model_state_dict
from PIL import Image
from tqdm.auto import tqdm

from rewards.image_stats import image_stats
from rewards.reward_fns import AsyncRewarder, RewardFn, RubricReward, combine_rewards, tag_pass_rates
from training.checkpoint import list_checkpoints, load_checkpoint, restore_rng_states, rng_states, save_checkpoint
from training.grpo_math import KL_FORMS, clipped_policy_loss, ema_update, group_advantages, nonzero_group_mask, step_kl
from training.rollout import Cond, Rollout, family_for, guided_velocity, sample, schedule_sigmas, to_pil
from training.sde import sde_std, sde_step
from training.timesteps import draw_steps, num_trained_steps, window_range


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
    """Every knob of ``train``. Defaults follow Flow-GRPO's SD3.5 OCR config where one exists.

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
    timestep_fraction: float = 0.99
    """sde_window == 0: every step is SDE and the first int(T * fraction) steps are trained
    (reference ``train.timestep_fraction``; 0.99 of T = 10 trains steps 0-8)"""
    sde_window: int = 0
    """> 0: SDE only inside a window of this many steps, ODE outside, only those trained
    (Flow-GRPO-Fast ``sample.sde_window_size``; 3 in its SD3 fast configs)"""
    sde_window_range: list[int] = field(default_factory=list)
    """[lo, hi): the steps a window may cover; [] = [0, T // 2] for "fast" (reference
    ``sde_window_range = (0, num_steps // 2)``), [0, T - 2] for MixGRPO (its ``max_timesteps``)"""
    window_schedule: str = "fast"
    """"fast": a uniform window start in [lo, hi - sde_window] per sampling batch
    (Flow-GRPO-Fast); "mixgrpo": the start slides from lo by window_stride every
    window_shift_every GRPO steps (MixGRPO progressive schedule)"""
    window_shift_every: int = 25
    """MixGRPO shift interval tau, in GRPO steps"""
    window_stride: int = 1
    """MixGRPO stride s, in denoising steps"""
    cfg: bool = True
    """classifier-free guidance in rollouts and updates"""
    cfg_scale: float = 4.5
    """CFG scale s"""
    negative_prompt: str = ""
    """the unconditional prompt for CFG"""
    adv_std: str = "global"
    """advantage std over the whole gathered batch ("global", reference ``sample.global_std =
    True``) or over each prompt's group ("group")"""
    adv_clip: float = 5.0
    """advantages are clipped to +-adv_clip"""
    clip_range: float = 1e-4
    """PPO ratio clip eps"""
    beta: float = 0.04
    """weight of the KL to the LoRA-disabled reference (0 skips the reference pass)"""
    kl_form: str = "flow_grpo"
    """"flow_grpo": KL denominator 2 std_t^2 as in the reference, so its beta carries over;
    "exact": 2 (std_t sqrt(-dt))^2, the true per-step Gaussian KL (1 / |dt| larger)"""
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
    """minibatches per optimizer step (a last, smaller group is averaged over its own count)"""
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
    log_images_every: int = 0
    """> 0: log a grid of rollout samples every this many steps; 0: once per epoch (one pass over
    the training prompts at prompts_per_step * world prompts per step)"""
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
    """W&B project"""
    wandb_mode: str = "auto"
    """"auto" (online when WANDB_API_KEY is set, else offline into the run folder), "online",
    "offline" or "disabled" (the environment's WANDB_MODE=disabled also turns it off)"""


def check_setup(
    cfg: GRPOConfig, reward_fns: dict, weights: dict, train_items: Sequence, val_items: Sequence | None = None
) -> None:
    """Fail at start, with one line, on a config the loop cannot run (``val_items`` is checked
    when given). Raises ValueError."""
    problems = [
        f"{name} must be >= 1, got {getattr(cfg, name)}"
        for name in (
            "num_steps",
            "prompts_per_step",
            "batch_size",
            "train_sampling_steps",
            "eval_sampling_steps",
            "num_inner_epochs",
            "grad_accum",
            "eval_every",
            "save_every",
            "keep_last",
        )
        if getattr(cfg, name) < 1
    ]
    if cfg.num_eval_prompts < 0:
        problems.append(f"num_eval_prompts must be >= 0, got {cfg.num_eval_prompts}")
    if not cfg.resume and list_checkpoints(Path(cfg.output_dir) / cfg.run_name):
        problems.append(
            f"{Path(cfg.output_dir) / cfg.run_name} already holds checkpoints: continue it with resume=true, "
            "or start a new run with another trainer.run_name"
        )
    if val_items is not None and not val_items and cfg.num_eval_prompts > 0:
        problems.append(
            "the validation split is empty (data.n * data.val_fraction rounds to 0): raise data.n or data.val_fraction"
        )
    if cfg.group_size < 2:
        problems.append(f"group_size must be >= 2 (GRPO compares images of one prompt), got {cfg.group_size}")
    if cfg.sde_window < 0 or cfg.sde_window > cfg.train_sampling_steps:
        problems.append(
            f"sde_window must be in [0, train_sampling_steps={cfg.train_sampling_steps}], got {cfg.sde_window}"
        )
    if not 0 < cfg.timestep_fraction <= 1:
        problems.append(f"timestep_fraction must be in (0, 1], got {cfg.timestep_fraction}")
    elif (
        cfg.sde_window == 0
        and cfg.train_sampling_steps >= 1
        and int(cfg.train_sampling_steps * cfg.timestep_fraction) < 1
    ):
        problems.append(
            f"timestep_fraction={cfg.timestep_fraction} of train_sampling_steps={cfg.train_sampling_steps} trains no step (int(T * fraction) = 0)"
        )
    if cfg.window_schedule not in ("fast", "mixgrpo"):
        problems.append(f"window_schedule must be 'fast' or 'mixgrpo', got {cfg.window_schedule!r}")
    elif cfg.sde_window > 0:
        if cfg.sde_window_range and (
            len(cfg.sde_window_range) != 2 or not all(isinstance(v, int) for v in cfg.sde_window_range)
        ):
            problems.append(f"sde_window_range must be [] or two integers [lo, hi], got {cfg.sde_window_range}")
        else:
            lo, hi = window_range(cfg.train_sampling_steps, cfg.sde_window_range, cfg.window_schedule)
            if not 0 <= lo <= hi - cfg.sde_window or hi > cfg.train_sampling_steps:
                problems.append(
                    f"the window of sde_window={cfg.sde_window} steps must fit in sde_window_range [{lo}, {hi}) within "
                    f"[0, train_sampling_steps={cfg.train_sampling_steps}]"
                )
    if cfg.window_shift_every < 1 or cfg.window_stride < 0:
        problems.append(
            f"window_shift_every must be >= 1 and window_stride >= 0, got {cfg.window_shift_every} and {cfg.window_stride}"
        )
    if cfg.kl_form not in KL_FORMS:
        problems.append(f"kl_form must be one of {list(KL_FORMS)}, got {cfg.kl_form!r}")
    if cfg.wandb_mode not in ("auto", "online", "offline", "disabled"):
        problems.append(f"wandb_mode must be 'auto', 'online', 'offline' or 'disabled', got {cfg.wandb_mode!r}")
    if cfg.adv_std not in ("group", "global"):
        problems.append(f"adv_std must be 'group' or 'global', got {cfg.adv_std!r}")
    if cfg.mixed_precision not in ("no", "bf16", "fp16"):
        problems.append(f"mixed_precision must be 'no', 'bf16' or 'fp16', got {cfg.mixed_precision!r}")
    if cfg.batch_size >= 1 and (cfg.prompts_per_step * cfg.group_size) % cfg.batch_size:
        problems.append(
            f"prompts_per_step * group_size = {cfg.prompts_per_step * cfg.group_size} must be divisible by batch_size={cfg.batch_size}"
        )
    if cfg.log_images_every < 0:
        problems.append(f"log_images_every must be >= 0 (0: once per epoch), got {cfg.log_images_every}")
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


@contextmanager
def ema_weights(params: list[torch.Tensor], ema: list[torch.Tensor] | None):
    """The EMA weights swapped into ``params`` (the live LoRA) for the body; nothing when ``ema`` is None."""
    if ema is None:
        yield
        return
    _swap(params, ema)
    try:
        yield
    finally:
        _swap(params, ema)


def _expand(cond: Cond | None, n: int) -> Cond | None:
    return None if cond is None else {k: v.expand(n, *v.shape[1:]) for k, v in cond.items()}


@dataclass
class Policy:
    """The LoRA policy as the loop samples and re-scores it.

    A ``Policy`` is called like a transformer (``policy(**kwargs)`` runs ``model``) and has the
    frozen weights' ``dtype``: that is all ``training.rollout`` asks of one, so rollouts and
    updates run the prepared model. A DDP wrapper does not forward attribute look-ups such as
    ``dtype``, hence this object rather than the wrapper itself.

    Attributes:
        family: the pipeline's family adapter (``training.rollout.family_for``).
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
        """``training.rollout.sample`` for the b samples of ``cond`` (each tensor (b, ...)), no grad."""
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
        _, log_prob, mean, _ = sde_step(v, x, s, s_next, policy.noise_level, next_sample=x_next)
        policy_loss, ratio, clip_fraction = clipped_policy_loss(log_prob, old_log_prob, mb.advantages, clip_range)
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


def evaluate(
    policy: Policy, *, sigmas: torch.Tensor, items: Sequence, named: list[NamedReward], weights: list[float], seed: int
) -> dict[str, Any]:
    """ODE samples of ``items`` (one image each) from fixed noise, scored by the rewards.

    Args:
        policy: the policy to sample (swap EMA weights in beforehand to evaluate those).
        sigmas: float32 (T_eval + 1,) evaluation sigmas.
        items: validation items (``.prompt``), passed to the rewards as the ``items`` column.
        named, weights: the rewards and their weights (``rewards.reward_fns.combine_rewards``).
        seed: seed of the initial noise (the same images every evaluation for the same weights).

    Returns:
        ``eval/reward_mean``, ``eval/<reward name>`` (mean over images with a value),
        ``eval/checks/<tag>/pass_rate`` when a ``RubricReward`` is configured, and the PIL
        images under ``_images``.
    """
    prompts = [it.prompt for it in items]
    cond = policy.family.encode(prompts, policy.device)
    rollout = policy.rollout(cond, sigmas, [], torch.Generator().manual_seed(seed))
    images = to_pil(policy.family.decode(rollout.final))
    total, per = combine_rewards(named, weights, prompts, images, items=items)
    checks = {f"eval/{k}": v for k, v in check_pass_rates(named, items).items()}
    return {
        "eval/reward_mean": total.mean().item(),
        **{f"eval/{n}": v.nanmean().item() for n, v in per.items()},
        **checks,
        "_images": images,
    }


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


def kind_reward_means(rewards: torch.Tensor, kinds: Sequence[str | None]) -> dict[str, float]:
    """``rewards/kind/<kind>/mean``: mean total reward of the images of each item kind.

    The per-dimension reward-hacking log (slide, chart, poster: ``item.meta["kind"]`` of
    ``training.data``). Args: rewards float (N,); kinds: N kinds, None for an item without one
    (left out). Returns {} when no item has a kind.
    """
    out = {}
    for kind in sorted({k for k in kinds if k is not None}):
        mask = torch.tensor([k == kind for k in kinds], device=rewards.device)  # (N,)
        out[f"rewards/kind/{kind}/mean"] = rewards[mask].mean().item()
    return out


def _item_kind(item) -> str | None:
    meta = getattr(item, "meta", None)
    return meta.get("kind") if isinstance(meta, dict) else None


def _grid(images: list[Image.Image], cols: int) -> Image.Image:
    w, h = images[0].size
    grid = Image.new("RGB", (w * cols, h * math.ceil(len(images) / cols)))
    for i, im in enumerate(images):
        grid.paste(im, ((i % cols) * w, (i // cols) * h))
    return grid


def _nanstd(x: torch.Tensor) -> float:
    x = x[~torch.isnan(x)]
    return x.std(unbiased=False).item() if x.numel() else math.nan


def _init_wandb(cfg, accelerator, run_dir):
    """The W&B run on the main process, or None (``cfg.wandb_mode`` "disabled", or WANDB_MODE=disabled)."""
    if not accelerator.is_main_process or "disabled" in (cfg.wandb_mode, os.environ.get("WANDB_MODE")):
        return None
    import wandb

    mode = cfg.wandb_mode
    if mode == "auto":
        mode = os.environ.get("WANDB_MODE") or ("online" if os.environ.get("WANDB_API_KEY") else "offline")
    return wandb.init(project=cfg.wandb_project, name=cfg.run_name, config=asdict(cfg), mode=mode, dir=str(run_dir))


def _log(tracker, logs: dict[str, Any], step: int) -> None:
    if tracker is None:
        return
    import wandb

    tracker.log({k: wandb.Image(v) if isinstance(v, Image.Image) else v for k, v in logs.items()}, step=step)


def _eval_logs(ev: dict[str, Any], step: int, history: dict[str, list]) -> dict[str, Any]:
    """Record an evaluation in ``history``; its W&B row (images as one grid)."""
    history["eval_step"].append(step)
    history["eval_reward"].append(ev["eval/reward_mean"])
    return {**{k: v for k, v in ev.items() if k != "_images"}, "eval_images": _grid(ev["_images"], 4)}


@dataclass
class RunState:
    """What a checkpoint saves and a resume restores, besides the step counter."""

    accelerator: Accelerator
    model: Any
    """the accelerate-prepared transformer"""
    transformer: Any
    """the unwrapped transformer carrying the LoRA adapter"""
    pipeline_class: type
    """its ``save_lora_weights`` writes the diffusers-format LoRA"""
    optimizer: Any
    lr_scheduler: Any
    lora_params: list[torch.Tensor]
    """the live (trained) LoRA weights"""
    ema: list[torch.Tensor] | None
    """EMA of ``lora_params`` (None: no EMA)"""
    rollout_gen: torch.Generator
    prompt_rng: random.Random
    run_dir: Path


def _add_lora(pipe, cfg: GRPOConfig, device) -> tuple[Any, list[torch.Tensor]]:
    """Freeze the pipeline on ``device`` and give its transformer a gaussian-init LoRA (policy == reference at step 0)."""
    pipe.to(device)
    for module in pipe.components.values():
        if isinstance(module, torch.nn.Module):
            module.requires_grad_(False)
    transformer = pipe.transformer
    transformer.add_adapter(
        LoraConfig(
            r=cfg.lora_rank,
            lora_alpha=cfg.lora_alpha,
            init_lora_weights="gaussian",
            target_modules=list(cfg.lora_target_modules),
        )
    )
    lora_params = [p for p in transformer.parameters() if p.requires_grad]
    for p in lora_params:
        p.data = p.data.float()  # trainable weights in fp32 even when the base is bf16
    if cfg.gradient_checkpointing:
        transformer.enable_gradient_checkpointing()
    return transformer, lora_params


def _setup_run(
    cfg: GRPOConfig, accelerator: Accelerator, pipe, transformer, lora_params: list[torch.Tensor]
) -> tuple[RunState, int]:
    """Optimizer, LR schedule, accelerate wrapping, EMA and the loop's generators, restored from
    the run's latest checkpoint when ``cfg.resume``. Returns the state and the first step to run.

    Raises:
        ValueError: EMA under FSDP (the LoRA is sharded there), resuming with EMA from a
            checkpoint that has none, or a DeepSpeed gradient_accumulation_steps that does not
            equal the backward passes per optimizer step.
    """
    if cfg.ema_decay > 0 and accelerator.distributed_type == DistributedType.FSDP:
        raise ValueError(
            "ema_decay > 0 is not supported under FSDP (the EMA would hold sharded LoRA weights); set ema_decay=0"
        )
    if accelerator.distributed_type == DistributedType.DEEPSPEED:
        # The DeepSpeed engine steps the optimizer itself, every gradient_accumulation_steps backward
        # passes; the loop makes one backward pass per trained step per minibatch.
        trained = num_trained_steps(cfg.train_sampling_steps, cfg.sde_window, cfg.timestep_fraction)
        want = trained * cfg.grad_accum
        have = accelerator.state.deepspeed_plugin.deepspeed_config.get("gradient_accumulation_steps")
        if have != want:
            raise ValueError(
                f"DeepSpeed: set gradient_accumulation_steps: {want} in the accelerate config "
                f"({trained} trained steps x grad_accum {cfg.grad_accum} backward passes per optimizer step), not {have}"
            )
    rank = accelerator.process_index
    optimizer = torch.optim.AdamW(lora_params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    n_minibatches = math.ceil(cfg.prompts_per_step * cfg.group_size / cfg.batch_size)
    updates_per_step = cfg.num_inner_epochs * math.ceil(
        n_minibatches / cfg.grad_accum
    )  # at most; dropped groups make fewer
    lr_scheduler = get_scheduler(
        cfg.lr_scheduler,
        optimizer,
        num_warmup_steps=cfg.lr_warmup_steps,
        num_training_steps=cfg.num_steps * updates_per_step,
    )
    run_dir = Path(cfg.output_dir) / cfg.run_name
    checkpoints = list_checkpoints(run_dir) if cfg.resume else []
    if cfg.resume and not checkpoints and accelerator.is_main_process:
        print(f"resume=true but {run_dir} holds no checkpoint: starting at step 0", file=sys.stderr)
    saved = (
        load_checkpoint(checkpoints[-1], transformer) if checkpoints else None
    )  # before prepare: FSDP shards what it finds
    if saved is not None and cfg.ema_decay > 0:
        if "ema" not in saved:
            raise ValueError(f"checkpoint {checkpoints[-1]}: no EMA weights to resume with ema_decay={cfg.ema_decay}")
        with torch.no_grad():  # the saved LoRA is the EMA one; put the live weights back
            for p, live in zip(lora_params, saved["live_lora"], strict=True):
                p.copy_(live)
    model, optimizer = accelerator.prepare(transformer, optimizer)
    ema = [p.detach().clone() for p in lora_params] if cfg.ema_decay > 0 else None
    run = RunState(
        accelerator,
        model,
        transformer,
        type(pipe),
        optimizer,
        lr_scheduler,
        lora_params,
        ema,
        rollout_gen=torch.Generator().manual_seed(cfg.seed * 1000 + rank),
        prompt_rng=random.Random(cfg.seed),
        run_dir=run_dir,
    )  # prompt_rng identical on all ranks: ranks split one draw
    if saved is None:
        return run, 0
    optimizer.load_state_dict(saved["optimizer"])
    lr_scheduler.load_state_dict(saved["lr_scheduler"])
    restore_rng_states(saved["rng"][rank], run.rollout_gen, run.prompt_rng)
    if ema is not None:
        with torch.no_grad():
            for e, saved_ema in zip(ema, saved["ema"], strict=True):
                e.copy_(saved_ema)
    return run, saved["step"]


def _optimizer_step(run: RunState, max_grad_norm: float, ema_decay: float) -> float:
    """Clip, step the optimizer and LR schedule, zero the grads, update the EMA; returns the grad
    norm before clipping (NaN under DeepSpeed, whose engine clips and does not report it here)."""
    norm = run.accelerator.clip_grad_norm_(run.lora_params, max_grad_norm)
    run.optimizer.step()
    run.lr_scheduler.step()
    run.optimizer.zero_grad()
    if run.ema is not None:
        ema_update(run.ema, run.lora_params, ema_decay)
    return math.nan if norm is None else float(norm)


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
        {"step", "loss", "reward_mean", "kl", "approx_kl", "ratio_mean", "clip_fraction": one
        float per GRPO step; "image_stats": one ``rewards.image_stats.image_stats`` dict per
        step (dark_fraction, color_entropy_bits, edge_density of this rank's rollout images);
        "check_pass_rates": one ``check_pass_rates`` dict per step ({} without a RubricReward);
        "eval_step", "eval_reward": one entry per evaluation (EMA weights when kept, the last
        one at step ``num_steps``)}.

    W&B (main process) gets per step: reward/mean|std, rewards/<name>/mean|std,
    rewards/kind/<kind>/mean, checks/<tag>/pass_rate, images/<stat>, loss/policy, loss/kl,
    approx_kl, ratio_mean, clip_fraction, grad_norm, lr, groups_kept, s_per_step; a grid
    ``samples`` of this rank's rollout images (one row per prompt group) once per epoch or every
    ``log_images_every`` steps; and each evaluation's eval/* values and ``eval_images``.

    Raises:
        ValueError: bad config or reward output, before any sampling (see ``check_setup`` and
            ``check_rewards``); a reward that goes bad later raises from
            ``rewards.reward_fns.combine_rewards`` at that step.
    """
    # 0. Setup: check inputs, LoRA, optimizer, resume.
    check_setup(cfg, reward_fns, weights, train_items, val_items)
    named = [NamedReward(name, fn) for name, fn in reward_fns.items()]
    weight_list = [float(weights[name]) for name in reward_fns]
    check_rewards(named, weight_list, train_items, cfg.resolution)
    accelerator = Accelerator(mixed_precision=cfg.mixed_precision)
    rank, world, device = accelerator.process_index, accelerator.num_processes, accelerator.device
    random.seed(cfg.seed + rank)
    np.random.seed(cfg.seed + rank)
    torch.manual_seed(cfg.seed + rank)
    family = family_for(pipe, cfg.resolution, cfg.resolution, **(family_kwargs or {}))
    transformer, lora_params = _add_lora(pipe, cfg, device)
    dtype = transformer.dtype  # read before prepare: wrappers hide it
    run, start = _setup_run(cfg, accelerator, pipe, transformer, lora_params)
    uncond = family.encode([cfg.negative_prompt], device) if cfg.cfg else None  # each (1, ...)
    policy = Policy(
        family,
        run.model,
        accelerator.unwrap_model(run.model),
        dtype,
        device,
        uncond,
        cfg.cfg_scale,
        cfg.noise_level,
        accelerator.autocast,
    )
    sigmas = schedule_sigmas(pipe.scheduler, cfg.train_sampling_steps, family.image_seq_len())  # (T + 1,)
    eval_sigmas = schedule_sigmas(pipe.scheduler, cfg.eval_sampling_steps, family.image_seq_len())
    images_every = cfg.log_images_every or math.ceil(len(train_items) / (cfg.prompts_per_step * world))  # one epoch
    history = {
        k: []
        for k in (
            "step",
            "loss",
            "reward_mean",
            "kl",
            "approx_kl",
            "ratio_mean",
            "clip_fraction",
            "image_stats",
            "check_pass_rates",
            "eval_step",
            "eval_reward",
        )
    }

    def evaluate_ema(step: int) -> dict[str, Any]:
        with ema_weights(run.lora_params, run.ema):
            ev = evaluate(
                policy,
                sigmas=eval_sigmas,
                items=val_items[: cfg.num_eval_prompts],
                named=named,
                weights=weight_list,
                seed=cfg.eval_seed,
            )
        return _eval_logs(ev, step, history)

    tracker = _init_wandb(cfg, accelerator, run.run_dir)
    # One reward thread: chunk k is scored while chunk k+1 samples, calls stay in order.
    rewarder = AsyncRewarder(named, weight_list, max_workers=1)
    bar = tqdm(
        range(start, cfg.num_steps),
        initial=start,
        total=cfg.num_steps,
        desc="GRPO",
        unit="step",
        disable=not accelerator.is_main_process,
    )
    try:
        for step in bar:
            t0 = time.perf_counter()
            logs: dict[str, Any] = evaluate_ema(step) if step % cfg.eval_every == 0 else {}

            # 1. Sample: P prompts x G images, SDE steps recorded with their log-probs.
            drawn = run.prompt_rng.sample(range(len(train_items)), cfg.prompts_per_step * world)
            items = [
                train_items[i]
                for i in drawn[rank * cfg.prompts_per_step : (rank + 1) * cfg.prompts_per_step]
                for _ in range(cfg.group_size)
            ]
            prompts = [it.prompt for it in items]  # (B,) each prompt G times in a row
            cond = family.encode(prompts[:: cfg.group_size], device)
            cond = {k: v.repeat_interleave(cfg.group_size, dim=0) for k, v in cond.items()}  # each (B, ...)
            run.model.eval()
            parts, futures, images = [], [], []
            for c in range(0, len(prompts), cfg.batch_size):
                part = slice(c, c + cfg.batch_size)
                # SDE and trained steps per sampling batch (the Flow-GRPO-Fast window is drawn per batch).
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
                parts.append(
                    (
                        r.latents[:, cols],
                        r.next_latents[:, cols],
                        r.log_probs[:, cols],
                        torch.tensor(train_steps).expand(len(r.final), -1),
                    )
                )
                images.extend(to_pil(family.decode(r.final)))
                futures.append(rewarder.submit(prompts[part], images[part], items=items[part]))
            latents, next_latents, old_log_probs, trained = (
                torch.cat(x) for x in zip(*parts)
            )  # (B, K, ...), (B, K, ...), (B, K), (B, K)

            # 2. Reward: weighted sum per image, gathered over ranks before normalising.
            results = [f.result() for f in futures]
            rewards = torch.cat([total for total, _ in results]).to(device)  # (B,)
            all_rewards = accelerator.gather(rewards)  # (world * B,)
            for name in reward_fns:
                per = accelerator.gather(torch.cat([p[name] for _, p in results]).to(device))  # (world * B,)
                logs[f"rewards/{name}/mean"], logs[f"rewards/{name}/std"] = per.nanmean().item(), _nanstd(per)
            logs.update(kind_reward_means(all_rewards, gather_object([_item_kind(it) for it in items])))
            # Reward-hacking guards (this rank's images): per-check-type pass rates, image statistics.
            pass_rates, stats_images = check_pass_rates(named, items), image_stats(images)
            logs.update(pass_rates)
            logs.update({f"images/{k}": v for k, v in stats_images.items()})
            if step % images_every == 0:
                logs["samples"] = _grid(images, cfg.group_size)  # (P rows, G columns)

            # 3. Advantages: group-relative in float64, clipped; groups of equal rewards dropped.
            advantages = group_advantages(
                all_rewards, cfg.group_size, cfg.adv_std, clip=cfg.adv_clip
            )  # (world * B,) float64
            advantages = advantages.view(world, -1)[rank]  # (B,)
            keep = nonzero_group_mask(advantages, cfg.group_size).nonzero().squeeze(1)  # (B_kept,)
            advantages = advantages.float()
            kept_per_rank = accelerator.gather(torch.tensor([len(keep)], device=device)).tolist()  # (world,)

            # 4. Update: clipped policy loss + beta * KL on each trained step, old log-probs from
            # the rollout; samples permuted each inner epoch (as the reference); the same number
            # of minibatches on every rank (``minibatch_plan``).
            run.model.train()
            mb_stats, grad_norms = [], []
            for _ in range(cfg.num_inner_epochs):
                order = keep[torch.randperm(len(keep), generator=run.rollout_gen).to(keep.device)]  # (B_kept,)
                plan = minibatch_plan(order, kept_per_rank, cfg.batch_size)
                for m, (idx, weight) in enumerate(plan):
                    first = m - m % cfg.grad_accum  # first minibatch of this accumulation group
                    accumulated = min(cfg.grad_accum, len(plan) - first)
                    mb = Minibatch(
                        latents[idx],
                        next_latents[idx],
                        old_log_probs[idx],
                        advantages[idx],
                        {k: v[idx] for k, v in cond.items()},
                        trained[idx],
                        weight,
                    )
                    mb_stats.append(
                        update_minibatch(
                            mb,
                            policy,
                            accelerator=accelerator,
                            sigmas=sigmas,
                            clip_range=cfg.clip_range,
                            beta=cfg.beta,
                            grad_accum=accumulated,
                            kl_form=cfg.kl_form,
                        )
                    )
                    if m + 1 - first == accumulated:
                        grad_norms.append(_optimizer_step(run, cfg.max_grad_norm, cfg.ema_decay))

            # 5. Log/checkpoint.
            means = {k: float(np.mean(v)) if v else 0.0 for k, v in _pool(mb_stats, grad_norm=grad_norms).items()}
            history["step"].append(step)
            history["reward_mean"].append(all_rewards.mean().item())
            for k, key in (
                ("loss", "loss"),
                ("kl", "kl"),
                ("approx_kl", "approx_kl"),
                ("ratio", "ratio_mean"),
                ("clip_fraction", "clip_fraction"),
            ):
                history[key].append(means[k])
            history["image_stats"].append(stats_images)
            history["check_pass_rates"].append(pass_rates)
            logs.update(
                {
                    "reward/mean": all_rewards.mean().item(),
                    "reward/std": all_rewards.std().item(),
                    "loss/policy": means["loss"],
                    "loss/kl": means["kl"],
                    "approx_kl": means["approx_kl"],
                    "ratio_mean": means["ratio"],
                    "clip_fraction": means["clip_fraction"],
                    "grad_norm": means["grad_norm"],
                    "lr": run.lr_scheduler.get_last_lr()[0],
                    "groups_kept": sum(kept_per_rank) / cfg.group_size,
                    "s_per_step": time.perf_counter() - t0,
                }
            )
            bar.set_postfix(reward=f"{logs['reward/mean']:.3f}", kl=f"{means['kl']:.2g}")
            _log(tracker, logs, step)
            if (step + 1) % cfg.save_every == 0 or step + 1 == cfg.num_steps:
                _save(run, step + 1, cfg.keep_last)
        if start < cfg.num_steps:
            _log(tracker, evaluate_ema(cfg.num_steps), cfg.num_steps)
    finally:
        rewarder.close()
        if tracker is not None:
            tracker.finish()
    return history


def _pool(mb_stats: list[dict[str, list[float]]], **more: list[float]) -> dict[str, list[float]]:
    """The per-step values of every minibatch, one list per key (plus ``more``)."""
    keys = ("loss", "kl", "approx_kl", "ratio", "clip_fraction")
    return {**{k: [x for s in mb_stats for x in s[k]] for k in keys}, **more}


def check_rewards(
    named: Sequence[NamedReward], weights: Sequence[float], train_items: Sequence, resolution: int
) -> None:
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
            raise ValueError(
                f"{where}: every reward ({', '.join(per)}) returned None for training item {name}: no reward to train on"
            )


def lora_state_dict(accelerator: Accelerator, model) -> dict[str, torch.Tensor] | None:
    """The full LoRA state dict (peft keys, ``get_peft_model_state_dict``) on the main process, None elsewhere.

    Call it on every rank. Under FSDP the weights are sharded, so ``accelerator.get_state_dict``
    gathers the full state dict (a collective); elsewhere every rank holds full weights and the
    unwrapped transformer is read directly (get_state_dict would copy the whole frozen base).

    Returns:
        float32 CPU copies (the parameters' own tensors would follow a later EMA swap back).
    """
    transformer = accelerator.unwrap_model(model)
    full = accelerator.get_state_dict(model) if accelerator.distributed_type == DistributedType.FSDP else None
    if not accelerator.is_main_process:
        return None
    lora = get_peft_model_state_dict(transformer, state_dict=full)
    return {k: v.detach().to("cpu", torch.float32, copy=True) for k, v in lora.items()}


def _save(run: RunState, step: int, keep_last: int) -> None:
    """Checkpoint ``step`` (the LoRA in diffusers format is the EMA one when kept). Call on
    every rank: RNG states and FSDP weights are gathered; the main process writes."""
    rng = [rng_states(run.rollout_gen, run.prompt_rng)]
    if run.accelerator.num_processes > 1:
        rng = gather_object(rng)  # one entry per rank
    with ema_weights(run.lora_params, run.ema):
        lora = lora_state_dict(run.accelerator, run.model)
    if not run.accelerator.is_main_process:
        return
    state = {"optimizer": run.optimizer.state_dict(), "lr_scheduler": run.lr_scheduler.state_dict(), "rng": rng}
    if run.ema is not None:
        state["ema"] = [e.detach().clone() for e in run.ema]
        state["live_lora"] = [p.detach().clone() for p in run.lora_params]
    save_checkpoint(run.run_dir, step, run.pipeline_class, run.transformer, state, keep_last, lora_layers=lora)
