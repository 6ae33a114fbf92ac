"""A confident "no" from the element a positional locator pins (issue 31,
rewards.text.page.positional_reads): charts drawn here by matplotlib and read by tesseract.

The engine benchmark's three typos the editor never got: the fourth y-axis category label drawn
"Gau" while "Gas" stands in an annotation, the fourth x tick "Diect" while a callout reads
"Direct (81)"; the judge withheld both (the string was read elsewhere). Now "no", naming what
the element reads; withheld still when the count of labels is not sure."""

import shutil

import matplotlib
import numpy as np
import pytest
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
SERIF = {"font.family": "DejaVu Serif", "font.size": 11}


def render(fig) -> Image.Image:
    fig.canvas.draw()
    img = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3].copy())
    plt.close(fig)
    return img


def hbar(categories: list[str], values: list[int]) -> Image.Image:
    """880x600: horizontal bars top to bottom with their value labels at the bars' ends, and an
    annotation naming the highest bar by its correct name "Gas"."""
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        ys = np.arange(len(categories))[::-1]
        ax.barh(ys, values, color="#2f6eb5", height=0.62)
        ax.set_yticks(ys, categories)
        for y, v in zip(ys, values):
            ax.text(v + 1, y, f"{v}%", va="center")
        top = int(np.argmax(values))
        ax.annotate("Highest: Gas (93%)", (values[top], ys[top]), (values[top] - 26, ys[top] - 0.45), arrowprops={})
        ax.set_xlim(0, 120)
        ax.set_title("Average Basket Size", loc="left", fontweight="bold")
        for s in ("top", "right"):
            ax.spines[s].set_visible(False)
        return render(fig)


def vbar(ticks: list[str], xs: list[float]) -> Image.Image:
    """880x600: vertical bars at ``xs`` with tick labels under them, and a callout "Direct (81)"."""
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        values = [30, 70, 23, 81][: len(ticks)]
        ax.bar(xs, values, color="#264653", width=0.64)
        ax.set_xticks(xs, ticks)
        ax.annotate("Direct (81)", (xs[-1], 81), (xs[-1] - 2.2, 88), arrowprops={"arrowstyle": "->"})
        ax.set_ylim(0, 95)
        ax.set_title("Share of Traffic Sources", loc="left", fontweight="bold")
        return render(fig)


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


def table(rows: list[list[str]]) -> Image.Image:
    """880x400: a title and a table of text cells in four columns (no borders), header row first."""
    with plt.rc_context({"font.family": "DejaVu Sans", "font.size": 13}):
        fig = plt.figure(figsize=(8.8, 4.0), dpi=100)
        fig.text(0.05, 0.9, "Quarterly Results", fontsize=20, fontweight="bold")
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                fig.text(0.08 + 0.22 * c, 0.7 - 0.14 * r, cell, fontweight="bold" if r == 0 else "normal")
        return render(fig)


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
