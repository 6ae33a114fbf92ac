"""Writing a set to disk and naming its splits: seeds per split, rows as JSON lines."""

from __future__ import annotations

import json
from pathlib import Path


def seeds_of(split: str, n: int, splits: tuple[str, str]) -> list[int]:
    """Seeds of a split: the first of ``splits`` (the tuning split) = 0..n-1, the second (only
    measured) = 1000..1000+n-1. Raises ValueError naming the splits for another ``split``."""
    if split not in splits:
        raise ValueError(f"split must be one of {splits}, got {split!r}")
    return list(range(n)) if split == splits[0] else list(range(1000, 1000 + n))


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    """Write ``rows`` to ``path``, one JSON object a line (UTF-8, non-ASCII kept); returns ``path``."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path
