"""Issue 35 case 7: an Arabic or Hebrew string's withheld reason said "IPA has no tesseract model"
and printed the string's characters de-duplicated (another word). It names the script and prints
the string as given."""

from __future__ import annotations

import pytest
from PIL import Image

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.ocr.ocr_langs import installed_langs

ARABIC = "مرحبا مرحبا"  # de-duplicated its letters read "مرحبا" plus a space: not the string
HEBREW = "שלום שלום"


def test_the_reason_names_the_script_and_prints_the_string_as_given():
    from rewards.text.ocr.unreadable import unreadable_reason

    assert unreadable_reason([ARABIC], installed={"eng"}) == (
        f"OCR cannot read {ARABIC!r} here: Arabic needs tesseract's ara model, which is not installed "
        "(apt-get install tesseract-ocr-ara; scripts/setup.sh installs it)"
    )
    assert unreadable_reason(["Total", HEBREW], installed={"eng"}) == (
        f"OCR cannot read {HEBREW!r} here: Hebrew needs tesseract's heb model, which is not installed "
        "(apt-get install tesseract-ocr-heb; scripts/setup.sh installs it)"
    )
    assert unreadable_reason(["/rɛd/ and /ˈfəʊ/"], installed={"eng"}) == (
        "OCR cannot read '/rɛd/ and /ˈfəʊ/' here: no tesseract model outputs its IPA characters 'ɛˈəʊ'"
    )
    mixed = unreadable_reason([f"{ARABIC} / 红色"], installed={"eng"})
    assert "Arabic needs tesseract's ara model" in mixed and "Chinese needs tesseract's chi_sim model" in mixed
    assert unreadable_reason(["红色", "Revenue"], installed={"eng", "chi_sim"}) is None


def test_the_ocr_judge_withholds_an_arabic_string_naming_arabic():
    if "ara" in installed_langs():
        pytest.skip("tesseract-ocr-ara is installed here: the string is read, not withheld")
    check = Check("1", "q", expects=(TextExpectation(ARABIC),))
    [[v]] = OCRJudge().judge([Image.new("RGB", (200, 60), "white")], [""], [[check]])
    assert v.answer == "withheld"
    assert v.reason.startswith(f"OCR cannot read {ARABIC!r} here: Arabic needs tesseract's ara model")
    assert "IPA" not in v.reason
