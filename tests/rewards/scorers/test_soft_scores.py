"""p_yes as a score: the mean_p_yes item score, refine's keep_best_by on it, the soft rubric reward."""

import numpy as np
import pytest
from PIL import Image

from refine.loop import RefineLoop
from refine.writers.template import TemplateWriter
from rewards.reward_fns import RubricReward
from rewards.rubric import Check, Criterion, Item, Rubric, Verdict
from rewards.scorers.item_scores import ITEM_SCORES, mean_p_yes, pass_rate

CHECKS = [Check("a", "Is it red?"), Check("b", "Is it bright?"), Check("c", "Is it round?"), Check("d", "Is it big?")]
ITEM = Item("i", "a red ball", Rubric((Criterion("looks", tuple(CHECKS)),)))


def test_mean_p_yes_hand_computed():
    verdicts = {
        "a": Verdict("a", "no", "vlm", p_yes=0.4),
        "b": Verdict("b", "yes", "ocr"),  # hard yes = 1
        "c": Verdict("c", "withheld", "vlm", p_yes=0.9),
    }  # withheld = 0 whatever its p_yes; d missing = 0
    assert mean_p_yes(ITEM, verdicts) == pytest.approx((0.4 + 1.0 + 0.0 + 0.0) / 4)
    hard = {c.id: Verdict(c.id, "yes" if c.id in "ab" else "no", "ocr") for c in CHECKS}
    assert mean_p_yes(ITEM, hard) == pass_rate(ITEM, hard) == 0.5
    assert ITEM_SCORES["mean_p_yes"] is mean_p_yes


class RednessJudge:
    """p_yes = 0.4 * mean red level: always below 0.5, so every answer is "no"."""

    name = "redness"

    def can_answer(self, check):
        return True

    def judge(self, images, prompts, checks):
        out = []
        for image, cs in zip(images, checks):
            p = 0.4 * float(np.asarray(image.convert("RGB"))[..., 0].mean()) / 255
            out.append([Verdict(c.id, "no", self.name, p_yes=p) for c in cs])
        return out


class AddRed:
    name = "add_red"

    def edit(self, image, instruction, failures, seed):
        a = np.asarray(image.convert("RGB")).astype(np.int16)
        a[..., 0] = np.minimum(a[..., 0] + 60, 255)
        return Image.fromarray(a.astype(np.uint8))


@pytest.mark.parametrize("keep_best_by, best", [("mean_p_yes", 3), ("pass_rate", 0)])
def test_refine_keeps_the_best_iteration_by_p_yes(tmp_path, keep_best_by, best):
    start = tmp_path / "dark.png"
    Image.new("RGB", (8, 8), (20, 20, 20)).save(start)
    item = Item("i", "a red square", Rubric((Criterion("c", (Check("1", "Is it red?"),)),)), image=start)
    loop = RefineLoop(RednessJudge(), TemplateWriter(), AddRed(), iterations=3, keep_best_by=keep_best_by)
    [res] = loop.run([item], tmp_path / "out")["items"]
    soft = [s["mean_p_yes"] for s in res["scores"]]
    assert soft == pytest.approx([0.4 * r / 255 for r in (20, 80, 140, 200)], abs=1e-6)
    assert [s["pass_rate"] for s in res["scores"]] == [0.0] * 4
    assert res["best_iteration"] == best


def test_rubric_reward_mean_p_yes_is_soft_where_pass_rate_is_flat():
    images = [Image.new("RGB", (8, 8), (r, 0, 0)) for r in (50, 200)]
    soft = RubricReward(RednessJudge(), score="mean_p_yes")(["p"] * 2, images, items=[ITEM] * 2)
    hard = RubricReward(RednessJudge(), score="pass_rate")(["p"] * 2, images, items=[ITEM] * 2)
    assert soft == pytest.approx([0.4 * 50 / 255, 0.4 * 200 / 255]) and hard == [0.0, 0.0]
