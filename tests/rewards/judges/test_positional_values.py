"""A confident "no" for a value the page pins to its element (issue 32, the engines' digit errors;
rewards.text.page.positional_reads): a grouped bar's value over its series' bar in its group, a
menu item's price on its row, a KPI card's figure under its label. Before, the judge withheld
all three ("'Email' belongs to a locator only a VLM can check", "text part holds" with the
string read as another item's price, "a short near miss may be another element's"), so the
editor never got to act. Pages drawn here by matplotlib, read by tesseract."""

import shutil

import pytest
from mpl_charts import SERIF, plt, render
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def ask(question: str, img: Image.Image):
    check = Check("q", question, spec=compile_question(question))
    judge = OCRJudge()
    return judge.judge_lines(judge.read(img), img.size, check, img)


def grouped(values: list[list[int]]) -> Image.Image:
    """880x600: two series ("Online store" blue, "Retail stores" orange) over four groups, each bar
    with its value above it, a legend of two swatches at the top left."""
    groups = ["Search", "Social", "Email", "Direct"]
    with plt.rc_context(SERIF):
        fig, ax = plt.subplots(figsize=(8.8, 6.0), dpi=100)
        for k, (name, colour) in enumerate((("Online store", "#2f6db3"), ("Retail stores", "#e8892b"))):
            bars = ax.bar([g + (k - 0.5) * 0.35 for g in range(4)], values[k], 0.32, label=name, color=colour)
            ax.bar_label(bars, padding=3)
        ax.set_xticks(range(4), groups)
        ax.set_ylim(0, 110)
        ax.legend(loc="upper left", ncol=2, frameon=False)
        ax.set_title("Tickets Closed per Week", loc="left", fontweight="bold")
        return render(fig)


def test_a_grouped_bar_s_value_is_read_over_its_series_bar_even_a_lone_digit():
    img = grouped([[89, 36, 2, 45], [46, 50, 93, 26]])  # the Email group's blue bar is 2 high: a lone "2"
    v = ask('Is the value label above the "Online store" bar in the "Email" group "9"?', img)
    assert v.answer == "no" and v.evidence["element_read"]["text"] == "2", v.reason
    v = ask('Is the value label above the "Retail stores" bar in the "Email" group "55"?', img)
    assert v.answer == "no" and v.evidence["element_read"]["text"] == "93", v.reason
    assert ask('Is the value label above the "Retail stores" bar in the "Social" group "50"?', img).answer == "yes"
    # "36" stands over the other series' bar of the group: no "no" for the blue one when it reads 36
    assert ask('Is the value label above the "Online store" bar in the "Social" group "36"?', img).answer != "no"


def page(draw) -> Image.Image:
    """880x500 white page drawn by ``draw(fig)`` in DejaVu Sans."""
    with plt.rc_context({"font.family": "DejaVu Sans", "font.size": 12}):
        fig = plt.figure(figsize=(8.8, 5.0), dpi=100)
        draw(fig)
        return render(fig)


def menu(fig) -> None:
    fig.text(0.5, 0.9, "Casa Lumen", fontsize=24, fontweight="bold", ha="center")
    for c, (head, rows) in enumerate(
        (
            ("Mains", [("Mushroom Risotto", "$12.50"), ("Grilled Salmon", "$18.00")]),
            ("Desserts", [("Tiramisu", "$17.29"), ("Vanilla Ice Cream", "$11.25")]),
            ("Drinks", [("Espresso", "$17.25"), ("Fresh Lemonade", "$10.50")]),
        )  # fmt: skip
    ):
        x = 0.06 + 0.32 * c
        fig.text(x, 0.72, head, fontsize=16, fontweight="bold", color="#7c3aed")
        for r, (item, price) in enumerate(rows):
            fig.text(x, 0.6 - 0.08 * r, item)
            fig.text(x + 0.27, 0.6 - 0.08 * r, price, ha="right")


def test_a_menu_item_s_price_is_read_on_its_row_though_the_string_stands_elsewhere():
    img = page(menu)
    v = ask('In the "Desserts" section, is the price of "Tiramisu" exactly "$17.25"?', img)  # Espresso's price
    assert v.answer == "no" and v.evidence["element_read"]["text"] == "$17.29", v.reason
    assert ask('In the "Drinks" section, is the price of "Espresso" exactly "$17.25"?', img).answer == "yes"


def cards(fig) -> None:
    fig.text(0.05, 0.88, "Lumen Growth Dashboard", fontsize=22, fontweight="bold")
    for c, (label, value) in enumerate((("New leads", "9,870"), ("Conversion rate", "9.4%"), ("Revenue", "$860K"))):
        fig.text(0.05 + 0.3 * c, 0.66, label, fontsize=11, color="#555555")
        fig.text(0.05 + 0.3 * c, 0.54, value, fontsize=24, fontweight="bold")
        fig.text(0.05 + 0.3 * c, 0.46, "+12% vs last month", fontsize=10, color="#16a34a")


def test_a_kpi_card_s_figure_is_read_under_its_label():
    img = page(cards)
    v = ask('Does the "Conversion rate" card show the value exactly "3.4%"?', img)
    assert v.answer == "no" and v.evidence["element_read"]["text"] == "9.4%", v.reason
    # the right figure is never refuted (these cards have no frame, so "card" stays a VLM's part)
    assert ask('Does the "Revenue" card show the value exactly "$860K"?', img).answer != "no"
