"""The run's state: the LoRA on the frozen transformer, the optimizer and LR schedule, the EMA
of the LoRA weights, the loop's generators; the optimizer step; checkpoint save and resume.

Checkpoints (``training.diffusion.checkpoint``) hold the diffusers-format LoRA (the EMA one when kept; its
metadata: rank, alpha, target modules and base model, so it loads at its trained strength) and
``training_state.pt``: optimizer, LR schedule, every rank's RNG states, and with EMA both the
EMA and the live LoRA weights.
"""

from __future__ import annotations

import math
import random
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import torch
from accelerate import Accelerator
from accelerate.utils import DistributedType, gather_object
from diffusers.optimization import get_scheduler
from peft import LoraConfig
from peft.utils import get_peft_model_state_dict

from training.diffusion.checkpoint import (
    list_checkpoints,
    load_latest_checkpoint,
    restore_rng_states,
    rng_states,
    save_checkpoint,
)
from training.diffusion.config import TrainerConfig


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
    history: dict[str, list] | None = None
    """the history up to the resumed step (``training.diffusion.logs.RunLog.history``; None: a new run)"""
    extra: dict[str, list[torch.Tensor]] | None = None
    """a recipe's own copies of the LoRA weights by name (NFT's sampling policy, AWM's EMA
    reference), in ``lora_params`` order; saved in every checkpoint, restored on a resume"""
    base_model: str = ""
    """the base model's id or path (``TrainerConfig.base_model``), saved in every checkpoint's LoRA metadata"""


def add_lora(pipe, cfg: TrainerConfig, device) -> tuple[Any, list[torch.Tensor]]:
    """Freeze the pipeline on ``device`` and give its transformer a gaussian-init LoRA (policy ==
    reference at step 0: peft's gaussian init zeroes lora_B). Returns the transformer and the
    LoRA weights (fp32, in ``transformer.parameters()`` order)."""
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


def _check_distributed(cfg: TrainerConfig, accelerator: Accelerator) -> None:
    """Raise ValueError on EMA under FSDP, or a DeepSpeed gradient_accumulation_steps that does not
    equal the backward passes per optimizer step."""
    if cfg.ema_decay > 0 and accelerator.distributed_type == DistributedType.FSDP:
        raise ValueError(
            "ema_decay > 0 is not supported under FSDP (the EMA would hold sharded LoRA weights); set ema_decay=0"
        )
    if accelerator.distributed_type == DistributedType.DEEPSPEED:
        # The DeepSpeed engine steps the optimizer itself, every gradient_accumulation_steps backward
        # passes; GRPO and NFT make one backward pass per trained step (noise level) per
        # minibatch, AWM one per minibatch (all its timesteps in one loss).
        trained = cfg.backward_passes_per_minibatch()
        want = trained * cfg.grad_accum
        have = accelerator.state.deepspeed_plugin.deepspeed_config.get("gradient_accumulation_steps")
        if have != want:
            raise ValueError(
                f"DeepSpeed: set gradient_accumulation_steps: {want} in the accelerate config "
                f"({trained} backward passes per minibatch ({cfg.algorithm}) x grad_accum {cfg.grad_accum} "
                f"per optimizer step), not {have}"
            )


def _resume_state(run_dir: Path, transformer, main: bool) -> tuple[dict | None, Path | None]:
    """The state and folder of the run's newest whole checkpoint, its LoRA loaded into
    ``transformer`` (before ``prepare``: FSDP shards it), or (None, None) for a run without
    checkpoints; torn step folders are skipped with a note on stderr.

    Raises:
        ValueError: the run has step folders and none of them loads whole.
    """
    note = (lambda line: print(f"resume: {line}", file=sys.stderr)) if main else None
    saved, folder = load_latest_checkpoint(run_dir, transformer, note)
    if folder is None and list_checkpoints(run_dir):
        raise ValueError(
            f"resume=true: no checkpoint in {run_dir} loads whole; remove its step_* folders to start "
            "again, or use another trainer.run_name"
        )
    if folder is None and main:
        print(f"resume=true but {run_dir} holds no checkpoint: starting at step 0", file=sys.stderr)
    return saved, folder


def setup_run(
    cfg: TrainerConfig,
    accelerator: Accelerator,
    pipe,
    transformer,
    lora_params: list[torch.Tensor],
    extra_state: Sequence[str] = (),
) -> tuple[RunState, int]:
    """Optimizer, LR schedule, accelerate wrapping, EMA, the recipe's ``extra_state`` copies of the
    LoRA (``RunState.extra``, each a copy of the live LoRA at the start) and the loop's
    generators, restored from the run's latest checkpoint when ``cfg.resume``. Returns the state
    and the first step to run.

    Raises:
        ValueError: EMA under FSDP (the LoRA is sharded there), resuming with EMA from a
            checkpoint that has none, resuming a run none of whose checkpoints loads whole
            (torn ones are skipped with a note when an earlier one loads), or a DeepSpeed
            gradient_accumulation_steps that does not equal the backward passes per optimizer step.
    """
    _check_distributed(cfg, accelerator)
    rank = accelerator.process_index
    optimizer = torch.optim.AdamW(lora_params, lr=cfg.lr, weight_decay=cfg.weight_decay)
    n_minibatches = math.ceil(cfg.prompts_per_step * cfg.group_size / cfg.batch_size)
    updates_per_step = cfg.num_inner_epochs * math.ceil(n_minibatches / cfg.grad_accum)  # at most: groups get dropped
    lr_scheduler = get_scheduler(
        cfg.lr_scheduler,
        optimizer,
        num_warmup_steps=cfg.lr_warmup_steps,
        num_training_steps=cfg.num_steps * updates_per_step,
    )
    run_dir = Path(cfg.output_dir) / cfg.run_name
    saved, folder = _resume_state(run_dir, transformer, accelerator.is_main_process) if cfg.resume else (None, None)
    if saved is not None and cfg.ema_decay > 0:
        if "ema" not in saved:
            raise ValueError(f"checkpoint {folder}: no EMA weights to resume with ema_decay={cfg.ema_decay}")
        with torch.no_grad():  # the saved LoRA is the EMA one; put the live weights back
            for p, live in zip(lora_params, saved["live_lora"], strict=True):
                p.copy_(live)
    model, optimizer = accelerator.prepare(transformer, optimizer)
    ema = [p.detach().clone() for p in lora_params] if cfg.ema_decay > 0 else None
    extra = {name: [p.detach().clone() for p in lora_params] for name in extra_state}
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
        extra=extra,
        base_model=cfg.base_model,
    )  # prompt_rng identical on all ranks: ranks split one draw
    if saved is None:
        return run, 0
    run.history = saved.get("history")
    optimizer.load_state_dict(saved["optimizer"])
    lr_scheduler.load_state_dict(saved["lr_scheduler"])
    restore_rng_states(saved["rng"][rank], run.rollout_gen, run.prompt_rng)
    if ema is not None:
        with torch.no_grad():
            for e, saved_ema in zip(ema, saved["ema"], strict=True):
                e.copy_(saved_ema)
    for name, copies in extra.items():
        if name not in saved.get("extra", {}):
            raise ValueError(f"checkpoint {folder}: no {name!r} weights to resume this algorithm with")
        with torch.no_grad():
            for e, saved_e in zip(copies, saved["extra"][name], strict=True):
                e.copy_(saved_e)
    return run, saved["step"]


@torch.no_grad()
def ema_update(ema: Sequence[torch.Tensor], params: Sequence[torch.Tensor], decay: float) -> None:
    """In place: ema <- decay * ema + (1 - decay) * param, for each pair (same shapes, same order).

    The one exponential moving average of LoRA weights: the evaluation EMA (``ema_decay``),
    DiffusionNFT's old policy (train_nft_sd3.py lines 1034-1039), AWM's EMA reference (script
    lines 1416-1419) and its evaluation EMA (``flow_grpo/ema.py`` lines 43-49, written there as
    ema + (1 - d) (param - ema), and ``flow_grpo`` ``EMAModuleWrapper`` and our GRPO EMA before as
    ema.mul_(d).add_(param, alpha=1 - d): the same up to float rounding).

    Raises:
        ValueError: the two lists differ in length (``zip(strict=True)``).
    """
    for e, p in zip(ema, params, strict=True):
        e.copy_(e * decay + p.detach().to(e.dtype) * (1.0 - decay))


def optimizer_step(run: RunState, max_grad_norm: float, ema_decay: float) -> float:
    """Clip, step the optimizer and LR schedule, zero the grads, update the EMA; returns the grad
    norm before clipping (NaN under DeepSpeed, whose engine clips and does not report it here)."""
    norm = run.accelerator.clip_grad_norm_(run.lora_params, max_grad_norm)
    run.optimizer.step()
    run.lr_scheduler.step()
    run.optimizer.zero_grad()
    if run.ema is not None:
        ema_update(run.ema, run.lora_params, ema_decay)
    return math.nan if norm is None else float(norm)


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


def save_run(run: RunState, step: int, keep_last: int, history: dict[str, list] | None = None) -> None:
    """Checkpoint ``step`` (the LoRA in diffusers format is the EMA one when kept) with the run's
    ``history`` so far (a resume continues it). Call on every rank: RNG states and FSDP weights
    are gathered; the main process writes.

    Raises:
        training.diffusion.checkpoint.CheckpointWriteError: on the main process, the checkpoint could not
            be written (nothing torn is left).
    """
    rng = [rng_states(run.rollout_gen, run.prompt_rng)]
    if run.accelerator.num_processes > 1:
        rng = gather_object(rng)  # one entry per rank
    with ema_weights(run.lora_params, run.ema):
        lora = lora_state_dict(run.accelerator, run.model)
    if not run.accelerator.is_main_process:
        return
    state = {"optimizer": run.optimizer.state_dict(), "lr_scheduler": run.lr_scheduler.state_dict(), "rng": rng}
    if history is not None:
        state["history"] = history
    if run.extra:
        state["extra"] = {name: [e.detach().clone() for e in copies] for name, copies in run.extra.items()}
    if run.ema is not None:
        state["ema"] = [e.detach().clone() for e in run.ema]
        state["live_lora"] = [p.detach().clone() for p in run.lora_params]
    save_checkpoint(
        run.run_dir,
        step,
        run.pipeline_class,
        run.transformer,
        state,
        keep_last,
        lora_layers=lora,
        base_model=run.base_model,
    )


T = TypeVar("T")


def accumulate(
    run: RunState,
    minibatches: Sequence,
    backward: Callable[[Any, int], T],
    grad_accum: int,
    max_grad_norm: float,
    ema_decay: float,
) -> tuple[list[T], list[float]]:
    """Gradient accumulation, the one every recipe uses: ``backward(mb, accumulated)`` for each
    minibatch in order (it divides its loss by ``accumulated``, the minibatches of its group), and
    an ``optimizer_step`` after every ``grad_accum`` of them; a last, smaller group is averaged over
    its own count. Returns the ``backward`` results, in order, and the grad norms (one per
    optimizer step)."""
    results, grad_norms = [], []
    for m, mb in enumerate(minibatches):
        first = m - m % grad_accum  # first minibatch of this accumulation group
        accumulated = min(grad_accum, len(minibatches) - first)
        results.append(backward(mb, accumulated))
        if m + 1 - first == accumulated:
            grad_norms.append(optimizer_step(run, max_grad_norm, ema_decay))
    return results, grad_norms
