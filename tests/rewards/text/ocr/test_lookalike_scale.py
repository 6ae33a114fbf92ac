"""Issue 31: small type's look-alikes compared at the ink's own size (``lookalike_scale``).

The glyph check enlarges a word's binarised ink; at 9-12 px (source notes, table cells, value
labels drawn by matplotlib and Chromium) it mostly cannot tell, and a correctly drawn "2025" was
withheld. Drawn at the ink's size in grey levels, the digits are confirmed and their look-alikes
are not."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr import lookalike_scale as S
from rewards.text.ocr.lookalikes import FONTS, check_in_line, context_words, read_as_expected
from rewards.text.ocr.text_match import Line, Word

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf"
pytestmark = pytest.mark.skipif(SANS not in FONTS or SERIF not in FONTS, reason="DejaVu and Liberation fonts needed")


def line(words: list[str], font: str, size: int) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """``words`` drawn in one grey line at ``size`` px, with each word's ink box."""
    face = ImageFont.truetype(font, size)
    image = Image.new("RGB", (520, 50), (250, 250, 248))
    draw, x, boxes = ImageDraw.Draw(image), 8.0, []
    for w in words:
        draw.text((x, 16), w, font=face, fill=(90, 90, 90))
        x0, y0, x1, y1 = draw.textbbox((x, 16), w, font=face)
        g = np.asarray(image.convert("L"))[int(y0) : int(y1) + 1, int(x0) : int(x1) + 1].astype(int)
        ys, xs = np.nonzero(np.abs(g - 249) > 40)
        boxes.append((int(x0) + xs.min(), int(y0) + ys.min(), int(x0) + xs.max(), int(y0) + ys.max()))
        x = x1 + size * 0.3
    return image, boxes


def judged(drawn: str, expected: str, font: str, size: int) -> str:
    words = ["Source:", "survey,", "March", drawn]
    image, boxes = line(words, font, size)
    others = [Word(w, b) for w, b in zip(words[:3], boxes[:3])]
    return check_in_line(image, boxes[3], expected, None, others)[0].outcome


@pytest.mark.parametrize("font", [SANS, SERIF])
@pytest.mark.parametrize("expected, drawn", [("2025", "2O25"), ("$7.00", "$7.0O"), ("+17%", "+l7%")])
def test_small_digits_are_confirmed_and_their_look_alikes_are_not(font, expected, drawn):
    assert judged(expected, expected, font, 12) == "confirmed"
    assert judged(drawn, expected, font, 12) != "confirmed"
    assert judged(drawn, expected, font, 10) != "confirmed"


def test_the_face_comes_from_the_line():
    image, boxes = line(["Source:", "Customer", "survey", "2025"], SERIF, 11)
    words = [Word(w, b) for w, b in zip(["Source:", "Customer", "survey"], boxes)]
    assert S.line_fonts(image, words, FONTS)[0].endswith("LiberationSerif-Regular.ttf")
    assert S.line_fonts(image, [], FONTS) == []  # a word alone on its line: no face from the line


def test_grey_fit_is_one_for_the_same_drawing_and_lower_for_a_wider_glyph():
    zero = S.drawn("2025", SANS, 11 * 8, 0, "hinted")
    assert S.grey_fit(zero, zero) == pytest.approx(1.0)
    assert S.grey_fit(zero, S.drawn("2O25", SANS, 11 * 8, 0, "hinted")) < 0.95
    assert S.darkness(np.full((6, 6), 200, np.uint8)) is None  # no ink


def test_m_the_glyph_check_confirms_is_not_compared_again():
    image, boxes = line(["Source:", "Company"], SANS, 11)
    ok, details = S.confirms(image, boxes[1], "Company", [], [], FONTS)
    assert (ok, details) == (False, {})  # no letter/digit look-alike given: nothing to confirm
    g, details = check_in_line(image, boxes[1], "Company", None, [Word("Source:", boxes[0])])
    assert g.outcome == "confirmed" and details is None  # the glyph check confirmed it: nothing more


@pytest.mark.parametrize("font", [SANS, SERIF])
def test_a_row_label_read_ql_is_read_q1_when_its_ink_shows_a_one(font):
    for drawn, expected_read in (("Q1", "Q1"), ("Ql", "Ql")):
        image, boxes = line(["Quarter", drawn, "results"], font, 13)
        lines = [Line(tuple(Word(t, b) for t, b in zip(["Quarter", "Ql", "results"], boxes)))]
        [got] = read_as_expected(image, lines, ["Q1"])
        assert got.words[1].text == expected_read  # the ink decides, not tesseract's reading
        assert got.words[1].box == boxes[1] and got.words[0].text == "Quarter"
    assert read_as_expected(image, lines, ["Quarter results"]) == lines  # no digit asked: nothing to read again


def test_a_word_alone_on_its_line_takes_its_face_from_the_nearest_lines_of_its_height():
    label = Word("11", (400, 449, 413, 460))
    alone = Line((label,))
    near = Line((Word("Coffee", (380, 470, 420, 481)), Word("Tea", (430, 470, 450, 481))))
    far = Line((Word("Revenue", (20, 20, 80, 31)),))
    title = Line((Word("Quarterly", (380, 400, 480, 430)),))  # too tall: another face, likely
    assert [w.text for w in context_words([far, title, alone, near], alone, label)] == ["Coffee", "Tea", "Revenue"]
    beside = Line((Word("Total", (300, 449, 340, 460)), label))
    assert [w.text for w in context_words([beside, near], beside, label)] == ["Total"]  # its own line first
