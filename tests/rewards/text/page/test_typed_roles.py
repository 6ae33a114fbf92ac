"""Generic roles typed by the page (issue 31, ``rewards.text.page.generic_roles``): the string read
as a whole line passes for "the column header", "the row label" or "the course name" only where the
page's structure (a table's header row, its first column) or its type (two display lines, a label
above one) says it is that element; otherwise the element part is withheld, never "yes"."""

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.page.generic_roles import role_kind
from rewards.text.questions.question_compiler import compile_question


def line(text, x, y, h, w=None):
    """One OCR line of ``text`` at (x, y), height h px, its words 0.6 h per character, one space apart."""
    words, cx = [], x
    for t in text.split():
        ww = w or int(0.6 * h * len(t))
        words.append(Word(t, (cx, y, cx + ww, y + h), 95.0))
        cx += ww + int(0.4 * h)
    return Line(tuple(words))


def ask(page, size, question):
    return OCRJudge().judge_lines(page, size, Check("1", question, spec=compile_question(question)))


def test_role_kinds_from_the_phrase():
    kinds = ["column header", "row label", "card title", "brand name", "year label", "course name", "annotation"]
    got = [role_kind(p) for p in kinds]
    assert got == ["column_header", "row_label", "card_title", "nav", "content:year", "untyped", None]


CERTIFICATE = [
    line("Certificate of Completion", 265, 97, 44),
    line("This certifies that", 430, 174, 18),
    line("Maria Gonzalez", 370, 223, 36),
    line("has completed the course", 400, 285, 18),
    line("Advanced Data Analysis", 344, 324, 28),
    line("Issued on 12 March 2026", 409, 415, 18),
]


def test_two_display_lines_are_told_apart_only_by_a_label():
    def answer(q):
        return ask(CERTIFICATE, (1000, 700), q).answer

    assert answer('Does the course name read exactly "Advanced Data Analysis"?') == "yes"  # "course" above it
    assert answer('Does the course name read exactly "Maria Gonzalez"?') == "withheld"
    assert answer('Does the recipient name read exactly "Advanced Data Analysis"?') == "withheld"
    v = ask(CERTIFICATE, (1000, 700), 'Does the recipient name read exactly "Maria Gonzalez"?')
    assert v.answer == "withheld" and "element 'the recipient name'" in v.reason  # two names: which is which
    assert answer('Does the course name read exactly "Data Analysis"?') == "no"  # only inside a longer line
    assert answer('Does the certificate title read exactly "Certificate of Completion"?') == "yes"


TABLE = [  # a heading, then a table: a header row and three data rows, one line per cell
    line("Sign-ups by channel", 40, 20, 30),
    *(line(t, x, 100, 16) for t, x in [("Channel", 40), ("Q1", 240), ("Q2", 340), ("Q3", 440)]),
    *(
        line(t, x, y, 16)
        for y, row in [(140, ("Email", "120", "135", "150")), (180, ("Search", "90", "95", "99"))]
        for t, x in zip(row, (40, 240, 340, 440))
    ),
    *(line(t, x, 220, 16) for t, x in zip(("Social", "60", "64", "70"), (40, 240, 340, 440))),
]


def test_table_headers_and_row_labels_need_the_table():
    def answer(q):
        return ask(TABLE, (600, 300), q).answer

    assert answer('Does the column header read exactly "Q2"?') == "yes"
    v = ask(TABLE, (600, 300), 'Does the column header read exactly "Email"?')  # a row label
    assert v.answer == "no" and "'Channel' / 'Q1' / 'Q2' / 'Q3'" in v.reason, v.reason
    assert answer('Does the row label read exactly "Search"?') == "yes"
    assert answer('Does the row label read exactly "Q3"?') == "no"  # a column header
    assert answer('Does the column header read exactly "Q4"?') == "no"  # not read at all
    assert answer('Does the column header read exactly "Sign-ups by channel"?') == "withheld"  # not in the table
    # one header read unsure ("Q1" at confidence 40): the headers are not all read, no "no"
    unsure = [Line(tuple(Word(w.text, w.box, 40.0 if w.text == "Q1" else 95.0) for w in ln.words)) for ln in TABLE]
    assert ask(unsure, (601, 300), 'Does the column header read exactly "Email"?').answer == "withheld"


TIMELINE = [  # a heading, then three years in a row, each over a line of body text
    line("Our Journey", 40, 30, 40),
    *(line(y, x, 120, 26) for y, x in [("2019", 40), ("2021", 340), ("2023", 640)]),
    *(line(t, x, 160, 14) for t, x in [("Founded in Lisbon", 40), ("First customers", 340), ("Series A", 640)]),
]


def test_a_year_in_a_row_of_years_is_no_heading():
    def answer(q):
        return ask(TIMELINE, (900, 260), q).answer

    assert answer('Does the heading read exactly "2019"?') == "withheld"
    assert answer('Does the heading read exactly "Our Journey"?') == "yes"
    assert answer('Does the year label read exactly "Our Journey"?') == "withheld"  # not a year
    assert answer('Does the year label read exactly "2021"?') == "yes"
    assert answer('Does the brand name read exactly "Our Journey"?') == "withheld"  # no nav bar found


def admin_page():
    """900x360: a dark sidebar of links, a bordered white card holding a title and a value."""
    from PIL import Image, ImageDraw, ImageFont

    sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    img = Image.new("RGB", (900, 360), (242, 243, 245))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 220, 360], fill=(31, 41, 55))
    for k, name in enumerate(["Overview", "Orders", "Customers"]):
        d.text((24, 40 + 40 * k), name, font=ImageFont.truetype(sans, 18), fill=(230, 230, 230))
    d.rounded_rectangle([300, 60, 600, 180], radius=8, fill=(255, 255, 255), outline=(170, 170, 170), width=2)
    d.text((320, 80), "Open orders", font=ImageFont.truetype(sans, 16), fill=(90, 90, 90))
    d.text((320, 110), "1,284", font=ImageFont.truetype(sans, 36), fill=(0, 0, 0))
    return img


def test_a_card_title_is_the_top_line_of_a_card():
    import shutil

    import pytest

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract binary not installed")
    questions = [
        ('Does the card title read exactly "Open orders"?', "yes"),
        ('Does the card title read exactly "Orders"?', "withheld"),  # a sidebar link, not in a card
        ('Does the card title read exactly "1,284"?', "withheld"),  # in the card, not its top line
    ]
    checks = [Check(str(k), q, spec=compile_question(q)) for k, (q, _) in enumerate(questions)]
    verdicts = OCRJudge().judge([admin_page()], [""], [checks])[0]
    assert [v.answer for v in verdicts] == [a for _, a in questions], [v.reason for v in verdicts]
