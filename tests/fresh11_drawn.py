"""The eleventh tester's pages (``benchmarks/fresh11_pages.py``) drawn for a test, and the pixels an
edit changed outside a box: shared by the judge's and the editor's tests on those pages."""

from __future__ import annotations

import numpy as np
from PIL import Image

from benchmarks import fresh11_pages, tester_set


def draw(name: str, seed: int, path, texts: dict | None = None, browser=None):
    """Template ``name`` of the set drawn with the content of ``seed`` and ``texts`` (element id -> the
    string drawn instead; "" leaves it out) into ``path``: (image, element id -> box)."""
    _, recs = tester_set.render(fresh11_pages.SET, name, seed, texts or {}, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


def changed_outside(out: Image.Image, start: Image.Image, box, pad: int = 3) -> int:
    """Pixels ``out`` changed from ``start`` outside ``box`` grown by ``pad``."""
    diff = (np.asarray(out).astype(int) != np.asarray(start).astype(int)).any(axis=2)
    x0, y0, x1, y1 = box
    diff[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad] = False
    return int(diff.sum())
