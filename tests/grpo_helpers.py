"""Shared by the GRPO tests: tiny prompt lists and a programmatic reward (not a test module)."""

from types import SimpleNamespace

import numpy as np

TRAIN = [SimpleNamespace(prompt=f"a slide number {i}") for i in range(8)]
VAL = [SimpleNamespace(prompt=f"a chart number {i}") for i in range(4)]


def redness(prompts, images, **columns):
    """Mean of R - (G + B) / 2 over pixels, in [-1, 1]: a programmatic 'make it red' reward."""
    return [float((np.asarray(im, dtype=np.float32) / 255 @ np.array([1.0, -0.5, -0.5])).mean()) for im in images]


TINY_TRAINER = dict(
    run_name="run",
    num_steps=2,
    prompts_per_step=2,
    group_size=4,
    batch_size=8,
    resolution=16,
    train_sampling_steps=4,
    eval_sampling_steps=4,
    cfg=False,
    beta=0.0,
    lr=3e-2,
    lora_rank=4,
    lora_alpha=4,
    eval_every=100,
    num_eval_prompts=4,
    save_every=100,
    timestep_fraction=1.0,
)
"""The tiny trainer settings the recipe tests share: 16 px, T = 4, 2 prompts x 4 images in one
minibatch, no CFG, no KL, no evaluation or checkpoint midway."""


def tiny_trainer(config_cls, output_dir, **kw):
    """``config_cls`` (a recipe's config dataclass) at test sizes: :data:`TINY_TRAINER` with the
    fields in ``kw`` replaced, writing under ``output_dir``."""
    return config_cls(output_dir=str(output_dir), **{**TINY_TRAINER, **kw})


class GreyPages:
    """A reward that pays for grey pages: minus the share of white or nearly white pixels
    (``rewards.image_stats.light_fraction``), in [-1, 0]. What a reward that drifts a run's pages
    grey does, made direct (the monitors' drifting run)."""

    def __call__(self, prompts, images, **columns):
        from rewards.image_stats import light_fraction

        return [-light_fraction(im) for im in images]
