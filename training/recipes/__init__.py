"""The image RL recipes, one module each, found by name: ``trainer.algorithm=<name>`` runs
``training.recipes.<name>``.

A recipe module holds, and is all a new algorithm needs besides its ``conf/trainer/<name>.yaml``:

* ``CONFIG``: its config dataclass, a subclass of ``training.config.TrainerConfig`` with the
  recipe's own fields (``algorithm`` defaulting to ``<name>``) and its own checks
  (``recipe_problems``, and ``backward_passes_per_minibatch`` where it differs);
* ``TITLE``: the name the closing line of ``rubricloop-train`` uses ("DiffusionNFT");
* ``train(cfg, pipe, reward_fns, weights, train_items, val_items, family_kwargs) -> history``.

The registry reads the folder (``pkgutil``): adding ``training/recipes/<name>.py`` adds the
recipe; no other module lists them. ``names`` imports nothing (the CLI checks a name before
Hydra composes, without loading torch); ``recipe`` imports the module.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


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
