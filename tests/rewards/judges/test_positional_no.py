"""A confident "no" from the element a positional locator pins (issue 31,
rewards.text.page.positional_reads): charts drawn here by matplotlib and read by tesseract.

The engine benchmark's three typos the editor never got: the fourth y-axis category label drawn
"Gau" while "Gas" stands in an annotation, the fourth x tick "Diect" while a callout reads
"Direct (81)"; the judge withheld both (the string was read elsewhere). Now "no", naming what
the element reads; withheld still when the count of labels is not sure."""

import shutil

import pytest
from mpl_charts import SERIF, hbar, plt, render, table, vbar
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def ask(question: str, img: Image.Image):
    check = Check("q", question, spec=compile_question(question))
    judge = OCRJudge()
    return judge.judge_lines(judge.read(img), img.size, check, img)


TICK_Y = "Is the {} y-axis category label from the top exactly {!r}?"
TICK_X = "Is the {} x-axis tick label from the left exactly {!r}?"


def test_the_fourth_category_label_reads_gau_not_gas():
    img = hbar(["Solar", "Wind", "Hydro", "Gau", "Coal"], [63, 24, 36, 93, 38])
    v = ask(TICK_Y.format("fourth", "Gas"), img)  # "Gas" is read, in the annotation
    assert v.answer == "no" and "reads 'Gau', not 'Gas'" in v.reason, v.reason
    assert v.evidence["element_read"]["text"] == "Gau"
    assert ask(TICK_Y.format("fifth", "Coal"), img).answer == "yes"
    wrong = ask(TICK_Y.format("second", "Hydro"), img)  # a wrong-element question: Hydro is the third
    assert wrong.answer == "no" and "reads 'Wind'" in wrong.reason, wrong.reason
    # the value label at the end of the Wind bar reads "24%"; "34%" is read nowhere near it
    value = ask('Is the value label at the end of the "Wind" bar "34%"?', img)
    assert value.answer == "no" and "'24%'" in value.reason, value.reason
    assert ask('Is the value label at the end of the "Wind" bar "24%"?', img).answer == "yes"


def test_the_fourth_tick_reads_diect_not_direct_and_an_uneven_row_is_no_sure_count():
    ticks = ["Search", "Social", "Email", "Diect"]
    v = ask(TICK_X.format("fourth", "Direct"), vbar(ticks, [0, 1, 2, 3]))  # "Direct" is read, in the callout
    assert v.answer == "no" and "reads 'Diect', not 'Direct'" in v.reason, v.reason
    # the same labels with a gap where a fifth bar could stand: a label OCR missed would shift the
    # count, so the fourth label is not pinned and the verdict stays withheld
    gap = ask(TICK_X.format("fourth", "Direct"), vbar(ticks, [0, 1, 2, 4]))
    assert gap.answer == "withheld", gap.reason
    assert "element_read" not in gap.evidence
    # an ordinal past the last label pins nothing either
    assert ask(TICK_X.format("sixth", "Direct"), vbar(ticks, [0, 1, 2, 3])).answer == "withheld"


def test_a_slice_percentage_is_read_at_the_slice_name_s_angle():
    """Every slice's name and percentage read: the percentage at 'East''s angle reads what it reads."""
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        ax.pie([29, 10, 39, 22], labels=["North", "East", "South", "West"], autopct="%d%%", startangle=90,
               colors=["#264653", "#2a9d8f", "#e76f51", "#8d5a97"], textprops={"color": "black"})  # fmt: skip
        for t in ax.texts:
            if t.get_text().endswith("%"):
                t.set_color("white")
        img = render(fig)
    v = ask('Is the "East" slice labeled with the percentage "29%"?', img)  # 29% is North's
    assert v.answer == "no" and "reads '10%'" in v.reason, v.reason
    assert ask('Is the "South" slice labeled with the percentage "39%"?', img).answer == "yes"


HEAD = ["Period", "Revenue", "Orders", "Margin"]


def test_a_column_header_reads_other_text_and_a_blank_corner_keeps_it_withheld():
    body = [["Q1", "$1.2M", "4,210", "38%"], ["Q2", "$1.5M", "5,034", "41%"], ["Q3", "$1.7M", "6,111", "44%"]]
    img = table([HEAD, *body])
    v = ask('Is the header of the first column exactly "Revenue"?', img)  # "Revenue" heads the second
    assert v.answer == "no" and "reads 'Period', not 'Revenue'" in v.reason, v.reason
    assert ask('Is the header of the second column exactly "Revenue"?', img).answer == "yes"
    # the corner cell left blank: three headers over four columns (as when OCR misses one); the
    # first body row ("Q1 $1.2M ...") looks like a header row, and taken for it would refute
    # "Revenue", which a person sees heading the second column: withheld
    blank = table([["", *HEAD[1:]], *body])
    assert ask('Is the header of the second column exactly "Revenue"?', blank).answer != "no"
    # and the first body row is no header row for a "yes" either (it was: "$1.2M" passed for the
    # header of the second column)
    assert ask('Is the header of the second column exactly "$1.2M"?', blank).answer != "yes"
