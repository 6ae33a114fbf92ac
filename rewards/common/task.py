"""The wrapper every console script runs its app in: option errors, Ctrl-C and the exit status.

A Hydra app (rubricloop-refine, -eval, -judge) wraps its task function and its entry point::

    @hydra.main(config_path="pkg://conf", config_name="refine", version_base="1.3")
    @task_wrapper
    def _main(cfg: DictConfig) -> int:
        return run(cfg)                      # the exit status


    def main() -> None:                      # the [project.scripts] entry point
        run_console_script(_main, config_name="refine")

An argparse app (rubricloop-report) passes its ``main() -> int`` alone:
``run_console_script(main)``.

The exit status is then:

- 2 with one line ``error: <reason>`` on stderr when Hydra refuses the command-line overrides
  (unknown option or choice, bad syntax), before Hydra prints its multi-line report (only with
  ``config_name``; see ``rewards.common.one_line.exit_on_bad_overrides``);
- 130 with ``interrupted`` on stderr on a Ctrl-C the app did not handle itself (an app that
  keeps finished work says so in its own message and returns 130);
- otherwise what the app returns: an int, None meaning 0.

Any other exception is left to Python (Hydra prints it for a Hydra app): an app turns the
errors it expects into one-line messages and an exit status itself.

The task function is wrapped inside ``hydra.main`` because Hydra drops its return value.
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable

from rewards.common.one_line import exit_on_bad_overrides

INTERRUPTED = "\ninterrupted"
"""What a Ctrl-C the app did not handle prints on stderr (on a line of its own, after ``^C``)."""


def task_wrapper(app: Callable[..., int | None]) -> Callable[..., None]:
    """Decorate ``app`` (a Hydra task function ``app(cfg)``, or any function) so that its
    returned exit status ends the process, and a Ctrl-C in it exits 130.

    Returns:
        The wrapped function: it returns None when ``app`` returns 0 or None.

    Raises:
        SystemExit: ``app``'s non-zero return; 130 after printing :data:`INTERRUPTED` on a
            KeyboardInterrupt that ``app`` let through.
    """

    @functools.wraps(app)
    def task(*args: Any, **kwargs: Any) -> None:
        try:
            code = app(*args, **kwargs)
        except KeyboardInterrupt:
            print(INTERRUPTED, file=sys.stderr)
            code = 130
        if code:
            raise SystemExit(code)

    return task


def run_console_script(app: Callable[[], int | None], config_name: str | None = None) -> None:
    """A console script's whole entry point.

    1. With ``config_name`` (the Hydra config in package ``conf``): option errors exit 2 in one
       line, before Hydra runs.
    2. ``app()`` under :func:`task_wrapper`.

    Args:
        app: the app, called without arguments (a ``hydra.main`` function parses ``sys.argv``).
        config_name: the app's Hydra config ("refine"), or None for a script without one.

    Raises:
        SystemExit: 2 on an option error; else see :func:`task_wrapper`.
    """
    if config_name is not None:
        exit_on_bad_overrides(config_name)
    task_wrapper(app)()
