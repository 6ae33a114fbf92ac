"""Time and steps to a fixed share of the reward gain for every training algorithm, several seeds
each, in one run (CPU): full-trajectory Flow-GRPO (the baseline), the Flow-GRPO-Fast window,
MixGRPO, GRPO-Guard, DiffusionNFT and Advantage Weighted Matching.

``--task layout_pretrained`` (the default) is the papers' regime on the CPU rubric task: every run
starts from the tiny layout generator pretrained here (``training.diffusion.pretrain``, 32 px
pages; ``conf/experiment/tiny_layout_pretrained.yaml``), samples T = 10 steps (``-T``), and the
Flow-GRPO modes sample and train with classifier-free guidance 4.5 (yifan123/flow_grpo
config/grpo.py: ``sample.num_steps`` 10, ``sample.guidance_scale`` 4.5), DiffusionNFT and AWM
without (NVlabs/DiffusionNFT and scxue/advantage_weighted_matching are CFG-free); each mode is
evaluated as it samples. The measured reward is the **strict** pass rate: the mean of the band,
card and bars checks' pass rates on the 40 validation items (ODE samples from fixed noise); the
reward trained on is the rubric pass rate of every check. ``--task layout`` runs the tiny
random-weight SD3 at 16 px (``conf/experiment/tiny_layout.yaml``) on the whole rubric pass rate,
``--task redness`` the colour task; both sample T = 4 without CFG unless ``-T`` says otherwise.

Every run calls its recipe's ``train`` (``training.recipes.<algorithm>``). Per step, the training
seconds are the step's wall time minus the evaluation inside it.

Threshold: the full trajectory's step-0 evaluation reward plus ``--fraction`` of its gain, gain =
mean over its seeds of the mean of its last two evaluations, minus the step-0 reward. For each
run: the first evaluation step at or above the threshold, and the training seconds up to it.
Printed per mode: its step-0 reward, then median and [min, max] over seeds, and the median as a
ratio to the full trajectory's; a seed that never reaches it counts as infinite and shows as
"n/r" (not reached). Beside them, the final reward, the kind-preservation signal (layout tasks:
the share of the validation chart prompts whose sample still reads as a chart,
``rewards.reward_fns.LayoutKindReward`` at weight 0, at step 0 and at the end) and the
reward-hacking signals the trainer logs (the last step's image statistics: dark fraction, colour
entropy, edge density) and the final per-check-tag pass rates.

    python benchmarks/grpo_time_to_reward.py                       # full, nft, awm x seeds 1-3 x 40 steps
    python benchmarks/grpo_time_to_reward.py --task layout -T 4    # the random-weight tiny SD3, 5 modes x 3 seeds

Seed 0 was used to choose the task's and recipes' settings; the default seeds 1-3 only measure.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context

# key -> (label, the recipe config's overrides ("algorithm" picks training.recipes.<name>) as a function
# of T and the number of steps). The shared
# knobs are the task's (the tiny_layout / tiny_redness presets); the algorithm-specific ones are
# the recipes' defaults and their tiny presets (conf/experiment/tiny_nft.yaml, tiny_awm.yaml).
MODES = {
    "full": ("Flow-GRPO full trajectory", lambda T, n: {"timestep_fraction": 1.0}),
    "fast": ("Flow-GRPO-Fast window 2", lambda T, n: {"sde_window": 2}),
    "mixgrpo": (
        "MixGRPO sliding window 2",
        lambda T, n: {"sde_window": 2, "window_schedule": "mixgrpo", "window_shift_every": max(1, n // 3)},
    ),
    "guard": ("GRPO-Guard full trajectory", lambda T, n: {"algorithm": "grpo_guard", "timestep_fraction": 1.0}),
    "nft": ("DiffusionNFT", lambda T, n: {"algorithm": "nft", "timestep_fraction": 1.0}),
    "awm": (
        "Advantage Weighted Matching",
        lambda T, n: {
            "algorithm": "awm",
            "lr": 3e-2,  # the tiny_awm preset's; chosen on seed 0 (1e-2 rose less)
            "timestep_fraction": 1.0,
            "clip_range": 1.0,
            "noise_level": 0.566,
            "awm_train_timesteps": T,
        },
    ),
}

TASKS = {  # task -> the preset's shared settings (conf/experiment/tiny_<task>.yaml)
    "layout_pretrained": {
        "data": "layout",
        "data_n": 400,
        "val_fraction": 0.1,
        "lr": 1e-2,
        "num_eval_prompts": 40,
        "resolution": 32,
        "pretrained": True,  # GRPO modes with CFG 4.5, NFT and AWM without; the strict checks measured
        # the defaults of issue 33 (T = 4, chosen on trainer seeds 0-3: docs/training.md#across-trainer-seeds):
        # the preset's Flow-GRPO (8 prompts x 8 a step, an EMA of 0.9), the learning test's NFT and AWM (KL to the base)
        "overrides_of": {
            "grpo": {"lr": 3e-3, "prompts_per_step": 8, "batch_size": 64, "ema_decay": 0.9},
            "grpo_guard": {"lr": 3e-3, "prompts_per_step": 8, "batch_size": 64},
            "nft": {"lr": 1e-2, "beta": 0.1},  # KL to the base: the charts kept their bars (seed 0)
            "awm": {"lr": 5e-3, "beta": 0.05, "awm_timestep_sampler": "discrete", "awm_train_timesteps": 4},
        },
    },
    "layout": {"data": "layout", "data_n": 400, "val_fraction": 0.1, "lr": 1e-2, "num_eval_prompts": 40},
    "redness": {"data": "redness", "data_n": 200, "val_fraction": 0.05, "lr": 3e-2, "num_eval_prompts": 8},
}
DEFAULT_MODES = ("full", "nft", "awm")
"""The modes of one default run: the baseline and the two CFG-free recipes, 3 seeds x 40 steps
(about 20 min on 2 shared cores); every mode of ``MODES`` and 60 steps did not fit in 25 min
there (the Flow-GRPO modes with CFG cost 3-4x an NFT or AWM step): name them with ``--modes``."""
CFG_FREE = ("nft", "awm")
"""The modes whose references sample without classifier-free guidance."""
STRICT = ("band", "card", "bars")


def _reward(task: str) -> tuple[dict, dict]:
    """(name -> reward function, name -> weight): the layout tasks train on the rubric's pass
    rate and watch the kind-preserving gold judge ``layout_kind`` at weight 0 (never trained on)."""
    if TASKS[task]["data"] == "layout":
        from rewards.judges.layout import LayoutJudge
        from rewards.judges.router import Router
        from rewards.reward_fns import LayoutKindReward, RubricReward

        fns = {"rubric": RubricReward(Router([LayoutJudge()]), score="pass_rate"), "layout_kind": LayoutKindReward()}
        return fns, {"rubric": 1.0, "layout_kind": 0.0}
    from rewards.toy_rewards import MeanRedness

    return {"redness": MeanRedness()}, {"redness": 1.0}


def _bench_config(recipe, out: str, mode: str, seed: int, args: argparse.Namespace, task: dict):
    """The recipe's config for one (mode, seed) run in ``out``: the tiny SD3 (16 px, or the
    pretrained one at 32 px), 2 prompts of 8 images a step, LoRA rank 4, no KL; CFG 4.5 for the
    Flow-GRPO modes from the pretrained generator, else none (``MODES`` overrides follow in ``run_one``)."""
    return recipe.CONFIG(
        output_dir=out,
        run_name=f"{mode}_{seed}",
        seed=seed,
        num_steps=args.steps,
        prompts_per_step=2,
        group_size=8,
        batch_size=16,
        resolution=task.get("resolution", 16),
        train_sampling_steps=args.T,
        eval_sampling_steps=args.T,
        cfg=bool(task.get("pretrained")) and mode not in CFG_FREE,
        cfg_scale=4.5,
        beta=0.0,
        lr=task["lr"],
        lora_rank=4,
        lora_alpha=4,
        lora_target_modules=["to_q", "to_k", "to_v", "to_out.0", "proj_out"],
        eval_every=args.eval_every,
        num_eval_prompts=task["num_eval_prompts"],
        save_every=args.steps,
        keep_last=1,
    )


def run_one(mode: str, seed: int, args: argparse.Namespace) -> dict:
    """Train one (mode, seed) in this process; returns its eval curve, per-step training seconds,
    the last step's image statistics and the last evaluation's check pass rates."""
    os.environ["WANDB_MODE"] = "disabled"
    import torch
    import transformers

    torch.set_num_threads(1)
    transformers.logging.set_verbosity_error()
    from rewards.models.tiny_pipelines import tiny_sd3_pipeline
    from training.diffusion import loop
    from training.diffusion.pretrain import load_pretrained
    from training.procedural.data import make_dataset

    task = TASKS[args.task]
    train_items, val_items = make_dataset(task["data_n"], 0, val_fraction=task["val_fraction"], task=task["data"])
    pipe = load_pretrained() if task.get("pretrained") else tiny_sd3_pipeline(0)
    overrides = MODES[mode][1](args.T, args.steps)
    algorithm = overrides.pop("algorithm", "grpo")
    recipe = importlib.import_module(f"training.recipes.{algorithm}")
    overrides.update(task.get("overrides_of", {}).get(algorithm, {}))
    step_seconds: list[float] = []
    eval_seconds: dict[int, float] = {}
    evals: list[dict] = []
    real_end_step, real_evaluate, real_tqdm = loop.end_step, loop.evaluate, loop.tqdm

    def timed_end_step(state, step, items, images, rewards, update, groups_kept, t0, eval_row):
        step_seconds.append(time.perf_counter() - t0 - eval_seconds.pop(step, 0.0))
        last_stats.clear()
        last_stats.update(rewards.image_stats)
        return real_end_step(state, step, items, images, rewards, update, groups_kept, t0, eval_row)

    def timed_evaluate(*a, **k):
        t0 = time.perf_counter()
        out = real_evaluate(*a, **k)
        eval_seconds[len(step_seconds)] = time.perf_counter() - t0
        evals.append({key: v for key, v in out.items() if key.startswith(("eval/checks/", "eval/images/"))})
        return out

    last_stats: dict = {}
    loop.end_step, loop.evaluate = timed_end_step, timed_evaluate
    loop.tqdm = lambda *a, **k: real_tqdm(*a, **{**k, "disable": True})  # no progress bars from the parallel runs
    try:
        with tempfile.TemporaryDirectory() as out:
            cfg = replace(_bench_config(recipe, out, mode, seed, args, task), **overrides)
            history = recipe.train(
                cfg,
                pipe,
                *_reward(args.task),
                train_items,
                val_items,
                {"max_sequence_length": 16},
            )
    finally:
        loop.end_step, loop.evaluate, loop.tqdm = real_end_step, real_evaluate, real_tqdm
    return {
        "mode": mode,
        "seed": seed,
        "eval_step": history["eval_step"],
        # the measured reward: the strict pass rate from the pretrained generator, else the rubric's
        "eval_reward": [strict(c) for c in history["eval_checks"]]
        if task.get("pretrained")
        else history["eval_reward"],
        "rubric_reward": history["eval_reward"],
        "kind": [e.get("layout_kind", float("nan")) for e in history["eval_rewards"]],
        "seconds": step_seconds,
        "image_stats": dict(last_stats),
        "checks": {k: v for k, v in evals[-1].items() if k.startswith("eval/checks/")} if evals else {},
        # the validation images' light fraction (white or nearly white pixels) at step 0 and at the end
        "eval_light": [evals[0].get("eval/images/light_fraction"), evals[-1].get("eval/images/light_fraction")]
        if evals
        else [],
        "batch": f"{cfg.prompts_per_step} x {cfg.group_size}",
    }


def strict(checks: dict[str, float]) -> float:
    """The strict pass rate of one evaluation: the mean of the band, card and bars pass rates."""
    return statistics.mean(checks[f"checks/{tag}/pass_rate"] for tag in STRICT)


def time_to(run: dict, threshold: float) -> tuple[float, float]:
    """(training steps, training seconds) to the first evaluation >= threshold; (inf, inf) if none."""
    for step, reward in zip(run["eval_step"], run["eval_reward"]):
        if reward >= threshold:
            return float(step), sum(run["seconds"][:step])
    return float("inf"), float("inf")


def spread(values: list[float], fmt: str) -> str:
    finite = [v for v in values if v != float("inf")]
    med = statistics.median(values)
    lo, hi = min(values), max(values)
    show = lambda v: "n/r" if v == float("inf") else format(v, fmt)  # noqa: E731
    return f"{show(med)} [{show(lo)}, {show(hi)}]" + (
        "" if len(finite) == len(values) else f" ({len(values) - len(finite)} n/r)"
    )


def print_table(args: argparse.Namespace, runs: list[dict], wall: float) -> None:
    """The table: per mode its step-0 and final reward, steps and seconds to the threshold and
    their ratios to the full trajectory's, then the reward-hacking signals."""
    task = TASKS[args.task]
    by_mode = {m: [r for r in runs if r["mode"] == m] for m in args.modes}
    final = lambda r: statistics.mean(r["eval_reward"][-2:])  # noqa: E731
    start = statistics.mean(r["eval_reward"][0] for r in by_mode["full"])
    gain = statistics.mean(final(r) for r in by_mode["full"]) - start
    threshold = start + args.fraction * gain
    model = "pretrained tiny layout SD3 32 px" if task.get("pretrained") else "tiny random-weight SD3 16 px"
    cfg = "Flow-GRPO modes CFG 4.5, NFT and AWM CFG-free" if task.get("pretrained") else "no CFG"
    batch = ", ".join(f"{m} {by_mode[m][0]['batch']}" for m in args.modes) + " prompts x images a step"
    print(
        f"task {args.task}: {model}, T={args.T}, {cfg}, {args.steps} steps, {batch}, "
        f"seeds {args.seeds}, eval every {args.eval_every} steps; wall {wall:.0f} s with {args.workers} workers; "
        f"load average {' '.join(f'{v:.1f}' for v in os.getloadavg())}"
    )
    measured = "strict pass rate (band, card, bars)" if task.get("pretrained") else "eval reward"
    print(
        f"measured: {measured}; full trajectory step 0 {start:.4f}, final {start + gain:.4f}; "
        f"threshold {threshold:.4f} ({args.fraction:.0%} of its gain)"
    )
    if gain <= 0:
        print("the full trajectory gained nothing on these seeds: the ratios below are not meaningful")
    print(
        f"{'mode':<30}{'s/step':>7}{'step 0':>8}{'steps to thr. med [min, max]':>30}{'x full':>7}"
        f"{'s to thr. med [min, max]':>30}{'x full':>7}{'final med [min, max]':>28}{'rubric final':>13}"
        f"{'charts kept 0 -> final':>24}"
    )
    base_steps = statistics.median(time_to(r, threshold)[0] for r in by_mode["full"])
    base_secs = statistics.median(time_to(r, threshold)[1] for r in by_mode["full"])
    ratio = lambda v, b: "n/r" if v == float("inf") or b in (0, float("inf")) else f"{v / b:.2f}"  # noqa: E731
    for m in args.modes:
        rs = by_mode[m]
        steps = [time_to(r, threshold)[0] for r in rs]
        secs = [time_to(r, threshold)[1] for r in rs]
        per_step = statistics.mean(statistics.mean(r["seconds"][1:] or r["seconds"]) for r in rs)
        print(
            f"{MODES[m][0]:<30}{per_step:>7.2f}{statistics.mean(r['eval_reward'][0] for r in rs):>8.3f}"
            f"{spread(steps, '.0f'):>30}{ratio(statistics.median(steps), base_steps):>7}{spread(secs, '.1f'):>30}"
            f"{ratio(statistics.median(secs), base_secs):>7}{spread([final(r) for r in rs], '.3f'):>28}"
            f"{statistics.mean(r['rubric_reward'][-1] for r in rs):>13.3f}"
            f"{statistics.mean(r['kind'][0] for r in rs):>15.2f} -> {spread([r['kind'][-1] for r in rs], '.2f')}"
        )
    print(
        "\nreward-hacking signals: the last step's image statistics, the validation images' light fraction "
        "(step 0 -> last evaluation) and the last evaluation's check pass rates (means over seeds)"
    )
    for m in args.modes:
        rs = by_mode[m]
        stats = {k: statistics.mean(r["image_stats"].get(k, float("nan")) for r in rs) for k in rs[0]["image_stats"]}
        checks = {
            k.removeprefix("eval/checks/").removesuffix("/pass_rate"): statistics.mean(
                r["checks"].get(k, float("nan")) for r in rs
            )
            for k in rs[0]["checks"]
        }
        print(
            f"{MODES[m][0]:<30}"
            + "  ".join(f"{k} {v:.3f}" for k, v in stats.items())
            + (
                f"  eval light {statistics.mean(r['eval_light'][0] for r in rs):.3f} -> "
                f"{statistics.mean(r['eval_light'][1] for r in rs):.3f}"
                if all(r["eval_light"] and None not in r["eval_light"] for r in rs)
                else ""
            )
            + ("  |  " + "  ".join(f"{k} {v:.2f}" for k, v in checks.items()) if checks else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(TASKS), default="layout_pretrained")
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=[1, 2, 3], help="report seeds (seed 0 was used for tuning)"
    )
    parser.add_argument("--steps", type=int, default=40, help="training steps per run")
    parser.add_argument("-T", type=int, default=None, help="sampling steps (10 from the pretrained generator, else 4)")
    parser.add_argument("--eval-every", type=int, default=5)
    parser.add_argument(
        "--fraction", type=float, default=0.5, help="share of the full trajectory's reward gain to reach"
    )
    parser.add_argument("--workers", type=int, default=3, help="runs in parallel (one CPU thread each)")
    parser.add_argument(
        "--modes", nargs="+", choices=list(MODES), default=None, help=f"default: {' '.join(DEFAULT_MODES)}"
    )
    args = parser.parse_args()
    args.modes = args.modes or list(DEFAULT_MODES)
    if args.T is None:
        args.T = 10 if TASKS[args.task].get("pretrained") else 4
    for name in ("steps", "T", "eval_every", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction must be in (0, 1], got {args.fraction}")
    if "full" not in args.modes:
        sys.exit("grpo_time_to_reward: the full trajectory is the baseline; keep it in --modes")
    if TASKS[args.task].get("pretrained"):
        from training.diffusion.pretrain import ensure_pretrained

        ensure_pretrained()  # once, before the workers load it
    t0 = time.perf_counter()
    jobs = [(m, s) for m in args.modes for s in args.seeds]
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=get_context("spawn")) as pool:
        runs = list(pool.map(run_one, *zip(*jobs), [args] * len(jobs)))
    print_table(args, runs, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
