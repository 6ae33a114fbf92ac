"""A tenth tester's pages (``benchmarks/fresh10_pages.py``; issue 32): edits a person would reject
or errors left on the page, each on the real page drawn by the set's templates, as strict xfails
naming the cause (these pages are held out: the library was not changed to fit them)."""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from benchmarks import fresh10_pages, tester_set
from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def draw(name: str, seed: int, path, texts: dict | None = None, browser=None):
    """Template ``name`` of the set drawn with the content of ``seed`` and ``texts`` (element id -> the
    string drawn instead; "" leaves it out) into ``path``: (image, element id -> box)."""
    _, recs = tester_set.render(fresh10_pages.SET, name, seed, texts or {}, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


def changed_outside(out: Image.Image, start: Image.Image, box, pad: int = 3) -> int:
    """Pixels ``out`` changed from ``start`` outside ``box`` grown by ``pad``."""
    diff = (np.asarray(out).astype(int) != np.asarray(start).astype(int)).any(axis=2)
    x0, y0, x1, y1 = box
    diff[max(0, y0 - pad) : y1 + pad, max(0, x0 - pad) : x1 + pad] = False
    return int(diff.sum())


@needs_tesseract
@pytest.mark.xfail(
    strict=True,
    reason="a number one digit off that is no price ('53' for '57' in a heatmap cell; fresh10-heatmap-1, -10, -1009,"
    " and '+62' for '+22' over a waterfall bar, -12: 4 of dev's 7 digit defects and 3 on report unfixed) is "
    "no version of the string (near_match.digit_off takes a one-digit-off read only for a price), so the "
    "value is 'missing', and the grid offers no slot: the cells carry no table rules and the column labels "
    "are the x ticks under the grid ('no string of its list, row or table on the page'). The cell at the "
    "asked row label's height and column tick's x holding a number of the same width is the element to "
    "rewrite",
)
def test_a_heatmap_cell_one_digit_off_is_rewritten_in_its_cell(tmp_path):
    start, boxes = draw("heatmap", 1, tmp_path / "start.png", {"cell-4-0": "53"})
    editor = TextEditor()
    out = editor.edit(start, "", failed("In the 'Friday' row, does the '8 am' cell read exactly \"57\"?"), 0)
    assert changed_outside(out, start, boxes["cell-4-0"], pad=12) == 0  # nothing else touched
    (act,) = [a for a in editor.last_actions if a["text"] == "57"]
    assert act["action"].startswith("replace"), act["action"]


@needs_tesseract
def test_a_waterfall_value_one_digit_off_is_rewritten_over_its_floating_bar(tmp_path):
    # a waterfall's bar floats above the axis (nothing but the spine and tick mark under it); its
    # "+62" for "+22" is the wrong value at that bar's end, rewritten there in the labels' type
    start, boxes = draw("waterfall", 12, tmp_path / "start.png", {"val-3": "+62"})
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the value label above the "New contracts" bar "+22"?'), 0)
    (act,) = editor.last_actions
    assert act["action"].startswith("replace (at its bar's end"), act["action"]
    assert act["was"] == "+62"
    assert changed_outside(out, start, boxes["val-3"], pad=3) == 0


@needs_tesseract
def test_a_missing_waterfall_value_is_written_above_its_floating_bar(tmp_path):
    _, clean = draw("waterfall", 12, tmp_path / "clean.png")
    start, _ = draw("waterfall", 12, tmp_path / "start.png", {"val-2": ""})
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the value label above the "Price increase" bar "+35"?'), 0)
    (act,) = editor.last_actions
    assert act["action"] == "place (at its bar's end)", act["action"]
    x0, y0, x1, y1 = act["box"]
    t = clean["val-2"]  # where the engine drew it
    assert abs((x0 + x1) / 2 - (t[0] + t[2]) / 2) <= 3 and t[1] - 2 <= y0 and y1 <= t[3] + 2
    assert changed_outside(out, start, t, pad=3) == 0
