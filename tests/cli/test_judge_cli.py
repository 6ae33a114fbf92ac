"""`rubricloop-judge` as a user runs it: verdict lines, bad rows and images, official result files, resume."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_module
from PIL import Image, ImageDraw, ImageFont

from evaluation.judge_cli import run

SCRIPT = Path(sys.executable).with_name("rubricloop-judge")
ENV = {**os.environ, "WANDB_MODE": "disabled", "OMP_NUM_THREADS": "1"}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
QUESTIONS = [
    'Is the slide title exactly "Quarterly Revenue"?',
    'Does the footer read exactly "Annual Outlook"?',
    "Is the background a light colour?",
]


def page(path: Path, text: str) -> None:
    im = Image.new("RGB", (420, 110), (255, 255, 255))
    ImageDraw.Draw(im).text((24, 30), text, font=ImageFont.truetype(FONT, 30), fill=(20, 20, 20))
    im.save(path)


def bizgeneval_row(item_id: str, image: str) -> dict:
    return {
        "id": item_id,
        "domain": "slides",
        "dimension": "text",
        "prompt": "a slide",
        "questions": QUESTIONS,
        "easy_qidxs": [1],
        "hard_qidxs": [2, 3],
        "image": image,
    }


def write_data(tmp_path: Path) -> Path:
    page(tmp_path / "good.png", "Quarterly Revenue")
    (tmp_path / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00garbage")
    lines = [
        json.dumps(bizgeneval_row("good", "good.png")),
        '{"id": "half-a-line", "questions": ',
        json.dumps(bizgeneval_row("broken", "corrupt.png")),
    ]
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(lines) + "\n")
    return data


@pytest.mark.slow
def test_bad_row_and_corrupt_image_fail_alone_and_the_rest_is_judged(tmp_path):
    data, out = write_data(tmp_path), tmp_path / "out"
    proc = subprocess.run(
        [str(SCRIPT), f"data={data}", f"out={out}", "benchmark=bizgeneval"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("error: ")]
    assert len(errors) == 2, proc.stderr
    assert errors[0].startswith(f"error: {data}:2: malformed JSON")
    assert errors[1].startswith("error: item broken: ") and "corrupt.png" in errors[1]
    assert "Traceback" not in proc.stderr
    # the malformed row never became an item; the header says so instead of only "2 of 2"
    assert f"judging 2 of 2 items -> {out} (1 failed before judging: see below)\n" in proc.stdout

    lines = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
    assert [(ln["item_id"], ln["check"]) for ln in lines] == [("good", "1"), ("good", "2"), ("good", "3")]
    assert [ln["answer"] for ln in lines] == ["yes", "no", "withheld"]
    assert [ln["judge"] for ln in lines[:2]] == ["ocr", "ocr"]  # the withheld one names the router
    assert all(ln["reason"] and ln["p_yes"] is None for ln in lines)  # OCR has no p_yes
    assert lines[0]["evidence"]["expects"][0]["ocr_text"] == "Quarterly Revenue"

    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True
    assert (summary["n_items"], summary["n_judged"], summary["n_failed"]) == (3, 1, 2)
    assert summary["coverage"] == {"checks": 3, "decided": 2, "withheld": 1, "yes": 1, "no": 1, "coverage": 2 / 3}
    assert summary["by_dimension"]["text"]["decided"] == 2
    # BizGenEval penalty on all 3 questions, 2 errors (a "no" and a withheld): 1 - 0.1 * 2
    biz = summary["scores"]["bizgeneval"]["subsets"]["all"]
    assert abs(biz["by_dimension"]["text"]["error_score"] - 0.8) < 1e-12

    # The official per-image result file, named after the row's image, as summarize.py reads it.
    result = json.loads((out / "results" / "good.json").read_text())
    assert [result["meta_info"][q]["result"] for q in ("1", "2", "3")] == [True, False, False]
    assert result["meta_info"]["3"]["answer"] == "withheld"
    rows = list(csv.reader((out / "summary_by_dimension.csv").open(newline="")))
    assert rows[0][:4] == ["Split", "Layout", "Attribute", "Text"] and rows[-1][0] == "all" and rows[-1][3] == "0.8000"


def test_rerun_resumes_and_redoes_a_half_written_item(tmp_path):
    page(tmp_path / "a.png", "Quarterly Revenue")
    page(tmp_path / "b.png", "Annual Outlook")
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(bizgeneval_row("a", "a.png")) + "\n" + json.dumps(bizgeneval_row("b", "b.png")) + "\n")
    out = tmp_path / "out"
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}"])
        assert run(cfg) == 0
        verdicts = out / "verdicts.jsonl"
        first = verdicts.read_text()
        assert len(first.splitlines()) == 6
        # a killed run: item b's lines are half written
        torn = "".join(first.splitlines(keepends=True)[:4]) + '{"item_id": "b", "check": "2", "ans'
        verdicts.write_text(torn)
        assert run(cfg) == 0
        assert verdicts.read_text() == first  # b judged again, a kept, nothing twice
        other = compose("judge_run", overrides=[f"data={data}", f"out={out}", "benchmark=bizgeneval"])
        assert run(other) == 2  # another setting into the same folder is refused


def test_a_judge_that_cannot_be_built_is_its_own_one_line(tmp_path, capsys, monkeypatch):
    """Not Hydra's "Error in call to target ..." wrapper around it (a tester's finding)."""
    data = tmp_path / "data.jsonl"
    page(tmp_path / "a.png", "Quarterly Revenue")
    data.write_text(json.dumps(bizgeneval_row("a", "a.png")) + "\n")
    monkeypatch.setenv("RUBRICLOOP_TESSERACT", "bogus")
    with initialize_config_module("conf", version_base="1.3"):
        assert run(compose("judge_run", overrides=[f"data={data}", f"out={tmp_path / 'o'}"])) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: OCRJudge: RUBRICLOOP_TESSERACT='bogus': expected auto, library or cli"
    )
    assert not (tmp_path / "o").exists()


def test_option_errors_exit_2(tmp_path, capsys):
    with initialize_config_module("conf", version_base="1.3"):
        assert run(compose("judge_run", overrides=[f"out={tmp_path / 'o'}"])) == 2
        assert "missing required argument(s): data=..." in capsys.readouterr().err
        (tmp_path / "file").write_text("x")
        assert run(compose("judge_run", overrides=[f"data={tmp_path / 'd.jsonl'}", f"out={tmp_path / 'file'}"])) == 2
        assert "is an existing file" in capsys.readouterr().err
        assert (
            run(
                compose(
                    "judge_run",
                    overrides=[f"data={tmp_path / 'd.jsonl'}", f"out={tmp_path / 'o'}", "benchmark=genexam"],
                )
            )
            == 2
        )


@pytest.mark.slow
def test_option_errors_leave_no_out_and_name_the_option(tmp_path, capsys):
    """As rubricloop-refine: out= an existing file, an unreadable or empty data= and a bad option
    exit 2 with one line, and Hydra creates no out folder before the check."""
    (tmp_path / "afile").write_text("x")
    (tmp_path / "empty.jsonl").write_text("\n")
    cases = [
        (["data=bad.jsonl", "out=afile"], "error: out=afile: is an existing file, not a folder"),
        (["data=bad.jsonl", "out=o", "limit=-3"], "error: limit must be an integer >= 1 or null, got -3"),
    ]
    for args, line in cases:
        proc = subprocess.run([str(SCRIPT), *args], cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        assert (proc.returncode, proc.stderr) == (2, line + "\n")
    with initialize_config_module("conf", version_base="1.3"):
        for data, line in (
            ("nope.jsonl", "error: data=nope.jsonl: cannot read rubric file (No such file or directory)"),
            ("empty.jsonl", "error: data=empty.jsonl holds no items"),
        ):
            cwd = os.getcwd()
            os.chdir(tmp_path)
            try:
                code = run(compose("judge_run", overrides=[f"data={data}", "out=o"]))
            finally:
                os.chdir(cwd)
            assert (code, capsys.readouterr().err) == (2, line + "\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "empty.jsonl"]


def test_lock_refusal_and_temp_files_stay_in_out(tmp_path, capsys, monkeypatch):
    import tempfile

    from filelock import FileLock

    import evaluation.judge_cli as judge_cli

    page(tmp_path / "a.png", "Quarterly Revenue")
    data, out = tmp_path / "data.jsonl", tmp_path / "out"
    data.write_text(json.dumps(bizgeneval_row("a", "a.png")) + "\n")
    seen = []
    real_judge_item = judge_cli.judge_item

    def judge_item(judge, item):  # where tesseract (pytesseract uses tempfile) writes its images
        seen.append(tempfile.gettempdir())
        return real_judge_item(judge, item)

    monkeypatch.setattr(judge_cli, "judge_item", judge_item)
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}"])
        out.mkdir()
        with FileLock(out / ".lock", timeout=0):
            capsys.readouterr()
            assert run(cfg) == 2
        assert capsys.readouterr().err == (  # a lock with no .lock.owner names no program (issue 21)
            f"error: out={out} is in use by another running RubricLoop run (it holds "
            f"{out / '.lock'}); wait for it to finish or use another out=\n"
        )
        assert run(cfg) == 0
    assert seen == [str(out / ".tmp")] and tempfile.gettempdir() != str(out / ".tmp")
    assert not (out / ".tmp").exists() and (out / "judge.log").is_file() and (out / ".hydra" / "config.yaml").is_file()


def test_option_errors_are_one_line_for_every_console_script():
    from rewards.common.one_line import check_overrides

    assert check_overrides(["data=x.jsonl", "out=/tmp/o"], "judge_run") is None
    assert check_overrides(["bogus=1"], "judge_run").startswith("Could not override 'bogus'")
    problem = check_overrides(["judge=nosuch"], "judge_run")
    assert "Could not find 'judge/nosuch'" in problem and "\n" not in problem
    assert check_overrides(["bogus=2"], "eval").startswith("Could not override 'bogus'")
    assert check_overrides(["--cfg", "job"], "refine") is None  # Hydra's own flags are Hydra's


def test_a_full_disk_is_one_line_exit_1_and_the_rerun_resumes(tmp_path, monkeypatch, capsys):
    # issue 18: a summary.json that cannot be written ended in a traceback
    import errno

    import evaluation.judge_cli as judge_cli

    page(tmp_path / "a.png", "Quarterly Revenue")
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(bizgeneval_row("a", "a.png")) + "\n")
    out = tmp_path / "out"
    real = judge_cli.write_json

    def full(path, *a, **k):
        if path.name in names:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, *a, **k)

    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}"])
        monkeypatch.setattr(judge_cli, "write_json", full)
        names = {"run.json"}  # the disk is full from the start
        assert run(cfg) == 1
        err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error")]
        assert err == [f"error: cannot write {out / 'run.json'} (No space left on device)"]
        assert not list(out.glob("*.tmp")) and not (out / "verdicts.jsonl").exists()
        names = {"summary.json"}
        assert run(cfg) == 1
        err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error")]  # not tqdm's
        assert err == [
            f"error: cannot write {out / 'summary.json'} (No space left on device); "
            "the items judged so far are kept, run the same command again to resume"
        ]
        assert not (out / "summary.json").exists() and not list(out.glob("*.tmp"))
        monkeypatch.setattr(judge_cli, "write_json", real)
        assert run(cfg) == 0
        assert "(1 already done)" in capsys.readouterr().out
        assert json.loads((out / "summary.json").read_text())["n_judged"] == 1


def errors_of(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error: ")]


def test_clashing_or_unsafe_result_names_are_refused_and_rescoring_gives_the_same_csvs(tmp_path, capsys, monkeypatch):
    # issue 18: a/slide.png and b/slide.png both wrote results/slide.json (item b's answers), rc 0, and the
    # judge's CSVs counted both items (Poster 1.0000) while rescoring results/ with rubricloop-eval gave 0.8000
    from evaluation.cli import run as eval_run

    monkeypatch.setenv("WANDB_MODE", "disabled")
    for sub, text in (("a", "Quarterly Revenue"), ("b", "Annual Outlook"), ("c", "Quarterly Revenue")):
        (tmp_path / sub).mkdir()
        page(tmp_path / sub / "slide.png", text)
    rows = [
        bizgeneval_row("a", "a/slide.png") | {"domain": "poster"},
        bizgeneval_row("b", "b/slide.png") | {"domain": "poster"},
        bizgeneval_row("c", "c/slide.png") | {"reference_image": "/"},  # basename "": results/.json
    ]
    data, out = tmp_path / "data.jsonl", tmp_path / "out"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    expected = [
        f"error: {out / 'results' / 'slide.json'} (item b): the file is item a's too (both rows' images are "
        "named 'slide' but for folder and extension; BizGenEval names result files by that); refused",
        f"error: {out / 'results' / '.json'} (item c): the BizGenEval image name '' (from the row's image, domain, "
        "dimension and id fields) is not a plain file name; refused, so nothing is read or written outside the folder",
    ]
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}", "benchmark=bizgeneval"])
        for _ in range(2):  # and the same on a rerun, which resumes item a
            capsys.readouterr()
            assert run(cfg) == 1
            assert errors_of(capsys.readouterr().err) == expected
            assert sorted(p.name for p in (out / "results").iterdir()) == ["slide.json"]
            result = json.loads((out / "results" / "slide.json").read_text())  # item a's answers, not b's
            assert [result["meta_info"][q]["result"] for q in ("1", "2", "3")] == [True, False, False]
            verdicts = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
            assert {v["item_id"] for v in verdicts} == {"a"}
            summary = json.loads((out / "summary.json").read_text())
            assert (summary["n_items"], summary["n_judged"], summary["n_failed"]) == (3, 1, 2)
            assert summary["errors"] == [e.removeprefix("error: ") for e in expected]
            rows_by_domain = list(csv.reader((out / "summary_by_domain.csv").open(newline="")))
            poster = rows_by_domain[0].index("Poster")
            assert rows_by_domain[-1][0] == "all" and rows_by_domain[-1][poster] == "0.8000"  # 1 - 0.1 * 2 errors
    rescored = tmp_path / "rescored"
    args = [f"data={data}", f"results={out / 'results'}", f"out={rescored}", "report=false"]
    with initialize_config_module(config_module="conf", version_base="1.3"):
        capsys.readouterr()
        assert eval_run(compose(config_name="eval", overrides=args)) == 1  # it refuses b and c as well
    assert errors_of(capsys.readouterr().err) == expected
    for name in ("summary_by_domain.csv", "summary_by_dimension.csv"):
        assert (rescored / name).read_bytes() == (out / name).read_bytes(), name


def test_a_limit_reads_no_further_than_its_rows(tmp_path, monkeypatch, capsys):
    # issue 18: 100k rows with limit=2 parsed and compiled every row (29 s, 470 MB) and reported the bad last one
    import rewards.importers

    page(tmp_path / "a.png", "Quarterly Revenue")
    data = tmp_path / "big.jsonl"
    with open(data, "w", encoding="utf-8") as f:
        for i in range(100_000 - 1):
            f.write(
                json.dumps(
                    bizgeneval_row(str(i), "a.png") | {"questions": [f"Is the word W{i} shown?"], "hard_qidxs": []}
                )
                + "\n"
            )
        f.write('{"id": "broken", "questions": [\n')
    compiled = []
    real = rewards.importers.compile_question
    monkeypatch.setattr(rewards.importers, "compile_question", lambda q: compiled.append(q) or real(q))
    out = tmp_path / "out"
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}", "limit=2"])
        assert run(cfg) == 0
    assert errors_of(capsys.readouterr().err) == []  # the malformed last row is never read
    assert compiled == ["Is the word W0 shown?", "Is the word W1 shown?"]
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["n_items"], summary["n_judged"], summary["n_failed"]) == (2, 2, 0)


def _guarded(fifo: Path, call, timeout: float = 60.0):
    """``call()`` in a thread; one still blocked on ``fifo`` after ``timeout`` is released (the FIFO is
    opened at its other end and closed) and reported as a hang, so a regression fails instead of hanging."""
    import threading

    got = {}
    thread = threading.Thread(target=lambda: got.setdefault("rc", call()), daemon=True)
    thread.start()
    thread.join(timeout)
    hung = thread.is_alive()
    if hung:
        for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):  # a reader or a writer waits
            try:
                os.close(os.open(fifo, flags))
            except OSError:
                continue
        thread.join(10)
    assert not hung, f"blocked on the FIFO {fifo}"
    return got.get("rc")


def test_a_fifo_as_data_is_refused_in_one_line_by_judge_refine_and_eval(tmp_path, capsys, monkeypatch):
    # issue 18: data= naming a FIFO with no writer hung all three (rc 124 under timeout)
    from evaluation.cli import run as eval_run
    from refine.cli import run as refine_run

    monkeypatch.setenv("WANDB_MODE", "disabled")
    fifo = tmp_path / "data.jsonl"
    os.mkfifo(fifo)
    line = f"error: data={fifo}: cannot read rubric file (not a regular file: a FIFO)\n"
    runs = {
        "judge": lambda: run(compose("judge_run", overrides=[f"data={fifo}", f"out={tmp_path / 'j'}"])),
        "refine": lambda: refine_run(
            compose("refine", overrides=[f"data={fifo}", f"out={tmp_path / 'r'}", "wandb.mode=disabled"])
        ),
        "eval": lambda: eval_run(
            compose("eval", overrides=[f"data={fifo}", f"images={tmp_path}", f"out={tmp_path / 'e'}", "report=false"])
        ),
    }
    with initialize_config_module("conf", version_base="1.3"):
        for name, call in runs.items():
            capsys.readouterr()
            assert _guarded(fifo, call) == 2, name
            assert capsys.readouterr().err == line, name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data.jsonl"]  # no out left behind


def test_a_fifo_at_out_verdicts_jsonl_is_refused_in_one_line(tmp_path, capsys):
    # issue 18: read_done opened <out>/verdicts.jsonl, and a FIFO there hung the run
    page(tmp_path / "a.png", "Quarterly Revenue")
    data, out = tmp_path / "data.jsonl", tmp_path / "out"
    data.write_text(json.dumps(bizgeneval_row("a", "a.png")) + "\n")
    out.mkdir()
    os.mkfifo(out / "verdicts.jsonl")
    with initialize_config_module("conf", version_base="1.3"):
        cfg = compose("judge_run", overrides=[f"data={data}", f"out={out}"])
        capsys.readouterr()
        assert _guarded(out / "verdicts.jsonl", lambda: run(cfg)) == 2
        assert capsys.readouterr().err == (
            f"error: {out / 'verdicts.jsonl'}: a FIFO, not a regular file; remove it or use another out=\n"
        )
        assert {p.name for p in out.iterdir()} - {".lock"} == {"verdicts.jsonl"}  # nothing judged or written
        (out / "verdicts.jsonl").unlink()
        (out / "verdicts.jsonl").mkdir()
        assert run(cfg) == 2
        assert capsys.readouterr().err == (
            f"error: {out / 'verdicts.jsonl'}: a folder, not a regular file; remove it or use another out=\n"
        )
        (out / "verdicts.jsonl").rmdir()
        assert run(cfg) == 0
