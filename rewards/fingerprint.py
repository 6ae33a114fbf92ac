"""What a finished item's result was computed from, as one short hash: its prompt, its rubric
(every check's id, question, difficulty, weight, gate, tag, text expectations and compiled spec),
the bytes of its starting image, and the run's settings that change a verdict (the judge).

A run writes the fingerprint beside each finished item; a rerun redoes an item whose
fingerprint differs (the data file was edited, the image replaced), instead of reporting the
old answer as done::

    fp = item_fingerprint(item, settings={"judge": judge_cfg})
    if recorded.get(item.id) == fp: skip the item
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import stat
from pathlib import Path
from typing import Any

from rewards.rubric import Item


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses as dicts, tuples as lists, paths as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def file_digest(path: Path | None) -> str | None:
    """sha256 of a regular file's bytes; None for no path, a missing file or anything that is
    not a regular file (a FIFO is never opened)."""
    if path is None:
        return None
    try:
        if not stat.S_ISREG(Path(path).stat().st_mode):
            return None
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    except OSError:
        return None


def item_fingerprint(item: Item, settings: dict[str, Any] | None = None, image: bool = True) -> str:
    """A 16-hex-digit hash of what ``item``'s verdicts depend on.

    Args:
        item: the item (its id, prompt, rubric and ``meta`` count; ``source`` too).
        settings: the run's verdict-changing settings (the judge's config), or None.
        image: include the sha256 of ``item.image``'s bytes (False for a run that makes the
            image itself, such as eval's generate step).

    Returns:
        16 lowercase hex digits (the first 64 bits of a sha256).
    """
    doc = {
        "id": item.id,
        "prompt": item.prompt,
        "source": item.source,
        "rubric": _plain(item.rubric),
        "meta": _plain(item.meta),
        "image": file_digest(item.image) if image else None,
        "settings": _plain(settings or {}),
    }
    blob = json.dumps(doc, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
