"""Text editor (issue 32): a link Chromium's right-set menu closed up behind is inserted, the links
before it moved back (``insert_nav_item``), on the engines' landing page (dev seed 4)."""

import random
import shutil

import numpy as np
import pytest
from editor_helpers import failed

from refine.editors.text import TextEditor

pytestmark = [
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed"),
]


def test_a_link_whose_ocr_box_falls_short_of_its_ink_still_leaves_room_when_moved():
    """Landing seed 4 without "Customers" (link 2): "Features" moves 115 px left. OCR's box of
    "Features" ends a pixel short of its ink, and the busy mask grown 2 px around that ink was
    left one column into the slot: "skip: link 2 of the menu does not fit between its neighbours".
    Now the mask is recomputed around the moved ink: "Customers" is written and every link stands
    within 2 px of where Chromium sets it."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("landing", random.Random(4 + ENGINE_OFFSET["chromium"]))
    gone = next(s for s in specs if s.id == "nav-1")
    with Browser() as browser:
        clean, elements = draw_page("landing", specs, style, browser)
        start, _ = draw_page("landing", [s for s in specs if s.id != gone.id], style, browser)
    editor = TextEditor()
    q = f'Is the second link of the navigation menu from the left exactly "{gone.text}"?'
    out = np.asarray(editor.edit(start, "", failed(q), 0)).astype(int)
    assert editor.last_actions[0]["action"].startswith("place (link 2 of the menu"), editor.last_actions[0]
    dark = (out[:66] < 128).all(2)
    want = (np.asarray(clean).astype(int)[:66] < 128).all(2)
    for e in (e for e in elements if e.id.startswith("nav-")):
        x0, y0, x1, y1 = e.box
        cols, own = (
            np.flatnonzero(dark[y0:y1, x0 - 4 : x1 + 4].any(0)),
            np.flatnonzero(want[y0:y1, x0 - 4 : x1 + 4].any(0)),
        )
        assert abs(cols[0] - own[0]) <= 2 and abs(cols[-1] - own[-1]) <= 2, e.text
    assert (out[66:] == np.asarray(start).astype(int)[66:]).all()  # nothing under the header touched
