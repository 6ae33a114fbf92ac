"""The layout judge: each rule of the phrase table on pages drawn with PIL (pass, fail and
near-miss cases), questions it must not answer, and any resolution from 16 px to 1024 px."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from rewards.judges.layout import CLEAR, PHRASES, LayoutJudge, fold, match_rule
from rewards.judges.router import Router
from rewards.reward_fns import RubricReward
from rewards.rubric import Check, Item, Rubric

BAND = "Is there a dark title band across the top of the page?"
CARD = "Is there a light card in the left half of the page?"
BARS = "Do the bars rise from left to right?"
JUDGE = LayoutJudge()


def grey(v: float) -> tuple[int, int, int]:
    g = round(v * 255)
    return (g, g, g)


def page(size: int = 64, bg: float = 0.9) -> Image.Image:
    return Image.new("RGB", (size, size), grey(bg))


def with_band(size: int = 64, bg: float = 0.9, band: float = 0.2, width: float = 1.0) -> Image.Image:
    im = page(size, bg)
    ImageDraw.Draw(im).rectangle([0, 0, round(width * size) - 1, round(0.2 * size) - 1], fill=grey(band))
    return im


def with_card(size: int = 64, bg: float = 0.5, card: float = 0.95, side: str = "left") -> Image.Image:
    im = page(size, bg)
    x0, x1 = (0.05, 0.45) if side == "left" else (0.55, 0.95)
    ImageDraw.Draw(im).rectangle(
        [round(x0 * size), round(0.3 * size), round(x1 * size) - 1, round(0.9 * size) - 1], fill=grey(card)
    )
    return im


def with_bars(size: int = 64, heights=(0.2, 0.4, 0.6, 0.8)) -> Image.Image:
    im, d = page(size, 0.95), None
    d = ImageDraw.Draw(im)
    w = size / len(heights)
    for i, h in enumerate(heights):
        if h > 0:
            d.rectangle([round(i * w), size - round(h * size), round((i + 1) * w) - 1, size - 1], fill=grey(0.1))
    return im


def ask(image: Image.Image, question: str):
    return JUDGE.judge([image], ["p"], [[Check("q", question)]])[0][0]


def test_dark_band_passes_and_names_the_measured_values():
    v = ask(with_band(), BAND)
    assert v.answer == "yes" and v.judge == "layout"
    assert v.evidence["rule"] == "dark_band"
    assert v.evidence["band_mean"] == pytest.approx(0.2, abs=0.005)
    assert v.evidence["rest_mean"] == pytest.approx(0.9, abs=0.005)
    assert "0.200" in v.reason and "0.902" in v.reason and "difference 0.702" in v.reason  # 0.9 -> 230/255


def test_a_band_only_slightly_darker_is_not_dark():
    assert ask(with_band(band=0.85), BAND).answer == "no"  # a 0.05 tint
    assert ask(with_band(band=0.9 - CLEAR + 0.01), BAND).answer == "no"  # just short of clear
    assert ask(with_band(band=0.9 - CLEAR - 0.01), BAND).answer == "yes"  # just past it


def test_a_dark_patch_in_one_corner_is_no_band_across():
    v = ask(with_band(band=0.0, width=0.5), BAND)
    assert v.answer == "no"  # the band mean is 0.45 darker, but the right half of it is page
    assert max(v.evidence["band_quarters"]) == pytest.approx(0.9, abs=0.005)


def test_bottom_band_and_the_top_one_differ():
    assert ask(with_band(), "Is there a dark title band across the bottom of the page?").answer == "no"
    flipped = with_band().transpose(Image.FLIP_TOP_BOTTOM)
    assert ask(flipped, "Is there a dark title band across the bottom of the page?").answer == "yes"


@pytest.mark.parametrize(
    "band, slight, noticeable", [(0.9, "no", "no"), (0.87, "yes", "no"), (0.82, "yes", "yes"), (0.2, "yes", "yes")]
)
def test_degrees_of_a_darker_top(band, slight, noticeable):
    im = with_band(band=band)
    assert ask(im, "Is the top of the page at least slightly darker than the rest of the page?").answer == slight
    assert ask(im, "Is the top of the page noticeably darker than the rest of the page?").answer == noticeable


def test_light_card_left_passes_right_fails_and_a_faint_card_fails():
    assert ask(with_card(), CARD).answer == "yes"
    assert ask(with_card(side="right"), CARD).answer == "no"
    assert ask(with_card(side="right"), "Is there a light card in the right half of the page?").answer == "yes"
    faint = ask(with_card(card=0.6), CARD)  # 0.1 lighter than the page: not clearly
    assert faint.answer == "no" and faint.evidence["card_mean"] == pytest.approx(0.6, abs=0.005)
    dim = ask(with_card(bg=0.2, card=0.45), CARD)  # clearly lighter than the page, but itself dark
    assert dim.answer == "no" and "need >= 0.6" in dim.reason


def test_lighter_half_degrees():
    im = with_card()  # left half mean ~0.5 + 0.45 * 0.6 * 0.8 ~ 0.72 vs 0.5
    assert ask(im, "Is the left half of the page noticeably lighter than the other half?").answer == "yes"
    assert ask(im, "Is the right half of the page at least slightly lighter than the other half?").answer == "no"
    assert ask(page(), "Is the left half of the page at least slightly lighter than the other half?").answer == "no"


def test_bars_rise_fall_and_near_misses():
    v = ask(with_bars(), BARS)
    assert v.answer == "yes" and v.evidence["column_ink"] == pytest.approx([0.2, 0.4, 0.6, 0.8], abs=0.02)
    assert ask(with_bars(), "Do the bars fall from left to right?").answer == "no"
    assert ask(with_bars(heights=(0.8, 0.6, 0.4, 0.2)), "Do the bars fall from left to right?").answer == "yes"
    assert ask(with_bars(heights=(0.2, 0.6, 0.5, 0.8)), BARS).answer == "no"  # one bar drops
    assert ask(with_bars(heights=(0.5, 0.55, 0.6, 0.65)), BARS).answer == "no"  # rises only 0.15 < 0.2
    assert ask(page(), BARS).answer == "no"


def test_ink_increase_degrees():
    im = with_bars(heights=(0.3, 0.3, 0.3, 0.37))  # last group 0.07 above the first
    assert ask(im, "Does ink increase at least slightly from left to right?").answer == "yes"
    assert ask(im, "Does ink increase noticeably from left to right?").answer == "no"
    assert ask(im, "Does ink decrease at least slightly from left to right?").answer == "no"


def test_ink_coverage_parses_its_range():
    im = with_band(band=0.0)  # 20% of the page is ink
    q = "Does ink cover between {}% and {}% of the page?"
    v = ask(im, q.format(15, 50))
    assert v.answer == "yes" and v.evidence["ink_percent"] == pytest.approx(20.3, abs=0.5)
    assert ask(im, q.format(25, 50)).answer == "no"
    assert ask(page(), q.format(20, 50)).answer == "no"  # a blank page has no ink
    assert ask(Image.new("RGB", (32, 32), "black"), q.format(20, 50)).answer == "no"


@pytest.mark.parametrize(
    "question",
    [
        "Is there a dark title band across the middle of the page?",
        "Is there a dark band across the top?",
        "Is there a title band across the top of the page?",
        "Is there NOT a dark title band across the top of the page?",
        "Is there a dark title band across the top of the page",  # no question mark
        "Does ink cover between 50% and 20% of the page?",  # low > high
        "Does ink cover between 20% and 150% of the page?",
        "Does the title read 'Q3 Review'?",
        "",
    ],
)
def test_unknown_questions_are_not_answered(question):
    check = Check("x", question)
    assert not JUDGE.can_answer(check)
    v = JUDGE.judge([with_band()], ["p"], [[check]])[0][0]
    assert v.answer == "withheld" and "not a layout question" in v.reason
    via_router = Router([LayoutJudge()]).judge([with_band()], ["p"], [[check]])[0][0]
    assert via_router.answer == "withheld" and "no judge could answer" in via_router.reason


def test_case_and_spacing_are_folded_but_nothing_else():
    assert JUDGE.can_answer(Check("x", "  is THERE a dark  title band across the top of the page?"))
    assert fold(" A\tB  c ") == "a b c"
    assert all(match_rule(r.example) is not None and match_rule(r.example)[0] is r for r in PHRASES)


@pytest.mark.parametrize("size", [16, 24, 100, 1024])
def test_any_resolution_gives_the_same_answers(size):
    assert ask(with_band(size), BAND).answer == "yes"
    assert ask(with_band(size, band=0.85), BAND).answer == "no"
    assert ask(with_card(size), CARD).answer == "yes"
    assert ask(with_bars(size), BARS).answer == "yes"
    assert ask(page(size), BARS).answer == "no"


def test_non_square_and_grey_images_and_a_bad_image():
    wide = Image.new("L", (200, 40), 230)
    ImageDraw.Draw(wide).rectangle([0, 0, 199, 7], fill=30)
    assert ask(wide, BAND).answer == "yes"
    v = ask(Image.new("RGB", (0, 0)), BAND)
    assert v.answer == "withheld" and v.call_failed
    with pytest.raises(ValueError, match="2 images but 1 check lists"):
        JUDGE.judge([page(), page()], ["a", "b"], [[Check("q", BAND)]])


def test_rubric_reward_pass_rate_through_the_router():
    checks = (Check("band", BAND), Check("card", CARD), Check("bars", BARS), Check("vlm", "Is the slide pretty?"))
    item = Item("1", "p", Rubric.flat(list(checks)))
    both = with_band(bg=0.5)
    ImageDraw.Draw(both).rectangle([3, 19, 28, 57], fill=grey(0.95))
    reward = RubricReward(Router([LayoutJudge()]), score="pass_rate")
    assert reward(["p"], [both], items=[item]) == [pytest.approx(2 / 4)]  # band, card; bars no; withheld not a pass
    assert [v.answer for v in reward.last_verdicts[0]] == ["yes", "yes", "no", "withheld"]


def test_deterministic_and_fast():
    import time

    big = with_bars(1024)
    checks = [[Check(str(i), r.example) for i, r in enumerate(PHRASES)]]
    t = time.perf_counter()
    a = JUDGE.judge([big], ["p"], checks)
    assert time.perf_counter() - t < 1.0
    b = JUDGE.judge([big], ["p"], checks)
    assert [v.to_dict() for v in a[0]] == [v.to_dict() for v in b[0]]
