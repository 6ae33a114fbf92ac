"""``rubricloop-eval`` and the BizGenEval / GenExam result files, end to end.

The goldens in tests/fixtures/bizgeneval_official/ are the output of microsoft/BizGenEval
``evaluation/summarize.py`` (commit 1c15075) on the inputs that ``make_inputs.py`` recreates.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_module

from evaluation.cli import run
from rewards.rubric import Check, Item, Rubric, Verdict
from rewards.scorers.bizgeneval_results import read_result_file, result_filename, write_result_file
from rewards.scorers.genexam_results import read_genexam_result, write_genexam_result

FIXTURES = Path(__file__).parents[2] / "fixtures" / "bizgeneval_official"
EVAL = Path(sys.executable).parent / "rubricloop-eval"


def make_inputs(out_dir: Path) -> tuple[Path, Path]:
    spec = importlib.util.spec_from_file_location("make_inputs", FIXTURES / "make_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_inputs(out_dir)


def eval_cli(*overrides: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "WANDB_MODE": "disabled"}
    return subprocess.run([str(EVAL), *overrides], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def assert_close(ours, official, path="summary"):
    """Recursive equality; floats to 1e-12."""
    if isinstance(official, dict):
        assert isinstance(ours, dict) and set(ours) == set(official), path
        for k in official:
            assert_close(ours[k], official[k], f"{path}.{k}")
    elif isinstance(official, float):
        assert math.isclose(ours, official, rel_tol=0, abs_tol=1e-12), f"{path}: {ours} != {official}"
    else:
        assert ours == official, path


@pytest.mark.slow
def test_console_script_matches_official_summarize(tmp_path):
    data, results = make_inputs(tmp_path / "in")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    out = tmp_path / "out"
    proc = eval_cli("benchmark=bizgeneval", f"data={data}", f"results={results}", f"out={out}", cwd=cwd)
    # The inputs hold unreadable and empty result files: reported, not scored, exit 1.
    assert proc.returncode == 1, proc.stderr
    errors = proc.stderr.strip().splitlines()
    assert errors and all(line.startswith("error: ") and "not scored" in line for line in errors)
    golden = FIXTURES / "alpha_0.1"
    for name in ("summary_by_domain.csv", "summary_by_dimension.csv"):
        assert (out / name).read_bytes() == (golden / name).read_bytes(), name
    scores = json.loads((out / "scores.json").read_text())
    official = json.loads((golden / "summary.json").read_text())
    assert_close({k: scores[k] for k in official}, official)
    assert len(errors) == sum(len(scores["not_scored"][k]) for k in ("unreadable", "malformed", "empty"))
    assert (
        official["total_scored"] + sum(len(v) for v in scores["not_scored"].values()) == official["total_items"] - 1
    )  # item 7 has no questions
    assert list(cwd.iterdir()) == []  # Hydra left nothing in the working directory


def test_compose_matches_official_summarize_other_alpha(tmp_path):
    data, results = make_inputs(tmp_path / "in")
    out = tmp_path / "out"
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("eval", overrides=[f"data={data}", f"results={results}", f"out={out}", "alpha=0.15"])
    assert run(cfg) == 1
    golden = FIXTURES / "alpha_0.15"
    for name in ("summary_by_domain.csv", "summary_by_dimension.csv"):
        assert (out / name).read_bytes() == (golden / name).read_bytes(), name
    scores = json.loads((out / "scores.json").read_text())
    official = json.loads((golden / "summary.json").read_text())
    assert_close({k: scores[k] for k in official}, official)


def biz_row(i: int, domain: str, dimension: str) -> dict:
    return {
        "id": i,
        "domain": domain,
        "dimension": dimension,
        "prompt": f"p{i}",
        "eval_tag": dimension,
        "questions": [f"q{k}?" for k in range(1, 21)],
        "easy_qidxs": list(range(1, 11)),
        "hard_qidxs": list(range(11, 21)),
    }


@pytest.mark.slow
def test_malformed_line_reported_and_other_items_scored(tmp_path):
    rows = [
        json.dumps(biz_row(1, "slides", "text")),
        '{"id": 2, "questions": [',
        json.dumps(biz_row(3, "chart", "layout")),
    ]
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(rows) + "\n")
    results = tmp_path / "results"
    from rewards.importers import load_items

    items, _ = load_items(data)
    # item 1: q3 no (easy), q12 withheld and q15 missing (hard) -> errors easy 1, hard 2, all 3
    v1 = {
        str(k): Verdict(str(k), "no" if k == 3 else "withheld" if k == 12 else "yes", "t", "r")
        for k in range(1, 21)
        if k != 15
    }
    # item 3: q1..q6 no -> easy 6 errors (clamped to 0), hard 0, all 6
    v3 = {str(k): Verdict(str(k), "no" if k <= 6 else "yes", "t") for k in range(1, 21)}
    write_result_file(results, items[0], v1)
    write_result_file(results, items[1], v3)
    out = tmp_path / "out"
    proc = eval_cli(f"data={data}", f"results={results}", f"out={out}", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"error: {data}:2: malformed JSON (Expecting value at column 25)"]
    expected = (
        "Split,Slides,Webpage,Poster,Chart,Scientific Figure,Average\r\n"
        "easy,0.8000,,,0.0000,,0.4000\r\n"  # 1 - 0.2*1; max(0, 1 - 0.2*6); (0.8 + 0) / 2
        "hard,0.6000,,,1.0000,,0.8000\r\n"  # 1 - 0.2*2; 1 - 0; (0.6 + 1) / 2
        "all,0.7000,,,0.4000,,0.5500\r\n"
    )  # 1 - 0.1*3; 1 - 0.1*6; (0.7 + 0.4) / 2
    assert (out / "summary_by_domain.csv").read_bytes() == expected.encode()
    scores = json.loads((out / "scores.json").read_text())
    assert scores["total_scored"] == 2 and len(scores["data_errors"]) == 1
    # 40 checks, 38 answered; q15 was written as "missing_from_output" and so reads back withheld
    assert scores["coverage"]["coverage"] == pytest.approx(38 / 40)
    assert (scores["coverage"]["withheld"], scores["coverage"]["missing"]) == (2, 0)


@pytest.mark.slow
def test_unknown_benchmark_unreadable_data_missing_args_exit_2(tmp_path):
    assert eval_cli("benchmark=nope", "data=x", "results=y", f"out={tmp_path}", cwd=tmp_path).returncode == 2
    (tmp_path / "y").mkdir()
    proc = eval_cli(f"data={tmp_path / 'absent.jsonl'}", "results=y", f"out={tmp_path / 'o'}", cwd=tmp_path)
    assert proc.returncode == 2 and "cannot read rubric file" in proc.stderr
    proc = eval_cli(f"out={tmp_path / 'o2'}", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr == "error: missing required argument(s): data=... results=...\n"


@pytest.mark.slow
def test_unusable_results_or_alpha_exit_2_and_no_match_exits_1(tmp_path):
    data, results = make_inputs(tmp_path / "in")
    proc = eval_cli(f"data={data}", f"results={tmp_path / 'nope'}", "alpha=-5", f"out={tmp_path / 'o'}", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert (
        "alpha must be a number in (0, 1], got -5" in proc.stderr and "is not a folder of result files" in proc.stderr
    )
    (tmp_path / "empty").mkdir()
    proc = eval_cli(f"data={data}", f"results={tmp_path / 'empty'}", f"out={tmp_path / 'o'}", cwd=tmp_path)
    assert proc.returncode == 1 and "no result file in" in proc.stderr and "expects " in proc.stderr


def item_with(meta: dict, item_id="5", n=3) -> Item:
    return Item(
        item_id, "p", Rubric.flat([Check(str(k), f"q{k}?") for k in range(1, n + 1)]), source="bizgeneval", meta=meta
    )


def test_result_filename_follows_official_rule():
    assert result_filename(item_with({"domain": "slides", "dimension": "text"})) == "slides_text_5.json"
    assert result_filename(item_with({"dimension": "text"})) == "_text_5.json"
    assert result_filename(item_with({"reference_image": "a/b.c.png", "image": "z.png"})) == "b.c.json"
    assert result_filename(item_with({"reference_image": "  ", "path": " x/y/p.jpeg "})) == "p.json"


def test_result_file_round_trip_and_official_values(tmp_path):
    item = item_with({"domain": "chart", "dimension": "layout"}, n=4)
    v = {
        "1": Verdict("1", "yes", "ocr", "found"),
        "2": Verdict("2", "no", "vlm:x", "absent"),
        "3": Verdict("3", "withheld", "vlm:x", "timeout"),
    }  # q4 missing
    path = write_result_file(tmp_path, item, v)
    data = json.loads(path.read_text())
    assert [data["meta_info"][k]["result"] for k in "1234"] == [True, False, False, False]
    assert data["meta_info"]["4"]["reason"] == "missing_from_output" and data["accuracy"] == 0.25
    status, back = read_result_file(tmp_path, item)
    assert status == "ok"
    assert [(back[k].answer, back[k].judge, back[k].reason) for k in "123"] == [
        ("yes", "ocr", "found"),
        ("no", "vlm:x", "absent"),
        ("withheld", "vlm:x", "timeout"),
    ]
    assert back["4"].answer == "withheld"


@pytest.mark.parametrize(
    "content,status",
    [
        (None, "missing"),
        (b"{oops", "unreadable"),
        (b"\xff\xfe", "unreadable"),
        (b'{"meta_info": {}}', "empty"),
        (b'{"meta_info": null}', "empty"),
        (b"[1, 2]", "malformed"),
        (b'{"meta_info": "x"}', "malformed"),
    ],
)
def test_unscored_result_files(tmp_path, content, status):
    item = item_with({"domain": "poster", "dimension": "text"})
    if content is not None:
        (tmp_path / "poster_text_5.json").write_bytes(content)
    assert read_result_file(tmp_path, item) == (status, None)


def test_non_boolean_results_are_withheld(tmp_path):
    item = item_with({"domain": "poster", "dimension": "text"}, n=6)
    meta = {
        "1": {"result": "true"},
        "2": {"result": 1},
        "3": {"result": None},
        "4": {"reason": "r"},
        "5": "yes",
        "6": {"result": True},
    }
    (tmp_path / "poster_text_5.json").write_text(json.dumps({"meta_info": meta}))
    status, v = read_result_file(tmp_path, item)
    assert [v[k].answer for k in "123456"] == ["withheld"] * 5 + ["yes"]
    assert v["1"].reason == "result is not a boolean: 'true'"


def genexam_row(i: str, subject: str, weights: list[float]) -> dict:
    return {
        "id": i,
        "prompt": "draw",
        "subject": subject,
        "scoring_points": [{"question": f"p{k}?", "score": w} for k, w in enumerate(weights)],
    }


@pytest.mark.slow
def test_genexam_command_reads_official_eval_results(tmp_path):
    rows = [
        genexam_row("Physics_1", "Physics", [0.3, 0.7]),
        genexam_row("Physics_2", "Physics", [0.5, 0.5]),
        genexam_row("Math_1", "Math", [1.0]),
        genexam_row("Math_2", "Math", [1.0]),
        genexam_row("Bad_1", "Math", [0.4, 0.5]),
    ]
    data = tmp_path / "exam.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    from rewards.importers import load_items

    items, _ = load_items(data)
    results = tmp_path / "eval_results"
    full = {"spelling": 2, "readability": 2, "logical_consistency": 2}
    # Physics_1: all yes, ratings 2/2/2 -> strict 1, relaxed 0.7 + 0.3 = 1.0
    write_genexam_result(results, items[0], {"1": Verdict("1", "yes", "t"), "2": Verdict("2", "yes", "t")}, full)
    # Physics_2: yes / withheld, ratings 1/2/2 -> strict 0, relaxed 0.7 * 0.5 + 0.05 * 5 = 0.6
    write_genexam_result(
        results, items[1], {"1": Verdict("1", "yes", "t"), "2": Verdict("2", "withheld", "t")}, {**full, "spelling": 1}
    )
    # Math_1: no, ratings 0/0/0 -> strict 0, relaxed 0; Math_2 has no file (not scored)
    write_genexam_result(results, items[2], {"1": Verdict("1", "no", "t")}, dict.fromkeys(full, 0))
    # Bad_1: weights sum to 0.9 -> one error line, the other items are still scored, exit 1
    write_genexam_result(results, items[4], {}, full)
    out = tmp_path / "out"
    proc = eval_cli("benchmark=genexam", f"data={data}", f"results={results}", f"out={out}", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == ["error: item Bad_1: scoring point weights sum to 0.9, expected 1"]
    s = json.loads((out / "scores.json").read_text())
    assert s["not_scored"]["missing"] == ["Math_2"]
    assert s["scores"]["by_subject"]["Physics"]["relaxed"] == pytest.approx(100 * (1.0 + 0.6) / 2)
    assert s["scores"]["by_subject"]["Math"]["relaxed"] == 0.0
    # overall pooled over the 3 scored items (current cal_score.py): strict 1/3, relaxed (1.0 + 0.6 + 0) / 3
    assert s["scores"]["overall"]["strict"] == pytest.approx(100 / 3)
    assert s["scores"]["overall"]["relaxed"] == pytest.approx(100 * 1.6 / 3)
    # the pre-2026-03-29 overall, mean of subject means: strict (50 + 0) / 2, relaxed (80 + 0) / 2
    assert s["scores"]["overall_subject_mean"]["strict"] == pytest.approx(25.0)
    assert s["scores"]["overall_subject_mean"]["relaxed"] == pytest.approx(40.0)
    assert (out / "genexam_scores.csv").read_text().splitlines()[1:] == [
        "Strict,0.0,50.0,,,,,,,,,33.3,25.0",
        "Relaxed,0.0,80.0,,,,,,,,,53.3,40.0",
    ]
    verdicts, ratings = read_genexam_result(results, items[1])
    assert [verdicts[k].answer for k in "12"] == ["yes", "withheld"] and ratings["spelling"] == 1


@pytest.mark.slow
def test_option_errors_leave_no_out_folder(tmp_path):
    """As rubricloop-refine: Hydra creates no out folder, so out= an existing file is named in one
    line and an option error leaves nothing behind."""
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty.jsonl").write_text("\n")
    cases = [
        (["data=bad.jsonl", "images=.", "out=afile"], "error: out=afile: is an existing file, not a folder"),
        (
            ["data=nope.jsonl", "images=.", "out=o"],
            "error: data=nope.jsonl: cannot read rubric file (No such file or directory)",
        ),
        (["data=empty.jsonl", "images=.", "out=o"], "error: data=empty.jsonl holds no items"),
        (
            ["data=empty.jsonl", "images=.", "out=o", "shard=a/b"],
            "error: shard must be i/n with 0 <= i < n (e.g. shard=0/4), got 'a/b'",
        ),
    ]
    for args, line in cases:
        proc = eval_cli("benchmark=bizgeneval", *args, cwd=tmp_path)
        assert (proc.returncode, proc.stderr) == (2, line + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "empty.jsonl"]
