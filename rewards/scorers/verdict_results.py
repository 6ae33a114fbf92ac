"""Per-item verdict files for rubrics without an official result format (GenOlympiad-style rows).

One ``<result_dir>/<item folder>.json`` per image (folder name: ``refine.item_results.item_dir_name``
rules, repeated here so that scoring needs no refine import)::

    {"id": "task-1", "verdicts": [{"check_id": "g1", "answer": "yes", "judge": "ocr", "reason": "..."}, ...]}
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Mapping

from rewards.common.run_folder import write_json
from rewards.rubric import Item, RubricError, Verdict


def result_name(item_id: str) -> str:
    """A file-system-safe file name for an item id (characters outside ``[A-Za-z0-9._-]`` -> ``_``,
    long names cut with a hash), plus ``.json``."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", item_id).lstrip(".") or "_"
    if len(name) > 100:
        name = f"{name[:91]}-{hashlib.sha1(item_id.encode()).hexdigest()[:8]}"
    return f"{name}.json"


def write_verdicts(result_dir: str | Path, item: Item, verdicts: Mapping[str, Verdict]) -> Path:
    """Write one item's verdicts (checks in rubric order; a missing verdict is left out), atomically."""
    path = Path(result_dir) / result_name(item.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [verdicts[c.id].to_dict() for c in item.rubric.checks if c.id in verdicts]
    write_json(path, {"id": item.id, "verdicts": rows})  # atomic: a killed run leaves no half file
    return path


def read_verdicts(result_dir: str | Path, item: Item) -> dict[str, Verdict] | None:
    """One item's verdicts by check id, or None when it has no file.

    Raises:
        RubricError: naming the file, when it is not JSON, belongs to another item, or a
            verdict is malformed.
    """
    path = Path(result_dir) / result_name(item.id)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("id") != item.id or not isinstance(data.get("verdicts"), list):
            raise ValueError(f"expected {{'id': {item.id!r}, 'verdicts': [...]}}")
        found = [Verdict.from_dict(v) for v in data["verdicts"]]
    except (OSError, UnicodeDecodeError, ValueError, TypeError) as e:
        raise RubricError(f"{path} (item {item.id}): {e}") from None
    return {v.check_id: v for v in found}
