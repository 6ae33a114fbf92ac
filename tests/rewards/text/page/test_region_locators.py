"""Region locators of BizGenEval phrasings (issue 31, dev half): "in the left column", "in the upper
central column", "in the lower-right white section", "at the very bottom of the full figure"; on
tiny pages whose OCR lines are given (no tesseract), as ``test_locators``."""

import pytest
from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.page.locators import page_resolvable, resolve_locators
from rewards.text.page.region_locators import in_region, is_region, parse_region
from rewards.text.questions.question_compiler import compile_question

W, H = 1000, 700


def verdict(question: str, lines, im=None) -> str:
    im = im or Image.new("RGB", (W, H), (250, 250, 250))
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


def three_columns(asked: str, column: int, y: int = 200):
    """A page title and three columns of lines (x = 40, 370, 700), ``asked`` in column ``column`` at ``y``."""
    lines = [ocr_line("Quarterly Review", 40, 20, 30)]
    for k, x in enumerate((40, 370, 700)):
        for j, t in enumerate(("Team overview", "Budget notes", "Open items")):
            lines.append(ocr_line(f"{t} {k}", x, 120 + 160 * j, 14))
        if k == column:
            lines.append(ocr_line(asked, x, y, 14))
    return lines


def test_region_phrases_are_read_from_position_words_and_region_nouns_only():
    for phrase in ("on the left page", "in the upper central column", "in the lower-right white section",
                   "at the very bottom of the full figure", "center", "in the middle row"):  # fmt: skip
        assert is_region(f"locator '{phrase}'"), phrase
    # an element noun, a rank among siblings, a region of an element: no region of the page
    # "the top row" is a grid's first row (grid_locators), not the top of the page
    for phrase in ("in the upper central table", "the leftmost callout", "in the second row", "in the top row",
                   "near the top-left of the green region", "at its top-left", "lower panel"):  # fmt: skip
        assert not is_region(f"locator '{phrase}'"), phrase
    # "the center" "of Site A's donut": the centre of an element, not of the page
    assert not page_resolvable(["locator 'center'", "locator 'of Site A’s donut'"])
    assert page_resolvable(["locator 'center'"])


def test_region_bounds_compose_and_keep_a_central_column_string_out_of_the_left():
    upper_central = parse_region("in the upper central column")
    assert set(upper_central) == {"x", "y"}  # central on x (a column), upper on y
    # a short line at the left edge of the central column of three (x from 370 of 1000) is not left
    box = (370, 200, 470, 214)
    assert not in_region(box, parse_region("in the left column"), (W, H))
    assert in_region(box, parse_region("in the central column"), (W, H))
    assert in_region(box, upper_central, (W, H))
    assert not in_region((370, 500, 470, 514), upper_central, (W, H))
    # "right" of "the large right page" names the page of a spread; "center-left" a region of it
    assert parse_region("on the center-left of the large right page") == {
        "page": (1.0, 1.0, 1.0, 1.0), "y": (0.36, 0.64, 0.2, 0.8), "x": (0.0, 0.4, 0.0, 0.55)
    }  # fmt: skip
    assert parse_region("on the left and right") is None  # left and right: no region


@pytest.mark.parametrize(
    "question, column, y, answer",
    [
        ('Does the caption in the left column read exactly "Fresh fruit cup"?', 0, 200, "yes"),
        ('Does the caption in the left column read exactly "Fresh fruit cup"?', 1, 200, "withheld"),
        ('Does the caption in the left column read exactly "Fresh fruit cup"?', 2, 200, "withheld"),
        ('Does the caption in the left column read exactly "Fresh fruit cap"?', 0, 200, "no"),
        ('Does the text in the upper central column read exactly "Organic Living"?', 1, 200, "yes"),
        # read only in the bottom half: the compiler's own place ("top") says no
        ('Does the text in the upper central column read exactly "Organic Living"?', 1, 560, "no"),
        ('Does the text in the upper central column read exactly "Organic Living"?', 0, 200, "withheld"),
        ('In the lower-right white section, is there a line reading exactly "Call us today"?', 2, 560, "yes"),
        ('In the lower-right white section, is there a line reading exactly "Call us today"?', 2, 200, "no"),
        # in the right half but high, with the compiler's place met: the rule's region withholds
        ('In the lower-right white section, is there a line reading exactly "Call us today"?', 2, 380, "withheld"),
        ('In the lower-right white section, is there a line reading exactly "Call us todax"?', 2, 560, "no"),
    ],
)
def test_a_region_locator_says_yes_in_the_region_and_withholds_elsewhere(question, column, y, answer):
    asked = {"Fresh": "Fresh fruit cup", "Organic": "Organic Living", "Call": "Call us today"}
    text = next(v for k, v in asked.items() if k in question)
    assert verdict(question, three_columns(text, column, y)) == answer


def test_the_very_bottom_is_the_last_strip_of_the_page():
    q = 'At the very bottom of the full figure, is there a centered footnote reading exactly "Colors are classes."?'
    body = [ocr_line("Node classes", 40, 20, 30), ocr_line("Input graph", 300, 300, 16)]
    assert verdict(q.replace("centered ", ""), body + [ocr_line("Colors are classes.", 380, 660, 12)]) == "yes"
    assert verdict(q.replace("centered ", ""), body + [ocr_line("Colors are classes.", 380, 480, 12)]) == "withheld"


def spread(seam: int = 380):
    """A two-page spread: a white left page up to ``seam``, a grey right page after it."""
    im = Image.new("RGB", (W, H), (255, 255, 255))
    ImageDraw.Draw(im).rectangle((seam, 0, W, H), fill=(215, 215, 215))
    return im


def test_a_page_of_a_spread_is_found_at_its_seam_not_at_the_half():
    q = 'Does the text on the {} page read exactly "Twilight Ring"?'
    lines = [ocr_line("Lumine", 40, 30, 30), ocr_line("Shop all rings", 600, 30, 20)]
    ring = ocr_line("Twilight Ring", 420, 300, 16)  # on the right page, in the left half of the image
    for side, answer in (("right", ["locator 'on the right page'"]), ("left", [])):
        spec = compile_question(q.format(side))
        assert spec.text.region is None  # no half of the image: the pages of a spread need not be halves
        got = resolve_locators(list(spec.vlm_parts), spec.text, lines + [ring], spread(), (W, H))[0]
        assert got == answer, (side, got)
        assert verdict(q.format(side), lines + [ring], spread()) == ("yes" if answer else "withheld")
    # no seam (one white page): "the right page" is not resolved
    spec = compile_question(q.format("right"))
    assert (
        resolve_locators(
            ["locator 'right page'"], spec.text, lines + [ring], Image.new("RGB", (W, H), "white"), (W, H)
        )[0]
        == []
    )


def test_the_left_column_is_the_outermost_one_not_the_left_third():
    q = 'Does the caption in the left column read exactly "Fresh fruit cup"?'
    lines = [ocr_line("Quarterly Review", 40, 20, 30)]
    for k, x in enumerate((30, 265, 510, 755)):  # four columns; the second starts at 26% of the width
        lines += [ocr_line(f"Team {k}", x, 150 + 40 * j, 14) for j in range(4)]
    second = lines + [ocr_line("Fresh fruit cup", 265, 310, 14)]  # centre at 0.32 W: in the left third
    assert verdict(q, second) == "withheld"
    assert verdict(q, lines + [ocr_line("Fresh fruit cup", 30, 310, 14)]) == "yes"
