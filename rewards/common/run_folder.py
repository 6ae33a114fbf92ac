"""The ``out`` folder of a run (rubricloop-refine, rubricloop-judge, rubricloop-eval): create and
check it, hold its lock, log into it, write its JSON files atomically, and refuse a rerun whose
settings differ from the ones recorded in its ``run.json``.

A run uses them in this order::

    created = prepare_out(out)                        # 1. writable, before anything is written
    with lock_out(out, command="rubricloop-refine"):  # 2. no second live run in the same folder
        check_settings(out / "run.json", settings, refusal)  # 3. a rerun must share the settings
        ...                                           #    (a rejected run: discard(out, created))
        with run_files(cfg, out, "refine.log"):       # 4. log, config copy, temporary files
            ...                                       # 5. the run, its files via write_json
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from filelock import FileLock, Timeout
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from rewards.common.one_line import one_line
from rewards.common.secrets import RedactingFilter


class SettingsError(ValueError):
    """A rerun into an ``out`` whose ``run.json`` records other settings. One line."""


def prepare_out(out: Path) -> bool:
    """Create ``out`` and check that files can be written there, before anything is written.

    Returns:
        True when this call created the folder (a rejected run removes it again: :func:`discard`).

    Raises:
        ValueError: one line naming the path and the system's reason (read-only file system,
            permission denied, a file in the way).
    """
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        raise ValueError(f"out={out}: cannot write there ({e.strerror or type(e).__name__})") from None
    return created


def lock_out(out: Path, command: str) -> FileLock:
    """Hold ``<out>/.lock`` for this run (an OS lock: it dies with the process, so a killed
    run never blocks the resume).

    Args:
        out: the run folder (it exists: :func:`prepare_out`).
        command: the console script, named in the refusal ("rubricloop-refine").

    Raises:
        ValueError: another live run holds it (one line).
    """
    lock = FileLock(out / ".lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise ValueError(
            f"out={out} is in use by another running {command} (it holds {out / '.lock'}); "
            "wait for it to finish or use another out="
        ) from None
    return lock


def discard(out: Path, created: bool) -> None:
    """After a rejected run: remove the folder this run created, if nothing but its lock is in it."""
    if created and {p.name for p in out.iterdir()} <= {".lock"}:
        shutil.rmtree(out, ignore_errors=True)


@contextmanager
def run_files(cfg: DictConfig, out: Path, log_name: str, logger: logging.Logger | None = None) -> Iterator[None]:
    """For the run's duration: log to ``<out>/<log_name>``, save the composed config to
    ``<out>/.hydra/``, and keep temporary files in ``<out>/.tmp`` (emptied first: files a killed
    run left there; tesseract's temporary images go there too, so none are left in /tmp).

    Args:
        cfg: the composed config (saved as ``.hydra/config.yaml``; Hydra's overrides beside it).
        out: the run folder.
        log_name: the log file's name in ``out`` ("refine.log").
        logger: the app's own logger, set to INFO for the run so its lines reach the file (the
            file gets every logger's records at the level each lets through), or None.

    Every handler of the root logger (the file's, stderr's) redacts registered API keys from
    the records it writes (``rewards.common.secrets.RedactingFilter``).
    """
    (out / ".hydra").mkdir(exist_ok=True)
    OmegaConf.save(cfg, out / ".hydra" / "config.yaml")
    if HydraConfig.initialized():
        OmegaConf.save(HydraConfig.get().overrides.task, out / ".hydra" / "overrides.yaml")
    tmp = out / ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    handler = logging.FileHandler(out / log_name, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root, saved_tempdir = logging.getLogger(), tempfile.tempdir
    saved_level = logger.level if logger is not None else None
    root.addHandler(handler)
    redacting = RedactingFilter()  # API keys out of the log file and stderr (rewards.common.secrets)
    for h in root.handlers:
        h.addFilter(redacting)
    if logger is not None:
        logger.setLevel(logging.INFO)
    tempfile.tempdir = str(tmp)
    try:
        yield
    finally:
        tempfile.tempdir = saved_tempdir
        for h in root.handlers:
            h.removeFilter(redacting)
        root.removeHandler(handler)
        if logger is not None:
            logger.setLevel(saved_level)
        handler.close()
        shutil.rmtree(tmp, ignore_errors=True)


def write_json(path: Path, data: Any, ensure_ascii: bool = False) -> None:
    """Write ``data`` as JSON (indent 2) to ``path`` atomically: into ``<path>.tmp``, flushed to
    the disk (``fsync``), then renamed over ``path``, so a killed run or a full disk leaves the
    old file or the new one, never half of one. A write that fails (disk full, Ctrl-C) removes
    ``<path>.tmp`` before the error goes on.

    Args:
        path: the file.
        data: anything ``json.dumps`` takes.
        ensure_ascii: escape non-ASCII characters (``\\u00e9``) as ``json.dumps`` does by default;
            False writes them as UTF-8.

    Raises:
        OSError: the file could not be written (``path`` is then as it was).
    """
    text = json.dumps(data, indent=2, ensure_ascii=ensure_ascii)  # a TypeError here leaves no file
    write_text(path, text, path.with_suffix(path.suffix + ".tmp"))


def write_text(path: Path, text: str, tmp: Path) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: into ``tmp`` (a name beside it), ``fsync``,
    then renamed over ``path``; a write that fails (disk full, Ctrl-C) removes ``tmp`` and leaves
    ``path`` as it was.

    Raises:
        OSError: the file could not be written.
    """
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_settings(
    path: Path,
    settings: dict[str, Any],
    refusal: Callable[[dict[str, Any]], str],
    only_given: bool = False,
) -> bool:
    """Refuse a rerun whose settings differ from the ones ``path`` (``<out>/run.json``) records:
    finished items would otherwise mix two settings in one summary.

    Args:
        path: the run's ``run.json``; the caller writes it (:func:`write_json`) when absent.
        settings: this run's settings.
        refusal: the recorded settings -> the one-line message of the refusal (each command
            words it its own way).
        only_given: compare only the keys of ``settings`` (a key only the file has is ignored);
            False compares the whole objects.

    Returns:
        True when ``path`` records the same settings (a resume), False when there is no ``path``.

    Raises:
        SettingsError: ``refusal(recorded)``, when the settings differ; or one line naming
            ``path`` when it is not a JSON object (a corrupted or foreign file).
    """
    if not path.exists():
        return False
    try:
        before = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:  # ValueError: JSONDecodeError and UnicodeDecodeError
        problem = f"is not readable JSON ({str(e)[:120]})"
    else:
        problem = None if isinstance(before, dict) else "is JSON but not an object"
    if problem is not None:
        raise SettingsError(
            one_line(
                f"{path}: {problem}, so the settings of the run in {path.parent} are unknown; "
                "delete it to resume there with this run's settings, or use a new out="
            )
        )
    differ = any(before.get(k) != v for k, v in settings.items()) if only_given else before != settings
    if differ:
        raise SettingsError(refusal(before))
    return True
