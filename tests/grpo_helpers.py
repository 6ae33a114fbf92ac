"""Shared by the GRPO tests: tiny prompt lists and a programmatic reward (not a test module)."""

from types import SimpleNamespace

import numpy as np

TRAIN = [SimpleNamespace(prompt=f"a slide number {i}") for i in range(8)]
VAL = [SimpleNamespace(prompt=f"a chart number {i}") for i in range(4)]


def redness(prompts, images, **columns):
    """Mean of R - (G + B) / 2 over pixels, in [-1, 1]: a programmatic 'make it red' reward."""
    return [float((np.asarray(im, dtype=np.float32) / 255 @ np.array([1.0, -0.5, -0.5])).mean()) for im in images]
