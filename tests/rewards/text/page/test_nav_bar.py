"""Issue 31, the judge: a navigation bar's brand name. "Is the brand name at the left of the
navigation bar exactly 'Lumen'?" was always withheld (no finder typed a line as the brand); a page
drawn like the engine benchmark's landing pages, read by tesseract."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question

D = "/usr/share/fonts/truetype/dejavu/"
pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def landing(links: tuple[str, ...] = ("Pricing", "Blog", "Home", "Features")) -> Image.Image:
    """1024x400: a header band with the bold brand "Lumen" at the left and ``links`` at the right,
    a rule under it, a title and a paragraph."""
    img = Image.new("RGB", (1024, 400), (245, 247, 250))
    d = ImageDraw.Draw(img)
    d.text((48, 20), "Lumen", font=ImageFont.truetype(D + "DejaVuSerif-Bold.ttf", 22), fill=(30, 30, 40))
    face, x = ImageFont.truetype(D + "DejaVuSerif.ttf", 16), 976
    for link in reversed(links):
        x -= d.textlength(link, font=face)
        d.text((x, 25), link, font=face, fill=(40, 40, 50))
        x -= 28
    d.line([(0, 67), (1024, 67)], fill=(220, 222, 228))
    d.text(
        (48, 140),
        "Ship reports, not spreadsheets",
        font=ImageFont.truetype(D + "DejaVuSerif-Bold.ttf", 44),
        fill=(30, 30, 40),
    )
    d.text(
        (48, 220),
        "Connect your data sources once.",
        font=ImageFont.truetype(D + "DejaVuSans.ttf", 18),
        fill=(70, 70, 80),
    )
    return img


def ask(question: str, img: Image.Image):
    check = Check("q", question, spec=compile_question(question))
    judge = OCRJudge()
    return judge.judge_lines(judge.read(img), img.size, check, img)


BRAND = "Is the brand name at the left of the navigation bar exactly {!r}?"


def test_the_brand_at_the_left_of_the_nav_bar():
    img = landing()
    v = ask(BRAND.format("Lumen"), img)
    assert v.answer == "yes", v.reason
    assert ask(BRAND.format("Pricing"), img).answer != "yes"  # a link, not the brand
    assert ask(BRAND.format("Ship reports, not spreadsheets"), img).answer != "yes"  # the title


def test_no_row_of_links_no_brand():
    v = ask(BRAND.format("Lumen"), landing(links=("Pricing",)))
    assert v.answer == "withheld" and "element 'the brand name'" in v.reason, v.reason  # no bar: unknown
