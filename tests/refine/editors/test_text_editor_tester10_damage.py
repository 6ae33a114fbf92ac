"""The tenth tester's pages (``benchmarks/fresh10_pages.py``; issue 32), the editor's damage and
errors it left, by class, each on the real page the set's templates draw (dev seeds)."""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from benchmarks import fresh10_pages, tester_set
from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
NARROW = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"


def draw(name: str, seed: int, path, texts: dict | None = None, browser=None):
    """Template ``name`` of the set drawn with the content of ``seed`` and ``texts`` (element id -> the
    string drawn instead; "" leaves it out) into ``path``: (image, element id -> box)."""
    _, recs = tester_set.render(fresh10_pages.SET, name, seed, texts or {}, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


def changed_outside(out: Image.Image, start: Image.Image, box, pad: int = 0) -> int:
    """Pixels ``out`` changed from ``start`` outside ``box`` grown by ``pad``."""
    diff = (np.asarray(out).astype(int) != np.asarray(start).astype(int)).any(axis=2)
    x0, y0, x1, y1 = box
    diff[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad] = False
    return int(diff.sum())


@needs_tesseract
@pytest.mark.skipif(not __import__("os").path.isfile(NARROW), reason="Liberation Sans Narrow not installed")
def test_a_narrow_value_label_is_rewritten_in_its_narrow_face_within_its_box(tmp_path):
    # the waterfall is set in Liberation Sans Narrow; matched among regular widths only, "213" for
    # "253" came out in Liberation Sans, 4 px wider than the engine's box (16 px outside it)
    start, boxes = draw("waterfall", 3, tmp_path / "start.png", {"val-0": "253"})
    clean, _ = draw("waterfall", 3, tmp_path / "clean.png")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the value label above the "Opening balance" bar "213"?'), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("replace (at its bar's end"), act["action"]
    assert act["type"]["family"] == "Liberation Sans Narrow", act["type"]
    assert changed_outside(out, start, boxes["val-0"], pad=1) == 0
    assert abs(np.subtract(*ink_span(out, boxes["val-0"])) - np.subtract(*ink_span(clean, boxes["val-0"]))) <= 1


def ink_span(img: Image.Image, box) -> tuple[int, int]:
    """(last, first) column of ``img`` holding dark ink (< 128) inside ``box`` grown by 3 px."""
    x0, y0, x1, y1 = box
    cols = np.flatnonzero((np.asarray(img.convert("L"))[y0 - 3 : y1 + 3, x0 - 3 : x1 + 3] < 128).any(0))
    return int(cols[-1]), int(cols[0])
