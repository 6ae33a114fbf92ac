"""Text editor (issue 32): an item the layout engine left out and closed the gap behind is inserted
at its place, and the items after it are moved down one step (``insert_list_item``); with no
room under the list the edit is withheld; the engine benchmark counts the moved items as moved.

The pages are drawn here (PIL, DejaVu Sans) as Chromium lays out a bulleted list: a bullet in the
accent colour, the text 23 px right of it, a wrapped line starting at the bullet's edge, a line
pitch of 26 px and a gap of 14 px between items. The clean page (every item) is drawn by the
same code, so the moved items must land on its pixels.
"""

import shutil
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image, ImageDraw

from benchmarks.engine_refine import moved_there
from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS, SERIF_BOLD = FACES[("DejaVu Sans", False, False)], FACES[("DejaVu Serif", True, False)]
PAPER, INK, ACCENT = (245, 244, 240), (31, 35, 40), (42, 157, 143)
LEFT, RIGHT, PITCH, GAP = 48, 470, 26, 14
ITEMS = [
    "Renew the warehouse lease",
    "Support tickets resolved within one day",
    "Launch the partner portal in May",
    "Customer churn fell for the third month",
]


def slide(items: list[str], rule_at: int | None = None) -> tuple[Image.Image, list[tuple[int, int]]]:
    """A 640 x 480 page: a heading, the bulleted ``items`` under it (wrapped at ``RIGHT``), and a
    rule across the page at y ``rule_at`` (None: none). Returns the page and each item's (top of
    its first line's box, number of lines)."""
    img = Image.new("RGB", (640, 480), PAPER)
    d = ImageDraw.Draw(img)
    d.text((LEFT, 60), "Open questions", font=SERIF_BOLD.font(26), fill=ACCENT, anchor="ls")
    fnt = SANS.font(21)
    y, out = 100, []
    for text in items:
        rows, x = [""], LEFT + 23
        for word in text.split():
            trial = f"{rows[-1]} {word}".strip()
            start = LEFT + 23 if len(rows) == 1 else LEFT
            if start + fnt.getlength(trial) <= RIGHT:
                rows[-1] = trial
            else:
                rows.append(word)
        d.text((LEFT, y + 20), "\u2022", font=fnt, fill=ACCENT, anchor="ls")
        for k, row in enumerate(rows):
            d.text((x if k == 0 else LEFT, y + 20 + k * PITCH), row, font=fnt, fill=INK, anchor="ls")
        out.append((y, len(rows)))
        y += len(rows) * PITCH + GAP
    if rule_at is not None:
        d.line([(20, rule_at), (620, rule_at)], fill=(120, 120, 120), width=2)
    return img, out


def edit(img: Image.Image, ordinal: str, text: str):
    question = f'Is the {ordinal} item under the "Open questions" heading exactly "{text}"?'
    spec = compile_question(question)
    chk = Check("1", question, expects=expectations_of(spec), spec=spec)
    editor = TextEditor()
    out = editor.edit(img, "", [(chk, Verdict("1", "no", "ocr", ""))], seed=0)
    [act] = editor.last_actions
    return out, act


def page_text(img: Image.Image) -> list[str]:
    return [ln.text for ln in ocr_lines(img) if ln.words]


@pytest.mark.parametrize("missing", [0, 2])
def test_an_item_the_list_closed_up_behind_is_inserted_and_the_items_after_it_move_down(missing):
    clean, rows = slide(ITEMS)
    start, _ = slide(ITEMS[:missing] + ITEMS[missing + 1 :])
    out, act = edit(start, ("first", "third")[missing // 2], ITEMS[missing])
    assert act["action"].startswith(f"place (item {missing + 1} of the list under 'Open questions'")
    shift = rows[missing + 1][0] - rows[missing][0]  # the missing item's lines and one gap
    assert f"moved {shift} px down" in act["action"]
    a, c = np.asarray(out).astype(int), np.asarray(clean).astype(int)
    below = rows[missing + 1][0] - 4  # the items after it, pixel for pixel where the clean page has them
    assert (a[below:] == c[below:]).all()
    assert (a[: rows[missing][0] - 8] == c[: rows[missing][0] - 8]).all()  # nothing above it touched
    # the new item: its bullet the engine's, its text read where the clean page has it
    y0, n = rows[missing]
    assert np.abs(a[y0 : y0 + 24, LEFT : LEFT + 10] - c[y0 : y0 + 24, LEFT : LEFT + 10]).max() == 0
    text = " ".join(page_text(out))
    assert " ".join(page_text(clean)) == text
    assert ITEMS[missing] in text and act["damaged_px"] == 0


def test_no_room_under_the_list_is_withheld_and_the_page_unchanged():
    _, rows = slide(ITEMS[1:])
    start, _ = slide(ITEMS[1:], rule_at=rows[-1][0] + rows[-1][1] * PITCH + 10)  # a rule 10 px under the list
    out, act = edit(start, "first", ITEMS[0])
    assert act["action"].startswith("skip: item 1 under 'Open questions' needs the items after it moved")
    assert "has no room" in act["action"]
    assert (np.asarray(out) == np.asarray(start)).all()


def test_the_benchmark_counts_an_item_read_at_its_clean_box_as_moved():
    clean, rows = slide(ITEMS)
    start, _ = slide(ITEMS[1:])
    out, _ = edit(start, "first", ITEMS[0])

    def element(k: int, top: int):
        return SimpleNamespace(text=ITEMS[k], angle=0, box=(LEFT + 23, top, RIGHT, top + 24))

    assert moved_there(element(2, rows[1][0]), element(2, rows[2][0]), out, ocr_lines)
    # an item not moved back (the start page) is not read at its clean box: not "moved"
    assert not moved_there(element(2, rows[1][0]), element(2, rows[2][0]), start, ocr_lines)
    # an element at the same box on both pages was not moved
    assert not moved_there(element(0, rows[0][0]), element(0, rows[0][0]), out, ocr_lines)


def test_an_item_identical_to_the_clean_page_at_its_clean_box_is_moved_though_unread():
    """RapidOCR reads some list items run together on the clean page itself ("twoweeks"): a moved
    item whose clean box on best.png holds the clean page's own pixels is moved, not retyped."""
    clean, rows = slide(ITEMS)
    start, _ = slide(ITEMS[1:])
    out, _ = edit(start, "first", ITEMS[0])

    def element(k: int, top: int):
        return SimpleNamespace(text=ITEMS[k], angle=0, box=(LEFT + 23, top, RIGHT, top + 24))

    def reads_nothing(_image):
        return []

    moved, stays = element(2, rows[1][0]), element(2, rows[2][0])
    assert not moved_there(moved, stays, out, reads_nothing)  # no clean page: only the read counts
    assert moved_there(moved, stays, out, reads_nothing, clean)
    assert not moved_there(moved, stays, start, reads_nothing, clean)  # not moved back: other pixels there


@pytest.mark.parametrize("right_set", [True, False])
def test_a_menu_link_the_row_closed_up_behind_is_inserted_and_the_links_on_its_free_side_move(right_set):
    """A right-set menu keeps its right end: "Home" moves back left; a left-set one keeps its left
    end: "Customers" and "Careers" move back right; each by "Pricing"'s advance and one gap."""
    from test_text_editor_nav import GAP, header

    from refine.editors.text.place_nav_item import nav_place

    clean, xs = header(["Home", "Pricing", "Customers", "Careers"], right_set=right_set)
    start, _ = header(["Home", "Customers", "Careers"], right_set=right_set)
    question = 'Is the second link of the navigation menu from the left exactly "Pricing"?'
    assert nav_place(question) == 2
    spec = compile_question(question)
    chk = Check("1", question, expects=expectations_of(spec), spec=spec)
    editor = TextEditor()
    out = editor.edit(start, "", [(chk, Verdict("1", "no", "ocr", ""))], seed=0)
    [act] = editor.last_actions
    step = round(SANS.font(16).getlength("Pricing") + GAP)
    side = "before" if right_set else "after"
    assert act["action"] == f"place (link 2 of the menu, the links {side} it moved {step} px)"
    top = sorted((wd.box[0], wd.text) for ln in ocr_lines(out) for wd in ln.words if wd.box[3] < 60)
    assert [t for _, t in top][-4:] == ["Home", "Pricing", "Customers", "Careers"]
    a, c = np.asarray(out).astype(int), np.asarray(clean).astype(int)
    moved = (0, int(xs[1]) - 4) if right_set else (int(xs[2]) - 2, 900)  # "Home", or "Customers" and "Careers"

    def centre(img: np.ndarray) -> float:  # the ink's column centroid in the moved links' columns
        ink = (255 - img[20:60, moved[0] : moved[1]].min(2)).sum(0).astype(float)
        return float((ink * np.arange(ink.size)).sum() / ink.sum())

    assert abs(centre(a) - centre(c)) <= 0.6  # where the clean page has them (it sets them at fractional x)
    assert (a[60:] == np.asarray(start)[60:]).all()  # nothing under the menu touched


@pytest.mark.parametrize("missing", [0, 1, 2, 3])
def test_a_pie_legend_entry_the_column_closed_up_behind_is_inserted_in_its_slice_colour(missing):
    """The engines' donut (matplotlib, ``documents.engines.charts``, content seed 4: a column
    legend centred beside the pie, a label beside each slice) drawn with every legend entry and
    without entry ``missing``: the entry goes back in its slice's order with its slice's colour,
    the entries before it move up and those after it down by half a row, as matplotlib sets them."""
    import random

    from documents.engines.charts import chart_content, draw_chart

    specs, style = chart_content("donut", random.Random(4))
    legend = [s for s in specs if s.role == "legend_entry"]
    gone = legend[missing]
    clean, clean_els = draw_chart("donut", specs, style)
    start, _ = draw_chart("donut", [s for s in specs if s.id != gone.id], style)
    question = f'Does the legend include the label "{gone.text}"?'
    spec = compile_question(question)
    chk = Check("1", question, expects=expectations_of(spec), spec=spec)
    editor = TextEditor()
    out = editor.edit(start, "", [(chk, Verdict("1", "no", "ocr", ""))], seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith(f"place (entry {missing + 1} of the column legend")
    boxes = {e.id: e.box for e in clean_els}
    a, c = np.asarray(out).astype(int), np.asarray(clean).astype(int)
    for s in legend:  # every entry, its swatch with it, where matplotlib sets it on the clean page
        x0, y0, x1, y1 = boxes[s.id]
        sx0 = x0 - 3 * (y1 - y0)

        def middle(img: np.ndarray) -> float:  # the row's ink centroid (y) in the entry's box, swatch and text
            ink = (255 - img[y0 - 3 : y1 + 3, sx0 : x1 + 2].min(2)).astype(float).sum(1)
            return float((ink * np.arange(ink.size)).sum() / ink.sum())

        # matplotlib sets the rows at fractional y (a swatch's edge row falls one way or the other):
        # a moved row within 0.6 px of it; the new entry, set by FreeType in the matched type, 1.5 px
        assert abs(middle(a) - middle(c)) <= (1.5 if s is gone else 0.6), s.text
    x0, y0, x1, y1 = boxes[gone.id]
    swatch = a[(y0 + y1) // 2, x0 - 2 * (y1 - y0)]  # the new swatch's middle: its slice's colour
    assert np.abs(swatch - c[(y0 + y1) // 2, x0 - 2 * (y1 - y0)]).max() <= 12
    assert act["type"]["swatch"] != [int(v) for v in a[(y0 + y1) // 2 - 22, x0 - 2 * (y1 - y0)]]
    assert (a[:, : x0 - 60] == np.asarray(start).astype(int)[:, : x0 - 60]).all()  # the pie untouched


def test_the_step_is_measured_between_the_items_bullets_not_their_ocr_tops():
    """OCR's line tops vary with the letters: Chromium's "Open data ..." over "Move billing ..." at a
    29 px pitch measured 28 between their tops (engine report dashboard-1003), and the moved items
    stood a pixel off. The bullets are one mark drawn alike for every item."""
    from refine.editors.text.insert_list_item import Item, steps

    items = [
        Item(((60, 100, 300, 120),), (40, 106, 46, 112)),
        Item(((60, 128, 300, 149),), (40, 135, 46, 141)),  # a line top 1 px high: taller letters
        Item(((60, 157, 300, 178),), (40, 164, 46, 170)),  # and one here
    ]
    pitch, gap, step = steps(items)
    assert (pitch, gap) == (None, None) and step == {1: 29.0}


@pytest.mark.parametrize("start, expected", [(90, 0), (0, 0), (45, None)])
def test_a_missing_slice_at_the_pie_s_start_opens_the_legend_only_when_the_pie_starts_at_12_or_3(start, expected):
    """Slices drawn clockwise from ``start`` (degrees counter-clockwise from 3 o'clock), the first
    one's entry missing from the legend: at 12 or 3 o'clock its edge with the last slice tells that
    it opens the legend (0); at 45 degrees, where no charting tool starts, it is withheld (None)."""
    from refine.editors.text.insert_legend_entry import opens_pie

    img = Image.new("RGB", (400, 400), (255, 255, 255))
    d = ImageDraw.Draw(img)
    colours, shares = [(200, 60, 60), (60, 120, 200), (60, 160, 90), (230, 150, 40)], [0.2, 0.3, 0.15, 0.35]
    at = -start  # PIL's angles go clockwise from 3 o'clock
    for colour, share in zip(colours, shares):
        d.pieslice((50, 50, 350, 350), at, at + 360 * share, fill=colour, outline=(255, 255, 255))
        at += 360 * share
    arr = np.asarray(img)
    found = opens_pie(arr, (50, 50, 351, 351), colours[1], colours[-1], colours[0], [-1])
    assert found == expected
    assert opens_pie(arr, (50, 50, 351, 351), colours[0], colours[-2], colours[-1], [-1]) == (
        None if expected is None else 1
    )  # the last slice missing closes it
