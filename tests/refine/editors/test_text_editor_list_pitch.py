"""Text editor (issue 32, "missing"): the next item of a list goes one pitch under its last item,
the pitch measured between the items' bullets (``place_list_item._pitch``), on a Chromium
dashboard drawn by the engine (dev seed 43)."""

import random
import shutil

import numpy as np
import pytest
from editor_helpers import failed

from documents.engines.damage import changed_outside
from refine.editors.text import TextEditor

pytestmark = [
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed"),
]


def test_the_last_item_of_a_list_goes_one_bullet_pitch_under_the_one_before():
    """Dashboard seed 43 without the third item under "Highlights". OCR's line tops of the first
    two items ("Supplier ...", "Train ...") stand 25 px apart, their bullets 24 px as Chromium
    sets them: the item written a pitch of line tops down set its descenders a row under
    Chromium's box (10 px changed outside it). Written a bullet pitch down, its ink rows are the
    clean page's and no pixel changes outside its box and its bullet's."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("dashboard", random.Random(43 + ENGINE_OFFSET["chromium"]))
    gone = next(s for s in specs if s.id == "item-0-2")
    with Browser() as browser:
        clean, elements = draw_page("dashboard", specs, style, browser)
        start, _ = draw_page("dashboard", [s for s in specs if s.id != gone.id], style, browser)
    q = f'Is the third item under the "{gone.context["heading"]}" heading exactly "{gone.text}"?'
    editor = TextEditor()
    out = np.asarray(editor.edit(start, "", failed(q), 0)).astype(int)
    [act] = editor.last_actions
    assert act["action"].startswith("place (item 3 of the list under"), act["action"]
    x0, y0, x1, y1 = next(e.box for e in elements if e.id == gone.id)
    c, s = np.asarray(clean).astype(int), np.asarray(start).astype(int)
    owned = (x0 - round(1.5 * (y1 - y0)), y0, x1, y1)  # the item with its bullet (engine_refine.MARKER)
    assert not changed_outside(out, s, c, owned).any()

    def rows(a):
        return np.flatnonzero((np.abs(a[y0 - 4 : y1 + 4, x0:x1] - s[y0 - 4 : y1 + 4, x0:x1]).max(2) > 40).any(1))

    assert rows(out)[0] == rows(c)[0] and rows(out)[-1] == rows(c)[-1]
