"""The reward paths of issue 33 plugged into ``rubricloop-train`` by config alone: the rubric reward
of a judge served over HTTP (``rewards=rubric_http``, the server started here on 127.0.0.1) beside
the CLIP preference reward (``rewards=pickscore`` with the tiny random-weight CLIP), weighted, each
logged as ``rewards/<name>/mean|std``."""

from __future__ import annotations

import math

import pytest
import torch
from hydra import compose, initialize_config_module
from hydra.utils import instantiate

from rewards.judges.layout import LayoutJudge
from rewards.judges.router import Router
from rewards.judges.serve import JudgeServer
from rewards.models.tiny_pipelines import tiny_sd3_pipeline
from rewards.reward_fns import RubricReward, combine_rewards
from training import cli
from training.diffusion import logs
from training.procedural.layout_data import make_layout_dataset

TINY = [
    "+experiment=tiny_layout",
    "rewards=[rubric_http,pickscore]",
    "rewards.pickscore.fn.tiny=tiny_clip_scorer",
    "rewards.pickscore.fn.device=cpu",
    "rewards.pickscore.weight=0.5",
    "trainer.num_steps=1",
    "trainer.prompts_per_step=1",
    "trainer.group_size=2",
    "trainer.batch_size=2",
    "trainer.train_sampling_steps=2",
    "trainer.eval_sampling_steps=2",
    "trainer.num_eval_prompts=1",
    "trainer.eval_every=1",
    "trainer.save_every=1",
    "trainer.run_name=r",
    "data.n=20",
    "wandb.mode=disabled",
]


class Recorder:
    """A fake W&B run: every ``log`` row by step."""

    def __init__(self):
        self.rows: dict[int, dict] = {}

    def log(self, row, step):
        self.rows.setdefault(step, {}).update(row)

    def log_artifact(self, artifact, aliases=None):
        pass

    def finish(self):
        pass


def compose_train(*overrides: str):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose("train", overrides=[*TINY, *overrides])


def test_http_rubric_and_pickscore_rewards_sum_with_their_weights():
    torch.set_num_threads(1)
    train, _ = make_layout_dataset(4, seed=5)
    with JudgeServer(Router([LayoutJudge()])) as server:
        cfg = compose_train(f"rewards.rubric.fn.judge.base_url={server.url}")
        fns = {name: instantiate(spec.fn) for name, spec in cfg.rewards.items()}
        pipe = tiny_sd3_pipeline()
        prompts = [it.prompt for it in train]
        images = pipe(prompts, num_inference_steps=2, height=32, width=32, output_type="pil").images
        total, per_fn = combine_rewards(list(fns.values()), [1.0, 0.5], prompts, images, items=train)
    local = RubricReward(Router([LayoutJudge()]))(prompts, images, items=train)
    assert list(per_fn) == ["rubric_pass_rate", "pickscore"]
    assert per_fn["rubric_pass_rate"].tolist() == torch.tensor(local).tolist()
    torch.testing.assert_close(total, per_fn["rubric_pass_rate"] + 0.5 * per_fn["pickscore"])


@pytest.mark.slow
def test_rubricloop_train_runs_on_the_http_rubric_and_pickscore(tmp_path, monkeypatch):
    torch.set_num_threads(1)
    recorder = Recorder()
    monkeypatch.setattr(logs, "init_wandb", lambda *a: recorder)
    with JudgeServer(Router([LayoutJudge()])) as server:
        cfg = compose_train(f"rewards.rubric.fn.judge.base_url={server.url}", f"trainer.output_dir={tmp_path}")
        try:
            cli._main(cfg)
        except SystemExit as e:
            assert e.code == 0
    row = recorder.rows[0]
    assert server.requests >= 2  # the rollout's images and the evaluation's were judged over HTTP
    for name in ("rubric", "pickscore"):  # the names of conf/rewards' entries
        assert math.isfinite(row[f"rewards/{name}/mean"]) and row[f"rewards/{name}/std"] >= 0
    assert 0.0 <= row["rewards/rubric/mean"] <= 1.0 and "eval/rubric" in recorder.rows[1]
    assert row["reward/mean"] == pytest.approx(
        row["rewards/rubric/mean"] + 0.5 * row["rewards/pickscore/mean"], abs=1e-5
    )
    assert (tmp_path / "r" / "history.json").is_file()
    # the run's log holds a line per step and per evaluation (it was empty for image training)
    log = (tmp_path / "r" / "train.log").read_text()
    assert f"step 0: reward {row['reward/mean']:.4f}, loss " in log
    assert f"step 0: held-out reward {recorder.rows[0]['eval/reward_mean']:.4f}" in log
