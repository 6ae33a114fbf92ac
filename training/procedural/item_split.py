"""Procedural items with distinct prompts, split into train and validation by a seeded shuffle:
the part ``training.procedural.data`` (documents) and ``training.procedural.layout_data`` (layouts) share."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from rewards.rubric import Item


def generate_split(
    n: int,
    seed: int,
    kinds: Sequence[str],
    makers: dict[str, Callable[[random.Random, str], Item]],
    val_fraction: float,
    *,
    tries: int,
    caller: str,
) -> tuple[list[Item], list[Item]]:
    """``n`` items with distinct prompts from ``makers``, split by a seeded shuffle: the generation
    and split shared by ``make_dataset`` and ``training.procedural.layout_data.make_layout_dataset`` (the
    arguments are checked by them).

    Item i has kind ``kinds[i % len(kinds)]`` and id ``"<kind>-<i:05d>"``; a maker draws again
    (up to ``tries`` times) while its prompt repeats one already made. ``round(n * val_fraction)``
    items go to validation; ``meta`` gets ``seed`` and ``split``. One ``random.Random(seed)``
    drives makers and shuffle, so the same arguments give identical data.

    Raises:
        ValueError: ``<caller>: could not generate <n> distinct <kind> prompts (stopped at item <i>)``.
    """
    rng = random.Random(seed)
    items: list[Item] = []
    seen: set[str] = set()
    for i in range(n):
        kind = kinds[i % len(kinds)]
        for _ in range(tries):
            item = makers[kind](rng, f"{kind}-{i:05d}")
            if item.prompt not in seen:
                break
        else:
            raise ValueError(f"{caller}: could not generate {n} distinct {kind} prompts (stopped at item {i})")
        seen.add(item.prompt)
        item.meta["seed"] = seed
        items.append(item)
    order = list(range(n))
    rng.shuffle(order)
    val_idx = set(order[: round(n * val_fraction)])
    for i, item in enumerate(items):
        item.meta["split"] = "val" if i in val_idx else "train"
    train = [it for i, it in enumerate(items) if i not in val_idx]
    val = [it for i, it in enumerate(items) if i in val_idx]
    return train, val
