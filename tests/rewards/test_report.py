"""``rubricloop-report``: HTML reports of refine, eval and train runs, loaded in headless Chromium.

The test starts Debian's ``chromium`` itself (``--headless --no-sandbox``, background networking,
component updates and sync off, a fresh profile), dumps the DOM and takes a screenshot.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from rewards.eval.report import FILES, write_report

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


def test_bar_chart_writes_every_value_so_zero_bars_show():
    from rewards.eval.report import bar_chart

    fig = bar_chart({"text": 0.0, "layout": 0.5, "colour": 1.0}, "t", "score")
    assert [t.get_text() for t in fig.axes[0].texts] == ["0.00", "0.50", "1.00"]
    assert fig.axes[0].get_ylim()[1] > 1.0  # room above the highest bar for its label


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


def test_a_report_or_compare_that_cannot_be_written_is_one_line(tmp_path, capsys):
    """Issue 18.3: rubricloop-report into a read-only run folder was a traceback from
    shutil.rmtree, rubricloop-eval compare --out <read-only> one from os.mkdir. Reproduced
    without root: a file where the report's folder or --out's parent should be."""
    from rewards.eval.compare import main as compare_main
    from rewards.eval.report import main as report_main

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
