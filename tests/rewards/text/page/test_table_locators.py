"""Tables named by place or subject (issue 31, BizGenEval phrasings of the dev half: "in the lower
central table", "in the left therapy table body, the second data row", "in the same drug comparison
table"): the verdict both ways on pages whose OCR lines are given (no tesseract), as ``test_grid_locators``."""

import pytest
from pages import ocr_line
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import find_matches
from rewards.text.page.page_lines import _Page
from rewards.text.page.table_locators import is_table, parse_table, tables
from rewards.text.questions.question_compiler import compile_question


def table(x: int, y: int, rows: list[list[str]]):
    """OCR lines of a table at (x, y): one line per cell, columns 170 px apart, rows 40 px apart."""
    return [ocr_line(cell, x + 170 * c, y + 40 * r, 16) for r, row in enumerate(rows) for c, cell in enumerate(row)]


# no m (read against rn) and no 0, 1, 5, 8 in numbers (O, l, S, B): the page has no ink to check them on
UPPER = [["Region", "Price", "Year"], ["North", "24", "2.4"], ["East", "36", "3.6"], ["West", "29", "4.7"]]
LOWER = [["Group", "Units", "Rate"], ["Retail", "42", "2.2"], ["Online", "37", "6.3"], ["Trade", "74", "9.2"]]


def verdict(question: str, lines, size=(1000, 900)) -> str:
    im = Image.new("RGB", size, (255, 255, 255))
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


def test_a_table_phrase_is_read_and_a_relation_to_a_table_is_not():
    assert parse_table("In the lower central table") == ["lower", "central"]
    assert parse_table("In the leftmost small table") == ["left"]
    assert parse_table("In the same drug comparison table") == []
    assert parse_table("of the large therapy table") == []
    assert parse_table("immediately to the right of the standings table") is None
    assert not is_table("locator 'centered above the table and set'") and is_table("locator 'standings table'")


TWO = table(300, 80, UPPER) + table(300, 600, LOWER)
HIGH = table(300, 30, UPPER) + table(300, 230, LOWER)


@pytest.mark.parametrize(
    "question, lines, answer",
    [
        ("In the lower central table, does the header row read exactly 'Group | Units | Rate'?", TWO, "yes"),
        ("In the upper central table, does the header row read exactly 'Region | Price | Year'?", TWO, "yes"),
        # the upper table's header asked of the lower table: read only in the top half, the compiler's "lower" refutes
        ("In the lower central table, does the header row read exactly 'Region | Price | Year'?", TWO, "no"),
        # both tables in the top 40%: the lower one's header is read where "upper" puts it, but in the other table
        ("In the upper central table, does the header row read exactly 'Group | Units | Rate'?", HIGH, "withheld"),
        ("In the upper central table, does the header row read exactly 'Region | Price | Year'?", HIGH, "yes"),
        ("In the lower central table, does the second data row read exactly 'Online | 37 | 6.3'?", TWO, "yes"),
        ("In the lower central table, does the first data row read exactly 'Online | 37 | 6.3'?", TWO, "withheld"),
        ("In the lower central table, does the second row read exactly 'Retail | 42 | 2.2'?", TWO, "yes"),
        ("In the lower central table, does the first data row read exactly 'Resale | 42 | 2.2'?", TWO, "no"),
        # named by its subject alone: one table on the page is that table, of two neither is
        (
            "In the same drug comparison table, does the last row read exactly 'Trade | 74 | 9.2'?",
            TWO,
            "withheld",
        ),
        (
            "In the same drug comparison table, does the last row read exactly 'Trade | 74 | 9.2'?",
            table(300, 600, LOWER),
            "yes",
        ),
    ],
)
def test_a_named_table_says_yes_only_in_that_table_and_row(question, lines, answer):
    assert verdict(question, lines) == answer


def test_a_compound_wrapped_at_its_hyphen_reads_whole():
    """A browser wraps a table cell's "first-line" as "first-" / "line": read as one compound."""
    lines = [ocr_line("Row 2 first-", 10, 10, 14), ocr_line("line treatment", 10, 30, 14)]
    best = find_matches("Row 2 first-line treatment", lines, 500, 500)[0]
    assert best.found and best.similarity == 1.0
    assert not find_matches("Row 2 first- line", [ocr_line("Row 2 first-line", 10, 10, 14)], 500, 500)[0].found
    spaced = [ocr_line("Revenue -", 10, 10, 14), ocr_line("Costs", 10, 30, 14)]  # a dash, not a compound's hyphen
    assert find_matches("Revenue - Costs", spaced, 500, 500)[0].found


def wrapped_table():
    """A table whose second data row wraps: one cell on one line, one on two, one on three (centred)."""
    lines = table(300, 100, [["Region", "Price", "Year"], ["North", "24", "2.4"]])
    lines += [ocr_line("NCCN", 300, 196, 16), ocr_line("Row two", 470, 188, 16), ocr_line("cell text", 470, 206, 16)]
    lines += [
        ocr_line("Row two", 640, 178, 16),
        ocr_line("long cell", 640, 196, 16),
        ocr_line("text here", 640, 214, 16),
    ]
    return lines + table(300, 256, [["West", "29", "4.7"], ["East", "36", "3.6"]])


def test_a_row_of_wrapped_cells_is_one_row():
    page = _Page.of(wrapped_table(), None, (1000, 900))
    (rows, box), *others = tables(page)
    assert not others and len(rows) == 5 and box == (300, 100, 724, 312)  # to the end of "text here"
    assert sorted(page.lines[i].text for i in rows[2]) == [
        "NCCN",
        "Row two",
        "Row two",
        "cell text",
        "long cell",
        "text here",
    ]
    assert (
        verdict(
            "In the same drug comparison table, does the third data row read exactly 'West | 29 | 4.7'?",
            wrapped_table(),
        )
        == "yes"
    )
    assert (
        verdict(
            "In the same drug comparison table, does the second data row read exactly 'West | 29 | 4.7'?",
            wrapped_table(),
        )
        == "withheld"
    )


def test_two_tables_side_by_side_are_two():
    lines = table(40, 100, UPPER) + table(580, 100, LOWER)
    page = _Page.of(lines, None, (1000, 900))
    assert [box[0] for _, box in tables(page)] == [40, 580]
    q = "In the leftmost pricing table, does the second data row read exactly '{}'?"
    assert verdict(q.format("East | 36 | 3.6"), lines) == "yes"
    assert verdict(q.format("Online | 37 | 6.3"), lines) == "withheld"  # the right table's row: read, not there
    # "left" the compiler reads as the left half, which refutes the right table's row
    assert (
        verdict("In the left pricing table, does the second data row read exactly 'Online | 37 | 6.3'?", lines) == "no"
    )
