"""``rubricloop-train`` against the attacks of issue 18: two live runs in one run folder, a resume
with other settings, a kill during the final evaluation, a refused run that would overwrite the
run's records, a torn checkpoint, a full disk, and an ``output_dir`` that is a file.

Tiny SD3 (16 px, random weights) and the redness reward; the app runs in this process through
``training.cli._main`` (Hydra's decorator passes a composed config straight through; the exit
status comes back as ``SystemExit``), except the ``output_dir`` case: Hydra's own folders are
made before the app runs, so only a separate process shows them."""

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import transformers
from filelock import FileLock
from hydra import compose, initialize_config_module

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from training import cli  # noqa: E402
from training.diffusion import checkpoint, loop  # noqa: E402
from training.diffusion.checkpoint import STATE_FILE, list_checkpoints  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).parent / "rubricloop-train"
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
    "trainer.lora_alpha=2",
    "trainer.lr=0.03",
    "trainer.save_every=1",
    "trainer.eval_every=1",
    "data.n=40",
    "trainer.run_name=r",
]


def compose_cfg(out: Path, *overrides: str):
    """The composed ``train`` config of a tiny run into ``<out>/r``."""
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose("train", overrides=[*TINY, f"trainer.output_dir={out}", *overrides])


def status(cfg) -> int:
    """The exit status of ``rubricloop-train`` on ``cfg`` (0 when the app returns normally)."""
    try:
        cli._main(cfg)
    except SystemExit as e:
        return e.code
    return 0


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> bytes)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def history(out: Path) -> dict:
    return json.loads((out / "r" / "history.json").read_text())


def test_resume_with_other_settings_is_refused_and_writes_nothing(tmp_path, capsys):
    """Issue 18.7/18.8: a resume with another lr, seed or data size exits 2 in one line naming the
    settings that differ, and leaves every file of the run as it was (training_data.jsonl is the
    leakage guard's record); more steps are a continuation, not other settings."""
    assert status(compose_cfg(tmp_path, "trainer.num_steps=1")) == 0
    run_dir = tmp_path / "r"
    before = snapshot(run_dir)
    assert len((run_dir / "training_data.jsonl").read_text().splitlines()) == 38
    capsys.readouterr()
    for overrides, keys in [
        (["trainer.lr=0.01"], "trainer.lr"),
        (["trainer.seed=3", "data.n=200"], "trainer.seed, data.n"),
    ]:
        assert status(compose_cfg(tmp_path, "trainer.num_steps=1", "resume=true", *overrides)) == 2
        err = capsys.readouterr().err.splitlines()
        assert err == [
            f"rubricloop-train: {run_dir} holds a run made with another {keys} (see {run_dir / 'run.json'}); "
            "use those settings to resume, or a new trainer.run_name"
        ]
        assert snapshot(run_dir) == before
    # more steps: the run goes on, its history keeps step 0
    assert status(compose_cfg(tmp_path, "trainer.num_steps=2", "resume=true")) == 0
    assert "2 GRPO steps done" in capsys.readouterr().out
    assert history(tmp_path)["step"] == [0, 1]
    assert history(tmp_path)["eval_step"] == [0, 1, 2]


def test_kill_during_final_eval_then_resume_redoes_it_and_keeps_history(tmp_path, monkeypatch, capsys):
    """Issue 18.7: the last step was saved, the final evaluation was killed; the resume evaluates
    again and writes the whole history (the steps of the killed run included)."""
    real_evaluate = loop.run_evaluation

    def killed_at_the_end(state, step):
        if step == 2:
            raise KeyboardInterrupt
        return real_evaluate(state, step)

    monkeypatch.setattr(loop, "run_evaluation", killed_at_the_end)
    assert status(compose_cfg(tmp_path)) == 130
    assert [p.name for p in list_checkpoints(tmp_path / "r")] == ["step_1", "step_2"]
    monkeypatch.setattr(loop, "run_evaluation", real_evaluate)
    capsys.readouterr()
    assert status(compose_cfg(tmp_path, "resume=true")) == 0
    assert "2 GRPO steps done" in capsys.readouterr().out
    done = history(tmp_path)
    assert done["step"] == [0, 1] and len(done["loss"]) == len(done["reward_mean"]) == 2
    assert done["eval_step"] == [0, 1, 2] and len(done["eval_reward"]) == 3


def test_torn_last_checkpoint_is_skipped_on_resume(tmp_path, capsys):
    """Issue 18.9: a truncated training_state.pt of the last step is skipped with a one-line
    note; the resume continues from the step before, exactly (same step-1 loss). A whole step
    folder carries a manifest of its files (written last); nothing temporary is left."""
    assert status(compose_cfg(tmp_path)) == 0
    full = history(tmp_path)
    folder = tmp_path / "r" / "step_2"
    manifest = json.loads((folder / checkpoint.MANIFEST_FILE).read_text())
    assert manifest["step"] == 2
    assert {n: f["bytes"] for n, f in manifest["files"].items()} == {
        n: (folder / n).stat().st_size for n in (checkpoint.LORA_FILE, STATE_FILE, checkpoint.ADAPTER_CONFIG_FILE)
    }
    assert not [p for p in (tmp_path / "r").iterdir() if p.name.endswith((".tmp", ".old"))]
    state = tmp_path / "r" / "step_2" / STATE_FILE
    state.write_bytes(state.read_bytes()[: state.stat().st_size // 2])
    capsys.readouterr()
    assert status(compose_cfg(tmp_path, "resume=true")) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "step_2" in line]
    assert len(notes) == 1 and "skipping" in notes[0] and "step_1" in notes[0], notes
    again = history(tmp_path)
    assert again["step"] == [0, 1]
    assert again["loss"] == pytest.approx(full["loss"], abs=1e-7, rel=0) and full["loss"][1] != 0.0
    assert torch.load(state, weights_only=False)["step"] == 2  # step 2 written again, whole


def test_disk_full_during_a_checkpoint_ends_in_one_line_and_leaves_nothing_torn(tmp_path, monkeypatch, capsys):
    """Issue 18.9: ENOSPC while step 2 is written: one line, exit 1, step_1 intact, no step_2
    (nor a temporary folder) left."""
    real_save = torch.save

    def full_disk(obj, f, *a, **k):
        if obj.get("step") == 2:
            Path(f).write_bytes(b"PK\x03\x04 half")  # what a full disk leaves
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_save(obj, f, *a, **k)

    monkeypatch.setattr(checkpoint.torch, "save", full_disk)
    assert status(compose_cfg(tmp_path)) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip() and "GRPO:" not in line]  # no bar
    assert err == [f"rubricloop-train: cannot write checkpoint {tmp_path / 'r' / 'step_2'}: No space left on device"]
    assert sorted(p.name for p in (tmp_path / "r").iterdir() if p.name.startswith("step_")) == ["step_1"]
    assert torch.load(tmp_path / "r" / "step_1" / STATE_FILE, weights_only=False)["step"] == 1


def test_second_live_run_in_the_same_run_folder_is_refused_and_writes_nothing(tmp_path, capsys):
    """Issue 18.6/18.8: while a live run holds ``<run>/.lock`` (an OS lock, taken here as another
    process would), a second run exits 2 in one line and leaves the folder as it was."""
    run_dir = tmp_path / "r"
    run_dir.mkdir()
    (run_dir / "training_data.jsonl").write_text("the live run's record\n")
    with FileLock(run_dir / ".lock", timeout=0):  # the live run
        assert status(compose_cfg(tmp_path)) == 2
    assert capsys.readouterr().err.splitlines() == [  # a lock with no .lock.owner names no program (issue 21)
        f"rubricloop-train: {run_dir} is in use by another running RubricLoop run (it holds "
        f"{run_dir / '.lock'}); wait for it to finish or use another trainer.run_name"
    ]
    assert sorted(p.name for p in run_dir.iterdir()) == [".lock", "training_data.jsonl"]
    assert (run_dir / "training_data.jsonl").read_text() == "the live run's record\n"


@pytest.mark.slow
def test_output_dir_that_is_a_file_ends_in_one_line(tmp_path):
    """Issue 18: ``trainer.output_dir`` naming a file exits 2 in one line (Hydra creates no
    folder before the app checks it)."""
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    env = {**os.environ, "WANDB_MODE": "disabled", "PYTHONPATH": str(ROOT), "HYDRA_FULL_ERROR": ""}
    args = [str(EXE), *TINY, f"trainer.output_dir={a_file}"]
    out = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert out.stderr.splitlines() == [
        f"rubricloop-train: run folder {a_file}/r: cannot write there (Not a directory); check trainer.output_dir"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]  # nothing written in the working folder


def test_a_run_folder_held_by_another_command_names_that_command(tmp_path, capsys):
    """Issue 18 recheck: with refine holding the folder, the refusal named rubricloop-train."""
    from rewards.common.run_folder import lock_out

    run_dir = tmp_path / "r"
    run_dir.mkdir()
    with lock_out(run_dir, command="rubricloop-refine"):
        assert status(compose_cfg(tmp_path)) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"rubricloop-train: {run_dir} is in use by another running rubricloop-refine (it holds "
        f"{run_dir / '.lock'}); wait for it to finish or use another trainer.run_name"
    ]


def test_rerun_of_a_finished_run_says_done_with_or_without_resume(tmp_path, monkeypatch, capsys):
    """The README's command again after it finished: one line saying it is done and where its
    results are, exit 0, before the pipeline loads and without writing a byte, with or without
    resume=true. Other settings are refused in one line; a finished run whose last checkpoint is
    torn is not done (resume=true redoes the last step)."""
    assert status(compose_cfg(tmp_path)) == 0
    run_dir = tmp_path / "r"
    before, done = snapshot(run_dir), history(tmp_path)
    from rewards.models import tiny_pipelines

    def no_pipeline(*a, **k):
        raise AssertionError("the pipeline was loaded")

    monkeypatch.setattr(tiny_pipelines, "tiny_sd3_pipeline", no_pipeline)
    capsys.readouterr()
    for extra in ([], ["resume=true"]):
        assert status(compose_cfg(tmp_path, *extra)) == 0
        out = capsys.readouterr()
        assert out.out.splitlines() == [
            f"rubricloop-train: {run_dir} already finished its 2 steps (final eval reward "
            f"{done['eval_reward'][-1]:.4g} at step 2); nothing to do: history in {run_dir / 'history.json'}, "
            f"LoRA in {run_dir / 'step_2'}/ (more steps: raise trainer.num_steps with resume=true)"
        ]
        assert out.err == ""
        assert snapshot(run_dir) == before
    assert status(compose_cfg(tmp_path, "trainer.lr=0.01")) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"rubricloop-train: {run_dir} holds a run made with another trainer.lr (see {run_dir / 'run.json'}); "
        "use those settings to resume, or a new trainer.run_name"
    ]
    assert snapshot(run_dir) == before
    # a torn last checkpoint: not finished; without resume=true the usual refusal
    state = run_dir / "step_2" / STATE_FILE
    state.write_bytes(state.read_bytes()[:100])
    assert status(compose_cfg(tmp_path)) == 2
    assert "already holds checkpoints: continue it with resume=true" in capsys.readouterr().err


@pytest.mark.parametrize(
    "override, message",
    [
        ("trainer.lr=inf", "lr must be a finite number, got inf"),
        ("trainer.lr=-1", "lr must be > 0, got -1"),
        ("trainer=nft trainer.nft_beta=inf", "nft_beta must be a finite number, got inf"),  # the nft recipe's field
        ("trainer.max_grad_norm=nan", "max_grad_norm must be a finite number, got nan"),
    ],
)
def test_non_finite_or_negative_numbers_are_refused_before_anything_is_written(tmp_path, capsys, override, message):
    """Issue 19 tester: lr=inf trained to NaN and exited 0; lr=-1 failed in torch after the run
    folder was written."""
    assert status(compose_cfg(tmp_path, *override.split())) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rubricloop-train: bad trainer config: ") and message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_a_diverged_step_stops_before_its_checkpoint(tmp_path, monkeypatch, capsys):
    """A NaN loss ends the run with one line, exit 1; the checkpoints before it hold finite weights."""
    real_end_step = loop.end_step

    def nan_at_step_1(state, step, items, images, rewards, update, *rest):
        if step == 1:
            update = {**update, "loss": float("nan")}
        return real_end_step(state, step, items, images, rewards, update, *rest)

    monkeypatch.setattr("training.diffusion.loop.end_step", nan_at_step_1)
    assert status(compose_cfg(tmp_path)) == 1
    line = capsys.readouterr().err.strip().splitlines()[-1]  # after the progress bar
    assert line.startswith("rubricloop-train: step 1: the grpo loss is nan") and "last checkpoint" in line
    assert [p.name for p in list_checkpoints(tmp_path / "r")] == ["step_1"]
    lora = checkpoint.read_checkpoint(tmp_path / "r" / "step_1")[1]
    assert all(torch.isfinite(v).all() for v in lora.values())
    assert json.loads((tmp_path / "r" / "history.json").read_text())["step"] == [0]  # the curves up to step_1


def test_wandb_that_cannot_start_is_one_line(tmp_path, monkeypatch, capsys):
    """An invalid key or no network in online mode: W&B's error in one line with the way out, the
    key redacted (it used to be an 80-line traceback)."""
    import wandb

    key = "secret-key-" + "x" * 40
    monkeypatch.setenv("WANDB_API_KEY", key)
    monkeypatch.delenv("WANDB_MODE", raising=False)

    def refuse(**kwargs):
        raise wandb.errors.AuthenticationError(f"API key {key} invalid")

    monkeypatch.setattr(wandb, "init", refuse)
    assert status(compose_cfg(tmp_path, "wandb.mode=online")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "W&B could not start in online mode" in err and "wandb.mode=offline" in err
    assert key not in err and "<redacted>" in err
    assert list_checkpoints(tmp_path / "r") == []


def test_sigterm_stops_like_ctrl_c_and_resumes(tmp_path, monkeypatch, capsys):
    """A cluster's pre-emption (SIGTERM) used to end the process at once (exit 143, no line, W&B
    not closed); now it is Ctrl-C's path: one line, exit 130, and resume=true finishes the run."""
    import signal

    real_end_step = loop.end_step

    def terminated_at_step_1(state, step, *rest):
        if step == 1:
            os.kill(os.getpid(), signal.SIGTERM)
        return real_end_step(state, step, *rest)

    monkeypatch.setattr("training.diffusion.loop.end_step", terminated_at_step_1)
    try:
        assert status(compose_cfg(tmp_path)) == 130
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    assert "interrupted; checkpoints so far are in" in capsys.readouterr().err
    assert [p.name for p in list_checkpoints(tmp_path / "r")] == ["step_1"]
    monkeypatch.setattr("training.diffusion.loop.end_step", real_end_step)
    assert status(compose_cfg(tmp_path, "resume=true")) == 0
    assert history(tmp_path)["step"] == [0, 1]


@pytest.mark.parametrize("kind", ["step_{}", "checkpoint-{}"])
def test_an_interrupt_before_the_first_checkpoint_says_there_is_nothing_to_resume(tmp_path, capsys, kind):
    """Issue 35 case 5: trl interrupted before its first checkpoint printed "checkpoints so far are
    in ... (continue with resume=true)" when there were none."""
    from training.console import run_guarded

    def interrupted():
        raise KeyboardInterrupt

    run_dir = tmp_path / "r"
    run_dir.mkdir()
    (run_dir / "train.log").write_text("")
    assert run_guarded(interrupted, str(run_dir)) == (None, 130)
    err = capsys.readouterr().err
    assert err == (
        f"rubricloop-train: interrupted before the first checkpoint: nothing to resume in {run_dir}/ "
        "(the same command starts again from step 0)\n"
    )
    (run_dir / kind.format(2)).mkdir()
    assert run_guarded(interrupted, str(run_dir)) == (None, 130)
    assert "interrupted; checkpoints so far are in" in capsys.readouterr().err


def test_a_corrupt_history_json_is_said_not_silently_rebuilt(tmp_path, capsys):
    """Issue 35 nit: a corrupt history.json was rebuilt without a word."""
    from training.cli import finished_history
    from training.text.cli import finished

    (tmp_path / "step_2").mkdir()
    (tmp_path / "history.json").write_text('{"step": [0, 1], "eval_')
    assert finished_history(tmp_path, 2) is None
    assert finished(tmp_path, 2) is None
    err = capsys.readouterr().err.splitlines()
    assert (
        err
        == [
            f"rubricloop-train: warning: {tmp_path / 'history.json'} cannot be read (JSONDecodeError); the run counts "
            "as unfinished and a resume (resume=true) rewrites it from the newest checkpoint"
        ]
        * 2
    )
    (tmp_path / "history.json").unlink()
    assert finished_history(tmp_path, 2) is None and finished(tmp_path, 2) is None
    assert capsys.readouterr().err == ""  # no file: nothing to say
