"""Text editor (issue 32): a list item read only under another heading than the one its check names
is missing from its list (``other_list.off_list``), on the engines' two-list slide (dev seed 18)."""

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


def test_an_item_read_only_in_the_other_list_is_inserted_in_its_own():
    """Slide seed 18 without the second item under "Budget", whose string the left list holds
    too. Before: no action at all (the string counted as on the page, and looking harder found it
    there: "skip: already on the page"). Now it is inserted under "Budget" and the item after it
    moves down to where Chromium sets it; the left list is untouched."""
    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("slide", random.Random(18 + ENGINE_OFFSET["chromium"]))
    gone = next(s for s in specs if s.id == "item-1-1")
    with Browser() as browser:
        clean, elements = draw_page("slide", specs, style, browser)
        start, _ = draw_page("slide", [s for s in specs if s.id != gone.id], style, browser)
    assert any(s.text == gone.text and s.id != gone.id for s in specs)  # the other list holds it
    editor = TextEditor()
    q = f'Is the second item under the "{gone.context["heading"]}" heading exactly "{gone.text}"?'
    out = np.asarray(editor.edit(start, "", failed(q), 0)).astype(int)
    [act] = editor.last_actions
    assert act["action"].startswith("place (item 2 of the list under"), act["action"]
    c, s = np.asarray(clean).astype(int), np.asarray(start).astype(int)
    x0 = min(e.box[0] for e in elements if e.id.startswith("item-1-")) - 30  # the right list's bullets
    assert (out[:, :x0] == s[:, :x0]).all()  # the left list and heading untouched
    for e in (e for e in elements if e.id.startswith("item-1-")):  # each item where Chromium sets it
        bx0, by0, bx1, by1 = e.box
        rows = lambda a: np.flatnonzero((a[by0 - 6 : by1 + 6, bx0:bx1] < 100).all(2).any(1))  # noqa: E731
        assert abs(rows(out)[0] - rows(c)[0]) <= 1 and abs(rows(out)[-1] - rows(c)[-1]) <= 1, e.text


def test_only_a_line_clear_of_the_heading_s_column_is_another_list_s():
    """The left list's line beside "Budget" (slide 18's boxes), and a list above it, are another
    list's; a line indented under it, or read a few px left of its edge, may be its own."""
    from refine.editors.text.other_list import under_another

    budget = (513, 172, 609, 196)
    assert under_another(budget, (67, 253, 385, 272))  # the left column
    assert under_another(budget, (513, 100, 800, 120))  # a list over the heading
    assert not under_another(budget, (531, 253, 824, 272))  # its own item, past its bullet
    assert not under_another(budget, (600, 253, 900, 272))  # indented deep under it
    assert not under_another(budget, (495, 253, 700, 272))  # read a little left of its edge
