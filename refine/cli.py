"""``rubricloop-refine``: iterative rubric-guided refinement, as a Hydra app.

    rubricloop-refine                                   # the bundled example (OCR judge, text editor)
    rubricloop-refine data=rubrics.jsonl out=runs/x iterations=5 judge=ocr_vlm editor=flux_kontext

Exit status: 0 when every item finished, 1 when any row or item failed (the others still run
and the summary records the failure), 130 on Ctrl-C (finished items are kept; re-run to resume).
"""

from __future__ import annotations

import importlib.resources
import os
import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from refine.loop import RefineLoop
from rewards.item_scores import ITEM_SCORES
from rewards.importers import load_items
from rewards.rubric import RubricError


def bundled_example() -> Path:
    """Path of the bundled example's JSONL (real BizGenEval text rubrics; see refine/example/README.md)."""
    return Path(str(importlib.resources.files("refine") / "example" / "bizgeneval_text.jsonl"))


def build(cfg: DictConfig, key: str):
    """Instantiate the component of config group ``key``; None when the group is empty (``none``)."""
    node = cfg.get(key)
    if node is None or "_target_" not in node:
        return None
    return hydra.utils.instantiate(node)


def start_wandb(cfg: DictConfig, out: Path):
    """A W&B run, or None when disabled. ``auto`` = online with WANDB_API_KEY set, else offline."""
    mode = cfg.wandb.mode
    if mode == "auto":
        mode = "online" if os.environ.get("WANDB_API_KEY") else "offline"
    if mode == "disabled" or os.environ.get("WANDB_MODE") == "disabled":
        return None
    import wandb

    return wandb.init(project=cfg.wandb.project, name=cfg.wandb.name, mode=mode, dir=str(out),
                      config=OmegaConf.to_container(cfg, resolve=True), job_type="refine")


def print_summary(summary: dict, out: Path) -> None:
    print(f"\n{summary['n_finished']} of {summary['n_items']} items finished, {summary['n_failed']} failed")
    if summary["n_finished"]:
        print(f"{'score':<18}{'initial':>10}{'best':>10}")
        for name, initial in summary["mean_initial"].items():
            print(f"{name:<18}{initial:>10.3f}{summary['mean_best'][name]:>10.3f}")
    if summary["withheld"]:
        reasons = "; ".join(f"{n} x {reason}" for reason, n in list(summary["withheld"].items())[:3])
        print(f"withheld verdicts (never counted as passes): {reasons}")
    for err in summary["errors"]:
        print(f"error: {err}", file=sys.stderr)
    print(f"summary: {out / 'summary.json'}")


def check_options(cfg: DictConfig) -> None:
    """Validate the top-level options. Raises ValueError with one line naming the option."""
    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool)

    if not is_int(cfg.iterations) or cfg.iterations < 0:
        raise ValueError(f"iterations must be an integer >= 0, got {cfg.iterations!r}")
    if cfg.limit is not None and (not is_int(cfg.limit) or cfg.limit < 1):
        raise ValueError(f"limit must be an integer >= 1 or null, got {cfg.limit!r}")
    if not is_int(cfg.seed):
        raise ValueError(f"seed must be an integer, got {cfg.seed!r}")
    if cfg.keep_best_by not in ITEM_SCORES:
        raise ValueError(f"keep_best_by must be one of {sorted(ITEM_SCORES)}, got {cfg.keep_best_by!r}")
    if not cfg.out or (Path(cfg.out).exists() and not Path(cfg.out).is_dir()):
        raise ValueError(f"out must name a folder, got {cfg.out!r}")


def run(cfg: DictConfig) -> int:
    """Run the loop for a composed config; returns the exit status (0 ok, 1 an item or row
    failed, 2 a bad option, 130 interrupted)."""
    try:
        check_options(cfg)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    data = Path(cfg.data) if cfg.data else bundled_example()
    out = Path(cfg.out)
    try:
        items, load_errors = load_items(data)
    except RubricError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not items and not load_errors:
        print(f"error: {data} holds no items", file=sys.stderr)
        return 1
    items = items[: cfg.limit]
    try:
        components = {k: OmegaConf.to_container(cfg[k], resolve=True) for k in ("judge", "writer", "editor", "generator")}
        loop = RefineLoop(build(cfg, "judge"), build(cfg, "writer"), build(cfg, "editor"), build(cfg, "generator"),
                          iterations=cfg.iterations, keep_best_by=cfg.keep_best_by, seed=cfg.seed,
                          run_settings={"data": str(data.resolve()), **components})
        out.mkdir(parents=True, exist_ok=True)
        loop.check_settings(out / "run.json")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"refining {len(items)} items from {data} -> {out} ({cfg.iterations} iterations)")
    wandb_run = start_wandb(cfg, out)
    try:
        with tqdm(total=len(items) * (cfg.iterations + 1), desc="refine", unit="judge") as bar:
            summary = loop.run(items, out, load_errors, progress=bar, log=wandb_run.log if wandb_run else None)
        if wandb_run is not None and summary["n_finished"]:
            wandb_run.summary.update({f"mean_best/{k}": v for k, v in summary["mean_best"].items()})
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished items are kept in {out}; run the same command again to resume", file=sys.stderr)
        return 130
    finally:
        if wandb_run is not None:
            wandb_run.finish()
    print_summary(summary, out)
    return 1 if summary["n_failed"] else 0


@hydra.main(config_path="pkg://conf", config_name="refine", version_base="1.3")
def _main(cfg: DictConfig) -> None:
    code = run(cfg)
    if code:
        raise SystemExit(code)


def main() -> None:
    _main()
