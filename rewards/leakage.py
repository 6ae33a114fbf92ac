"""Leakage guard: refuse training prompts that duplicate or nearly duplicate a held-out item.

Two prompts are normalised (Unicode NFKC, case-folded, every run of non-alphanumerics -> one
space) and compared two ways:

- **exact**: equal normalised text;
- **near**: rapidfuzz ``fuzz.token_set_ratio`` >= ``threshold`` (0-100), which scores word
  reorderings, small edits and a prompt copied inside a longer one near 100. Because
  token_set_ratio is 100 whenever one prompt's words are a subset of the other's, a pair only
  counts when the shorter prompt has at least ``min_length_ratio`` times the words of the
  longer one: a short generated prompt whose few words all occur in a 500-word benchmark
  prompt is not a copy of it.

Pairs are scored with ``rapidfuzz.process.cdist`` (``score_cutoff`` = threshold), one call per
training prompt length against the held-out prompts within the length ratio only; pairs
outside it cannot count, so skipping them changes no result.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from rapidfuzz import fuzz, process

from rewards.importers import load_items
from rewards.rubric import Item, RubricError

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_MAX_SHOWN = 20  # leaks named in the error message; LeakageError.leaks holds all


class LeakageError(ValueError):
    """Training prompts duplicate held-out items. ``leaks`` lists every offending pair."""

    def __init__(self, message: str, leaks: list["Leak"]):
        super().__init__(message)
        self.leaks = leaks


@dataclass(frozen=True)
class Leak:
    """One training prompt that duplicates a held-out item.

    Attributes:
        train_id: the training item's id.
        heldout_id: the held-out item's id.
        heldout_file: the held-out JSONL file it came from.
        score: token_set_ratio in [0, 100] (100.0 for an exact match).
        exact: True when the normalised prompts are equal.
    """

    train_id: str
    heldout_id: str
    heldout_file: str
    score: float
    exact: bool


def normalize_prompt(text: str) -> str:
    """NFKC, case-fold, every run of non-alphanumeric characters -> one space, stripped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NON_ALNUM.sub(" ", text).strip()


def load_heldout(paths: Sequence[str | Path]) -> list[tuple[str, Item]]:
    """Read held-out benchmark files (BizGenEval, GenExam, rubric JSONL) as (file, item) pairs.

    Raises:
        RubricError: a file cannot be read or has a bad row; an unreadable held-out row would
            make the guard blind to it, so it is an error, not a skip.
    """
    out = []
    for path in paths:
        items, errors = load_items(path)
        if errors:
            raise RubricError(f"held-out file {path}: {len(errors)} bad row(s); first: {errors[0]}")
        out.extend((str(path), item) for item in items)
    return out


def find_leaks(
    train_items: Sequence[Item],
    heldout: Sequence[tuple[str, Item]],
    threshold: float = 90.0,
    min_length_ratio: float = 0.5,
    workers: int = 1,
) -> list[Leak]:
    """All (training item, held-out item) pairs that are exact or near duplicates.

    Args:
        train_items: the training items (their ``prompt`` is compared).
        heldout: (file, item) pairs, as from :func:`load_heldout`.
        threshold: token_set_ratio cutoff in [0, 100].
        min_length_ratio: in [0, 1]; see the module docstring.
        workers: threads for ``rapidfuzz.process.cdist`` (-1 = all cores).

    Returns:
        Leaks ordered by training item, then held-out item; at most one per pair.
    """
    if not 0.0 <= threshold <= 100.0:
        raise ValueError(f"leakage threshold must be in [0, 100], got {threshold!r}")
    if not 0.0 <= min_length_ratio <= 1.0:
        raise ValueError(f"leakage min_length_ratio must be in [0, 1], got {min_length_ratio!r}")
    if not train_items or not heldout:
        return []
    train = [normalize_prompt(it.prompt) for it in train_items]
    held = [normalize_prompt(it.prompt) for _, it in heldout]
    held_words = np.array([len(h.split()) for h in held])
    by_length = np.argsort(held_words, kind="stable")
    sorted_words = held_words[by_length]
    exact_index: dict[str, list[int]] = {}
    for j, h in enumerate(held):
        exact_index.setdefault(h, []).append(j)
    near: dict[int, dict[int, float]] = {}
    # Only pairs within the word-count ratio can be near duplicates, so score each group of
    # equally long training prompts against the held-out prompts of compatible length only.
    train_words = np.array([len(t.split()) for t in train])
    for n in np.unique(train_words).tolist():
        rows = np.flatnonzero(train_words == n)
        lo = np.searchsorted(sorted_words, n * min_length_ratio, side="left")
        hi = (
            len(sorted_words)
            if min_length_ratio == 0
            else np.searchsorted(sorted_words, n / min_length_ratio, side="right")
        )
        cols = by_length[lo:hi]
        if len(cols) == 0:
            continue
        scores = process.cdist(
            [train[i] for i in rows],
            [held[j] for j in cols],
            scorer=fuzz.token_set_ratio,
            score_cutoff=threshold,
            dtype=np.float32,
            workers=workers,
        )  # (len(rows), len(cols))
        for r, c in zip(*np.nonzero(scores >= max(threshold, 1e-6))):
            near.setdefault(int(rows[r]), {})[int(cols[c])] = float(scores[r, c])
    leaks = []
    for i, t in enumerate(train):
        exact_js = set(exact_index.get(t, []))
        hits = near.get(i, {})
        for j in sorted(exact_js | set(hits)):
            file, item = heldout[j]
            exact = j in exact_js
            leaks.append(Leak(train_items[i].id, item.id, file, 100.0 if exact else hits[j], exact))
    return leaks


def check_leakage(
    train_items: Sequence[Item],
    heldout_paths: Sequence[str | Path],
    threshold: float = 90.0,
    min_length_ratio: float = 0.5,
    workers: int = 1,
) -> None:
    """Refuse training data that duplicates or nearly duplicates a held-out benchmark item.

    Args:
        train_items: the training items; their ``prompt`` is compared and their ``id`` named.
        heldout_paths: held-out JSONL files readable by ``rewards.importers.load_items``
            (BizGenEval, GenExam, rubric JSONL); every row of every file is compared.
        threshold: near-duplicate cutoff on rapidfuzz ``fuzz.token_set_ratio`` of the
            normalised prompts, in [0, 100] (90 = a light rewrite still counts).
        min_length_ratio: in [0, 1]; a near-duplicate pair also needs the shorter prompt to
            have at least this share of the longer one's words (see the module docstring).
            Exact copies are refused regardless.
        workers: threads for ``rapidfuzz.process.cdist`` (-1 = all cores).

    Raises:
        LeakageError: one line naming each offending training prompt id (the first 20 pairs),
            the held-out file and item it duplicates and the score; ``.leaks`` holds all pairs.
        RubricError: a held-out file is unreadable or has a bad row.
        ValueError: ``threshold`` or ``min_length_ratio`` out of range.
    """
    leaks = find_leaks(train_items, load_heldout(heldout_paths), threshold, min_length_ratio, workers)
    if leaks:
        shown = [
            f"{lk.train_id} {'equals' if lk.exact else 'nearly duplicates'} {lk.heldout_file} item {lk.heldout_id} "
            f"(token_set_ratio {lk.score:.1f})"
            for lk in leaks[:_MAX_SHOWN]
        ]
        more = f"; ... and {len(leaks) - _MAX_SHOWN} more" if len(leaks) > _MAX_SHOWN else ""
        raise LeakageError(
            f"{len({lk.train_id for lk in leaks})} training prompt(s) leak held-out items "
            f"(threshold {threshold}): " + "; ".join(shown) + more,
            leaks,
        )
