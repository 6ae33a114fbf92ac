"""Text editor (issue 32, "missing"): a browser sets a list's items at a fractional pen x, and a new
item is written at that fraction (``refine.editors.text.pen_phase``), on a Chromium dashboard drawn by
the engine (dev seed 67, whose items' whole-pixel type match put every pen one pixel right of the
engine's box)."""

import random
import shutil

import numpy as np
import pytest
from editor_helpers import failed

from benchmarks.engine_edit_probe import damage
from benchmarks.engine_refine import owned_box
from refine.editors.text import TextEditor
from refine.editors.text.editor import page_lines, without_bullets
from refine.editors.text.place_in_element import _style_of
from refine.editors.text.state import EditState

pytestmark = [
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed"),
]


@pytest.fixture(scope="module")
def dashboard():
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("dashboard", random.Random(67 + ENGINE_OFFSET["chromium"]))
    gone = next(s for s in specs if s.id == "item-0-1")
    with Browser() as browser:
        clean, elements = draw_page("dashboard", specs, style, browser)
        start, moved = draw_page("dashboard", [s for s in specs if s.id != gone.id], style, browser)
    return specs, gone, clean, start, elements, moved


def test_each_item_s_pen_lies_inside_the_engine_s_box_start(dashboard):
    """Chromium gives the items' box from a fractional left (an integer box floors it). The pen of
    every item of the dashboard's list is measured in [box left, box left + 1), where the
    whole-pixel match gave box left + 1 for all three."""
    _, _, clean, _, elements, _ = dashboard
    editor = TextEditor()
    arr = np.asarray(clean.convert("RGB"))
    lines = without_bullets(arr, page_lines(clean, editor.lang, editor.psm, editor.scale, editor.second_psm, False))
    state = EditState.read(arr.copy(), lines, {}, {})
    pens = {}
    for e in (e for e in elements if e.role == "list_item"):
        ln = next(ln for ln in lines if ln.words and abs(ln.box[1] - e.box[1]) < 8 and abs(ln.box[0] - e.box[0]) < 8)
        pens[e.id] = _style_of(state, tuple(int(v) for v in ln.box), editor._rules()).left - e.box[0]
    assert len(pens) == 3, pens
    assert all(0 <= d < 1 for d in pens.values()), pens


def test_a_missing_item_is_written_at_the_list_s_fractional_pen(dashboard):
    """The second item under the heading left out, the third moved up by Chromium: the editor
    inserts it and moves the third down; no pixel changes outside the items' boxes with their bullets,
    and the new item's ink starts in the first column of Chromium's box for it (a column right of
    it at the whole-pixel pen)."""
    specs, gone, clean, start, elements, moved = dashboard
    q = f'Is the second item under the "{gone.context["heading"]}" heading exactly "{gone.text}"?'
    editor = TextEditor()
    out = np.asarray(editor.edit(start, "", failed(q), 0)).astype(int)
    [act] = editor.last_actions
    assert act["action"].startswith("place (item 2 of the list under"), act["action"]
    owned = [owned_box(e) for e in (*elements, *moved) if e.id.startswith("item-0-")]  # both pages' boxes
    c, s = np.asarray(clean).astype(int), np.asarray(start).astype(int)
    assert not damage(s, out, c, owned).any()
    x0, _, x1, _ = next(e.box for e in elements if e.id == gone.id)
    assert x0 <= act["box"][0] < x0 + 1 and act["box"][2] <= x1, (act["box"], x0, x1)
