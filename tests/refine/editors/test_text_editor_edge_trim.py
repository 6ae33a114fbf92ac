"""Text editor (issue 32): a rewritten row's end columns are inked only where the old text's
overhang was (``edge_trim``). Chromium sets DejaVu Serif's "V" with its top serif a faint column
left of the element's box, in one row; PIL sets the serif a row lower, and the rewrite, registered
on the old ink, inked that column in a row the engine left blank (1 px outside the box on dev
Chromium menus, seeds 29 and 35; "Avocado"'s "A" on report)."""

import random
import shutil
from dataclasses import replace

import numpy as np
import pytest
from editor_helpers import failed

from benchmarks.engine_refine import mask_of, own_ink
from refine.editors.text import TextEditor
from refine.editors.text.edge_trim import trim_edges

BG, INK = (247, 247, 247), (35, 35, 35)


def test_trim_edges_keeps_new_ink_in_an_overhang_column_only_where_the_old_ink_was():
    arr = np.full((20, 40, 3), BG, np.uint8)
    arr[5:15, 11:30] = INK  # the old text: solid columns 11..29
    arr[5, 10] = (224, 224, 224)  # a serif's faint overhang, one row, column 10
    alpha = np.zeros((12, 22), np.float32)
    alpha[1:11, 1:21] = 1.0  # the new row: columns 10..29 from origin x 9, rows 5..14 from y 4
    alpha[2, 0] = 0.0
    out = trim_edges(alpha, (9, 4), arr, (11, 5, 30, 15), INK, BG)
    assert out[1, 1] == 1.0  # row 5, column 10: the old serif's pixel, kept
    assert out[2:11, 1].sum() == 0.0  # rows 6..14 of column 10: blank on the old page, trimmed
    assert (out[:, 2:] == alpha[:, 2:]).all()  # the solid columns are left as they are
    longer = np.zeros((12, 30), np.float32)
    longer[1:11, 1:29] = 1.0  # a lengthened row, columns 10..37: its right end is new text
    assert (trim_edges(longer, (9, 4), arr, (11, 5, 30, 15), INK, BG)[:, 2:] == longer[:, 2:]).all()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
@pytest.mark.parametrize(
    ("seed", "item", "shown"), [(29, "item-3-0", "Vanilla Lce Cream"), (35, "item-3-1", "Vanill Ice Cream")]
)
def test_rewritten_menu_item_leaves_no_pixel_outside_its_boxes(seed, item, shown):
    """Before: 1 px changed left of Chromium's box (the new "V"'s serif a row below the old
    one's). Now no pixel changes outside the item's two engine boxes but the old glyphs' own ink
    around them, and the right string is written there."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("menu", random.Random(seed + ENGINE_OFFSET["chromium"]))
    right = next(s for s in specs if s.id == item)
    with Browser() as browser:
        start, defect = draw_page(
            "menu", [replace(s, text=shown) if s.id == item else s for s in specs], style, browser
        )
        clean, els = draw_page("menu", specs, style, browser)
    boxes = [next(e for e in els if e.id == item).box, next(e for e in defect if e.id == item).box]
    nth = ("first", "second")[int(item[-1])]
    question = f'Is the {nth} item under the "{right.context["heading"]}" heading "{right.text}"?'
    editor = TextEditor()
    out = np.asarray(editor.edit(start, "", failed(question), 0))
    assert editor.last_actions[0]["action"] == "replace", editor.last_actions
    a = np.asarray(start.convert("RGB"))
    changed = (out != a).any(2)
    x0, y0, x1, y1 = boxes[0]
    assert changed[y0:y1, x0:x1].sum() > 100  # written there
    outside = changed & ~mask_of(changed.shape, boxes) & ~own_ink([np.asarray(clean), a], boxes)
    assert outside.sum() == 0, np.argwhere(outside).tolist()
