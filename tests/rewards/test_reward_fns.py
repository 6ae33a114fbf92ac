"""Reward functions, combine_rewards, AsyncRewarder and the reward-hacking image statistics."""

from __future__ import annotations

import logging
import math
import threading

import numpy as np
import pytest
import torch
from PIL import Image, ImageDraw, ImageFont

from rewards.image_stats import color_entropy, dark_fraction, edge_density, image_stats, light_fraction
from rewards.judges.ocr import OCRJudge
from rewards.reward_fns import (
    AsyncRewarder,
    LayoutKindReward,
    OCRTextReward,
    RedFractionReward,
    RubricReward,
    combine_rewards,
    ocr_text_reward,
    quoted_target,
    tag_pass_rates,
)
from rewards.rubric import Check, Criterion, Item, Rubric, Verdict
from training.procedural.data import make_dataset

FONT_PATH = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT_PATH, size)
    except OSError:
        return ImageFont.load_default(size=size)


def render(lines: list[str], size: tuple[int, int] = (640, 120), px: int = 48, gap: int = 70) -> Image.Image:
    """Black text lines on white, left-aligned, one every ``gap`` pixels from y = 20."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for k, text in enumerate(lines):
        draw.text((20, 20 + k * gap), text, fill="black", font=font(px))
    return image


def pixels(rows: list[list[tuple[int, int, int]]]) -> Image.Image:
    return Image.fromarray(np.array(rows, dtype=np.uint8), "RGB")


# ---------------------------------------------------------------- programmatic rewards and stats


def test_red_fraction_half_red_and_thresholds():
    half = Image.new("RGB", (10, 4), "white")
    half.paste((255, 0, 0), (0, 0, 5, 4))
    # Only (151, 99, 99) is red: R must exceed 150, G and B must stay below 100.
    edge = pixels([[(151, 99, 99), (150, 0, 0), (200, 100, 0), (255, 0, 100)]])
    assert RedFractionReward()(["a", "b"], [half, edge]) == [0.5, 0.25]


def test_image_stats_hand_computed():
    w, h = 10, 6
    split = Image.new("RGB", (w, h), "white")
    split.paste((0, 0, 0), (0, 0, 5, h))
    assert dark_fraction(split) == 0.5
    assert color_entropy(split) == pytest.approx(1.0)
    # One luma step of 1.0 between columns 4 and 5: one edge pixel per row of the (h-1) x (w-1) grid.
    assert edge_density(split) == pytest.approx(1 / (w - 1))

    # Luma 25/255 = 0.098 is dark, 26/255 = 0.102 is not.
    assert dark_fraction(pixels([[(25, 25, 25), (26, 26, 26)]])) == 0.5
    # Four colours in equal shares: 2 bits; (0,0,0) and (15,15,15) share a 4-bit bin: 0 bits.
    assert color_entropy(pixels([[(0, 0, 0), (255, 0, 0)], [(0, 255, 0), (0, 0, 255)]])) == pytest.approx(2.0)
    assert color_entropy(pixels([[(0, 0, 0), (15, 15, 15)]])) == 0.0
    # A luma ramp of 0.05 per pixel stays under the 0.1 edge threshold.
    ramp = np.repeat((np.arange(8) * 0.05 * 255).round().astype(np.uint8)[None, :, None], 3, axis=2).repeat(3, axis=0)
    assert edge_density(Image.fromarray(ramp, "RGB")) == 0.0

    black, white = Image.new("RGB", (4, 4), "black"), Image.new("L", (4, 4), 255)
    # Luma 217/255 = 0.851 is nearly white, 216/255 = 0.847 is not; the split page is half white.
    assert light_fraction(pixels([[(217, 217, 217), (216, 216, 216), (255, 255, 255), (0, 0, 0)]])) == 0.5
    assert light_fraction(split) == 0.5
    assert image_stats([black, white]) == {
        "dark_fraction": 0.5,
        "color_entropy_bits": 0.0,
        "edge_density": 0.0,
        "light_fraction": 0.5,
    }
    stats = image_stats([split, black])
    assert stats["light_fraction"] == pytest.approx((0.5 + 0.0) / 2)
    assert stats["dark_fraction"] == pytest.approx((0.5 + 1.0) / 2)
    assert stats["color_entropy_bits"] == pytest.approx(0.5)
    assert stats["edge_density"] == pytest.approx(1 / (w - 1) / 2)
    with pytest.raises(ValueError, match="no images"):
        image_stats([])


# ---------------------------------------------------------------- OCR reward


def test_ocr_text_reward_formula():
    assert quoted_target('A slide titled "Q3 Revenue" with "Other"') == "Q3 Revenue"
    assert quoted_target("A poster “Grand Opening” today") == "Grand Opening"
    assert quoted_target("no quotes here") is None
    assert ocr_text_reward("QUARTERLY revenue", "Quarterly Revenue") == 1.0  # spaces and case ignored
    assert ocr_text_reward("abxd", "abcd") == 0.75
    assert ocr_text_reward("intro abcd outro", "abcd") == 1.0  # contained: distance 0
    assert ocr_text_reward("zzzzzzzzzzzzzz", "abcd") == 0.0  # capped at len(target)
    assert ocr_text_reward(["a long unrelated line", "abxd"], "abcd") == 0.75  # best line
    assert ocr_text_reward([], "abcd") == 0.0
    assert ocr_text_reward("ABCD", "abcd", case_sensitive=True) == 0.0
    with pytest.raises(ValueError, match="empty target"):
        ocr_text_reward("x", "  ")


def test_ocr_text_reward_on_rendered_text():
    target = "Quarterly Revenue"
    n = len(target.replace(" ", ""))  # 16
    prompt = f'A banner reading "{target}" on white'
    reward = OCRTextReward(psm=7)
    exact, one_sub = reward([prompt, prompt], [render([target]), render(["Quarterly Revenux"])])
    assert exact == 1.0
    assert abs(one_sub - (1 - 1 / n)) <= 1 / n  # one substitution, within one character of OCR noise
    assert one_sub < 1.0
    assert reward(["no quoted text"], [render([target])]) == [None]

    slide = render(["Quarterly Revenux", "Sales up 12% in Europe", "Acme Corp"], size=(800, 260))
    joined = OCRTextReward()([prompt], [slide])[0]
    per_line = OCRTextReward(per_line=True)([prompt], [slide])[0]
    assert joined == 0.0  # the other lines push the distance past len(target)
    assert abs(per_line - (1 - 1 / n)) <= 1 / n and per_line < 1.0


# ---------------------------------------------------------------- rubric reward


class ScriptedJudge:
    """A judge that answers from a table: (image index, check id) -> (answer, p_yes)."""

    name = "scripted"

    def __init__(self, table):
        self.table = table

    def can_answer(self, check):
        return True

    def judge(self, images, prompts, checks):
        out = []
        for i, cs in enumerate(checks):
            answers = [self.table.get((i, c.id), ("withheld", None)) for c in cs]
            out.append([Verdict(c.id, answer, self.name, p_yes=p) for c, (answer, p) in zip(cs, answers)])
        return out


def two_criteria_item() -> Item:
    a1, a2, b1 = Check("a1", "?", tag="title"), Check("a2", "?", tag="title"), Check("b1", "?", tag="legend")
    return Item("it", 'prompt "T"', Rubric((Criterion("A", (a1, a2)), Criterion("B", (b1,)))))


def test_rubric_reward_scores_by_hand():
    item = two_criteria_item()
    table = {
        (0, "a1"): ("yes", 0.9),
        (0, "a2"): ("no", 0.2),
        (0, "b1"): ("withheld", 0.7),
        # image 1: nothing answered -> None; image 2: answered, but no p_yes.
        (2, "a1"): ("yes", None),
        (2, "a2"): ("yes", None),
        (2, "b1"): ("yes", None),
    }
    judge = ScriptedJudge(table)
    images = [Image.new("RGB", (8, 8))] * 3
    prompts = [item.prompt] * 3
    expected = {
        "pass_rate": [1 / 3, None, 1.0],
        "rubric_accuracy": [1 - 2 / 3, None, 1.0],
        "criterion_score": [(0.5**1 + 0.5**1) / 2, None, 1.0],
        "bizgeneval": [1 - 0.1 * 2, None, 1.0],
        "p_yes": [(0.9 + 0.2) / 2, None, None],  # withheld b1's p_yes is excluded
    }
    for score, want in expected.items():
        got = RubricReward(judge, score=score)(prompts, images, items=[item] * 3)
        assert [None if g is None else pytest.approx(g) for g in got] == [
            None if w is None else pytest.approx(w) for w in want
        ], score
    reward = RubricReward(judge)
    reward(prompts, images, items=[item] * 3)
    # title: a1 yes x2, a2 no, yes -> 3 of 6; legend: withheld, withheld, yes -> 1 of 3.
    assert tag_pass_rates([item] * 3, reward.last_verdicts) == {"title": 0.5, "legend": pytest.approx(1 / 3)}

    with pytest.raises(ValueError, match="unknown score 'mean'"):
        RubricReward(judge, score="mean")
    with pytest.raises(ValueError, match="needs the 'items' column"):
        reward(prompts, images)


def test_rubric_reward_with_ocr_judge_on_rendered_slide():
    train, _ = make_dataset(3, seed=11, kinds=("slide",), val_fraction=0.0)
    item = train[0]
    spec = item.meta["spec"]
    lines = [spec["title"], *spec["bullets"], spec["footer"]]
    size = (900, 60 + 60 * len(lines))
    full = render(lines, size=size, px=32, gap=(size[1] - 80) // (len(lines) - 1))
    # The same slide without its first bullet fails exactly that check.
    partial = render(
        [spec["title"], "", *spec["bullets"][1:], spec["footer"]],
        size=size,
        px=32,
        gap=(size[1] - 80) // (len(lines) - 1),
    )
    n_checks = len(item.rubric.checks)
    got = RubricReward(OCRJudge(), score="pass_rate")([item.prompt] * 2, [full, partial], items=[item, item])
    assert got == [1.0, pytest.approx((n_checks - 1) / n_checks)]


# ---------------------------------------------------------------- combine_rewards and AsyncRewarder


def const(name, values):
    def fn(prompts, images, **columns):
        return values

    fn.__name__ = name
    return fn


def test_combine_rewards_weights_and_none():
    prompts, images = ["a", "b", "c"], [Image.new("RGB", (2, 2))] * 3
    f1 = const("f1", [1.0, None, 0.5])
    f2 = const("f2", [0.2, 0.4, None])
    total, per_fn = combine_rewards([f1, f2], [2.0, 0.5], prompts, images)
    assert total.dtype == torch.float32 and total.shape == (3,)
    assert total.tolist() == pytest.approx([2 * 1.0 + 0.5 * 0.2, 0.5 * 0.4, 2 * 0.5])
    assert list(per_fn) == ["f1", "f2"]
    assert per_fn["f1"][0].item() == 1.0 and math.isnan(per_fn["f1"][1].item())

    # Columns reach every function (here the items column).
    def item_len(prompts, images, items, **columns):
        return [float(len(i)) for i in items]

    total, _ = combine_rewards([item_len], [1.0], prompts, images, items=["x", "yy", "zzz"])
    assert total.tolist() == [1.0, 2.0, 3.0]


def test_combine_rewards_all_none_sample_is_zero_and_warns(caplog):
    with caplog.at_level(logging.WARNING, logger="rewards.reward_fns"):
        total, _ = combine_rewards([const("f1", [None, 1.0])], [3.0], ["a", "b"], [None, None])
    assert total.tolist() == [0.0, 3.0]
    assert "sample(s) [0]" in caplog.text


@pytest.mark.parametrize(
    "values, message",
    [
        ([1.0, 2.0], "reward function 'bad' returned 2 values for 3 samples"),
        ([1.0, float("nan"), 0.0], "reward function 'bad' returned nan for sample 1"),
        ([1.0, 0.0, float("inf")], "reward function 'bad' returned inf for sample 2"),
        ([1.0, "0.5", 0.0], "reward function 'bad' returned a str for sample 1"),
        ([True, 0.0, 0.0], "reward function 'bad' returned a bool for sample 0"),
        ({"a": 1}, "reward function 'bad' must return a list"),
    ],
)
def test_combine_rewards_rejects_bad_output(values, message):
    with pytest.raises(ValueError) as e:
        combine_rewards([const("good", [0.0] * 3), const("bad", values)], [1.0, 1.0], ["a"] * 3, [None] * 3)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_combine_rewards_rejects_bad_setup():
    with pytest.raises(ValueError, match="1 weights for 2 reward functions"):
        combine_rewards([const("a", [1.0]), const("b", [1.0])], [1.0], ["p"], [None])
    with pytest.raises(ValueError, match="two reward functions are named 'a'"):
        combine_rewards([const("a", [1.0]), const("a", [1.0])], [1.0, 1.0], ["p"], [None])
    with pytest.raises(ValueError, match="2 prompts but 1 images"):
        combine_rewards([const("a", [1.0])], [1.0], ["p", "q"], [None])


def test_async_rewarder_overlaps_and_propagates_errors():
    started, release = threading.Event(), threading.Event()

    def slow(prompts, images, **columns):
        started.set()
        assert release.wait(10), "the main thread never released the reward"
        return [float(len(p)) for p in prompts]

    with AsyncRewarder([slow], [0.5]) as rewarder:
        prompts = ["ab", "abcd"]
        future = rewarder.submit(prompts, [None, None])
        assert started.wait(10)
        assert not future.done()  # the reward is still running while the caller goes on (samples)
        prompts.append("xyz")  # the caller reuses its buffer: the submitted batch is a copy
        release.set()
        total, per_fn = future.result(timeout=10)
    assert total.tolist() == [1.0, 2.0]
    assert per_fn["slow"].tolist() == [2.0, 4.0]

    with AsyncRewarder([const("short", [1.0])], [1.0]) as rewarder:
        with pytest.raises(ValueError, match="'short' returned 1 values for 2 samples"):
            rewarder.submit(["a", "b"], [None, None]).result(timeout=10)
    with pytest.raises(ValueError, match="2 weights for 1 reward functions"):
        AsyncRewarder([const("a", [1.0])], [1.0, 2.0])


def test_layout_kind_reward_is_the_share_of_chart_prompts_still_drawn_as_charts():
    chart = Image.new("RGB", (32, 32), (240, 240, 240))
    for i, h in enumerate((8, 14, 20)):  # three separate dark bars
        ImageDraw.Draw(chart).rectangle([4 + 9 * i, 31 - h, 9 + 9 * i, 31], fill=(20, 20, 20))
    slide = Image.new("RGB", (32, 32), (128, 128, 128))
    ImageDraw.Draw(slide).rectangle([2, 10, 13, 28], fill=(250, 250, 250))
    items = [
        Item("c1", "a chart", Rubric(()), meta={"kind": "chart"}),
        Item("c2", "a chart", Rubric(()), meta={"kind": "chart"}),
        Item("s1", "a slide", Rubric(()), meta={"kind": "slide"}),
        Item("x", "no kind", Rubric(())),
    ]
    images = [chart, slide, slide, chart]
    prompts = [it.prompt for it in items]
    assert LayoutKindReward()(prompts, images, items=items) == [1.0, 0.0, None, None]
    both = LayoutKindReward(kinds=("chart", "slide"), name="kinds")
    assert both(prompts, images, items=items) == [1.0, 0.0, 1.0, None] and both.name == "kinds"
    with pytest.raises(ValueError, match="needs the 'items' column"):
        LayoutKindReward()(prompts, images)
