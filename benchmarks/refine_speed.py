"""Benchmark: seconds of a refine iteration with incremental OCR re-reads against full re-reads.

Usage::

    python benchmarks/refine_speed.py                          # example, dev seeds 0-3, report seeds 1000-1003
    python benchmarks/refine_speed.py --dev 8 --report 8 --before --workers --out runs/refine_speed.json
    python benchmarks/refine_speed.py --sets example --default-threads   # tesseract's own OpenMP threads

Sets: the bundled example (``refine/example/``, ``rubricloop-refine``'s defaults: 8 items) and
documents of :mod:`documents.adversarial` (slides, charts, dashboards and posters with
wrong numbers, dates, words and cells; dev = seeds 0..n-1, used while building the incremental
read; report = seeds 1000.., only measured). Each set is refined (OCR judge, template writer,
text editor, ``--iterations`` edits) in the same process once per mode:

- ``full``: every new image is read whole (``judge.judges.0.incremental=false``; the same pixels
  are still read once: the editor reuses the judge's read);
- ``incremental``: an edited image is read again only where it changed (``rewards.text.ocr.ocr_cache``);
- ``before`` (``--before``): as before issue 22: no memo at all, every read whole (the judge and
  the editor each read every image; the strips a judge reads again are read every iteration),
  type matching and badge finding from scratch on every edit, and the ``tesseract`` command started for every read.

Every mode starts with no read and no type remembered; all but ``before`` read with the engine
``rewards.text.ocr.tesseract_engine`` picks (tesserocr in the process when it is installed).

Per mode it prints seconds per judge pass, per edit, per iteration (an edit and the judge pass
of its image) and per page read of an edited image (the part of that pass the incremental read
changes), the page reads by kind, and the ratio of incremental to full; then
whether the verdicts were identical: (a) every iteration's image of the incremental run judged
again with whole reads gives the run's verdicts, (b) both runs gave the same verdicts and images.
``--slide`` times one iteration of one 1280x720 slide (an adversarial slide scaled up). ``--workers``
runs ``rubricloop-refine`` on the example with ``workers=1`` and ``workers=2`` (skipped with a
message when the option does not exist). The 1-minute load average is printed beside each figure:
the machine is shared, and seconds at load 4 on 2 cores are about twice those at load 1.

Tesseract runs with ``OMP_THREAD_LIMIT=1`` unless ``--default-threads`` (its OpenMP threads spin
against each other on 2 cores: 3.5x slower, issue 22).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sets", nargs="+", default=["example", "dev", "report"], choices=["example", "dev", "report"])
    p.add_argument("--dev", type=int, default=4, help="adversarial dev documents (seeds 0..n-1)")
    p.add_argument("--report", type=int, default=4, help="adversarial report documents (seeds 1000..)")
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--before", action="store_true", help="also time the code before issue 22 (no memo)")
    p.add_argument("--workers", action="store_true", help="also time rubricloop-refine workers=1 vs workers=2")
    p.add_argument("--workers-limit", type=int, help="only the first N example items in the workers rows")
    p.add_argument("--slide", action="store_true", help="also time one iteration of a 1280x720 slide")
    p.add_argument("--default-threads", action="store_true", help="leave OMP_THREAD_LIMIT as it is")
    p.add_argument("--out", type=Path, help="write the figures as JSON here")
    return p.parse_args(argv)


def load() -> float:
    return round(os.getloadavg()[0], 2)


def example_items():
    from rewards.importers import load_run_items

    items, errors = load_run_items(ROOT / "refine/example/bizgeneval_text.jsonl")
    assert not errors, errors
    return items


def adversarial_items(seeds, folder: Path, size=None):
    """Refine items of the adversarial documents' erroneous pages (scaled to ``size`` when given)."""
    from PIL import Image

    from documents.adversarial import make_document, make_item

    items = []
    for seed in seeds:
        doc = make_document(seed)
        page = doc.erroneous if size is None else doc.erroneous.resize(size, Image.Resampling.LANCZOS)
        path = folder / f"{doc.id}.png"
        page.save(path)
        items.append(make_item(doc, path))
    return items


def cpu() -> float:
    """CPU seconds of this process and of its finished children (tesseract), user + system: the
    work done, which other jobs on a shared machine do not inflate as they do wall seconds."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(judge, editor) -> dict[str, list[tuple[float, float]]]:
    """Time every judge pass and every edit of ``judge`` and ``editor`` (their methods wrapped in
    place); the returned lists of (wall, CPU) seconds fill as the loop runs: "judge" (every pass),
    "after_edit" (the passes that judge an edited image) and "edit"."""
    record: dict[str, list[tuple[float, float]]] = {"judge": [], "after_edit": [], "edit": [], "read": []}
    judge_fn, edit_fn, read_fn, last = judge.judge, editor.edit, judge.read, {"edit": False}

    def read(*a, **kw):
        t, c = time.perf_counter(), cpu()
        out = read_fn(*a, **kw)
        if last["edit"]:
            record["read"].append((time.perf_counter() - t, cpu() - c))
        return out

    def judge_pass(*a, **kw):
        t, c = time.perf_counter(), cpu()
        out = judge_fn(*a, **kw)
        record["judge"].append((time.perf_counter() - t, cpu() - c))
        if last["edit"]:
            record["after_edit"].append(record["judge"][-1])
        last["edit"] = False
        return out

    def edit(*a, **kw):
        t, c = time.perf_counter(), cpu()
        out = edit_fn(*a, **kw)
        record["edit"].append((time.perf_counter() - t, cpu() - c))
        last["edit"] = True
        return out

    judge.judge, judge.read, editor.edit = judge_pass, read, edit
    return record


def no_memo():
    """Run as the code before issue 22 did; returns an undo: the read memos read every image
    whole, type matching remembers nothing, and tesseract runs as a command per read."""
    from refine.editors.text import placement, type_match
    from rewards.text.ocr import ocr_cache, tesseract_engine
    from rewards.text.ocr.ocr_read import read_page

    saved = ocr_cache.ReadMemo.lines, type_match.MATCH_MEMO, type_match.RENDER_MEMO, placement.BADGE_MEMO
    engine = os.environ.get(tesseract_engine.ENGINE_ENV)

    def lines(self, image, settings, incremental=True):
        self.counts["whole"] += 1
        return list(read_page(image.convert("RGB"), settings).lines)

    def undo():
        ocr_cache.ReadMemo.lines, type_match.MATCH_MEMO, type_match.RENDER_MEMO, placement.BADGE_MEMO = saved
        if engine is None:
            os.environ.pop(tesseract_engine.ENGINE_ENV, None)
        else:
            os.environ[tesseract_engine.ENGINE_ENV] = engine

    ocr_cache.ReadMemo.lines = lines
    type_match.MATCH_MEMO = type_match.RENDER_MEMO = placement.BADGE_MEMO = 0
    os.environ[tesseract_engine.ENGINE_ENV] = "cli"
    return undo


def refine(items, out: Path, mode: str, iterations: int) -> dict:
    """Refine ``items`` into ``out`` in ``mode``; the figures."""
    from refine.editors.text import TextEditor
    from refine.editors.text.placement import forget_badges
    from refine.editors.text.type_match import forget_types
    from refine.loop import RefineLoop
    from refine.writers.template import TemplateWriter
    from rewards.judges.ocr import OCRJudge
    from rewards.text.ocr.ocr_cache import PAGE_READS, PART_READS, forget_reads

    forget_reads()  # each mode starts with nothing remembered
    forget_types()
    forget_badges()
    undo = no_memo() if mode == "before" else (lambda: None)
    incremental = mode == "incremental"
    judge, editor = OCRJudge(incremental=incremental), TextEditor(incremental=incremental)
    record = timed(judge, editor)
    loop = RefineLoop(judge, TemplateWriter(), editor, iterations=iterations)
    start, load0 = time.perf_counter(), load()
    try:
        loop.run(items, out)
    finally:
        undo()
    total = time.perf_counter() - start
    passes, edits, after, reads = record["judge"], record["edit"], record["after_edit"], record["read"]

    def per(rows, k, n):
        return round(sum(r[k] for r in rows) / max(1, n), 2)

    return {
        "mode": mode,
        "items": len(items),
        "seconds": round(total, 1),
        "judge_passes": len(passes),
        "edits": len(edits),
        # wall seconds, and CPU seconds (this process + tesseract) beside them
        "s_per_judge_pass": per(passes, 0, len(passes)),
        "s_per_edit": per(edits, 0, len(edits)),
        # an iteration: an edit and the judge pass of the image it made
        "s_per_iteration": round(per(edits, 0, len(edits)) + per(after, 0, len(edits)), 2),
        "cpu_per_judge_pass": per(passes, 1, len(passes)),
        "cpu_per_edit": per(edits, 1, len(edits)),
        "cpu_per_iteration": round(per(edits, 1, len(edits)) + per(after, 1, len(edits)), 2),
        # the judge's page read of an edited image (within its pass)
        "s_per_read": per(reads, 0, len(reads)),
        "cpu_per_read": per(reads, 1, len(reads)),
        "s_per_image": round(total / max(1, len(items)), 1),
        "page_reads": dict(PAGE_READS.counts),
        "part_reads": dict(PART_READS.counts),
        "load": [load0, load()],
    }


def verdicts(out: Path, item) -> dict[int, dict[str, str]]:
    from refine.item_results import item_dir_name

    by: dict[int, dict[str, str]] = {}
    path = out / item_dir_name(item.id) / "verdicts.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        by.setdefault(row["iteration"], {})[row["check"]] = row["answer"]
    return by


def rejudged_whole(out: Path, items) -> tuple[int, list[str]]:
    """Every iteration image of the run in ``out`` judged again with whole reads: (iterations
    compared, one line per iteration whose verdicts differ from the run's)."""
    from PIL import Image

    from refine.item_results import item_dir_name
    from rewards.judges.ocr import OCRJudge
    from rewards.text.ocr.ocr_cache import forget_reads

    judge, n, diffs = OCRJudge(incremental=False), 0, []
    for item in items:
        for k, run in sorted(verdicts(out, item).items()):
            forget_reads()
            with Image.open(out / item_dir_name(item.id) / f"iter_{k}.png") as im:
                [vs] = judge.judge([im.convert("RGB")], [item.prompt], [item.rubric.checks])
            whole = {v.check_id: v.answer for v in vs}
            n += 1
            if whole != run:
                diffs.append(
                    f"{item.id} iteration {k}: "
                    + ", ".join(f"{c} {run[c]}->{whole.get(c)}" for c in run if run[c] != whole.get(c))
                )
    return n, diffs


def same_runs(a: Path, b: Path, items) -> bool:
    """Both runs gave every item the same verdicts and the same images."""
    from refine.item_results import item_dir_name

    for item in items:
        if verdicts(a, item) != verdicts(b, item):
            return False
        da, db = a / item_dir_name(item.id), b / item_dir_name(item.id)
        if sorted(p.name for p in da.glob("iter_*.png")) != sorted(p.name for p in db.glob("iter_*.png")):
            return False
        if any((da / p.name).read_bytes() != (db / p.name).read_bytes() for p in da.glob("iter_*.png")):
            return False
    return True


def measure_set(name: str, items, folder: Path, args) -> dict:
    modes = ["full", "incremental"] + ["before"] * args.before
    rows = {m: refine(items, folder / m, m, args.iterations) for m in modes}
    n, diffs = rejudged_whole(folder / "incremental", items)
    inc, full = rows["incremental"], rows["full"]
    result = {
        "set": name,
        "rows": rows,
        "iteration_ratio": round(inc["s_per_iteration"] / max(1e-9, full["s_per_iteration"]), 2),
        "iteration_cpu_ratio": round(inc["cpu_per_iteration"] / max(1e-9, full["cpu_per_iteration"]), 2),
        "read_ratio": round(inc["s_per_read"] / max(1e-9, full["s_per_read"]), 2),
        "read_cpu_ratio": round(inc["cpu_per_read"] / max(1e-9, full["cpu_per_read"]), 2),
        "iterations_rejudged": n,
        "iterations_differing": diffs,
        "runs_identical": same_runs(folder / "incremental", folder / "full", items),
    }
    if args.before:
        before = rows["before"]
        result["iteration_ratio_vs_before"] = round(inc["s_per_iteration"] / max(1e-9, before["s_per_iteration"]), 2)
        result["iteration_cpu_ratio_vs_before"] = round(
            inc["cpu_per_iteration"] / max(1e-9, before["cpu_per_iteration"]), 2
        )
    return result


def print_set(r: dict) -> None:
    print(f"\n== {r['set']} ({r['rows']['full']['items']} images); seconds wall / CPU (this process + tesseract)")
    print(
        f"{'mode':<12}{'judge pass':>12}{'edit':>12}{'iteration':>12}{'page read':>12}{'s/image':>9}"
        "  page reads (same/incremental/whole)  load"
    )
    for m, row in r["rows"].items():
        reads = "/".join(str(row["page_reads"][k]) for k in ("same", "incremental", "whole"))
        keys = ("per_judge_pass", "per_edit", "per_iteration", "per_read")
        cells = [f"{row['s_' + k]}/{row['cpu_' + k]}" for k in keys]
        print(
            f"{m:<12}{cells[0]:>12}{cells[1]:>12}{cells[2]:>12}{cells[3]:>12}{row['s_per_image']:>9}  "
            f"{reads:<36} {row['load'][0]}-{row['load'][1]}"
        )
    print(f"incremental / full per iteration: wall {r['iteration_ratio']}, CPU {r['iteration_cpu_ratio']}")
    print(f"incremental / full per page read of an edited image: wall {r['read_ratio']}, CPU {r['read_cpu_ratio']}")
    if "iteration_ratio_vs_before" in r:
        print(
            f"incremental / before per iteration: wall {r['iteration_ratio_vs_before']}, "
            f"CPU {r['iteration_cpu_ratio_vs_before']}"
        )
    same = "identical" if not r["iterations_differing"] else f"{len(r['iterations_differing'])} differ"
    print(
        "verdicts of the incremental run vs whole re-reads of its images: "
        f"{r['iterations_rejudged']} iterations, {same}"
    )
    for d in r["iterations_differing"]:
        print(f"  {d}")
    print(f"incremental and full runs gave the same verdicts and images: {r['runs_identical']}")


def slide_iteration(folder: Path) -> dict:
    """One iteration (judge, edit, judge) of one 1280x720 slide, incremental, seconds by step."""
    items = adversarial_items([1000], folder, size=(1280, 720))  # seed % 4 == 0: a slide
    return refine(items, folder / "slide", "incremental", 1)


def workers_rows(folder: Path, limit: int | None) -> dict | str:
    import yaml

    if "workers" not in (yaml.safe_load((ROOT / "conf/refine.yaml").read_text()) or {}):
        return "skipped: rubricloop-refine has no workers= option yet"
    out = {}
    for n in (1, 2):
        t, load0 = time.perf_counter(), load()
        cmd = [
            sys.executable,
            "-m",
            "refine.cli",
            f"out={folder / f'workers{n}'}",
            f"workers={n}",
            "wandb.mode=disabled",
        ] + ([f"limit={limit}"] if limit else [])
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            return f"skipped: workers={n} failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
        out[n] = {"seconds": round(time.perf_counter() - t, 1), "load": [load0, load()]}
    out["speedup"] = round(out[1]["seconds"] / out[2]["seconds"], 2)
    return out


def main(argv=None) -> int:
    args = _args(argv)
    if not args.default_threads:
        os.environ["OMP_THREAD_LIMIT"] = "1"
    print(f"OMP_THREAD_LIMIT={os.environ.get('OMP_THREAD_LIMIT', 'unset')}  cores={os.cpu_count()}  load={load()}")
    from documents.adversarial import split_seeds

    results = {"sets": [], "omp_thread_limit": os.environ.get("OMP_THREAD_LIMIT")}
    with tempfile.TemporaryDirectory(prefix="refine_speed_") as tmp:
        tmp = Path(tmp)
        for name in args.sets:
            folder = tmp / name
            folder.mkdir()
            if name == "example":
                items = example_items()
            else:
                items = adversarial_items(split_seeds(name, getattr(args, name)), folder)
            r = measure_set(name, items, folder, args)
            print_set(r)
            results["sets"].append(r)
        if args.slide:
            s = slide_iteration(tmp)
            print(
                f"\n1280x720 slide, one iteration (edit + judge pass), incremental: {s['s_per_iteration']} s "
                f"(judge pass {s['s_per_judge_pass']} s, edit {s['s_per_edit']} s; load {s['load'][0]}-{s['load'][1]})"
            )
            results["slide"] = s
        if args.workers:
            w = workers_rows(tmp, args.workers_limit)
            first = f" (first {args.workers_limit} items)" if args.workers_limit else ""
            if isinstance(w, str):
                print(f"\nworkers: {w}")
            else:
                print(
                    f"\nrubricloop-refine on the example{first}: "
                    f"workers=1 {w[1]['seconds']} s (load {w[1]['load'][0]}), "
                    f"workers=2 {w[2]['seconds']} s (load {w[2]['load'][0]}): speed-up {w['speedup']}x"
                )
            results["workers"] = w
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
