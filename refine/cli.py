"""``rubricloop-refine``: iterative rubric-guided refinement, as a Hydra app.

    rubricloop-refine                                   # the bundled example (OCR judge, text editor)
    rubricloop-refine data=rubrics.jsonl out=runs/x iterations=5 judge=ocr_vlm editor=flux_kontext
    rubricloop-refine workers=4                         # 4 items at a time, one process each (refine/workers.py)
    rubricloop-refine -m hydra/launcher=slurm_example 'shard=0/2,1/2' out=runs/x   # into runs/x/shard_i-of-2/

Each process gives its tesseract one thread unless ``OMP_THREAD_LIMIT`` is set (rewards/common/threads.py).

Exit status: 0 when every item finished, 1 when any row or item failed (the others still run
and the summary records the failure; a judge whose calls all failed for an item fails it), 2 for
a bad option, a judge/writer/editor/generator that cannot be built, a ``data`` file that cannot
be read or holds no rows, an ``out`` that cannot be written, or an ``out`` another live run
holds (its ``.lock``), 130 on Ctrl-C (finished items are kept, ``summary.json`` says
``"complete": false``; re-run to resume).

Hydra itself writes nothing (``conf/refine.yaml``): ``out`` is checked first, then the run
writes ``<out>/.hydra/``, ``<out>/refine.log`` and keeps temporary files (tesseract's) in
``<out>/.tmp``, cleared at the next start, so a killed run leaves none in the system's /tmp.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from refine.interfaces import StructuredEditor
from refine.loop import RefineLoop
from refine.workers import COMPONENTS, ItemWorkers
from rewards.common.components import build_component
from rewards.common.debug_preset import exit_on_foreign_preset
from rewards.common.run_folder import discard, lock_out, prepare_out, run_files
from rewards.common.shards import parse_shard, select_shard, shard_dir_name
from rewards.common.task import run_console_script, task_wrapper
from rewards.common.threads import limit_ocr_threads, usable_cores
from rewards.common.wandb_mode import mode_problem, resolve_wandb_mode
from rewards.importers import load_run_items
from rewards.judges.cache import judge_settings
from rewards.scorers.item_scores import ITEM_SCORES


def bundled_example() -> Path:
    """Path of the bundled example's JSONL (real BizGenEval text rubrics; see refine/example/README.md)."""
    # beside this module, not importlib.resources.files("refine"): under pytest, tests/refine/ (a folder
    # on sys.path without __init__) shadows the package name as a namespace package
    return Path(__file__).resolve().parent / "example" / "bizgeneval_text.jsonl"


def wandb_logger(run):
    """``fn(row)`` logging one finished item's row (``RefineLoop.run``'s ``log``) into ``run``, at
    the run's next step: its scores, its index and id, and its first and kept images as W&B
    images captioned with the item id and the score they reached."""
    import wandb

    def log(row: dict) -> None:
        row = dict(row)
        images = row.pop("images", {})
        media = {
            f"{name}_image": wandb.Image(str(path), caption=f"{row.get('item_id')} ({name})")
            for name, path in images.items()
            if Path(path).is_file()
        }
        run.log(row | media)

    return log


def start_wandb(cfg: DictConfig, out: Path):
    """A W&B run into ``out``, or None when the mode resolves to disabled
    (``rewards.common.wandb_mode.resolve_wandb_mode``). Its id is kept in ``<out>/wandb_run_id``
    (``rewards.common.wandb_run``): a resumed run and ``rubricloop-report --wandb`` log into the
    same W&B run, not a new one each time."""
    mode = resolve_wandb_mode(cfg.wandb.mode)
    if mode is None:
        return None
    import wandb

    from rewards.common.wandb_run import kept_run_id

    run_id = kept_run_id(out)
    return wandb.init(
        project=cfg.wandb.project,
        name=cfg.wandb.name,
        mode=mode,
        dir=str(out),
        config=OmegaConf.to_container(cfg, resolve=True),
        job_type="refine",
        id=run_id,
        resume="allow",
        settings=wandb.Settings(quiet=mode != "online"),  # an offline run's history table is noise in the printout
    )


log = logging.getLogger("refine")


def say(line: str, err: bool = False) -> None:
    """Print ``line`` (stderr when ``err``) and log it to ``<out>/refine.log``."""
    print(line, file=sys.stderr if err else sys.stdout)
    log.log(logging.ERROR if err else logging.INFO, line.strip())


def print_summary(summary: dict, out: Path) -> None:
    for name, j in summary.get("judges", {}).items():
        if j["failed"]:
            down = f"; {j['items_failed']} items failed as an outage" if j["items_failed"] else ""
            say(
                f"judge {name}: {j['failed']} of {j['checks']} checks failed as calls{down} "
                f"(last error: {j['last_error']})",
                err=bool(j["items_failed"]),
            )
    say(f"\n{summary['n_finished']} of {summary['n_items']} items finished, {summary['n_failed']} failed")
    if summary["n_finished"]:
        say(f"{'score':<18}{'initial':>10}{'best':>10}")
        for name, initial in summary["mean_initial"].items():
            say(f"{name:<18}{initial:>10.3f}{summary['mean_best'][name]:>10.3f}")
    text = summary.get("text_checks") or {}
    if text.get("checks"):
        where = f"({text['checks']} quoted strings in {text['items']} items)"
        say(f"{'text checks':<18}{'start':>10}{'best':>10}   {where}")
        rows = {"decided": "decided", "passed": "passed (yes)", "refuted": "refuted (no)", "read": "strings read"}
        for key, label in rows.items():
            say(f"  {label:<16}{text['start'][key]:>10}{text['best'][key]:>10}")
        say("  (strings read: every quoted string read on the page, yes or withheld for what only a VLM can place)")
        if text["best"]["decided"] < text["start"]["decided"]:
            say(
                "  (decided, and the coverage score, fall where a refuted string was fixed but its check names an "
                "element only a VLM places: it is withheld now, not refuted; judge=ocr_vlm decides it)"
            )
    if summary["withheld"]:
        reasons = "; ".join(f"{n} x {reason}" for reason, n in list(summary["withheld"].items())[:3])
        say(f"withheld verdicts (never counted as passes): {reasons}")
    if summary.get("items_damaged"):
        say(
            f"pixels damaged outside the strings written: {summary['damaged_px']} in {summary['items_damaged']} "
            "items (graphics an edit erased or drew over; see each item's damage boxes)"
        )
    early = summary.get("stopped_early") or {}
    if early:
        say(f"{len(early)} of {summary['n_finished']} items stopped before iterations={summary['iterations']}:")
    for item_id, why in list(early.items())[:8]:
        say(f"item {item_id}: stopped {why}")
    if len(early) > 8:
        say(f"... and {len(early) - 8} more items stopped early (summary.json: stopped_early)")
    for err in summary["errors"]:
        say(f"error: {err}", err=True)
    if not any(str(e).startswith(f"cannot write {out / 'summary.json'} ") for e in summary["errors"]):
        say(f"summary: {out / 'summary.json'}")


def check_options(cfg: DictConfig) -> None:
    """Validate the top-level options. Raises ValueError with one line naming the option."""

    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool)

    missing = sorted(OmegaConf.missing_keys(cfg))  # `???` in a chosen config: writer=trained needs writer.path
    if missing:
        raise ValueError(f"missing required option(s): {' '.join(f'{k}=...' for k in missing)}")
    if not is_int(cfg.iterations) or cfg.iterations < 0:
        raise ValueError(f"iterations must be an integer >= 0, got {cfg.iterations!r}")
    if cfg.limit is not None and (not is_int(cfg.limit) or cfg.limit < 1):
        raise ValueError(f"limit must be an integer >= 1 or null, got {cfg.limit!r}")
    parse_shard(cfg.get("shard"))  # shard=i/n (rewards/common/shards.py); raises a one-line ValueError
    workers = cfg.get("workers")
    if workers is not None and (not is_int(workers) or workers < 1):
        raise ValueError(f"workers must be an integer >= 1 or null (one per core), got {workers!r}")
    if not is_int(cfg.seed):
        raise ValueError(f"seed must be an integer, got {cfg.seed!r}")
    if cfg.keep_best_by not in ITEM_SCORES:
        raise ValueError(f"keep_best_by must be one of {sorted(ITEM_SCORES)}, got {cfg.keep_best_by!r}")
    outage = cfg.get("judge_outage", 1.0)
    if not isinstance(outage, (int, float)) or isinstance(outage, bool) or not 0 < outage <= 1:
        raise ValueError(f"judge_outage must be a number in (0, 1], got {outage!r}")
    if mode_problem(cfg):
        raise ValueError(mode_problem(cfg))
    if not cfg.out:
        raise ValueError(f"out must name a folder, got {cfg.out!r}")
    if Path(cfg.out).exists() and not Path(cfg.out).is_dir():
        raise ValueError(f"out={cfg.out}: is an existing file, not a folder")


def on_gpu(node) -> bool:
    """Whether a component's config (a plain container) puts a model on a GPU (a ``device``
    naming cuda, anywhere in it)."""
    if isinstance(node, dict):
        return any((k == "device" and str(v).startswith("cuda")) or on_gpu(v) for k, v in node.items())
    return isinstance(node, list) and any(on_gpu(v) for v in node)


def worker_count(cfg: DictConfig, parts: dict) -> int:
    """``workers``, or when null: the environment's ``RUBRICLOOP_WORKERS`` when set, else one per
    usable core, but 1 when a component puts a model on a GPU (each worker process would load its
    own copy of every model).

    Raises:
        ValueError: ``RUBRICLOOP_WORKERS`` is not an integer >= 1 (one line).
    """
    if cfg.get("workers") is not None:
        return cfg.workers
    if os.environ.get("RUBRICLOOP_WORKERS"):
        value = os.environ["RUBRICLOOP_WORKERS"]
        if not value.isdigit() or int(value) < 1:
            raise ValueError(f"RUBRICLOOP_WORKERS must be an integer >= 1 (the default of workers=), got {value!r}")
        return int(value)
    return 1 if on_gpu(parts) else usable_cores()


def refine(
    cfg: DictConfig,
    loop: RefineLoop,
    items: list,
    load_errors: list[str],
    data: Path,
    out: Path,
    indices: list[int] | None = None,
    workers: ItemWorkers | None = None,
) -> int:
    """The run itself, once ``out`` is checked and locked: skip finished items, refine the rest
    with a progress bar (and W&B when there is work), print the summary; returns the exit status.
    ``indices``: each item's index in the data (its seeds), None = its position in ``items``;
    ``workers``: the worker processes to refine them in, None = in this process."""
    done, changed = loop.finished(items, out), loop.changed(items, out)
    if items and done == len(items):
        say(f"{done} of {len(items)} items already done in {out}; nothing to refine")
    else:
        already = f", {done} already done" if done else ""
        n = min(workers.n, len(items) - done) if workers is not None else 1
        parallel = f", {n} worker processes" if n > 1 else ""
        say(
            f"refining {len(items) - done} of {len(items)} items from {data} -> {out} "
            f"(at most {cfg.iterations} edits per item{already}{parallel})"
        )
        if cfg.iterations:
            say(
                "an item stops earlier when every check passes, no failed check is left to edit "
                "or an edit changes nothing"
            )
    if changed:
        say(f"{changed} items redone because their data changed since they were refined (rubric, prompt or image)")
    wandb_run = start_wandb(cfg, out) if done < len(items) else None  # a no-op rerun makes no W&B run
    try:
        with tqdm(total=len(items) * (cfg.iterations + 1), desc="refine", unit="judge") as bar:
            log_item = wandb_logger(wandb_run) if wandb_run else None
            summary = loop.run(items, out, load_errors, progress=bar, log=log_item, indices=indices, workers=workers)
        if wandb_run is not None and summary["n_finished"]:
            wandb_run.summary.update({f"mean_best/{k}": v for k, v in summary["mean_best"].items()})
            text = summary["text_checks"]
            wandb_run.summary.update({f"text_{at}/{k}": v for at in ("start", "best") for k, v in text[at].items()})
    except KeyboardInterrupt:
        say(f"\ninterrupted: finished items are kept in {out}; run the same command again to resume", err=True)
        return 130
    finally:
        if wandb_run is not None:
            wandb_run.finish()
    for r in summary["items"]:
        if r["error"] is None:
            log.info(
                "item %s: %s %.3f -> %.3f (best iteration %s, %s)",
                r["id"],
                loop.keep_best_by,
                r["scores"][0][loop.keep_best_by],
                r["scores"][r["best_iteration"]][loop.keep_best_by],
                r["best_iteration"],
                r["stop_reason"],
            )
    print_summary(summary, out)
    return 1 if summary["n_failed"] or summary["errors"] else 0  # errors: also a summary.json not written


def run(cfg: DictConfig) -> int:
    """Run the loop for a composed config; returns the exit status (0 ok, 1 an item or row
    failed, 2 a bad option, an unwritable or busy ``out``, 130 interrupted)."""
    try:
        check_options(cfg)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    limit_ocr_threads()  # before any tesseract starts, here or in a worker (rewards/common/threads.py)
    data = Path(cfg.data) if cfg.data else bundled_example()
    # one folder per shard, as rubricloop-eval's: n jobs of one sweep share out= but not a folder (its lock)
    out = Path(cfg.out) / shard_dir_name(cfg.shard) if cfg.get("shard") else Path(cfg.out)
    try:
        items, load_errors = load_run_items(data, limit=cfg.limit)  # rows after the limit are never read
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # Seeds follow an item's index in the data (limit keeps a prefix), so shard i/n makes the
    # same images as the unsharded run for its items.
    indices, items = zip(*select_shard(items, cfg.get("shard"))) if items else ((), ())
    indices, items = list(indices), list(items)
    try:
        created = prepare_out(out)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        lock = lock_out(out, command="rubricloop-refine")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with lock:
        try:
            parts = {k: OmegaConf.to_container(cfg[k], resolve=True) for k in COMPONENTS}  # what workers build
            components = parts | {"judge": judge_settings(parts["judge"])}  # what a resume must share
            if components["writer"].get("path"):  # writer=trained: the same path with other weights is another run
                from rewards.models.text_policy import policy_digest

                components["writer_weights"] = policy_digest(components["writer"]["path"])
            loop_kwargs = {
                "iterations": cfg.iterations,
                "keep_best_by": cfg.keep_best_by,
                "seed": cfg.seed,
                "run_settings": {"data": str(data.resolve()), **components},
                "judge_outage": cfg.get("judge_outage", 1.0),
            }
            # built here with workers too: a component that cannot be built is one line, exit 2
            loop = RefineLoop(*(build_component(cfg, k) for k in COMPONENTS), **loop_kwargs)
            n_workers = worker_count(cfg, parts)
            workers = ItemWorkers(n_workers, parts, loop_kwargs, out) if n_workers > 1 else None
            loop.check_settings(out / "run.json")
            if isinstance(loop.editor, StructuredEditor) and loop.writer.name != "template":
                print(
                    f"warning: editor {loop.editor.name!r} acts on the failed checks and ignores the instructions "
                    f"writer {loop.writer.name!r} writes; an instruction editor (editor=flux_kontext | "
                    "qwen_image_edit | instruct_pix2pix) uses them",
                    file=sys.stderr,
                )
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            discard(out, created)
            return 2
        except KeyboardInterrupt:  # while models load: leave no empty out behind
            discard(out, created)
            raise
        with run_files(cfg, out, "refine.log", logger=log):
            return refine(cfg, loop, items, load_errors, data, out, indices, workers)


@hydra.main(config_path="pkg://conf", config_name="refine", version_base="1.3")
@task_wrapper  # a Ctrl-C while models load, before the loop (nothing to keep yet): "interrupted", 130
def _main(cfg: DictConfig) -> int:
    return run(cfg)


def main() -> None:
    """Console entry point (``rewards.common.task``): option errors exit 2 in one line, before
    Hydra runs the app (another app's debug preset too); the app's status is the exit status."""
    exit_on_foreign_preset("rubricloop-refine")
    run_console_script(_main, config_name="refine")


if __name__ == "__main__":
    main()
