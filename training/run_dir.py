"""The run folder and held-out files every ``rubricloop-train`` task shares (image and text policies):
the wings (``training.diffusion``, ``training.text``) both write their records through it."""

from __future__ import annotations

import contextlib
import importlib.resources
import os
import re
import secrets
import string
from pathlib import Path

from rewards.common.run_folder import write_text

BUNDLED_HELDOUT = "bundled"
"""``data.heldout`` entry naming the BizGenEval rows shipped in the package (``bundled_heldout``)."""


WANDB_ID_FILE = "wandb_run_id"
"""In the run folder: the W&B run id, written when the run starts; a resume continues that W&B run."""


def bundled_heldout() -> Path:
    """The BizGenEval text items bundled with the package: ``refine/example/bizgeneval_text.jsonl``."""
    return Path(str(importlib.resources.files("refine.example") / "bizgeneval_text.jsonl"))


def heldout_paths(entries) -> list[Path]:
    """``data.heldout`` entries as files: ``"bundled"`` -> ``bundled_heldout()``, others are paths."""
    return [bundled_heldout() if str(e) == BUNDLED_HELDOUT else Path(str(e)) for e in entries]


def is_main_process() -> bool:
    """Rank 0 of a launch (``RANK`` as torchrun and accelerate set it), or a single process."""
    return os.environ.get("RANK", "0") == "0"


def claim_run_dir(run_dir: Path):
    """Create ``run_dir`` (``prepare_out``) and hold its lock (``lock_out``) on the main process.

    Returns:
        the lock (a context manager; a no-op on the other ranks) and whether the folder was created.

    Raises:
        ValueError: the folder cannot be written (a file in the way, no permission) or another
            live rubricloop-train holds it; one line.
    """
    from rewards.common.run_folder import lock_out, prepare_out

    try:
        created = prepare_out(run_dir)
    except ValueError as e:
        reason = str(e).removeprefix(f"out={run_dir}")
        raise ValueError(f"run folder {run_dir}{reason}; check trainer.output_dir") from None
    if not is_main_process():
        return contextlib.nullcontext(), created
    try:
        return lock_out(run_dir, command="rubricloop-train"), created
    except ValueError as e:  # lock_out names the holder (.lock.owner): refine, eval or another training
        reason = str(e).removeprefix(f"out={run_dir}").split("; wait for it")[0]
        hint = "check trainer.output_dir"
        if "in use" in reason:
            hint = "wait for it to finish or use another trainer.run_name"
        raise ValueError(f"{run_dir}{reason}; {hint}") from None


def differing_keys(before: dict, now: dict) -> list[str]:
    """``group.key`` of every setting ``before`` and ``now`` disagree on (a whole group when it is
    not a mapping on one side), in the order of ``now``."""
    keys = []
    for group in [*now, *(g for g in before if g not in now)]:
        a, b = before.get(group), now.get(group)
        if isinstance(a, dict) and isinstance(b, dict):
            keys += [f"{group}.{k}" for k in [*b, *(k for k in a if k not in b)] if a.get(k) != b.get(k)]
        elif a != b:
            keys.append(group)
    return keys


def write_run_record(run_dir: str | Path, name: str, text: str) -> Path:
    """Write ``<run_dir>/<name>`` atomically (a temporary file, fsync, rename; a failed write
    removes the temporary file and leaves the old one): the run's record for ``rubricloop-eval``
    (its ``training_data.jsonl``, the leakage check's input) and ``rubricloop-report`` (``history.json``)."""
    path = Path(run_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, text, path.with_name(f"{name}.{os.getpid()}.tmp"))
    return path


def stored_run_id(run_dir: Path) -> str | None:
    """The W&B run id in ``<run_dir>/wandb_run_id``, or None (no file, unreadable, or not an id:
    letters, digits, "-" and "_" only). A file that holds no id is one warning line on stderr: the
    resume logs into a new W&B run (the caller starts it and rewrites the file)."""
    from rewards.common.wandb_run import id_file_problem, say_corrupt_id

    if (problem := id_file_problem(run_dir)) is not None:
        say_corrupt_id(run_dir, problem, "the resume logs into a new W&B run, apart from the earlier one's history")
        return None
    try:
        text = (Path(run_dir) / WANDB_ID_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[A-Za-z0-9_-]{1,128}", text) else None


def new_run_id() -> str:
    """A fresh W&B run id: 8 random lower-case letters and digits (as W&B makes them)."""
    alphabet = string.ascii_lowercase + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(8))
