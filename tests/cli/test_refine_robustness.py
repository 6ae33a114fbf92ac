"""Issue 18, the tester's attack report: a FIFO as an item's image, a disk that fills up during
a refine run, and a check that quotes thousands of strings. Each case checks that the bad item
fails in one line (or is bounded), the other items finish, and nothing torn is left behind.
"""

import builtins
import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from refine_rows import ENV, FAST_OCR, error_lines, good_rows, text_page, text_row, write_rows

JUDGE = Path(sys.executable).with_name("rubricloop-judge")
REFINE = Path(sys.executable).with_name("rubricloop-refine")


def fifo_data(tmp_path: Path) -> tuple[Path, Path]:
    """Rows ok0, fifo, ok1 whose ``fifo`` image is a named pipe no one writes to: (data, fifo)."""
    rows = good_rows(tmp_path, 2)
    fifo = tmp_path / "images" / "fifo.png"
    os.mkfifo(fifo)
    rows.insert(1, text_row("fifo", "images/fifo.png", "Q3 Revenue"))
    return write_rows(tmp_path, rows), fifo


def test_a_fifo_image_fails_its_item_in_one_line_in_judge_and_refine(tmp_path):
    """Opening a FIFO for reading blocks until a writer comes: the run hung on the item (the
    subprocess timed out). It is refused from ``stat`` alone; the other items are judged/refined."""
    data, fifo = fifo_data(tmp_path)
    expected = [f"error: item fifo: cannot read image {fifo} (a FIFO, not a file)"]
    for script, extra in ((JUDGE, ()), (REFINE, ("iterations=0",))):
        out = tmp_path / f"out_{script.name}"
        proc = subprocess.run(
            [str(script), f"data={data}", f"out={out}", *extra, *FAST_OCR],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=120,
        )
        assert proc.returncode == 1, proc.stderr
        assert error_lines(proc.stderr) == expected, proc.stderr
        assert "Traceback" not in proc.stderr
        summary = json.loads((out / "summary.json").read_text())
        assert summary["n_failed"] == 1, script.name
    judged = [
        json.loads(line) for line in (tmp_path / "out_rubricloop-judge" / "verdicts.jsonl").read_text().splitlines()
    ]
    assert [(v["item_id"], v["answer"]) for v in judged] == [("ok0", "yes"), ("ok1", "yes")]
    refined = tmp_path / "out_rubricloop-refine"
    assert json.loads((refined / "ok0" / "result.json").read_text())["scores"][0]["pass_rate"] == 1.0
    assert json.loads((refined / "ok1" / "result.json").read_text())["scores"][0]["pass_rate"] == 1.0
    assert not (refined / "fifo" / "result.json").exists()


class FullDisk:
    """A disk that fills up: once a file ``fills_at`` is opened for writing, every write of more
    than 0 bytes into a file under ``root`` lands half its bytes and raises ENOSPC, as a real full
    disk does (the file is created, then cut short). Install with :meth:`install`."""

    def __init__(self, root: Path, fills_at: Path):
        self.root, self.fills_at, self.full = root.resolve(), fills_at.resolve(), False
        self.real_open = builtins.open

    def install(self, monkeypatch) -> None:
        monkeypatch.setattr(builtins, "open", self.open)  # open(), Pillow's save
        monkeypatch.setattr(io, "open", self.open)  # Path.write_text

    def open(self, file, mode="r", *args, **kwargs):
        f = self.real_open(file, mode, *args, **kwargs)
        if isinstance(file, int) or not any(c in mode for c in "wax+"):
            return f
        path = Path(file).resolve()
        self.full = self.full or path == self.fills_at
        return _Cut(f) if self.full and path.is_relative_to(self.root) else f


class _Cut:
    """A file whose writes land half their bytes, then raise ENOSPC."""

    def __init__(self, f):
        self._f = f

    def write(self, data):
        if not data:
            return 0
        self._f.write(data[: len(data) // 2])
        self._f.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


def refine_in_process(*overrides) -> int:
    """``refine.cli.run`` on the composed config, in this process (so writes can be made to fail)."""
    from hydra import compose, initialize_config_module

    from refine.cli import run

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(config_name="refine", overrides=["wandb.mode=disabled", *overrides, *FAST_OCR])
    return run(cfg)


def test_a_disk_that_fills_up_fails_items_in_one_line_leaves_nothing_torn_and_resumes(tmp_path, monkeypatch, capsys):
    """Before: the item whose best.png hit the full disk failed as "OSError: [Errno 28] ..." with
    its torn files kept, and the summary's write raised a traceback, leaving a 0-byte
    ``summary.json.tmp``. Now each item names the file it could not write, its folder is removed,
    the summary's failure is one error line, the exit status is 1, and a rerun finishes the rest."""
    data = write_rows(tmp_path, good_rows(tmp_path, 3))
    out = tmp_path / "out"
    FullDisk(out, fills_at=out / "ok1" / "best.png").install(monkeypatch)
    code = refine_in_process(f"data={data}", f"out={out}", "iterations=0")
    printed = capsys.readouterr()
    err = printed.err
    assert code == 1
    assert "Traceback" not in err
    assert "summary: " not in printed.out  # no path to a summary it could not write
    assert error_lines(err) == [
        f"error: item ok1: cannot write {out / 'ok1' / 'best.png'} (No space left on device)",
        f"error: item ok2: cannot write {out / 'ok2' / 'iter_0.png'} (No space left on device)",
        f"error: cannot write {out / 'summary.json'} (No space left on device)",
    ]
    assert sorted(p.name for p in out.rglob("*.tmp")) == []
    assert not (out / "ok1").exists() and not (out / "ok2").exists()  # torn: half a PNG, removed
    assert json.loads((out / "ok0" / "result.json").read_text())["scores"][0]["pass_rate"] == 1.0
    before = json.loads((out / "summary.json").read_text())  # the copy written after ok0, intact
    assert (before["complete"], before["n_finished"], before["n_failed"]) == (False, 1, 0)

    monkeypatch.undo()  # room on the disk again: the same command resumes
    assert refine_in_process(f"data={data}", f"out={out}", "iterations=0") == 0
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["complete"], summary["n_finished"], summary["n_failed"]) == (True, 3, 0)
    assert [json.loads((out / i / "result.json").read_text())["id"] for i in ("ok0", "ok1", "ok2")] == [
        "ok0",
        "ok1",
        "ok2",
    ]


def test_tesseract_output_lost_to_a_full_disk_is_an_ocr_error_not_a_key_error(monkeypatch):
    """Tesseract writes its TSV into the temporary folder; on a full disk it exits 0 with the file
    empty, pytesseract parses that as {} and ``data["text"]`` raised ``KeyError: 'text'`` (the
    item's whole error line). It is now the OCR engine's failure, which judges and editors handle."""
    import pytesseract

    from rewards.text.ocr.ocr_read import ocr_lines
    from rewards.text.ocr.tesseract_lines import OCRError

    def tesseract_with_a_full_disk(input_filename, output_filename_base, extension, *args, **kwargs):
        Path(f"{output_filename_base}.{extension}").write_bytes(b"")

    monkeypatch.setenv("RUBRICLOOP_TESSERACT", "cli")  # the command's failure (the library writes no file)
    monkeypatch.setattr(pytesseract.pytesseract, "run_tesseract", tesseract_with_a_full_disk)
    with pytest.raises(OCRError, match=r"^tesseract failed: it wrote no output \(is the disk of .* full\?\)$"):
        ocr_lines(text_page("Q3 Revenue"), second_psm=None, scale=1.0)


def test_a_limit_reads_no_further_than_its_rows_and_shards_keep_their_seeds(tmp_path, monkeypatch, capsys):
    """Before: ``limit=2`` on a 100k-row file parsed every row (30 s, 492 MB) and reported the
    malformed last one (exit 1). Now the rows after the limit are never read; ``shard=`` still
    splits the limited items, each seeded by its index in the data."""
    import rewards.importers
    from refine.loop import RefineLoop
    from rewards.common.items import ItemError

    rows = good_rows(tmp_path, 4)
    with open(tmp_path / "data.jsonl", "w", encoding="utf-8") as f:
        for k in range(100_000 - 1):
            f.write(json.dumps(rows[k % 4] | {"id": f"r{k}"}) + "\n")
        f.write('{"id": "broken", "criteria": [\n')
    data = tmp_path / "data.jsonl"
    read = []
    real = rewards.importers._read_row
    monkeypatch.setattr(rewards.importers, "_read_row", lambda raw, where, b: read.append(where) or real(raw, where, b))
    seen = {}

    def record(self, item, index, item_dir, on_iteration=lambda: None):
        seen[shard][item.id] = index  # the index that seeds the item
        raise ItemError(f"item {item.id}: recorded")

    monkeypatch.setattr(RefineLoop, "refine_item", record)
    for shard, limit in ((None, 2), (None, 4), ("1/2", 4)):
        seen[shard], read[:] = {}, []
        out = tmp_path / f"out_{limit}_{str(shard).replace('/', '-')}"
        args = [f"data={data}", f"out={out}", f"limit={limit}", "iterations=0", *([f"shard={shard}"] if shard else [])]
        assert refine_in_process(*args) == 1  # the recorded items fail: nothing else does
        assert error_lines(capsys.readouterr().err) == [f"error: item {i}: recorded" for i in seen[shard]]
        assert read == [f"{data}:{n}" for n in range(1, limit + 1)]  # the bad last row is never read
    assert seen[None] == {"r0": 0, "r1": 1, "r2": 2, "r3": 3}
    assert seen["1/2"] == {"r1": 1, "r3": 3}


def _returns_within(fn, seconds: float = 10.0):
    """``fn()``'s value, or fail when it blocks longer than ``seconds`` (a daemon thread: a FIFO
    opened for reading with no writer would block forever)."""
    import threading

    box = []
    thread = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked (opened a FIFO?)"
    return box[0]


def test_fifos_where_a_rerun_looks_for_finished_files_are_not_opened(tmp_path):
    # issue 18 recheck: a FIFO at <out>/<item>/result.json hung refine; one at <out>/images/<name>.png,
    # eval's generate step
    from evaluation.generate import generated_for
    from refine.item_results import read_result

    os.mkfifo(tmp_path / "result.json")
    os.mkfifo(tmp_path / "1.png")
    assert _returns_within(lambda: read_result(tmp_path / "result.json")) is None  # redone
    assert _returns_within(lambda: generated_for(tmp_path / "1.png", "key")) is False  # made again


def test_a_write_that_fails_in_fsync_names_its_file(tmp_path, monkeypatch):
    # issue 18 recheck: a failed write() or fsync() raised an OSError without a file name, so eval's
    # error line named the out folder
    from rewards.common.run_folder import write_error, write_text

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as e:
        write_text(tmp_path / "summary_by_domain.csv", "a,b\r\n")
    assert (
        write_error(e.value, tmp_path) == f"cannot write {tmp_path / 'summary_by_domain.csv'} (No space left on device)"
    )
    assert list(tmp_path.iterdir()) == []
