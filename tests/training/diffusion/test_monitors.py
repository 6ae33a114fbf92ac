"""Reward-hacking monitors that act (``training.diffusion.monitors``): a signal past its bound stops
the run in one line naming the signal, its value and bound, and the last good checkpoint."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import transformers
from hydra import compose, initialize_config_module

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from training import cli  # noqa: E402
from training.diffusion.checkpoint import list_checkpoints  # noqa: E402
from training.diffusion.monitors import (  # noqa: E402
    SIGNALS,
    HackingDetected,
    bound_problems,
    check_signals,
    drifted_signal,
    eval_signals,
)

TINY = [
    "model=tiny_sd3",
    "rewards=redness",
    "trainer.num_steps=3",
    "trainer.prompts_per_step=1",
    "trainer.group_size=2",
    "trainer.batch_size=2",
    "trainer.train_sampling_steps=2",
    "trainer.eval_sampling_steps=2",
    "trainer.num_eval_prompts=1",
    "trainer.timestep_fraction=1.0",
    "trainer.lora_rank=2",
    "trainer.lora_alpha=2",
    "trainer.lr=0.1",
    "trainer.save_every=1",
    "trainer.eval_every=10",
    "data.n=40",
]
STATS = ("dark_fraction", "color_entropy_bits", "edge_density", "light_fraction")


def _status(out: Path, name: str, *overrides: str) -> int:
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=[*TINY, f"trainer.output_dir={out}", f"trainer.run_name={name}", *overrides])
    try:
        cli._main(cfg)
    except SystemExit as e:
        return e.code
    return 0


def test_the_first_signal_out_of_its_bound_is_named_with_the_last_good_checkpoint(tmp_path):
    bounds = {"dark_fraction": [0.0, 0.5], "edge_density": None, "gold": [0.4, 1.0]}
    assert drifted_signal({"dark_fraction": 0.2, "edge_density": 0.9, "gold": 0.5}, bounds) is None
    assert drifted_signal({"dark_fraction": 0.2, "gold": 0.3}, bounds) == ("gold", 0.3, [0.4, 1.0])
    assert drifted_signal({"dark_fraction": float("nan")}, bounds)[0] == "dark_fraction"
    checkpoints = [tmp_path / f"step_{n}" for n in (2, 4)]
    with pytest.raises(HackingDetected) as stop:
        check_signals(4, {"dark_fraction": 0.91}, bounds, checkpoints)
    assert str(stop.value) == (
        "step 4: reward hacking: dark_fraction 0.91 left its bound [0, 0.5] (trainer.hacking_bounds.dark_fraction); "
        f"stopped before this step's checkpoint; last good checkpoint: {tmp_path / 'step_2'} "
        f"({tmp_path / 'step_4'} holds the weights that drifted)"
    )
    signals = str(list(SIGNALS))
    assert SIGNALS == (*STATS, *(f"eval_{stat}" for stat in STATS), "gold")
    assert bound_problems({"gold": [1, 0], "sharpness": [0, 1]}, "", {"redness"}) == [
        "hacking_bounds.gold must be null or [lo, hi] with lo <= hi, got [1, 0]",
        f"hacking_bounds.sharpness: no such signal (one of {signals})",
        "hacking_bounds.gold needs trainer.gold_reward (the reward that is the gold judge)",
    ]
    assert bound_problems({"gold": [0, 1]}, "judge", {"redness"}) == [
        "gold_reward 'judge' is not a configured reward (['redness'])"
    ]
    assert bound_problems({"gold": [0, 1]}, "redness", {"redness"}) == []


def test_an_evaluation_gives_its_image_statistics_and_gold_and_a_final_drift_names_the_last_checkpoint(tmp_path):
    row = {
        "eval/reward_mean": 0.4,
        "eval/images/light_fraction": 0.3,
        "eval/images/dark_fraction": 0.1,
        "eval/kind": 0.7,
    }
    assert eval_signals(row, "kind") == {"eval_light_fraction": 0.3, "eval_dark_fraction": 0.1, "gold": 0.7}
    assert eval_signals(row, "") == {"eval_light_fraction": 0.3, "eval_dark_fraction": 0.1}
    assert eval_signals({}, "kind") == {}
    checkpoints = [tmp_path / f"step_{n}" for n in (5, 10)]
    with pytest.raises(HackingDetected) as stop:
        check_signals(10, {"eval_light_fraction": 0.3}, {"eval_light_fraction": [0.4, 1.0]}, checkpoints, final=True)
    assert str(stop.value) == (
        "step 10: reward hacking: eval_light_fraction 0.3 left its bound [0.4, 1] "
        "(trainer.hacking_bounds.eval_light_fraction); at the final evaluation; "
        f"last good checkpoint: {tmp_path / 'step_5'} ({tmp_path / 'step_10'} holds the weights that drifted)"
    )


def test_a_tiny_run_whose_bound_trips_stops_in_one_line_and_keeps_its_last_good_checkpoint(tmp_path, capsys):
    """A free run shows each statistic's value at steps 0-2; a bound around steps 0-1's values
    that step 2's leaves stops the same run at step 2: exit 1, one line naming the statistic, its
    value and bound; step_1 is the last good checkpoint, step_2 (the drifted weights) is named,
    and no step_3 is written."""
    assert _status(tmp_path, "free") == 0
    stats = json.loads((tmp_path / "free" / "history.json").read_text())["image_stats"]
    name, bound = None, None
    for stat in STATS:
        v0, v1, v2 = (s[stat] for s in stats)
        lo, hi = min(v0, v1), max(v0, v1)
        if v2 > hi + 1e-6:
            name, bound = stat, [lo - 1.0, (hi + v2) / 2]
        elif v2 < lo - 1e-6:
            name, bound = stat, [(lo + v2) / 2, hi + 1.0]
        if name:
            break
    assert name, f"no statistic moved past its first two steps' range at step 2: {stats}"
    capsys.readouterr()
    assert _status(tmp_path, "bounded", f"trainer.hacking_bounds.{name}=[{bound[0]!r},{bound[1]!r}]") == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]
    run = tmp_path / "bounded"
    assert line == (
        f"rubricloop-train: step 2: reward hacking: {name} {stats[2][name]:.4g} left its bound "
        f"[{bound[0]:.4g}, {bound[1]:.4g}] (trainer.hacking_bounds.{name}); stopped before this step's checkpoint; "
        f"last good checkpoint: {run / 'step_1'} ({run / 'step_2'} holds the weights that drifted)"
    )
    assert [p.name for p in list_checkpoints(run)] == ["step_1", "step_2"]


def test_the_kind_preserving_gold_judge_is_recorded_and_its_bound_stops_the_run(tmp_path, capsys):
    """rewards=layout_kind at weight 0 is the gold judge: each evaluation records its value (the
    share of the validation chart prompts drawn as charts; the random-weight model draws noise,
    which reads as no chart) and a bound above it stops the run at its first evaluation."""
    layout = [
        "data.task=layout",
        "rewards=[rubric_layout,layout_kind]",
        "trainer.gold_reward=layout_kind",
        "trainer.num_eval_prompts=6",
        "trainer.eval_every=1",
        "trainer.num_steps=2",
    ]
    assert _status(tmp_path, "free", *layout, "trainer.hacking_bounds.gold=[0.0,1.0]") == 0
    history = json.loads((tmp_path / "free" / "history.json").read_text())
    assert [e["layout_kind"] for e in history["eval_rewards"]] == [0.0, 0.0, 0.0]
    assert history["eval_rewards"][0]["rubric"] == history["eval_reward"][0]  # the gold adds nothing (weight 0)
    capsys.readouterr()
    assert _status(tmp_path, "bounded", *layout, "trainer.hacking_bounds.gold=[0.5,1.0]") == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line == (
        "rubricloop-train: step 0: reward hacking: gold 0 left its bound [0.5, 1] (trainer.hacking_bounds.gold); "
        "stopped before this step's checkpoint; no checkpoint before it"
    )


def test_a_run_whose_pages_grey_stops_at_the_presets_light_bound_with_its_last_good_checkpoint(
    tmp_path, capsys, generator_dir
):
    """``+experiment=tiny_layout_pretrained`` bounds the white pixels of its 40 validation samples
    (``eval_light_fraction``, derived from the untrained generator's samples by
    ``scripts/layout_light_bound.py``). A run on a reward that pays for grey pages
    (``grpo_helpers.GreyPages``) starts inside the bound, greys its samples evaluation after
    evaluation, and stops in one line at the first evaluation below the bound, naming the
    checkpoint before it as the last good one and writing none after it."""
    run = tmp_path / "grey"
    overrides = [
        "+experiment=tiny_layout_pretrained",
        f"model.id={generator_dir}",
        "rewards=[redness,layout_kind]",
        "rewards.redness.fn._target_=grpo_helpers.GreyPages",
        "trainer.hacking_bounds.gold=null",  # the light bound alone
        "trainer.ema_decay=0",  # evaluate the weights trained, not their EMA
        f"trainer.output_dir={tmp_path}",
        "trainer.run_name=grey",
        "trainer.num_steps=10",
        "trainer.prompts_per_step=2",
        "trainer.batch_size=16",
        "trainer.lr=1e-2",
        "trainer.eval_every=1",
        "trainer.save_every=1",
    ]
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=overrides)
    lo, hi = cfg.trainer.hacking_bounds.eval_light_fraction
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        cli._main(cfg)
    assert stop.value.code == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]
    found = re.fullmatch(
        r"rubricloop-train: step (\d+): reward hacking: eval_light_fraction (\S+) left its bound .*", line
    )
    assert found, line
    step, value = int(found[1]), float(found[2])
    assert value < lo and 1 <= step < 10
    assert line.endswith(
        f"[{lo:.4g}, {hi:.4g}] (trainer.hacking_bounds.eval_light_fraction); stopped before this step's checkpoint; "
        f"last good checkpoint: {run / f'step_{step - 1}'} ({run / f'step_{step}'} holds the weights that drifted)"
    )
    assert list_checkpoints(run)[-1].name == f"step_{step}"
    # every evaluation before it was inside the bound, the untrained generator's first, and they fell
    light = [e["light_fraction"] for e in json.loads((run / "history.json").read_text())["eval_image_stats"]]
    assert len(light) == step and all(lo <= v <= hi for v in light), light
    assert light[-1] < light[0]
