"""Programmatic rewards a tiny random-weight model can move: the CPU learning task.

Rubric and OCR rewards are 0 for every image of a tiny model (its images are noise, so no text
is read), every group is dropped and nothing is learned. These rewards score a colour property
of the whole image, which a LoRA on a 16 px tiny SD3 can shift within a few dozen GRPO steps:
``rubricloop-train model=tiny_sd3 rewards=redness`` (conf/rewards/redness.yaml) shows the
evaluation reward rising. Same contract as ``rewards.reward_fns`` (trl's: ``fn(prompts, images,
**columns) -> list[float]``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from PIL import Image


class MeanRedness:
    """Mean over pixels of R - (G + B) / 2, with 8-bit channels scaled to [0, 1]; in [-1, 1].

    1 for a pure red image, -0.5 for pure green or blue, 0 for any grey. Dense (every pixel
    counts a little), unlike ``rewards.reward_fns.RedFractionReward``'s thresholded share.
    """

    name = "redness"

    def __call__(self, prompts: Sequence[str], images: Sequence[Image.Image], **columns: Any) -> list[float]:
        weights = np.array([1.0, -0.5, -0.5], dtype=np.float32)
        return [float((np.asarray(im.convert("RGB"), dtype=np.float32) / 255.0 @ weights).mean()) for im in images]
