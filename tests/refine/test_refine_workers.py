"""``rubricloop-refine workers=N`` (refine/workers.py) and the OCR thread limit (rewards/common/threads.py).

The runs go through ``refine.cli.run`` on the composed config, in this process; the workers are
real "spawn" processes. ``tests/conftest.py`` sets ``RUBRICLOOP_WORKERS=1`` for the rest of the
suite, so each test here names its ``workers=``.
"""

import json
import multiprocessing
import os
import shutil
import stat
from pathlib import Path

import pytest
from omegaconf import open_dict
from refine_rows import FAST_EDIT
from refine_rows import FAST_OCR as FAST_JUDGE

FAST_OCR = (*FAST_JUDGE, *FAST_EDIT)
"""One tesseract pass at 1x in the judge and the editor, no second look (the defaults: two passes at 2x)."""
EXAMPLE = Path(__file__).resolve().parents[2] / "refine" / "example" / "bizgeneval_text.jsonl"


def compose(*overrides, judge=None, editor=None):
    """The refine config with ``overrides``; ``judge`` (one judge's node, inside the router) and
    ``editor`` (a whole node) replace the composed ones when given."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_module

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = hydra_compose(config_name="refine", overrides=["wandb.mode=disabled", *overrides])
    with open_dict(cfg):
        if judge is not None:
            cfg.judge.judges = [judge]
        if editor is not None:
            cfg.editor = editor
    return cfg


class RowsRun:
    """Stands in for the W&B run (``refine.cli.start_wandb``): keeps the rows ``wandb_logger`` logs."""

    def __init__(self):
        self.rows, self.summary = [], {}

    def log(self, row):
        self.rows.append({k: (v._caption if k.endswith("_image") else v) for k, v in row.items()})

    def finish(self):
        pass


def refine(cfg, monkeypatch):
    """``refine.cli.run(cfg)`` with W&B rows caught: (exit status, rows)."""
    import refine.cli

    run = RowsRun()
    monkeypatch.setattr(refine.cli, "start_wandb", lambda cfg, out: run)
    return refine.cli.run(cfg), run.rows


def item_files(out: Path) -> dict[str, bytes]:
    """Every file of every item folder (relative path -> bytes)."""
    return {
        str(p.relative_to(out)): p.read_bytes()
        for p in sorted(out.glob("*/*"))
        if p.is_file() and p.parent.name not in (".hydra", ".tmp")
    }


def test_the_ocr_thread_limit_is_one_unless_the_user_set_one(monkeypatch):
    from rewards.common.threads import limit_ocr_threads

    monkeypatch.setenv("OMP_THREAD_LIMIT", "x")  # recorded, so the test leaves the environment as it found it
    monkeypatch.delenv("OMP_THREAD_LIMIT")
    assert limit_ocr_threads() == "1" and os.environ["OMP_THREAD_LIMIT"] == "1"
    monkeypatch.setenv("OMP_THREAD_LIMIT", "3")
    assert limit_ocr_threads() == "3" and os.environ["OMP_THREAD_LIMIT"] == "3"


def test_workers_default_to_the_cores_but_one_with_a_model_on_a_gpu(monkeypatch):
    from refine.cli import worker_count
    from rewards.common.threads import usable_cores

    cpu = {"judge": {"judges": [{"_target_": "x"}]}, "editor": {"device": "cpu"}}
    gpu = {"judge": {"judges": [{"_target_": "x", "device": "cuda:1"}]}, "editor": {"device": "cpu"}}
    monkeypatch.delenv("RUBRICLOOP_WORKERS")
    assert worker_count(compose(), cpu) == usable_cores() == len(os.sched_getaffinity(0))
    assert worker_count(compose(), gpu) == 1
    assert worker_count(compose("workers=3"), gpu) == 3
    monkeypatch.setenv("RUBRICLOOP_WORKERS", "2")
    assert worker_count(compose(), gpu) == 2 and worker_count(compose("workers=5"), cpu) == 5
    monkeypatch.setenv("RUBRICLOOP_WORKERS", "two")
    with pytest.raises(ValueError, match="RUBRICLOOP_WORKERS must be an integer >= 1 .* got 'two'"):
        worker_count(compose(), cpu)


def test_a_bad_workers_option_is_one_line_and_exit_2(tmp_path, capsys):
    from refine.cli import run

    assert run(compose(f"out={tmp_path / 'out'}", "workers=0")) == 2
    assert capsys.readouterr().err == "error: workers must be an integer >= 1 or null (one per core), got 0\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_two_workers_refine_the_bundled_example_as_one_process_does(tmp_path, monkeypatch):
    """The bundled example's first 2 items (one per worker), one edit each, with the OCR judge and the text editor
    (one tesseract pass at 1x each):
    the same item files (verdicts, images, result.json), summary and W&B rows. Every tesseract
    (a wrapper on PATH records its environment and parent) ran with OMP_THREAD_LIMIT=1, in the
    run's process with one worker and in two worker processes with two. Tesseract runs as the
    command here (``RUBRICLOOP_TESSERACT=cli``) so that the wrapper sees every read; tesserocr in
    the process reads the same limit from the environment when it loads."""
    monkeypatch.setenv("RUBRICLOOP_TESSERACT", "cli")
    real = shutil.which("tesseract")
    bin_dir, seen = tmp_path / "bin", tmp_path / "tesseract_calls.txt"
    bin_dir.mkdir()
    wrapper = bin_dir / "tesseract"
    wrapper.write_text(f'#!/bin/sh\necho "$PPID $OMP_THREAD_LIMIT" >> {seen}\nexec {real} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("OMP_THREAD_LIMIT", "x")  # recorded: refine.cli.run sets it in this process
    monkeypatch.delenv("OMP_THREAD_LIMIT")

    calls, outs, rows = {}, {}, {}
    for workers in (1, 2):
        outs[workers] = tmp_path / f"w{workers}"
        seen.unlink(missing_ok=True)
        status, rows[workers] = refine(
            compose(f"out={outs[workers]}", "limit=2", "iterations=1", f"workers={workers}", *FAST_OCR), monkeypatch
        )
        assert status == 0
        calls[workers] = [line.split() for line in seen.read_text().splitlines()]

    assert {limit for _, limit in calls[1] + calls[2]} == {"1"}
    assert {int(parent) for parent, _ in calls[1]} == {os.getpid()}
    assert len({parent for parent, _ in calls[2]}) == 2 and str(os.getpid()) not in {p for p, _ in calls[2]}
    assert len(calls[2]) >= len(calls[1]) > 0  # a worker asks `tesseract --version` once more

    files = {w: item_files(out) for w, out in outs.items()}
    assert len([f for f in files[1] if f.endswith("best.png")]) == 2
    assert files[2] == files[1]
    summaries = {w: json.loads((out / "summary.json").read_text()) for w, out in outs.items()}
    assert summaries[2] == summaries[1] and summaries[1]["n_finished"] == 2
    assert [r["item"] for r in rows[1]] == [0, 1]
    assert sorted(rows[2], key=lambda r: r["item"]) == rows[1]  # in the order items finished


def marks(tmp_path, die_index=None):
    """The fast deterministic components of ``worker_components``; item ``die_index`` kills its
    worker on its first edit (once: a marker file in ``tmp_path``)."""
    judge = {"_target_": "worker_components.MarkJudge"}
    editor = {"_target_": "worker_components.MarkEditor", "die_index": die_index, "die_once": str(tmp_path / "died")}
    return {"judge": judge, "editor": editor}


@pytest.mark.slow
def test_a_killed_worker_fails_only_its_item_and_the_rerun_finishes_it(tmp_path, monkeypatch, capsys):
    from refine.item_results import item_dir_name

    ids = [str(json.loads(line)["id"]) for line in EXAMPLE.read_text().splitlines()[:4]]
    out, reference = tmp_path / "out", tmp_path / "reference"
    cfg = compose(f"out={out}", "limit=4", "iterations=1", "workers=2", **marks(tmp_path, die_index=1))

    status, rows = refine(cfg, monkeypatch)
    err = capsys.readouterr().err
    assert status == 1
    [error] = [line for line in err.splitlines() if line.startswith("error: ")]
    assert error.startswith(f"error: item {ids[1]}: its worker process (pid ") and error.endswith(
        ") died before the item finished"
    )
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["n_finished"], summary["n_failed"], summary["complete"]) == (3, 1, True)
    assert [it["id"] for it in summary["items"]] == ids and summary["errors"] == [error.removeprefix("error: ")]
    assert not (out / item_dir_name(ids[1]) / "result.json").exists()
    assert sorted(r["item"] for r in rows) == [0, 2, 3]

    with open_dict(cfg):
        cfg.workers = 1  # not a setting of the run: a resume may take another number of workers
    status, rows = refine(cfg, monkeypatch)  # the marker now exists: nobody dies
    assert status == 0 and [r["item"] for r in rows] == [1]
    assert "refining 1 of 4 items" in capsys.readouterr().out

    one = compose(f"out={reference}", "limit=4", "iterations=1", "workers=1", **marks(tmp_path, die_index=1))
    status, _ = refine(one, monkeypatch)
    assert status == 0
    assert json.loads((out / "summary.json").read_text()) == json.loads((reference / "summary.json").read_text())
    assert item_files(out) == item_files(reference)


@pytest.mark.slow
def test_ctrl_c_with_workers_keeps_finished_items_and_ends_the_workers(tmp_path, monkeypatch, capsys):
    """A Ctrl-C in the run's process (here: while it writes the summary after the first item)
    exits 130 with summary.json ``complete: false`` and no worker process left."""
    from refine.loop import RefineLoop

    out = tmp_path / "out"
    cfg = compose(f"out={out}", "limit=4", "iterations=1", "workers=2", **marks(tmp_path))
    real, calls = RefineLoop.write_summary, []

    def interrupted_once(out_, summary):
        calls.append(summary["complete"])
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(out_, summary)

    monkeypatch.setattr(RefineLoop, "write_summary", staticmethod(interrupted_once))
    status, _ = refine(cfg, monkeypatch)
    assert status == 130 and "run the same command again to resume" in capsys.readouterr().err
    assert multiprocessing.active_children() == []
    partial = json.loads((out / "summary.json").read_text())
    assert partial["complete"] is False and 1 <= partial["n_finished"] < 4
    # finished in a worker but not yet taken by this process when Ctrl-C came: recorded too (read back from disk)
    assert {it["id"] for it in partial["items"]} == {p.parent.name for p in out.glob("*/result.json")}


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux ``/proc``)."""
    kids = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids |= {int(k) for k in (task / "children").read_text().split()}
        except OSError:
            pass
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; its new parent reaps it


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_run_killed_with_sigkill_takes_its_workers_with_it(tmp_path):
    """Before: SIGKILL of the run's process alone left both workers and the manager blocked
    forever on its queue (about 800 MB each with the OCR components)."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    script = f"""
import sys
from test_refine_workers import compose, marks
from pathlib import Path
import refine.cli
parts = marks(Path({str(tmp_path)!r}))
parts["editor"]["sleep_s"] = 30
cfg = compose("out={out}", "limit=4", "iterations=1", "workers=2", **parts)
sys.exit(refine.cli.run(cfg))
"""
    here = Path(__file__).parent
    # the repository root first, then tests/ (refine_rows) and this folder (tests/conftest.py)
    paths = [str(here.parents[1]), str(here.parent), str(here), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    run = subprocess.Popen([sys.executable, "-c", script], cwd=here, env=env, start_new_session=True)
    kids: set[int] = set()
    try:
        deadline = time.time() + 120
        while len(_children(run.pid)) < 3 and time.time() < deadline and run.poll() is None:
            time.sleep(0.2)  # the manager and two workers
        kids = _children(run.pid)
        assert len(kids) >= 3 and run.poll() is None, kids
        time.sleep(2)  # the workers are in their first (slow) edit
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        deadline = time.time() + 20
        while any(_alive(k) for k in kids) and time.time() < deadline:
            time.sleep(0.2)
        assert not [k for k in kids if _alive(k)]
    finally:
        for pid in [run.pid, *kids]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
