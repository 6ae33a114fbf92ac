"""Time and GRPO steps to a fixed share of the reward gain: full trajectory vs timestep subset vs
Flow-GRPO-Fast window vs MixGRPO sliding window, several seeds each, in one run (CPU).

The task is the tiny learning task of the README (``conf/experiment/tiny_redness.yaml``: tiny
random-weight SD3 at 16 px, reward ``rewards.toy_rewards.MeanRedness``), with T sampling steps,
evaluated every ``--eval-every`` steps by ODE samples of 8 fixed validation prompts from fixed
noise (``eval_seed``). Every run calls ``training.grpo.train`` itself. Per run, the wall-clock
time of each GRPO step comes from the trainer's ``s_per_step`` log minus the time of the
evaluation inside that step, so evaluation is not counted.

Threshold: the step-0 evaluation reward (the same for every run: the LoRA starts at zero) plus
``--fraction`` of the full trajectory's gain, gain = mean over its seeds of the mean of its last
three evaluations, minus the step-0 reward. For each run: the first evaluation step at or above
the threshold, and the training seconds up to it. Printed per mode: median and [min, max] over
seeds, and the median as a ratio to the full trajectory's; a seed that never reaches it counts
as infinite and shows as "n/r" (not reached).

    python benchmarks/grpo_time_to_reward.py                    # 4 modes x 3 seeds, about 8-12 min on 2 cores
    python benchmarks/grpo_time_to_reward.py --seeds 1 2 --steps 20 --workers 1

Seed 0 was used to choose the task's settings (learning rate, beta = 0, T); the default seeds
1-3 only measure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import get_context

MODES = {  # key -> (label, GRPOConfig overrides as a function of T and the number of steps)
    "full": ("full trajectory", lambda T, n: {"timestep_fraction": 1.0}),
    "subset": ("timestep subset 0.5", lambda T, n: {"timestep_fraction": 0.5}),
    "fast": ("Flow-GRPO-Fast window", lambda T, n: {"sde_window": 2}),
    "mixgrpo": (
        "MixGRPO sliding window",
        lambda T, n: {"sde_window": 2, "window_schedule": "mixgrpo", "window_shift_every": max(1, n // 3)},
    ),
}


def run_one(mode: str, seed: int, args: argparse.Namespace) -> dict:
    """Train one (mode, seed) in this process; returns its eval curve and per-step train seconds."""
    os.environ["WANDB_MODE"] = "disabled"
    import torch
    import transformers

    torch.set_num_threads(1)
    transformers.logging.set_verbosity_error()
    from rewards.models.tiny_pipelines import tiny_sd3_pipeline
    from rewards.toy_rewards import MeanRedness
    from training import grpo
    from training import logs as run_logs
    from training.config import GRPOConfig
    from training.data import make_dataset

    train_items, val_items = make_dataset(200, 0, val_fraction=0.05)
    logs: dict[int, dict] = {}

    class Recorder:
        def log(self, row, step):
            logs.setdefault(step, {}).update(row)

        def finish(self):
            pass

    run_logs.init_wandb = lambda *a: Recorder()
    real_tqdm = grpo.tqdm
    grpo.tqdm = lambda *a, **k: real_tqdm(*a, **{**k, "disable": True})  # no progress bars from the parallel runs
    eval_seconds: list[float] = []
    real_evaluate = grpo.evaluate

    def timed_evaluate(*a, **k):
        t0 = time.perf_counter()
        out = real_evaluate(*a, **k)
        eval_seconds.append(time.perf_counter() - t0)
        return out

    grpo.evaluate = timed_evaluate
    with tempfile.TemporaryDirectory() as out:
        cfg = GRPOConfig(
            output_dir=out,
            run_name=f"{mode}_{seed}",
            seed=seed,
            num_steps=args.steps,
            prompts_per_step=2,
            group_size=8,
            batch_size=16,
            resolution=16,
            train_sampling_steps=args.T,
            eval_sampling_steps=args.T,
            cfg=False,
            beta=0.0,
            lr=3e-2,
            lora_rank=4,
            lora_alpha=4,
            lora_target_modules=["to_q", "to_k", "to_v", "to_out.0", "proj_out"],
            eval_every=args.eval_every,
            num_eval_prompts=8,
            save_every=args.steps,
            keep_last=1,
        )
        cfg = replace(cfg, **MODES[mode][1](args.T, args.steps))
        history = grpo.train(
            cfg,
            tiny_sd3_pipeline(0),
            {"redness": MeanRedness()},
            {"redness": 1.0},
            train_items,
            val_items,
            {"max_sequence_length": 16},
        )
    evals_in_loop = iter(eval_seconds)
    seconds = [
        logs[s]["s_per_step"] - (next(evals_in_loop) if s % args.eval_every == 0 else 0.0) for s in range(args.steps)
    ]
    return {
        "mode": mode,
        "seed": seed,
        "eval_step": history["eval_step"],
        "eval_reward": history["eval_reward"],
        "seconds": seconds,
    }


def time_to(run: dict, threshold: float) -> tuple[float, float]:
    """(GRPO steps, training seconds) to the first evaluation >= threshold; (inf, inf) if none."""
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
        "" if len(finite) == len(values) else f" ({len(values) - len(finite)} not reached)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=[1, 2, 3], help="report seeds (seed 0 was used for tuning)"
    )
    parser.add_argument("--steps", type=int, default=30, help="GRPO steps per run")
    parser.add_argument("-T", type=int, default=6, help="sampling steps")
    parser.add_argument("--eval-every", type=int, default=2)
    parser.add_argument(
        "--fraction", type=float, default=0.5, help="share of the full trajectory's reward gain to reach"
    )
    parser.add_argument("--workers", type=int, default=2, help="runs in parallel (one CPU thread each)")
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=list(MODES))
    args = parser.parse_args()
    if "full" not in args.modes:
        sys.exit("grpo_time_to_reward: the full trajectory is the baseline; keep it in --modes")
    t0 = time.perf_counter()
    jobs = [(m, s) for m in args.modes for s in args.seeds]
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=get_context("spawn")) as pool:
        runs = list(pool.map(run_one, *zip(*jobs), [args] * len(jobs)))
    by_mode = {m: [r for r in runs if r["mode"] == m] for m in args.modes}
    start = runs[0]["eval_reward"][0]
    final = lambda r: statistics.mean(r["eval_reward"][-3:])  # noqa: E731
    gain = statistics.mean(final(r) for r in by_mode["full"]) - start
    threshold = start + args.fraction * gain
    print(
        f"tiny SD3 16 px, redness reward, T={args.T}, {args.steps} GRPO steps, B=16 (2 prompts x G=8), "
        f"seeds {args.seeds}, "
        f"eval every {args.eval_every} steps; wall {time.perf_counter() - t0:.0f} s with {args.workers} workers"
    )
    print(
        f"step-0 eval reward {start:.4f}; full-trajectory final {start + gain:.4f}; "
        f"threshold {threshold:.4f} ({args.fraction:.0%} of the gain)"
    )
    header = (
        f"{'mode':<24}{'s/step':>8}{'steps to thr. med [min, max]':>32}{'x full':>8}"
        f"{'s to thr. med [min, max]':>34}{'x full':>8}{'final reward med [min, max]':>36}"
    )
    print(header)
    base_steps = statistics.median(time_to(r, threshold)[0] for r in by_mode["full"])
    base_secs = statistics.median(time_to(r, threshold)[1] for r in by_mode["full"])
    for m in args.modes:
        rs = by_mode[m]
        steps = [time_to(r, threshold)[0] for r in rs]
        secs = [time_to(r, threshold)[1] for r in rs]
        per_step = statistics.mean(statistics.mean(r["seconds"][1:]) for r in rs)
        ratio = lambda v, b: "n/r" if v == float("inf") or b == float("inf") else f"{v / b:.2f}"  # noqa: E731
        print(
            f"{MODES[m][0]:<24}{per_step:>8.2f}{spread(steps, '.0f'):>32}"
            f"{ratio(statistics.median(steps), base_steps):>8}{spread(secs, '.1f'):>34}"
            f"{ratio(statistics.median(secs), base_secs):>8}{spread([final(r) for r in rs], '.4f'):>36}"
        )


if __name__ == "__main__":
    main()
