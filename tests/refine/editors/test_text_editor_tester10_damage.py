"""The tenth tester's pages (``benchmarks/fresh10_pages.py``; issue 32), the editor's damage and
errors it left, by class, each on the real page the set's templates draw (dev seeds)."""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from fresh10_drawn import changed_outside, draw
from PIL import Image

from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
NARROW = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"


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
