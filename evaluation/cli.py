"""``rubricloop-eval``: held-out benchmark evaluation, scored as the official scorers do.

    # score an existing folder of official result files
    rubricloop-eval benchmark=bizgeneval data=bizgeneval.jsonl results=eval_results/ out=summary/
    # generate -> judge -> score (optionally with a LoRA from rubricloop-train)
    rubricloop-eval benchmark=bizgeneval data=bizgeneval.jsonl generator=sd3 out=runs/eval/base
    rubricloop-eval ... generator=sd3 lora=checkpoints/ocr1/step_200 out=runs/eval/lora
    # a trained prompt rewriter (rubricloop-train task=prompt_rewriter) in front of the generator
    rubricloop-eval ... generator=sd3 prompt_rewriter=checkpoints/pr1/final out=runs/eval/rw
    # judge an existing folder of images (each row's own image, else named as the benchmark's result files, .png;
    # images_only=true: only files in images=; each verdict line's "image" is the file judged)
    rubricloop-eval benchmark=bizgeneval data=bizgeneval.jsonl images=my_images/ out=runs/eval/mine
    # compare runs, split over machines, merge shards
    rubricloop-eval compare runs/eval/base runs/eval/lora
    rubricloop-eval ... shard=0/4 ;  rubricloop-eval merge runs/eval/base

Writes into ``out``: ``scores.json`` (full precision, coverage, not-scored and withheld
counts, per-item values), the benchmark's tables as CSV and Markdown (BizGenEval's two CSVs
byte-identical to microsoft/BizGenEval ``evaluation/summarize.py``), ``report.html`` (unless
``report=false``) and, when generating or judging, ``images/`` and ``results/`` (the official
result files), ``verdicts.jsonl`` (one verdict record per check: ``rewards.rubric.verdict_record``,
as ``rubricloop-judge`` writes it), ``fingerprints.jsonl`` (what each finished item was made from) and ``run.json``
(the settings; a rerun with other settings is refused, the same command resumes: an item is
redone when its result file is unreadable or its row or image changed). An item whose judge was
down (its calls failed on ``judge_outage`` of the checks sent to it) fails and is redone by a
rerun. With ``shard=i/n`` the items ``k % n == i`` go to ``<out>/shard_i-of-n/`` and are scored
by ``rubricloop-eval merge <out>``. ``limit=N`` reads no more of the data than its first N items.
With ``prompt_rewriter=<folder>`` the generator renders each item's rewrite (refused ones: the
original prompt), recorded in ``<out>/rewrites.jsonl``; the judge judges against the original
prompt; the refused rewrites are counted on stdout and in ``scores.json`` (``prompt_rewriter``).

Exit status: 0 when every data row, item and existing result file was fine; 1 when any was bad
(one ``error:`` line each on stderr; the others are still scored and written), or when no item
has a result file; 2 for an option error (one line): ``data`` / ``out`` missing or unusable
(not writable, or in use by another running rubricloop-eval: ``<out>/.lock``), ``results`` not
a folder, ``alpha`` not in (0, 1], an unknown ``benchmark``, a bad ``shard``, a data file that
cannot be read or holds no items, a rerun with other settings (``lora``, ``prompt_rewriter``:
the path and the sha256 of its files), a ``prompt_rewriter`` that is not a trained prompt
rewriter folder or is given without a generator, a ``run.json``, ``fingerprints.jsonl`` or
``rewrites.jsonl`` in ``out`` that is not a regular file (a FIFO). A summary, table or report
that cannot be written (disk full) is one line, exit 1; each is written atomically, so none is
left torn. Hydra itself creates nothing (``conf/eval.yaml``), so an option error leaves no
``out`` behind.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import hydra
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from evaluation.score import NEEDS_DATA, RUN_FILE, SCORERS, SHARD_FILE, expected_result_name, score_and_write
from rewards.common.components import build_component
from rewards.common.debug_preset import exit_on_foreign_preset
from rewards.common.options import bool_problems
from rewards.common.run_folder import (
    SettingsError,
    check_regular,
    check_settings,
    discard,
    lock_out,
    prepare_out,
    write_error,
    write_json,
)
from rewards.common.shards import parse_shard, select_shard, shard_dir_name
from rewards.common.task import run_console_script, task_wrapper
from rewards.common.threads import limit_ocr_threads
from rewards.common.wandb_mode import mode_problem, resolve_wandb_mode
from rewards.importers import binary_reason, json_document_reason
from rewards.judges.cache import judge_settings
from rewards.rubric import Item, RubricError
from rewards.text.ocr.ocr_cache import whole_reads_only


class OptionError(ValueError):
    """A bad option: exit 2 with one line."""


def generator_tuning_problems(cfg: DictConfig, mode: str) -> list[str]:
    """The ``lora=`` and ``prompt_rewriter=`` option errors (both need a generator to act on)."""
    problems = []
    if cfg.lora and not Path(cfg.lora).is_dir():
        problems.append(f"lora={cfg.lora} is not a checkpoint folder (checkpoints/<run>/step_<n>)")
    if cfg.lora and mode != "generate":
        problems.append("lora=... needs a generator (generator=sd3 | flux | ...)")
    rewriter = cfg.get("prompt_rewriter")
    for key in ("lora", "prompt_rewriter"):
        if cfg.get(key) and cfg.images and mode == "generate":
            problems.append(f"{key}=... changes generated images, but images={cfg.images} are judged as they are")
    if rewriter and mode != "generate":
        problems.append("prompt_rewriter=... needs a generator (generator=sd3 | flux | ...)")
    elif rewriter:
        from rewards.models.text_policy import read_policy_meta

        try:
            read_policy_meta(Path(rewriter), "prompt_rewriter")
        except ValueError as e:  # names the folder: not a folder, no LoRA, another task's policy
            problems.append(f"prompt_rewriter={e}")
    return problems


def check_options(cfg: DictConfig) -> dict[str, Any]:
    """Validate the options; returns ``{"mode": "score" | "judge" | "generate", paths...}``.

    Raises:
        OptionError: one line naming every bad option.
    """
    if cfg.benchmark not in SCORERS:
        raise OptionError(f"benchmark={cfg.benchmark!r} is not one of {sorted(SCORERS)}")
    has_generator = cfg.get("generator") is not None and "_target_" in cfg.generator
    mode = "generate" if has_generator else "judge" if cfg.images else "score"
    required = ["out"]
    if cfg.benchmark in NEEDS_DATA or mode != "score":
        required.insert(0, "data")
    if mode == "score":
        required.insert(1 if "data" in required else 0, "results")
    missing = [k for k in required if OmegaConf.is_missing(cfg, k) or cfg.get(k) in (None, "")]
    if missing:
        raise OptionError(f"missing required argument(s): {' '.join(f'{k}=...' for k in missing)}")
    problems = []
    alpha = cfg.alpha
    if not isinstance(alpha, (int, float)) or isinstance(alpha, bool) or not 0 < alpha <= 1:
        problems.append(f"alpha must be a number in (0, 1], got {alpha!r}")
    out = Path(cfg.out)
    if out.exists() and not out.is_dir():
        problems.append(f"out={out}: is an existing file, not a folder")
    results = Path(cfg.results) if mode == "score" else out / "results"
    if mode == "score" and not results.is_dir():
        problems.append(f"results={results} is not a folder of result files")
    if mode == "judge" and not Path(cfg.images).is_dir():
        problems.append(f"images={cfg.images} is not a folder of images")
    flag_problems = bool_problems({"images_only": cfg.get("images_only")})
    problems += flag_problems
    if not flag_problems and cfg.get("images_only") and mode != "judge":
        problems.append("images_only=true needs images=<folder> (and no generator)")
    if cfg.benchmark == "genexam" and mode != "score":
        problems.append(
            "benchmark=genexam: its official result files need the judge's three global 0-2 ratings, "
            "which no judge preset gives; score an existing result folder with results=..."
        )
    if cfg.benchmark == "servimage" and mode != "score":
        problems.append(
            "benchmark=servimage: its results are human payment labels, which no judge gives; "
            "score a folder of <model>_annotations.jsonl files with results=..."
        )
    problems += servimage_selection_problems(cfg)
    problems += generator_tuning_problems(cfg, mode)
    outage = cfg.get("judge_outage", 1.0)
    if not isinstance(outage, (int, float)) or isinstance(outage, bool) or not 0 < outage <= 1:
        problems.append(f"judge_outage must be a number in (0, 1], got {outage!r}")
    if mode_problem(cfg):
        problems.append(mode_problem(cfg))
    if not isinstance(cfg.seed, int) or isinstance(cfg.seed, bool):
        problems.append(f"seed must be an integer, got {cfg.seed!r}")
    if cfg.limit is not None and (not isinstance(cfg.limit, int) or isinstance(cfg.limit, bool) or cfg.limit < 1):
        problems.append(f"limit must be an integer >= 1 or null, got {cfg.limit!r}")
    if not isinstance(cfg.resolution_multiple, int) or cfg.resolution_multiple < 1:
        problems.append(f"resolution_multiple must be an integer >= 1, got {cfg.resolution_multiple!r}")
    try:
        shard = parse_shard(cfg.shard)
    except ValueError as e:
        problems.append(str(e))
        shard = None
    if shard and mode == "score":
        problems.append("shard=... splits generate/judge runs; to score shards use: rubricloop-eval merge <out>")
    if cfg.data and (binary := binary_reason(Path(cfg.data))) is not None:  # one line, not one per chunk of it
        problems.append(f"data={cfg.data} is {binary}, not a rubric file or benchmark folder")
    if problems:
        raise OptionError("; ".join(problems))
    return {"mode": mode, "out": out, "results": results, "data": Path(cfg.data) if cfg.data else None}


def servimage_selection(cfg: DictConfig) -> dict[str, Any]:
    """``servimage.models`` / ``servimage.exclude`` as keyword arguments of
    ``rewards.scorers.servimage_results.score_servimage_folder`` (plain lists; models None = all)."""
    selection = cfg.get("servimage") or {}
    models = selection.get("models")
    return {
        "models": None if models is None else list(models),
        "exclude": list(selection.get("exclude") or []),
    }


def servimage_selection_problems(cfg: DictConfig) -> list[str]:
    """One line per bad ``servimage.models`` / ``servimage.exclude``: not a list of model names, or
    given with another benchmark (names no label file has are refused when the labels are read)."""
    selection = cfg.get("servimage") or {}
    problems = []
    for key in ("models", "exclude"):
        value = selection.get(key)
        names = OmegaConf.to_container(value) if OmegaConf.is_list(value) else value
        if value is None or names == []:
            continue
        if cfg.benchmark != "servimage":
            problems.append(f"servimage.{key}=... selects ServImage label files; it needs benchmark=servimage")
        elif not isinstance(names, list) or not all(isinstance(m, str) and m for m in names):
            problems.append(f"servimage.{key} must be a list of model names ([a,b]), got {value!r}")
    return problems


def rewriter_digest(folder: Path) -> str | None:
    """sha256 of a prompt rewriter's files: its LoRA (``evaluation.lora.lora_digest``) and its
    ``rubricloop_policy.json`` (base model, token budget, length cap); None without a LoRA file.

    Raises:
        ValueError: ``prompt_rewriter=<folder>: ...``, a file cannot be read (one line).
    """
    import hashlib

    from evaluation.lora import lora_digest
    from rewards.models.text_policy import POLICY_FILE

    try:
        lora = lora_digest(folder)
    except ValueError as e:  # "lora=<folder>: ..."
        raise ValueError(f"prompt_rewriter={str(e).removeprefix('lora=')}") from None
    if lora is None:
        return None
    try:
        meta = (folder / POLICY_FILE).read_bytes() if (folder / POLICY_FILE).is_file() else b""
    except OSError as e:
        raise ValueError(
            f"prompt_rewriter={folder}: cannot read {POLICY_FILE} ({e.strerror or type(e).__name__})"
        ) from None
    return hashlib.sha256(lora.encode() + b"\0" + meta).hexdigest()


def run_settings(cfg: DictConfig) -> dict[str, Any]:
    """What a resumed run must share with the first one (``run.json``); ``lora_weights`` is the
    sha256 of the LoRA's files (``evaluation.lora.lora_digest``), ``prompt_rewriter_weights``
    that of the prompt rewriter's (:func:`rewriter_digest`). The rewriter's device is not a
    setting: each rendered prompt is in the image's generation key and ``rewrites.jsonl``.

    Raises:
        OptionError: the LoRA's or the rewriter's files cannot be read.
    """
    from evaluation.lora import lora_digest

    rewriter = cfg.get("prompt_rewriter")
    try:
        digest = lora_digest(Path(cfg.lora)) if cfg.lora else None
        rewriter_weights = rewriter_digest(Path(rewriter)) if rewriter else None
    except ValueError as e:
        raise OptionError(str(e)) from None
    return {
        "benchmark": cfg.benchmark,
        "data": str(Path(cfg.data).resolve()),
        "seed": cfg.seed,
        "limit": cfg.limit,
        "alpha": float(cfg.alpha),
        "images": str(Path(cfg.images).resolve()) if cfg.images else None,
        **({"images_only": True} if cfg.get("images_only") else {}),  # absent when false: older runs resume
        "lora": str(Path(cfg.lora).resolve()) if cfg.lora else None,
        "lora_weights": digest,  # the same lora path with other weights: refused
        "prompt_rewriter": str(Path(rewriter).resolve()) if rewriter else None,
        "prompt_rewriter_weights": rewriter_weights,  # the same rewriter path with other weights: refused
        "resolution_multiple": cfg.resolution_multiple,
        "generator": OmegaConf.to_container(cfg.generator, resolve=True) if cfg.get("generator") is not None else None,
        "judge": judge_settings(OmegaConf.to_container(cfg.judge, resolve=True)),
    }


def record_settings(path: Path, settings: dict[str, Any], write: bool = True) -> None:
    """Write ``run.json`` on the first run (unless ``write`` is False: only check); refuse a rerun
    whose settings differ (a key only the recorded file has is ignored).

    Raises:
        OptionError: naming the first setting that differs.
    """

    def refusal(old: dict[str, Any]) -> str:
        key = next(k for k in settings if old.get(k) != settings[k])
        if key in ("lora_weights", "prompt_rewriter_weights"):
            what = key[: -len("_weights")]
            return (
                f"{path.parent} was made with another {what} (its weights changed: {path} records "
                f"sha256 {str(old.get(key))[:12]}, {what}={settings[what]} now has {str(settings[key])[:12]}); "
                "use another out=... or the weights it was made with"
            )
        return (
            f"{path.parent} was made with other settings ({key}: {old.get(key)!r} there, "
            f"{settings[key]!r} now); use another out=... or the same settings"
        )

    try:
        if check_settings(path, settings, refusal, only_given=True):
            return
    except SettingsError as e:
        raise OptionError(str(e)) from None
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, settings, ensure_ascii=True)


def log_tables_to_wandb(cfg: DictConfig, out: Path, benchmark: str, summary: dict[str, Any]) -> None:
    """The benchmark's tables as W&B Tables, unless ``wandb.mode`` resolves to disabled
    (``rewards.common.wandb_mode.resolve_wandb_mode``). The W&B run's id is kept in
    ``<out>/wandb_run_id`` (``rewards.common.wandb_run``): a rerun into ``out`` and
    ``rubricloop-report --wandb`` log into that run."""
    mode = resolve_wandb_mode(cfg.wandb.mode)
    if mode is None:
        return
    import wandb

    from evaluation.tables import TABLES
    from rewards.common.wandb_run import kept_run_id

    run_id = kept_run_id(out)
    with wandb.init(
        project=cfg.wandb.project,
        name=cfg.wandb.name,
        mode=mode,
        dir=str(out),
        job_type="eval",
        id=run_id,
        resume="allow",
    ) as wb:
        wb.log({stem: wandb.Table(columns=header, data=rows) for stem, header, rows in TABLES[benchmark](summary)})


def load_run_items(cfg: DictConfig, opts: dict[str, Any]) -> tuple[list[Item], list[str]]:
    """The first ``limit`` items of the data (read no further) and the bad rows among them.

    Raises:
        OptionError: the data cannot be read or holds no items.
    """
    from evaluation.generate import load_benchmark_items

    try:
        items, errors = load_benchmark_items(cfg.benchmark, opts["data"], cfg.limit)
    except RubricError as e:  # data= names no readable file or folder: an option error
        raise OptionError(f"data={e}") from None
    if not items and not errors:
        raise OptionError(f"data={opts['data']} holds no items")
    document = json_document_reason(Path(opts["data"])) if not items and Path(opts["data"]).is_file() else None
    if document is not None:
        raise OptionError(f"data={opts['data']} is {document}, not JSON Lines: write one row object per line")
    return items, errors


def load_rewriter(cfg: DictConfig):
    """The ``prompt_rewriter=`` policy (``rewards.rewriting.PromptRewriter``) with its model
    loaded on ``prompt_rewriter_device``, or None when not set.

    Raises:
        OptionError: not a prompt rewriter folder, no GPU, or its model cannot be built (one line).
    """
    folder = cfg.get("prompt_rewriter")
    if not folder:
        return None
    from rewards.models.devices import require_device
    from rewards.rewriting import PromptRewriter

    device = str(cfg.get("prompt_rewriter_device") or "cpu")
    try:
        require_device(device, f"prompt_rewriter={folder}", "prompt_rewriter_device=cpu")
        rewriter = PromptRewriter(folder, device)
    except (ValueError, RuntimeError) as e:
        raise OptionError(str(e) if isinstance(e, RuntimeError) else f"prompt_rewriter={e}") from None
    try:
        rewriter.load()
    except Exception as e:  # a missing base model or package: one line naming the folder
        text = " ".join(str(e).split())[:300]
        raise OptionError(f"prompt_rewriter={folder}: cannot load its model ({type(e).__name__}: {text})") from None
    return rewriter


def report_rewrites(cfg: DictConfig, out: Path, selected: list[Item]) -> dict[str, Any] | None:
    """Print how many of the items' rewrites were refused (their original prompts were rendered);
    returns the counts (``evaluation.generate.rewrite_counts`` plus the rewriter's path), or
    None without ``prompt_rewriter``."""
    if not cfg.get("prompt_rewriter"):
        return None
    from evaluation.generate import REWRITES, rewrite_counts

    counts = {"path": str(Path(cfg.prompt_rewriter).resolve()), **rewrite_counts(out, selected)}
    print(
        f"prompt_rewriter: {counts['refused']} of {counts['rewritten']} rewrites refused (dropped a quoted "
        f"string, over the cap, empty); their original prompts were used (see {out / REWRITES})"
    )
    return counts


def generate_or_judge(
    cfg: DictConfig, opts: dict[str, Any], out: Path, items: list[Item]
) -> tuple[list[str], set[str], dict[str, Any] | None]:
    """Steps 0-3 of :mod:`evaluation.generate` over the (limited, sharded) items; returns
    (errors, the item ids taken, the rewriter's counts from :func:`report_rewrites` or None).

    Raises:
        OptionError: other settings than ``run.json``; a prompt rewriter that cannot be loaded.
    """
    from evaluation.generate import FINGERPRINTS, REWRITES, VERDICTS, generate_and_judge, name_problems
    from evaluation.lora import apply_lora, warn_leakage

    if opts["mode"] == "generate":
        import diffusers
        import transformers

        # prompt-truncation and LoRA-prefix notices would repeat for every item
        transformers.utils.logging.set_verbosity_error()
        diffusers.utils.logging.set_verbosity_error()
    try:  # a FIFO would block its reader forever
        check_regular(out / RUN_FILE, "the settings of the run there")
        check_regular(out / FINGERPRINTS, "what its finished items were made from")
        check_regular(out / REWRITES, "the prompt rewrites of its items")
        check_regular(out / VERDICTS, "the verdicts of its items")
    except ValueError as e:
        raise OptionError(str(e)) from None
    refused = name_problems(cfg.benchmark, items, out / "results")  # over every item read: the first keeps a name
    selected = select_shard(items, cfg.shard)
    settings = run_settings(cfg)
    record_settings(out / RUN_FILE, settings, write=False)  # a refusal before a model is loaded
    try:  # a bad judge or generator setting, a missing model: one line, exit 2
        generator = build_component(cfg, "generator") if opts["mode"] == "generate" else None
        judge = build_component(cfg, "judge")
    except ValueError as e:
        raise OptionError(str(e)) from None
    rewriter = load_rewriter(cfg) if opts["mode"] == "generate" else None
    record_settings(out / RUN_FILE, settings)
    if cfg.shard:
        write_json(out / SHARD_FILE, {"shard": cfg.shard, "items": [it.id for _, it in selected]})
    if cfg.lora:
        warn_leakage(Path(cfg.lora), [it for _, it in selected], opts["data"])
        apply_lora(generator, Path(cfg.lora))
    if rewriter is not None:  # a rewriter trained on benchmark prompts would leak them too
        warn_leakage(Path(cfg.prompt_rewriter), [it for _, it in selected], opts["data"])
    what = "generate + judge" if generator is not None else "judge"
    with tqdm(total=len(selected), desc=f"eval {cfg.benchmark} ({what})", unit="item") as bar:
        errors = generate_and_judge(
            cfg.benchmark,
            selected,
            out,
            judge,
            generator,
            Path(cfg.images) if cfg.images else None,
            cfg.seed,
            cfg.resolution_multiple,
            bar,
            judge_outage=float(cfg.get("judge_outage", 1.0)),
            settings={"judge": settings["judge"]},
            refused=refused,
            rewriter=rewriter,
            rows_dir=opts["data"].parent if opts.get("data") else None,
            images_only=bool(cfg.get("images_only")),
        )
    counts = report_rewrites(cfg, out, [it for _, it in selected])
    return errors, {it.id for _, it in selected}, counts


def run(cfg: DictConfig) -> int:
    """Run one evaluation; returns the exit status (see the module docstring)."""
    limit_ocr_threads()  # tesseract: one thread a process unless OMP_THREAD_LIMIT is set (rewards/common/threads.py)
    whole_reads_only()  # separate documents: no page read from another's read (rewards/text/ocr/ocr_cache.py)
    try:
        opts = check_options(cfg)
        out = opts["out"] / shard_dir_name(cfg.shard) if cfg.shard else opts["out"]
        items, errors = load_run_items(cfg, opts) if opts["mode"] != "score" else ([], [])
        parent_created = not opts["out"].exists()
        try:
            created = prepare_out(out)
            lock = lock_out(out, command="rubricloop-eval")
        except ValueError as e:
            raise OptionError(str(e)) from None
    except (OptionError, RubricError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        return run_in(cfg, opts, out, items, errors)
    except (OptionError, RubricError) as e:
        print(f"error: {e}", file=sys.stderr)
        lock.release()
        discard(out, created)
        if out != opts["out"] and opts["out"].is_dir():
            discard(opts["out"], parent_created)
        return 2
    except OSError as e:  # a summary, table or report that could not be written (disk full): each is atomic
        print(f"error: {write_error(e, out)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished items are kept in {out}; run the same command again to resume", file=sys.stderr)
        return 130
    finally:
        lock.release()


def score_servimage(cfg: DictConfig, opts: dict[str, Any], out: Path) -> tuple[dict[str, Any], list[str]]:
    """``score_and_write`` for ServImage with its model selection (:func:`servimage_selection`);
    prints how many competition tasks were ties split equally (the official rows carry no
    BRF / VEQ / CNS to break them).

    Raises:
        RubricError: unreadable data, a selection naming no model of the results (exit 2).
    """
    summary, errors = score_and_write(
        cfg.benchmark, opts["data"], opts["results"], out, float(cfg.alpha), **servimage_selection(cfg)
    )
    comp = summary["competition"]
    if comp:
        print(
            f"servimage competition ({len(comp['models'])} models): {comp['split_ties']} of {comp['paid_tasks']} "
            f"paid tasks were ties split equally ({comp['split_unscored']} without BRF/VEQ/CNS scores to break them)"
        )
    return summary, errors


def run_in(cfg: DictConfig, opts: dict[str, Any], out: Path, items: list[Item], errors: list[str]) -> int:
    """The run inside its locked ``out``; returns the exit status.

    Raises:
        OptionError, RubricError: an option error (exit 2).
    """
    only = rewrites = None
    limit = cfg.limit if opts["mode"] != "score" else None
    if opts["mode"] != "score":
        item_errors, only, rewrites = generate_or_judge(cfg, opts, out, items)
        errors = errors + item_errors
        if cfg.shard:
            for err in errors:
                print(f"error: {err}", file=sys.stderr)
            print(
                f"{cfg.benchmark}: shard {cfg.shard}: {len(only)} items, {len(errors)} errors; wrote {out} "
                f"(score all shards with: rubricloop-eval merge {opts['out']})"
            )
            return 1 if errors else 0
    if cfg.benchmark == "servimage":
        summary, score_errors = score_servimage(cfg, opts, out)
    else:
        summary, score_errors = score_and_write(
            cfg.benchmark, opts["data"], opts["results"], out, float(cfg.alpha), only, limit
        )
    if rewrites is not None:  # the refused rewrites next to the scores they made
        summary["prompt_rewriter"] = rewrites
        write_json(out / "scores.json", summary)
    errors = list(dict.fromkeys(errors + score_errors))  # a bad row is met by the run and by the scorer
    for err in errors:
        print(f"error: {err}", file=sys.stderr)
    if cfg.report:
        from evaluation.report import write_report

        print(f"report: {write_report(out)}")
    log_tables_to_wandb(cfg, out, cfg.benchmark, summary)
    missing = summary.get("not_scored", {}).get("missing", [])
    total = summary.get("total_items", len(summary.get("per_item", [])))
    print(
        f"{cfg.benchmark}: {total} items read, {len(missing)} without a result file, {len(errors)} errors; wrote {out}"
    )
    if total and len(missing) == total:
        from evaluation.generate import load_benchmark_items

        items, _ = load_benchmark_items(cfg.benchmark, opts["data"], limit)
        print(
            f"error: no result file in {opts['results']} matches an item of {opts['data']} "
            f"(wrong folder? item {missing[0]} "
            f"expects {opts['results'] / expected_result_name(cfg.benchmark, items, missing[0])})",
            file=sys.stderr,
        )
        return 1
    if not total and not summary.get("per_item"):
        print(f"error: no result files found in {opts['results']}", file=sys.stderr)
        return 1
    return 1 if errors else 0


@hydra.main(config_path="pkg://conf", config_name="eval", version_base="1.3")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    return run(cfg)


def main() -> None:
    """Console entry point (``rewards.common.task``): the ``compare`` and ``merge`` subcommands
    (argparse), else the Hydra app (option errors exit 2 in one line, before Hydra runs it)."""
    if len(sys.argv) > 1 and sys.argv[1] in ("compare", "merge"):
        sub = sys.argv.pop(1)
        if sub == "compare":
            from evaluation.compare import main as compare_main

            run_console_script(lambda: compare_main(sys.argv[1:]))
            return
        from evaluation.merge import main as merge_main

        run_console_script(lambda: merge_main(sys.argv[1:]))
        return
    exit_on_foreign_preset("rubricloop-eval")  # another app's debug preset: one line, exit 2
    run_console_script(_main, config_name="eval")


if __name__ == "__main__":
    main()
