"""OCR reading: coloured fills and small text (rewards.text.ocr.ocr_read), languages (ocr_langs)."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.ocr.fills import find_fills, otsu_threshold
from rewards.text.ocr.ocr_langs import installed_langs, tesseract_lang, unreadable
from rewards.text.ocr.ocr_read import ocr_lines

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"
BADGE = (40, 30, 96, 72)


def badge_page() -> Image.Image:
    """Like item 142 of the bundled example: dark "01" on a beige page, white "03" on a dark green badge."""
    im = Image.new("RGB", (360, 120), (243, 236, 220))
    d = ImageDraw.Draw(im)
    d.text((200, 38), "01", font=ImageFont.truetype(FONT.replace("-Bold", ""), 22), fill=(40, 30, 30))
    d.rounded_rectangle(BADGE, radius=6, fill=(30, 90, 80))
    d.text((52, 38), "03", font=ImageFont.truetype(FONT, 22), fill=(255, 255, 255))
    return im


def texts(lines):
    return [ln.text for ln in lines]


def test_white_digits_on_a_dark_badge_are_read_by_the_fill_pass_only():
    im = badge_page()
    before = ocr_lines(im, fills=False)
    after = ocr_lines(im)
    assert "03" not in " ".join(texts(before))  # tesseract's global threshold loses the badge text
    assert "01" in texts(before) and "01" in texts(after)
    [line] = [ln for ln in after if ln.text == "03"]
    x0, y0, x1, y1 = line.box  # in pixels of the original image, inside the badge
    assert BADGE[0] <= x0 < x1 <= BADGE[2] and BADGE[1] <= y0 < y1 <= BADGE[3]
    assert x1 - x0 >= 20 and y1 - y0 >= 12  # the ink of two 22 px digits, not a sliver
    assert texts(after).count("03") == 1 and texts(after).count("01") == 1  # no duplicates


def test_a_band_read_by_both_passes_is_kept_once():
    im = Image.new("RGB", (480, 160), (250, 250, 247))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 480, 70), fill=(110, 30, 40))
    d.text((24, 18), "STAY SAFE!", font=ImageFont.truetype(FONT, 30), fill=(250, 250, 250))
    lines = ocr_lines(im)
    assert " ".join(texts(lines)).count("SAFE!") == 1


def test_find_fills_returns_the_badge_and_not_a_plain_box():
    im = badge_page()
    ImageDraw.Draw(im).rectangle((260, 20, 330, 90), fill=(200, 70, 50))  # a solid box enclosing nothing
    fills = find_fills(im)
    assert len(fills) == 1
    fx0, fy0, fx1, fy1 = fills[0].box
    assert (
        abs(fx0 - BADGE[0]) <= 1
        and abs(fy0 - BADGE[1]) <= 1
        and abs(fx1 - BADGE[2] - 1) <= 1
        and abs(fy1 - BADGE[3] - 1) <= 1
    )
    assert fills[0].shape.shape == (fy1 - fy0, fx1 - fx0)


def test_otsu_threshold_splits_two_levels_and_matches_the_between_class_variance():
    values = np.array([10] * 60 + [200] * 40, np.uint8)
    t = otsu_threshold(values)
    assert 10 <= t < 200
    # three levels: 0 x 50, 100 x 25, 255 x 25 -> the best split puts 100 with 0 (hand-computed
    # between-class variances: {0} vs {100, 255}: 0.5*0.5*(0-177.5)^2 = 7876.6;
    # {0, 100} vs {255}: 0.75*0.25*(33.3-255)^2 = 9214.6)
    values = np.array([0] * 50 + [100] * 25 + [255] * 25, np.uint8)
    assert 100 <= otsu_threshold(values) < 255


def test_small_grey_text_is_reread_larger():
    im = Image.new("RGB", (300, 60), (255, 255, 255))
    fnt = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 8)
    ImageDraw.Draw(im).text((20, 24), "Revenue Margin Cost", font=fnt, fill=(110, 110, 110))
    before, after = " ".join(texts(ocr_lines(im, fills=False))), " ".join(texts(ocr_lines(im)))
    assert "Revenue Margin Cost" in after
    assert "Revenue Margin Cost" not in before


# --- languages chosen from the expected text's script ---------------------------------------


def test_language_string_follows_the_scripts_of_the_expected_text():
    have = {"eng", "chi_sim", "jpn", "rus", "ell"}
    assert tesseract_lang(["Quarterly revenue"], installed=have) == "eng"
    assert tesseract_lang(["红色 red 红色"], installed=have) == "chi_sim+eng"  # 4 Han letters > 3 Latin
    assert tesseract_lang(["red", "/red/", "红色"], installed=have) == "eng+chi_sim"  # 6 Latin > 2 Han
    assert tesseract_lang(["東京タワー"], installed=have) == "jpn+eng"  # kana: Japanese, not Chinese
    assert tesseract_lang(["Revenue", "Выручка за год"], installed=have) == "rus+eng"
    assert tesseract_lang(["'AP', 'Δ', 'AP50', 'Δ'"], installed=have) == "eng+ell"
    assert tesseract_lang(["红色"], installed={"eng"}) == "eng"  # never a model that is not installed
    assert tesseract_lang(["Выручка"], base="eng+deu", installed=have) == "rus+eng+deu"


def test_unreadable_names_ipa_and_scripts_without_a_model():
    assert unreadable("/rɛd/ and /ˈfəʊnɪm/", installed={"eng"}) == "ɛˈəʊɪ"
    assert unreadable("红色", installed={"eng"}) == "红色"
    assert unreadable("红色", installed={"eng", "chi_sim"}) == ""
    assert unreadable("naïve café, 357k km², 12 €", installed={"eng"}) == ""


def test_cyrillic_is_read_only_with_the_chosen_language():
    if "rus" not in installed_langs():
        pytest.skip("tesseract-ocr-rus is not installed (scripts/setup.sh installs it)")
    text = "Выручка за квартал"
    im = Image.new("RGB", (520, 80), (255, 255, 255))
    ImageDraw.Draw(im).text(
        (20, 20), text, font=ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30), fill=(0, 0, 0)
    )
    assert text not in " ".join(texts(ocr_lines(im, fills=False)))
    assert text in " ".join(texts(ocr_lines(im, lang=tesseract_lang([text]), fills=False)))


def test_judge_reads_with_the_checks_language_and_withholds_ipa():
    if "rus" not in installed_langs():
        pytest.skip("tesseract-ocr-rus is not installed (scripts/setup.sh installs it)")
    im = Image.new("RGB", (520, 140), (255, 255, 255))
    fnt = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 30)
    ImageDraw.Draw(im).text((20, 20), "Выручка за квартал", font=fnt, fill=(0, 0, 0))
    ImageDraw.Draw(im).text((20, 80), "/rɛd/", font=fnt, fill=(0, 0, 0))
    checks = [
        Check("1", "q", expects=(TextExpectation("Выручка за квартал"),)),
        Check("2", "q", expects=(TextExpectation("/rɛd/"),)),
    ]
    v1, v2 = OCRJudge().judge([im], [""], [checks])[0]
    assert v1.answer == "yes"
    assert v2.answer == "withheld" and "'ɛ'" in v2.reason


def test_a_word_reread_alone_never_replaces_its_line():
    # bundled example item 322: "once" (no ascenders) looked like small text, and its re-read
    # replaced the whole page line "About once a wcek"
    im = Image.new("RGB", (360, 60), (250, 250, 247))
    ImageDraw.Draw(im).text(
        (20, 18), "About once a week", font=ImageFont.truetype(FONT.replace("-Bold", ""), 17), fill=(33, 33, 33)
    )
    assert texts(ocr_lines(im, fills=False)) == ["About once a week"]
    assert texts(ocr_lines(im)) == ["About once a week"]
