"""``rubricloop-eval merge <out>``: combine the shard folders of a sharded evaluation and score them.

Each ``rubricloop-eval ... shard=i/n out=<out>`` job wrote ``<out>/shard_i-of-n/`` with its
``run.json`` (settings), ``shard.json`` (its item ids), ``images/`` and ``results/``. Merge
checks that the n shards share the settings, that all n are present, and that every item of the
data was covered by exactly one shard and has its result file; then it copies the images and
result files into ``<out>/images`` and ``<out>/results`` (TechImage: one ``results.json``
with every shard's entries) and the shards' verdict records into ``<out>/verdicts.jsonl``, and
scores them as a plain run (tables, ``scores.json``, report).

An item whose result file was made from other data than the data (or ``images=`` file) now
(its fingerprint in the shard's ``fingerprints.jsonl`` differs: the row was edited after the
shard ran) is refused, one line per item: run that shard again.

Exit status: 0 merged; 1 an item is missing, duplicated, has no result file or a stale one
(nothing is merged), scoring found bad files, or a file could not be written (disk full: one
line; each file is written whole or not at all); 2 no shard folders, settings that differ, a
shard file that is not JSON (or not a regular file), an ``<out>`` that cannot be written (read-only),
or another merge or run holding ``<out>/.lock``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from evaluation.score import RUN_FILE, SHARD_FILE, score_and_write
from rewards.rubric import RubricError

_SHARD = re.compile(r"^shard_(\d+)-of-(\d+)$")


def find_shards(out: Path) -> dict[int, tuple[int, Path]]:
    """``{i: (n, folder)}`` for every ``<out>/shard_i-of-n`` folder."""
    found = {}
    for p in sorted(out.iterdir()) if out.is_dir() else []:
        m = _SHARD.match(p.name)
        if m and p.is_dir():
            found[int(m.group(1))] = (int(m.group(2)), p)
    return found


def _flat(settings: Any, prefix: str = "") -> dict[str, Any]:
    """``{"judge.judges.0.mode": ..., ...}``: a ``run.json`` object with nested keys dotted."""
    if isinstance(settings, dict):
        items = settings.items()
    elif isinstance(settings, list) and any(isinstance(v, (dict, list)) for v in settings):
        items = enumerate(settings)
    else:
        return {prefix: settings}
    flat: dict[str, Any] = {}
    for k, v in items:
        flat.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
    return flat


def settings_differences(names: list[str], counts: list[int], settings: list[Any]) -> str:
    """The settings (dotted keys of ``run.json``) and the shard count that differ between shards,
    each with every shard's value: ``"alpha: shard_0-of-2 0.2, shard_1-of-2 0.1; ..."`` (a value
    cut to 60 characters; ``(none)`` where a shard lacks the key). ``names``, ``counts`` and
    ``settings`` are per shard, in the same order."""
    parts = []
    if len(set(counts)) > 1:
        parts.append("shard count: " + ", ".join(f"{n} {c}" for n, c in zip(names, counts)))
    flats = [_flat(s) for s in settings]
    keys = list(dict.fromkeys(k for f in flats for k in f))
    missing = object()
    for key in keys:
        values = [f.get(key, missing) for f in flats]
        if any(v != values[0] for v in values):
            shown = ["(none)" if v is missing else json.dumps(v, ensure_ascii=False)[:60] for v in values]
            parts.append(f"{key}: " + ", ".join(f"{n} {v}" for n, v in zip(names, shown)))
    return "; ".join(parts[:8]) + (f"; and {len(parts) - 8} more" if len(parts) > 8 else "")


def check_coverage(data_ids: list[str], shard_items: dict[int, list[str]]) -> list[str]:
    """One problem line per item not covered exactly once (missing, in two shards, unknown)."""
    seen: dict[str, list[int]] = {}
    for i, ids in sorted(shard_items.items()):
        for item_id in ids:
            seen.setdefault(item_id, []).append(i)
    problems = [f"item {i} is in no shard" for i in data_ids if i not in seen]
    problems += [f"item {i} is in shards {s}" for i, s in seen.items() if len(s) > 1]
    known = set(data_ids)
    problems += [f"item {i} (shard {s[0]}) is not in the data" for i, s in seen.items() if i not in known]
    return problems


def copy_shard_files(out: Path, shards: dict[int, tuple[int, Path]], benchmark: str) -> None:
    """Copy every shard's ``images/`` and ``results/`` into ``<out>/images`` and ``<out>/results``
    (TechImage: the shards' ``results.json`` entries go into one ``<out>/results/results.json``)."""
    for _, folder in sorted(shards.values(), key=lambda v: v[1].name):
        for sub in ("images", "results"):
            src = folder / sub
            if not src.is_dir():
                continue
            for f in src.rglob("*"):
                if f.is_file() and not (benchmark == "techimage" and f.name == "results.json"):
                    target = out / sub / f.relative_to(src)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    tmp = target.with_name(target.name + ".tmp")
                    try:  # a full disk leaves the old copy or none, never half of one
                        shutil.copy2(f, tmp)
                        os.replace(tmp, target)
                    except BaseException:
                        tmp.unlink(missing_ok=True)
                        raise
    if benchmark == "techimage":
        from rewards.scorers.techimage_results import upsert_results

        for _, folder in shards.values():
            upsert_results(
                out / "results", json.loads((folder / "results" / "results.json").read_text(encoding="utf-8"))
            )


def merge_verdicts(out: Path, shards: dict[int, tuple[int, Path]]) -> None:
    """Write ``<out>/verdicts.jsonl``: every shard's verdict records (``rewards.rubric.verdict_record``),
    shard 0 first, each shard's lines as it kept them (only its items' current lines; a shard ends
    by pruning the rest). Written whole or not at all; no shard with a verdicts file: none written."""
    from evaluation.generate import VERDICTS
    from rewards.common.run_folder import write_text

    parts = [folder / VERDICTS for _, (_, folder) in sorted(shards.items()) if (folder / VERDICTS).is_file()]
    if not parts:
        return
    text = "".join(
        line + "\n" for p in parts for line in p.read_text(encoding="utf-8", errors="replace").splitlines() if line
    )
    write_text(out / VERDICTS, text)


def stale_items(
    benchmark: str, items: list, run: dict[str, Any], owner: dict[str, Path], refused: dict[str, str]
) -> list[str]:
    """One line per item whose result file in its shard was made from other data than the data
    (and images) now: its fingerprint (``rewards.fingerprint.item_fingerprint`` of the row, the
    image judged and the judge's settings, as ``evaluation.generate`` records it in the shard's
    ``fingerprints.jsonl``) differs, or the shard recorded none.

    Raises:
        ValueError: a shard's ``fingerprints.jsonl`` is not a regular file (one line).
    """
    from evaluation.generate import FINGERPRINTS, image_file, read_fingerprints, source_image
    from rewards.common.images import ImageError
    from rewards.fingerprint import file_digest, item_fingerprint

    recorded = {folder: read_fingerprints(folder / FINGERPRINTS) for folder in set(owner.values())}
    images = Path(run["images"]) if run.get("images") else None
    problems = []
    for it in items:
        if it.id not in owner or it.id in refused:
            continue
        folder = owner[it.id]
        name = image_file(benchmark, it)
        try:  # the image the shard judged: the images= file it copied, else the one it generated
            rows_dir = Path(run["data"]).parent if run.get("data") else None
            only = bool(run.get("images_only"))
            source = source_image(images, name, it, rows_dir, only) if images is not None else folder / "images" / name
        except ImageError:
            source = None
        fingerprint = item_fingerprint(it, {"judge": run.get("judge"), "image": file_digest(source)}, image=False)
        if recorded[folder].get(it.id) != fingerprint:
            problems.append(f"item {it.id}: its result in {folder} was made from other data; run that shard again")
    return problems


def merge(out: Path, report: bool = True) -> int:
    """Merge and score; returns the exit status (see the module docstring). One merge at a time
    per ``out`` (``<out>/.lock``, as a run into ``out``; a second exits 2 in one line)."""
    from rewards.common.run_folder import lock_out

    if not out.is_dir():
        print(f"error: {out} is not a folder", file=sys.stderr)
        return 2
    try:
        lock = lock_out(out, command="rubricloop-eval")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with lock:
        return _merge(out, report)


def _read_json(path: Path) -> Any:
    """A shard's JSON file. Raises ValueError: one line naming the file (unreadable, not JSON,
    not a regular file: a FIFO is never opened)."""
    if not path.is_file():
        what = "is missing" if not os.path.lexists(path) else "is not a regular file"
        raise ValueError(f"{path}: {what}; run that shard again")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: cannot be read as JSON ({type(e).__name__}); run that shard again") from None


def _coverage_problems(benchmark: str, items: list, shards: dict, shard_items: dict, refused: dict):
    """Items covered by no shard or by two (:func:`check_coverage`), and covered items with no
    result file (but the ``refused`` ones). Returns ``(problems, owner)``: each item's shard folder."""
    from evaluation.generate import result_done

    problems = check_coverage([it.id for it in items], shard_items)
    owner = {item_id: shards[i][1] for i, ids in shard_items.items() for item_id in ids}
    problems += [
        f"item {it.id}: no result file in {owner[it.id] / 'results'}"
        for it in items
        if it.id in owner and it.id not in refused and not result_done(benchmark, owner[it.id] / "results", it)
    ]
    return problems, owner


def _write_merged(out: Path, n: int, shards: dict, shard_items: dict, run: dict, items: list, refused, report) -> int:
    """Copy the ``n`` shards' files into ``out``, score them as one run (``scores.json``; the report
    when ``report``) and say what was merged. Returns the exit status (module docstring)."""
    from rewards.common.run_folder import write_error, write_json

    benchmark, data = run["benchmark"], Path(run["data"])
    results = out / "results"
    try:
        copy_shard_files(out, shards, benchmark)
        merge_verdicts(out, shards)
        write_json(out / RUN_FILE, run, ensure_ascii=True)
        try:
            summary, errors = score_and_write(
                benchmark, data, results, out, run.get("alpha", 0.1), {it.id for it in items}, run.get("limit")
            )
        except RubricError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        summary["shards"] = {"n": n, "items_per_shard": {str(i): len(ids) for i, ids in sorted(shard_items.items())}}
        write_json(out / "scores.json", summary)
        errors += [e for e in refused.values() if e not in errors]
        for err in errors:
            print(f"error: {err}", file=sys.stderr)
        if report:
            from evaluation.report import write_report

            print(f"report: {write_report(out)}")
    except OSError as e:  # disk full: every file is written whole or not at all
        print(f"error: {write_error(e, out)}", file=sys.stderr)
        return 1
    print(f"{benchmark}: merged {n} shards, {len(items)} items, each covered once; wrote {out}")
    return 1 if errors else 0


def _merge(out: Path, report: bool) -> int:
    from evaluation.generate import load_benchmark_items, name_problems

    shards = find_shards(out)
    if not shards:
        print(f"error: {out} holds no shard_<i>-of-<n> folders", file=sys.stderr)
        return 2
    ns = {n for n, _ in shards.values()}
    try:
        settings = [_read_json(p / RUN_FILE) for _, p in shards.values()]
        shard_items = {i: _read_json(p / SHARD_FILE)["items"] for i, (_, p) in shards.items()}
    except (ValueError, KeyError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if len(ns) > 1 or any(s != settings[0] for s in settings):
        names = [p.name for _, p in shards.values()]
        print(
            f"error: the shards in {out} were made with different settings: "
            f"{settings_differences(names, [n for n, _ in shards.values()], settings)}; "
            "run the shards again with the same settings",
            file=sys.stderr,
        )
        return 2
    n = ns.pop()
    absent = [i for i in range(n) if i not in shards]
    if absent:
        print(f"error: {out}: shard(s) {', '.join(f'{i}/{n}' for i in absent)} missing", file=sys.stderr)
        return 1
    run = settings[0]
    benchmark, data = run["benchmark"], Path(run["data"])
    try:
        items, _ = load_benchmark_items(benchmark, data, run.get("limit"))
    except RubricError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    refused = name_problems(benchmark, items, out / "results")  # no shard wrote them; the scorer reports them
    problems, owner = _coverage_problems(benchmark, items, shards, shard_items, refused)
    if not problems:  # only items with a result file: was it made from the data as it is now?
        try:
            problems += stale_items(benchmark, items, run, owner, refused)
        except ValueError as e:  # a shard's fingerprints.jsonl that is not a regular file
            print(f"error: {e}", file=sys.stderr)
            return 2
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        print(f"error: {len(problems)} coverage problem(s); nothing merged", file=sys.stderr)
        return 1
    return _write_merged(out, n, shards, shard_items, run, items, refused, report)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="rubricloop-eval merge", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the out=... folder the shards were written under")
    parser.add_argument("--no-report", action="store_true", help="do not write report.html")
    args = parser.parse_args(argv)
    return merge(args.out, report=not args.no_report)
