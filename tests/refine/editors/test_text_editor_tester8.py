"""Text editor on the eighth tester's templates (issue 32): a stacked bar's total, a swapped x tick
label, drawn by matplotlib as tester8's stacked chart is (``benchmarks/fresh8/mpl_pages.py``)."""

import shutil

import numpy as np
import pytest

from refine.editors.text import TextEditor
from refine.editors.text.place_at_bar import find_bar
from refine.editors.text.tick_label import reordered
from rewards.text.ocr.ocr_read import ocr_lines
from tests.mpl_charts import plt, render
from tests.refine.editors.test_text_editor_chart_slots import check, failed

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
    assert "Q2 2024" in texts and "48k" in " ".join(texts)
