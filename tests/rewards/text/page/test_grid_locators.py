"""Grid-row locators of BizGenEval phrasings (issue 31, dev half): "in the second row of the racks
grid", "in the upper-center of the first reasoning row"; on drawn grids of bordered boxes whose OCR
lines are given (no tesseract), as ``test_locators``."""

import pytest
from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.page.grid_locators import is_row, parse_row
from rewards.text.questions.question_compiler import compile_question


def grid(asked: str, row: int, col: int, rows: int = 3, second_grid: bool = False):
    """A title and ``rows`` rows of three bordered boxes (240 x 120 px), two lines in each; ``asked``
    is the first line of box (``row``, ``col``); ``second_grid``: a row of small boxes under it."""
    im = Image.new("RGB", (1000, 120 + 160 * rows + 200), (250, 250, 250))
    d = ImageDraw.Draw(im)
    lines = [ocr_line("Warehouse racks", 40, 20, 30)]
    for r in range(rows):
        for c in range(3):
            x, y = 60 + 300 * c, 100 + 160 * r
            d.rectangle((x, y, x + 240, y + 120), outline=(40, 40, 40), width=2)
            first = asked if (r, c) == (row, col) else f"Rack {r}{c}"
            lines += [ocr_line(first, x + 20, y + 20, 14), ocr_line(f"Bins {r * 3 + c}", x + 20, y + 80, 14)]
    if second_grid:
        y = 120 + 160 * rows
        for c in range(4):
            x = 60 + 200 * c
            d.rectangle((x, y, x + 120, y + 50), outline=(40, 40, 40), width=2)
            d.rectangle((x, y + 70, x + 120, y + 120), outline=(40, 40, 40), width=2)
            lines += [ocr_line(f"Tag {c}", x + 20, y + 15, 14), ocr_line(f"Note {c}", x + 20, y + 85, 14)]
    return im, lines


def verdict(question: str, im, lines) -> str:
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


def test_a_grid_row_is_named_by_its_ordinal_not_by_a_table_word():
    assert parse_row("locator 'in the second row of the racks grid'") == (2, None)
    assert parse_row("locator 'bottom row'") == (-1, None)
    ordinal, bounds = parse_row("locator 'in the upper-center of the first reasoning row'")
    assert ordinal == 1 and set(bounds) == {"x", "y"}
    assert not is_row("locator 'in the first data row'")  # a table's first data row is its second row
    assert not is_row("locator 'header row'") and not is_row("locator 'in the center of the green row'")


RACK = 'In the {} row of the racks grid, does the bin card read exactly "{}"?'


@pytest.mark.parametrize(
    "question, row, col, answer",
    [
        (RACK.format("second", "Bin 24"), 1, 2, "yes"),
        (RACK.format("second", "Bin 24"), 0, 2, "withheld"),  # read in the first row
        (RACK.format("second", "Bin 24"), 2, 0, "withheld"),
        (RACK.format("second", "Bin 25"), 1, 2, "no"),  # read nowhere
        (RACK.format("last", "Bin 24"), 2, 1, "yes"),
        ('Does the label in the upper-center of the first reasoning row read exactly "Bin 24"?', 0, 1, "yes"),
        ('Does the label in the upper-center of the first reasoning row read exactly "Bin 24"?', 0, 0, "withheld"),
        ('Does the label at the left side of the third reasoning row read exactly "Bin 24"?', 2, 0, "yes"),
        ('Does the label at the left side of the third reasoning row read exactly "Bin 24"?', 2, 2, "withheld"),
        # on the left, but in the first row: "left" bounds x alone, the row still bounds y
        ('Does the label at the left side of the third reasoning row read exactly "Bin 24"?', 0, 0, "withheld"),
    ],
)
def test_a_grid_row_says_yes_in_that_row_and_withholds_in_another(question, row, col, answer):
    im, lines = grid("Bin 24", row, col)
    assert verdict(question, im, lines) == answer


def test_a_grid_row_is_withheld_when_the_count_could_be_off():
    q = RACK.format("second", "Bin 24")
    im, lines = grid("Bin 24", 1, 2, second_grid=True)  # two grids: the second row of which?
    assert verdict(q, im, lines) == "withheld"
    im, lines = grid("Bin 24", 1, 2)
    assert verdict(q, im, lines) == "yes"
    ImageDraw.Draw(im).rectangle((100, 60, 300, 90), outline=(30, 30, 30), width=2)  # a frame OCR read nothing in
    assert verdict(q, im, lines) == "withheld"  # a row above the first may have been missed
