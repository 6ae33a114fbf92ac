"""`rubricloop-refine` as a user runs it: bad input, exit codes, Ctrl-C and resume.

Uses the real console script, the OCR judge and the text editor on items of the bundled example.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from refine_rows import FAST_OCR

EXAMPLE = Path(__file__).resolve().parents[2] / "refine" / "example"
SCRIPT = Path(sys.executable).with_name("rubricloop-refine")
ENV = {**os.environ, "WANDB_MODE": "disabled"}


def example_rows(n):
    return [json.loads(line) for line in (EXAMPLE / "bizgeneval_text.jsonl").read_text().splitlines()[:n]]


def write_data(tmp_path, rows_or_lines):
    """Copy the rows' start images next to a new JSONL so relative `image` paths resolve."""
    (tmp_path / "images").mkdir(exist_ok=True)
    lines = []
    for row in rows_or_lines:
        if isinstance(row, dict):
            if row.get("image", "").startswith("images/") and (EXAMPLE / row["image"]).exists():
                shutil.copy(EXAMPLE / row["image"], tmp_path / row["image"])
            row = json.dumps(row)
        lines.append(row)
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(lines) + "\n")
    return data


@pytest.mark.slow
def test_bad_input_fails_alone_and_exits_nonzero(tmp_path):
    good, other = example_rows(2)
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00garbage")
    rows = [
        good,
        {**other, "id": "missing-img", "image": "images/does_not_exist.png"},
        {**other, "id": "corrupt-img", "image": "images/corrupt.png"},
        '{"id": "half-a-line", "prompt": ',
        {**other, "id": "wrong-type", "questions": "not a list"},
    ]
    data = write_data(tmp_path, rows)
    out = tmp_path / "out"
    proc = subprocess.run(
        [str(SCRIPT), f"data={data}", f"out={out}", "iterations=1", *FAST_OCR],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error: ")]
    assert any(f"{data}:4: malformed JSON" in e for e in errors)
    assert any(f"{data}:5 (item wrong-type): field 'questions' must be list, got str" in e for e in errors)
    assert any("item missing-img: image not found" in e for e in errors)
    assert any("item corrupt-img: cannot read image" in e for e in errors)

    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_finished"] == 1 and summary["n_failed"] == 4
    [ok] = [it for it in summary["items"] if it["error"] is None]
    assert ok["id"] == str(good["id"]) and (out / ok["best_image"]).exists()
    assert summary["mean_best"]["pass_rate"] > summary["mean_initial"]["pass_rate"]


@pytest.mark.slow
def test_ctrl_c_keeps_finished_items_and_rerun_resumes(tmp_path):
    data = write_data(tmp_path, example_rows(3))
    out = tmp_path / "out"
    cmd = [str(SCRIPT), f"data={data}", f"out={out}", "iterations=1", *FAST_OCR]
    # a job started in the background (`cmd &`, nohup) inherits SIGINT ignored: give the child the default
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.time() + 900  # a loaded machine may take minutes for the first item
    while not list(out.glob("*/result.json")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.fail("the run finished before it could be interrupted")
    assert proc.returncode == 130, stderr
    assert "run the same command again to resume" in stderr
    finished = {p.parent.name: p.stat().st_mtime_ns for p in out.glob("*/result.json")}
    assert finished and len(finished) < 3
    partial = json.loads((out / "summary.json").read_text())
    assert {it["id"] for it in partial["items"]} == set(finished) and partial["complete"] is False

    rerun = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    for name, mtime in finished.items():
        assert (out / name / "result.json").stat().st_mtime_ns == mtime  # skipped, not redone
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_finished"] == 3 and [it["id"] for it in summary["items"]] == [
        str(r["id"]) for r in example_rows(3)
    ]
    assert summary["complete"] is True


@pytest.mark.slow
@pytest.mark.parametrize(
    "option, message",
    [
        ("iterations=-1", "error: iterations must be an integer >= 0, got -1"),
        ("keep_best_by=foo", "error: keep_best_by must be one of"),
        ("limit=0", "error: limit must be an integer >= 1 or null, got 0"),
        ("judge_outage=0", "error: judge_outage must be a number in (0, 1], got 0"),
        (
            "judge=nonexist",
            "error: In 'refine': Could not find 'judge/nonexist' Available options in 'judge': layout ocr ",
        ),
        ("foo=1", "error: Could not override 'foo': no such option"),
        ("+iteratons=2", "error: +iteratons=2: conf/refine.yaml has no option 'iteratons'"),
        ("wandb.mode=ofline", "error: wandb.mode must be one of 'auto', 'online', 'offline', 'disabled', got 'ofline'"),
        (
            "judge.judges.1.base_url=x",
            "error: Error merging override judge.judges.1.base_url=x (list index out of range)",
        ),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path, option, message):
    proc = subprocess.run(
        [str(SCRIPT), f"out={tmp_path / 'out'}", option],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
        cwd=tmp_path,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(message) and len(proc.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # a rejected run leaves no out/, .hydra or refine.log


@pytest.mark.slow
def test_rerun_with_another_component_is_refused(tmp_path):
    data = write_data(tmp_path, example_rows(1))
    out = tmp_path / "out"
    first = subprocess.run(
        [str(SCRIPT), f"data={data}", f"out={out}", "iterations=0", *FAST_OCR],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )
    assert first.returncode == 0, first.stderr
    again = subprocess.run(
        [str(SCRIPT), f"data={data}", f"out={out}", "iterations=0", "editor=tiny", *FAST_OCR],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )
    assert again.returncode == 2
    assert again.stderr.splitlines()[-1] == (
        f"error: {out} holds a run made with another editor (see {out / 'run.json'}); "
        "use those settings to resume, or a new out="
    )


def run_in_process(tmp_path, *overrides):
    """``refine.cli.run`` on the composed config (no subprocess): (exit status, stderr lines)."""
    from hydra import compose, initialize_config_module

    from refine.cli import run

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(config_name="refine", overrides=["wandb.mode=disabled", *overrides])
    return run(cfg)


def error_lines(text):
    return [line for line in text.splitlines() if line.startswith("error: ")]


def test_a_judge_that_cannot_be_built_is_one_line_exit_2_and_leaves_nothing(tmp_path, capsys):
    data = write_data(tmp_path, example_rows(1))
    not_sqlite = tmp_path / "afile"
    not_sqlite.write_text("plain text, not a database\n" * 10)
    out = tmp_path / "x"
    assert run_in_process(tmp_path, f"data={data}", f"out={out}", f"judge.cache={not_sqlite}") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: judge.cache={not_sqlite}: cannot use it as a verdict cache")
    assert not out.exists()  # no .lock, no empty folder


def test_a_component_error_that_is_not_ours_names_the_component(tmp_path, capsys):
    data = write_data(tmp_path, example_rows(1))
    out = tmp_path / "x"
    assert run_in_process(tmp_path, f"data={data}", f"out={out}", "editor._target_=no_such_module.Editor") == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: editor: ") and "no_such_module" in line
    assert not out.exists()


def test_shard_seeds_items_by_their_index_in_the_data(tmp_path, monkeypatch, capsys):
    from refine.loop import RefineLoop
    from rewards.common.items import ItemError

    data = write_data(tmp_path, example_rows(5))
    ids = [str(r["id"]) for r in example_rows(5)]
    seen = {}

    def record(self, item, index, item_dir, on_iteration=lambda: None):
        seen[shard][item.id] = index  # the index that seeds the item (seed + 1000 * index + k)
        raise ItemError(f"item {item.id}: recorded")

    monkeypatch.setattr(RefineLoop, "refine_item", record)
    for shard in (None, "1/2"):
        seen[shard] = {}
        args = [f"data={data}", f"out={tmp_path / str(shard).replace('/', '-')}", "limit=4"]
        assert run_in_process(tmp_path, *args, *([f"shard={shard}"] if shard else [])) == 1
    assert seen[None] == dict(zip(ids[:4], range(4)))
    assert seen["1/2"] == {ids[1]: 1, ids[3]: 3}


def test_resume_may_add_a_verdict_cache_but_not_change_iterations(tmp_path, monkeypatch, capsys):
    from refine.loop import RefineLoop
    from rewards.common.items import ItemError

    def fail(self, item, index, item_dir, on_iteration=lambda: None):
        raise ItemError(f"item {item.id}: not refined in this test")

    monkeypatch.setattr(RefineLoop, "refine_item", fail)
    data = write_data(tmp_path, example_rows(1))
    out = tmp_path / "out"
    assert run_in_process(tmp_path, f"data={data}", f"out={out}", "iterations=0") == 1
    capsys.readouterr()
    assert (
        run_in_process(
            tmp_path, f"data={data}", f"out={out}", "iterations=0", f"judge.cache={tmp_path / 'verdicts.sqlite'}"
        )
        == 1
    )
    assert error_lines(capsys.readouterr().err) == [f"error: item {example_rows(1)[0]['id']}: not refined in this test"]
    assert (tmp_path / "verdicts.sqlite").exists()
    assert run_in_process(tmp_path, f"data={data}", f"out={out}", "iterations=1") == 2
    assert error_lines(capsys.readouterr().err)[0].startswith(f"error: {out} holds a run made with iterations=0")


def test_ctrl_c_in_the_first_item_writes_an_incomplete_summary(tmp_path, monkeypatch, capsys):
    from refine.loop import RefineLoop

    def interrupt(self, item, index, item_dir, on_iteration=lambda: None):
        raise KeyboardInterrupt

    monkeypatch.setattr(RefineLoop, "refine_item", interrupt)
    data = write_data(tmp_path, example_rows(2))
    out = tmp_path / "out"
    assert run_in_process(tmp_path, f"data={data}", f"out={out}", "iterations=0") == 130
    assert "run the same command again to resume" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is False and summary["n_finished"] == 0 and summary["items"] == []


def test_a_resumed_refine_logs_into_the_same_wandb_run(tmp_path, monkeypatch):
    """Issue 21: refine keeps its W&B run id in ``<out>/wandb_run_id``; a rerun into ``out`` (a
    resume) and ``rubricloop-report --wandb`` log into that run instead of starting another."""
    from omegaconf import OmegaConf

    from refine.cli import start_wandb

    for var, sub in (("WANDB_DATA_DIR", "wbdata"), ("WANDB_CACHE_DIR", "wbcache"), ("WANDB_CONFIG_DIR", "wbconfig")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_MODE", raising=False)
    cfg = OmegaConf.create({"wandb": {"mode": "offline", "project": "rubricloop", "name": None}, "iterations": 1})
    out = tmp_path / "out"
    out.mkdir()
    ids = []
    for _ in range(2):
        run = start_wandb(cfg, out)
        ids.append(run.id)
        run.finish()
    assert ids[0] == ids[1] == (out / "wandb_run_id").read_text().strip()
    assert sorted(p.name for p in (out / "wandb").glob("offline-run-*/run-*.wandb")) == [f"run-{ids[0]}.wandb"] * 2
