"""More "yes" without a false "yes" on a ninth and a tenth tester's pages (issue 31, judge13): each
class of withheld true question found on the dev split of ``benchmarks/fresh9_pages.py`` and
``benchmarks/fresh10_pages.py``, on the real page drawn by the set's templates (matplotlib or
Chromium) and judged by the real OCR judge, each test naming the cause, the general fix, and a wrong
string or element that stays refuted (or is not confirmed)."""

import shutil

import pytest
from test_tester10_pages import verdicts

from benchmarks import fresh9_pages, fresh10_pages, tester_set

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def page(ts, name: str, seed: int, path):
    """Template ``name`` of tester set ``ts`` drawn with the content of ``seed`` into ``path`` (a
    Chromium template in a browser of its own)."""
    from PIL import Image

    if name in ts.html:
        from documents.engines.browser import Browser

        with Browser() as browser:
            tester_set.render(ts, name, seed, {}, path, browser)
    else:
        tester_set.render(ts, name, seed, {}, path, None)
    return Image.open(path).convert("RGB")


FOOTER = 'Does the footer read exactly "{}"?'
ROW = 'Is the {} row label in the first column exactly "{}"?'


@needs_chromium
@needs_tesseract
def test_a_footer_above_the_image_bottom_band(tmp_path):
    """A boarding pass drawn on a card ends at 66% of the image height, its footer "Gate closes 20
    minutes before departure." above the bottom band the footer finder looked in: no footer was
    found and the footer left to a VLM (fresh10 boarding passes, fresh9 receipts and newsletters:
    12 withheld on dev). With no small line in the bottom band, the page's lowest line is its
    footer when it is small type, read sure, in the lower half and set apart from the text above
    it (``footers.lowest_footer``): confirmed; another line of the page asked as the footer refuted."""
    image = page(fresh10_pages.SET, "boarding_pass", 8, tmp_path / "pass.png")
    asked = ["Gate closes 20 minutes before departure.", "Flight", "Gate closes 20 minutes before departures."]
    assert verdicts(image, [FOOTER.format(t) for t in asked]) == ["yes", "no", "no"]


@needs_tesseract
def test_panel_titles_of_a_small_multiples_figure_are_headings(tmp_path):
    """A 2x2 figure titles each panel ("Finance department", "Legal department") over its plot: the
    heading finder measures a line against the body under it, a plot is none, and the titles were
    left to a VLM; "department" after "Legal" was also read alone with the "l" before it
    ("|department"), so the m / rn check could not confirm it (fresh9-multiples-2, -11: 12 withheld
    on dev). Display type over a column of y tick numbers, nothing read under it, two or more in
    one size, is a heading (``panel_titles``); a word is read alone without its neighbours' ink
    (``word_reread._alone``): both confirmed; a panel title not on the page refuted."""
    image = page(fresh9_pages.SET, "multiples", 2, tmp_path / "multiples.png")
    q = 'Is there a section heading that reads exactly "{}"?'
    asked = ["Finance department", "Legal department", "Research department"]
    assert verdicts(image, [q.format(t) for t in asked]) == ["yes", "yes", "no"]


@needs_chromium
@needs_tesseract
def test_a_header_less_two_column_table_counts_its_first_row(tmp_path):
    """A spec sheet's "Weight | 1.4 kg" rows are a table of two columns with no header: tables
    needed three columns, and "the third row label in the first column" was left to a VLM
    (fresh10 spec sheets: 4 withheld on dev). A two-column table whose first row is set as its
    body (not bold, same ink colour and size: ``two_column``) counts rows from it: the Nth row label
    confirmed; a label asked one row off is not confirmed."""
    image = page(fresh10_pages.SET, "spec_sheet", 15, tmp_path / "spec.png")
    asked = [("first", "Weight"), ("third", "Connectivity"), ("second", "Weight")]
    assert verdicts(image, [ROW.format(*a) for a in asked]) == ["yes", "yes", "withheld"]


@needs_chromium
@needs_tesseract
def test_a_two_column_table_under_a_bold_header(tmp_path):
    """A receipt's items are a table of two columns under a bold header "Item | EUR": the header of
    the second column and the fourth row label were left to a VLM (fresh9 receipts: 6 withheld
    on dev). A first row measured bold over regular body cells is the header (``two_column``):
    the header and the row label confirmed; the other column's header asked refuted."""
    image = page(fresh9_pages.SET, "receipt", 13, tmp_path / "receipt.png")
    asked = [
        'Is the header of the second column exactly "EUR"?',
        ROW.format("fourth", "Cheddar block"),
        'Is the header of the first column exactly "EUR"?',
    ]
    assert verdicts(image, asked) == ["yes", "yes", "no"]


def test_a_title_split_at_a_wide_word_space_is_not_refuted():
    """A receipt's monospaced title "Fennel & Fig Deli" was read by tesseract's sparse mode as two
    lines side by side, "Fennel & Fig" and "Deli" (17 px apart, a monospaced word space), and the
    strip read again gave "Fennel & Fig 9" with the line under it: "no" (fresh9-receipt-13: 2 false
    no on dev). A string read exactly as two lines of one row a word space apart is withheld
    (``ocr_doubt`` rule 5d); a string one letter off stays "no"."""
    from judge_helpers import judge_question

    from rewards.text.ocr.text_match import Line, Word

    rows = [
        [("Fennel", (109, 42, 193, 60)), ("&", (209, 44, 223, 60)), ("Fig", (239, 42, 279, 65))],
        [("Deli", (296, 42, 352, 60))],
        [("9", (181, 72, 189, 83)), ("Mill", (198, 71, 234, 83)), ("Lane", (245, 72, 279, 83))],
        [("Item", (31, 116, 66, 127))],
        [("Greek", (31, 138, 77, 150)), ("yoghurt", (88, 138, 153, 153))],
    ]
    lines = [Line(tuple(Word(t, b, 96.0) for t, b in row)) for row in rows]
    q = 'Does the main title at the top of the page read exactly "{}"?'
    assert judge_question(q.format("Fennel & Fig Deli"), lines, (460, 640)).answer == "withheld"
    assert judge_question(q.format("Fennel & Fig Dell"), lines, (460, 640)).answer == "no"


@needs_chromium
@needs_tesseract
def test_an_accordions_bold_questions_with_a_capital_i_read_as_a_bar(tmp_path):
    """An FAQ accordion's questions are bold, one per bordered row; the open one heads its answer
    and was a heading, the closed ones have no body under them and were left to a VLM; and the
    bold sans "I" was read "|" ("Can | pause my subscription?") or joined as "!" ("How do! add a
    team member?"): "differs only in look-alike glyphs" (fresh10-faq-5, -14: 14 withheld on dev).
    Bold lines at a found bold heading's left edge in its size are headings
    (``heading_series``), and a bar whose ink is one even stem from the capitals' top to the
    baseline is read "I" where the string asked has one (``bar_glyphs``): confirmed; a question not
    on the page refuted, and "l" asked for that "I" not confirmed."""
    image = page(fresh10_pages.SET, "faq", 5, tmp_path / "faq.png")
    q = 'Is there a section heading that reads exactly "{}"?'
    asked = [
        "Which payment methods do you accept?",
        "Can I pause my subscription?",
        "How do I add a team member?",
        "How do I reset my passwords?",
        "Can l pause my subscription?",
    ]
    assert verdicts(image, [q.format(t) for t in asked]) == ["yes", "yes", "yes", "no", "withheld"]


def test_a_bar_is_read_i_only_as_a_capitals_stem():
    """The ink rule of ``bar_glyphs.bars_as_i`` on PIL drawings in Liberation Sans Bold, 17 px: a
    drawn "I" read "|" is read "I"; a drawn "|" (below the baseline), "!" (its dot apart) and "1"
    (its flag) stay as read."""
    from PIL import Image, ImageDraw, ImageFont

    from rewards.text.ocr.bar_glyphs import bars_as_i
    from rewards.text.ocr.text_match import Line, Word

    font = ImageFont.truetype("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf", 17)
    out = []
    for glyph in ("I", "|", "!", "1"):
        image = Image.new("RGB", (300, 40), "white")
        draw = ImageDraw.Draw(image)
        boxes = []
        x = 10
        for text in ("Can", glyph, "pause"):
            box = draw.textbbox((x, 10), text, font=font)
            draw.text((x, 10), text, font=font, fill=(30, 30, 40))
            boxes.append(box)
            x = box[2] + 5
        words = [Word(t, b, 90.0) for t, b in zip(("Can", "|", "pause"), boxes)]  # as tesseract reads each
        out.append(bars_as_i(image, [Line(tuple(words))], ["Can I pause"])[0].text)
    assert out == ["Can I pause", "Can | pause", "Can | pause", "Can | pause"]
