"""What both ``rubricloop-train`` entry points share (the image recipes: ``training.cli``; the text
policies: ``training.text.cli``): one-line errors and the exit statuses.

0: done, or the run was already finished (:class:`RunAlreadyDone`); 1: diverged or a file could
not be written (the checkpoints so far are intact); 2: a bad option, one line before anything is
written; 130: interrupted (Ctrl-C or SIGTERM, a cluster's pre-emption: continue with ``resume=true``; before
the first checkpoint the line says there is nothing to resume).
``HYDRA_FULL_ERROR=1`` shows tracebacks instead of the lines.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any, Callable

from hydra.errors import HydraException

from rewards.common.one_line import error_line, ignored_addition
from rewards.common.task import run_console_script

_show_traceback = False
"""Set by :func:`console_main`: the user ran with HYDRA_FULL_ERROR=1 and gets tracebacks."""


class RunAlreadyDone(Exception):
    """The run folder holds this run, finished: nothing to do. ``line`` says so and where its
    results are; the entry point prints it and exits 0."""

    def __init__(self, line: str, history: dict | None = None):
        super().__init__(line)
        self.line, self.history = line, history


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def fail(err: BaseException, status: int = 2) -> int:
    """Print ``rubricloop-train: <one line>`` on stderr and return ``status`` (re-raise under
    HYDRA_FULL_ERROR=1)."""
    if _show_traceback:
        raise err
    print(f"rubricloop-train: {error_line(err)}", file=sys.stderr)
    return status


def run_guarded(run: Callable[[], Any], run_dir: str) -> tuple[Any, int | None]:
    """``(run(), None)``, or ``(None, exit status)`` after printing the one line of the failure.

    SIGTERM stops the run as Ctrl-C does. ``ValueError`` and Hydra's errors are option errors (2);
    ``ArithmeticError`` (a diverged loss) and ``OSError`` (a checkpoint that could not be written)
    exit 1; an interrupt exits 130 naming ``run_dir``.
    """
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return run(), None
    except RunAlreadyDone as done:
        print(f"rubricloop-train: {done.line}")
        return None, 0
    except (ValueError, HydraException) as e:
        return None, fail(e)
    except (ArithmeticError, OSError) as e:
        return None, fail(e, 1)
    except KeyboardInterrupt:
        if has_checkpoints(run_dir):
            line = f"interrupted; checkpoints so far are in {run_dir}/ (continue with resume=true)"
        else:
            line = (
                f"interrupted before the first checkpoint: nothing to resume in {run_dir}/ "
                "(the same command starts again from step 0)"
            )
        print(f"rubricloop-train: {line}", file=sys.stderr)
        return None, 130


def has_checkpoints(run_dir: str) -> bool:
    """Whether ``run_dir`` holds a checkpoint folder: the image recipes' ``step_<n>``
    (``training.diffusion.checkpoint``) or trl's ``checkpoint-<n>`` (``training.text.grpo``)."""
    try:
        return any(p.is_dir() and re.fullmatch(r"step_\d+|checkpoint-\d+", p.name) for p in Path(run_dir).iterdir())
    except OSError:
        return False


def console_main(app: Callable[[], Any], config_name: str | None = None) -> None:
    """Run a ``hydra.main`` app as the console script: Hydra's composition errors (an unknown
    preset or key) end in one line with exit status 2 instead of Hydra's multi-line report; so
    does an added top-level key of ``config_name`` that the app would ignore (``+reusme=true``,
    ``rewards.common.one_line.ignored_addition``)."""
    global _show_traceback
    problem = ignored_addition(sys.argv[1:], config_name) if config_name else None
    if problem:
        print(f"rubricloop-train: {problem}", file=sys.stderr)
        raise SystemExit(2)
    before = os.environ.get("HYDRA_FULL_ERROR")
    _show_traceback = before == "1"
    os.environ["HYDRA_FULL_ERROR"] = "1"  # so that composition errors reach the except below
    try:
        run_console_script(app)
    except HydraException as e:
        raise SystemExit(fail(e)) from None
    finally:  # a second call in this process (a notebook, a test) sees the user's setting again
        if before is None:
            os.environ.pop("HYDRA_FULL_ERROR", None)
        else:
            os.environ["HYDRA_FULL_ERROR"] = before


def say_unreadable_history(path: Path, err: Exception) -> None:
    """One warning line on stderr: a run's ``history.json`` exists but cannot be read (a corrupt
    or torn file), so the run counts as unfinished and a resume rewrites the file from its
    newest checkpoint."""
    if os.path.lexists(path):
        print(
            f"rubricloop-train: warning: {path} cannot be read ({type(err).__name__}); the run counts as unfinished "
            "and a resume (resume=true) rewrites it from the newest checkpoint",
            file=sys.stderr,
        )
