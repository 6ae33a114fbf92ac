"""``rubricloop-train`` as a user runs it (subprocess, tiny SD3 on CPU): bad configs end with one
line on stderr and exit status 2 before any sampling; a 1-step run with the default rewards
(rubric over the OCR judge + OCR text reward) and the bundled leakage guard writes a checkpoint.

The reward classes below are the ``_target_`` of the bad-reward runs (PYTHONPATH=tests/cli/)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf
from safetensors import safe_open

from training.cli import main as train_main
from training.diffusion.checkpoint import LORA_FILE, STATE_FILE
from training.procedural.data import make_dataset, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).parent / "rubricloop-train"
TINY = [
    "model=tiny_sd3",
    "trainer.num_steps=1",
    "trainer.prompts_per_step=1",
    "trainer.group_size=2",
    "trainer.batch_size=2",
    "trainer.train_sampling_steps=2",
    "trainer.eval_sampling_steps=2",
    "trainer.num_eval_prompts=1",
    "trainer.lora_rank=2",
    "trainer.lora_alpha=2",
    "data.n=16",
    "trainer.run_name=cli",
]


class WrongLength:
    """Returns one value whatever the number of images."""

    def __call__(self, prompts, images, **columns):
        return [0.5]


class NaNReward:
    """Returns NaN for every image."""

    def __call__(self, prompts, images, **columns):
        return [float("nan")] * len(images)


def train_cli(tmp_path, *overrides):
    env = {
        **os.environ,
        "WANDB_MODE": "disabled",
        "PYTHONPATH": f"{ROOT}:{ROOT / 'tests' / 'cli'}",
        "HYDRA_FULL_ERROR": "",
    }
    args = [str(EXE), *TINY, f"trainer.output_dir={tmp_path}", *overrides]
    return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def train_in_process(tmp_path, monkeypatch, capsys, *overrides):
    """``rubricloop-train`` as ``train_cli`` runs it, called in this process (seconds, not a fresh
    interpreter importing torch): (exit status, stdout lines, stderr lines)."""
    monkeypatch.setenv("WANDB_MODE", "disabled")
    monkeypatch.delenv("HYDRA_FULL_ERROR", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["rubricloop-train", *TINY, f"trainer.output_dir={tmp_path}", *overrides])
    capsys.readouterr()
    status = 0
    try:
        train_main()
    except SystemExit as e:
        status = e.code or 0
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err.splitlines()


def only_reward(cls_name):
    """Overrides replacing the default rewards by one reward named "bad": an instance of ``cls_name``."""
    return ["~rewards.rubric", "~rewards.ocr", f"+rewards.bad={{weight:1.0,fn:{{_target_:test_train_cli.{cls_name}}}}}"]


@pytest.mark.parametrize(
    "overrides, line",
    [
        (
            ["trainer.group_size=1"],
            "bad trainer config: group_size must be >= 2 (GRPO compares images of one prompt), got 1; "
            "prompts_per_step * group_size = 1 must be divisible by batch_size=2",
        ),
        (
            ["model=sd4_ultra"],
            "unknown model preset 'sd4_ultra'; choose one of: flux_dev, qwen_image, sana, sd35_medium, tiny_flux, "
            "tiny_qwen_image, tiny_sana, tiny_sd3, tiny_sd3_layout",
        ),
        (
            ["trainer.lr=abc", "trainer.num_steps=1.5"],
            "trainer.num_steps must be int, got 1.5; trainer.lr must be float, got 'abc'",
        ),
        (["trainer.num_steps=0"], "bad trainer config: num_steps must be >= 1, got 0"),
        (
            ["trainer.batch_size=0", "trainer.save_every=0", "trainer.grad_accum=0"],
            "bad trainer config: batch_size must be >= 1, got 0; grad_accum must be >= 1, got 0; "
            "save_every must be >= 1, got 0",
        ),
        (["rewards.ocr.weight=abc"], "rewards.ocr.weight must be a number, got 'abc'"),
        (  # the base model's fields are checked before the run folder is made (rewards.models.base_model)
            ["model.dtype=bf16"],
            "model 'rewards.models.tiny_pipelines.tiny_sd3_pipeline': dtype='bf16' is not one of "
            "['bfloat16', 'float16', 'float32']",
        ),
        (  # issue 18: "../../escape" made its run folder two levels above output_dir
            ["trainer.run_name=../../escape"],
            "bad trainer config: run_name must be a plain folder name (no '/', not starting with '.'), "
            "got '../../escape'",
        ),
        (
            ["wandb.mode=sometimes"],
            "bad trainer config: wandb_mode must be 'auto', 'online', 'offline' or 'disabled', got 'sometimes'",
        ),
        (
            ["data.n=10"],
            "bad trainer config: the validation split is empty (data.n * data.val_fraction rounds to 0): "
            "raise data.n or data.val_fraction",
        ),
        (
            ["trainer.lora_rnak=4"],
            "Could not override 'trainer.lora_rnak'. To append to your config use +trainer.lora_rnak=4 "
            "(Key 'lora_rnak' is not in struct)",
        ),
        (
            ["+reusme=true"],
            "+reusme=true: conf/train.yaml has no option 'reusme', so the app would ignore it (did you mean 'resume'?)",
        ),
        (
            ["+trainer.lora_rnak=4"],
            "trainer: unknown field(s) ['lora_rnak']; training.recipes.grpo.GRPOConfig has no such field",
        ),
        (
            only_reward("WrongLength"),
            "reward check on 2 grey 16x16 images before step 1: reward function 'bad' returned 1 values for 2 samples",
        ),
        (
            only_reward("NaNReward"),
            "reward check on 2 grey 16x16 images before step 1: reward function 'bad' returned nan for sample 0; "
            "return None for no reward",
        ),
    ],
)
def test_bad_config_ends_with_one_line_and_exit_2(tmp_path, monkeypatch, capsys, overrides, line):
    status, _, err = train_in_process(tmp_path, monkeypatch, capsys, *overrides)
    assert status == 2, err
    assert err == [f"rubricloop-train: {line}"]
    assert not list(tmp_path.glob("cli/step_*"))  # nothing trained


def test_a_second_call_in_one_process_still_ends_in_one_line(tmp_path, monkeypatch, capsys):
    """``console_main`` sets HYDRA_FULL_ERROR=1 while the app runs and restores the user's setting
    after: a second call in a notebook or test process reports a run error in one line, not a
    traceback."""
    line = (
        "rubricloop-train: bad trainer config: group_size must be >= 2 (GRPO compares images of one prompt), "
        "got 1; prompts_per_step * group_size = 1 must be divisible by batch_size=2"
    )
    for _ in range(2):
        assert train_in_process(tmp_path, monkeypatch, capsys, "trainer.group_size=1") == (2, [], [line])
        assert "HYDRA_FULL_ERROR" not in os.environ


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides, line",
    [
        (
            ["trainer.lora_rnak=4"],
            "Could not override 'trainer.lora_rnak'. To append to your config use "
            "+trainer.lora_rnak=4 (Key 'lora_rnak' is not in struct)",
        ),
        (["trainer.num_steps=0"], "bad trainer config: num_steps must be >= 1, got 0"),
    ],
)
def test_the_console_script_ends_a_bad_config_with_one_line_and_exit_2(tmp_path, overrides, line):
    """The cases above run in this process; these two (a composition error, a run error) run the
    installed console script as a user does."""
    out = train_cli(tmp_path, *overrides)
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [f"rubricloop-train: {line}"]
    assert not list(tmp_path.glob("cli/step_*"))


def test_leak_of_a_heldout_item_ends_with_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    train_items, _ = make_dataset(16, 0, val_fraction=0.05)  # what data.n=16 data.seed=0 builds
    heldout = write_jsonl([train_items[3]], tmp_path / "heldout.jsonl")
    status, _, err = train_in_process(tmp_path, monkeypatch, capsys, f"data.heldout=[bundled,{heldout}]")
    assert status == 2, err
    assert err == [
        f"rubricloop-train: 1 training prompt(s) leak held-out items (threshold 90.0): {train_items[3].id} equals "
        f"{heldout} item {train_items[3].id} (token_set_ratio 100.0)"
    ]


@pytest.mark.slow
def test_one_step_run_with_default_rewards_writes_a_checkpoint(tmp_path, monkeypatch, capsys):
    out = train_cli(tmp_path)
    assert out.returncode == 0, out.stderr
    # the prompts are longer than CLIP's 77 and T5's 16 tokens: no truncation or torchvision notices
    noise = [
        line
        for line in out.stderr.splitlines()
        if "truncated" in line or "torchvision" in line or "Token indices" in line
    ]
    assert not noise, noise[:3]
    ckpt = tmp_path / "cli" / "step_1"
    assert (ckpt / STATE_FILE).exists()
    with safe_open(ckpt / LORA_FILE, "pt") as f:
        keys = list(f.keys())
    # rank-2 LoRA on to_q/to_k/to_v/to_out.0 of every attention block, saved for load_lora_weights
    assert keys and all(k.startswith("transformer.") and (".lora_A." in k or ".lora_B." in k) for k in keys)
    assert "1 GRPO steps done; eval reward" in out.stdout and f"checkpoints in {tmp_path}/cli/" in out.stdout
    # the composed config Hydra saved carries the documented defaults
    saved = OmegaConf.load(tmp_path / "cli" / ".hydra" / "config.yaml")
    assert list(saved.data.heldout) == ["bundled"]
    assert saved.rewards.rubric.fn.judge.judges[0]._target_ == "rewards.judges.ocr.OCRJudge"
    assert (saved.rewards.rubric.weight, saved.rewards.ocr.weight) == (1.0, 0.5)
    # the same command again (in this process, for time): the run is finished, one line says so
    # and where its results are
    before = sorted(p.name for p in (tmp_path / "cli").rglob("*"))
    status, again, err = train_in_process(tmp_path, monkeypatch, capsys)
    assert status == 0, err
    eval_reward = json.loads((tmp_path / "cli" / "history.json").read_text())["eval_reward"][-1]
    run_dir = tmp_path / "cli"
    assert again == [
        f"rubricloop-train: {run_dir} already finished its 1 steps (final eval reward {eval_reward:.4g} at step 1); "
        f"nothing to do: history in {run_dir / 'history.json'}, LoRA in {run_dir / 'step_1'}/ "
        "(more steps: raise trainer.num_steps with resume=true)"
    ]
    assert sorted(p.name for p in run_dir.rglob("*")) == before  # nothing written, no W&B run
    # more steps without resume=true: a second fresh run would let keep_last delete its own new checkpoints
    status, _, err = train_in_process(tmp_path, monkeypatch, capsys, "trainer.num_steps=2")
    assert status == 2
    assert err == [
        f"rubricloop-train: bad trainer config: {tmp_path}/cli already holds checkpoints: "
        "continue it with resume=true, or start a new run with another trainer.run_name"
    ]


def test_learning_task_preset_composes():
    """``+experiment=tiny_redness`` (the README's first command): tiny SD3, the redness reward
    alone, and trainer fields GRPOConfig accepts."""
    from hydra import compose, initialize_config_module

    from rewards.toy_rewards import MeanRedness
    from training.recipes.grpo import GRPOConfig

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=["+experiment=tiny_redness"])
    assert cfg.model.tiny == "tiny_sd3_pipeline" and cfg.rollout.resolution == 16
    assert list(cfg.rewards) == ["redness"] and cfg.rewards.redness.fn._target_ == "rewards.toy_rewards.MeanRedness"
    trainer = GRPOConfig(**OmegaConf.to_container(cfg.trainer, resolve=True))
    assert (trainer.beta, trainer.timestep_fraction, trainer.num_steps) == (0.0, 1.0, 30)
    # the reward: pure red 1, grey 0, pure green -0.5
    from PIL import Image

    images = [Image.new("RGB", (4, 4), c) for c in ((255, 0, 0), (128, 128, 128), (0, 255, 0))]
    assert MeanRedness()(["p"] * 3, images) == pytest.approx([1.0, 0.0, -0.5], abs=1e-6)


def test_the_closing_line_prints_rounded_rewards_not_float32_reprs():
    """Issue 35 nit: the closing line printed ``[0.42000001668930054, ...]``."""
    from training.cli import closing_line

    history = {"step": [1, 2, 3], "eval_reward": [0.42000001668930054, 0.54666668176651], "eval_step": [0, 3]}
    assert closing_line(history, "DiffusionNFT", "checkpoints/x") == (
        "rubricloop-train: 3 DiffusionNFT steps done; eval reward [0.42, 0.5467] at steps [0, 3]; "
        "checkpoints in checkpoints/x/"
    )


def test_a_unicode_run_name_is_one_line_that_says_how_to_quote_it():
    """Issue 35 nit: ``trainer.run_name=réseau`` ended in Hydra's LexerNoViableAltException."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "training.cli", "trainer.run_name=réseau"],
        capture_output=True,
        text=True,
        cwd=root,
        env={**__import__("os").environ, "PYTHONPATH": str(root), "WANDB_MODE": "disabled"},
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "rubricloop-train: 'trainer.run_name=réseau' is not an option Hydra can read: an unquoted value may hold "
        "only ASCII letters, digits and a few symbols; quote it: trainer.run_name='réseau'\n"
    )
