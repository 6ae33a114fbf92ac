"""Rule "beneath the Nth drawn object of a row" (issue 31, the BizGenEval dev half's "three-line caption
beneath the eighth bottle from the left"): the phrase read (``object_locators.parse_object``) and the
verdict both ways on drawn pages whose OCR lines are given (no tesseract), as ``test_shape_locators``."""

import pytest
from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.page.locators import page_resolvable
from rewards.text.page.object_locators import parse_object
from rewards.text.questions.question_compiler import compile_question

YEARS = ["Cedar", "Pecan", "Teak", "Yew", "Cherry", "Date"]
NAMES = ["Gray jar", "Red pot", "Tan cup", "Dark vat", "Pale jug", "Fawn tub"]
"""Caption lines without look-alike glyphs (1/l/I, 0/O, 5/S: the drawn ink bars cannot tell them)."""


def bottles(n=6, captions=None, extra=False, missed=None, size=(1100, 520)):
    """A row of ``n`` drawn bottles (a dark rounded body and neck) 150 px apart, each with a two-line
    caption under it (year, name; OCR lines given, drawn as ink bars). ``captions``: the captions
    (default YEARS, NAMES); ``extra``: one more bottle right of the row, without a caption;
    ``missed``: the index of a caption drawn but not read by OCR."""
    captions = captions or list(zip(YEARS, NAMES))
    im = Image.new("RGB", size, (250, 248, 240))
    d = ImageDraw.Draw(im)
    lines = []
    for k in range(n + extra):
        mid = 100 + 150 * k
        d.rounded_rectangle((mid - 22, 200, mid + 22, 330), radius=10, fill=(40, 90, 60))
        d.rectangle((mid - 7, 160, mid + 7, 200), fill=(40, 90, 60))
        if k >= n:
            continue
        for j, text in enumerate(captions[k]):
            h, y = 16, 345 + 24 * j
            w = round(0.6 * h * len(text)) + round(0.5 * h) * text.count(" ")
            d.rectangle((mid - w // 2, y + 4, mid + w // 2, y + h - 4), fill=(20, 20, 20))
            if k != missed:
                lines.append(ocr_line(text, mid - w // 2, y, h))
    return im, lines


def verdict(question, im, lines):
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


Q = "Does the two-line caption beneath the {} bottle from the {} read exactly: '{}' and '{}'?"


def test_the_phrase_is_read_and_others_are_not():
    assert parse_object("locator 'beneath the eighth bottle from the left'") == (8, False, False)
    assert parse_object("locator 'directly below the second image from the right'") == (2, True, False)
    assert parse_object("locator 'beneath the twelfth and rightmost bottle'") == (12, False, True)
    assert parse_object("locator 'beneath the third bottle'") is None  # counted from which side?
    assert parse_object("locator 'beneath the third heading from the left'") is None  # text: not an object
    assert parse_object("locator 'beneath the first bottle from the left and right'") is None
    spec = compile_question(Q.format("third", "left", YEARS[2], NAMES[2]))
    assert page_resolvable(spec.vlm_parts, len(spec.text.texts))


@pytest.mark.parametrize(
    "ordinal, side, k, answer",
    [
        ("third", "left", 2, "yes"),
        ("fourth", "right", 2, "yes"),  # six bottles: the fourth from the right is the third from the left
        ("second", "left", 2, "withheld"),  # the strings stand under the third bottle, not the second
        ("third", "right", 2, "withheld"),
        ("sixth", "left", 5, "yes"),
    ],
)
def test_the_caption_under_the_nth_object(ordinal, side, k, answer):
    im, lines = bottles()
    assert verdict(Q.format(ordinal, side, YEARS[k], NAMES[k]), im, lines) == answer


def test_the_twelfth_and_rightmost():
    im, lines = bottles()
    q = "Does the two-line caption beneath the sixth and rightmost bottle read exactly: 'Date' and 'Fawn tub'?"
    assert verdict(q, im, lines) == "yes"
    q = "Does the two-line caption beneath the fifth and rightmost bottle read exactly: 'Cherry' and 'Pale jug'?"
    assert verdict(q, im, lines) == "withheld"  # the fifth is not the rightmost


def test_a_row_that_cannot_be_counted_is_withheld():
    q = Q.format("third", "left", YEARS[2], NAMES[2])
    im, lines = bottles(missed=0)  # the first caption unread: the third read is the fourth bottle's
    assert verdict(Q.format("third", "left", YEARS[3], NAMES[3]), im, lines) == "withheld"
    im, lines = bottles(extra=True)  # a seventh bottle without a caption: counting from the right is off
    assert verdict(Q.format("fourth", "right", YEARS[2], NAMES[2]), im, lines) == "withheld"
    im = Image.new("RGB", (1100, 520), (250, 248, 240))  # captions, no bottles
    assert verdict(q, im, bottles()[1]) == "withheld"
    ImageDraw.Draw(im).rectangle((40, 250, 960, 330), fill=(40, 90, 60))  # one banner over them all
    assert verdict(q, im, bottles()[1]) == "withheld"


def test_a_row_of_objects_read_as_one_tall_garbage_line_still_counts():
    im, lines = bottles()
    garbage = ocr_line("TOO", 78, 160, 170)  # tesseract's reading of the bottles: one line 170 px tall
    assert verdict(Q.format("third", "left", YEARS[2], NAMES[2]), im, lines + [garbage]) == "yes"


def test_a_wrong_caption_is_no():
    im, lines = bottles()
    assert verdict(Q.format("third", "left", YEARS[2], "Tan cap"), im, lines) == "no"
