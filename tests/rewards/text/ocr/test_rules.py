"""Table rules erased before the page passes read a page (rewards.text.ocr.rules; needs tesseract)."""

import io
import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.rules import rule_pixels

CELLS = [
    ["Northwind", "99.2%", "41 ms", "A"],
    ["Bluepeak", "97.8%", "63 ms", "B"],
    ["Cobalt Labs", "99.9%", "28 ms", "A+"],
]


def grid_table() -> Image.Image:
    """A tester's page: matplotlib's ``plt.table``, a border round every cell, 800x400 px."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
    ax.axis("off")
    t = ax.table(cellText=CELLS, colLabels=["Vendor", "Uptime", "Latency", "Rating"], loc="center", cellLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(14)
    t.scale(1, 2.4)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def title_band() -> Image.Image:
    """White bold letters on a dark band: the dark gaps between them are thin straight runs too."""
    im = Image.new("RGB", (600, 160), (250, 250, 248))
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, 600, 90], fill=(28, 45, 80))
    d.text((20, 20), "The AI gender imbalance", font=ImageFont.truetype("DejaVuSerif-Bold.ttf", 36), fill="white")
    return im


def test_rules_are_the_borders_not_a_bands_letter_gaps():
    grid = rule_pixels(np.asarray(grid_table().convert("L")))
    ys, xs = np.nonzero(grid)
    assert grid.sum() > 2000  # 5 horizontal rules of ~620 px and 5 vertical ones of ~160 px
    assert len(set(ys.tolist())) > 100 and len(set(xs.tolist())) > 600  # both directions
    assert rule_pixels(np.asarray(title_band().convert("L"))).sum() == 0


def test_a_charts_axis_and_spines_are_no_grid():
    """A lone axis line beside bars, and a spine box: erasing the axis changed how tesseract read the
    value labels past the bars ("45" -> "as", tests/refine/editors/test_text_editor_chart_slots.py)."""
    im = Image.new("RGB", (700, 420), (250, 250, 248))
    d = ImageDraw.Draw(im)
    d.line([(150, 80), (150, 400)], fill=(20, 20, 20), width=2)
    for k in range(3):
        d.rectangle([152, 95 + 110 * k, 352 + 90 * k, 165 + 110 * k], fill=(70, 110, 170))
    assert rule_pixels(np.asarray(im.convert("L"))).sum() == 0
    d.rectangle([60, 40, 680, 410], outline=(20, 20, 20), width=1)  # the spine box round it: 2 rules a side
    assert rule_pixels(np.asarray(im.convert("L"))).sum() == 0


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
def test_every_cell_of_a_bordered_table_is_read():
    """Before: tesseract read the body as '[aveoesk [7 [ame |e' and every cell was a false "no"
    (with three columns it read them all: the fourth column's rule beside "A" / "B" broke it)."""
    read = " | ".join(ln.text for ln in ocr_lines(grid_table()))
    for row in CELLS:
        for cell in row[:3]:  # the lone "A" / "B": tesseract drops lone glyphs (ocr_doubt withholds them)
            assert cell in read, read
