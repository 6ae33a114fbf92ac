"""Text editor on the eighth tester's templates (issue 32): a stacked bar's total and a swapped x tick
label (drawn by matplotlib as tester8's stacked chart is, ``benchmarks/fresh8/mpl_pages.py``), a
price read glyph by glyph, the judge's closer read of a near match, a label between gridlines, and
the benchmark reading a fix where another defect moved it."""

import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from benchmarks.engine_refine import fix_box
from refine.editors.text import TextEditor
from refine.editors.text.judged_near import with_judged_near
from refine.editors.text.near_match import digit_off
from refine.editors.text.place_at_bar import find_bar
from refine.editors.text.rewrite import _single_line_alignment
from refine.editors.text.split_number import joined_numbers
from refine.editors.text.tick_label import reordered
from rewards.rubric import Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.text_match import Line, Word
from tests.mpl_charts import plt, render
from tests.refine.editors.test_text_editor_chart_slots import SERIF, check, failed

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
TICKS = ["Q1 2024", "Q2 2024", "Q1 2025", "2025 Q2"]


def stacked(ticks: list[str], totals: list[str]):
    """900x560 (ggplot style): three-segment stacked bars at 0..3 with their totals over the stacks;
    the image and each tick label's box (pixels, from matplotlib)."""
    parts = np.array([[20, 25, 17, 30], [11, 8, 20, 5], [17, 18, 24, 29]])
    with plt.style.context("ggplot"):
        fig, ax = plt.subplots(figsize=(9.0, 5.6), dpi=100)
        bottom = np.zeros(4)
        for row in parts:
            ax.bar(range(4), row, bottom=bottom, width=0.6)
            bottom += row
        for x, (top, text) in enumerate(zip(bottom, totals)):
            ax.text(x, top + 1.5, text, ha="center", fontsize=12)
        ax.set_xticks(range(4), ticks)
        ax.set_ylim(0, 80)
        fig.canvas.draw()
        h = fig.canvas.get_width_height()[1]
        boxes = []
        for label in ax.get_xticklabels():
            b = label.get_window_extent()
            boxes.append((round(b.x0), round(h - b.y1), round(b.x1), round(h - b.y0)))
        return render(fig), boxes


def test_find_bar_takes_the_whole_stack():
    img, boxes = stacked(TICKS, ["48k", "51k", "41k", "64k"])
    arr = np.asarray(img)
    bars = [find_bar(arr, b) for b in boxes]
    assert all(b is not None and b.orient == "v" for b in bars)
    tops = [b.box[1] for b in bars]
    # the stacks are 48, 51, 61 and 64 high: the tops rise in that order, a segment's top would not
    assert tops[0] > tops[1] > tops[2] > tops[3]
    assert tops[2] < bars[2].box[3] - 0.6 * (bars[2].box[3] - tops[3])


def test_reordered_is_a_swap_or_one_word_short():
    assert reordered("2025 Q2", "Q2 2025")
    assert reordered("Q2", "Q2 2025")
    assert not reordered("Q2 2024", "Q2 2025")
    assert not reordered("Jun", "Jul")


@needs_tesseract
def test_stacked_total_and_swapped_tick_fixed_in_their_own_elements():
    img, boxes = stacked(TICKS, ["48k", "51k", "41k", "64k"])
    q_tick = check("q1", 'Is the fourth x-axis tick label from the left exactly "Q2 2025"?')
    q_total = check("q2", 'Is the value label above the "Q1 2025" bar "61k"?')
    out = TextEditor().edit(img, "", failed(q_tick, q_total), 0)
    a, b = np.asarray(img).astype(int), np.asarray(out).astype(int)
    x0, y0, x1, y1 = boxes[1]  # "Q2 2024", right, is left alone
    assert (a[y0 - 2 : y1 + 2, x0 - 2 : x1 + 2] == b[y0 - 2 : y1 + 2, x0 - 2 : x1 + 2]).all()
    texts = [ln.text for ln in ocr_lines(out)]
    assert "Q2 2025" in texts and "2025 Q2" not in texts
    assert "61k" in " ".join(texts) and "41k" not in " ".join(texts)
    assert "Q2 2024" in texts
    left = boxes[1][2] + 10  # the first two stacks, their totals and labels: not touched
    assert (a[:, :left] == b[:, :left]).all()


def test_price_read_glyph_by_glyph_is_one_word():
    # tesseract's words of tester8's 36 px bold "$22 per month" (dev pricing3-5), and a row of
    # single digits a word space apart (table cells), which stays as it is
    glyphs = [("$", (334, 188, 354, 220)), ("2", (359, 189, 378, 215)), ("2", (384, 189, 404, 215))]
    price = Line(tuple(Word(t, b) for t, b in [*glyphs, ("per", (412, 207, 438, 218))]))
    cells = Line((Word("1", (100, 10, 108, 24)), Word("2", (140, 10, 148, 24))))
    joined, kept = joined_numbers([price, cells])
    assert [w.text for w in joined.words] == ["$22", "per"]
    assert joined.words[0].box == (334, 188, 404, 220)
    assert kept == cells
    assert digit_off("$22", "$52") and not digit_off("$19", "$52") and not digit_off("Q2 2024", "Q2 2025")


def test_judges_closer_read_replaces_the_page_read():
    lines = [Line((Word("Tilinn", (73, 320, 116, 334)),)), Line((Word("Turku", (80, 360, 116, 374)),))]
    c = check("q1", 'Is the fourth y-axis category label from the top exactly "Tallinn"?')
    ev = {"expects": [{"text": "Tallinn", "found": False, "ocr_text": "Tllinn", "box": [74, 320, 115, 334]}]}
    out = with_judged_near(lines, [(c, Verdict("q1", "no", "ocr", "", evidence=ev))])
    assert [ln.text for ln in out] == ["Tllinn", "Turku"]
    assert out[0].words[0].box == (73, 320, 116, 334)
    # a withheld verdict, or a read further from the string, changes nothing
    assert with_judged_near(lines, [(c, Verdict("q1", "withheld", "ocr", "", evidence=ev))]) == lines
    far = {"expects": [{"text": "Tallinn", "found": False, "ocr_text": "Tlnn", "box": [74, 320, 115, 334]}]}
    assert with_judged_near(lines, [(c, Verdict("q1", "no", "ocr", "", evidence=far))]) == lines


def test_label_between_gridlines_is_not_centred():
    # a left-aligned chart annotation whose box happens to sit midway between two gridlines
    img = Image.new("RGB", (700, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for x in (100, 300, 500):
        d.line([(x, 0), (x, 299)], fill=(221, 221, 221), width=1)
    d.text((250, 140), "Harbor", font=SERIF.font(20), fill=(0, 0, 0))
    box = d.textbbox((250, 140), "Harbor", font=SERIF.font(20))
    shift = round(300 - (box[0] + box[2]) / 2)  # centred on the gridline at 300: equal gaps to 100 and 500
    img = Image.new("RGB", (700, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for x in (100, 500):
        d.line([(x, 0), (x, 299)], fill=(221, 221, 221), width=1)
    d.text((250 + shift, 140), "Harbor", font=SERIF.font(20), fill=(0, 0, 0))
    arr = np.asarray(img)
    box = d.textbbox((250 + shift, 140), "Harbor", font=SERIF.font(20))
    assert _single_line_alignment(arr, box, (255, 255, 255)) == "left"
    # a label in a button (a filled box) is still centred in it
    d.rectangle([180, 40, 420, 90], fill=(40, 44, 70))
    d.text((300, 65), "Start", font=SERIF.font(20), fill=(255, 255, 255), anchor="mm")
    b2 = d.textbbox((300, 65), "Start", font=SERIF.font(20), anchor="mm")
    assert _single_line_alignment(np.asarray(img), b2, (40, 44, 70)) == "centre"


def test_fix_is_read_where_another_defect_moved_it():
    class El:
        def __init__(self, box):
            self.box = box

    # a missing byline moved a paragraph 28 px up (dev fresh8-article-8): read at its defect-page
    # row, as wide as the wider of the two
    assert fix_box(El((50, 155, 430, 201)), El((50, 127, 422, 173))) == (50, 127, 430, 173)
    assert fix_box(El((50, 219, 174, 242)), El((50, 220, 160, 242))) == (50, 219, 174, 242)
    assert fix_box(El((50, 219, 174, 242)), None) == (50, 219, 174, 242)
