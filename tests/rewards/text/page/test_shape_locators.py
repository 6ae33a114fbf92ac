"""Containers named by shape and colour (issue 31, BizGenEval phrasings of the dev half: "the top
dark blue rounded rectangle", "the circular icon", "the left vertical blue phase box"): the
container measured from drawn pixels (``shapes``), the phrase read (``shape_locators``), and the
verdict both ways on drawn pages whose OCR lines are given (no tesseract), as ``test_grid_locators``."""

import pytest
from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.page.page_lines import _Page
from rewards.text.page.shape_locators import is_shape, parse_shape
from rewards.text.page.shapes import colour_words, container_around
from rewards.text.questions.question_compiler import compile_question

NAVY, BLUE, RED, GREEN, WHITE = (30, 50, 130), (40, 90, 210), (210, 40, 40), (40, 160, 70), (255, 255, 255)


def draw(shapes, size=(900, 700), page=(250, 250, 250)):
    """A page with ``shapes``: (kind, box, fill, text); the text is drawn in the shape's middle
    (white on a dark fill) and its OCR line given. Kinds: rect, rounded, circle, pill, framed."""
    im = Image.new("RGB", size, page)
    d = ImageDraw.Draw(im)
    lines = []
    for kind, (x0, y0, x1, y1), fill, text in shapes:
        if kind == "rect":
            d.rectangle((x0, y0, x1, y1), fill=fill)
        elif kind == "circle":
            d.ellipse((x0, y0, x1, y1), fill=fill)
        elif kind in ("rounded", "pill"):
            radius = (y1 - y0) // 2 if kind == "pill" else 18
            d.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=fill)
        elif kind == "framed":
            d.rectangle((x0, y0, x1, y1), fill=page, outline=fill, width=3)
        h = 16
        w = round(0.6 * h * len(text)) + round(0.5 * h) * text.count(" ")
        x, y = (x0 + x1 - w) // 2, (y0 + y1 - h) // 2
        ink = WHITE if sum(fill) < 400 and kind != "framed" else (20, 20, 20)
        d.rectangle((x, y + 4, x + w, y + h - 4), fill=ink)  # the text's ink (a bar: OCR lines are given)
        lines.append(ocr_line(text, x, y, h))
    return im, lines


def page_of(im, lines):
    return _Page.of(lines, im, im.size)


def test_a_container_is_measured_by_its_shape():
    im, lines = draw(
        [
            ("circle", (40, 40, 200, 200), BLUE, "42"),
            ("rounded", (300, 60, 560, 160), NAVY, "Question"),
            ("rect", (620, 60, 860, 160), GREEN, "Total"),
            ("pill", (60, 300, 360, 360), RED, "NEW"),
            ("framed", (420, 280, 800, 420), NAVY, "Legend"),
        ]
    )
    page = page_of(im, lines)
    got = [container_around(page, ln.box) for ln in lines]
    assert got[0].shapes() == {"circle", "oval"}
    assert got[1].shapes() == {"rounded"}
    assert got[2].shapes() == {"rect"}
    assert got[3].shapes() == {"rounded", "pill"}
    assert got[4].shapes() == {"rect"} and got[4].box == (423, 283, 798, 418)  # the frame's inside
    assert {"blue", "dark", "navy"} <= colour_words(got[1].fill) and "green" not in colour_words(got[1].fill)
    assert colour_words(got[2].fill) >= {"green"} and "blue" not in colour_words(got[2].fill)
    assert colour_words(got[4].fill) >= {"white", "light"}  # a framed box: its fill is the page's


def test_no_container_on_the_page_background_or_a_gradient():
    im, lines = draw([("rect", (40, 40, 300, 140), GREEN, "Total")])
    d = ImageDraw.Draw(im)
    for x in range(400, 800):  # a horizontal gradient band
        d.line((x, 300, x, 420), fill=(60 + (x - 400) // 2, 120, 255 - (x - 400) // 2))
    d.rectangle((560, 350, 640, 362), fill=WHITE)
    lines += [ocr_line("Loose", 60, 500, 16), ocr_line("Fade", 560, 348, 16)]
    page = page_of(im, lines)
    assert container_around(page, lines[1].box) is None  # on the page
    assert container_around(page, lines[2].box) is None  # on a gradient


def test_a_shape_phrase_is_read_and_others_are_not():
    asked = parse_shape("top dark blue rounded rectangle")
    assert asked["colours"] == {"dark", "blue"} and asked["positions"] == ["top"]
    assert asked["shapes"] == [{"rounded"}, {"rect", "rounded"}]
    assert parse_shape("left vertical blue phase box")["orient"] == "vertical"
    assert parse_shape("on the badge")["small"] and parse_shape("two solution step boxes") is None
    assert parse_shape("circle") is None  # what the compiler leaves of "the '01' circle"
    assert not is_shape("locator 'In the bottom-right legend box'")  # legend: a word of no shape
    assert not is_shape("locator 'in the upper central column'") and is_shape("locator 'circular icon'")


def verdict(question, im, lines):
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


CIRCLE = 'Does the text inside the blue circle read exactly "{}"?'
BUTTON = 'Is the text on the green button exactly "Buy now"?'
PHASE = "Is the left vertical blue phase box labeled exactly 'Prep'?"
TWO_BOXES = [("rounded", (300, 60, 600, 160), NAVY, "Question"), ("rounded", (300, 300, 600, 400), NAVY, "Answer")]
HIGH_BOXES = [("rounded", (300, 30, 600, 110), NAVY, "Question"), ("rounded", (300, 140, 600, 220), NAVY, "Answer")]


@pytest.mark.parametrize(
    "question, shapes, answer",
    [
        (CIRCLE.format("42"), [("circle", (40, 40, 200, 200), BLUE, "42")], "yes"),
        (CIRCLE.format("42"), [("circle", (40, 40, 200, 200), RED, "42")], "withheld"),
        (CIRCLE.format("42"), [("rect", (40, 40, 200, 200), BLUE, "42")], "withheld"),
        (CIRCLE.format("Sale"), [("circle", (40, 40, 200, 200), BLUE, "42")], "no"),
        (BUTTON, [("rounded", (40, 40, 240, 100), GREEN, "Buy now")], "yes"),
        # a button is small: a green panel of half the page is none
        (BUTTON, [("rect", (20, 20, 880, 400), GREEN, "Buy now")], "withheld"),
        (
            'Is the label in the dark box exactly "Legend"?',
            [("framed", (40, 40, 400, 200), NAVY, "Legend")],
            "withheld",
        ),
        ("Is the top dark blue rounded rectangle labeled exactly 'Question'?", TWO_BOXES, "yes"),
        # the lower box: the compiler's own "top" region refutes it (centre at half the height)
        ("Is the top dark blue rounded rectangle labeled exactly 'Answer'?", TWO_BOXES, "no"),
        # both in the top 40%: the lower one is no "top" box, though the region holds it
        ("Is the top dark blue rounded rectangle labeled exactly 'Answer'?", HIGH_BOXES, "withheld"),
        ("Is the top dark blue rounded rectangle labeled exactly 'Question'?", HIGH_BOXES, "yes"),
        (PHASE, [("rect", (40, 100, 140, 500), NAVY, "Prep")], "yes"),
        (PHASE, [("rect", (40, 100, 440, 200), NAVY, "Prep")], "withheld"),
    ],
)
def test_a_shaped_container_says_yes_only_when_it_matches(question, shapes, answer):
    im, lines = draw(shapes)
    assert verdict(question, im, lines) == answer


def test_the_string_beside_a_circle_but_outside_it_is_withheld():
    im, lines = draw([("circle", (40, 40, 200, 200), BLUE, "7")])
    ImageDraw.Draw(im).rectangle((240, 124, 260, 132), fill=(20, 20, 20))  # "42" on the page, right of it
    q = 'Does the circular icon contain exactly the single character "42"?'
    assert verdict(q, im, lines + [ocr_line("42", 240, 120, 16)]) == "withheld"
    assert verdict('Does the circular icon contain exactly the single character "7"?', im, lines) == "yes"


def test_a_container_labeled_exactly_holds_no_other_text():
    im, lines = draw([("rect", (40, 100, 160, 500), NAVY, "Prep")])
    ImageDraw.Draw(im).rectangle((60, 204, 100, 212), fill=WHITE)  # "Note:" above it, in the same box
    q = "Is the left vertical blue phase box labeled exactly 'Prep'?"
    assert verdict(q, im, lines + [ocr_line("Note:", 60, 200, 16)]) == "withheld"
    q = "Does the text in the left vertical blue phase box include 'Prep'?"
    assert verdict(q, im, lines + [ocr_line("Note:", 60, 200, 16)]) == "yes"
