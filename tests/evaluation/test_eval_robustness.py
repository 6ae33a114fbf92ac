"""``rubricloop-eval`` under the attacks of issue 18: a judge that is down, result names that clash
or leave ``out=``, half-written files, an unwritable or busy ``out``, a huge data file with
``limit=``, and edited rows or images on a resume."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from chat_server import ChatServer, Reply, ok
from hydra import compose, initialize_config_module
from PIL import Image

import rewards.importers
from evaluation.cli import run
from rewards.common.run_folder import lock_out
from rewards.importers import load_items
from rewards.scorers.bizgeneval_results import read_result_file

PIXEL = ["~judge", "+judge={_target_: eval_helpers.PixelJudge}"]


@pytest.fixture(autouse=True)
def _helpers_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))
    monkeypatch.setenv("WANDB_MODE", "disabled")


def eval_run(*overrides: str) -> int:
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return run(compose(config_name="eval", overrides=["report=false", *overrides]))


def biz_row(i: int, n: int = 3, **extra) -> dict:
    """A BizGenEval row with ``n`` questions (the first half easy, the rest hard)."""
    return {
        "id": i,
        "domain": "slides",
        "dimension": "text",
        "prompt": f"a slide titled Report {i}",
        "questions": [f"Does the slide show the word Report{k}?" for k in range(1, n + 1)],
        "easy_qidxs": list(range(1, n // 2 + 1)),
        "hard_qidxs": list(range(n // 2 + 1, n + 1)),
        **extra,
    }


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def page(path: Path, shade: int = 255) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (64, 32), (shade, shade, shade)).save(path)
    return path


def errors_of(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("error: ")]


def answer_true(seen, n):
    numbers = re.findall(r"^(\d+)\. ", seen.text, flags=re.M)
    return ok(json.dumps({k: {"result": True, "reason": "visible"} for k in numbers}))


def test_a_dead_judge_fails_the_item_and_a_rerun_judges_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2)])
    images = tmp_path / "imgs"
    for i in (1, 2):
        page(images / f"slides_text_{i}.png")
    out = tmp_path / "out"
    up = False
    with ChatServer(lambda seen, n: answer_true(seen, n) if up else Reply(500, {"error": "down"})) as server:
        args = [f"data={data}", f"images={images}", f"out={out}", "judge=vlm"]
        args += [f"judge.judges.0.base_url={server.base_url}", "judge.judges.0.max_retries=0"]
        assert eval_run(*args) == 1
        errors = errors_of(capsys.readouterr().err)
        assert errors[0].startswith("error: item 1: judge vlm:")
        assert "failed on 3 of 3 checks sent to it (request failed: " in errors[0]
        assert errors[1].startswith("error: item 2: judge vlm:")
        assert sorted(p.name for p in (out / "results").iterdir()) == []  # nothing recorded as done
        up = True  # the judge is back: both items judged, none "done" from the outage
        assert eval_run(*args) == 0
    scores = json.loads((out / "scores.json").read_text())
    assert scores["coverage"]["coverage"] == 1.0 and scores["total_scored"] == 2
    assert [r["metrics"]["all"] for r in scores["per_item"]] == [1.0, 1.0]
    assert (out / "summary_by_domain.csv").read_bytes().splitlines()[-1] == b"all,1.0000,,,,,1.0000"


def test_judge_outage_is_an_option_in_zero_one(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path}", f"out={tmp_path / 'o'}", "judge_outage=0") == 2
    assert capsys.readouterr().err == "error: judge_outage must be a number in (0, 1], got 0\n"


def test_result_names_that_clash_are_refused_and_rescoring_agrees(tmp_path, capsys):
    rows = [biz_row(1, image="a/slide.png"), biz_row(2, image="b/slide.png"), biz_row(3)]
    data = write_rows(tmp_path / "data.jsonl", rows)
    images = tmp_path / "imgs"
    page(images / "slide.png", 200)
    page(images / "slides_text_3.png", 100)
    out = tmp_path / "out"
    assert eval_run(*PIXEL, f"data={data}", f"images={images}", f"out={out}") == 1
    errors = errors_of(capsys.readouterr().err)
    assert errors == [
        f"error: {out / 'results' / 'slide.json'} (item 2): the file is item 1's too (both rows' images are "
        "named 'slide' but for folder and extension; BizGenEval names result files by that); refused"
    ]
    assert sorted(p.name for p in (out / "results").iterdir()) == ["slide.json", "slides_text_3.json"]
    assert json.loads((out / "results" / "slide.json").read_text())["prompt"] == "a slide titled Report 1"
    rescored = tmp_path / "rescored"
    assert eval_run(f"data={data}", f"results={out / 'results'}", f"out={rescored}") == 1
    assert errors_of(capsys.readouterr().err) == errors
    a, b = (json.loads((p / "scores.json").read_text()) for p in (out, rescored))
    assert [r["id"] for r in a["per_item"]] == ["1", "3"] and a["not_scored"]["refused"] == ["2"]
    assert b["per_item"] == a["per_item"]
    for name in ("summary_by_domain.csv", "summary_by_dimension.csv"):
        assert (rescored / name).read_bytes() == (out / name).read_bytes()


def test_a_domain_that_leaves_out_is_refused(tmp_path, capsys):
    rows = [biz_row(1, domain="../../escaped"), biz_row(2)]
    data = write_rows(tmp_path / "data.jsonl", rows)
    out = tmp_path / "run" / "out"
    sizes = ["generator=tiny", "generator.height=32", "generator.width=32"]
    assert eval_run(*PIXEL, *sizes, f"data={data}", f"out={out}") == 1
    errors = errors_of(capsys.readouterr().err)
    assert errors == [
        f"error: {out / 'results'}/../../escaped_text_1.json (item 1): the BizGenEval image name "
        "'../../escaped_text_1.png' (from the row's image, domain, dimension and id fields) is not a plain file "
        "name; refused, so nothing is read or written outside the folder"
    ]
    written = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()}
    assert not any("escaped" in w for w in written), written
    assert (out / "results" / "slides_text_2.json").is_file()
    # scoring such a row reads nothing outside results= either
    (tmp_path / "escaped_text_1.json").write_text(json.dumps({"meta_info": {"1": {"result": True}}}))
    assert eval_run(f"data={data}", f"results={out / 'results'}", f"out={tmp_path / 'rescored'}") == 1
    assert errors_of(capsys.readouterr().err) == errors
    assert json.loads((tmp_path / "rescored" / "scores.json").read_text())["not_scored"]["refused"] == ["1"]


def test_half_written_images_and_result_files_are_redone(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2)])
    out = tmp_path / "out"
    args = [*PIXEL, "generator=tiny", "generator.height=32", "generator.width=32", f"data={data}", f"out={out}"]
    assert eval_run(*args) == 0
    before = json.loads((out / "scores.json").read_text())["per_item"]
    image, result = out / "images" / "slides_text_1.png", out / "results" / "slides_text_2.json"
    whole_image, whole_result = image.read_bytes(), result.read_bytes()
    image.write_bytes(whole_image[: len(whole_image) // 2])  # a run killed while writing them
    (out / "results" / "slides_text_1.json").unlink()
    result.write_bytes(whole_result[: len(whole_result) // 2])
    capsys.readouterr()
    assert eval_run(*args) == 0, capsys.readouterr().err
    assert image.read_bytes() == whole_image and result.read_bytes() == whole_result  # made again, the same
    assert json.loads((out / "scores.json").read_text())["per_item"] == before
    assert not [p for p in out.rglob("*.tmp")]


def test_an_unwritable_out_is_one_line_exit_2(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "out"
    assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path}", f"out={out}") == 2
    assert capsys.readouterr().err == f"error: out={out}: cannot write there (Not a directory)\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_out_is_one_line_exit_2(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o555)
    try:
        assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path}", f"out={out}") == 2
    finally:
        out.chmod(0o755)
    assert capsys.readouterr().err == f"error: out={out}: cannot write there (Permission denied)\n"


def test_a_second_run_on_the_same_out_is_refused(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    page(tmp_path / "imgs" / "slides_text_1.png")
    out = tmp_path / "out"
    out.mkdir()
    lock = lock_out(out, command="rubricloop-eval")  # the first run, still running
    try:
        assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}") == 2
    finally:
        lock.release()
    assert capsys.readouterr().err == (
        f"error: out={out} is in use by another running rubricloop-eval (it holds {out / '.lock'}); "
        "wait for it to finish or use another out=\n"
    )
    assert not (out / "results").exists()


def test_a_limit_reads_no_further_than_its_items(tmp_path, monkeypatch):
    """100k rows, the last one malformed: ``limit=2`` parses and compiles two rows, and never
    meets the bad one."""
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(100_000 - 1):
            f.write(json.dumps(biz_row(i, n=2)) + "\n")
        f.write('{"id": "broken", "questions": [\n')
    compiled = []
    real = rewards.importers.compile_question
    monkeypatch.setattr(rewards.importers, "compile_question", lambda q: compiled.append(q) or real(q))
    items, errors = load_items(path, limit=2)
    assert [it.id for it in items] == ["0", "1"] and errors == []
    assert compiled == ["Does the slide show the word Report1?", "Does the slide show the word Report2?"] * 2
    tail = tmp_path / "tail.jsonl"  # the last row is bad indeed (read whole, the big file reports it)
    tail.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[-2:]))
    items, errors = load_items(tail)
    assert len(items) == 1 and errors == [f"{tail}:2: malformed JSON (Expecting value at column 32)"]


def test_eval_with_a_limit_reads_only_its_rows(tmp_path, capsys, monkeypatch):
    rows = [biz_row(i, n=2) for i in range(3000)]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{not json\n", encoding="utf-8")
    images = tmp_path / "imgs"
    for i in (0, 1):
        page(images / f"slides_text_{i}.png", 50 * i)
    compiled = []
    real = rewards.importers.compile_question
    monkeypatch.setattr(rewards.importers, "compile_question", lambda q: compiled.append(q) or real(q))
    out = tmp_path / "out"
    assert eval_run(*PIXEL, f"data={data}", f"images={images}", "limit=2", f"out={out}", "report=true") == 0
    assert errors_of(capsys.readouterr().err) == []  # the bad last row is never read
    assert set(compiled) == {"Does the slide show the word Report1?", "Does the slide show the word Report2?"}
    assert len(compiled) <= 12  # two rows of two questions, read by the run, its scorer and its report
    assert (out / "report.html").is_file()
    assert json.loads((tmp_path / "out" / "scores.json").read_text())["total_items"] == 2


def test_an_edited_row_or_replaced_image_is_redone_on_resume(tmp_path, capsys):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2), biz_row(3)])
    images = tmp_path / "imgs"
    for i in (1, 2, 3):
        page(images / f"slides_text_{i}.png", 255)
    out = tmp_path / "out"
    args = [*PIXEL, f"data={data}", f"images={images}", f"out={out}"]
    assert eval_run(*args) == 0
    results = out / "results"
    untouched = (results / "slides_text_3.json").stat().st_mtime_ns
    # row 1 gets another question, item 2's image is replaced
    write_rows(data, [biz_row(1, n=4), biz_row(2), biz_row(3)])
    page(images / "slides_text_2.png", 0)
    capsys.readouterr()
    assert eval_run(*args) == 0
    assert "2 items redone because their data changed since they were judged" in capsys.readouterr().out
    items, _ = load_items(data)
    status, verdicts = read_result_file(results, items[0])
    assert status == "ok" and sorted(verdicts) == ["1", "2", "3", "4"]
    _, verdicts2 = read_result_file(results, items[1])
    # PixelJudge: check k is "yes" iff (sum of the RGB bytes + k) % 3 == 0; a black page sums to 0
    assert [verdicts2[k].answer for k in "123"] == ["yes", "no", "no"]
    assert (results / "slides_text_3.json").stat().st_mtime_ns == untouched  # unchanged: not redone
    assert json.loads((out / "scores.json").read_text())["total_scored"] == 3


def test_a_generated_image_is_made_again_when_its_prompt_changes(tmp_path):
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2)])
    out = tmp_path / "out"
    args = [*PIXEL, "generator=tiny", "generator.height=32", "generator.width=32", f"data={data}", f"out={out}"]
    assert eval_run(*args) == 0
    first = {p.name: p.read_bytes() for p in (out / "images").iterdir()}
    write_rows(data, [biz_row(1, prompt="a chart of sales"), biz_row(2)])
    assert eval_run(*args) == 0
    second = {p.name: p.read_bytes() for p in (out / "images").iterdir()}
    assert second["slides_text_2.png"] == first["slides_text_2.png"]
    assert second["slides_text_1.png"] != first["slides_text_1.png"]
    result = json.loads((out / "results" / "slides_text_1.json").read_text())
    assert result["prompt"] == "a chart of sales"


def test_a_user_row_image_is_judged_when_images_has_no_such_file(tmp_path, capsys):
    checks = [{"id": "1", "question": "Is the page white?"}]
    row = {"id": "p1", "prompt": "a page", "image": "pics/page.png", "criteria": [{"name": "c", "checks": checks}]}
    data = write_rows(tmp_path / "data.jsonl", [row])
    page(tmp_path / "pics" / "page.png", 255)
    (tmp_path / "imgs").mkdir()
    out = tmp_path / "out"
    assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}") == 0, capsys.readouterr()
    assert (out / "images" / "__p1.png").is_file()
    status, verdicts = read_result_file(out / "results", load_items(data)[0][0])
    # 64 x 32 white pixels: sum 64*32*3*255 = 1566720, % 3 == 0 -> check 1 (k = 0) "yes"
    assert status == "ok" and verdicts["1"].answer == "yes"


def test_merge_is_locked_and_a_torn_shard_file_is_one_line(tmp_path, capsys):
    from evaluation.merge import merge

    shard = tmp_path / "out" / "shard_0-of-1"
    shard.mkdir(parents=True)
    (shard / "run.json").write_text('{"benchmark": "bizgen')  # a killed shard's torn file
    (shard / "shard.json").write_text('{"items": ["1"]}')
    assert merge(tmp_path / "out", report=False) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {shard / 'run.json'}: cannot be read as JSON (JSONDecodeError); run that shard again"]
    with lock_out(tmp_path / "out", command="rubricloop-eval"):
        assert merge(tmp_path / "out", report=False) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is in use by another running rubricloop-eval" in err[0]


# ---------------------------------------------------------------- issue 18: disk full, read-only, stale, FIFO


def _limited_python(code: str, limit: int, tmp_path: Path):
    """Run ``code`` in a child Python whose files may not grow past ``limit`` bytes
    (RLIMIT_FSIZE: a write past it fails with EFBIG, as a full disk fails with ENOSPC; no root)."""
    import subprocess
    import sys

    prelude = (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )


def test_run_files_on_a_full_disk_is_one_line_and_leaves_no_torn_config(tmp_path):
    """Issue 18.1: OmegaConf.save's traceback and a torn .hydra/config.yaml."""
    out = tmp_path / "out"
    out.mkdir()
    code = (
        "from pathlib import Path\nfrom omegaconf import OmegaConf\n"
        "from rewards.common.run_folder import run_files\n"
        f"with run_files(OmegaConf.create({{'a': 'x' * 5000}}), Path({str(out)!r}), 'run.log'):\n"
        "    print('ran')\n"
    )
    proc = _limited_python(code, 2000, tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (f"error: out={out}: cannot write {out / '.hydra' / 'config.yaml'} (File too large)\n")
    assert sorted(p.name for p in (out / ".hydra").iterdir()) == []  # no torn config, no .tmp
    assert not (out / "run.log").exists()


def test_a_log_that_cannot_be_written_warns_once_and_the_run_goes_on(tmp_path):
    """Issue 18.1: 258 "--- Logging error ---" tracebacks and an OSError from handler.close()."""
    out = tmp_path / "out"
    out.mkdir()
    code = (
        "import logging\nfrom pathlib import Path\nfrom omegaconf import OmegaConf\n"
        "from rewards.common.run_folder import run_files\n"
        "log = logging.getLogger('t')\n"
        f"with run_files(OmegaConf.create({{'a': 1}}), Path({str(out)!r}), 'run.log', logger=log):\n"
        "    for i in range(300):\n"
        "        log.info('line %d %s', i, 'y' * 100)\n"
        "print('ran')\n"
    )
    proc = _limited_python(code, 4000, tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "ran\n"), proc.stderr[-2000:]
    assert proc.stderr == f"warning: cannot write {out / 'run.log'} (File too large); the log stops here\n"
    assert (out / ".hydra" / "config.yaml").read_text() == "a: 1\n"
    assert (out / "run.log").stat().st_size == 4000  # what fitted


def test_summary_csvs_on_a_full_disk_keep_the_old_file(tmp_path):
    """Issue 18.2: open(path, "w") left a 0-byte summary_by_domain.csv."""
    from rewards.scorers.bizgeneval_results import write_summary_csvs

    old = tmp_path / "summary_by_domain.csv"
    old.write_bytes(b"old")
    code = (
        "import json\nfrom rewards.scorers.bizgeneval_results import write_summary_csvs\n"
        "empty = {'count': 0, 'by_domain': {}, 'by_dimension': {},\n"
        "         'average_by_domain': 0.5, 'average_by_dimension': 0.5}\n"
        "try:\n"
        "    write_summary_csvs({'subsets': {'easy': empty, 'hard': empty, 'all': empty}}, '.')\n"
        "except OSError as e:\n"
        "    print(e.strerror)\n"
    )
    proc = _limited_python(code, 20, tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "File too large\n", "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary_by_domain.csv"] and old.read_bytes() == b"old"
    empty = {"count": 0, "by_domain": {}, "by_dimension": {}, "average_by_domain": 0.5, "average_by_dimension": 0.5}
    write_summary_csvs({"subsets": {"easy": empty, "hard": empty, "all": empty}}, tmp_path)
    assert old.read_bytes().endswith(b"\r\nall,,,,,,0.5000\r\n")  # the official bytes: \r\n line ends


def test_eval_that_cannot_write_its_summary_is_one_line_exit_1(tmp_path, capsys):
    """Issue 18.2: an OSError while writing the summary was a traceback."""
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    page(tmp_path / "imgs" / "slides_text_1.png")
    out = tmp_path / "out"
    (out / "summary_by_domain.csv").mkdir(parents=True)  # in the way of the summary's rename
    assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}") == 1
    err = errors_of(capsys.readouterr().err)
    assert err == [f"error: cannot write {out / 'summary_by_domain.csv'} (Is a directory)"]
    assert not (out / "summary_by_domain.csv.tmp").exists()


def test_merge_into_a_read_only_out_is_one_line(tmp_path, capsys, monkeypatch):
    """Issue 18.3: lock_out raised OSError [Errno 30] (not Timeout): a traceback."""
    import errno

    from filelock import FileLock

    from evaluation.merge import merge

    def read_only(self, *a, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self.lock_file))

    (tmp_path / "out").mkdir()
    monkeypatch.setattr(FileLock, "acquire", read_only)
    assert merge(tmp_path / "out", report=False) == 2
    err = capsys.readouterr().err
    assert err == f"error: out={tmp_path / 'out'}: cannot write there (Read-only file system)\n"


def test_the_lock_refusal_names_the_program_that_holds_it(tmp_path):
    """Issue 18.3: while rubricloop-refine held out=, rubricloop-judge said "another running rubricloop-judge"."""
    from rewards.common.run_folder import discard

    out = tmp_path / "out"
    out.mkdir()
    with lock_out(out, command="rubricloop-refine"):
        assert (out / ".lock.owner").read_text() == "rubricloop-refine\n"
        with pytest.raises(ValueError) as e:
            lock_out(out, command="rubricloop-judge")
        assert str(e.value) == (
            f"out={out} is in use by another running rubricloop-refine (it holds {out / '.lock'}); "
            "wait for it to finish or use another out="
        )
        (out / ".lock.owner").write_bytes(b"\x00garbage")
        with pytest.raises(ValueError, match="in use by another running RubricLoop run "):
            lock_out(out, command="rubricloop-judge")
    assert sorted(p.name for p in out.iterdir()) == [".lock"]  # released: no owner left
    lock = lock_out(out, command="rubricloop-eval")
    lock.release()
    lock.release()  # a second release does nothing
    discard(out, created=True)  # a rejected run's folder: only its lock (and owner) in it
    assert not out.exists()
    out.mkdir()
    with lock_out(out, command="rubricloop-eval"):
        discard(out, created=True)
        assert not out.exists()


def test_a_lock_taken_just_now_by_another_process_names_its_owner_or_no_program(tmp_path):
    """Issue 21: with refine holding the lock but its ``.lock.owner`` not yet written, the refusal
    named the refusing command itself ("rubricloop-judge"). Another process holds the lock here."""
    import subprocess
    import sys
    import time

    out = tmp_path / "out"
    out.mkdir()
    # the holder takes the lock, says so on stdout, then (after `delay` s; never when negative)
    # writes its owner file, and holds the lock until its stdin closes
    holder = (
        "import sys, time; from filelock import FileLock; from pathlib import Path\n"
        "out, delay = Path(sys.argv[1]), float(sys.argv[2])\n"
        "lock = FileLock(out / '.lock', timeout=0); lock.acquire(); print('held', flush=True)\n"
        "if delay >= 0: time.sleep(delay); (out / '.lock.owner').write_text('rubricloop-refine\\n')\n"
        "sys.stdin.read()\n"
    )
    refusal = "out={out} is in use by another running {who} (it holds {lock}); "
    refusal += "wait for it to finish or use another out="
    for delay, who in ((-1, "RubricLoop run"), (0.3, "rubricloop-refine")):
        (out / ".lock.owner").unlink(missing_ok=True)
        args = [sys.executable, "-c", holder, str(out), str(delay)]
        proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline() == "held\n"
            start = time.monotonic()
            with pytest.raises(ValueError) as e:
                lock_out(out, command="rubricloop-judge")
            waited = time.monotonic() - start
        finally:
            proc.communicate("", timeout=30)
        assert str(e.value) == refusal.format(out=out, who=who, lock=out / ".lock")
        # no owner: gave up after OWNER_WAIT_S (1 s); a late owner: named once it appeared (0.3 s)
        assert (0.9 < waited < 3.0) if delay < 0 else (0.2 < waited < 0.9)


def test_a_fifo_run_json_or_fingerprints_is_refused_not_waited_on(tmp_path, capsys):
    """Issue 18.4: check_settings read a FIFO at <out>/run.json (and eval <out>/fingerprints.jsonl): a hang."""
    import signal

    from rewards.common.run_folder import SettingsError, check_settings

    def hang(*_):
        raise TimeoutError("hung on the FIFO")

    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    page(tmp_path / "imgs" / "slides_text_1.png")
    before = signal.signal(signal.SIGALRM, hang)
    signal.alarm(30)
    try:
        out = tmp_path / "out"
        out.mkdir()
        os.mkfifo(out / "run.json")
        with pytest.raises(SettingsError) as e:
            check_settings(out / "run.json", {}, lambda _: "other")
        assert str(e.value).startswith(f"{out / 'run.json'}: is not a regular file, so the settings of the run in")
        os.unlink(out / "run.json")
        os.mkfifo(out / "fingerprints.jsonl")
        assert eval_run(*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}") == 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert capsys.readouterr().err == (
        f"error: {out / 'fingerprints.jsonl'}: is not a regular file, so what its finished items were made from "
        "cannot be read; remove it or use a new out=\n"
    )


def test_merge_refuses_a_shard_result_made_from_other_data(tmp_path, capsys):
    """Issue 18.5: merge scored an old result file against an edited rubric, exit 0."""
    from evaluation.merge import merge

    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2), biz_row(3)])
    imgs = tmp_path / "imgs"
    for i in (1, 2, 3):
        page(imgs / f"slides_text_{i}.png")
    out = tmp_path / "out"
    for shard in ("0/2", "1/2"):
        assert eval_run(*PIXEL, f"data={data}", f"images={imgs}", f"out={out}", f"shard={shard}") == 0
    write_rows(data, [biz_row(1), biz_row(2, n=4), biz_row(3)])  # item 2 gets another question
    capsys.readouterr()
    assert merge(out, report=False) == 1
    shard = out / "shard_1-of-2"  # items k % 2 == 1: item 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: item 2: its result in {shard} was made from other data; run that shard again",
        "error: 1 coverage problem(s); nothing merged",
    ]
    assert not (out / "results").exists() and not (out / "scores.json").exists()
    assert eval_run(*PIXEL, f"data={data}", f"images={imgs}", f"out={out}", "shard=1/2") == 0  # redoes item 2
    assert merge(out, report=False) == 0
    assert json.loads((out / "scores.json").read_text())["total_scored"] == 3


def test_a_rerun_with_a_lora_whose_weights_changed_is_refused(tmp_path):
    """Issue 18.6: eval resumed over a LoRA whose weights changed at the same path, keeping old images."""
    from evaluation.cli import OptionError, record_settings, run_settings

    lora = tmp_path / "step_1"
    lora.mkdir()
    weights = lora / "pytorch_lora_weights.safetensors"
    weights.write_bytes(b"weights one")

    def settings():
        with initialize_config_module(config_module="conf", version_base="1.3"):
            cfg = compose(config_name="eval", overrides=[f"data={tmp_path}/d.jsonl", "generator=tiny", f"lora={lora}"])
            return run_settings(cfg)

    path = tmp_path / "out" / "run.json"
    first = settings()
    record_settings(path, first)
    record_settings(path, settings())  # the same weights: a resume
    weights.write_bytes(b"weights two")
    second = settings()
    assert first["lora"] == second["lora"] and first["lora_weights"] != second["lora_weights"]
    with pytest.raises(OptionError) as e:
        record_settings(path, second)
    assert str(e.value) == (
        f"{path.parent} was made with another lora (its weights changed: {path} records sha256 "
        f"{first['lora_weights'][:12]}, lora={lora} now has {second['lora_weights'][:12]}); "
        "use another out=... or the weights it was made with"
    )


def test_judge_mode_takes_each_rows_own_image_before_the_benchmark_name(tmp_path, capsys):
    """Issue 21: ``benchmark=bizgeneval images=<dir>`` on a user's own rubric rows looked for
    ``<dir>/__<id>.png`` and ignored the row's ``image``. The row's image wins: in ``images=``
    as written, else relative to the rows file; a row without one keeps the benchmark name."""
    import numpy as np

    def rubric_row(item_id, image=None):
        checks = [{"id": "c1", "question": "Is it white?"}]
        row = {"id": item_id, "prompt": "a page", "criteria": [{"name": "page", "checks": checks}]}
        return row | ({"image": image} if image else {})

    rows, imgs = tmp_path / "rows", tmp_path / "imgs"
    page(imgs / "shots" / "a.png", shade=10)  # x1: "shots/a.png" is in images=, not beside the rows
    page(rows / "b.png", shade=20)  # x2: "b.png" is beside the rows; a stale benchmark-named file is ignored
    page(imgs / "__x2.png", shade=200)
    page(imgs / "__x3.png", shade=30)  # x3 names no image: the benchmark's name
    own = [rubric_row("x1", "shots/a.png"), rubric_row("x2", "b.png"), rubric_row("x3")]
    data = write_rows(rows / "data.jsonl", own)
    out = tmp_path / "out"
    assert eval_run(*PIXEL, "benchmark=bizgeneval", f"data={data}", f"images={imgs}", f"out={out}") == 0
    judged = {k: int(np.asarray(Image.open(out / "images" / f"__{k}.png"))[0, 0, 0]) for k in ("x1", "x2", "x3")}
    assert judged == {"x1": 10, "x2": 20, "x3": 30}

    # a row image found nowhere: one line naming where it was looked for
    data = write_rows(rows / "data2.jsonl", [rubric_row("x4", "gone.png")])
    assert eval_run(*PIXEL, "benchmark=bizgeneval", f"data={data}", f"images={imgs}", f"out={tmp_path / 'o2'}") == 1
    err = capsys.readouterr().err
    assert (
        f"error: item x4: image not found in any of: {imgs / 'gone.png'}, {rows / 'gone.png'}, {imgs / '__x4.png'}\n"
    ) in err

    # the row's image beside the rows file wins over a file of the same base name elsewhere in images=
    page(rows / "sub" / "chart.png", shade=40)
    page(imgs / "chart.png", shade=50)
    data = write_rows(rows / "data3.jsonl", [rubric_row("x5", "sub/chart.png")])
    assert eval_run(*PIXEL, "benchmark=bizgeneval", f"data={data}", f"images={imgs}", f"out={tmp_path / 'o3'}") == 0
    assert int(np.asarray(Image.open(tmp_path / "o3" / "images" / "__x5.png"))[0, 0, 0]) == 40


def test_an_eval_keeps_its_wandb_run_id_and_a_rerun_logs_into_that_run(tmp_path, monkeypatch):
    """Issue 21: ``rubricloop-report --wandb`` logs into the reported run's own W&B run; an eval
    records its id in ``<out>/wandb_run_id`` (a rerun and the report resume it)."""
    for var, sub in (("WANDB_DATA_DIR", "wbdata"), ("WANDB_CACHE_DIR", "wbcache"), ("WANDB_CONFIG_DIR", "wbconfig")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_MODE")
    data = write_rows(tmp_path / "data.jsonl", [biz_row(1)])
    page(tmp_path / "imgs" / "slides_text_1.png")
    out = tmp_path / "out"
    args = (*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}", "wandb.mode=offline")
    assert eval_run(*args) == 0
    run_id = (out / "wandb_run_id").read_text().strip()
    assert eval_run(*args) == 0
    assert (out / "wandb_run_id").read_text().strip() == run_id
    # both runs wrote into the W&B run of that id (offline: one folder per start, its run file named by the id)
    assert sorted(p.name for p in (out / "wandb").glob("offline-run-*/run-*.wandb")) == [f"run-{run_id}.wandb"] * 2


def test_data_pointing_at_an_image_is_one_line_and_exit_2(tmp_path, capsys):
    """Issue 21: ``data=<a PNG>`` is one option line (as rubricloop-judge and -refine say it), not
    one "not UTF-8" line per chunk of the image, and no out folder is made."""
    png = page(tmp_path / "slide.png")
    out = tmp_path / "out"
    assert eval_run(*PIXEL, f"data={png}", f"images={tmp_path}", f"out={out}") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: data={png} is a PNG image, not a rubric file or benchmark folder"]
    assert not out.exists()


def test_ctrl_c_keeps_the_judged_items_and_says_how_to_resume(tmp_path, capsys, monkeypatch):
    import eval_helpers

    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2)])
    page(tmp_path / "imgs" / "slides_text_1.png")
    page(tmp_path / "imgs" / "slides_text_2.png", shade=200)
    out = tmp_path / "out"
    args = (*PIXEL, f"data={data}", f"images={tmp_path / 'imgs'}", f"out={out}")
    real, judged = eval_helpers.PixelJudge.judge, []

    def judge_then_ctrl_c(self, images, prompts, checks):
        if judged:
            raise KeyboardInterrupt
        judged.append(len(images))
        return real(self, images, prompts, checks)

    monkeypatch.setattr(eval_helpers.PixelJudge, "judge", judge_then_ctrl_c)
    capsys.readouterr()
    assert eval_run(*args) == 130
    assert capsys.readouterr().err.endswith(
        f"\ninterrupted: finished items are kept in {out}; run the same command again to resume\n"
    )
    monkeypatch.setattr(eval_helpers.PixelJudge, "judge", lambda self, *a: judged.append(len(a[0])) or real(self, *a))
    assert eval_run(*args) == 0  # the lock was released; only the item not judged is judged
    assert judged == [1, 1]
    assert len((out / "verdicts.jsonl").read_text().splitlines()) == 6


def test_images_given_but_rows_own_images_used_is_said_and_images_only_judges_only_that_folder(tmp_path, capsys):
    """Issue 35 case 1: ``images=<dir>`` held files for two of four rows that name their own
    images; all four were judged on the rows' images and nothing said so. Every verdict line now
    names the image judged, the run says once how many rows' images were not in ``images=``, and
    ``images_only=true`` judges only files in ``images=`` (the others fail, one line each)."""
    import numpy as np

    checks = [{"id": "c1", "question": "Is it white?"}]
    rows, imgs = tmp_path / "rows", tmp_path / "imgs"
    own = []
    for k in range(4):
        page(rows / f"start{k}.png", shade=10 + k)
        own.append(
            {"id": f"x{k}", "prompt": "a page", "image": f"start{k}.png", "criteria": [{"name": "p", "checks": checks}]}
        )
    page(imgs / "__x0.png", shade=200)  # the benchmark's names for two of them
    page(imgs / "__x1.png", shade=201)
    data = write_rows(rows / "data.jsonl", own)
    args = [*PIXEL, "benchmark=bizgeneval", f"data={data}", f"images={imgs}"]
    out = tmp_path / "out"
    assert eval_run(*args, f"out={out}") == 0
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert f"images={imgs}: 4 of 4 items were judged on the image their row names, not a file in {imgs}" in said
    assert said.count("images_only=true") == 1
    lines = [json.loads(ln) for ln in (out / "verdicts.jsonl").read_text().splitlines()]
    assert {ln["item_id"]: ln["image"] for ln in lines} == {f"x{k}": str(rows / f"start{k}.png") for k in range(4)}

    out2 = tmp_path / "out2"
    assert eval_run(*args, "images_only=true", f"out={out2}") == 1
    err = capsys.readouterr().err
    assert len(errors_of(err)) == 2
    assert f"error: item x2: image not found in images={imgs} (images_only=true): {imgs / 'start2.png'}, " in err
    judged = {k: int(np.asarray(Image.open(out2 / "images" / f"__{k}.png"))[0, 0, 0]) for k in ("x0", "x1")}
    assert judged == {"x0": 200, "x1": 201}
    lines = [json.loads(ln) for ln in (out2 / "verdicts.jsonl").read_text().splitlines()]
    assert {ln["item_id"]: ln["image"] for ln in lines} == {"x0": str(imgs / "__x0.png"), "x1": str(imgs / "__x1.png")}
    assert json.loads((out2 / "run.json").read_text())["images_only"] is True


def test_a_merge_refusal_names_the_settings_that_differ_with_each_shards_value(tmp_path, capsys):
    """Issue 35 case 8: the refusal read "made with different settings or shard counts [2]"."""
    from evaluation.merge import merge

    data = write_rows(tmp_path / "data.jsonl", [biz_row(1), biz_row(2)])
    imgs = tmp_path / "imgs"
    for i in (1, 2):
        page(imgs / f"slides_text_{i}.png")
    out = tmp_path / "out"
    args = [*PIXEL, f"data={data}", f"images={imgs}", f"out={out}"]
    assert eval_run(*args, "shard=0/2", "alpha=0.2") == 0
    assert eval_run(*args, "shard=1/2", "seed=5") == 0
    capsys.readouterr()
    assert merge(out, report=False) == 2
    assert capsys.readouterr().err == (
        f"error: the shards in {out} were made with different settings: "
        "seed: shard_0-of-2 0, shard_1-of-2 5; alpha: shard_0-of-2 0.2, shard_1-of-2 0.1; "
        "run the shards again with the same settings\n"
    )
    (out / "shard_1-of-2").rename(out / "shard_1-of-3")
    assert merge(out, report=False) == 2
    assert "shard count: shard_0-of-2 2, shard_1-of-3 3" in capsys.readouterr().err
