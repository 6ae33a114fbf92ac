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


def test_a_gdpo_run_logs_a_curve_per_reward(tmp_path, monkeypatch):
    """Two rewards under reward_aggregation=gdpo: every step's W&B row has rewards/<name>/mean and
    /std for each (the per-reward curves), the rows' values are the rewards' batch means, and the
    advantages the update saw are GDPO's of the step's gathered rewards."""
    import os
    from types import SimpleNamespace

    os.environ["WANDB_MODE"] = "disabled"
    from grpo_helpers import TRAIN, VAL, redness, tiny_trainer

    from rewards.models.tiny_pipelines import tiny_sd3_pipeline
    from training.diffusion import logs, loop
    from training.recipes.grpo import GRPOConfig, train

    def greenness(prompts, images, **columns):
        return [float(torch.tensor(list(im.getdata()), dtype=torch.float32)[:, 1].mean() / 255) for im in images]

    rows, seen = [], []
    monkeypatch.setattr(
        logs, "init_wandb", lambda *a: SimpleNamespace(log=lambda row, step: rows.append(row), finish=lambda: None)
    )
    real = loop.gdpo_advantages
    monkeypatch.setattr(loop, "gdpo_advantages", lambda *a, **k: seen.append((a, real(*a, **k))) or seen[-1][1])
    cfg = tiny_trainer(
        GRPOConfig,
        tmp_path,
        run_name="gdpo",
        train_sampling_steps=2,
        eval_sampling_steps=2,
        num_eval_prompts=2,
        reward_aggregation="gdpo",
        wandb_mode="offline",
    )
    fns, weights = {"red": redness, "green": greenness}, {"red": 1.0, "green": 0.5}
    train(cfg, tiny_sd3_pipeline(0), fns, weights, TRAIN, VAL, {"max_sequence_length": 16})
    step_rows = [r for r in rows if "rewards/red/mean" in r]
    assert len(step_rows) == 2 and all("rewards/green/mean" in r and "rewards/green/std" in r for r in step_rows)
    assert len(seen) == 2
    for (gathered, w, g, clip), adv in seen:
        assert w == weights and g == 4 and clip == 5.0 and set(gathered) == {"red", "green"}
        assert adv.tolist() == gdpo_advantages(gathered, weights, 4, 5.0).tolist()
    for row, ((gathered, *_), _) in zip(step_rows, seen):
        assert row["rewards/red/mean"] == pytest.approx(gathered["red"].mean().item())
        assert row["rewards/green/mean"] == pytest.approx(gathered["green"].mean().item())
