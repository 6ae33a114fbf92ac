"""``rubricloop-report``: HTML reports of refine, eval and train runs, loaded in headless Chromium.

The test starts Debian's ``chromium`` itself (``--headless --no-sandbox``, background networking,
component updates and sync off, a fresh profile), dumps the DOM and takes a screenshot.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from evaluation.report import FILES, write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )


def refine_run(tmp_path: Path) -> Path:
    """A finished 2-item, 2-iteration refine run, laid out as refine/loop.py writes it."""
    run = tmp_path / "refine"
    rng = np.random.default_rng(0)
    data = tmp_path / "rubrics.jsonl"
    rows = [
        {
            "id": i,
            "prompt": "p",
            "criteria": [
                {
                    "name": "title",
                    "checks": [{"id": "t", "question": f"Title of {i}?"}, {"id": "b", "question": "Body?"}],
                }
            ],
        }
        for i in ("a", "b")
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    items = []
    for i, passes in (("a", [(0, 0), (1, 0), (1, 1)]), ("b", [(0, 1), (0, 1), (1, 1)])):
        folder = run / i
        folder.mkdir(parents=True)
        lines = []
        for k, (t, b) in enumerate(passes):
            Image.fromarray(rng.integers(0, 255, (24, 32, 3), dtype=np.uint8)).save(folder / f"iter_{k}.png")
            for cid, ok in (("t", t), ("b", b)):
                lines.append(
                    {
                        "iteration": k,
                        "check_id": cid,
                        "answer": "yes" if ok else "no",
                        "judge": "ocr",
                        "reason": f"ocr read 'X{k}{cid}'",
                    }
                )
        (folder / "verdicts.jsonl").write_text("".join(json.dumps(v) + "\n" for v in lines))
        shutil.copy(folder / "iter_2.png", folder / "best.png")
        items.append(
            {
                "id": i,
                "scores": [{"pass_rate": (t + b) / 2, "criterion_score": 0.5 ** (2 - t - b)} for t, b in passes],
                "best_iteration": 2,
                "best_image": f"{i}/best.png",
                "stop_reason": "all checks pass",
                "error": None,
            }
        )
    summary = {
        "iterations": 2,
        "keep_best_by": "pass_rate",
        "n_items": 2,
        "n_finished": 2,
        "n_failed": 0,
        "withheld": {},
        "mean_initial": {"pass_rate": 0.25, "criterion_score": 0.375},
        "mean_best": {"pass_rate": 1.0, "criterion_score": 1.0},
        "items": items,
        "errors": [],
    }
    (run / "summary.json").write_text(json.dumps(summary))
    (run / "run.json").write_text(json.dumps({"data": str(data)}))
    return run


def test_refine_report_tables_curve_and_strips(tmp_path):
    run = refine_run(tmp_path)
    html = write_report(run).read_text()
    # best score after N iterations, mean over items: N=0 (0 + 0.5) / 2, N=1 (0.5 + 0.5) / 2, N=2 1.0
    assert (
        "<td>0</td><td>0.250</td>" in html and "<td>1</td><td>0.500</td>" in html and "<td>2</td><td>1.000</td>" in html
    )
    # iteration 0 of item a failed both checks; the question and the judge's reason (hover) are shown
    assert '<li class="no" title="no: ocr read &#39;X0t&#39;">t: Title of a?</li>' in html
    assert html.count("<figure") == 6 and len(list((run / FILES).glob("img_*.png"))) == 6
    assert len(list((run / FILES).glob("chart_*.png"))) == 2
    # each thumbnail links to its full image, relative to report.html (issue 21)
    assert '<a href="a/iter_0.png" title="full size"><img src="' in html and (run / "a" / "iter_0.png").is_file()
    assert "mean best scores" in html and "best scores by dimension" not in html


def test_best_after_n_reports_each_score_at_the_kept_iteration():
    """A lower-is-better score (refuted) is read at the iteration the loop keeps, not maximised
    on its own (issue 21: the table showed refuted 0.717 after one edit while the kept images had 0.517)."""
    from evaluation.report import kept_iteration

    scores = [
        {"pass_rate": 0.2, "refuted": 0.65},
        {"pass_rate": 0.6, "refuted": 0.35},
        {"pass_rate": 0.6, "refuted": 0.30},
        {"pass_rate": 0.6, "refuted": 0.30},
    ]
    assert [kept_iteration(scores[: k + 1], "pass_rate") for k in range(4)] == [0, 1, 2, 2]
    assert kept_iteration(scores[:1], "pass_rate") == 0


def test_bar_chart_writes_every_value_so_zero_bars_show():
    from evaluation.report import bar_chart

    fig = bar_chart({"text": 0.0, "layout": 0.5, "colour": 1.0}, "t", "score")
    assert [t.get_text() for t in fig.axes[0].texts] == ["0.00", "0.50", "1.00"]
    assert fig.axes[0].get_ylim()[1] > 1.0  # room above the highest bar for its label
    # the 0 bar is drawn as a thick line at 0 across its width (bar 0 spans x -0.4..0.4)
    [stub] = fig.axes[0].collections
    assert stub.get_segments()[0].tolist() == [[-0.4, 0.0], [0.4, 0.0]] and stub.get_linewidth()[0] == 5


def test_train_report_reads_the_run_history(tmp_path):
    run = tmp_path / "ckpt"
    (run / "step_2").mkdir(parents=True)
    history = {
        "step": [0, 1, 2],
        "reward_mean": [0.1, 0.3, 0.6],
        "kl": [0.0, 0.01, 0.02],
        "approx_kl": [0.0, 0.02, 0.03],
        "loss": [0.0, -0.1, -0.2],
        "eval_step": [0, 2],
        "eval_reward": [0.1, 0.5],
        "check_pass_rates": [{}, {}, {"checks/title/pass rate": 0.5}],
    }
    (run / "history.json").write_text(json.dumps(history))
    html = write_report(run).read_text()
    assert "<td>2</td><td>0.6</td><td>0.02</td><td>0.03</td><td>-0.2</td>" in html
    assert "step_2" in html and len(list((run / FILES).glob("chart_*.png"))) == 3  # reward, KL, pass rates


def wandb_records(path: Path) -> list:
    """The protobuf records of a W&B run file (``run-<id>.wandb``): a 7-byte header (":W&B",
    magic, version), then LevelDB log records in 32 KiB blocks (crc 4 bytes, length 2 LE, type 1:
    full / first / middle / last), a block's tail under 7 bytes zero-padded."""
    from wandb.proto import wandb_internal_pb2 as pb

    data = path.read_bytes()
    assert data[:4] == b":W&B"
    pos, block, parts, records = 7, 32768, b"", []
    while pos + 7 <= len(data):
        if block - pos % block < 7:
            pos += block - pos % block
            continue
        length, kind = int.from_bytes(data[pos + 4 : pos + 6], "little"), data[pos + 6]
        if pos + 7 + length > len(data):  # a record still being written
            break
        parts += data[pos + 7 : pos + 7 + length]
        pos += 7 + length
        if kind in (1, 4):  # full, or the last part
            record = pb.Record()
            record.ParseFromString(parts)
            records.append(record)
            parts = b""
    return records


def finished_records(path: Path, timeout_s: float = 60.0) -> list:
    """:func:`wandb_records` once the run's ``exit`` record is in: W&B's service writes an
    offline run's file on after ``finish`` returns."""
    import time

    deadline = time.monotonic() + timeout_s
    records = wandb_records(path)
    while not any(r.HasField("exit") for r in records) and time.monotonic() < deadline:
        time.sleep(0.2)
        records = wandb_records(path)
    return records


def test_report_logs_its_image_table_into_the_reported_runs_own_wandb_run(tmp_path, monkeypatch, capsys):
    """Issue 21: ``--wandb offline`` logged an image table whose image column held the string
    "Image", into yet another W&B run. Now: the refine run's own W&B run (its id from
    ``<run>/wandb/offline-run-<time>-<id>``), resumed, gets a table of real images."""
    import wandb

    from evaluation.report import main

    for var, sub in (("WANDB_DATA_DIR", "wbdata"), ("WANDB_CACHE_DIR", "wbcache"), ("WANDB_CONFIG_DIR", "wbconfig")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("WANDB_SILENT", "true")
    run = refine_run(tmp_path)
    (run / ".hydra").mkdir()
    (run / ".hydra" / "config.yaml").write_text("wandb:\n  project: my-refines\n  mode: offline\n")
    with wandb.init(project="my-refines", mode="offline", dir=str(run), job_type="refine") as wb:  # as refine does
        wb.log({"pass_rate": 0.5})
        refine_id = wb.id
    assert main([str(run), "--wandb", "offline"]) == 0
    assert f"logged the report into the run's own W&B run {refine_id} (offline)" in capsys.readouterr().out
    # one folder per start of the run (offline), each run file named by the run's id: no other run
    files = sorted((run / "wandb").glob("offline-run-*/run-*.wandb"), key=lambda p: p.stat().st_mtime_ns)
    assert [p.name for p in files] == [f"run-{refine_id}.wandb"] * 2
    records = finished_records(files[-1])
    [started] = [r.run for r in records if r.WhichOneof("record_type") == "run"]
    assert (started.run_id, started.project) == (refine_id, "my-refines")
    logged = {  # the history row, its table entries as nested keys ("image strips", "_type")
        tuple(i.nested_key) or (i.key,): json.loads(i.value_json)
        for r in records
        if r.HasField("history")
        for i in r.history.item
    }
    assert logged["image strips", "_type"] == "table-file" and logged["image strips", "nrows"] == 6
    [table] = [r.artifact for r in records if r.HasField("artifact") and "-imagestrips-" in r.artifact.name]
    assert table.name.startswith(f"run-{refine_id}-imagestrips-") and table.type == "run_table"
    files = {c.path: c.local_path for c in table.manifest.contents}
    assert len([p for p in files if p.startswith("media/images/") and p.endswith(".png")]) == 6
    strips = json.loads(Path(files["image strips.table.json"]).read_text())
    assert strips["columns"] == ["item", "frame", "image", "failed checks"]
    images = [row[2] for row in strips["data"]]
    assert [row[:2] for row in strips["data"]] == [[i, f"iter {k}"] for i in ("a", "b") for k in range(3)]
    # every cell a W&B image of the full 32 x 24 iteration image, not the string "Image"
    assert all(im["_type"] == "image-file" and (im["width"], im["height"]) == (32, 24) for im in images)
    assert set(files) >= {im["path"] for im in images}


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed (.ci/run installs it)")
def test_report_loads_in_headless_chromium_with_tables_and_images(tmp_path):
    run = refine_run(tmp_path)
    page = write_report(run)
    dom = chromium(page, tmp_path / "profile1", "--dump-dom", "--virtual-time-budget=3000")
    assert dom.returncode == 0, dom.stderr[-1000:]
    assert dom.stdout.count('<table class="scores"') == 2 and dom.stdout.count("<img ") == 2 + 6
    assert "Title of a?" in dom.stdout
    shot = tmp_path / "shot.png"
    proc = chromium(page, tmp_path / "profile2", f"--screenshot={shot}", "--window-size=900,1400", "--hide-scrollbars")
    assert proc.returncode == 0 and shot.is_file(), proc.stderr[-1000:]
    pixels = np.asarray(Image.open(shot).convert("L"), dtype=float)
    assert pixels.std() > 10 and (pixels < 128).mean() > 0.005  # text, table borders and charts drawn, not a blank page
    # every thumbnail links to its full image (issue 21): the link opens the 32 x 24 original,
    # the page shows a scaled-up thumbnail of it
    links = re.findall(r'<a href="([^"]+)" title="full size"><img src="([^"]+)"', dom.stdout)
    assert len(links) == 6
    for full, thumb in links:
        with Image.open(page.parent / full) as im, Image.open(page.parent / thumb) as th:
            assert im.size == (32, 24) and th.size == (96, 72), (full, thumb)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed (.ci/run installs it)")
def test_an_all_zero_run_shows_its_zero_bars_in_headless_chromium(tmp_path):
    """Issue 21: bars of value 0 were invisible, so an all-zero chart looked empty. Every check of
    every iteration failed here; the screenshot holds the zero bars' stubs in the bar colour."""
    run = refine_run(tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    for it in summary["items"]:
        it["scores"] = [{"pass_rate": 0.0, "criterion_score": 0.0} for _ in it["scores"]]
        it["best_iteration"] = 0
    summary["mean_initial"] = summary["mean_best"] = {"pass_rate": 0.0, "criterion_score": 0.0}
    (run / "summary.json").write_text(json.dumps(summary))
    page = write_report(run)
    shot = tmp_path / "shot.png"
    proc = chromium(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1000,2200", "--hide-scrollbars")
    assert proc.returncode == 0 and shot.is_file(), proc.stderr[-1000:]
    rgb = np.asarray(Image.open(shot).convert("RGB"), dtype=int)
    bar_colour = np.abs(rgb - [0x48, 0x78, 0xA8]).sum(-1) <= 6  # bar_chart's colour; the line chart has others
    assert bar_colour.sum() > 200  # the two 0 bars drawn as 5 pt lines about 215 px wide, not nothing


def test_a_report_or_compare_that_cannot_be_written_is_one_line(tmp_path, capsys):
    """Issue 18.3: rubricloop-report into a read-only run folder was a traceback from
    shutil.rmtree, rubricloop-eval compare --out <read-only> one from os.mkdir. Reproduced
    without root: a file where the report's folder or --out's parent should be."""
    from evaluation.compare import main as compare_main
    from evaluation.report import main as report_main

    run = tmp_path / "ckpt"
    run.mkdir()
    (run / "history.json").write_text(json.dumps({"step": [0], "reward_mean": [0.1], "kl": [0.0]}))
    (run / FILES).write_text("in the way")  # rmtree of a file: NotADirectoryError, as EROFS is
    assert report_main([str(run)]) == 1
    assert capsys.readouterr().err == f"error: {run}: cannot write the report (Not a directory)\n"
    assert not (run / "report.html").exists()

    for name, v in (("a", 0.2), ("b", 0.4)):
        per_item = [{"id": "1", "groups": {"domain": "d"}, "metrics": {"all": v}}]
        (tmp_path / name).mkdir()
        (tmp_path / name / "scores.json").write_text(json.dumps({"benchmark": "bizgeneval", "per_item": per_item}))
    out = tmp_path / "afile" / "cmp"
    (tmp_path / "afile").write_text("")
    assert compare_main([str(tmp_path / "a"), str(tmp_path / "b"), "--n-boot", "10", "--out", str(out)]) == 1
    assert capsys.readouterr().err == f"error: --out {out}: cannot write {out} (Not a directory)\n"
    good = tmp_path / "cmp"
    assert compare_main([str(tmp_path / "a"), str(tmp_path / "b"), "--n-boot", "10", "--out", str(good)]) == 0
    assert sorted(p.name for p in good.iterdir()) == ["compare.csv", "compare.json", "compare.md"]
    assert (good / "compare.csv").read_bytes().startswith(b"a,b,")
    assert b"\r\n" in (good / "compare.csv").read_bytes()  # csv's own line ends, as before


def test_the_wandb_run_a_folder_logged_into(tmp_path):
    from rewards.common.wandb_run import recorded_project, recorded_run_id

    assert recorded_run_id(tmp_path) is None and recorded_project(tmp_path) is None
    for name, run_id in (
        ("offline-run-20260101_090000-old1", "old1"),
        ("run-20260102_080000-new2", "new2"),  # online
        ("offline-run-20260101_090000-old1-1", "old1"),  # a second start in the same second
        ("offline-run-x-bad", "bad"),
        ("latest-run", "new2"),
    ):
        (tmp_path / "wandb" / name).mkdir(parents=True)
        (tmp_path / "wandb" / name / f"run-{run_id}.wandb").write_bytes(b":W&B")
    assert recorded_run_id(tmp_path) == "new2"  # the newest by its start time, online or offline
    (tmp_path / "wandb_run_id").write_text("abc123\n")  # train and eval record it: that wins
    assert recorded_run_id(tmp_path) == "abc123"
    (tmp_path / "wandb_run_id").write_text("../../x\n")  # not an id: the folder names again
    assert recorded_run_id(tmp_path) == "new2"
    (tmp_path / ".hydra").mkdir()
    (tmp_path / ".hydra" / "config.yaml").write_text("trainer:\n  wandb_project: grpo-runs\n")
    assert recorded_project(tmp_path) == "grpo-runs"
