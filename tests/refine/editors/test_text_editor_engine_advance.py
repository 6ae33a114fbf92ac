"""Text editor (issue 32, width16): a pen write sets its glyphs where the engine sets them
(``refine.editors.text.engine_advance``), on a Chromium dashboard drawn by the engine (dev seed 67)
and on strings set by PIL against Chromium's own widths."""

import random
import shutil

import numpy as np
import pytest
from editor_helpers import failed

from benchmarks.engine_edit_probe import damage, likeness
from benchmarks.engine_refine import owned_box
from documents.fonts import Face
from refine.editors.text import TextEditor
from refine.editors.text.engine_advance import advance, linear_size, render, set_font

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")

SANS = Face("Liberation Sans", False, False, "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def left_out(browser, seed: int, item: str):
    """Dev Chromium dashboard ``seed`` drawn whole and with list item ``item`` left out (the items
    after it move up): (its spec, clean image, start image, clean elements, start elements)."""
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("dashboard", random.Random(seed + ENGINE_OFFSET["chromium"]))
    gone = next(s for s in specs if s.id == item)
    clean, elements = draw_page("dashboard", specs, style, browser)
    start, moved = draw_page("dashboard", [s for s in specs if s.id != gone.id], style, browser)
    return gone, clean, start, elements, moved


def inserted(parts, ordinal: str):
    """The editor's one action inserting the left-out item (asked as the ``ordinal`` item under its
    heading), the edited page, and the pixels it changed outside the list's items (``damage``)."""
    gone, clean, start, elements, moved = parts
    q = f'Is the {ordinal} item under the "{gone.context["heading"]}" heading exactly "{gone.text}"?'
    editor = TextEditor()
    out = np.asarray(editor.edit(start, "", failed(q), 0)).astype(int)
    [act] = editor.last_actions
    c, s = np.asarray(clean).astype(int), np.asarray(start).astype(int)
    owned = [owned_box(e) for e in (*elements, *moved) if e.id.startswith("item-0-")]
    return act, out, damage(s, out, c, owned)


@pytest.fixture(scope="module")
def dashboard(browser):
    return left_out(browser, 67, "item-0-1")


def test_an_inserted_item_ends_its_ink_in_the_engine_s_last_column(dashboard):
    """The list's second item ("Move billing to the new platform", Liberation Sans 16 px) left
    out and the third moved up: the editor inserts it set as Chromium sets it (unhinted outlines
    at their quarter pixels, the size the neighbour's width gives). Its ink now starts and ends
    in Chromium's own first and last columns (PIL's hinted glyphs ended a column right, and at the
    matched 16.25 px two), and differs from Chromium's pixels by 116 px of full contrast (was 288)."""
    gone, clean, _, elements, _ = dashboard
    act, out, damaged = inserted(dashboard, "second")
    assert act["action"].startswith("place (item 2 of the list under"), act["action"]
    assert act["type"]["setting"] == "linear" and act["type"]["size"] == 16.0, act["type"]
    assert not damaged.any()
    near = likeness(out, np.asarray(clean).astype(int), next(e.box for e in elements if e.id == gone.id))
    assert near["ends"] == [0, 0] and near["diff"] < 150, near


def test_chromium_s_widths_are_raqm_s_and_a_linear_size_is_found_from_the_ink():
    """Chromium's Range width of "Move billing to the new platform" in Liberation Sans 16 px is
    raqm's advance (225.2 px; the "linear" setting's, set at 4x, is within a quarter pixel). The
    string's unhinted ink spans one column more than its outline, and ``linear_size`` reads 16 px
    back from that span to an eighth of a pixel (type matching said 16.25; ``_style_of`` then tries
    sixteenths of a pixel around it)."""
    text = "Move billing to the new platform"
    width = advance(text, SANS, 16.0, "linear")
    assert abs(width - set_font(SANS, 16.0, "hinted").getlength(text)) < 0.25
    cov, ox, _ = render(text, SANS, 16.0, "linear", 55.25, 342.0)
    cols = np.nonzero((cov > 8 / 218).any(0))[0]
    span = int(cols[-1] - cols[0] + 1)
    assert linear_size(SANS, 16.25, text, span) == pytest.approx(16.0, abs=0.13)
    assert ox + cols[-1] + 1 <= np.ceil(55.25 + width) + 1
    with pytest.raises(ValueError):
        set_font(SANS, 16.0, "hintless")


def test_an_item_wider_than_the_list_s_widest_line_stays_on_one_line(browser):
    """Dev dashboard seed 43: the list's first item ("Customer churn fell for the third month") is
    its widest line, two columns past the second; left out, the list shows no wrapped line, so the
    editor knew no column to wrap it in and skipped it. The column is at least the widest line
    shown and the page is empty past it: the item is inserted on one line, its ink in Chromium's
    first and last columns, nothing else changed."""
    parts = left_out(browser, 43, "item-0-0")
    gone, clean, _, elements, _ = parts
    act, out, damaged = inserted(parts, "first")
    assert act["action"].startswith("place (item 1 of the list under"), act["action"]
    assert not damaged.any()
    near = likeness(out, np.asarray(clean).astype(int), next(e.box for e in elements if e.id == gone.id))
    assert near["ends"] == [0, 0], near
