"""Checks of a constructor's or a config's true/false options.

A Hydra override ``case_sensitive=flase`` arrives as the string ``"flase"``, and a string is
true: an unchecked flag would silently mean the opposite of what the user typed.
"""

from __future__ import annotations

from collections.abc import Mapping


def bool_problems(flags: Mapping[str, object], prefix: str = "") -> list[str]:
    """One line per value of ``flags`` that is not a bool: ``"<prefix><name> must be true or
    false, got 'flase'"``; [] when all are bools."""
    wrong = {name: flag for name, flag in flags.items() if not isinstance(flag, bool)}
    return [f"{prefix}{name} must be true or false, got {flag!r}" for name, flag in wrong.items()]


def require_bools(owner: str, **flags: object) -> None:
    """Refuse the first value of ``flags`` that is not a bool.

    Raises:
        ValueError: ``"<owner>: <name> must be true or false, got 'flase'"``.
    """
    problems = bool_problems(flags)
    if problems:
        raise ValueError(f"{owner}: {problems[0]}")
