"""Evaluating a LoRA from ``rubricloop-train``: load it into the generator, check for leakage.

A checkpoint ``checkpoints/<run>/step_<n>/`` holds the LoRA in diffusers format
(``pytorch_lora_weights.safetensors``, see ``training/checkpoint.py``); the run folder holds
``training_data.jsonl``, the training items the trainer drew its prompts from.
"""

from __future__ import annotations

import hashlib
import json
import stat
import sys
from pathlib import Path
from typing import Sequence

from rewards.rubric import Item

TRAINING_DATA_FILE = "training_data.jsonl"
"""In the run folder (the checkpoint's parent): one ``{"id", "prompt"}`` line per training item."""


LORA_FILES = (
    "pytorch_lora_weights.safetensors",
    "pytorch_lora_weights.bin",
    "adapter_model.safetensors",
    "adapter_model.bin",
    "adapter_config.json",
)
"""The files of a checkpoint that hold its LoRA (diffusers' and PEFT's names), hashed by :func:`lora_digest`."""


def lora_digest(checkpoint: Path) -> str | None:
    """sha256 over the name and bytes of each LoRA file (:data:`LORA_FILES`) in ``checkpoint``,
    in that order: recorded in eval's ``run.json``, so that a rerun after the weights at the
    same path changed is refused. None when the folder holds none of them (``apply_lora``
    refuses it then).

    Raises:
        ValueError: a LoRA file cannot be read, or is not a regular file (one line).
    """
    h, found = hashlib.sha256(), False
    for name in LORA_FILES:
        path = checkpoint / name
        try:
            if not path.exists():
                continue
            if not stat.S_ISREG(path.stat().st_mode):
                raise ValueError(f"lora={checkpoint}: {name} is not a regular file")
            h.update(name.encode() + b"\0")
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):  # noqa: B023 (f: this iteration's)
                    h.update(block)
            h.update(b"\0")
            found = True
        except OSError as e:
            raise ValueError(f"lora={checkpoint}: cannot read {name} ({e.strerror or type(e).__name__})") from None
    return h.hexdigest() if found else None


def apply_lora(generator, checkpoint: Path) -> None:
    """Load the LoRA of ``checkpoint`` into the generator's diffusers pipeline
    (``pipe.load_lora_weights``), once, before the first image.

    Raises:
        ValueError: the generator has no diffusers pipeline, or the folder has no LoRA file.
    """
    if not (checkpoint / "pytorch_lora_weights.safetensors").is_file():
        raise ValueError(
            f"lora={checkpoint}: no pytorch_lora_weights.safetensors (a checkpoints/<run>/step_<n> folder?)"
        )
    load = getattr(generator, "_load", None)
    if load is None:
        raise ValueError(f"lora=... needs a diffusers generator, got {type(generator).__name__}")
    load().load_lora_weights(str(checkpoint))


def training_prompts(checkpoint: Path) -> list[Item] | None:
    """The run's training items (id and prompt only), or None when the run recorded none."""
    path = checkpoint.parent / TRAINING_DATA_FILE
    if not path.is_file():
        return None
    from rewards.rubric import Rubric

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Item(str(r["id"]), str(r["prompt"]), Rubric(())) for r in rows]


def warn_leakage(checkpoint: Path, items: Sequence[Item], data: Path, threshold: float = 90.0) -> list:
    """Warn loudly (stderr) for every benchmark item that (nearly) duplicates a training prompt
    of the LoRA's run (``rewards.leakage.find_leaks``: normalised exact or token-set ratio >=
    ``threshold``). Returns the leaks; warns too when the run recorded no training data."""
    train = training_prompts(checkpoint)
    if train is None:
        print(
            f"WARNING: {checkpoint.parent} has no {TRAINING_DATA_FILE}: cannot check this LoRA's training data "
            "for benchmark items",
            file=sys.stderr,
        )
        return []
    from rewards.leakage import find_leaks

    leaks = find_leaks(train, [(str(data), it) for it in items], threshold=threshold)
    for lk in leaks:
        print(
            f"WARNING: LEAKAGE: benchmark item {lk.heldout_id} of {data} "
            f"{'equals' if lk.exact else 'nearly duplicates'} "
            f"training prompt {lk.train_id} of {checkpoint.parent} (score {lk.score:.0f}); its score is not held out",
            file=sys.stderr,
        )
    if leaks:
        print(
            f"WARNING: LEAKAGE: {len({lk.heldout_id for lk in leaks})} of {len(items)} benchmark items were in the "
            "training data",
            file=sys.stderr,
        )
    return leaks
