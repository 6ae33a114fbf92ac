"""Several rewards into one advantage (``training.diffusion.reward_aggregation``): the weighted sum
and GDPO (Flow-Factory's ``compute_gdpo``: each reward normalised in its group, weighted sum, batch
normalisation), on hand-computed values."""

from __future__ import annotations

import math

import pytest
import torch

from training.diffusion.grpo_math import group_advantages
from training.diffusion.reward_aggregation import gdpo_advantages


def test_gdpo_normalises_each_reward_within_its_group_before_the_sum():
    # groups of 2: a = [1, 3 | 0, 0] -> [-1, 1 | 0, 0] (a constant group: 0 / 1e-6 = 0);
    # b = [0.5, 0.1 | 2, 4] -> [1, -1 | -1, 1]; c = a + 2 b = [1, -1 | -2, 2], mean 0, std sqrt(2.5)
    rewards = {"a": torch.tensor([1.0, 3.0, 0.0, 0.0]), "b": torch.tensor([0.5, 0.1, 2.0, 4.0])}
    adv = gdpo_advantages(rewards, {"a": 1.0, "b": 2.0}, group_size=2, clip=5.0)
    assert adv.dtype == torch.float64
    assert adv.tolist() == pytest.approx(
        [1 / math.sqrt(2.5), -1 / math.sqrt(2.5), -2 / math.sqrt(2.5), 2 / math.sqrt(2.5)]
    )
    # the weighted sum first (a + 2 b = [2, 3.2 | 4, 8]) lets b's larger spread in group 2 dominate
    summed = group_advantages(rewards["a"] + 2 * rewards["b"], 2, "global", clip=5.0)
    std = math.sqrt(5.07)  # population std of [2, 3.2, 4, 8]
    assert summed.tolist() == pytest.approx(
        [-0.6 / (std + 1e-4), 0.6 / (std + 1e-4), -2 / (std + 1e-4), 2 / (std + 1e-4)]
    )


def test_gdpo_skips_a_missing_reward_and_zeroes_constant_groups():
    # a gave no value for image 1: normalised over [1, 3] -> [-1, 0, 1]; b = [0, 1, 2] -> [-1, 0, 1] * sqrt(1.5)
    rewards = {
        "a": torch.tensor([1.0, math.nan, 3.0, 5.0, 5.0, 5.0]),
        "b": torch.tensor([0.0, 1.0, 2.0, 7.0, 7.0, 7.0]),
    }
    adv = gdpo_advantages(rewards, {"a": 1.0, "b": 1.0}, group_size=3, clip=5.0)
    # c = [-1 - 1.2247, 0, 1 + 1.2247 | 0, 0, 0]: mean 0, std = 2.2247 * sqrt(2 / 6)
    want = 1 / math.sqrt(1 / 3)
    assert adv.tolist() == pytest.approx([-want, 0.0, want, 0.0, 0.0, 0.0])
    assert gdpo_advantages(rewards, {"a": 1.0, "b": 1.0}, group_size=3, clip=1.5).tolist() == pytest.approx(
        [-1.5, 0.0, 1.5, 0.0, 0.0, 0.0]
    )
    with pytest.raises(ValueError, match="need weights"):
        gdpo_advantages(rewards, {"a": 1.0}, group_size=3, clip=5.0)
    with pytest.raises(ValueError, match="groups of 4"):
        gdpo_advantages(rewards, {"a": 1.0, "b": 1.0}, group_size=4, clip=5.0)
