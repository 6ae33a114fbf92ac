"""Fuzz: a few hundred seeded malformed rows, result files and images through `rubricloop-refine`,
`rubricloop-eval` and `rubricloop-judge`, many rows per run, called in-process (their ``run(cfg)``).

Every case must end with a named one-line error or a correct result: each line of the data file
is either one ``<file>:<line>`` error or one item; each item either finished (its best image is
an RGB page of the start image's size, every score in [0, 1], one verdict per check and
iteration) or failed with one ``item <id>:`` line. An exception escaping ``run`` (a traceback),
or a run over its deadline (a hang), fails the test.
"""

import json
import re
import signal
from contextlib import contextmanager

import pytest
from fuzz_rows import make_cases, make_images, write_result_files
from hydra import compose, initialize_config_module
from PIL import Image
from refine_rows import FAST_OCR

from evaluation.cli import run as eval_run
from refine.cli import run as refine_run
from refine.item_results import item_dir_names
from rewards.common.one_line import one_line


@contextmanager
def deadline(seconds: int):
    """Raise TimeoutError if the block runs longer than ``seconds`` (a hang is a failure)."""

    def on_alarm(*_):
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def config(name, overrides):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose(config_name=name, overrides=list(overrides))


def error_lines(stderr):
    return [line[len("error: ") :] for line in stderr.splitlines() if line.startswith("error: ")]


@pytest.mark.parametrize("seed, n, iterations, p_good_image", [(0, 240, 0, 0.3), (1, 24, 1, 1.0)])
def test_fuzzed_rows_through_refine(tmp_path, capsys, seed, n, iterations, p_good_image):
    images = make_images(tmp_path)
    cases = make_cases(n, seed, images, p_good_image=p_good_image)
    data = tmp_path / "data.jsonl"
    data.write_bytes(b"\n".join(c.line for c in cases) + b"\n\n  \n")  # trailing blank lines are skipped
    out = tmp_path / "out"
    cfg = config("refine", [f"data={data}", f"out={out}", f"iterations={iterations}", "wandb.mode=disabled", *FAST_OCR])
    with deadline(100):
        code = refine_run(cfg)
    stdout, stderr = capsys.readouterr()
    assert "Traceback" not in stderr and "Traceback" not in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True and summary["n_items"] == n
    assert code == (1 if summary["n_failed"] else 0)

    # every line: one row error naming it, or one item
    row_errors = [e for e in summary["errors"] if e.startswith(f"{data}:")]
    lines = [int(m.group(1)) for e in row_errors if (m := re.match(rf"{re.escape(str(data))}:(\d+)[: ]", e))]
    assert len(lines) == len(row_errors) == len(set(lines)), row_errors[:5]
    assert len(row_errors) + len(summary["items"]) == n
    assert all("\n" not in e and e.strip() == e and e for e in summary["errors"])
    printed = error_lines(stderr)
    assert [e for e in printed if e.startswith(f"{data}:")] == row_errors

    valid = {k + 1 for k, c in enumerate(cases) if not c.mutations and b"images/ok" in c.line}
    assert not valid & set(lines), [
        e for e in row_errors if int(re.match(r".*?:(\d+)", e[len(str(data)) :]).group(1)) in valid
    ]
    dirs = dict(zip([it["id"] for it in summary["items"]], item_dir_names([it["id"] for it in summary["items"]])))
    finished = 0
    for it in summary["items"]:
        if it["error"] is not None:
            assert it["error"].startswith(one_line(f"item {it['id']}: ")) and it["error"] in printed
            continue
        finished += 1
        best = Image.open(out / it["best_image"])
        start = Image.open(out / dirs[it["id"]] / "iter_0.png")
        assert best.mode == start.mode == "RGB" and best.size == start.size
        assert all(0.0 <= v <= 1.0 for scores in it["scores"] for v in scores.values() if v is not None)
        verdicts = [json.loads(line) for line in (out / dirs[it["id"]] / "verdicts.jsonl").read_text().splitlines()]
        assert len(verdicts) % len(it["scores"]) == 0 and {v["answer"] for v in verdicts} <= {"yes", "no", "withheld"}
    assert finished == summary["n_finished"] and finished >= len(valid) > 0
    # the valid RubricLoop rows read the title on every good image mode
    for k, c in enumerate(cases):
        if k + 1 in valid and c.fmt == "rubricloop":
            verdicts = [json.loads(line) for line in (out / f"r{k}" / "verdicts.jsonl").read_text().splitlines()]
            assert [v["answer"] for v in verdicts if v["check"] == "t"][0] == "yes", (k, c.line[:200])


def test_fuzzed_rows_and_result_files_through_eval(tmp_path, capsys):
    cases = make_cases(200, 2, images={}, formats=("bizgeneval", "bizgeneval", "bizgeneval", "genexam"))
    data = tmp_path / "bizgeneval.jsonl"
    data.write_bytes(b"\n".join(c.line for c in cases) + b"\n")
    results = tmp_path / "results"
    write_result_files(results, [f"slides_text_{10_000 + k}" for k in range(len(cases))], seed=2)
    out = tmp_path / "out"
    cfg = config("eval", ["benchmark=bizgeneval", f"data={data}", f"results={results}", f"out={out}", "report=false"])
    with deadline(60):
        code = eval_run(cfg)
    stdout, stderr = capsys.readouterr()
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert code == 1  # the fuzzed rows and files hold errors
    errors = error_lines(stderr)
    assert errors and all(e.startswith((f"{data}:", f"{results}/")) for e in errors), errors[:5]
    named = {int(m.group(1)) for e in errors if (m := re.match(rf"{re.escape(str(data))}:(\d+)[: ]", e))}
    valid = {k + 1 for k, c in enumerate(cases) if not c.mutations and c.fmt == "bizgeneval"}
    assert not valid & named
    scores = json.loads((out / "scores.json").read_text())
    assert scores["total_items"] + len(named) == len(cases)
    assert 0 < scores["total_scored"] <= scores["total_items"]
    for group in ("by_domain", "by_dimension"):
        assert all(0.0 <= v <= 100.0 for v in _numbers(scores[group]))


def _numbers(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _numbers(v)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield obj


def test_fuzzed_rows_and_images_through_eval_judging(tmp_path, capsys):
    """``rubricloop-eval images=...``: the OCR judge answers every item whose image opens (any mode),
    the rest fail alone with a named line."""
    made = make_images(tmp_path)
    cases = make_cases(30, 3, images={}, formats=("bizgeneval",))
    data = tmp_path / "bizgeneval.jsonl"
    data.write_bytes(b"\n".join(c.line for c in cases) + b"\n")
    folder = tmp_path / "judge_these"
    folder.mkdir()
    pool = sorted(made)
    for k, c in enumerate(cases):  # the image each row names, in a random mode or broken
        src = tmp_path / made[pool[(7 * k) % len(pool)]]
        if src.is_file():
            (folder / f"slides_text_{10_000 + k}.png").write_bytes(src.read_bytes())
    out = tmp_path / "out"
    cfg = config(
        "eval", ["benchmark=bizgeneval", f"data={data}", f"images={folder}", f"out={out}", "report=false", *FAST_OCR]
    )
    with deadline(90):
        code = eval_run(cfg)
    stdout, stderr = capsys.readouterr()
    assert "Traceback" not in stderr and "Traceback" not in stdout and code in (0, 1)
    errors = error_lines(stderr)
    assert all(e.startswith((f"{data}:", "item ", "no result file")) and "\n" not in e for e in errors), errors[:5]
    checked = 0
    for k, c in enumerate(cases):
        name = pool[(7 * k) % len(pool)]
        if c.mutations or not name.startswith("ok"):
            continue
        result = json.loads((out / "results" / f"slides_text_{10_000 + k}.json").read_text())
        assert result["meta_info"]["1"]["result"] is True, (name, result["meta_info"]["1"])  # "exactly 'Q3 Revenue'"
        checked += 1
    assert checked >= 5


def test_fuzzed_rows_through_judge(tmp_path, capsys):
    """``rubricloop-judge``: every line is one named row error or one judged/failed item."""
    from evaluation.judge_cli import run as judge_run

    images = make_images(tmp_path)
    cases = make_cases(80, 4, images, p_good_image=0.3)
    data = tmp_path / "data.jsonl"
    data.write_bytes(b"\n".join(c.line for c in cases) + b"\n")
    out = tmp_path / "out"
    cfg = config("judge_run", [f"data={data}", f"out={out}", *FAST_OCR])
    with deadline(90):
        code = judge_run(cfg)
    stdout, stderr = capsys.readouterr()
    assert "Traceback" not in stderr and "Traceback" not in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True and code == (1 if summary["errors"] else 0)
    errors = error_lines(stderr)
    assert all(e.startswith((f"{data}:", "item ")) and "\n" not in e for e in errors), errors[:5]
    row_errors = {int(m.group(1)) for e in errors if (m := re.match(rf"{re.escape(str(data))}:(\d+)[: ]", e))}
    assert summary["n_items"] == len(cases) and len(row_errors) == sum(e.startswith(f"{data}:") for e in errors)
    assert summary["n_judged"] + sum(e.startswith("item ") for e in errors) + len(row_errors) == len(cases)
    verdicts = [json.loads(line) for line in (out / "verdicts.jsonl").read_text().splitlines()]
    checked = 0
    for k, c in enumerate(cases):
        if not c.mutations and c.fmt == "rubricloop" and b"images/ok" in c.line:
            assert [v["answer"] for v in verdicts if v["item_id"] == f"r{k}" and v["check"] == "t"] == ["yes"], k
            checked += 1
    assert checked >= 2
