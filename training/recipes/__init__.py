"""The image RL recipes, one module each, found by name: ``trainer.algorithm=<name>`` runs
``training.recipes.<name>``.

A recipe module holds, and is all a new algorithm needs besides its ``conf/trainer/<name>.yaml``:

* ``CONFIG``: its config dataclass, a subclass of ``training.diffusion.config.TrainerConfig`` with the
  recipe's own fields (``algorithm`` defaulting to ``<name>``) and its own checks
  (``recipe_problems``, and ``backward_passes_per_minibatch`` where it differs);
* ``TITLE``: the name the closing line of ``rubricloop-train`` uses ("DiffusionNFT");
* ``train(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs) -> history``.

The registry reads the folder (``pkgutil``): adding ``training/recipes/<name>.py`` adds the
recipe; no other module lists them. ``names`` imports nothing (the CLI checks a name before
Hydra composes, without loading torch); ``recipe`` imports the module; ``config_from_fields``
builds the recipe's config from a composed ``trainer`` node.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any


def names() -> list[str]:
    """The recipe names, sorted: every module of this package whose name does not start with "_"."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def recipe(name: str) -> ModuleType:
    """The recipe module ``training.recipes.<name>``.

    Raises:
        ValueError: ``name`` is no recipe (one line listing the recipes), or its module lacks
            ``CONFIG``, ``TITLE`` or ``train``.
    """
    if name not in names():
        raise ValueError(f"algorithm must be one of {names()}, got {name!r}")
    module = importlib.import_module(f"{__name__}.{name}")
    missing = [a for a in ("CONFIG", "TITLE", "train") if not hasattr(module, a)]
    if missing:
        raise ValueError(f"training/recipes/{name}.py: the recipe has no {', '.join(missing)}")
    return module


def config_from_fields(fields: dict) -> Any:
    """The recipe's config (``CONFIG`` of ``training.recipes.<fields["algorithm"]>``, "grpo" when
    absent) of the composed ``trainer`` node (a plain dict, interpolations resolved).

    Raises:
        ValueError: an unknown recipe, an unknown field, or a field of the wrong type
            (``check_field_types``), or a config whose ``algorithm`` names another recipe; one line.
    """
    from training.diffusion.config import check_field_types

    algorithm = fields.get("algorithm", "grpo")
    if not isinstance(algorithm, str):
        raise ValueError(f"trainer.algorithm must be str, got {algorithm!r}")
    config = recipe(algorithm).CONFIG
    unknown = sorted(set(fields) - set(config.__dataclass_fields__))
    if unknown:  # this line is the CLI's (tests/cli/test_train_cli.py)
        raise ValueError(
            f"trainer: unknown field(s) {unknown}; {config.__module__}.{config.__name__} has no such field"
        )
    check_field_types(fields, config())
    built = config(**fields)
    if built.algorithm != algorithm:  # a CONFIG whose default algorithm is another recipe's
        raise ValueError(f"training/recipes/{algorithm}.py: its CONFIG says algorithm={built.algorithm!r}")
    return built
