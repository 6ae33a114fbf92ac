"""A step on which no reward function gave a value stops the run before its update
(``training.diffusion.scoring.NoReward``): with trl's rule a sample with no reward counts 0, so a
judge server that went away would otherwise train on rewards of 0 (a tester's run did, for 40 steps)."""

from concurrent.futures import Future

import pytest
import torch
from accelerate import Accelerator
from PIL import Image

from training.diffusion.scoring import NamedReward, NoReward, score_step


def _future(total, per):
    f = Future()
    f.set_result((torch.tensor(total), {k: torch.tensor(v) for k, v in per.items()}))
    return f


def _step(per_values):
    named = [NamedReward("rubric", lambda prompts, images, **kw: [None] * len(images))]
    images = [Image.new("RGB", (8, 8))] * len(per_values)
    futures = [_future([0.0 if v != v else v for v in per_values], {"rubric": per_values})]
    return score_step(futures, [None] * len(per_values), images, named, Accelerator(cpu=True))


def test_a_step_without_any_reward_stops_before_its_update():
    nan = float("nan")
    with pytest.raises(NoReward, match=r"no reward for any of the 4 images of this step: every call of rubric"):
        _step([nan, nan, nan, nan])


def test_a_step_with_some_rewards_goes_on():
    nan = float("nan")
    out = _step([0.5, nan, 0.25, nan])
    assert out.total.tolist() == [0.5, 0.0, 0.25, 0.0]
    assert out.per_reward["rubric"][0] == pytest.approx(0.375)
