"""Which W&B run a run folder logged into, so that a later command (``rubricloop-report --wandb``,
a resumed eval) logs into the same run instead of starting another one.

A run folder records its W&B run in one of two ways: ``<folder>/wandb_run_id`` (written by
``rubricloop-train``, ``rubricloop-eval`` and ``rubricloop-refine`` before ``wandb.init``), or only
the folder W&B itself made, ``<folder>/wandb/run-<time>-<id>`` (online) / ``offline-run-<time>-<id>``
(offline), as a refine run made before the id file left it. The project is the one the run's composed config names
(``<folder>/.hydra/config.yaml``: ``wandb.project``, or training's ``trainer.wandb_project``).
"""

from __future__ import annotations

import re
import secrets
import string
from pathlib import Path

WANDB_ID_FILE = "wandb_run_id"
"""In a run folder: the id of the W&B run it logs into."""

_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
_RUN_DIR = re.compile(r"(?:offline-)?run-(\d{8}_\d{6})-.+")


def new_run_id() -> str:
    """A fresh W&B run id: 8 random lower-case letters and digits (as W&B makes them)."""
    alphabet = string.ascii_lowercase + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(8))


def id_file_problem(folder: Path) -> str | None:
    """Why ``<folder>/wandb_run_id`` holds no run id ("empty", "not UTF-8 text", the start of
    what it holds, an OS error), or None when it holds one or does not exist."""
    path = Path(folder) / WANDB_ID_FILE
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        return "not UTF-8 text"
    except OSError as e:
        return f"unreadable: {e.strerror or type(e).__name__}"
    if _ID.fullmatch(text):
        return None
    return "empty" if not text else repr(" ".join(text.split())[:60])


def say_corrupt_id(folder: Path, problem: str, what: str) -> None:
    """One warning line on stderr: ``wandb_run_id`` holds no id (``problem``) and ``what`` follows."""
    import sys

    print(f"warning: {Path(folder) / WANDB_ID_FILE} holds no W&B run id ({problem}): {what}", file=sys.stderr)


def recorded_run_id(folder: Path) -> str | None:
    """The W&B run id ``folder`` logged into: ``<folder>/wandb_run_id``, else the id of the newest
    run folder W&B made in ``<folder>/wandb/`` (by the start time in its name, then its run file's
    age: two starts in one second are ``...-<id>`` and ``...-<id>-1``), read from the name of its
    run file ``run-<id>.wandb``; None when it logged into none."""
    try:
        text = (Path(folder) / WANDB_ID_FILE).read_text(encoding="utf-8").strip()
        if _ID.fullmatch(text):
            return text
    except (OSError, UnicodeDecodeError):
        pass
    runs = []
    try:
        for p in (Path(folder) / "wandb").iterdir():
            m = _RUN_DIR.fullmatch(p.name)
            files = list(p.glob("run-*.wandb")) if m and p.is_dir() else []
            if len(files) == 1 and _ID.fullmatch(run_id := files[0].name[len("run-") : -len(".wandb")]):
                runs.append((m.group(1), files[0].stat().st_mtime_ns, run_id))
    except OSError:
        return None
    return max(runs)[2] if runs else None


def kept_run_id(folder: Path) -> str:
    """The W&B run id ``folder`` logs into: :func:`recorded_run_id`, else a new one, written to
    ``<folder>/wandb_run_id`` (atomically) before the run starts, so a rerun into ``folder`` and
    ``rubricloop-report --wandb`` resume it (``wandb.init(id=..., resume="allow")``). A
    ``wandb_run_id`` that holds no id is rewritten, with one warning line naming the run now
    logged into (the newest W&B made in ``<folder>/wandb/``, else a new one) and why.

    Raises:
        OSError: ``wandb_run_id`` cannot be written (a full disk, a read-only folder).
    """
    from rewards.common.run_folder import write_text

    problem = id_file_problem(folder)
    run_id = recorded_run_id(folder)
    if problem is not None:  # a corrupt file: say which run is logged into now, and why (once: it is rewritten)
        what = (
            f"logging into a new W&B run {(run_id := new_run_id())}, so this folder's W&B history continues there, "
            "apart from the earlier run (write the earlier run's id into the file to log into it instead)"
            if run_id is None
            else f"logging into W&B run {run_id}, the newest in {Path(folder) / 'wandb'}"
        )
        say_corrupt_id(folder, problem, what)
    if run_id is None or problem is not None:
        run_id = run_id or new_run_id()
        write_text(Path(folder) / WANDB_ID_FILE, run_id + "\n", Path(folder) / (WANDB_ID_FILE + ".tmp"))
    return run_id


def recorded_project(folder: Path) -> str | None:
    """The W&B project the run's composed config (``<folder>/.hydra/config.yaml``) names, or None."""
    from omegaconf import OmegaConf

    try:
        cfg = OmegaConf.load(Path(folder) / ".hydra" / "config.yaml")
    except (OSError, ValueError):
        return None
    for key in ("wandb.project", "trainer.wandb_project", "wandb_project"):
        value = OmegaConf.select(cfg, key, default=None, throw_on_missing=False)
        if isinstance(value, str) and value:
            return value
    return None
