"""Text editor (issue 17): a fix replaces the wrong version, never adds a copy beside it; a missing
string goes only into a slot the page offers; a bullet dot is not text.

Every page is drawn here (PIL, DejaVu), so each assertion is against the truth: which string the
page's OCR reads after the edit, how often, and which pixels changed.
"""

import shutil
from dataclasses import replace

import numpy as np
import pytest
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.bullets import without_bullets
from rewards.importers import expectations_of
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation, Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import ElementSpec, compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS, SANS_BOLD = FACES[("DejaVu Sans", False, False)], FACES[("DejaVu Sans", True, False)]
SERIF, SERIF_BOLD = FACES[("DejaVu Serif", False, False)], FACES[("DejaVu Serif", True, False)]
INK = (25, 30, 45)


def draw(img, xy, text, face, size, fill=INK):
    """Draw ``text`` with its baseline's left end at ``xy``; returns its ink box."""
    d = ImageDraw.Draw(img)
    d.text(xy, text, font=face.font(size), fill=fill, anchor="ls")
    return d.textbbox(xy, text, font=face.font(size), anchor="ls")


def check(cid: str, question: str) -> Check:
    """A check compiled from its question, as the importers build it."""
    spec = compile_question(question)
    return Check(cid, question, expects=expectations_of(spec), spec=spec)


def failed(*checks: Check):
    """The checks as failures handed to the editor (the tests pick pages where they fail)."""
    return [(c, Verdict(c.id, "no", "ocr", "")) for c in checks]


def judged(img, chk: Check) -> str:
    """The OCR judge's answer for ``chk``'s strings all on ``img`` (its expectations only: the
    element rules of the question are the judge's tests)."""
    return OCRJudge().judge([img], [""], [[Check(chk.id, "q", expects=chk.expects)]])[0][0].answer


def read(img) -> list[str]:
    return [ln.text for ln in ocr_lines(img)]


def changed_outside(before, after, boxes) -> int:
    """Pixels that changed outside ``boxes``."""
    changed = (np.asarray(before) != np.asarray(after)).any(2)
    for x0, y0, x1, y1 in boxes:
        changed[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = False
    return int(changed.sum())


def kpi_page():
    """Three KPI cards; the Revenue card shows "18,540" (two digits swapped)."""
    img = Image.new("RGB", (760, 380), (246, 247, 250))
    d = ImageDraw.Draw(img)
    draw(img, (40, 60), "Q3 Sales Dashboard", SANS_BOLD, 30)
    for k, (label, value) in enumerate((("Revenue", "18,540"), ("Orders", "3,210"), ("NPS", "62"))):
        x = 40 + 235 * k
        d.rounded_rectangle([x, 110, x + 210, 230], radius=10, fill=(255, 255, 255), outline=(210, 214, 222))
        draw(img, (x + 20, 145), label, SANS, 16, (90, 95, 110))
        draw(img, (x + 20, 200), value, SANS_BOLD, 34)
    draw(img, (40, 330), "Figures are unaudited.", SANS, 13, (120, 120, 130))
    return img


def test_kpi_number_with_swapped_digits_is_rewritten_in_its_card():
    img = kpi_page()
    editor = TextEditor()
    chk = check("1", "Does the Revenue card show exactly '18,450'?")
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["was"] == "18,540"
    x0, y0, x1, y1 = act["box"]
    assert 40 < x0 and x1 < 250 and 110 < y0 and y1 < 230  # in the Revenue card, where "18,540" stood
    after = read(out)
    assert after.count("18,450") == 1 and "18,540" not in after  # the right version once, the wrong one gone
    assert {"3,210", "62", "Revenue", "Orders"} <= set(after)
    assert changed_outside(img, out, act["boxes"]) == 0
    assert judged(out, chk) == "yes"


def test_two_candidates_of_the_number_mean_no_second_copy():
    # Two cards show a version of "18,450": the editor cannot tell which is the wrong one, so it
    # writes nothing (a third card would make the page contradict itself) and says why.
    img = Image.new("RGB", (560, 260), (246, 247, 250))
    d = ImageDraw.Draw(img)
    for k, value in enumerate(("18,540", "18,460")):
        x = 30 + 260 * k
        d.rounded_rectangle([x, 60, x + 230, 180], radius=10, fill=(255, 255, 255), outline=(210, 214, 222))
        draw(img, (x + 20, 140), value, SANS_BOLD, 34)
    editor = TextEditor()
    out = editor.edit(img, "", failed(Check("1", "q", expects=(TextExpectation("18,450"),))), seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("skip: '18,")
    assert act["action"].endswith("may be the wrong version of '18,450'; not writing a second copy")
    assert np.array_equal(np.asarray(out), np.asarray(img))


def test_date_with_swapped_digits_is_rewritten_in_its_place():
    img = Image.new("RGB", (640, 480), (250, 246, 238))
    draw(img, (40, 90), "Data Summit", SERIF_BOLD, 44, (60, 20, 30))
    draw(img, (40, 160), "July 21-14", SERIF, 24, (40, 40, 40))
    draw(img, (40, 200), "Grand Hall, Boston", SERIF, 20, (40, 40, 40))
    editor = TextEditor()
    out = editor.edit(img, "", failed(check("1", "Does the date line read exactly 'July 12-14, 2025'?")), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["was"] == "July 21-14"
    assert act["box"][1] < 170 and act["type"]["family"] == "DejaVu Serif"  # on the date's own line, its face
    after = read(out)
    assert after == ["Data Summit", "July 12-14, 2025", "Grand Hall, Boston"]  # nothing added under the venue


def test_missing_menu_item_goes_next_in_the_menu_row():
    img = Image.new("RGB", (760, 300), (255, 255, 255))
    ImageDraw.Draw(img).rectangle([0, 0, 760, 70], fill=(240, 242, 246))
    draw(img, (30, 45), "Shoply", SANS_BOLD, 24)
    for x, t in ((330, "Home"), (420, "Shop"), (510, "About")):
        draw(img, (x, 43), t, SANS, 18)
    draw(img, (30, 150), "Summer sale starts now", SANS_BOLD, 28)
    editor = TextEditor()
    chk = check("1", "Does the navigation menu read 'Home', 'Shop', 'About', 'Contact' from left to right?")
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "place (next to 'About')"
    x0, y0, x1, y1 = act["box"]
    assert x0 > 560 and abs(y1 - 43) <= 2  # after "About", on the menu's baseline
    assert act["type"]["family"] == "DejaVu Sans" and not act["type"]["bold"] and abs(act["type"]["size"] - 18) <= 1
    assert changed_outside(img, out, act["boxes"]) == 0
    assert judged(out, chk) == "yes"


def test_missing_paragraph_without_a_slot_is_skipped_and_the_page_unchanged():
    img = Image.new("RGB", (720, 420), (255, 255, 255))
    ImageDraw.Draw(img).rectangle([0, 0, 720, 80], fill=(30, 45, 90))
    draw(img, (36, 55), "Company Overview", SANS_BOLD, 30, (240, 240, 245))
    draw(img, (36, 140), "Founded in 2009", SANS, 18)
    para = "We design and build furniture for small homes, with every piece made to order in our own workshop."
    editor = TextEditor()
    chk = Check("1", f'Does the header contain the paragraph "{para}"?', expects=(TextExpectation(para, "top"),))
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("skip: missing, and the page offers no slot for it (region top")
    assert act["action"].endswith("not written loose")
    assert np.array_equal(np.asarray(out), np.asarray(img))


def bullet_page(first: str):
    """A bulleted list with solid dot bullets; returns the page and the dots' boxes."""
    img = Image.new("RGB", (640, 260), (252, 252, 252))
    d = ImageDraw.Draw(img)
    draw(img, (30, 50), "Highlights", SANS_BOLD, 26)
    dots = []
    for k, t in enumerate((first, "Churn fell to a record low", "Two new markets opened")):
        y = 100 + 36 * k
        dots.append((40, y - 12, 47, y - 5))
        d.ellipse(dots[-1], fill=INK)
        draw(img, (56, y), t, SANS, 18)
    return img, dots


def test_bullet_line_with_a_typo_is_rewritten_and_its_dot_kept():
    for first, want in (
        ("Revenue grew by 12 percnt", "Revenue grew by 12 percent"),
        ("Q3 revenue up", "Q3 revenue up 12%"),  # a word missing: the dot made it look like running text
    ):
        img, dots = bullet_page(first)
        editor = TextEditor()
        out = editor.edit(img, "", failed(Check("1", "q", expects=(TextExpectation(want),))), seed=0)
        [act] = editor.last_actions
        assert act["action"] == "replace" and act["was"] == first, act
        assert act["box"][0] >= 55  # the span starts at the text, not at the dot
        for x0, y0, x1, y1 in dots:  # every dot exactly as drawn, with a pixel of margin
            assert np.array_equal(
                np.asarray(out)[y0 - 1 : y1 + 2, x0 - 1 : x1 + 2], np.asarray(img)[y0 - 1 : y1 + 2, x0 - 1 : x1 + 2]
            )
        new = next(ln for ln in ocr_lines(out) if want.split()[-1] in ln.text)
        assert new.words[-1].text.endswith(want.split()[-1]) and abs(new.words[1].box[0] - 57) <= 3  # not moved


def test_bullet_marks_are_not_words_but_letters_are():
    # A solid dot read as "e" is a mark; a real "o" or "e" leading a line is a word.
    img = Image.new("RGB", (400, 120), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.ellipse((20, 28, 28, 36), fill=INK)
    draw(img, (40, 40), "Sales", SANS, 18)
    draw(img, (20, 90), "o Sales", SANS, 18)
    lines = [
        Line((Word("e", (20, 28, 29, 37)), Word("Sales", (40, 26, 90, 40)))),
        Line((Word("o", (20, 80, 30, 90)), Word("Sales", (36, 76, 86, 90)))),
        Line((Word("•", (0, 0, 5, 5)), Word("Plan", (10, 0, 40, 12)))),
    ]
    out = without_bullets(np.asarray(img), lines)
    assert [ln.text for ln in out] == ["Sales", "o Sales", "Plan"]


def test_a_dot_read_as_two_characters_is_a_mark_but_a_short_word_is_not():
    # tesseract reads a sans page's bullet dot as "e@": its pixels are a solid dot, so it is a
    # mark; "to" and "Q1" leading a line are words (their pixels have counters and gaps).
    img = Image.new("RGB", (400, 160), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.ellipse((20, 28, 27, 35), fill=INK)
    draw(img, (40, 40), "Sales", SANS, 18)
    draw(img, (20, 90), "to Sales", SANS, 18)
    draw(img, (20, 140), "Q1 Sales", SANS, 18)
    to_box = (20, 76, 38, 90)
    q1_box = (20, 126, 42, 144)
    lines = [
        Line((Word("e@", (19, 27, 29, 37)), Word("Sales", (40, 26, 90, 40)))),
        Line((Word("to", to_box), Word("Sales", (44, 76, 94, 90)))),
        Line((Word("Q1", q1_box), Word("Sales", (48, 126, 98, 140)))),
    ]
    out = without_bullets(np.asarray(img), lines)
    assert [ln.text for ln in out] == ["Sales", "to Sales", "Q1 Sales"]


def with_element(question: str, element: ElementSpec) -> Check:
    """A check whose compiled spec names ``element`` (as the question compiler fills it)."""
    spec = compile_question(question)
    spec = replace(spec, text=replace(spec.text, element=element))
    return Check("1", question, expects=expectations_of(spec), spec=spec)


def test_missing_table_cell_goes_into_its_empty_cell():
    img = Image.new("RGB", (600, 300), (250, 250, 248))
    for x, t in ((40, "Region"), (240, "Q1"), (380, "Q2")):
        draw(img, (x, 60), t, SANS_BOLD, 20)
    for y, row in ((110, ("North", "12", "15")), (150, ("South", "9")), (190, ("West", "14", "18"))):
        for x, t in zip((40, 240, 380), row):
            draw(img, (x, y), t, SANS, 20)
    editor = TextEditor()
    chk = with_element(
        "Does the cell in the 'South' row and 'Q2' column read '11'?",
        ElementSpec("table_cell", row="South", column="Q2"),
    )
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "place (in its cell: 'South', 'Q2')"
    x0, y0, x1, y1 = act["box"]
    assert abs(x0 - 382) <= 3 and abs(y1 - 150) <= 2  # the column's left edge ("15", "18"), the row's baseline
    assert not act["type"]["bold"] and abs(act["type"]["size"] - 20) <= 1  # the column's cells' type
    assert changed_outside(img, out, act["boxes"]) == 0
    assert read(out).count("11") == 1


def test_missing_menu_item_goes_under_the_last_item_of_its_column():
    img = Image.new("RGB", (600, 360), (255, 255, 255))
    ImageDraw.Draw(img).rectangle([0, 0, 180, 360], fill=(236, 239, 244))
    draw(img, (220, 60), "Welcome back", SANS_BOLD, 28)
    for k, t in enumerate(("Home", "Shop", "About")):
        draw(img, (24, 80 + 40 * k), t, SANS, 18)
    editor = TextEditor()
    chk = with_element("Does the fourth menu item read 'Contact'?", ElementSpec("list_item", ordinal=4))
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "place (item 4 of its list)"
    x0, y0, x1, y1 = act["box"]
    assert abs(x0 - 24) <= 3 and abs(y1 - 200) <= 2  # the list's left edge, its 40 px pitch
    assert changed_outside(img, out, act["boxes"]) == 0
    # the fifth item has no fourth before it: no slot, nothing written
    editor.edit(img, "", failed(with_element("Is the fifth menu item 'Help'?", ElementSpec("list_item", ordinal=5))), 0)
    assert editor.last_actions[0]["action"].startswith("skip: missing, and the page offers no slot for it")


def test_the_version_in_the_card_the_check_names_is_the_wrong_one():
    # Two cards hold a version of "18,450"; the check names the Revenue card: its number is fixed,
    # the other card's is another label and stays.
    img = Image.new("RGB", (560, 260), (246, 247, 250))
    d = ImageDraw.Draw(img)
    for k, (label, value) in enumerate((("Revenue", "18,540"), ("Orders", "18,460"))):
        x = 30 + 260 * k
        d.rounded_rectangle([x, 60, x + 230, 200], radius=10, fill=(255, 255, 255), outline=(210, 214, 222))
        draw(img, (x + 20, 100), label, SANS, 16, (90, 95, 110))
        draw(img, (x + 20, 160), value, SANS_BOLD, 34)
    editor = TextEditor()
    chk = with_element("Does the Revenue card show exactly '18,450'?", ElementSpec("card", container="Revenue"))
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["was"] == "18,540" and act["box"][2] < 260
    assert sorted(read(out)) == ["18,450", "18,460", "Orders", "Revenue"]


def footer_page(footer: str):
    """A poster body with a bulleted list and a small footer line in the bottom band."""
    img = Image.new("RGB", (640, 480), (252, 250, 246))
    d = ImageDraw.Draw(img)
    draw(img, (40, 70), "Food Market Days", SERIF_BOLD, 34)
    for k, item in enumerate(("Fresh bread every morning", "Local farmers and growers")):
        y = 150 + 44 * k
        d.ellipse([44, y - 12, 52, y - 4], fill=INK)
        draw(img, (64, y), item, SANS, 18)
    d.line([40, 420, 600, 420], fill=(200, 196, 188), width=1)
    draw(img, (40, 452), footer, SANS, 13, (110, 110, 118))
    return img


def test_the_named_footer_with_words_dropped_is_rewritten_in_place_not_added_beside():
    # "More at" is far from "More at www.foodmarket.org" by characters (similarity 0.27), but it
    # is the whole text of the one footer the check names: its wrong version, fixed in place.
    img = footer_page("More at")
    editor = TextEditor()
    chk = check("1", "Does the footer source note read exactly 'More at www.foodmarket.org'?")
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["was"] == "More at"
    assert act["box"][1] > 420  # under the footer rule, where "More at" stood
    after = read(out)
    assert sum("foodmarket" in t for t in after) == 1 and "More at" not in after
    assert "Food Market Days" in after and any(t.endswith("Fresh bread every morning") for t in after)
    assert changed_outside(img, out, act["boxes"]) == 0


def test_without_a_named_element_a_short_remnant_is_not_taken_for_the_string():
    # The same page asked without naming the footer: "More at" is not located, so it is a
    # possible wrong version the editor will not write beside: nothing is written.
    img = footer_page("More at")
    editor = TextEditor()
    chk = check("1", "Is the text 'More at www.foodmarket.org' shown?")
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("skip")
    assert np.array_equal(np.asarray(out), np.asarray(img))


def test_a_right_aligned_footer_grows_to_the_left_when_a_word_is_put_back():
    # The footer and the date line above it end at the page's right margin: the rewrite keeps
    # that right edge instead of running "close" past the margin to the page's edge.
    img = Image.new("RGB", (800, 600), (246, 244, 240))
    d = ImageDraw.Draw(img)
    draw(img, (40, 80), "Operations Overview", SERIF_BOLD, 30)
    date_box = d.textbbox((750, 280), "Last updated October 18, 2024", font=SERIF.font(14), anchor="rs")
    d.text((750, 280), "Last updated October 18, 2024", font=SERIF.font(14), fill=INK, anchor="rs")
    d.line([30, 540, 750, 540], fill=(170, 170, 170), width=1)
    foot_box = d.textbbox((750, 570), "Source: Finance team monthly", font=SERIF.font(12), anchor="rs")
    d.text((750, 570), "Source: Finance team monthly", font=SERIF.font(12), fill=(100, 100, 100), anchor="rs")
    editor = TextEditor()
    chk = check("1", "Does the footer source note read exactly 'Source: Finance team monthly close'?")
    editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["type"]["align"] == "right"
    right = max(b[2] for b in act["inked"])
    assert abs(right - foot_box[2]) <= 3 and abs(right - date_box[2]) <= 3  # still on the right margin
    assert min(b[0] for b in act["inked"]) < foot_box[0] - 20  # "close" made it grow to the left


def menu_page(items):
    """A title band and a navigation row of ``(x, text)`` items (a gap where one is missing)."""
    img = Image.new("RGB", (800, 400), (255, 255, 255))
    ImageDraw.Draw(img).rectangle([0, 0, 800, 80], fill=(110, 30, 50))
    draw(img, (40, 55), "SALES KICKOFF", SERIF_BOLD, 32, (250, 250, 250))
    for x, t in items:
        draw(img, (x, 115), t, SERIF, 16)
    ImageDraw.Draw(img).line([30, 130, 770, 130], fill=(200, 200, 205))
    draw(img, (40, 170), "Board meeting, April 19, 2024", SERIF, 16)
    return img


def test_the_nth_menu_item_goes_into_the_gap_its_row_leaves_for_it():
    img = menu_page(((40, "Team"), (108, "Events"), (268, "Reports")))  # "Results" missing between
    editor = TextEditor()
    chk = check("1", 'Is the third item of the navigation menu from the left exactly "Results"?')
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"] == "place (item 3 of its row, in its gap)"
    x0, y0, x1, y1 = act["box"]
    assert 160 < x0 and x1 < 265 and abs(y1 - 115) <= 4  # between "Events" and "Reports", on the row's baseline
    assert changed_outside(img, out, act["boxes"]) == 0
    assert [t for t in read(out) if "Results" in t] and judged(out, chk) == "yes"


def test_a_row_without_a_gap_offers_no_slot_for_its_nth_item():
    # "Reports" stands where the third item is: the wanted "Results" may be another menu, not a
    # missing item, so nothing is written (before: no slot either, the same outcome by another rule)
    img = menu_page(((40, "Team"), (108, "Events"), (184, "Reports"), (270, "Help")))
    editor = TextEditor()
    chk = check("1", 'Is the third item of the navigation menu from the left exactly "Results"?')
    out = editor.edit(img, "", failed(chk), seed=0)
    [act] = editor.last_actions
    assert act["action"].startswith("skip")
    assert np.array_equal(np.asarray(out), np.asarray(img))
