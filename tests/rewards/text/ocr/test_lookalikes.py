"""Issue 35 case 3: a capital O read as a zero gave a false "yes": "Latte 3.5O" (a capital O,
wider than a zero) was judged "yes" for "Is 'Latte 3.50' shown?" with ocr_text 'Latte 3.50'.
Look-alike characters are now checked against rendered candidates before a "yes"."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.ocr.lookalikes import FONTS, candidates, check_word, swaps

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LIBERATION = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"


def menu(text: str, font: str = SANS, size: int = 30) -> Image.Image:
    im = Image.new("RGB", (420, 110), "white")
    ImageDraw.Draw(im).text((24, 30), text, font=ImageFont.truetype(font, size), fill=(20, 20, 20))
    return im


def verdict(im: Image.Image, expected: str):
    [[v]] = OCRJudge().judge(
        [im], [""], [[Check("1", f"Is '{expected}' shown?", expects=(TextExpectation(expected),))]]
    )
    return v


@pytest.mark.parametrize("font", [SANS, LIBERATION])
def test_a_capital_o_read_as_zero_is_not_a_yes(font):
    v = verdict(menu("Latte 3.5O", font), "Latte 3.50")
    assert v.evidence["ocr_text"] == "Latte 3.50"  # tesseract reads the O as a zero
    assert v.answer == "withheld", v.reason
    assert v.reason.startswith("OCR read '3.50', but ")
    assert [c["word"] for c in v.evidence["lookalikes"]] == ["3.50"]
    assert verdict(menu("Latte 3.50", font), "Latte 3.50").answer == "yes"  # the real zero still is


def test_a_lower_case_l_read_as_one_is_not_a_yes():
    v = verdict(menu("Total l00"), "Total 100")
    assert v.evidence["ocr_text"] == "Total 100" and v.answer == "withheld", v.reason
    assert verdict(menu("Total 100"), "Total 100").answer == "yes"


def test_candidates_and_which_words_are_checked():
    assert candidates("3.50") == ["3.S0", "3.5O"]
    assert candidates("m") == ["rn"]
    assert swaps("Total") == []  # no digit: the letter/digit look-alikes are not checked in words
    assert swaps("Summer") == [(2, "m", "rn"), (3, "m", "rn")]
    assert swaps("B8") == [(0, "B", "8"), (1, "8", "B")]
    assert swaps("COVID-19", (6, 8)) == [(6, "1", "l"), (6, "1", "I")]  # only the part the check expects
    assert swaps("COVID-19", (0, 5)) == []  # "COVID": no digit there


@pytest.mark.parametrize(
    ("expected", "drawn"), [("3.50", "3.5O"), ("100", "l00"), ("58", "5B"), ("2018", "2O18"), ("$1,250", "$l,250")]
)
def test_the_glyph_check_confirms_the_digits_drawn_and_not_their_look_alikes(expected, drawn):
    assert FONTS, "no reference font installed (fonts-dejavu-core, fonts-liberation)"
    for font in (SANS, LIBERATION):
        outcomes = {}
        for text in (expected, drawn):
            im = Image.new("RGB", (360, 90), "white")
            draw = ImageDraw.Draw(im)
            draw.text((20, 20), text, font=ImageFont.truetype(font, 34), fill=(30, 30, 30))
            outcomes[text] = check_word(im, draw.textbbox((20, 20), text, font=ImageFont.truetype(font, 34)), expected)
        assert outcomes[expected].outcome == "confirmed", (font, outcomes[expected])
        assert outcomes[drawn].outcome != "confirmed", (font, outcomes[drawn])


def test_no_ink_or_an_unknown_shape_cannot_tell():
    blank = Image.new("RGB", (100, 40), "white")
    assert check_word(blank, (10, 10, 60, 30), "3.50").outcome == "cannot_tell"
    noise = Image.effect_noise((100, 40), 120).convert("RGB")
    assert check_word(noise, (10, 10, 60, 30), "3.50").outcome == "cannot_tell"
