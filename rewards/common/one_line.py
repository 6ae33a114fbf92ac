"""Error messages that stay one readable line whatever the user's data puts in them."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0/C1 controls (CR, tab, ESC...), line/paragraph separators and bidi overrides."""


def one_line(text: str, limit: int = 600) -> str:
    """``text`` with every control character written as its escape (CR -> ``\\r``, ESC ->
    ``\\x1b``, U+2028 -> ``\\u2028``), so a terminal shows it on one line as it is, and with
    its middle cut when it is longer than ``limit`` characters (a 5,000-character path)."""
    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    if len(text) > limit:
        cut = len(text) - limit + 40
        text = f"{text[: limit - 200]} [... {cut} characters ...] {text[-160:]}"
    return text


def check_overrides(args: list[str], config_name: str) -> str | None:
    """Compose the Hydra config ``config_name`` (package ``conf``) once with the command-line
    overrides ``args``; the one-line reason when Hydra refuses them (unknown option or choice, bad
    syntax), else None, so a console script can exit 2 in one line before Hydra prints its
    multi-line report. Hydra's own flags (``-m``, ``--cfg``, ``--help``) are left to Hydra.

    A misspelt option names its nearest option (``iteratons=2`` -> "did you mean 'iterations'?")
    instead of Hydra's advice to add it with ``+``, and ``+iteratons=2`` (a top-level key the app
    does not have and no config group) is refused too: the app would silently ignore it."""
    if any(a.startswith("-") for a in args):
        return None
    from hydra import compose, initialize_config_module

    try:
        with initialize_config_module(config_module="conf", version_base="1.3"):
            compose(config_name=config_name, overrides=args)
    except Exception as e:  # any refusal to compose is an option error
        text = str(e).split("Config search path")[0]
        if e.__cause__ is not None:
            text += f" ({str(e.__cause__).splitlines()[0] if str(e.__cause__) else type(e.__cause__).__name__})"
        return one_line(_unknown_option(" ".join(text.split()), args, config_name)[:400] or type(e).__name__)
    return ignored_addition(args, config_name)


def ignored_addition(args: list[str], config_name: str) -> str | None:
    """The one-line reason when an override ``+x=...`` adds a top-level key ``x`` that
    ``config_name`` does not have and that is no config group (``+iteratons=2``, ``+reusme=true``):
    Hydra accepts it, and the app never reads it. None when there is none, when Hydra's own flags
    are given, or when the other overrides do not compose (the app reports that itself)."""
    if any(a.startswith("-") for a in args):
        return None
    added = [a for a in args if a.startswith("+") and not a.startswith("++")]
    added = [a for a in added if (top := a[1:].partition("=")[0].split(".")[0]) != "hydra" and not _is_group(top)]
    if not added:
        return None
    others = [a for a in args if a not in added]
    names = _option_names(others, config_name)
    if not names:
        return None
    for arg in added:
        top = arg[1:].partition("=")[0].split(".")[0]
        if top not in names:
            hint = _hint(top, names)
            return f"{arg}: conf/{config_name}.yaml has no option '{top}', so the app would ignore it{hint}"
    return None


_NOT_IN_STRUCT = re.compile(
    r"^Could not override '([^']+)'\. To append to your config use \+\S+ \(Key '[^']+' is not in struct\)"
)


def _unknown_option(text: str, args: list[str], config_name: str) -> str:
    """Hydra's "Could not override 'x'. To append to your config use +x=1" for a top-level key the
    app does not have, as "no such option" with the nearest option; any other text as it is."""
    match = _NOT_IN_STRUCT.match(text)
    if match is None or "." in match.group(1):
        return text
    key = match.group(1)
    others = [a for a in args if a.lstrip("+").partition("=")[0] != key]
    return f"Could not override '{key}': no such option{_hint(key, _option_names(others, config_name))}"


def _option_names(args: list[str], config_name: str) -> set[str]:
    """The top-level keys of ``config_name`` composed with ``args`` (none when it does not compose)."""
    from hydra import compose, initialize_config_module

    try:
        with initialize_config_module(config_module="conf", version_base="1.3"):
            return set(compose(config_name=config_name, overrides=args).keys())
    except Exception:
        return set()


def _hint(key: str, names: set[str]) -> str:
    """The hint " (did you mean 'x'?)" naming the option in ``names`` or the config group nearest to
    ``key``, or "" when none is near."""
    import difflib
    from importlib.resources import files

    groups = {p.name for p in files("conf").iterdir() if p.is_dir() and not p.name.startswith("_")}
    near = difflib.get_close_matches(key, sorted(names | groups), n=1, cutoff=0.6)
    return f" (did you mean '{near[0]}'?)" if near else ""


def _is_group(name: str) -> bool:
    """Whether ``conf/<name>/`` is a config group (``+experiment=...`` adds one)."""
    from importlib.resources import files

    return (files("conf") / name).is_dir()


def exit_on_bad_overrides(config_name: str) -> None:
    """The console scripts' first step: when Hydra refuses this process's command-line
    overrides (``check_overrides``), print ``error: <reason>`` in one line and exit 2.

    Raises:
        SystemExit: 2, on an option error.
    """
    import sys

    problem = check_overrides(sys.argv[1:], config_name)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(2)


def error_line(err: Exception) -> str:
    """An exception as one line, Hydra-aware: an unknown config-group option names the group and
    its choices (``unknown model preset 'x'; choose one of: a, b``); any other error keeps its
    message lines joined by spaces, plus the first line of a Hydra error's cause when the message
    does not already quote it. Unlike ``one_line`` it neither escapes controls nor cuts."""
    from hydra.errors import HydraException, MissingConfigException, OverrideParseException

    override = getattr(err, "override", None)
    if isinstance(err, OverrideParseException) and isinstance(override, str) and "=" in override:
        key, _, value = override.partition("=")
        return (
            f"{override!r} is not an option Hydra can read: an unquoted value may hold only ASCII letters, digits "
            f"and a few symbols; quote it: {key}='{value}'"
        )
    if isinstance(err, MissingConfigException) and err.missing_cfg_file and err.options:
        group, _, name = err.missing_cfg_file.rpartition("/")
        return f"unknown {group} preset {name!r}; choose one of: {', '.join(err.options)}"
    message = " ".join(line.strip() for line in str(err).splitlines() if line.strip())
    cause = (
        str(err.__cause__).strip().splitlines()[0].strip() if isinstance(err, HydraException) and err.__cause__ else ""
    )
    return f"{message} ({cause})" if cause and cause not in message else message
