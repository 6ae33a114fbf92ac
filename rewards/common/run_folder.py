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
import re
import shutil
import sys
import tempfile
import time
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


OWNER_FILE = ".lock.owner"
"""Beside ``<out>/.lock``: the console script holding it (written once the lock is held, removed
before it is released), so that a refused run names the program that holds the folder."""


class RunLock:
    """The held ``<out>/.lock`` of a run (:func:`lock_out`); ``with lock:`` or ``lock.release()``
    removes ``<out>/.lock.owner`` and releases it (a second release does nothing)."""

    def __init__(self, lock: FileLock, owner: Path | None):
        self._lock, self._owner = lock, owner

    def release(self) -> None:
        if not self._lock.is_locked:
            return
        if self._owner is not None:
            try:
                self._owner.unlink(missing_ok=True)
            except OSError:  # a folder that turned read-only: the next holder overwrites it
                pass
        self._lock.release(force=True)

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


OWNER_WAIT_S = 1.0
"""How long a refused run waits for ``.lock.owner`` to appear: the holder writes it just after
taking the lock, so a run refused in between would otherwise find no name."""


def _holder(out: Path, wait_s: float = OWNER_WAIT_S) -> str:
    """Who holds ``<out>/.lock``: the command in ``<out>/.lock.owner`` (waiting up to ``wait_s``
    seconds for a holder that has just taken the lock to write it), else "RubricLoop run"."""
    path = out / OWNER_FILE
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if path.is_file() and path.stat().st_size <= 200:
                name = path.read_text(encoding="utf-8", errors="replace").strip()
                return name if re.fullmatch(r"[\w.-]{1,60}", name) else "RubricLoop run"
        except OSError:
            pass
        if time.monotonic() >= deadline:
            return "RubricLoop run"
        time.sleep(0.05)


def lock_out(out: Path, command: str) -> RunLock:
    """Hold ``<out>/.lock`` for this run (an OS lock: it dies with the process, so a killed
    run never blocks the resume), and name ``command`` in ``<out>/.lock.owner`` while held.

    Args:
        out: the run folder (it exists: :func:`prepare_out`).
        command: the console script ("rubricloop-refine"), named in the refusal of a second run
            into ``out`` while this one holds it.

    Raises:
        ValueError: another live run holds it (one line naming that run's command: its
            ``.lock.owner``, waited for up to :data:`OWNER_WAIT_S`; without one, "another
            running RubricLoop run", never this run's own ``command``: the holder may be any
            program), or ``.lock`` cannot be created (a read-only folder, no permission).
    """
    lock = FileLock(out / ".lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        holder = _holder(out)
        raise ValueError(
            f"out={out} is in use by another running {holder} (it holds {out / '.lock'}); "
            "wait for it to finish or use another out="
        ) from None
    except OSError as e:
        raise ValueError(f"out={out}: cannot write there ({e.strerror or type(e).__name__})") from None
    owner: Path | None = out / OWNER_FILE
    try:
        write_text(owner, command + "\n", out / (OWNER_FILE + ".tmp"))
    except OSError:  # a full disk: the lock holds all the same; a refusal then names no program
        owner = None
    return RunLock(lock, owner)


def discard(out: Path, created: bool) -> None:
    """After a rejected run: remove the folder this run created, if nothing but its lock is in it."""
    if created and {p.name for p in out.iterdir()} <= {".lock", OWNER_FILE}:
        shutil.rmtree(out, ignore_errors=True)


class RunFilesError(SystemExit):
    """The run's files (``.hydra/``, ``.tmp/``, the log) could not be made in ``out`` (disk full,
    read-only): ``error: <one line>`` on stderr and exit status 1. A ``SystemExit``, as the
    consoles call :func:`run_files` outside their own error handling and Hydra lets it through."""

    def __init__(self, message: str):
        super().__init__(f"error: {message}")
        self.message = message


class QuietFileHandler(logging.FileHandler):
    """A log file that a full disk or a vanished folder does not turn into a traceback per
    record: its first failed write prints one warning line on stderr ("cannot write <log>
    (No space left on device); the log stops here") and the handler writes nothing more;
    ``close`` never raises."""

    def __init__(self, path: Path):
        super().__init__(path, encoding="utf-8")
        self.failed = False

    def emit(self, record: logging.LogRecord) -> None:
        if not self.failed:
            super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        exc = sys.exc_info()[1]
        if self.failed or not isinstance(exc, OSError):
            if not self.failed:
                super().handleError(record)  # a formatting bug: logging's own report
            return
        self.failed = True
        try:
            print(
                f"warning: cannot write {self.baseFilename} ({exc.strerror or type(exc).__name__}); the log stops here",
                file=sys.stderr,
            )
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        try:
            super().close()
        except (OSError, ValueError):
            pass


def _run_file(out: Path, what: str, make: Callable[[], Any]) -> Any:
    """``make()``; an OSError becomes :class:`RunFilesError` naming ``<out>/<what>``."""
    try:
        return make()
    except OSError as e:
        raise RunFilesError(f"out={out}: cannot write {out / what} ({e.strerror or type(e).__name__})") from None


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
    the records it writes (``rewards.common.secrets.RedactingFilter``). The config files are
    written atomically (:func:`write_text`); the log stops with one warning line on stderr at
    its first failed write (:class:`QuietFileHandler`).

    Raises:
        RunFilesError: ``.hydra/``, ``.tmp/`` or the log cannot be made (disk full, read-only):
            one line, exit status 1, before the run starts; nothing half-written is left.
    """
    hydra_dir = out / ".hydra"
    _run_file(out, ".hydra", lambda: hydra_dir.mkdir(exist_ok=True))
    files = {"config.yaml": cfg}
    if HydraConfig.initialized():
        files["overrides.yaml"] = HydraConfig.get().overrides.task
    for name, conf in files.items():
        text, path = OmegaConf.to_yaml(conf), hydra_dir / name
        _run_file(out, f".hydra/{name}", lambda: write_text(path, text, path.with_name(name + ".tmp")))  # noqa: B023
    tmp = out / ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    _run_file(out, ".tmp", tmp.mkdir)
    handler = _run_file(out, log_name, lambda: QuietFileHandler(out / log_name))
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


def write_error(e: OSError, where: Path) -> str:
    """One line for a file that could not be written: ``cannot write <file> (<reason>)``; the file
    is the error's (for ``os.replace(tmp, file)`` its target), else ``where``."""
    return f"cannot write {e.filename2 or e.filename or where} ({e.strerror or type(e).__name__})"


def check_regular(path: Path, what: str) -> None:
    """Refuse ``path`` when it exists but is not a regular file (a FIFO would block its reader
    forever, a folder cannot be read): one line naming it.

    Raises:
        ValueError: ``<path>: is not a regular file; ...``.
    """
    if os.path.lexists(path) and not path.is_file():
        raise ValueError(f"{path}: is not a regular file, so {what} cannot be read; remove it or use a new out=")


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


def write_text(path: Path, text: str, tmp: Path | None = None) -> None:
    """Write ``text`` (UTF-8, line ends as given: a CSV's ``\\r\\n`` stays) to ``path`` atomically:
    into ``tmp`` (a name beside it; default ``<path>.tmp``), ``fsync``, then renamed over ``path``;
    a write that fails (disk full, Ctrl-C) removes ``tmp`` and leaves ``path`` as it was.

    Raises:
        OSError: the file could not be written.
    """
    tmp = tmp or path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename is None:  # a failed write() or fsync() names no file
            e.filename = str(path)
        raise


def check_settings(
    path: Path,
    settings: dict[str, Any],
    refusal: Callable[[dict[str, Any]], str],
    only_given: bool = False,
    new_run: str = "use a new out=",
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
        new_run: how the command starts a run elsewhere, for the corrupted-file message.

    Returns:
        True when ``path`` records the same settings (a resume), False when there is no ``path``.

    Raises:
        SettingsError: ``refusal(recorded)``, when the settings differ; or one line naming
            ``path`` when it is not a JSON object (a corrupted or foreign file) or not a regular
            file (a FIFO, a folder: never opened).
    """
    if not os.path.lexists(path):
        return False
    if not path.is_file():  # a FIFO would block the read forever; a folder or a dangling link has no settings
        problem = "is not a regular file"
    else:
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
                f"delete it to resume there with this run's settings, or {new_run}"
            )
        )
    differ = any(before.get(k) != v for k, v in settings.items()) if only_given else before != settings
    if differ:
        raise SettingsError(refusal(before))
    return True
