"""``rubricloop-judge``: judge existing images against their rows' rubrics, nothing else.

    rubricloop-judge data=rubrics.jsonl out=runs/judge                  # offline OCR judge
    rubricloop-judge data=bizgeneval.jsonl out=runs/judge benchmark=bizgeneval judge=ocr_vlm

Each row names its image in ``image`` (relative to the JSONL). Writes into ``out``:

    verdicts.jsonl     one line per check: the verdict record (``rewards.rubric.verdict_record``:
                       item_id, check (BizGenEval: the 1-based question index), question, tag,
                       form, answer (yes/no/withheld), p_yes (null when the judge has none),
                       judge, reason, evidence, call_failed), then fingerprint (the item's
                       ``rewards.fingerprint.item_fingerprint``: what the verdict was made from)
    summary.json       coverage (decided / withheld, per question form, per tag, per benchmark
                       dimension), mean item scores (rewards.scorers.item_scores), the benchmark's
                       scores, errors, and ``complete`` (false after Ctrl-C)
    results/<name>.json, summary_by_domain.csv, summary_by_dimension.csv
                       with ``benchmark=bizgeneval``: the official per-image result files
                       (rewards.scorers.bizgeneval_results) and the official summary tables
    run.json           the settings; a rerun with others is refused

Resume: an item whose every check has a line in ``verdicts.jsonl`` with the item's current
fingerprint is not judged again. Lines of an item a killed run left half-written, and lines made
from other data (the row's rubric or prompt edited, its image replaced, the judge's settings; or
written before fingerprints) are dropped and the item is judged again; the run says how many
items it redoes because their data changed.

A judge that is down is no answer: an item on which a judge failed as calls on at least
``judge_outage`` of the checks sent to it (default 1.0: all of them; ``rewards.judges.outage``)
fails, its verdicts are not written or scored, and a rerun judges it again.

Exit status as ``rubricloop-refine``: 0 when every row and item was judged, 1 when any row or
image failed (one ``error:`` line each naming file:line or the item; the others are judged), 2
for an option error, a ``data`` file that cannot be read, is not a regular file (a FIFO) or holds
no rows, an unusable ``out``, one another live run holds or whose ``verdicts.jsonl`` is not a
regular file, 130 on Ctrl-C (judged items are kept). ``limit=N`` reads no further in ``data``
than its first N items.

With ``benchmark=bizgeneval`` an item whose official result file name is not a plain file name
(``results/.json``) or is an earlier row's too (``a/slide.png``, ``b/slide.png``) fails in one
line naming it and is not judged, as in ``rubricloop-eval``: the summary and its CSVs count only
items with their own result file, so rescoring ``results/`` with ``rubricloop-eval`` gives the
same CSVs.

Hydra itself writes nothing (``conf/judge_run.yaml``): an option error leaves no ``out``
behind. The run writes ``<out>/.hydra/``, ``<out>/judge.log`` and keeps temporary files
(tesseract's) in ``<out>/.tmp``, removed at the end.
"""

from __future__ import annotations

import json
import stat
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import hydra
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from rewards.common.components import build_component
from rewards.common.debug_preset import exit_on_foreign_preset
from rewards.common.files import file_kind
from rewards.common.items import ItemError, load_item_image
from rewards.common.one_line import one_line
from rewards.common.run_folder import (
    SettingsError,
    check_settings,
    discard,
    lock_out,
    prepare_out,
    run_files,
    write_error,
    write_json,
)
from rewards.common.task import run_console_script, task_wrapper
from rewards.common.threads import limit_ocr_threads
from rewards.fingerprint import item_fingerprint
from rewards.importers import load_run_items
from rewards.judges.cache import judge_settings
from rewards.judges.outage import judges_down
from rewards.rubric import Check, Item, Verdict, record_verdict, verdict_record
from rewards.scorers.bizgeneval import score_bizgeneval
from rewards.scorers.bizgeneval_results import (
    plain_file_name,
    result_filename,
    result_name_problems,
    write_result_file,
    write_summary_csvs,
)
from rewards.scorers.item_scores import score_item
from rewards.text.ocr.ocr_cache import whole_reads_only

BENCHMARKS = (None, "bizgeneval")
VERDICTS = "verdicts.jsonl"


def check_options(cfg: DictConfig) -> None:
    """Validate the options. Raises ValueError with one line naming the option."""
    missing = [k for k in ("data", "out") if OmegaConf.is_missing(cfg, k) or cfg.get(k) in (None, "")]
    if missing:
        raise ValueError(f"missing required argument(s): {' '.join(f'{k}=...' for k in missing)}")
    if cfg.benchmark not in BENCHMARKS:
        raise ValueError(f"benchmark must be one of {[b for b in BENCHMARKS if b]} or null, got {cfg.benchmark!r}")
    if cfg.limit is not None and (not isinstance(cfg.limit, int) or isinstance(cfg.limit, bool) or cfg.limit < 1):
        raise ValueError(f"limit must be an integer >= 1 or null, got {cfg.limit!r}")
    if not isinstance(cfg.alpha, (int, float)) or isinstance(cfg.alpha, bool) or not 0 < cfg.alpha <= 1:
        raise ValueError(f"alpha must be a number in (0, 1], got {cfg.alpha!r}")
    outage = cfg.judge_outage
    if not isinstance(outage, (int, float)) or isinstance(outage, bool) or not 0 < outage <= 1:
        raise ValueError(f"judge_outage must be a number in (0, 1], got {outage!r}")
    if Path(cfg.out).exists() and not Path(cfg.out).is_dir():
        raise ValueError(f"out={cfg.out}: is an existing file, not a folder")


def verdict_line(item: Item, check: Check, v: Verdict, fingerprint: str | None = None) -> dict[str, Any]:
    """One line of ``verdicts.jsonl``: the shared record (``rewards.rubric.verdict_record``) plus
    the item's ``fingerprint`` (:func:`fingerprints`; None = no field)."""
    return verdict_record(item, check, v, **({"fingerprint": fingerprint} if fingerprint is not None else {}))


def fingerprints(items: list[Item], judge_cfg: dict[str, Any]) -> dict[str, str]:
    """Item id -> what its verdicts are made from (``rewards.fingerprint.item_fingerprint``): its
    prompt, rubric and image bytes, and the judge's config (without its verdict cache)."""
    settings = {"judge": judge_settings(judge_cfg)}
    return {it.id: item_fingerprint(it, settings) for it in items}


def read_done(path: Path, items: list[Item], prints: dict[str, str]) -> tuple[dict[str, dict[str, Verdict]], int]:
    """The verdicts of the items ``path`` holds a line for every check of, each line made from
    the item as it is now (its ``fingerprint`` is the item's in ``prints``), and how many items
    of ``items`` have lines made from other data (edited since, or written before fingerprints).
    Rewrites ``path`` without the lines of other items (half-written by a killed run, made from
    other data, or no longer in the data). ``path`` is a regular file or absent
    (:func:`check_verdicts_file`)."""
    if not path.exists():
        return {}, 0
    by_item: dict[str, dict[str, Verdict]] = defaultdict(dict)
    stale = set()
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            d = json.loads(raw)
            item_id = str(d["item_id"])
            if d.get("fingerprint") != prints.get(item_id):
                stale.add(item_id)
                continue
            v = record_verdict(d)
            by_item[item_id][v.check_id] = v
        except (ValueError, KeyError, TypeError):
            continue  # the torn last line of a killed run
    done = {
        it.id: by_item[it.id]
        for it in items
        if it.id in by_item and set(by_item[it.id]) == {c.id for c in it.rubric.checks}
    }
    keep = [
        json.dumps(verdict_line(it, c, done[it.id][c.id], prints[it.id]), ensure_ascii=False)
        for it in items
        if it.id in done
        for c in it.rubric.checks
    ]
    tmp = path.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(line + "\n" for line in keep), encoding="utf-8")
    tmp.replace(path)
    return done, sum(it.id in stale and it.id not in done for it in items)


def check_verdicts_file(out: Path) -> None:
    """Refuse an ``<out>/verdicts.jsonl`` that exists and is not a regular file (links followed),
    from ``stat`` alone: reading a FIFO with no writer (or appending to one with no reader) blocks
    for ever, a folder or a device holds no verdicts.

    Raises:
        ValueError: one line naming the file.
    """
    path = out / VERDICTS
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if path.is_symlink():
            raise ValueError(f"{path}: a dangling link, not a regular file; remove it or use another out=") from None
        return
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror or type(e).__name__}); use another out=") from None
    if not stat.S_ISREG(mode):
        kind = file_kind(mode, "not a regular file")
        raise ValueError(f"{path}: {kind}, not a regular file; remove it or use another out=")


def judge_item(judge, item: Item) -> dict[str, Verdict]:
    """Verdicts for every check of ``item`` on its image. Raises ItemError (no image, bad image)."""
    if item.image is None:
        raise ItemError(f"item {item.id}: no 'image' field (rubricloop-judge judges existing images)")
    image = load_item_image(item.image, item.id)
    [verdicts] = judge.judge([image], [item.prompt], [item.rubric.checks])
    got = {v.check_id: v for v in verdicts}
    return {
        c.id: got.get(c.id) or Verdict(c.id, "withheld", "loop", "judge returned no verdict")
        for c in item.rubric.checks
    }


def _tally(groups: dict[str, Counter]) -> dict[str, dict[str, Any]]:
    out = {}
    for key, c in sorted(groups.items()):
        checks = c["yes"] + c["no"] + c["withheld"]
        out[key] = {
            "checks": checks,
            "decided": c["yes"] + c["no"],
            "withheld": c["withheld"],
            "yes": c["yes"],
            "no": c["no"],
            "coverage": (c["yes"] + c["no"]) / checks if checks else 0.0,
        }
    return out


def summarize(
    results: list[tuple[Item, dict[str, Verdict]]],
    errors: list[str],
    n_items: int,
    benchmark: str | None,
    alpha: float,
    complete: bool,
) -> dict[str, Any]:
    """The run summary: coverage overall and per form / tag / dimension, withheld reasons, mean
    item scores over the judged items, the benchmark's scores, and the errors."""
    by_form, by_tag, by_dim, reasons = defaultdict(Counter), defaultdict(Counter), defaultdict(Counter), Counter()
    total, text_fallback, unanswered = Counter(), 0, 0
    for item, verdicts in results:
        for c in item.rubric.checks:
            v = verdicts[c.id]
            for groups, key in (
                (by_form, c.form),
                (by_tag, c.tag or "-"),
                (by_dim, str(item.meta.get("dimension", "-"))),
            ):
                groups[key][v.answer] += 1
            total[v.answer] += 1
            text_fallback += (v.evidence or {}).get("p_yes_source") == "text"
            unanswered += bool((v.evidence or {}).get("unanswered_in_reply"))
            if v.answer == "withheld":
                reasons[v.reason[:160]] += 1
    means = {}
    if results:
        per_item = [score_item(item, verdicts) for item, verdicts in results]
        means = {k: sum(s[k] for s in per_item) / len(per_item) for k in per_item[0]}
    scores: dict[str, Any] = {"mean_item_scores": means}
    if benchmark == "bizgeneval":
        scores["bizgeneval"] = score_bizgeneval(results, alpha=alpha)
    return {
        "complete": complete,
        "n_items": n_items,
        "n_judged": len(results),
        "n_failed": len(errors),
        "coverage": _tally({"all": total})["all"],
        "by_form": _tally(by_form),
        "by_tag": _tally(by_tag),
        "by_dimension": _tally(by_dim),
        "withheld_reasons": dict(reasons.most_common(10)),
        # mode=p_yes on a server that returns no logprobs: these verdicts are hard answers from the text
        "p_yes_from_text": text_fallback,
        # withheld: the judge's reply answered other checks of the item but not these (rewards.judges.vlm)
        "unanswered_in_reply": unanswered,
        "scores": scores,
        "errors": errors,
    }


def print_summary(summary: dict[str, Any], out: Path) -> None:
    cov = summary["coverage"]
    print(f"\n{summary['n_judged']} of {summary['n_items']} items judged, {summary['n_failed']} failed")
    print(
        f"checks decided {cov['decided']} of {cov['checks']} ({cov['coverage']:.1%}): "
        f"yes {cov['yes']}, no {cov['no']}, withheld {cov['withheld']}"
    )
    for title, key in (("dimension", "by_dimension"), ("form", "by_form")):
        if len(summary[key]) > 1 or title == "form":
            print(f"{title:<14}{'checks':>8}{'decided':>9}{'coverage':>10}")
            for k, t in summary[key].items():
                print(f"{k:<14}{t['checks']:>8}{t['decided']:>9}{t['coverage']:>10.3f}")
    if summary.get("p_yes_from_text"):
        print(
            f"p_yes: {summary['p_yes_from_text']} verdicts are hard answers from the reply's text: the server "
            "returned no logprobs (judge.judges.N.require_logprobs=true makes that an error)"
        )
    if summary.get("unanswered_in_reply"):
        print(
            f"{summary['unanswered_in_reply']} checks withheld because the judge's reply did not answer them "
            "(it answered other checks of their item)"
        )
    for name, value in summary["scores"]["mean_item_scores"].items():
        print(f"mean {name}: {value:.3f}")
    if "bizgeneval" in summary["scores"]:
        avg = summary["scores"]["bizgeneval"]["subsets"]["all"]["average_by_dimension"]
        if avg is not None:
            print(f"BizGenEval all-questions Average (by dimension): {avg:.4f}")
    for err in summary["errors"]:
        print(f"error: {err}", file=sys.stderr)
    print(f"verdicts: {out / VERDICTS}\nsummary: {out / 'summary.json'}")


def refused_names(cfg: DictConfig, items: list[Item], out: Path) -> dict[str, str]:
    """Items whose official result file cannot be written (BizGenEval: a name that is not a plain
    file name, or one an earlier row already uses; ``result_name_problems``, as rubricloop-eval
    refuses them): item id -> one error line naming the item and the file. They are not judged,
    so the summary and its CSVs count only the items that have their own result file."""
    return result_name_problems(items, out / "results") if cfg.benchmark == "bizgeneval" else {}


def judge_all(cfg: DictConfig, judge, items: list[Item], load_errors: list[str], out: Path) -> int:
    """Judge the items not already in ``verdicts.jsonl`` (or changed since), append their lines,
    write the summary.
    BizGenEval items whose result file name is refused (:func:`refused_names`) fail, unjudged."""
    refused = refused_names(cfg, items, out)
    n_items = len(items) + len(load_errors)
    errors = list(load_errors) + [one_line(refused[it.id]) for it in items if it.id in refused]
    items = [it for it in items if it.id not in refused]
    prints = fingerprints(items, OmegaConf.to_container(cfg.judge, resolve=True))
    done, changed = read_done(out / VERDICTS, items, prints)
    results = [(it, done[it.id]) for it in items if it.id in done]
    todo = [it for it in items if it.id not in done]
    notes = [f"{len(done)} already done"] * bool(done)
    notes += [f"{len(errors)} failed before judging: see below"] * bool(errors)
    print(f"judging {len(todo)} of {len(items)} items -> {out}" + (f" ({'; '.join(notes)})" if notes else ""))
    if changed:
        print(
            f"{changed} items redone because their data changed since they were judged (rubric, prompt, image or judge)"
        )

    def finish(complete: bool) -> dict[str, Any]:
        summary = summarize(results, errors, n_items, cfg.benchmark, cfg.alpha, complete)
        write_json(out / "summary.json", summary)
        if cfg.benchmark == "bizgeneval" and complete:
            write_summary_csvs(summary["scores"]["bizgeneval"], out)
        return summary

    try:
        with open(out / VERDICTS, "a", encoding="utf-8") as vf, tqdm(total=len(todo), desc="judge", unit="item") as bar:
            for item in todo:
                try:
                    verdicts = judge_item(judge, item)
                    if down := judges_down(verdicts.values(), cfg.judge_outage):  # no answer: a rerun redoes it
                        raise ItemError(f"item {item.id}: " + "; ".join(down))
                except ItemError as e:
                    verdicts, error = None, str(e)
                except Exception as e:  # a judge or I/O failure fails this item only; Ctrl-C still stops the run
                    verdicts, error = None, f"item {item.id}: {type(e).__name__}: {' '.join(str(e).split())[:300]}"
                bar.update(1)
                if verdicts is None:
                    error = one_line(error)  # a path or id with control characters stays one line
                    errors.append(error)
                    bar.write(error)  # as it happens; the summary repeats it as an error: line on stderr
                    if cfg.benchmark == "bizgeneval" and plain_file_name(name := result_filename(item)):
                        (out / "results" / name).unlink(missing_ok=True)  # an earlier run's, of other data
                    continue
                vf.write(
                    "".join(
                        json.dumps(verdict_line(item, c, verdicts[c.id], prints[item.id]), ensure_ascii=False) + "\n"
                        for c in item.rubric.checks
                    )
                )
                vf.flush()
                if cfg.benchmark == "bizgeneval":
                    write_result_file(out / "results", item, verdicts)
                results.append((item, verdicts))
        if cfg.benchmark == "bizgeneval":
            for item, verdicts in results:  # resumed items too, so results/ is whole
                if item.id in done:
                    write_result_file(out / "results", item, verdicts)
        summary = finish(complete=True)
    except KeyboardInterrupt:
        finish(complete=False)
        print(f"\ninterrupted: judged items are kept in {out}; run the same command again to resume", file=sys.stderr)
        return 130
    except OSError as e:  # a full disk, a folder gone read-only: lines written stay, a torn last one is dropped
        where = e.filename or out
        print(
            f"error: cannot write {where} ({e.strerror or type(e).__name__}); the items judged so far are kept, "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 1
    print_summary(summary, out)
    return 1 if errors else 0


def _settings_refusal(out: Path, settings: dict[str, Any]) -> Callable[[dict[str, Any]], str]:
    """The refusal of a rerun into ``out`` with other ``settings``: names the settings that
    differ, in the order of ``settings``."""

    def refusal(before: dict[str, Any]) -> str:
        changed = ", ".join(k for k in settings if before.get(k) != settings[k])
        return (
            f"{out} holds a run made with another {changed} (see {out / 'run.json'}); "
            "use those settings to resume, or a new out="
        )

    return refusal


def run(cfg: DictConfig) -> int:
    """Judge every row's image; returns the exit status (module docstring)."""
    limit_ocr_threads()  # tesseract: one thread a process unless OMP_THREAD_LIMIT is set (rewards/common/threads.py)
    whole_reads_only()  # separate documents: no page read from another's read (rewards/text/ocr/ocr_cache.py)
    try:
        check_options(cfg)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    data, out = Path(cfg.data), Path(cfg.out)
    try:
        items, load_errors = load_run_items(data, limit=cfg.limit)  # rows after the limit are never read
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        created = prepare_out(out)
        lock = lock_out(out, command="rubricloop-judge")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with lock:
        try:
            check_verdicts_file(out)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        settings = {
            "data": str(data.resolve()),
            "benchmark": cfg.benchmark,
            "alpha": cfg.alpha,
            "judge": OmegaConf.to_container(cfg.judge, resolve=True),
        }
        try:
            check_settings(out / "run.json", settings, _settings_refusal(out, settings))
        except SettingsError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        try:
            judge = build_component(cfg, "judge")
        except ValueError as e:  # a judge that cannot be built (bad option, missing model) is an option error
            print(f"error: {e}", file=sys.stderr)
            discard(out, created)
            return 2
        try:
            write_json(out / "run.json", settings)
        except OSError as e:  # a full disk: nothing judged yet, nothing torn (write_json removes its .tmp)
            print(f"error: {write_error(e, out / 'run.json')}", file=sys.stderr)
            return 1
        with run_files(cfg, out, "judge.log"):  # tesseract's temporary images go to <out>/.tmp
            return judge_all(cfg, judge, items, load_errors, out)


@hydra.main(config_path="pkg://conf", config_name="judge_run", version_base="1.3")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    return run(cfg)


def main() -> None:
    """Console entry point (``rewards.common.task``): option errors exit 2 in one line, before
    Hydra runs the app (another app's debug preset too); the app's status is the exit status."""
    exit_on_foreign_preset("rubricloop-judge")
    run_console_script(_main, config_name="judge_run")


if __name__ == "__main__":
    main()
