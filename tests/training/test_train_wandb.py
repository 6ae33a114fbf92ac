"""What W&B gets from a training run: rollout images every ``log_images_every`` steps captioned
with their prompts and rewards, captioned evaluation images, the per-sample table (step, prompt,
image, total reward, each reward, the failed rubric check questions), the final LoRA as a "model"
artifact, and one W&B run across a kill and a resume (its id kept in ``<run>/wandb_run_id``).

Once with a recording fake of the W&B run (``training.diffusion.logs.init_wandb`` replaced, as
``benchmarks/grpo_time_to_reward.py`` does), once with the real ``wandb`` in offline mode into
the run folder, read back from the run's ``.wandb`` record file."""

import glob
import json
import os
import re
import struct
from pathlib import Path

import pytest
import torch
import transformers
import wandb
from hydra import compose, initialize_config_module

transformers.logging.set_verbosity_error()
torch.set_num_threads(1)

from grpo_helpers import VAL, redness  # noqa: E402

from rewards.image_stats import image_stats  # noqa: E402
from rewards.models.tiny_pipelines import tiny_sd3_pipeline  # noqa: E402
from rewards.reward_fns import RubricReward  # noqa: E402
from rewards.rubric import Check, Item, Rubric, Verdict  # noqa: E402
from training import cli  # noqa: E402
from training.diffusion import logs, loop  # noqa: E402
from training.diffusion.checkpoint import ADAPTER_CONFIG_FILE, LORA_FILE, MANIFEST_FILE  # noqa: E402
from training.diffusion.logs import WANDB_ID_FILE  # noqa: E402
from training.recipes.grpo import GRPOConfig, train  # noqa: E402


class TagJudge:
    """Checks tagged "title" pass, "legend" fail, every other tag is withheld."""

    name = "tag"

    def can_answer(self, check):
        return True

    def judge(self, images, prompts, checks):
        answers = {"title": "yes", "legend": "no"}
        return [[Verdict(c.id, answers.get(c.tag, "withheld"), self.name) for c in cs] for cs in checks]


def _item(item_id, prompt, tags):
    checks = tuple(Check(f"{tag}-{i}", f"is the {tag} right?", tag=tag) for i, tag in enumerate(tags))
    return Item(item_id, prompt, Rubric.flat(list(checks)))


class Recorder:
    """A fake W&B run: every ``log`` row by step, every artifact."""

    def __init__(self):
        self.rows, self.artifacts = {}, []

    def log(self, row, step):
        self.rows.setdefault(step, {}).update(row)

    def log_artifact(self, artifact, aliases=None):
        self.artifacts.append((artifact, aliases))

    def finish(self):
        pass


def test_images_captions_table_and_model_artifact_reach_the_tracker(tmp_path, monkeypatch):
    """2 steps, log_images_every=1: each step logs its 2 x 2 grid captioned per row (prompt, each
    image's total reward), a 4-row table whose rewards and failed questions are the rollout's;
    each evaluation logs its image captioned with its prompt and rewards; the end logs the final
    LoRA (step_2) as a "model" artifact carrying rank, alpha, modules and base model."""
    train_items = [
        _item("a", "a slide titled 'A'", ["title", "legend"]),
        _item("b", "a chart titled 'B'", ["title", "axis"]),
    ]
    val_items = [_item("v", "a poster titled 'V'", ["title", "legend", "axis"])]
    calls = []

    def red(prompts, images, **columns):
        values = redness(prompts, images)
        calls.append((list(prompts), values))
        return values

    recorder = Recorder()
    monkeypatch.setattr(logs, "init_wandb", lambda *a: recorder)
    cfg = GRPOConfig(
        output_dir=str(tmp_path),
        run_name="run",
        base_model="tiny/sd3",
        num_steps=2,
        prompts_per_step=2,
        group_size=2,
        batch_size=4,
        resolution=16,
        train_sampling_steps=2,
        eval_sampling_steps=2,
        cfg=False,
        beta=0.0,
        lora_rank=2,
        lora_alpha=4,
        num_eval_prompts=1,
        eval_every=1,
        save_every=1,
        log_images_every=1,
        timestep_fraction=1.0,
    )
    rubric = RubricReward(TagJudge())
    history = train(
        cfg,
        tiny_sd3_pipeline(0),
        {"rubric": rubric, "red": red},
        {"rubric": 1.0, "red": 0.5},
        train_items,
        val_items,
        {"max_sequence_length": 16},
    )
    assert history["step"] == [0, 1] and history["eval_step"] == [0, 1, 2]  # history keys unchanged
    assert set(history) == {
        "step",
        *logs.HISTORY_OF_ROW,
        "image_stats",
        "check_pass_rates",
        "eval_step",
        "eval_reward",
        "eval_rewards",
        "eval_checks",
        "eval_image_stats",
    }
    # each evaluation's mean per reward, beside their weighted total
    assert [set(row) for row in history["eval_rewards"]] == [{"rubric", "red"}] * 3
    for row, total in zip(history["eval_rewards"], history["eval_reward"], strict=True):
        assert total == pytest.approx(row["rubric"] * 1.0 + row["red"] * 0.5, abs=1e-6)
    # each evaluation's check pass rates, as W&B's eval/checks/<tag>/pass_rate: the validation
    # poster's title "yes", legend "no", axis withheld (not a pass)
    rates = {"checks/title/pass_rate": 1.0, "checks/legend/pass_rate": 0.0, "checks/axis/pass_rate": 0.0}
    assert history["eval_checks"] == [rates] * 3

    rubric_of = {"a": 0.5, "b": 0.5}  # title yes, legend no / axis withheld: pass rate 1/2
    failed_of = {
        train_items[0].prompt: "is the legend right?",
        train_items[1].prompt: "is the axis right? (withheld)",
    }
    rollouts = [(p, v) for p, v in calls if len(p) == 4]
    assert len(rollouts) == 2
    for step, (prompts, red_values) in enumerate(rollouts):
        row = recorder.rows[step]
        totals = [1.0 * 0.5 + 0.5 * v for v in red_values]
        # the grid: one row per prompt (G = 2 images), each captioned with its prompt and rewards
        grid = row["samples"]
        assert isinstance(grid, wandb.Image) and grid.image.size == (32, 32)
        assert grid._caption.splitlines() == [
            f"row {r + 1}: {prompts[2 * r]} | rewards {totals[2 * r]:.3f} {totals[2 * r + 1]:.3f}" for r in range(2)
        ]
        table = row["samples_table"]
        assert isinstance(table, wandb.Table)
        assert table.columns == ["step", "prompt", "image", "reward", "reward/rubric", "reward/red", "failed_checks"]
        assert len(table.data) == 4
        for i, (t_step, prompt, image, total, r_rubric, r_red, failed) in enumerate(table.data):
            assert (t_step, prompt) == (step, prompts[i])
            assert isinstance(image, wandb.Image) and image.image.size == (16, 16)
            assert total == pytest.approx(totals[i], abs=1e-6)
            assert r_rubric == pytest.approx(rubric_of["a" if "'A'" in prompt else "b"], abs=1e-6)
            assert r_red == pytest.approx(red_values[i], abs=1e-6)
            assert failed == failed_of[prompt]
    # evaluation images: one per validation prompt, its caption the prompt and its rewards
    for step in (0, 1, 2):
        (image,) = recorder.rows[step]["eval_images"]
        reward = recorder.rows[step]["eval/reward_mean"]
        red_value = recorder.rows[step]["eval/red"]
        assert image._caption == (
            f"{val_items[0].prompt} | reward {reward:.3f} (rubric {recorder.rows[step]['eval/rubric']:.3f}, "
            f"red {red_value:.3f})"
        )
        assert recorder.rows[step]["eval/rubric"] == pytest.approx(1 / 3, abs=1e-6)
        # and the image statistics of the validation image, logged and kept in the history
        stats = image_stats([image.image])
        assert history["eval_image_stats"][step] == stats
        assert {k: recorder.rows[step][f"eval/images/{k}"] for k in stats} == stats
    # the final LoRA: one "model" artifact with the checkpoint's LoRA files and its config
    ((artifact, aliases),) = recorder.artifacts
    assert (artifact.name, artifact.type, aliases) == ("run-lora", "model", ["latest", "step_2"])
    assert sorted(artifact.manifest.entries) == sorted([LORA_FILE, ADAPTER_CONFIG_FILE, MANIFEST_FILE])
    meta = artifact.metadata
    assert (meta["r"], meta["lora_alpha"], meta["base_model"], meta["step"]) == (2, 4, "tiny/sd3", 2)
    assert meta["target_modules"] == ["to_k", "to_out.0", "to_q", "to_v"]
    assert meta["eval_reward"] == history["eval_reward"][-1]


def test_without_log_images_every_images_come_once_per_epoch(tmp_path, monkeypatch):
    """log_images_every=0 (the default): 8 training prompts, 2 per step: steps 0 and 4 of 5."""
    recorder = Recorder()
    monkeypatch.setattr(logs, "init_wandb", lambda *a: recorder)
    train_items = [_item(str(i), f"slide {i}", ["title"]) for i in range(8)]
    cfg = GRPOConfig(
        output_dir=str(tmp_path),
        run_name="run",
        num_steps=5,
        prompts_per_step=2,
        group_size=2,
        batch_size=4,
        resolution=16,
        train_sampling_steps=1,
        eval_sampling_steps=1,
        cfg=False,
        beta=0.0,
        lora_rank=2,
        lora_alpha=2,
        num_eval_prompts=1,
        eval_every=100,
        save_every=100,
        timestep_fraction=1.0,
    )
    train(cfg, tiny_sd3_pipeline(0), {"red": redness}, {"red": 1.0}, train_items, VAL, {"max_sequence_length": 16})
    assert [s for s in range(5) if "samples" in recorder.rows[s]] == [0, 4]
    assert [s for s in range(5) if "samples_table" in recorder.rows[s]] == [0, 4]
    assert [row[3] for row in recorder.rows[4]["samples_table"].data] == pytest.approx(
        [row[4] for row in recorder.rows[4]["samples_table"].data]
    )  # one reward of weight 1: the total is that reward


# ---- real wandb, offline into the run folder ------------------------------------------------

TINY = [
    "model=tiny_sd3",
    "rewards=redness",
    "trainer.num_steps=2",
    "trainer.prompts_per_step=1",
    "trainer.group_size=2",
    "trainer.batch_size=2",
    "trainer.train_sampling_steps=2",
    "trainer.eval_sampling_steps=2",
    "trainer.num_eval_prompts=1",
    "trainer.timestep_fraction=1.0",
    "trainer.lora_rank=2",
    "trainer.lora_alpha=4",
    "trainer.save_every=1",
    "trainer.eval_every=1",
    "trainer.log_images_every=1",
    "data.n=40",
    "trainer.run_name=r",
    "wandb.mode=offline",
]


def status(out: Path, *overrides: str) -> int:
    """The exit status of ``rubricloop-train`` (in this process) on the tiny run into ``<out>/r``."""
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=[*TINY, f"trainer.output_dir={out}", *overrides])
    try:
        cli._main(cfg)
    except SystemExit as e:
        return e.code
    return 0


def wandb_records(path: Path) -> list:
    """The records of a W&B run file (``run-<id>.wandb``: a ":W&B" header, then LevelDB log
    blocks of 32 KiB holding protobuf ``Record``s, split into first/middle/last chunks)."""
    from wandb.proto import wandb_internal_pb2 as pb

    data = path.read_bytes()
    assert data[:4] == b":W&B"
    pos, block, records, buf = 7, 32768, [], b""
    while pos + 7 <= len(data):
        if block - pos % block < 7:  # a block's tail too short for a header is padding
            pos += block - pos % block
            continue
        length, kind = struct.unpack("<HB", data[pos + 4 : pos + 7])
        chunk, pos = data[pos + 7 : pos + 7 + length], pos + 7 + length
        buf = chunk if kind in (1, 2) else buf + chunk  # 1 full, 2 first, 3 middle, 4 last
        if kind in (1, 4):
            record = pb.Record()
            record.ParseFromString(buf)
            records.append(record)
    return records


def history_rows(records) -> list[dict]:
    """The logged rows: top-level key -> value (nested keys such as ``samples.caption`` joined)."""
    rows = []
    for r in records:
        if r.WhichOneof("record_type") == "history":
            row = {}
            for item in r.history.item:
                keys = [item.key] if item.key else list(item.nested_key)
                node = row
                for k in keys[:-1]:
                    node = node.setdefault(k, {})
                node[keys[-1]] = json.loads(item.value_json)
            rows.append(row)
    return rows


@pytest.fixture
def offline_wandb(tmp_path, monkeypatch):
    """W&B offline, its caches and staging area in ``tmp_path``; ``wandb.init``'s kwargs recorded."""
    for var in ("WANDB_MODE", "WANDB_API_KEY", "WANDB_RUN_ID", "WANDB_RESUME"):
        monkeypatch.delenv(var, raising=False)
    for var in ("WANDB_DATA_DIR", "WANDB_CACHE_DIR", "WANDB_CONFIG_DIR", "WANDB_ARTIFACT_DIR"):
        monkeypatch.setenv(var, str(tmp_path / "wandb_home" / var.lower()))
    inits = []
    real_init = wandb.init

    def spy(**kwargs):
        inits.append(kwargs)
        return real_init(**kwargs)

    monkeypatch.setattr(wandb, "init", spy)
    return inits


def test_kill_and_resume_keep_one_wandb_run_and_finished_rerun_makes_none(tmp_path, monkeypatch, offline_wandb):
    """A run killed at step 1's evaluation (step_1 saved) and resumed logs into ONE W&B run: the
    id written to <run>/wandb_run_id at the start is passed again with resume="allow", and both
    offline run folders carry it. The resumed run logs steps 1-2, the captioned grid and eval
    images, the per-sample table (a run_table artifact whose image cells are images), and the
    final LoRA as a "model" artifact. Rerunning the finished command makes no W&B run."""
    real_evaluate = loop.run_evaluation

    def killed(state, step):
        if step == 1:
            raise KeyboardInterrupt
        return real_evaluate(state, step)

    monkeypatch.setattr(loop, "run_evaluation", killed)
    assert status(tmp_path) == 130
    run_dir = tmp_path / "r"
    run_id = (run_dir / WANDB_ID_FILE).read_text().strip()
    assert len(run_id) == 8 and run_id.isalnum()
    monkeypatch.setattr(loop, "run_evaluation", real_evaluate)
    assert status(tmp_path, "resume=true") == 0

    assert [k.get("id") for k in offline_wandb] == [run_id, run_id]
    assert "resume" not in offline_wandb[0] and offline_wandb[1]["resume"] == "allow"
    assert all(k["mode"] == "offline" and k["dir"] == str(run_dir) for k in offline_wandb)
    # offline-run-<time>-<id>; W&B adds "-1" to the second when both started within one second
    folders = sorted(glob.glob(str(run_dir / "wandb" / "offline-run-*")), key=lambda f: (len(f), f))
    assert len(folders) == 2 and all(re.search(rf"-{run_id}(-\d+)?$", f) for f in folders), folders
    assert json.loads((run_dir / "history.json").read_text())["step"] == [0, 1]

    first = history_rows(wandb_records(Path(folders[0]) / f"run-{run_id}.wandb"))
    assert [r["_step"] for r in first] == [0]
    records = wandb_records(Path(folders[1]) / f"run-{run_id}.wandb")
    rows = history_rows(records)
    assert [r["_step"] for r in rows] == [1, 2]
    prompt_row = rows[0]["samples"]["caption"]
    assert prompt_row.startswith("row 1: ") and " | rewards " in prompt_row
    assert rows[0]["samples"]["_type"] == "image-file"
    assert rows[0]["samples_table"]["_type"] == "table-file" and rows[0]["samples_table"]["nrows"] == 2
    for row in rows:  # steps 1 and 2 (the final evaluation)
        (caption,) = row["eval_images"]["captions"]
        assert caption.endswith(f" | reward {row['eval/reward_mean']:.3f} (redness {row['eval/redness']:.3f})")
    artifacts = [r.artifact for r in records if r.WhichOneof("record_type") == "artifact"]
    tables = [a for a in artifacts if a.type == "run_table"]
    assert [a.name for a in tables] == [f"run-{run_id}-samples_table"]
    entries = {m.path: m for m in tables[0].manifest.contents}
    table = json.loads(Path(entries["samples_table.table.json"].local_path).read_text())
    assert table["columns"] == ["step", "prompt", "image", "reward", "reward/redness", "failed_checks"]
    assert len(table["data"]) == 2 and all(row[0] == 1 for row in table["data"])
    assert all(row[2]["_type"] == "image-file" and row[2]["path"] in entries for row in table["data"])
    assert all(row[3] == pytest.approx(row[4]) and row[5] == "" for row in table["data"])
    (model,) = [a for a in artifacts if a.type == "model"]
    assert model.name == "r-lora"
    assert sorted(m.path for m in model.manifest.contents) == sorted([ADAPTER_CONFIG_FILE, MANIFEST_FILE, LORA_FILE])
    meta = json.loads(model.metadata)
    assert (meta["r"], meta["lora_alpha"], meta["step"]) == (2, 4, 2)
    assert meta["base_model"] == "rewards.models.tiny_pipelines.tiny_sd3_pipeline"
    # the finished run's command again: "already done", no third W&B run, no new init
    assert status(tmp_path) == 0
    assert len(offline_wandb) == 2 and len(glob.glob(str(run_dir / "wandb" / "offline-run-*"))) == 2
    assert os.environ.get("WANDB_MODE") is None
