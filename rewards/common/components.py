"""Build a run's components (judge, writer, editor, generator) from their Hydra config groups."""

from __future__ import annotations

from typing import Any

import hydra
from hydra.errors import InstantiationException
from omegaconf import DictConfig

from rewards.common.one_line import one_line


def build(cfg: DictConfig, key: str) -> Any:
    """Instantiate the component of config group ``key``; None when the group is empty (``none``).

    Raises:
        hydra.errors.InstantiationException: the target cannot be found or its call failed
            (the real error is its ``__cause__``); see :func:`build_component` for one line.
    """
    node = cfg.get(key)
    if node is None or "_target_" not in node:
        return None
    return hydra.utils.instantiate(node)


def build_component(cfg: DictConfig, key: str) -> Any:
    """:func:`build`, with any failure to build (a bad setting, a missing model or package)
    turned into one line naming the component.

    Raises:
        ValueError: ``"<key>: <reason>"``; a ValueError of our own code (which names its
            option, e.g. ``judge.cache=...``) is passed on as it is, without Hydra's wrapper.
    """
    try:
        return build(cfg, key)
    except Exception as e:
        cause = e
        while isinstance(cause, InstantiationException) and cause.__cause__ is not None:
            cause = cause.__cause__  # Hydra's "Error in call to target ..." wraps the real error
        text = one_line(" ".join(str(cause).split()), limit=400)
        if isinstance(cause, ValueError) and text:
            raise ValueError(text) from None
        raise ValueError(
            f"{key}: {type(cause).__name__}: {text}" if text else f"{key}: {type(cause).__name__}"
        ) from None
