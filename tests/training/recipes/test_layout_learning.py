"""Every algorithm (Flow-GRPO, DiffusionNFT, AWM), started from the tiny layout generator
pretrained here (``training.diffusion.pretrain``: 32 px pages it learned to draw), raises the
held-out pass rate of the strict layout checks (a dark title band, a light card, rising bars) on
a trainer seed not tuned on.

The reward is the rubric pass rate of every check (strict and weaker ones) through the real path
(rubric -> ``LayoutJudge`` -> verdicts -> ``RubricReward``); the test reads the strict ones from
each evaluation's check pass rates (``history["eval_checks"]``: 40 validation items, the same
evaluation noise before and after). The strict pass rate is the mean of the band, card and bars
pass rates. The chart rubric also asks that a chart hold no light card and stand on a white page
(``training.procedural.layout_data``: before it did, NFT and AWM drew slides' cards on charts), and
the test asserts that no more than 0.1 of the validation chart prompts get one. The settings
(steps, learning rates, AWM's timestep sampler, NFT's KL weight 0.1) were chosen on trainer seed 0,
where the strict pass rate rose 0.358 -> 0.695 (GRPO, 40 steps of 4 prompts), 0.806 (NFT) and
0.750 (AWM) on this rubric; the margins asserted are less than half of those rises. Seeds 1-3 were
run while writing this test with earlier settings (GRPO with 2 prompts a step rose 0.075 on seed 2
and nothing on seed 3; AWM with the reference's timestep sampler, which leaves out the first step,
fell on seed 1), so the test runs trainer seed 4, used for nothing else (figures in
docs/training.md#the-tiny-layout-generator).

The generator is built once per session when ``checkpoints/pretrained/tiny_layout_sd3`` does
not hold it (a clean clone: 106 s on one thread here), and reused after.
"""

from __future__ import annotations

import os

os.environ["WANDB_MODE"] = "disabled"

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

from rewards.judges.layout import LayoutJudge  # noqa: E402
from rewards.judges.router import Router  # noqa: E402
from rewards.reward_fns import LayoutKindReward, RubricReward  # noqa: E402
from training import recipes  # noqa: E402
from training.diffusion.pretrain import DEFAULT_DIR, load_pretrained  # noqa: E402
from training.procedural.data import make_dataset  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
SEED = 4  # a report seed: the settings below were chosen on seed 0
STRICT = ("band", "card", "bars")

RECIPES = {  # algorithm -> (steps, the recipe's own overrides, the asserted rise of the strict pass rate)
    "grpo": (40, {"lr": 3e-3, "prompts_per_step": 4, "batch_size": 32}, 0.15),  # 4 prompts of 8 a step
    "nft": (30, {"lr": 1e-2, "beta": 0.1}, 0.15),  # KL to the base: without it the charts lost their bars (seed 0)
    "awm": (  # "discrete": the K training timesteps may include the first step (sigma 1), where the layout is set
        30,
        {
            "lr": 5e-3,
            "awm_timestep_sampler": "discrete",
            "clip_range": 1.0,
            "noise_level": 0.566,
            "awm_train_timesteps": 4,
        },
        0.15,
    ),
}


@pytest.fixture(scope="session")
def generator_dir() -> Path:
    """The pretrained generator's folder, built here when missing (``ensure_pretrained``)."""
    from training.diffusion.pretrain import ensure_pretrained

    return ensure_pretrained(REPO / DEFAULT_DIR)


def strict_pass_rate(checks: dict[str, float]) -> float:
    """Mean of the band, card and bars pass rates of one evaluation."""
    return sum(checks[f"checks/{tag}/pass_rate"] for tag in STRICT) / len(STRICT)


@pytest.mark.parametrize("algorithm", sorted(RECIPES))
def test_every_algorithm_raises_the_heldout_strict_layout_checks(tmp_path, generator_dir, algorithm):
    torch.set_num_threads(1)
    steps, overrides, margin = RECIPES[algorithm]
    train_items, val_items = make_dataset(400, 0, val_fraction=0.1, task="layout")
    shared = dict(
        output_dir=str(tmp_path),
        run_name=algorithm,
        seed=SEED,
        num_steps=steps,
        prompts_per_step=2,
        group_size=8,
        batch_size=16,
        resolution=32,
        train_sampling_steps=4,
        eval_sampling_steps=4,
        timestep_fraction=1.0,
        cfg=False,
        beta=0.0,
        lora_rank=4,
        lora_alpha=4,
        lora_target_modules=["to_q", "to_k", "to_v", "to_out.0", "proj_out"],
        eval_every=steps,
        num_eval_prompts=40,
        save_every=1000,
    )
    cfg = recipes.recipe(algorithm).CONFIG(**{**shared, **overrides})
    reward = RubricReward(Router([LayoutJudge()]), score="pass_rate")
    history = recipes.recipe(algorithm).train(
        cfg,
        load_pretrained(generator_dir),
        {"rubric": reward, "layout_kind": LayoutKindReward()},  # the kind-preserving gold judge, weight 0
        {"rubric": 1.0, "layout_kind": 0.0},
        train_items,
        val_items,
        {"max_sequence_length": 16},
    )
    assert history["eval_step"] == [0, steps]
    first, last = history["eval_checks"]
    before, after = strict_pass_rate(first), strict_pass_rate(last)
    assert 0.2 < before < 0.6  # the pretrained generator draws layouts, following its prompts in part
    assert after > before + margin, history["eval_checks"]
    # no strict check is given up for the others: drawing a slide for every prompt (a collapse seen
    # while tuning AWM) passes band and card everywhere and loses the charts' bars
    for tag in STRICT:
        assert last[f"checks/{tag}/pass_rate"] >= first[f"checks/{tag}/pass_rate"] - 0.1, (tag, first, last)
    # charts stay charts: no more than 2 of the 24 validation chart prompts are drawn with a slide's
    # light card (before the chart rubric asked for none, NFT drew one on 8 of them, seed 0)
    assert first["checks/no_card/pass_rate"] == 1.0 and last["checks/no_card/pass_rate"] >= 0.9, last
    # the kind-preserving gold judge is recorded (weight 0): charts with no card and three separate bars
    kept = [e["layout_kind"] for e in history["eval_rewards"]]
    print(f"\n{algorithm} seed {SEED}: strict {before:.3f} -> {after:.3f}; charts kept {kept}; checks {last}")
    assert len(kept) == 2 and kept[0] == 0.75, kept
