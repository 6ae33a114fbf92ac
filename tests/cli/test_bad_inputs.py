"""`rubricloop-refine` on the inputs of issue 11: each case checks the exact exit status, the one
error line, and that the other items finished with their outputs intact.

Runs the real console script with the OCR judge on small one-line text pages (tests/refine_rows.py).
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from refine_rows import (
    ENV,
    FAST_OCR,
    SCRIPT,
    answers,
    error_lines,
    good_rows,
    same_pixels,
    text_page,
    text_row,
    write_rows,
)


def refine(*args, env=ENV, cwd=None, timeout=300):
    return subprocess.run(
        [str(SCRIPT), *map(str, args), *FAST_OCR], capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout
    )


@pytest.mark.slow
def test_every_image_mode_keeps_its_text(tmp_path):
    """16-bit, transparent, palette, bilevel, CMYK... pages all read 'Q3 Revenue'; a float
    image with no known range fails alone in one line."""
    page = text_page("Q3 Revenue")
    gray = np.asarray(page.convert("L"))
    ink = 255 - gray  # how much black is at each pixel
    (tmp_path / "images").mkdir()
    # name -> (image saved, the start image it must give, tolerance in 8-bit levels)
    files = {
        "rgb.png": (page, page, 0),
        "gray16.png": (Image.fromarray(gray.astype(np.uint16) * 257), page, 0),  # I;16
        "rgba.png": (
            Image.fromarray(np.dstack([np.zeros_like(gray)] * 3 + [ink]), "RGBA"),
            page,
            1,
        ),  # ink on a transparent page
        "la.png": (Image.fromarray(np.dstack([np.zeros_like(gray), ink]), "LA"), page, 1),
        "int32.tiff": (Image.fromarray(gray.astype(np.int32) * 257), page, 0),  # I, 16-bit range
        "float.tiff": (Image.fromarray(gray.astype(np.float32) / 255), page, 0),  # F in [0, 1]
        "bilevel.png": (page.convert("1"), page.convert("1").convert("RGB"), 0),
        "palette.gif": (page.convert("P"), page.convert("P").convert("RGB"), 0),
        "cmyk.tiff": (page.convert("CMYK"), page, 0),
        "photo.jpg": (page, page, 80),  # lossy: ringing around the glyphs
        "page.webp": (page, page, 80),
    }
    for name, (image, _, _) in files.items():
        image.save(tmp_path / "images" / name, **({"quality": 95} if name.endswith(".jpg") else {}))
    Image.fromarray(gray.astype(np.float32) * 1000).save(tmp_path / "images" / "bad_float.tiff")  # 0..255000: no range
    ids = [name.replace(".", "_") for name in files]
    rows = [text_row(i, f"images/{name}", "Q3 Revenue") for i, name in zip(ids, files)]
    rows.insert(3, text_row("bad_float", "images/bad_float.tiff", "Q3 Revenue"))
    data = write_rows(tmp_path, rows)
    out = tmp_path / "out"

    proc = refine(f"data={data}", f"out={out}", "iterations=0")
    assert proc.returncode == 1, proc.stderr
    bad = tmp_path / "images" / "bad_float.tiff"
    assert error_lines(proc.stderr) == [
        f"error: item bad_float: cannot read image {bad} (mode F pixel values span 0..255000 (or are NaN): "
        "only 0..1, 0..255 or 0..65535 can be mapped to 8 bits)"
    ]
    for item_id, (_, expected, tol) in zip(ids, files.values()):
        assert answers(out, item_id) == ["yes"], item_id
        start = Image.open(out / item_id / "iter_0.png")
        assert start.mode == "RGB" and same_pixels(start, expected, tol), item_id
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_finished"] == len(ids) and summary["n_failed"] == 1 and summary["complete"] is True


@pytest.mark.slow
def test_invalid_utf8_and_empty_question_fail_alone(tmp_path):
    good = good_rows(tmp_path, 2)
    empty_q = text_row("blank-q", "images/ok0.png", "Q3 Revenue", extra_checks=[{"id": "style", "question": "   "}])
    bad_bytes = json.dumps(text_row("latin1", "images/ok0.png", "Caf_")).encode().replace(b"Caf_", b"Caf\xe9")
    data = write_rows(tmp_path, [b"\xef\xbb\xbf" + json.dumps(good[0]).encode(), bad_bytes, empty_q, good[1]])
    out = tmp_path / "out"
    proc = refine(f"data={data}", f"out={out}", "iterations=0")
    assert proc.returncode == 1, proc.stderr
    column = bad_bytes.index(b"\xe9") + 1
    assert error_lines(proc.stderr) == [
        f"error: {data}:2: not UTF-8 (byte 0xe9 at byte {column} of the line)",
        f"error: {data}:3 (item blank-q): check 'style': field 'question' is empty",
    ]
    for item_id in ("ok0", "ok1"):
        assert answers(out, item_id) == ["yes"] and (out / item_id / "best.png").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_finished"] == 2 and summary["n_failed"] == 2


@pytest.mark.slow
def test_out_that_is_a_file_is_refused_and_nothing_is_left(tmp_path):
    target = tmp_path / "results.txt"
    target.write_text("keep me")
    proc = refine(f"out={target}", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: out={target}: is an existing file, not a folder"
    assert target.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.txt"]  # no .hydra, no refine.log


def _read_only_mount(tmp_path, script):
    """Run ``script`` (sh) in a private mount namespace where ``tmp_path/ro`` is a read-only
    tmpfs holding a folder ``existing``; skips where user namespaces are not allowed."""
    ro = tmp_path / "ro"
    ro.mkdir()
    setup = (
        f"mount -t tmpfs tmpfs {ro} && mkdir {ro}/existing && mount -o remount,ro {ro} "
        f"&& ! touch {ro}/probe 2>/dev/null && {script}"
    )
    proc = subprocess.run(["unshare", "-rm", "sh", "-c", setup], capture_output=True, text=True, env=ENV, timeout=120)
    if proc.returncode not in (0, 2) or "Read-only" not in proc.stderr:
        pytest.skip(f"no read-only mount here: {proc.stderr.strip()[:200]}")
    return ro, proc


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
@pytest.mark.parametrize("folder", ["new/deeper", "existing"])
def test_out_on_a_read_only_file_system_is_refused(tmp_path, folder):
    ro, proc = _read_only_mount(tmp_path, f"cd {tmp_path} && {SCRIPT} out={tmp_path}/ro/{folder}")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"error: out={ro}/{folder}: cannot write there (Read-only file system)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro"]  # nothing written beside it either


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_dead_vlm_judge_is_an_outage_not_an_answer(tmp_path):
    port = closed_port()
    rows = good_rows(tmp_path, 2)
    rows.append(
        text_row(
            "needs-vlm",
            "images/ok0.png",
            "Q3 Revenue",
            extra_checks=[{"id": "bg", "question": "Is the background white?"}],
        )
    )
    data = write_rows(tmp_path, rows)
    out = tmp_path / "out"
    t0 = time.time()
    proc = refine(
        f"data={data}",
        f"out={out}",
        "iterations=1",
        "judge=ocr_vlm",
        f"judge.judges.1.base_url=http://127.0.0.1:{port}/v1",
        "judge.judges.1.max_retries=1",
        "+judge.judges.1.backoff_s=0",
        "judge.judges.1.timeout_s=5",
    )
    assert time.time() - t0 < 120
    assert proc.returncode == 1, proc.stderr
    url = f"http://127.0.0.1:{port}/v1/chat/completions"
    [err] = error_lines(proc.stderr)
    assert err.startswith(
        f"error: item needs-vlm: judge vlm:Qwen/Qwen2.5-VL-7B-Instruct failed on 1 of 1 checks "
        f"sent to it (request failed: {url}: "
    )
    assert "Connection refused" in err and err.endswith("(after 1 retries))")
    # shown at the top of the summary, before the score table
    top = proc.stderr.splitlines()
    assert any(
        line.startswith(
            "judge vlm:Qwen/Qwen2.5-VL-7B-Instruct: 1 of 1 checks failed as calls; "
            "1 items failed as an outage (last error: request failed:"
        )
        for line in top
    )
    assert proc.stdout.index("2 of 3 items finished, 1 failed") >= 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["judges"]["vlm:Qwen/Qwen2.5-VL-7B-Instruct"]["items_failed"] == 1
    assert summary["n_finished"] == 2 and summary["n_failed"] == 1
    assert not (out / "needs-vlm" / "result.json").exists()  # a rerun, with the judge back, redoes it
    for item_id in ("ok0", "ok1"):
        assert answers(out, item_id) == ["yes"] and (out / item_id / "result.json").exists()


@pytest.mark.slow
def test_finished_folder_rerun_is_a_no_op_without_a_new_wandb_run_and_with_a_log(tmp_path):
    data = write_rows(tmp_path, good_rows(tmp_path, 1))
    out = tmp_path / "out"
    first = refine(f"data={data}", f"out={out}", "iterations=0")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("refining 1 of 1 items")
    log = (out / "refine.log").read_text()
    assert "INFO refine: refining 1 of 1 items" in log and "INFO refine: 1 of 1 items finished, 0 failed" in log
    assert "item ok0: pass_rate 1.000 -> 1.000" in log
    # W&B on for the rerun: a run that has nothing to do must not start one
    env = {k: v for k, v in ENV.items() if not k.startswith("WANDB_")}
    again = refine(f"data={data}", f"out={out}", "iterations=0", "wandb.mode=offline", env=env)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == f"1 of 1 items already done in {out}; nothing to refine"
    assert not (out / "wandb").exists() and not (out / ".tmp").exists()
    assert json.loads((out / "summary.json").read_text())["n_finished"] == 1


BLOCKING_TESSERACT = """#!/bin/sh
# tesseract that hangs from its second page on, so the test can act while a run is mid-item
case "$1" in --version|--list-langs) exec "$REAL_TESSERACT" "$@";; esac
touch "$CALLS/$$"
if [ "$(ls "$CALLS" | wc -l)" -ge 2 ]; then while :; do sleep 0.05; done; fi
exec "$REAL_TESSERACT" "$@"
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs tesseract")
def test_second_live_run_is_refused_and_a_killed_run_resumes(tmp_path):
    """A run holds <out>/.lock: a second one exits 2 in one line. SIGKILL releases the OS lock
    (the file stays) and leaves tesseract's temporary files only in <out>/.tmp, never in TMPDIR;
    the resume clears them and redoes only the unfinished items."""
    rows = good_rows(tmp_path, 3)
    data = write_rows(tmp_path, rows)
    out = tmp_path / "out"
    system_tmp, bin_dir, calls = tmp_path / "system_tmp", tmp_path / "bin", tmp_path / "calls"
    for d in (system_tmp, bin_dir, calls):
        d.mkdir()
    (bin_dir / "tesseract").write_text(BLOCKING_TESSERACT)
    (bin_dir / "tesseract").chmod(0o755)
    env = {**ENV, "TMPDIR": str(system_tmp)}
    blocking = {
        **env,
        "PATH": f"{bin_dir}:{env['PATH']}",
        "CALLS": str(calls),
        "REAL_TESSERACT": shutil.which("tesseract"),
        "RUBRICLOOP_TESSERACT": "cli",  # the command above, not tesseract in the process
    }
    args = [f"data={data}", f"out={out}", "iterations=0"]
    first = subprocess.Popen(
        [str(SCRIPT), *args, *FAST_OCR],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=blocking,
        start_new_session=True,
    )
    try:
        deadline = time.time() + 120
        while len(list(calls.iterdir())) < 2 and first.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()[1].decode()[-2000:]
        assert [p.parent.name for p in out.glob("*/result.json")] == ["ok0"]
        assert list((out / ".tmp").glob("tess_*")), "pytesseract's input image is in <out>/.tmp"

        second = refine(*args, env=env)
        assert second.returncode == 2
        assert second.stderr.strip() == (
            f"error: out={out} is in use by another running rubricloop-refine "
            f"(it holds {out / '.lock'}); wait for it to finish or use another out="
        )
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the run and its hanging tesseract
        first.wait(timeout=60)
    assert first.returncode == -signal.SIGKILL
    mtime = (out / "ok0" / "result.json").stat().st_mtime_ns
    assert (out / ".lock").exists() and list(system_tmp.iterdir()) == []
    partial = json.loads((out / "summary.json").read_text())
    assert partial["complete"] is False and [it["id"] for it in partial["items"]] == ["ok0"]

    resumed = refine(*args, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert (
        resumed.stdout.splitlines()[0]
        == f"refining 2 of 3 items from {data} -> {out} (at most 0 edits per item, 1 already done)"
    )
    assert (out / "ok0" / "result.json").stat().st_mtime_ns == mtime
    assert all(answers(out, r["id"]) == ["yes"] for r in rows)
    assert not (out / ".tmp").exists() and list(system_tmp.iterdir()) == []
    assert json.loads((out / "summary.json").read_text())["complete"] is True


def test_license_is_an_spdx_expression():
    """A TOML-table license makes every install print setuptools' deprecation warning (setuptools >= 77
    reads the SPDX string and writes ``License-Expression: MIT``)."""
    import tomllib

    meta = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"
    assert any(r.replace(" ", "").startswith("setuptools>=77") for r in meta["build-system"]["requires"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "make, reason",
    [
        (lambda d: d / "none.jsonl", "cannot read rubric file (No such file or directory)"),
        (lambda d: d, "cannot read rubric file (Is a directory)"),
    ],
)
def test_unreadable_data_is_an_option_error(tmp_path, make, reason):
    data = make(tmp_path)
    proc = refine(f"data={data}", f"out={tmp_path / 'out'}", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: data={data}: {reason}"
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_data_without_rows_is_an_option_error(tmp_path):
    data = write_rows(tmp_path, ["", "   "])
    proc = refine(f"data={data}", f"out={tmp_path / 'out'}", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: data={data} holds no items"
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_row_without_questions_is_refused_and_the_others_refined(tmp_path):
    # An empty rubric would pass every check vacuously and count 1.0 into the run's mean.
    rows = good_rows(tmp_path, 1)
    empty = {"id": "b", "prompt": "p", "dimension": "text", "questions": [], "image": rows[0]["image"]}
    data = write_rows(tmp_path, [rows[0], empty])
    out = tmp_path / "out"
    proc = refine(f"data={data}", f"out={out}", "iterations=0", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert error_lines(proc.stderr) == [f"error: item b: the rubric holds no checks ({data})"]
    summary = json.loads((out / "summary.json").read_text())
    assert [it["id"] for it in summary["items"]] == ["ok0"] and summary["mean_best"]["pass_rate"] == 1.0
