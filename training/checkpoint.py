"""GRPO checkpoints: ``<run_dir>/step_<n>/`` holds the LoRA in diffusers format plus everything
an exact resume needs.

Layout of one checkpoint folder:
    pytorch_lora_weights.safetensors  the LoRA, loadable with ``pipeline.load_lora_weights(dir)``
    training_state.pt                 optimizer, LR scheduler, step, RNG states (python, numpy,
                                      torch, the rollout and prompt generators), EMA weights
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import numpy as np
import torch
from peft.utils import get_peft_model_state_dict, set_peft_model_state_dict
from safetensors.torch import load_file

LORA_FILE = "pytorch_lora_weights.safetensors"
STATE_FILE = "training_state.pt"
_STEP_DIR = re.compile(r"^step_(\d+)$")


def rng_states(rollout_generator: torch.Generator, prompt_rng: random.Random) -> dict:
    """Every RNG the loop draws from: python, numpy, torch (CPU and CUDA), and the loop's own."""
    return {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
        "rollout_generator": rollout_generator.get_state(),
        "prompt_rng": prompt_rng.getstate(),
    }


def restore_rng_states(states: dict, rollout_generator: torch.Generator, prompt_rng: random.Random) -> None:
    """Inverse of ``rng_states`` (in place)."""
    random.setstate(states["python"])
    np.random.set_state(states["numpy"])
    torch.set_rng_state(states["torch"])
    if states["cuda"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(states["cuda"])
    rollout_generator.set_state(states["rollout_generator"])
    prompt_rng.setstate(states["prompt_rng"])


def save_checkpoint(
    run_dir: str | Path,
    step: int,
    pipeline_class,
    transformer,
    state: dict,
    keep_last: int,
    *,
    lora_layers: dict | None = None,
) -> Path:
    """Write ``<run_dir>/step_<step>/`` and delete all but the newest ``keep_last`` checkpoints.

    Args:
        run_dir: the run's checkpoint folder (created if missing).
        step: number of GRPO steps completed.
        pipeline_class: the diffusers pipeline class (its ``save_lora_weights`` writes the LoRA
            with the ``transformer.`` key prefix that ``load_lora_weights`` expects).
        transformer: the unwrapped transformer carrying the "default" LoRA adapter.
        state: picklable training state (optimizer, lr_scheduler, rng, ema ... state dicts).
        keep_last: how many checkpoints to keep (>= 1).
        lora_layers: the LoRA state dict to write (``get_peft_model_state_dict`` keys), when the
            caller gathered it from sharded weights (FSDP); None reads it from ``transformer``.

    Returns:
        the checkpoint folder.
    """
    folder = Path(run_dir) / f"step_{step}"
    folder.mkdir(parents=True, exist_ok=True)
    lora = get_peft_model_state_dict(transformer) if lora_layers is None else lora_layers
    lora = {k: v.detach().float().cpu().contiguous() for k, v in lora.items()}
    pipeline_class.save_lora_weights(folder, transformer_lora_layers=lora, safe_serialization=True)
    torch.save({"step": step, **state}, folder / STATE_FILE)
    for old in list_checkpoints(run_dir)[:-keep_last]:
        shutil.rmtree(old)
    return folder


def write_run_record(run_dir: str | Path, name: str, text: str) -> Path:
    """Write ``<run_dir>/<name>`` atomically: the run's record for ``rubricloop-eval`` (its
    ``training_data.jsonl``, the leakage check's input) and ``rubricloop-report`` (``history.json``)."""
    path = Path(run_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


def list_checkpoints(run_dir: str | Path) -> list[Path]:
    """Complete checkpoint folders of a run, oldest first (ordered by step number)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        return []
    found = [
        (int(m.group(1)), p) for p in run_dir.iterdir() if (m := _STEP_DIR.match(p.name)) and (p / STATE_FILE).exists()
    ]
    return [p for _, p in sorted(found)]


def load_checkpoint(folder: str | Path, transformer) -> dict:
    """Load the LoRA of ``folder`` into ``transformer``'s "default" adapter; return the state.

    Raises:
        FileNotFoundError: the folder lacks the LoRA or state file.
        ValueError: the LoRA does not match the transformer's adapter (other keys or shapes: the
            run was made with another lora_rank or lora_target_modules).
    """
    folder = Path(folder)
    for name in (LORA_FILE, STATE_FILE):
        if not (folder / name).exists():
            raise FileNotFoundError(f"checkpoint {folder}: missing {name}")
    lora = {k.removeprefix("transformer."): v for k, v in load_file(folder / LORA_FILE).items()}
    try:
        result = set_peft_model_state_dict(transformer, lora, adapter_name="default")
    except RuntimeError as e:  # size mismatch
        first = str(e).strip().splitlines()[-1].strip()
        raise ValueError(
            f"checkpoint {folder}: LoRA shapes do not match this config (lora_rank or "
            f"lora_target_modules changed?): {first}"
        ) from None
    missing = [k for k in result.missing_keys if "lora_" in k]
    if result.unexpected_keys or missing:
        bad = (result.unexpected_keys or missing)[0]
        raise ValueError(f"checkpoint {folder}: LoRA does not match the model's adapter (key {bad})")
    return torch.load(folder / STATE_FILE, weights_only=False)
