"""``shard=<i>/<n>``: which items one of n parallel jobs takes (rubricloop-eval, rubricloop-refine).

Item k (0-based, in data order) belongs to shard ``k % n``: every item is in exactly one shard,
and the shards are balanced to within one item whatever the order of the data.
"""

from __future__ import annotations

import re
from typing import Sequence, TypeVar

T = TypeVar("T")
_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(spec: str | None) -> tuple[int, int] | None:
    """``"2/8"`` -> (2, 8); None or "" -> None.

    Raises:
        ValueError: one line, when the spec is not ``i/n`` with 0 <= i < n.
    """
    if spec is None or str(spec).strip() == "":
        return None
    m = _SPEC.match(str(spec))
    if not m or not int(m.group(1)) < int(m.group(2)):
        raise ValueError(f"shard must be i/n with 0 <= i < n (e.g. shard=0/4), got {spec!r}")
    return int(m.group(1)), int(m.group(2))


def select_shard(items: Sequence[T], spec: str | None) -> list[tuple[int, T]]:
    """``(index in items, item)`` pairs of the shard (all items when ``spec`` is None).

    Raises:
        ValueError: see :func:`parse_shard`.
    """
    shard = parse_shard(spec)
    if shard is None:
        return list(enumerate(items))
    i, n = shard
    return [(k, it) for k, it in enumerate(items) if k % n == i]


def shard_dir_name(spec: str) -> str:
    """The folder of one shard's outputs: ``"2/8"`` -> ``"shard_2-of-8"``."""
    i, n = parse_shard(spec)
    return f"shard_{i}-of-{n}"
