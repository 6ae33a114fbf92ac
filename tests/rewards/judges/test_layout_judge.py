"""The layout judge: each rule of the phrase table on pages drawn with PIL (pass, fail and
near-miss cases), pages a person answers "no" that a loose rule said "yes" to (a dark page with
a light strip, a white half beside a black one, a solid triangle, a bar chart asked about a
card), questions it must not answer, and any resolution from 16 px to 1024 px."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from rewards.judges.layout import CLEAR, PHRASES, LayoutJudge, bar_runs, fold, luminance, match_rule, page_kind
from rewards.judges.router import Router
from rewards.reward_fns import RubricReward
from rewards.rubric import Check, Item, Rubric

BAND = "Is there a dark title band across the top of the page?"
CARD = "Is there a light card in the left half of the page?"
BARS = "Do the bars rise from left to right?"
BOTTOM_BAND = "Is there a dark title band across the bottom of the page?"
RIGHT_CARD = "Is there a light card in the right half of the page?"
FALL = "Do the bars fall from left to right?"
SIZES = [(200, 300), (16, 16)]  # (width, height): a page, and the tiny model's 16 px
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


def with_bars(size: int = 64, heights=(0.2, 0.4, 0.6, 0.8), gap: float = 0.3) -> Image.Image:
    """Dark bars standing on the bottom of a light page, each in an equal slot of the width with
    ``gap`` of its slot left blank (split on both sides; at least one pixel between bars when
    ``gap`` > 0); ``gap=0`` draws touching blocks (a staircase, not separate bars)."""
    return bars_page((size, size), heights, gap)


def bars_page(wh, heights=(0.2, 0.4, 0.6, 0.8), gap: float = 0.3, bg: float = 0.95) -> Image.Image:
    width, height = wh
    im = Image.new("RGB", (width, height), grey(bg))
    d = ImageDraw.Draw(im)
    w = width / len(heights)
    for i, h in enumerate(heights):
        x0, x1 = int(i * w + gap * w / 2 + 0.5), int((i + 1) * w - gap * w / 2 + 0.5) - 1
        if h > 0 and x1 >= x0:
            d.rectangle([x0, height - round(h * height), x1, height - 1], fill=grey(0.1))
    return im


def strip_page(wh) -> Image.Image:
    """A black page with a white strip across the bottom 20%: no band at the top."""
    width, height = wh
    im = Image.new("RGB", (width, height), "black")
    ImageDraw.Draw(im).rectangle([0, round(0.8 * height), width - 1, height - 1], fill="white")
    return im


def halves_page(wh) -> Image.Image:
    """Left half white, right half black: no card in either half."""
    width, height = wh
    im = Image.new("RGB", (width, height), "black")
    ImageDraw.Draw(im).rectangle([0, 0, width // 2 - 1, height - 1], fill="white")
    return im


def triangle_page(wh) -> Image.Image:
    """A solid black triangle in the lower right (right edge, bottom edge), white elsewhere."""
    width, height = wh
    im = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(im).polygon([(width - 1, 0), (width - 1, height - 1), (0, height - 1)], fill="black")
    return im


def slide_page(wh, bg: float = 0.9, band: float = 0.15) -> Image.Image:
    """A slide: a dark band across the top fifth, a light page below it."""
    width, height = wh
    im = Image.new("RGB", (width, height), grey(bg))
    ImageDraw.Draw(im).rectangle([0, 0, width - 1, round(0.2 * height) - 1], fill=grey(band))
    return im


def card_page(wh, side: str = "left", bg: float = 0.5, card: float = 0.95) -> Image.Image:
    """A light card (box) on a mid-grey page, in the left or right half."""
    width, height = wh
    im = Image.new("RGB", (width, height), grey(bg))
    x0, x1 = (0.05, 0.45) if side == "left" else (0.55, 0.95)
    box = [round(x0 * width), round(0.3 * height), round(x1 * width) - 1, round(0.9 * height) - 1]
    ImageDraw.Draw(im).rectangle(box, fill=grey(card))
    return im


def mirror(im: Image.Image) -> Image.Image:
    return im.transpose(Image.FLIP_LEFT_RIGHT)


def flip(im: Image.Image) -> Image.Image:
    return im.transpose(Image.FLIP_TOP_BOTTOM)


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
    assert v.answer == "yes" and v.evidence["bar_heights"] == pytest.approx([0.2, 0.4, 0.6, 0.8], abs=0.02)
    assert "4 separate bars" in v.reason and "0.797" in v.reason
    assert ask(with_bars(), "Do the bars fall from left to right?").answer == "no"
    assert ask(with_bars(heights=(0.8, 0.6, 0.4, 0.2)), "Do the bars fall from left to right?").answer == "yes"
    assert ask(with_bars(heights=(0.2, 0.6, 0.5, 0.8)), BARS).answer == "no"  # one bar drops
    assert ask(with_bars(heights=(0.5, 0.55, 0.6, 0.65)), BARS).answer == "no"  # rises only 0.15 < 0.2
    assert ask(page(), BARS).answer == "no"


def test_ink_increase_degrees():
    im = with_bars(heights=(0.3, 0.3, 0.3, 0.37), gap=0)  # last group 0.07 above the first
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


# --- pages a person answers "no" that the loose rules said "yes" to (and their mirrors) ---------


@pytest.mark.parametrize("wh", SIZES)
def test_a_dark_page_with_a_light_strip_at_the_bottom_has_no_top_band(wh):
    v = ask(strip_page(wh), BAND)  # was yes: top 0.000 vs the whole rest 0.25
    assert v.answer == "no"
    assert v.evidence["next_mean"] == 0.0 and v.evidence["rest_mean"] == pytest.approx(0.25, abs=0.02)
    assert "rows just below it 0.000 (difference 0.000" in v.reason
    mirrored = ask(flip(strip_page(wh)), BOTTOM_BAND)  # black page, white strip on top: no bottom band
    assert mirrored.answer == "no" and "rows just above it 0.000" in mirrored.reason
    # the weaker tilt question still says yes: the top *is* darker than the rest on average
    tilt = "Is the top of the page noticeably darker than the rest of the page?"
    assert ask(strip_page(wh), tilt).answer == "yes"


@pytest.mark.parametrize("wh", SIZES)
def test_a_grey_top_over_a_light_strip_on_a_darker_page_is_no_dark_band(wh):
    width, height = wh
    im = Image.new("RGB", wh, grey(0.2))
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, width - 1, round(0.2 * height) - 1], fill=grey(0.3))
    d.rectangle([0, round(0.2 * height), width - 1, round(0.4 * height) - 1], fill=grey(0.6))
    v = ask(im, BAND)  # an edge to the strip below, but the top is not darker than the page as a whole
    assert v.answer == "no" and v.evidence["next_mean"] - v.evidence["band_mean"] >= CLEAR
    assert v.evidence["rest_mean"] - v.evidence["band_mean"] < CLEAR


@pytest.mark.parametrize("wh", SIZES)
def test_a_white_half_beside_a_black_half_has_no_card(wh):
    v = ask(halves_page(wh), CARD)  # was yes: the left box is 1.0 lighter than the right half
    assert v.answer == "no"
    assert v.evidence["card_mean"] == v.evidence["frame_mean"] == 1.0 and v.evidence["other_mean"] == 0.0
    assert "vs its frame in that half 1.000 (difference 0.000" in v.reason
    assert ask(mirror(halves_page(wh)), RIGHT_CARD).answer == "no"
    tilt = "Is the left half of the page noticeably lighter than the other half?"
    assert ask(halves_page(wh), tilt).answer == "yes"  # a tilt, not a card


@pytest.mark.parametrize("wh", SIZES)
def test_a_solid_triangle_is_no_rising_bars_and_no_card(wh):
    tri = triangle_page(wh)
    v = ask(tri, BARS)  # was yes: column groups 0.13 -> 0.88
    assert v.answer == "no" and len(v.evidence["bar_heights"]) == 1 and "1 separate bars" in v.reason
    assert ask(mirror(tri), FALL).answer == "no"  # triangle in the lower left: no falling bars either
    c = ask(tri, CARD)  # was yes: the left box 0.74 vs the right one 0.05
    assert c.answer == "no" and c.evidence["frame_sides"]["above"] == 1.0
    assert c.evidence["edges"] == ["below", "right of"] and "above 1.000" in c.reason
    assert ask(mirror(tri), RIGHT_CARD).answer == "no"
    # the tilt question about ink still says yes: ink does increase
    assert ask(tri, "Does ink increase noticeably from left to right?").answer == "yes"


@pytest.mark.parametrize("wh", SIZES)
def test_a_bar_chart_has_no_light_card(wh):
    chart = bars_page(wh)
    assert ask(chart, BARS).answer == "yes"
    v = ask(chart, CARD)  # was yes: the left box 0.79 vs the right one 0.43
    assert v.answer == "no" and v.evidence["card_mean"] < v.evidence["frame_sides"]["above"]
    assert len(v.evidence["edges"]) <= 2
    assert ask(mirror(chart), RIGHT_CARD).answer == "no"  # falling bars, asked about the right half
    assert ask(mirror(chart), FALL).answer == "yes"


def test_a_staircase_of_touching_blocks_is_not_separate_bars():
    stairs = with_bars(gap=0)
    v = ask(stairs, BARS)
    assert v.answer == "no" and "1 separate bars" in v.reason
    assert ask(stairs, "Does ink increase noticeably from left to right?").answer == "yes"


def test_two_bars_are_no_trend_and_a_flat_step_is_no_rise():
    assert ask(with_bars(heights=(0.2, 0.8)), BARS).answer == "no"  # need 3 bars
    assert ask(with_bars(heights=(0.2, 0.5, 0.8)), BARS).answer == "yes"
    assert ask(with_bars(100, heights=(0.2, 0.5, 0.51, 0.8)), BARS).answer == "no"  # one step 1 px (0.01 < 0.02)


def test_a_band_over_a_chart_and_a_thin_axis_do_not_hide_the_bars():
    im = bars_page((200, 300))
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, 199, 59], fill=grey(0.1))  # a title band; the tallest bar touches it
    d.rectangle([0, 298, 199, 299], fill=grey(0.1))  # an x axis
    d.rectangle([2, 60, 3, 299], fill=grey(0.1))  # a 2 px y axis: narrower than a bar, left out
    assert ask(im, BARS).answer == "yes"
    v = ask(im, BAND)
    assert v.answer == "yes" and v.evidence["band_mean"] == pytest.approx(0.1, abs=0.005)
    floor, runs = bar_runs(luminance(im))
    assert len(runs) == 4 and floor == pytest.approx(62 / 300, abs=0.005)


@pytest.mark.parametrize("wh", SIZES)
def test_real_positives_pass_at_both_sizes(wh):
    slide = slide_page(wh)
    v = ask(slide, BAND)
    assert v.answer == "yes" and v.evidence["next_mean"] == pytest.approx(0.9, abs=0.005)
    assert ask(flip(slide), BOTTOM_BAND).answer == "yes"
    assert ask(card_page(wh), CARD).answer == "yes"
    assert ask(card_page(wh, side="right"), RIGHT_CARD).answer == "yes"
    assert ask(card_page(wh, side="right"), CARD).answer == "no"
    for heights in [(0.3, 0.55, 0.8), (0.2, 0.4, 0.6, 0.8), (0.2, 0.35, 0.5, 0.65, 0.8)]:
        chart = bars_page(wh, heights)
        assert ask(chart, BARS).answer == "yes", heights
        assert ask(chart, FALL).answer == "no", heights
        assert ask(mirror(chart), FALL).answer == "yes", heights
    both = slide_page(wh, bg=0.5, band=0.1)  # band and card together, the slide the task asks for
    width, height = wh
    box = [round(0.05 * width), round(0.3 * height), round(0.45 * width) - 1, round(0.9 * height) - 1]
    ImageDraw.Draw(both).rectangle(box, fill=grey(0.95))
    assert ask(both, BAND).answer == "yes" and ask(both, CARD).answer == "yes"


def test_a_card_needs_edges_on_three_sides():
    im = page(64, 0.5)  # a light box whose right side meets the middle of the page: still a card
    ImageDraw.Draw(im).rectangle([3, 19, 31, 57], fill=grey(0.95))
    v = ask(im, CARD)
    assert v.answer == "yes" and v.evidence["edges"] == ["above", "below", "left of"]
    im = page(64, 0.5)  # a light corner: top left of the page to 90% down and to the middle: one edge (below)
    ImageDraw.Draw(im).rectangle([0, 0, 31, 57], fill=grey(0.95))
    v = ask(im, CARD)
    assert v.answer == "no" and v.evidence["edges"] == ["below"] and "(need >= 3)" in v.reason


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


RUNG = "Do the bars rise {} from left to right?"
NO_CARD = "Is the page free of light cards?"
BACKGROUND = "Is the page's background white or nearly white?"


def test_the_bars_rungs_need_three_separate_bars_and_a_rise_of_the_last_over_the_first():
    uneven = with_bars(heights=(0.2, 0.6, 0.5, 0.8))  # one bar drops: the strict rule says no
    assert ask(uneven, BARS).answer == "no"
    v = ask(uneven, RUNG.format("noticeably"))
    assert v.answer == "yes" and v.evidence["bar_heights"] == pytest.approx([0.2, 0.6, 0.5, 0.8], abs=0.02)
    small = with_bars(heights=(0.5, 0.5, 0.5, 0.57))  # last 0.07 above the first
    assert ask(small, RUNG.format("at least slightly")).answer == "yes"
    assert ask(small, RUNG.format("noticeably")).answer == "no"
    assert ask(with_bars(heights=(0.2, 0.8)), RUNG.format("at least slightly")).answer == "no"  # two bars
    assert ask(with_bars(gap=0), RUNG.format("at least slightly")).answer == "no"  # a staircase is one run
    assert ask(mirror(with_bars()), RUNG.format("at least slightly")).answer == "no"
    assert ask(mirror(with_bars()), "Do the bars fall noticeably from left to right?").answer == "yes"
    # a light block on the left of a dark-edged page tilts the ink (the weaker hint says yes), but has no bars
    im = page(32, 0.6)
    ImageDraw.Draw(im).rectangle([2, 8, 14, 28], fill=grey(0.98))
    ImageDraw.Draw(im).rectangle([28, 0, 31, 31], fill=grey(0.1))
    assert ask(im, "Does ink increase noticeably from left to right?").answer == "yes"
    assert ask(im, RUNG.format("at least slightly")).answer == "no"


@pytest.mark.parametrize("wh", SIZES)
def test_a_chart_is_free_of_cards_on_a_light_background_and_a_slide_is_neither(wh):
    chart = bars_page(wh)
    assert ask(chart, NO_CARD).answer == "yes" and ask(mirror(chart), NO_CARD).answer == "yes"
    v = ask(chart, BACKGROUND)
    assert v.answer == "yes" and v.evidence["median"] == pytest.approx(0.949, abs=0.002)
    for side in ("left", "right"):
        slide = card_page(wh, side)  # a light card on a mid-grey body
        v = ask(slide, NO_CARD)
        assert v.answer == "no" and v.evidence["cards"] == [side] and f"{side}: a card" in v.reason
        assert ask(slide, BACKGROUND).answer == "no"
    assert ask(bars_page(wh, bg=0.8), BACKGROUND).answer == "no"  # a grey page is no white page (0.8 < 0.85)
    assert ask(bars_page(wh, bg=0.87), BACKGROUND).answer == "yes"


@pytest.mark.parametrize("wh", SIZES)
def test_page_kind_reads_a_chart_a_slide_and_neither(wh):
    assert page_kind(luminance(bars_page(wh))) == "chart"
    assert page_kind(luminance(card_page(wh, "right"))) == "slide"
    chart_with_card = bars_page(wh)  # a card drawn over a chart's left half: it has drifted to a slide
    w, h = wh
    ImageDraw.Draw(chart_with_card).rectangle([0, 0, w // 2, h - 1], fill=grey(0.5))
    ImageDraw.Draw(chart_with_card).rectangle(
        [round(0.05 * w), round(0.3 * h), round(0.45 * w), round(0.9 * h)], fill=grey(0.97)
    )
    assert page_kind(luminance(chart_with_card)) == "slide"
    assert page_kind(luminance(page(32))) is None  # a blank page
    assert page_kind(luminance(with_bars(heights=(0.2, 0.8)))) is None  # two bars: no chart yet
