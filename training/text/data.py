"""Items and trl dataset rows for the text policies (``rubricloop-train task=...``).

Items come from ``data.file`` (a rubric JSONL of your own documents, ``rewards.importers``
formats, with optional start ``image`` paths) or, by default, the procedural documents of
``training.procedural.data.make_dataset`` (OCR-checked slides, charts, posters). Either way they are split
with a seed into a training part and a held-out part that is only evaluated.

A row is what trl's ``GRPOTrainer`` reads: ``prompt`` (chat messages), ``item_id`` (the
rubric stays outside the dataset: ``training.text.trl_reward.TrlReward`` looks it up) and, for the
instruction writer, ``image`` (trl puts it before the text of the user turn).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Sequence

from refine.writers.local_vlm import writer_prompt
from rewards.importers import load_items
from rewards.models.qwen_vl import fit_image
from rewards.rewriting import rewrite_messages
from rewards.rubric import Item, RubricError
from training.procedural.data import make_dataset
from training.text.rewards import StartState


def load_text_items(items_file: str | None, n: int, seed: int, val_fraction: float) -> tuple[list[Item], list[Item]]:
    """``(train, held_out)`` items.

    Args:
        items_file: a rubric JSONL (``rewards.importers.load_items``), or None: ``n`` procedural
            documents (``training.procedural.data.make_dataset(n, seed, val_fraction)``).
        n: procedural items (ignored with ``items_file``).
        seed: the split's seed.
        val_fraction: the held-out share, in (0, 1); at least one item each side.

    Raises:
        RubricError: the file cannot be read, has a bad row (one line: the file, the row count and
            the first error; training on a silently shortened file would hide the loss), or has
            fewer than 2 items.
        ValueError: no file and ``n`` < 2.
    """
    if items_file is None:
        if n < 2:
            raise ValueError(f"data.n={n}: training needs at least 2 items (one held out)")
        # at least one item each side, as for a file (round(n * val_fraction) may be 0 or n)
        n_val = min(n - 1, max(1, round(n * val_fraction)))
        return make_dataset(n, seed, val_fraction=n_val / n, task="documents")
    items, errors = load_items(Path(items_file))
    if errors:
        raise RubricError(f"data.file={items_file}: {len(errors)} bad row(s); first: {errors[0]}")
    if len(items) < 2:
        raise RubricError(f"data.file={items_file}: {len(items)} item(s); training needs at least 2 (one held out)")
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    n_val = min(len(items) - 1, max(1, round(len(items) * val_fraction)))
    held = sorted(order[:n_val])
    return [items[k] for k in sorted(order[n_val:])], [items[k] for k in held]


def rewriter_rows(items: Sequence[Item]) -> list[dict]:
    """One row per item: the rewrite request (``rewards.rewriting.rewrite_messages``) and its id."""
    return [{"prompt": rewrite_messages(it.prompt), "item_id": it.id} for it in items]


def writer_rows(items: Sequence[Item], starts: dict[str, StartState], image_max_side: int = 768) -> list[dict]:
    """One row per item that fails at least one check on its start image: the writer request
    (``refine.writers.local_vlm.writer_prompt``, the text refine's trained writer sends), the start
    image shrunk as that writer shrinks it (``fit_image`` to ``image_max_side`` pixels, its
    default), and the id. Items with nothing to fix (every check passes or is withheld) are left out."""
    return [
        {
            "prompt": [{"role": "user", "content": writer_prompt(it, starts[it.id].failures)}],
            "image": fit_image(starts[it.id].image, image_max_side),
            "item_id": it.id,
        }
        for it in items
        if starts[it.id].failures
    ]
