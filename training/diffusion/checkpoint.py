"""GRPO checkpoints: ``<run_dir>/step_<n>/`` holds the LoRA in diffusers format plus everything
an exact resume needs.

Layout of one checkpoint folder:
    pytorch_lora_weights.safetensors  the LoRA, loadable with ``pipeline.load_lora_weights(dir)``;
                                      its safetensors metadata holds diffusers' LoRA adapter
                                      metadata (``lora_adapter_metadata``: rank, alpha, target
                                      modules, base model), which ``load_lora_weights`` reads
                                      back so the LoRA loads at the strength it was trained
                                      (without it diffusers takes alpha = rank), and
                                      ``base_model`` (the base model's id or path)
    adapter_config.json               the same LoRA config in PEFT's format (r, lora_alpha,
                                      target_modules, base_model_name_or_path ...)
    training_state.pt                 optimizer, LR scheduler, step, RNG states (python, numpy,
                                      torch, the rollout and prompt generators), EMA weights,
                                      the run's history up to this step
    checkpoint.json                   written last: the step, and the size and SHA-256 of both
                                      data files (a folder that does not match it is torn)

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
from safetensors.torch import load_file, save_file

from training.run_dir import write_run_record  # noqa: F401 (re-exported: the recipes' records)

LORA_FILE = "pytorch_lora_weights.safetensors"
STATE_FILE = "training_state.pt"
MANIFEST_FILE = "checkpoint.json"
ADAPTER_CONFIG_FILE = "adapter_config.json"
BASE_MODEL_KEY = "base_model"
"""The safetensors metadata key of the base model's id or path (next to diffusers' ``lora_adapter_metadata``)."""
LORA_CONFIG_KEYS = ("r", "lora_alpha", "target_modules", "lora_dropout", "bias", "use_rslora", "use_dora")
"""The ``peft.LoraConfig`` fields saved as the LoRA's metadata: what loading it at its trained strength needs."""
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


def _file_records(folder: Path, names=(LORA_FILE, STATE_FILE)) -> dict[str, dict]:
    """name -> {"bytes", "sha256"} of the checkpoint's data files ``names`` in ``folder``."""
    return {n: {"bytes": (folder / n).stat().st_size, "sha256": _sha256(folder / n)} for n in names}


def lora_metadata(transformer, base_model: str = "", adapter_name: str = "default") -> dict:
    """The LoRA config of ``transformer``'s adapter as ``peft.LoraConfig`` keyword arguments:
    ``LORA_CONFIG_KEYS`` (target modules as a sorted list) and ``base_model_name_or_path``
    (``base_model``, None when empty). JSON-serialisable; what ``save_checkpoint`` writes.

    Raises:
        KeyError: ``transformer`` has no adapter ``adapter_name``.
    """
    config = transformer.peft_config[adapter_name].to_dict()
    out = {k: config[k] for k in LORA_CONFIG_KEYS}
    modules = out["target_modules"]
    out["target_modules"] = sorted(modules) if isinstance(modules, (set, list, tuple)) else modules
    out["base_model_name_or_path"] = base_model or None
    return out


def read_lora_metadata(folder: str | Path) -> dict:
    """The safetensors metadata of ``<folder>/pytorch_lora_weights.safetensors`` (header only):
    ``format``, ``base_model`` and diffusers' ``lora_adapter_metadata`` decoded from JSON (keys
    ``transformer.r``, ``transformer.lora_alpha`` ...); {} for a file without metadata.

    Raises:
        OSError, SafetensorError: the file is missing or not a safetensors file.
    """
    from diffusers.loaders.lora_base import LORA_ADAPTER_METADATA_KEY
    from safetensors import safe_open

    with safe_open(str(Path(folder) / LORA_FILE), framework="pt") as f:
        meta = dict(f.metadata() or {})
    if LORA_ADAPTER_METADATA_KEY in meta:
        meta[LORA_ADAPTER_METADATA_KEY] = json.loads(meta[LORA_ADAPTER_METADATA_KEY])
    return meta


def _write_lora(folder: Path, pipeline_class, lora: dict, metadata: dict | None, base_model: str) -> None:
    """``pipeline_class.save_lora_weights`` into ``folder`` (keys prefixed ``transformer.``), the
    file's metadata holding ``metadata`` as diffusers' ``lora_adapter_metadata`` (prefixed the
    same way, as ``save_lora_weights(transformer_lora_adapter_metadata=...)`` writes it, which
    ``load_lora_weights`` reads back) and ``base_model``; ``adapter_config.json`` beside it."""
    from diffusers.loaders.lora_base import LORA_ADAPTER_METADATA_KEY

    prefix = getattr(pipeline_class, "transformer_name", "transformer")
    file_meta = {"format": "pt"}
    if metadata:
        packed = {f"{prefix}.{k}": v for k, v in metadata.items()}
        file_meta[LORA_ADAPTER_METADATA_KEY] = json.dumps(packed, indent=2, sort_keys=True)
    if base_model:
        file_meta[BASE_MODEL_KEY] = base_model

    def save_function(weights: dict, filename: str) -> None:  # diffusers' own writer, with our metadata
        save_file(weights, filename, metadata=file_meta)

    pipeline_class.save_lora_weights(
        folder, transformer_lora_layers=lora, save_function=save_function, safe_serialization=True
    )
    if metadata:
        config = {"peft_type": "LORA", "task_type": None, **metadata}
        (folder / ADAPTER_CONFIG_FILE).write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")


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
    base_model: str = "",
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
        base_model: the base model's id or path, saved in the LoRA's metadata ("" leaves it out).
            The LoRA's rank, alpha and target modules come from ``transformer``'s "default"
            adapter config (``lora_metadata``).

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
        has_adapter = "default" in (getattr(transformer, "peft_config", None) or {})
        meta = lora_metadata(transformer, base_model) if has_adapter else None
        _write_lora(tmp, pipeline_class, lora, meta, base_model)
        torch.save({"step": step, **state}, tmp / STATE_FILE)
        names = [n for n in (LORA_FILE, STATE_FILE, ADAPTER_CONFIG_FILE) if (tmp / n).is_file()]
        for name in names:
            _fsync(tmp / name)
        manifest = json.dumps({"step": step, "files": _file_records(tmp, names)}, indent=2)
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


def list_checkpoints(run_dir: str | Path) -> list[Path]:
    """The run's ``step_<n>`` folders, oldest first (ordered by step number); ``load_checkpoint``
    tells whether one is whole (temporary ``step_<n>.tmp`` folders are not listed)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        return []
    found = [(int(m.group(1)), p) for p in run_dir.iterdir() if (m := _STEP_DIR.match(p.name)) and p.is_dir()]
    return [p for _, p in sorted(found)]


def _check_manifest(folder: Path) -> None:
    """Compare the data files of ``folder`` with its manifest (sizes and SHA-256; ``adapter_config.json``
    when listed). Raises TornCheckpoint (the first problem, without the folder) or OSError/ValueError
    (an unreadable manifest)."""
    expected = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))["files"]
    listed = [n for n in expected if n not in (LORA_FILE, STATE_FILE)]
    for name in (LORA_FILE, STATE_FILE, *listed):
        if not (folder / name).is_file():
            raise TornCheckpoint(f"missing {name}")
    for name, record in _file_records(folder, (LORA_FILE, STATE_FILE, *listed)).items():
        if record != expected.get(name):
            have, want = record["bytes"], (expected.get(name) or {}).get("bytes")
            raise TornCheckpoint(
                f"{name} has {have} bytes"
                + (f", the manifest says {want}" if have != want else ", not the manifest's SHA-256")
            )


def is_whole(folder: str | Path) -> bool:
    """Whether the checkpoint ``folder`` has its manifest and every file matches it (sizes and
    SHA-256; nothing is loaded): a cheaper ``read_checkpoint`` for "is this run finished"."""
    try:
        _check_manifest(Path(folder))
    except (TornCheckpoint, OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    return True


def read_checkpoint(folder: str | Path) -> tuple[dict, dict]:
    """The training state and the LoRA tensors (keys without the ``transformer.`` prefix) of a
    whole checkpoint folder, checked against its manifest; nothing is changed.

    A folder without a manifest (written before checkpoints had one) is read when both files load;
    ``adapter_config.json`` is checked when the manifest lists it.

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
            _check_manifest(folder)
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
