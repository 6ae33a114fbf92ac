"""OCR on what real layout engines draw (issue 31): light labels on pie wedges and donut segments,
axis tick marks beside tick labels, coloured headings the page passes drop, a button's text read
into garbage by the page pass."""

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.fills import find_fills, find_unread_text, find_wedges, merge_fill_lines
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.tesseract_lines import _ReadLine
from rewards.text.ocr.text_match import Line, Word
from rewards.text.ocr.ticks import erase_ticks, tick_marks

BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"


def donut() -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A donut segment 150-270 degrees (covering under half its box) with a white "38%" in it; the label's box."""
    im = Image.new("RGB", (500, 420), "white")
    d = ImageDraw.Draw(im)
    d.pieslice((80, 40, 420, 380), 150, 270, fill=(195, 65, 75))
    d.pieslice((80, 40, 420, 380), 270, 150, fill=(75, 160, 95))
    d.ellipse((150, 110, 350, 310), fill="white")
    mid = math.radians(210)
    x, y = 250 + 135 * math.cos(mid), 210 + 135 * math.sin(mid)
    font = ImageFont.truetype(BOLD, 13)
    box = d.textbbox((x, y), "38%", font=font, anchor="mm")
    d.text((x, y), "38%", font=font, fill="white", anchor="mm")
    return im, box


def test_a_donut_segment_is_a_wedge_not_a_fill_and_its_white_label_is_read():
    im, box = donut()
    wedges = find_wedges(im)
    inside = lambda f: f.box[0] <= box[0] and f.box[1] <= box[1] and box[2] <= f.box[2] and box[3] <= f.box[3]  # noqa: E731
    assert any(inside(f) for f in wedges)
    assert not any(inside(f) for f in find_fills(im))  # the page structure's boxes: a wedge is no card
    assert "38%" in [ln.text for ln in ocr_lines(im)]


def axis_page() -> Image.Image:
    """A chart's bottom axis (a 1 px line) with 5 px tick marks under it over serif month labels."""
    im = Image.new("RGB", (600, 200), "white")
    d = ImageDraw.Draw(im)
    d.line((60, 100, 560, 100), fill=(20, 20, 20), width=1)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 14)
    for k, month in enumerate(["Jan", "Feb", "Mar", "Apr", "May"]):
        x = 100 + 100 * k
        d.line((x, 101, x, 105), fill=(20, 20, 20), width=1)
        d.text((x, 110), month, font=font, fill=(20, 20, 20), anchor="mt")
    return im


def test_tick_marks_are_found_under_the_axis_and_not_in_the_labels():
    im = axis_page()
    marks = tick_marks(np.asarray(im.convert("L")))
    ys, xs = np.nonzero(marks)
    assert set(xs.tolist()) == {100, 200, 300, 400, 500}
    assert ys.min() == 101 and ys.max() == 105  # the marks only, not the axis line nor the labels
    clean = np.asarray(erase_ticks(im).convert("L"))
    assert clean[101:106, 100].min() > 200 and clean[100, 60:560].max() < 60


def test_a_coloured_heading_under_a_dark_band_is_read():
    im = Image.new("RGB", (1024, 400), (244, 243, 238))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 1024, 140), fill=(44, 46, 68))
    d.text((48, 40), "Growth Plan", font=ImageFont.truetype(SERIF_BOLD, 36), fill="white")
    d.text((48, 180), "What we learned", font=ImageFont.truetype(SERIF_BOLD, 24), fill=(42, 157, 143))
    d.text((48, 230), "Support tickets resolved within one day", font=ImageFont.truetype(SANS, 20), fill=(30, 30, 30))
    d.rectangle((600, 300, 900, 330), fill=(42, 157, 143))  # a bar: no text
    runs = find_unread_text(im, [])
    assert any(b.box[1] <= 185 and b.box[3] >= 200 and b.box[0] <= 48 for b in runs)
    assert not any(b.box[0] >= 590 and b.box[1] >= 290 for b in runs)
    assert "What we learned" in [ln.text for ln in ocr_lines(im)]


def test_a_garbled_page_line_centred_in_a_fill_gives_way_to_the_fill_read():
    garbage = _ReadLine(Line((Word("L", (178, 505, 190, 562)), Word("CigCOC", (200, 505, 300, 562)))), 10.0)
    outside = _ReadLine(Line((Word("Program", (103, 369, 194, 389)),)), 96.0)
    read = _ReadLine(
        Line((Word("Early", (204, 519, 250, 535)), Word("bird", (255, 519, 290, 535)))), 96.0, (180, 507, 446, 546)
    )
    assert [r.line.text for r in merge_fill_lines([garbage, outside], [read])] == ["Program", "Early bird"]
    sure = _ReadLine(garbage.line, 80.0)  # read with confidence: a word re-read alone never replaces it
    assert [r.line.text for r in merge_fill_lines([sure], [read])] == ["L CigCOC"]
