"""The bound of the ``eval_light_fraction`` monitor of ``+experiment=tiny_layout_pretrained``
(and of the layout learning test), derived from the pretrained generator's own samples.

The signal is the share of white or nearly white pixels (luma >= 0.85,
``rewards.image_stats.light_fraction``) in the evaluation's samples of the 40 validation prompts
(16 slides, 24 charts). A chart stands on a white page and a slide's card is white, so a run whose
pages grey moves it down, and a run that blanks its pages moves it up. The bound is

    [min_s L_s - margin, max_s L_s + margin],  margin = KIND_MARGIN * (charts / prompts) * C,

with L_s the signal of the untrained generator's samples from noise seed s (``--seeds``, T = 4,
no CFG, as the trainer evaluates), and C its mean light fraction on the chart prompts: the margin
is what losing the whole white ground of KIND_MARGIN (0.15, the learning test's kind margin: 3
of the 24 charts) of the charts would take off the mean. Nothing here looks at a trained run.

    python scripts/layout_light_bound.py            # noise seeds 0-7, about 20 s on one core
"""

from __future__ import annotations

import argparse
import math
import statistics

import torch

KIND_MARGIN = 0.15
"""The share of a kind's prompts the learning test lets a run lose (``test_layout_learning.KIND_MARGIN``)."""


def light_samples(seeds: list[int], steps: int = 4) -> tuple[list[float], list[float], float]:
    """The signal L_s per noise seed, the chart-only mean per seed, and the share of chart prompts."""
    from rewards.image_stats import light_fraction
    from training.diffusion.pretrain import load_pretrained
    from training.diffusion.rollout import _truncation_quiet
    from training.procedural.data import make_dataset

    pipe = load_pretrained()
    _, val = make_dataset(400, 0, val_fraction=0.1, task="layout")
    charts = [it.meta["kind"] == "chart" for it in val]
    overall, chart_means = [], []
    for seed in seeds:
        with _truncation_quiet():
            images = pipe(
                [it.prompt for it in val],
                height=32,
                width=32,
                num_inference_steps=steps,
                guidance_scale=1.0,
                max_sequence_length=16,
                generator=torch.Generator().manual_seed(seed),
            ).images
        light = [light_fraction(im) for im in images]
        overall.append(statistics.mean(light))
        chart_means.append(statistics.mean(v for v, c in zip(light, charts) if c))
    return overall, chart_means, sum(charts) / len(charts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(8)))
    args = parser.parse_args()
    torch.set_num_threads(1)
    overall, chart_means, share = light_samples(args.seeds)
    margin = KIND_MARGIN * share * statistics.mean(chart_means)
    lo, hi = math.floor((min(overall) - margin) * 100) / 100, math.ceil((max(overall) + margin) * 100) / 100
    print(f"light fraction of the untrained samples per noise seed {args.seeds}: {[round(v, 3) for v in overall]}")
    print(f"charts only: mean {statistics.mean(chart_means):.3f}; chart share {share:.2f}; margin {margin:.3f}")
    print(f"bound: trainer.hacking_bounds.eval_light_fraction=[{lo},{hi}]")


if __name__ == "__main__":
    main()
