"""OCR judge on rendered images with known text (needs the tesseract binary)."""

import shutil
from pathlib import Path

import pytesseract
import pytest
from pages import page
from PIL import Image, ImageDraw, ImageFont

from rewards.judges import ocr as ocr_module
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.ocr import tesseract_engine
from rewards.text.ocr.text_match import normalize, normalize_expected

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def check(*texts, region=None, cid="1"):
    return Check(cid, "q", expects=tuple(TextExpectation(t, region) for t in texts))


def one(judge, img, chk):
    return judge.judge([img], [""], [[chk]])[0][0]


def test_normalisation_rules():
    assert normalize("“Net”  sales –\u00a0Q1 ’24") == '"Net" sales · Q1 \'24'  # a lone dash is a separator
    assert normalize("Total", case_sensitive=False) == "total"
    assert normalize_expected("• Total: 42.", lenient=True) == "Total: 42"
    assert normalize_expected("• Total: 42.", lenient=False) == "· Total: 42."  # a lone bullet: a separator


def test_exact_substituted_and_evidence():
    img = page([("Quarterly Revenue 2024", (40, 60), 28, (20, 20, 20))])
    judge = OCRJudge()
    yes = one(judge, img, check("Quarterly Revenue 2024"))
    assert yes.answer == "yes" and yes.judge == "ocr"
    ev = yes.evidence["expects"][0]
    assert ev["found"] and ev["similarity"] == 1.0 and ev["ocr_text"] == "Quarterly Revenue 2024"
    x0, y0, x1, y1 = ev["box"]
    assert 35 <= x0 <= 45 and 60 <= y0 <= 75 and 330 <= x1 <= 420 and 80 <= y1 <= 100
    no = one(judge, img, check("Quarterly Revenue 2025"))
    assert no.answer == "no"
    # one substituted character in 22: OSA similarity 1 - 1/22
    assert no.evidence["expects"][0]["similarity"] == pytest.approx(1 - 1 / 22, abs=1e-4)
    assert no.evidence["ocr_text"] == "Quarterly Revenue 2024"


def test_region_wrap_and_word_boundary():
    img = page(
        [
            ("Sales summary", (40, 30), 26, (0, 0, 0)),
            ("Net revenue grew by twelve", (40, 200), 22, (0, 0, 0)),
            ("percent in the third quarter", (40, 230), 22, (0, 0, 0)),
            ("AP50", (480, 40), 24, (0, 0, 0)),
        ]
    )
    judge = OCRJudge()
    verdicts = judge.judge(
        [img],
        [""],
        [
            [
                check("Sales summary", region="top", cid="a"),
                check("Sales summary", region="bottom", cid="b"),
                check("Net revenue grew by twelve percent in the third quarter", cid="c"),
                check("AP", cid="d"),
                check("AP50", region="right", cid="e"),
            ]
        ],
    )[0]
    assert [v.answer for v in verdicts] == ["yes", "no", "yes", "no", "yes"]
    assert "bottom half" in verdicts[1].reason
    assert verdicts[1].evidence["expects"][0]["similarity"] == 1.0  # read, but in the wrong half
    x0, y0, x1, y1 = verdicts[2].evidence["box"]  # the wrapped string's box spans both lines
    assert y0 < 215 and y1 > 240


def test_light_on_dark_title():
    img = page([("Market Outlook", (30, 22), 30, (250, 250, 250))], band=(0, 80, (25, 40, 90)))
    assert one(OCRJudge(), img, check("Market Outlook", region="top")).answer == "yes"


def test_lenient_bullet_and_punctuation():
    img = page([("Revenue grew strongly", (40, 100), 24, (0, 0, 0))])
    chk = check("• Revenue grew strongly.")
    assert one(OCRJudge(), img, chk).answer == "no"
    assert one(OCRJudge(lenient=True), img, chk).answer == "yes"
    assert one(OCRJudge(case_sensitive=False), img, check("REVENUE grew strongly")).answer == "yes"
    assert one(OCRJudge(), img, check("REVENUE grew strongly")).answer == "no"


def test_withheld_and_one_ocr_per_image(monkeypatch):
    good = page([("Hello World", (40, 100), 26, (0, 0, 0))])
    bad = page([("Hello World", (40, 100), 26, (0, 0, 0))], size=(641, 360))
    real, calls = tesseract_engine.image_to_data, []

    def flaky(image, **kw):
        calls.append(image.size)
        if image.size[0] == 641 * 2:
            raise pytesseract.TesseractError(1, "simulated crash")
        return real(image, **kw)

    monkeypatch.setattr(tesseract_engine, "image_to_data", flaky)
    no_text = Check("v", "Is the chart pleasing?")
    out = OCRJudge().judge(
        [bad, good],
        ["", ""],
        [[check("Hello World"), no_text], [check("Hello World", cid="1"), check("World", cid="2"), no_text]],
    )
    assert [v.answer for v in out[0]] == ["withheld", "withheld"]
    assert "OCR failed" in out[0][0].reason and "simulated crash" in out[0][0].reason
    assert [v.answer for v in out[1]] == ["yes", "yes", "withheld"]
    assert "VLM" in out[1][2].reason
    assert calls == [(1282, 720), (1280, 720), (1280, 720)]  # each image read once at scale 2 (two passes)
    assert OCRJudge().can_answer(no_text) is False and OCRJudge().can_answer(check("x")) is True


CJK = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


@pytest.mark.skipif(
    not (Path(CJK).exists() and "chi_sim" in pytesseract.get_languages()),
    reason="fonts-wqy-microhei or tesseract-ocr-chi-sim not installed (scripts/setup.sh installs both)",
)
def test_chinese_strings_read_in_their_script():
    """The page is read in chi_sim+eng because a check quotes Han characters; tesseract returns
    one word per character or two ("季 度 收入"), which match "季度收入" (no spaces between Han)."""
    from rewards.text.questions.question_compiler import compile_question

    img = Image.new("RGB", (480, 220), (250, 250, 248))
    d = ImageDraw.Draw(img)
    d.text((40, 30), "季度收入", font=ImageFont.truetype(CJK, 32), fill=(20, 20, 20))
    d.text((40, 110), "红色 Revenue", font=ImageFont.truetype(CJK, 24), fill=(20, 20, 20))
    questions = [
        ('Is the heading exactly "季度收入"?', "yes"),
        ('Is the heading exactly "季度支出"?', "no"),
        ('Does the label read exactly "红色 Revenue"?', "yes"),
        ('Does the label read exactly "绿色 Revenue"?', "no"),
    ]
    checks = [Check(str(k), q, spec=compile_question(q)) for k, (q, _) in enumerate(questions)]
    verdicts = OCRJudge().judge([img], [""], [checks])[0]
    assert [v.answer for v in verdicts] == [a for _, a in questions], [v.reason for v in verdicts]
    assert normalize("季 度 收入 Q3") == "季度收入 Q3" and normalize("한국 어") == "한국 어"  # Hangul keeps its spaces


def test_a_number_is_not_found_inside_a_longer_number():
    img = page([("South 95 -2%", (40, 60), 28, (20, 20, 20)), ("COVID-19 cases 1,206", (40, 160), 28, (20, 20, 20))])
    judge = OCRJudge()
    assert one(judge, img, check("-2%")).answer == "yes" and one(judge, img, check("2%")).answer == "no"
    assert one(judge, img, check("19")).answer == "yes"  # after a hyphen inside a word: a part of its own
    assert one(judge, img, check("1,206")).answer == "yes" and one(judge, img, check("1")).answer == "no"


def menu_lines(title: str) -> list:
    """Hand-made OCR lines of a menu: a large title at the top centre, a heading lower down that
    contains "BREAKFAST", an item (boxes as tesseract gives them, pixels of an 800x600 page)."""
    from rewards.text.ocr.text_match import Line, Word

    return [
        Line((Word(title, (260, 36, 540, 80)),)),
        Line((Word("BREAKFAST", (82, 226, 276, 248)), Word("COMBOS", (287, 226, 430, 248)))),
        Line((Word("Pancakes", (106, 310, 196, 325)), Word("$7", (204, 310, 227, 328)))),
    ]


def test_reason_lists_the_element_the_locators_and_the_vlm_parts():
    """The issue's question: the element ("the large main title") and the place are checked,
    the part about the drawings is a VLM's; a title that reads "BREAKAST" is a "no" even though
    "BREAKFAST" is read in a heading, and a right title is not a "yes" while a VLM part is open."""
    from rewards.text.questions.question_compiler import ElementSpec, QuestionSpec, TextSpec

    between = "locator 'between the drawing of a lidded drink cup on the left and the donut on the right'"
    spec = QuestionSpec(
        "exact",
        TextSpec(
            ("BREAKFAST",),
            region="top_center",
            element=ElementSpec("title", phrase="large main title"),
            locators=("large main title", "at the top-center of the menu"),
        ),
        vlm_parts=(between,),
    )
    chk = Check("1", "q", spec=spec)
    no = OCRJudge().judge_lines(menu_lines("BREAKAST"), (800, 600), chk)
    assert no.answer == "no" and no.evidence["rule"] in ("element", "region"), no.reason
    assert "is the title ('large main title')" in no.reason and "locator 'at the top-center of the menu'" in no.reason
    assert no.reason.endswith(f"only a VLM can decide: {between})")
    held = OCRJudge().judge_lines(menu_lines("BREAKFAST"), (800, 600), chk)
    assert held.answer == "withheld" and held.evidence["not_checked"] == [between]
    assert "checked: string 'BREAKFAST', place top_center, is the title" in held.reason
    assert held.evidence["expects"][0]["element"] == {
        "role": "title",
        "box": [260, 36, 540, 80],
        "text": "BREAKFAST",
        "conf": 100.0,  # the lowest tesseract confidence of its words (none here: 100)
    }
    plain = QuestionSpec("exact", TextSpec(("BREAKFAST",), element=ElementSpec("title")))
    decoy = OCRJudge().judge_lines(menu_lines("BREAKAST"), (800, 600), Check("2", "q", spec=plain))
    assert decoy.answer == "no" and "not as the title" in decoy.reason and "'BREAKFAST COMBOS'" in decoy.reason


def test_a_check_quoting_thousands_of_near_misses_rereads_at_most_max_rereads(monkeypatch):
    # issue 18: one check quoting 3000 strings re-read a strip per string (0.16 s each, minutes per item)
    img = page([("Quarterly Revenue 2024", (40, 60), 28, (20, 20, 20))])
    judge = OCRJudge()
    calls = []
    real = judge.reread_strip
    monkeypatch.setattr(judge, "reread_strip", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    near = [f"Quarterly Revenue 20{i:02d}" for i in range(25, 85)]  # 60 near misses of the line
    v = one(judge, img, check(*near))
    assert v.answer == "no"
    assert calls == near[: ocr_module.MAX_REREADS] and len(v.evidence["reread"]) == ocr_module.MAX_REREADS == 16
