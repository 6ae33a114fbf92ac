"""A tester's pages (``benchmarks/tester_set.TesterSet``) drawn for a test, and the pixels an edit
changed outside a box: shared by the judge's and the editor's tests on those pages
(``fresh10_drawn``, ``fresh11_drawn`` bind it to their set)."""

from __future__ import annotations

import numpy as np
from PIL import Image

from benchmarks import tester_set


def draw_from(ts, name: str, seed: int, path, texts: dict | None = None, browser=None):
    """Template ``name`` of set ``ts`` drawn with the content of ``seed`` and ``texts`` (element id
    -> the string drawn instead; "" leaves it out) into ``path``: (image, element id -> box)."""
    _, recs = tester_set.render(ts, name, seed, texts or {}, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


def changed_outside(out: Image.Image, start: Image.Image, box, pad: int = 3) -> int:
    """Pixels ``out`` changed from ``start`` outside ``box`` grown by ``pad``."""
    diff = (np.asarray(out).astype(int) != np.asarray(start).astype(int)).any(axis=2)
    x0, y0, x1, y1 = box
    diff[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad] = False
    return int(diff.sum())
