"""Text editor (issue 32): the next item of the list under a heading with its bullet, a foot line
on a centred page, and an x-axis tick label named by its place.

The pages are drawn here (PIL, DejaVu), so each assertion is against the truth of the drawing.
"""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.place_at_foot import foot_alignment
from refine.editors.text.place_list_item import bullet_of, list_under
from refine.editors.text.tick_label import text_rows, tick_place, tick_row
from rewards.text.ocr.text_match import Line, Word

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS, SANS_BOLD = FACES[("DejaVu Sans", False, False)], FACES[("DejaVu Sans", True, False)]
SERIF, SERIF_BOLD = FACES[("DejaVu Serif", False, False)], FACES[("DejaVu Serif", True, False)]
BG, INK, DOT = (250, 249, 246), (31, 35, 40), (240, 130, 20)


def bulleted_list() -> Image.Image:
    """A heading "Highlights" and two items, each with an orange dot 18 px left of its text, at a
    pitch of 34 px."""
    img = Image.new("RGB", (700, 330), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 60), "Highlights", font=SANS_BOLD.font(28), fill=INK, anchor="ls")
    for i, item in enumerate(("New mobile app released in beta", "Support tickets resolved within one day")):
        y = 110 + 34 * i
        d.ellipse((44, y - 10, 50, y - 4), fill=DOT)
        d.text((62, y), item, font=SANS.font(20), fill=INK, anchor="ls")
    return img


@needs_tesseract
def test_third_item_goes_under_the_list_in_its_indent_with_its_bullet():
    img = bulleted_list()
    editor = TextEditor()
    q = 'Is the third item under the "Highlights" heading exactly "Three new regional offices opened"?'
    out = np.asarray(editor.edit(img, "", failed(q), 0))
    action = editor.last_actions[0]
    assert action["action"] == "place (item 3 of the list under 'Highlights')"
    x0, y0, x1, y1 = action["box"]
    assert abs(x0 - 62) <= 2  # the items' left edge
    assert 110 + 68 - 20 <= y0 and y1 <= 110 + 68 + 6  # one pitch under item 2, on its baseline
    start = np.asarray(img)
    # the bullet: item 2's dot, one pitch down, the same pixels
    assert np.array_equal(out[134:146, 40:56], start[134 - 34 : 146 - 34, 40:56])
    assert (np.abs(out[168:180, 40:56].astype(int) - np.array(DOT)).max(2) < 10).any()
    # nothing else changed: only the new row's text box and its bullet
    changed = (out != start).any(2)
    changed[y0:y1, x0:x1] = False
    bx0, by0, bx1, by1 = action["type"]["bullet"]
    changed[by0:by1, bx0:bx1] = False
    assert not changed.any()


def test_list_under_a_heading_stops_at_its_pitch_and_edge():
    heading = (40, 40, 180, 62)
    lines = [
        Line((Word("New", (62, 96, 100, 112)),)),
        Line((Word("Support", (62, 130, 150, 146)),)),
        Line((Word("Card", (300, 96, 350, 112)),)),  # another column: not the list
        Line((Word("Footer", (62, 300, 120, 314)),)),
    ]  # far below: not the next item
    # fmt: skip
    assert list_under(lines, heading) == [(62, 96, 100, 112), (62, 130, 150, 146)]
    assert list_under(lines, (40, 200, 180, 222)) == []  # nothing directly under this heading


def test_bullet_of_finds_the_dot_left_of_the_text():
    img = bulleted_list()
    arr = np.asarray(img)
    assert bullet_of(arr, (62, 95, 330, 115)) == (44, 100, 51, 107)
    assert bullet_of(np.full_like(arr, 250), (62, 95, 330, 115)) is None


@needs_tesseract
def test_foot_line_of_a_centred_page_is_centred_at_the_foot():
    img = Image.new("RGB", (640, 700), (12, 40, 70))
    d = ImageDraw.Draw(img)
    for y, text, size in (
        (120, "Film Week", 48),
        (200, "Screenings every evening", 24),
        (260, "Doors open at seven", 24),
    ):
        d.text((320, y), text, font=SANS.font(size), fill=(240, 240, 240), anchor="ms")
    editor = TextEditor()
    editor.edit(img, "", failed('Does the footer read exactly "All rights reserved"?'), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)" and action["type"]["align"] == "centre"
    x0, y0, x1, y1 = action["box"]
    assert abs((x0 + x1) / 2 - 320) <= 2
    size = action["type"]["size"]
    assert 700 - 2.1 * size - 2 <= y1 <= 700 - 2.1 * size + 0.3 * size + 2  # baseline 2.1 em up, then descenders


@needs_tesseract
def test_foot_line_of_a_slide_export_grows_with_the_page_width():
    # a 1920 px slide: its body is set at 36 px; a screen page's 12-13.5 px foot line would be
    # unreadable beside it, so the size bounds grow with the width past SCREEN_PX (1920 / 1280 = 1.5)
    img = Image.new("RGB", (1920, 1080), "white")
    d = ImageDraw.Draw(img)
    d.text((120, 200), "Quarterly review", font=SANS_BOLD.font(96), fill=INK, anchor="ls")
    for i, text in enumerate(("Revenue grew in every region", "Churn fell for the third quarter")):
        d.text((120, 340 + 70 * i), text, font=SANS.font(36), fill=INK, anchor="ls")
    editor = TextEditor()
    editor.edit(img, "", failed('Does the footer read exactly "Finance team, April"?'), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)"
    assert 18.0 <= action["type"]["size"] <= 20.25
    assert abs(action["box"][0] - 120) <= 3  # the slide's left text edge


@needs_tesseract
def test_foot_line_follows_a_centred_title_over_a_longer_left_list():
    """A poster: a centred title block (3 lines) above a left-aligned list (5 lines); most lines
    are left-aligned, but the footer is set as the title is, centred."""
    img = Image.new("RGB", (640, 760), BG)
    d = ImageDraw.Draw(img)
    for y, text, size in ((120, "Harvest Fair", 56), (170, "Meet the makers", 24), (210, "North Campus", 22)):
        d.text((320, y), text, font=SANS_BOLD.font(size), fill=INK, anchor="ms")
    d.text((100, 290), "Line-up", font=SANS_BOLD.font(24), fill=INK, anchor="ls")
    items = ("Hiring plan approved", "Three new offices opened", "Reduce shipping costs", "Open studio tours")
    for i, item in enumerate(items):
        d.text((120, 330 + 32 * i), item, font=SANS.font(18), fill=INK, anchor="ls")
    editor = TextEditor()
    out = np.asarray(editor.edit(img, "", failed('Does the footer read exactly "Made in Lisbon since 2014"?'), 0))
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)" and action["type"]["align"] == "centre"
    x0, y0, x1, y1 = action["box"]
    assert abs((x0 + x1) / 2 - 320) <= 2
    changed = (out != np.asarray(img)).any(2)
    assert changed.sum() > 100 and not changed[:, :x0].any() and not changed[:, x1:].any()
    assert not changed[:y0].any() and not changed[y1:].any()


@needs_tesseract
def test_a_bar_charts_source_line_starts_under_its_title_not_its_long_labels():
    """matplotlib's horizontal bars: the category labels and the rotated y-axis title stand left
    of the title; the source note goes on the title's left edge, as ``fig.text`` sets it."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(8.8, 6), dpi=100, facecolor="white")
    ax = fig.add_axes((0.11, 0.15, 0.8, 0.65))
    ax.barh(["Coffee", "Tea", "Juice", "Sparkling water"], [60, 17, 21, 24], color="#1f5f8b")
    ax.set_ylabel("Product line")
    ax.set_xlabel("Orders per day")
    title = fig.text(0.04, 0.94, "Water Use by Sector", fontsize=18, fontweight="bold", va="center")
    fig.canvas.draw()
    tx0 = title.get_window_extent().x0
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    img = Image.open(buf).convert("RGB")
    editor = TextEditor()
    q = 'Does the source note at the bottom read exactly "Source: Company filings and analyst estimates"?'
    editor.edit(img, "", failed(q), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (at the page's foot)" and action["type"]["align"] == "left"
    assert abs(action["box"][0] - tx0) <= 2, (action["box"], tx0)


def test_foot_alignment_follows_the_title():
    def line(text, box):
        return Line((Word(text, box),))

    body = [line("Quarterly update for the team", (40, 200, 400, 220)), line("Another body line", (40, 240, 300, 260))]
    assert foot_alignment([line("Revenue by Region", (40, 20, 330, 50)), *body], 800) == "left"
    assert foot_alignment([line("Harvest Fair", (250, 20, 550, 80)), *body], 800) == "centre"
    assert (
        foot_alignment([line("Annual Report", (460, 20, 760, 70)), line("Body text here", (40, 200, 760, 220))], 800)
        == "right"
    )


def test_tick_place_reads_the_ordinal_and_side():
    assert tick_place('Is the sixth x-axis tick label from the left exactly "Jun"?') == (6, "left")
    assert tick_place('Is the second x-axis tick label from the right exactly "Q3"?') == (2, "right")
    assert tick_place('Is the y-axis labeled exactly "Orders"?') is None


def test_tick_row_is_the_lowest_row_of_short_labels_left_to_right():
    labels = ["Jan", "Feb", "Mar", "Jn", "Jul"]
    lines = [Line((Word("Revenue by Region", (40, 20, 300, 40)),))]
    lines += [Line((Word(t, (300 - 60 * k, 510, 330 - 60 * k, 530)),)) for k, t in enumerate(labels)]
    lines += [Line((Word("T", (272, 500, 274, 506)),))]  # a tick mark read as a letter
    row = tick_row(lines, 600)
    assert [lines[i].text for i in row] == labels[::-1]


def test_text_rows_cut_the_tick_mark_above_the_label():
    arr = np.full((40, 30, 3), 255, np.uint8)
    arr[2:8, 14:16] = 0  # the tick mark
    arr[12:26, 5:25] = 0  # the label's ink
    assert text_rows(arr, (0, 0, 30, 40)) == (0, 12, 30, 26)


def test_erase_keeps_a_gridline_and_a_frame_line_crossing_the_box():
    from refine.editors.text.erase import erase

    arr = np.full((60, 120, 3), 255, np.uint8)
    arr[20, :] = 221  # a gridline across the page, through the box
    arr[:, 30] = 0  # a frame line down the page, through the box
    arr[24:36, 40:80] = 30  # the glyphs
    before = arr.copy()
    erase(arr, (25, 15, 90, 40))
    assert np.array_equal(arr[20], before[20]) and np.array_equal(arr[:, 30], before[:, 30])
    assert (arr[24:36, 40:80] == 255).all()  # the text is gone


def test_a_legend_entry_read_only_as_a_slice_label_is_not_in_the_legend():
    from refine.editors.text.near_match import off_legend
    from refine.editors.text.work import Work
    from rewards.rubric import TextExpectation
    from rewards.text.ocr.text_match import Match
    from rewards.text.questions.question_compiler import ElementSpec

    tea = TextExpectation("Tea")
    work = Work(elements={tea: ElementSpec(role="legend_entry")})
    legend = {tea: [(675, 300, 720, 316), (675, 322, 712, 338)]}  # "Coffee", "Water"
    on_slice = {tea: [Match("Tea", (420, 180, 446, 194), 1.0, True, ((3, 0),))]}
    assert off_legend(tea, work, on_slice, legend)
    in_legend = {tea: [Match("Tea", (676, 301, 700, 315), 1.0, True, ((5, 0),))]}
    assert not off_legend(tea, work, in_legend, legend)
    assert not off_legend(tea, Work(), on_slice, legend)  # no legend named: the slice's label is it


@needs_tesseract
def test_the_row_a_bulleted_list_skips_takes_its_item_beside_its_empty_bullet():
    img = Image.new("RGB", (640, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((40, 50), "Key takeaways", font=SERIF.font(26), fill=INK, anchor="ls")
    items = ("Meet the artists after each show", None, "Three new regional offices opened", "Open data shared")
    for i, item in enumerate(items):
        y = 100 + 32 * i
        d.ellipse((44, y - 9, 50, y - 3), fill=INK)  # every row keeps its dot
        if item:
            d.text((62, y), item, font=SERIF.font(18), fill=INK, anchor="ls")
    editor = TextEditor()
    q = 'Does the second bullet read exactly "Guided tours of the old harbor"?'
    out = np.asarray(editor.edit(img, "", failed(q), 0))
    action = editor.last_actions[0]
    assert action["action"] == "place (item 2 of its list, in its empty row)"
    x0, y0, x1, y1 = action["box"]
    assert abs(x0 - 62) <= 2 and 132 - 16 <= y0 and y1 <= 132 + 6  # beside the empty dot, on the row's baseline
    assert "bullet" not in action["type"]  # its own dot is there: none copied
    changed = (out != np.asarray(img)).any(2)
    changed[y0:y1, x0:x1] = False
    assert not changed.any()


def bullets_page(dots: int) -> Image.Image:
    """Three serif items under "Key takeaways", each beside a dot, and ``dots`` dots in all (a
    fourth dot with no text beside it when 4)."""
    img = Image.new("RGB", (640, 300), (250, 250, 246))
    d = ImageDraw.Draw(img)
    d.text((40, 50), "Key takeaways", font=SERIF_BOLD.font(22), fill=INK, anchor="ls")
    items = ("Three new regional offices opened", "Guided tours of the old harbor", "Reduce shipping costs")
    for i in range(dots):
        y = 100 + 32 * i
        d.ellipse((44, y - 9, 50, y - 3), fill=INK)
        if i < len(items):
            d.text((62, y), items[i], font=SERIF.font(17), fill=INK, anchor="ls")
    return img


@needs_tesseract
def test_an_empty_dot_after_the_last_item_takes_the_next_item():
    img = bullets_page(4)
    editor = TextEditor()
    q = 'In the bulleted list, does the fourth bullet point read exactly "Hiring plan approved for the autumn"?'
    out = np.asarray(editor.edit(img, "", failed(q), 0))
    action = editor.last_actions[0]
    assert action["action"] == "place (item 4 of its list, in its empty row)"
    x0, y0, x1, y1 = action["box"]
    assert abs(x0 - 62) <= 2 and 196 - 16 <= y0 and y1 <= 196 + 6  # beside the empty dot, on the row's baseline
    assert "bullet" not in action["type"]  # its own dot is there: none copied
    changed = (out != np.asarray(img)).any(2)
    assert changed.sum() > 300
    changed[y0:y1, x0:x1] = False
    assert not changed.any()


@needs_tesseract
def test_no_dot_after_the_last_item_is_no_empty_row():
    img = bullets_page(3)
    editor = TextEditor()
    q = 'In the bulleted list, does the fourth bullet point read exactly "Hiring plan approved for the autumn"?'
    editor.edit(img, "", failed(q), 0)
    assert editor.last_actions[0]["action"] != "place (item 4 of its list, in its empty row)"


def test_a_row_label_read_with_a_look_alike_is_found_once():
    from refine.editors.text.place_in_element import _exact
    from refine.editors.text.state import EditState

    lines = [Line((Word("Ql", (50, 342, 72, 355)), Word("29.6%", (161, 342, 206, 353)))),
             Line((Word("Q2", (50, 374, 72, 387)),)), Line((Word("Visits", (317, 309, 362, 321)),))]  # fmt: skip
    state = EditState.read(np.full((500, 600, 3), 250, np.uint8), lines, {}, {})
    rules = TextEditor()._rules()
    assert _exact(state, "Q1", rules)[0] == (50, 342, 72, 355)  # OCR's "Ql" is the label "Q1"
    assert _exact(state, "Q2", rules)[0] == (50, 374, 72, 387)
    assert _exact(state, "Q3", rules) is None


@needs_tesseract
def test_the_menu_row_with_a_gap_takes_its_item_among_other_rows():
    img = Image.new("RGB", (820, 300), (250, 250, 246))
    d = ImageDraw.Draw(img)
    for x, t in ((40, "Products"), (140, "Team"), (214, "Home"), (390, "Contact")):  # item 4 missing
        d.text((x, 50), t, font=SANS.font(17), fill=INK, anchor="ls")
    for k, (label, value) in enumerate(
        (("Orders", "67,924"), ("Sessions", "49,966"), ("Leads", "72,526"), ("Churn", "67.9%"))
    ):
        d.text((40 + 190 * k, 150), label, font=SANS.font(16), fill=INK, anchor="ls")  # card rows: no gap
        d.text((40 + 190 * k, 200), value, font=SANS_BOLD.font(28), fill=INK, anchor="ls")
    editor = TextEditor()
    editor.edit(img, "", failed('Is the fourth item of the navigation menu from the left exactly "Pricing"?'), 0)
    action = editor.last_actions[0]
    assert action["action"] == "place (item 4 of its row, in its gap)"
    x0, y0, x1, y1 = action["box"]
    assert 214 + 40 < x0 and x1 < 390 and 30 < y0 and y1 <= 56  # between "Home" and "Contact", on their baseline


def buttons(label: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """Two filled buttons on a page: ``label`` with an arrow after it, and "Get started". Returns
    the image and the first button's frame."""
    img = Image.new("RGB", (640, 200), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 50), "Ship reports faster", font=SERIF.font(30), fill=INK, anchor="ls")
    frame = (40, 100, 260, 142)
    d.rounded_rectangle(frame, 6, fill=DOT)
    d.text((62, 121), f"{label}  \u2192", font=SANS_BOLD.font(17), fill=(255, 255, 255), anchor="lm")
    d.rounded_rectangle((280, 100, 440, 142), 6, outline=DOT, width=2)
    d.text((302, 121), "Get started", font=SANS_BOLD.font(17), fill=DOT, anchor="lm")
    return img, frame


@needs_tesseract
def test_button_with_two_words_swapped_is_rewritten_in_place_beside_its_arrow():
    img, frame = buttons("Start trial free")
    editor = TextEditor()
    out = editor.edit(img, "", failed('Is there a button labeled exactly "Start free trial"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "Start trial free"
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    x0, y0, x1, y1 = frame
    assert changed.any() and not changed[:, :x0].any() and not changed[:, x1:].any()  # inside its button
    assert not changed[:y0].any() and not changed[y1:].any()


def menu(prices: list[str | None]) -> tuple[Image.Image, list[tuple[int, int, int, int] | None]]:
    """A menu section ("Desserts", three items, each price flush right at x=374) beside a second
    section to the right. Returns the image and each price's ink box (None where left out)."""
    img = Image.new("RGB", (800, 320), BG)
    d = ImageDraw.Draw(img)
    d.text((66, 60), "Desserts", font=SERIF.font(24), fill=DOT, anchor="ls")
    d.text((420, 60), "Starters", font=SERIF.font(24), fill=DOT, anchor="ls")
    boxes = []
    for i, (item, price) in enumerate(zip(["Vanilla Ice Cream", "Apple Pie", "Tiramisu"], prices)):
        y = 100 + 30 * i
        d.text((66, y), item, font=SERIF.font(15), fill=INK, anchor="ls")
        d.text((420, y), ["Calamari", "Bruschetta", "Garlic Bread"][i], font=SERIF.font(15), fill=INK, anchor="ls")
        d.text((720, y), "$9.95", font=SERIF.font(15), fill=INK, anchor="rs")
        if price is not None:
            d.text((374, y), price, font=SERIF.font(15), fill=INK, anchor="rs")
        boxes.append(d.textbbox((374, y), price, font=SERIF.font(15), anchor="rs") if price else None)
    return img, boxes


@needs_tesseract
def test_missing_price_goes_on_its_items_row_flush_right_with_the_prices_around():
    img, _ = menu(["$27.95", None, "$12.00"])
    _, truth = menu(["$27.95", "$23.00", "$12.00"])
    editor = TextEditor()
    out = editor.edit(img, "", failed('In the "Desserts" section, is the price of "Apple Pie" exactly "$23.00"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "place (in the value column of its row: 'Apple Pie')"
    x0, y0, x1, y1 = truth[1]
    assert abs(act["box"][2] - x1) <= 2 and abs(act["box"][3] - y1) <= 2  # flush right, on the item's baseline
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert changed.any() and not changed[: y0 - 3].any() and not changed[y1 + 3 :].any()
    assert not changed[:, : x0 - 4].any() and not changed[:, x1 + 4 :].any()


def kpi_cards(notes: list[str | None]) -> Image.Image:
    """Two like bordered cards, 240 px apart: a label, a number, and a note (None: left out)."""
    img = Image.new("RGB", (560, 200), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for i, (label, number, note) in enumerate(zip(["Avg. order value", "New leads"], ["$48.20", "356"], notes)):
        x = 20 + 260 * i
        d.rounded_rectangle((x, 30, x + 230, 160), 8, outline=(210, 214, 220), width=1)
        d.text((x + 18, 62), label, font=SERIF.font(15), fill=INK, anchor="ls")
        d.text((x + 18, 108), number, font=SERIF.font(30), fill=INK, anchor="ls")
        if note is not None:
            d.text((x + 18, 138), note, font=SERIF.font(13), fill=(90, 96, 110), anchor="ls")
    return img


@needs_tesseract
def test_note_missing_from_its_card_is_copied_from_the_like_card_at_the_same_offset():
    img = kpi_cards(["+21 since Q1", None])
    truth = np.asarray(kpi_cards(["+21 since Q1", "+21 since Q1"]))
    editor = TextEditor()
    out = editor.edit(img, "", failed('Does the "New leads" card show the change note "+21 since Q1"?'), 0)
    act = editor.last_actions[0]
    assert act["action"].startswith("place (in its card")
    arr = np.asarray(out)
    changed = (arr != np.asarray(img)).any(2)
    assert changed.any() and not changed[:, :280].any()  # nothing in the other card
    assert np.array_equal(arr, truth)  # where the engine would draw it, as it draws it


@needs_tesseract
def test_new_item_keeps_the_pen_position_of_the_items_above():
    img = bulleted_list()
    truth = img.copy()
    ImageDraw.Draw(truth).text(
        (62, 178), "Three new regional offices opened", font=SANS.font(20), fill=INK, anchor="ls"
    )
    editor = TextEditor()
    q = 'Is the third item under the "Highlights" heading exactly "Three new regional offices opened"?'
    out = np.asarray(editor.edit(img, "", failed(q), 0))

    def first_ink(arr):  # the row's leftmost inked column right of the bullets
        cols = np.nonzero((np.abs(arr[160:185, 55:].astype(int) - BG).max(2) > 40).any(0))[0]
        return 55 + int(cols[0])

    # the "T" starts where the engine's pen puts it, not at the "S" stem's column above it
    assert first_ink(out) == first_ink(np.asarray(truth))


def test_foot_size_reads_bold_labels_in_their_own_weight():
    """The foot line's size is read from the page's smallest lines; a line chart's smallest are
    its bold line-end labels. Matched in the plain face alone they read about 10% large (16.5 px
    for 15), and the source note came out past the engine's box (171 px on the engine dev page
    matplotlib-line-2); matched in the face's two weights they read their size."""
    from refine.editors.text.place_at_foot import _size

    img = Image.new("RGB", (700, 200), (255, 255, 255))
    d = ImageDraw.Draw(img)
    lines = []
    for i, (text, face) in enumerate(
        (("Online store", SERIF_BOLD), ("Retail stores", SERIF_BOLD), ("All stores, seasonally adjusted", SERIF))
    ):
        fnt = face.font(15 if face is SERIF_BOLD else 17)
        d.text((40, 40 + 50 * i), text, font=fnt, fill=(29, 78, 107), anchor="ls")
        x0, y0, x1, y1 = d.textbbox((40, 40 + 50 * i), text, font=fnt, anchor="ls")
        words, x = [], x0
        for w in text.split():
            wx0, _, wx1, _ = d.textbbox((x, 40 + 50 * i), w, font=fnt, anchor="ls")
            words.append(Word(w, (round(wx0), y0, round(wx1), y1)))
            x = wx1 + d.textlength(" ", font=fnt)
        lines.append(Line(tuple(words)))
    size = _size(np.asarray(img), lines, list(FACES.values()), SERIF)
    assert size is not None and abs(size - 15) <= 0.5, size
