"""GRPO checkpoints: ``<run_dir>/step_<n>/`` holds the LoRA in diffusers format plus everything
an exact resume needs.

Layout of one checkpoint folder:
    pytorch_lora_weights.safetensors  the LoRA, loadable with ``pipeline.load_lora_weights(dir)``
    training_state.pt                 optimizer, LR scheduler, step, RNG states (python, numpy,
                                      torch, the rollout and prompt generators), EMA weights,
                                      the run's history up to this step
    checkpoint.json                   written last: the step, and the size and SHA-256 of both
                                      files (a folder that does not match it is torn)

A checkpoint is written into ``step_<n>.tmp/`` and renamed to ``step_<n>/`` when whole
(``save_checkpoint``); a resume skips a torn folder and takes the step before
(``load_latest_checkpoint``).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import re
import shutil
from pathlib import Path

import numpy as np
import torch
from peft.utils import get_peft_model_state_dict, set_peft_model_state_dict
from safetensors import SafetensorError
from safetensors.torch import load_file

from rewards.common.run_folder import write_text

LORA_FILE = "pytorch_lora_weights.safetensors"
STATE_FILE = "training_state.pt"
MANIFEST_FILE = "checkpoint.json"
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


class CheckpointWriteError(OSError):
    """A checkpoint could not be written (a full disk, a read-only folder). One line; nothing
    torn is left: the step's temporary folder is removed, earlier checkpoints are untouched."""


class TornCheckpoint(ValueError):
    """A step folder that does not load whole (a truncated or changed file). One line."""


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _file_records(folder: Path) -> dict[str, dict]:
    """name -> {"bytes", "sha256"} of the checkpoint's data files in ``folder``."""
    return {n: {"bytes": (folder / n).stat().st_size, "sha256": _sha256(folder / n)} for n in (LORA_FILE, STATE_FILE)}


def _free_bytes(folder: Path) -> int | None:
    """Free bytes on ``folder``'s file system, or None when it cannot be read."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _remove(folder: Path) -> None:
    """Delete a step folder: renamed first (``.old``), so a kill midway leaves no half folder under a step name."""
    trash = folder.with_name(folder.name + ".old")
    shutil.rmtree(trash, ignore_errors=True)
    folder.rename(trash)
    shutil.rmtree(trash, ignore_errors=True)


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
    """Write ``<run_dir>/step_<step>/`` atomically and delete all but the newest ``keep_last`` checkpoints.

    The files go to ``step_<step>.tmp/``, are flushed to disk (fsync), the manifest (sizes and
    SHA-256 of both files) is written last, and the folder is then renamed to ``step_<step>``: a
    kill or a full disk leaves the earlier checkpoints and no torn ``step_<n>``.

    Args:
        run_dir: the run's checkpoint folder (created if missing).
        step: number of GRPO steps completed.
        pipeline_class: the diffusers pipeline class (its ``save_lora_weights`` writes the LoRA
            with the ``transformer.`` key prefix that ``load_lora_weights`` expects).
        transformer: the unwrapped transformer carrying the "default" LoRA adapter.
        state: picklable training state (optimizer, lr_scheduler, rng, ema, history ...).
        keep_last: how many checkpoints to keep (>= 1).
        lora_layers: the LoRA state dict to write (``get_peft_model_state_dict`` keys), when the
            caller gathered it from sharded weights (FSDP); None reads it from ``transformer``.

    Returns:
        the checkpoint folder.

    Raises:
        CheckpointWriteError: a file could not be written (one line: the folder and the system's reason).
    """
    run_dir = Path(run_dir)
    folder, tmp = run_dir / f"step_{step}", run_dir / f"step_{step}.tmp"
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        for left in [*run_dir.glob("step_*.tmp"), *run_dir.glob("step_*.old")]:  # what a killed save left
            shutil.rmtree(left, ignore_errors=True)
        tmp.mkdir()
        lora = get_peft_model_state_dict(transformer) if lora_layers is None else lora_layers
        lora = {k: v.detach().float().cpu().contiguous() for k, v in lora.items()}
        pipeline_class.save_lora_weights(tmp, transformer_lora_layers=lora, safe_serialization=True)
        torch.save({"step": step, **state}, tmp / STATE_FILE)
        for name in (LORA_FILE, STATE_FILE):
            _fsync(tmp / name)
        manifest = json.dumps({"step": step, "files": _file_records(tmp)}, indent=2)
        with open(tmp / MANIFEST_FILE, "w", encoding="utf-8") as f:
            f.write(manifest)
            f.flush()
            os.fsync(f.fileno())
        _fsync(tmp)
        if folder.exists():  # a torn step of an earlier run, skipped by its resume
            _remove(folder)
        tmp.rename(folder)
        _fsync(run_dir)
    except BaseException as e:
        free = _free_bytes(run_dir)  # before the partial files go: a full disk shows as ~0
        shutil.rmtree(tmp, ignore_errors=True)
        # torch's zip writer reports a failed write as RuntimeError ("iostream error"), safetensors' as SafetensorError
        if isinstance(e, (OSError, RuntimeError, SafetensorError)):
            reason = e.strerror if isinstance(e, OSError) and e.strerror else " ".join(str(e).split())[:200]
            if free is not None and not (isinstance(e, OSError) and e.errno == errno.ENOSPC):
                reason += f" ({free / 2**20:.1f} MiB free on that disk)"
            raise CheckpointWriteError(f"cannot write checkpoint {folder}: {reason}") from None
        raise
    for old in list_checkpoints(run_dir)[:-keep_last]:
        _remove(old)
    return folder


def write_run_record(run_dir: str | Path, name: str, text: str) -> Path:
    """Write ``<run_dir>/<name>`` atomically (a temporary file, fsync, rename; a failed write
    removes the temporary file and leaves the old one): the run's record for ``rubricloop-eval``
    (its ``training_data.jsonl``, the leakage check's input) and ``rubricloop-report`` (``history.json``)."""
    path = Path(run_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, text, path.with_name(f"{name}.{os.getpid()}.tmp"))
    return path


def list_checkpoints(run_dir: str | Path) -> list[Path]:
    """The run's ``step_<n>`` folders, oldest first (ordered by step number); ``load_checkpoint``
    tells whether one is whole (temporary ``step_<n>.tmp`` folders are not listed)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in run_dir.iterdir() if (m := _STEP_DIR.match(p.name)) and p.is_dir()]
    return [p for _, p in sorted(found)]


def read_checkpoint(folder: str | Path) -> tuple[dict, dict]:
    """The training state and the LoRA tensors (keys without the ``transformer.`` prefix) of a
    whole checkpoint folder, checked against its manifest; nothing is changed.

    A folder without a manifest (written before checkpoints had one) is read when both files load.

    Raises:
        TornCheckpoint: a file is missing, its size or SHA-256 is not the manifest's, or it does
            not load (one line naming the folder and the first problem).
    """
    folder = Path(folder)
    try:
        for name in (LORA_FILE, STATE_FILE):
            if not (folder / name).is_file():
                raise TornCheckpoint(f"missing {name}")
        if (folder / MANIFEST_FILE).exists():
            expected = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))["files"]
            for name, record in _file_records(folder).items():
                if record != expected.get(name):
                    have, want = record["bytes"], (expected.get(name) or {}).get("bytes")
                    raise TornCheckpoint(
                        f"{name} has {have} bytes"
                        + (f", the manifest says {want}" if have != want else ", not the manifest's SHA-256")
                    )
        state = torch.load(folder / STATE_FILE, weights_only=False)
        lora = {k.removeprefix("transformer."): v for k, v in load_file(folder / LORA_FILE).items()}
    except TornCheckpoint as e:
        raise TornCheckpoint(f"checkpoint {folder}: {e}") from None
    except Exception as e:  # a truncated zip or safetensors file, an unreadable manifest
        raise TornCheckpoint(
            f"checkpoint {folder}: does not load ({type(e).__name__}: {' '.join(str(e).split())[:160]})"
        ) from None
    return state, lora


def load_checkpoint(folder: str | Path, transformer) -> dict:
    """Load the LoRA of ``folder`` into ``transformer``'s "default" adapter; return the state.
    The folder is read whole (``read_checkpoint``) before the adapter is touched.

    Raises:
        TornCheckpoint: the folder is not whole (``read_checkpoint``).
        ValueError: the LoRA does not match the transformer's adapter (other keys or shapes: the
            run was made with another lora_rank or lora_target_modules).
    """
    folder = Path(folder)
    state, lora = read_checkpoint(folder)
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
    return state


def load_latest_checkpoint(run_dir: str | Path, transformer, note=None) -> tuple[dict | None, Path | None]:
    """Load the newest whole checkpoint of ``run_dir`` (``load_checkpoint``), skipping torn ones
    with a one-line ``note`` each (e.g. ``print`` to stderr; None: silent).

    Returns:
        its state and folder, or (None, None) when the run holds no whole checkpoint.
    """
    folders = list_checkpoints(run_dir)
    for i in range(len(folders) - 1, -1, -1):
        try:
            return load_checkpoint(folders[i], transformer), folders[i]
        except TornCheckpoint as e:
            if note is not None:
                fallback = f"resuming from {folders[i - 1].name}" if i else "no earlier checkpoint"
                note(f"skipping {e}; {fallback}")
    return None, None
