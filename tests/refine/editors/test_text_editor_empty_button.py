"""Text editor (issue 32): a button Chromium drew with no label (an empty bar its padding high) gets
its label in its like buttons' type, grown to their height (``place_in_empty_button``)."""

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


def pricing(tmp_path, texts: dict[str, str]):
    """The eighth tester's pricing page of dev seed 5 (three cards, a dark or red button under each)
    drawn with ``texts`` (element id -> string; "" left out): (int array (h, w, 3), its elements)."""
    from benchmarks.fresh8_pages import _render
    from documents.engines.browser import Browser

    with Browser() as browser:
        _, recs = _render("pricing3", 5, texts, tmp_path / "page.png", browser)
    return np.asarray(Image.open(tmp_path / "page.png").convert("RGB")).astype(int), recs


def test_an_empty_button_gets_its_label_at_its_like_buttons_height(tmp_path):
    """Before: "skip: missing, and the page offers no slot for it" (the 20 px bar is too flat and
    too wide for an empty badge's label). Now the bar grows to the 40 px of the card beside it and
    the label is centred in it as Chromium sets it; nothing else on the page changes."""
    clean, recs = pricing(tmp_path, {})
    label = next(r for r in recs if r["eid"] == "btn-1")
    start, _ = pricing(tmp_path, {"btn-1": ""})
    editor = TextEditor()
    q = f'Is there a button labeled exactly "{label["text"]}"?'
    out = np.asarray(editor.edit(Image.fromarray(start.astype(np.uint8)), "", failed(q), 0)).astype(int)
    [act] = editor.last_actions
    assert act["action"].startswith("place (label of the empty button"), act["action"]
    x0, y0, x1, y1 = act["type"]["grown"]
    assert (x0, y0, x1, y1 - y0) == (331, 341, 569, 40)  # the clean page's button: 238 x 40 from the bar's top
    assert np.abs(out[y0:y1, x0:x1] - clean[y0:y1, x0:x1]).max(2).mean() < 0.05 * 255  # its fill and label
    ink, own = (np.argwhere((a[y0:y1, x0:x1] > 200).all(2)) for a in (out, clean))  # the white label's ink
    assert np.abs(ink.min(0) - own.min(0)).max() <= 2 and np.abs(ink.max(0) - own.max(0)).max() <= 2
    changed = (out != start).any(2)
    changed[y0:y1, x0:x1] = False
    assert changed.sum() == 0
