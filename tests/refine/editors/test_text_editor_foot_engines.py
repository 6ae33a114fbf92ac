"""Text editor (issue 32): a missing footer written where Chromium sets it, on pages drawn by
``documents.engines`` (dev seeds): a landing page whose footer sits in the bar it ends in, and a
poster whose wide centred title starts about as far left as its left-aligned list."""

import random
import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from refine.editors.text import TextEditor

pytestmark = [
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed"),
]


def pages(kind: str, seed: int):
    """Chromium's ``kind`` page of dev ``seed``, drawn without its footer (int array (h, w, 3)) and
    the footer's element as the engine sets it on the page drawn with it."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content(kind, random.Random(seed + ENGINE_OFFSET["chromium"]))
    with Browser() as browser:
        start, _ = draw_page(kind, [s for s in specs if s.id != "footer"], style, browser)
        _, elements = draw_page(kind, specs, style, browser)
    return np.asarray(start).astype(int), next(e for e in elements if e.id == "footer")


@pytest.mark.parametrize(("kind", "seed"), [("landing", 2), ("poster", 9)])
def test_missing_footer_goes_where_chromium_sets_it(kind, seed):
    """Before: the landing page's footer was skipped ("no free foot line": the bar's OCR junk and
    its colour took the slot), the poster's went on the left at x 103 (828 px outside the engine's
    box). Now each is written in the engine's footer box: no pixel changed outside it."""
    start, footer = pages(kind, seed)
    editor = TextEditor()
    q = f'Does the footer read exactly "{footer.text}"?'
    out = np.asarray(editor.edit(Image.fromarray(start.astype(np.uint8)), "", failed(q), 0))
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)", action
    x0, y0, x1, y1 = footer.box
    changed = (out.astype(int) != start).any(2)
    assert changed[y0:y1, x0:x1].sum() > 100  # written there
    changed[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1] = False
    assert changed.sum() == 0, (action["box"], footer.box)
