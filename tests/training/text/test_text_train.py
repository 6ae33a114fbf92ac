"""``rubricloop-train task=prompt_rewriter | instruction_writer`` (issue 20): trl's GRPOTrainer on the
tiny policies, end to end, in this process (``training.text.cli._main`` on a composed config; the
exit status comes back as ``SystemExit``), except the one-line CLI errors (a subprocess).

What must hold for a user: both tasks run on CPU and write ``<run>/final/``, which loads back into
the rewriter (``rewards.rewriting.PromptRewriter``) and the writer (``refine.writers.local_vlm``)
with the trained weights (their greedy output equals the trainer's own greedy held-out output); a
finished run is not redone; an unfinished one continues only with ``resume=true`` from its newest
whole checkpoint; other settings are refused; bad options end in one line, exit 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import transformers
from hydra import compose, initialize_config_module

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from training.text import cli as text_cli  # noqa: E402

EXE = Path(sys.executable).parent / "rubricloop-train"
TINY = [
    "trainer.run_name=r",
    "trainer.device=cpu",
    "trainer.num_steps=2",
    "trainer.prompts_per_step=2",
    "trainer.num_generations=2",
    "trainer.max_completion_length=8",
    "trainer.lora_rank=2",
    "trainer.lora_alpha=4",
    "trainer.lr=0.01",
    "trainer.save_every=1",
    "data.n=12",
    "data.val_fraction=0.25",
    "wandb.mode=disabled",
]


def compose_cfg(out: Path, task: str, *overrides: str):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose("train_text", overrides=[f"task={task}", *TINY, f"trainer.output_dir={out}", *overrides])


def status(cfg) -> int:
    try:
        text_cli._main(cfg)
    except SystemExit as e:
        return e.code
    return 0


def history(out: Path) -> dict:
    return json.loads((out / "r" / "history.json").read_text())


def test_prompt_rewriter_trains_on_the_rubric_reward_and_plugs_back(tmp_path, capsys):
    """The real reward: tiny SD3 renders each rewrite, OCR judges it. The random policy drops the
    prompts' quoted strings, so every rewrite is refused (reward 0, counted) and greedy held-out
    rewards are 0; the final LoRA loads into PromptRewriter and reproduces the trainer's output."""
    from rewards.rewriting import PromptRewriter

    assert status(compose_cfg(tmp_path, "prompt_rewriter")) == 0
    h = history(tmp_path)
    logs = [e for e in h["log_history"] if "reward" in e]
    assert [e["step"] for e in logs] == [1, 2]
    assert all(e["guard/rubric_pass_rate/refused"] == 1.0 for e in logs)  # dropped quotes: nothing rendered
    assert all(e["rewards/rubric_pass_rate/mean"] == 0.0 for e in logs)
    assert h["eval_after"]["refused"] == 1.0 and h["eval_after"]["n"] == 3
    assert h["eval_after"]["examples"][0]["problem"].startswith("dropped the quoted string")
    final = tmp_path / "r" / "final"
    rewriter = PromptRewriter(final, max_new_tokens=8)
    from training.procedural.data import make_dataset

    _, val = make_dataset(12, 0, val_fraction=0.25)
    first = h["eval_after"]["examples"][0]
    item = next(it for it in val if it.id == first["item"])
    assert rewriter.generate([item.prompt]) == [first["completion"]]
    [rw] = rewriter.rewrite([item.prompt])
    assert rw.prompt == item.prompt and rw.problem == first["problem"]  # the guard falls back to the original
    out = capsys.readouterr().out
    assert "held-out reward before training" in out and "policy in" in out
    assert (tmp_path / "r" / "run.json").is_file() and (tmp_path / "r" / "training_data.jsonl").is_file()

    # the trained rewriter in eval's generate step, then compared with the base prompts
    from evaluation.cli import run as eval_run
    from evaluation.compare import main as compare_main
    from training.run_dir import bundled_heldout

    common = [f"data={bundled_heldout()}", "limit=2", "generator=tiny_sd3", "report=false", "judge=ocr"]
    with initialize_config_module(config_module="conf", version_base="1.3"):
        assert eval_run(compose("eval", overrides=[*common, f"out={tmp_path / 'base'}"])) == 0
        rw = [*common, f"out={tmp_path / 'rw'}", f"prompt_rewriter={final}"]
        assert eval_run(compose("eval", overrides=rw)) == 0
    lines = [json.loads(x) for x in (tmp_path / "rw" / "rewrites.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and all(x["problem"] and x["prompt"] == x["original"] for x in lines)
    assert compare_main([str(tmp_path / "base"), str(tmp_path / "rw")]) == 0


def test_wandb_offline_run_logs_trl_completions_and_a_resume_continues_it(tmp_path, monkeypatch):
    monkeypatch.delenv("WANDB_MODE", raising=False)
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    common = ["reward.kind=quote_coverage", "wandb.mode=offline"]
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common)) == 0
    run_id = (tmp_path / "r" / "wandb_run_id").read_text().strip()
    [first] = (tmp_path / "r" / "wandb").glob("offline-run-*")
    assert run_id in first.name
    tables = sorted(first.glob("files/media/table/completions_*.table.json"))
    assert tables and "problem" in json.loads(tables[-1].read_text())["columns"]
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=3", "resume=true")) == 0
    assert (tmp_path / "r" / "wandb_run_id").read_text().strip() == run_id
    runs = sorted((tmp_path / "r" / "wandb").glob("offline-run-*"))
    assert len(runs) == 2 and all(run_id in r.name for r in runs)


def test_instruction_writer_trains_and_plugs_back_into_refine(tmp_path):
    """Tiny Qwen2.5-VL writes the instruction from the start image (tiny SD3) and its failed OCR
    checks; the tiny InstructPix2Pix applies it; the final LoRA loads as refine's trained writer
    and writes what the trainer's greedy held-out evaluation wrote."""
    from refine.writers.local_vlm import LocalVLMInstructionWriter
    from training.text.data import load_text_items

    assert status(compose_cfg(tmp_path, "instruction_writer", "trainer.max_completion_length=6")) == 0
    h = history(tmp_path)
    logs = [e for e in h["log_history"] if "reward" in e]
    assert [e["step"] for e in logs] == [1, 2]
    assert "rewards/rubric_pass_rate_gain/mean" in logs[0]
    assert h["eval_after"]["n"] >= 1
    writer = LocalVLMInstructionWriter(path=str(tmp_path / "r" / "final"), device="cpu", max_new_tokens=6)
    assert writer.name.startswith("trained:")
    first = h["eval_after"]["examples"][0]
    _, val = load_text_items(None, 12, 0, 0.25)
    item = next(it for it in val if it.id == first["item"])
    # the writer sees what the trainer saw: the start image and the checks it fails there
    from hydra.utils import instantiate

    from rewards.reward_fns import RubricReward
    from training.text.rewards import item_seed, start_state

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train_text", overrides=["task=instruction_writer"])
    image = instantiate(cfg.generator).generate(item.prompt, item_seed(0, item.id))
    start = start_state(item, image.convert("RGB"), RubricReward(instantiate(cfg.judge), "pass_rate"))
    from refine.writers.local_vlm import fallback_instruction

    # an empty greedy completion is what the writer replaces with its fallback
    expected = first["completion"] or fallback_instruction(start.failures)
    assert start.failures
    assert writer.write(start.image, item, start.failures) == expected


def test_finished_run_is_not_redone_and_more_steps_need_resume(tmp_path, capsys):
    common = ["reward.kind=quote_coverage"]
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common)) == 0
    before = (tmp_path / "r" / "history.json").read_bytes()
    capsys.readouterr()
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common)) == 0
    assert "already finished its 2 steps" in capsys.readouterr().out
    assert (tmp_path / "r" / "history.json").read_bytes() == before
    # more steps: refused without resume=true, in one line
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=3")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "resume=true" in err[0]
    # other settings: refused even with resume=true
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=3", "trainer.lr=0.02")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "trainer" in err[0]
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=3", "resume=true")) == 0
    h = history(tmp_path)
    assert h["resumed_from"].endswith("checkpoint-2")
    assert [e["step"] for e in h["log_history"] if "reward" in e] == [1, 2, 3]
    assert h["eval_before"] == json.loads(before)["eval_before"]  # kept from the first run
    assert h["steps_this_run"] == 1
    capsys.readouterr()
    # fewer steps than the newest checkpoint: refused, not a run that "trained" nothing
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=2", "resume=true")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds checkpoint-3, past trainer.num_steps=2" in err[0], err


def test_torn_checkpoint_is_skipped_on_resume(tmp_path):
    common = ["reward.kind=quote_coverage"]
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common)) == 0
    torn = tmp_path / "r" / "checkpoint-5"
    torn.mkdir()
    (torn / "adapter_model.safetensors").write_bytes(b"partial")
    assert status(compose_cfg(tmp_path, "prompt_rewriter", *common, "trainer.num_steps=3", "resume=true")) == 0
    assert history(tmp_path)["resumed_from"].endswith("checkpoint-2")


@pytest.mark.parametrize(
    "task, overrides, words",
    [
        ("prompt_rewriter", ["policy=tiny_vlm"], "needs a LM policy"),
        ("instruction_writer", ["policy=tiny_lm"], "needs a VLM policy"),
        ("prompt_rewriter", ["trainer.num_generations=1"], "trainer.num_generations"),
        ("prompt_rewriter", ["trainer.lr=-1"], "trainer.lr"),
        ("instruction_writer", ["reward.kind=quote_coverage"], "quote_coverage scores prompt rewrites"),
        ("instruction_writer", ["editor=text"], "ignores instructions"),
        ("prompt_rewriter", ["guards.max_chars=0"], "guards.max_chars"),
        ("prompt_rewriter", ["guards.keep_quoted=maybe"], "guards.keep_quoted must be true or false"),
        ("prompt_rewriter", ["trainer.loss_type=bogus"], "trainer.loss_type must be one of grpo"),
        ("prompt_rewriter", ["trainer.lr_scheduler=bogus"], "trainer.lr_scheduler must be one of linear"),
        ("prompt_rewriter", ["trainer.scale_rewards=bogus"], "trainer.scale_rewards"),
        ("prompt_rewriter", ["trainer.warmup_steps=-2"], "trainer.warmup_steps must be an integer >= 0"),
        ("prompt_rewriter", ["policy.torch_dtype=float64"], "policy.torch_dtype"),
        ("prompt_rewriter", ["wandb.mode=bogus"], "wandb.mode must be one of"),
        ("prompt_rewriter", ["data.val_fraction=abc"], "data.val_fraction must be a number"),
        ("prompt_rewriter", ["data.n=abc"], "data.n must be an integer"),
        ("prompt_rewriter", ["data.heldout=[/no/such.jsonl]"], "data.heldout: /no/such.jsonl is not a file"),
        ("prompt_rewriter", ["trainer.run_name=../escape"], "trainer.run_name must be a folder name"),
        ("prompt_rewriter", ["data.n=2"], "1 training item(s) to learn from, fewer than trainer.prompts_per_step=2"),
        ("instruction_writer", ["data.n=2"], "1 training item(s) to learn from, fewer than trainer.prompts_per_step=2"),
    ],
)
def test_bad_options_end_in_one_line_before_any_file(tmp_path, capsys, task, overrides, words):
    assert status(compose_cfg(tmp_path, task, *overrides)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err
    assert not list(tmp_path.iterdir())  # nothing written, not even the run folder


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="a CUDA device is available")
def test_cuda_without_a_gpu_is_an_option_error(tmp_path, capsys):
    assert status(compose_cfg(tmp_path, "prompt_rewriter", "trainer.device=cuda")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no CUDA device is available; use trainer.device=cpu" in err[0]
    assert not list(tmp_path.iterdir())


def test_cli_routes_task_and_refuses_a_bad_one_in_one_line(tmp_path):
    env = {**os.environ, "WANDB_MODE": "disabled"}

    def cli(*args):
        return subprocess.run([str(EXE), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)

    for args, words in (
        (["task=poster"], "task must be one of image, prompt_rewriter, instruction_writer; got 'poster'"),
        (["task=prompt_rewriter", "task=image"], "given 2 times"),
        (["task=prompt_rewriter", "trainer.nosuch=1"], "nosuch"),
    ):
        out = cli(*args)
        assert out.returncode == 2 and out.stderr.strip().count("\n") == 0 and words in out.stderr, out.stderr
    image = cli("task=image", "--cfg", "job")  # the image trainer's config (conf/train.yaml), explicitly
    assert image.returncode == 0 and "algorithm: grpo" in image.stdout and "task_name" not in image.stdout
    text = cli("task=prompt_rewriter", "--cfg", "job")
    assert text.returncode == 0 and "task_name: prompt_rewriter" in text.stdout
    assert not list(tmp_path.iterdir())  # printing a config writes nothing


def test_eval_samples_0_evaluates_greedily_only_and_history_stays_strict_json(tmp_path, capsys):
    cfg = compose_cfg(tmp_path, "prompt_rewriter", "reward.kind=quote_coverage", "trainer.eval_samples=0")
    assert status(cfg) == 0
    text = (tmp_path / "r" / "history.json").read_text()

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    h = json.loads(text, parse_constant=refuse)
    assert h["eval_after"]["sampled_reward"] is None and h["eval_after"]["samples"] == 0
    assert isinstance(h["eval_after"]["reward"], float)
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert "greedy (3 items)" in out and "sampled" not in out


def test_the_tiny_instruction_writer_preset_runs_on_cpu(tmp_path):
    """Issue 35 case 9: ``task=instruction_writer`` had no CPU command; the preset is one (here
    cut to one step on fewer items)."""
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(
            "train_text",
            overrides=[
                "task=instruction_writer",
                "+experiment=tiny_instruction_writer",
                f"trainer.output_dir={tmp_path}",
                "trainer.num_steps=1",
                "trainer.save_every=1",
                "trainer.max_completion_length=6",
                "data.n=8",
                "data.val_fraction=0.25",
                "wandb.mode=disabled",
            ],
        )
    assert cfg.trainer.device == "cpu" and cfg.policy.tiny is True
    assert status(cfg) == 0
    run = tmp_path / "tiny_instruction_writer"
    assert (run / "final").is_dir() and json.loads((run / "history.json").read_text())["num_steps"] == 1
