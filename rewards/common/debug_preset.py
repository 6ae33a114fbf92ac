"""Each debug preset belongs to one app: a preset of another app is one line and exit 2.

A preset is ``conf/debug/<name>.yaml`` and names its app in its ``debug_app`` key
(``debug_app: rubricloop-refine``). A console script checks its command line with
:func:`exit_on_foreign_preset` before Hydra composes anything: another app's preset would
otherwise end in a traceback (``rubricloop-refine debug=smoke`` got the trainer's ``data:``
block) or run with that app's keys merged in (``rubricloop-eval debug=smoke``), or fail inside
Hydra with a message that does not name the preset's app (``override /writer`` in an app without
a writer). A preset that declares no app (one of your own) and an unknown name (Hydra reports
it) are left to Hydra.
"""

from __future__ import annotations

import sys
from importlib.resources import files

import yaml


def _preset_file(name: str):
    """``conf/debug/<name>.yaml`` as an importlib resource (it may not exist)."""
    return files("conf").joinpath("debug", f"{name}.yaml")


def preset_app(name: str) -> str | None:
    """The app preset ``name`` declares (its ``debug_app``), or None when the preset does not
    exist, cannot be parsed, or declares no app."""
    if not name or "/" in name or name.startswith("."):
        return None
    path = _preset_file(name)
    try:
        node = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None
    app = node.get("debug_app") if isinstance(node, dict) else None
    return app if isinstance(app, str) else None


def presets_of(app: str) -> list[str]:
    """The names of the presets under ``conf/debug/`` that declare ``app``, sorted."""
    names = [p.name.removesuffix(".yaml") for p in files("conf").joinpath("debug").iterdir()]
    return sorted(n for n in names if n and preset_app(n) == app)


def _debug_choices(args: list[str]) -> list[str]:
    """The preset names the command-line overrides ``args`` select for ``debug`` (``debug=a``,
    ``+debug=a``, ``++debug=a``; a sweep ``debug=a,b`` gives both)."""
    names = []
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.lstrip("+") == "debug":
            names += [v.strip() for v in value.split(",") if v.strip()]
    return names


def foreign_preset(args: list[str], app: str) -> str | None:
    """The one-line reason when ``args`` pick a debug preset that belongs to another app than
    ``app`` (``"debug=smoke is rubricloop-train's preset, not rubricloop-refine's;
    rubricloop-refine's: debug=refine_smoke"``), else None."""
    for name in _debug_choices(args):
        owner = preset_app(name)
        if owner is None or owner == app:
            continue
        own = ", ".join(f"debug={n}" for n in presets_of(app))
        hint = f"{app}'s: {own}" if own else f"{app} has none"
        return f"debug={name} is {owner}'s preset, not {app}'s; {hint}"
    return None


def exit_on_foreign_preset(app: str, prefix: str = "error: ", args: list[str] | None = None) -> None:
    """A console script's first step: when its command line picks another app's debug preset,
    print ``<prefix><reason>`` (:func:`foreign_preset`) on stderr and exit 2.

    Args:
        app: the app's name as a user types it (``rubricloop-refine``).
        prefix: what the line starts with (the app's own error lines' start).
        args: the command-line overrides; default ``sys.argv[1:]``.

    Raises:
        SystemExit: 2, when the preset belongs to another app.
    """
    problem = foreign_preset(sys.argv[1:] if args is None else args, app)
    if problem:
        print(f"{prefix}{problem}", file=sys.stderr)
        raise SystemExit(2)
