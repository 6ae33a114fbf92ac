"""Text editor (issue 32): a button's label rewritten where Chromium sets it, on pages drawn by
``documents.engines`` (dev seeds). A button sized to its label grows from its left edge in a
left-to-right row (the landing page's ghost button), so the lengthened label keeps its left
edge; a button centred on the page (the poster's ticket button) grows both ways, so its label
stays centred. Either way no pixel changes outside the label's boxes (engine's, on the page
drawn with the wrong label and with the right one)."""

import random
import shutil
from dataclasses import replace

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from refine.editors.text import TextEditor

pytestmark = [
    pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed"),
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed"),
]


def pages(kind: str, seed: int, button: str, shown: str):
    """Chromium's ``kind`` page of dev ``seed`` drawn with the label of ``button`` replaced by
    ``shown`` (int array (h, w, 3)), and that button's element on it and on the page drawn with
    its own label."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content(kind, random.Random(seed + ENGINE_OFFSET["chromium"]))
    wrong = [replace(s, text=shown) if s.id == button else s for s in specs]
    with Browser() as browser:
        start, defect = draw_page(kind, wrong, style, browser)
        _, clean = draw_page(kind, specs, style, browser)
    find = lambda els: next(e for e in els if e.id == button)  # noqa: E731
    return np.asarray(start).astype(int), find(defect), find(clean)


def one_letter_short(text: str) -> str:
    """``text`` with the second-last letter of its first word left out ("Learn" -> "Lean")."""
    first, _, rest = text.partition(" ")
    return (first[:-2] + first[-1] + " " + rest).strip()


@pytest.mark.parametrize(("kind", "seed", "button"), [("landing", 20, "button-1"), ("poster", 21, "button-0")])
def test_rewritten_button_label_stays_in_the_engines_box(kind, seed, button):
    """Before: the landing page's ghost button "Lean more" rewritten "Learn more" centred in the old
    button, 3 px left of Chromium's box (24 px changed outside it). Now every changed pixel lies in
    the label's boxes (1 px of antialiased edge around them), and the right label is written."""
    from documents.engines.pages import page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, _ = page_content(kind, random.Random(seed + ENGINE_OFFSET["chromium"]))
    right = next(s.text for s in specs if s.id == button)
    start, shown, clean = pages(kind, seed, button, one_letter_short(right))
    editor = TextEditor()
    out = np.asarray(editor.edit(Image.fromarray(start.astype(np.uint8)), "", failed(
        f'Is there a button labeled exactly "{right}"?'), 0))  # fmt: skip
    action = editor.last_actions[0]
    assert action["action"] == "replace", action
    changed = (out.astype(int) != start).any(2)
    x0, y0, x1, y1 = clean.box
    assert changed[y0:y1, x0:x1].sum() > 50  # written there
    for bx0, by0, bx1, by1 in (clean.box, shown.box):
        changed[by0 - 1 : by1 + 1, bx0 - 1 : bx1 + 1] = False
    assert changed.sum() == 0, (action, shown.box, clean.box, np.argwhere(changed)[:5].tolist())
