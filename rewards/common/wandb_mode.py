"""The W&B mode a run uses, resolved once for every console script (refine, judge, eval, train)."""

from __future__ import annotations

import os

MODES = ("auto", "online", "offline", "disabled")


def mode_problem(cfg) -> str | None:
    """The one-line option error for a config whose ``wandb.mode`` is none of ``MODES`` (a typo,
    ``wandb.mode=ofline``, which wandb refused with a traceback once the run had begun), else None."""
    wandb = cfg.get("wandb") if hasattr(cfg, "get") else None
    mode = wandb.get("mode", "auto") if wandb is not None and hasattr(wandb, "get") else "auto"
    if mode in MODES:
        return None
    return f"wandb.mode must be one of {', '.join(repr(m) for m in MODES)}, got {mode!r}"


def resolve_wandb_mode(mode: str) -> str | None:
    """The mode to pass to ``wandb.init``, or None when the run logs nothing to W&B.

    Args:
        mode: the config's ``wandb.mode``: ``auto`` | ``online`` | ``offline`` | ``disabled``.

    Returns:
        None when ``mode`` is ``disabled`` or the environment says ``WANDB_MODE=disabled``;
        for ``auto``: the environment's ``WANDB_MODE`` when set, else ``online`` when
        ``WANDB_API_KEY`` is set, else ``offline`` (into the run folder); otherwise ``mode``.
    """
    env = os.environ.get("WANDB_MODE")
    if mode == "disabled" or env == "disabled":
        return None
    if mode == "auto":
        return env or ("online" if os.environ.get("WANDB_API_KEY") else "offline")
    return mode
