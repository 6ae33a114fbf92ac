"""Image statistics that make reward hacking visible in the training logs.

A text reward with no KL term is known to blank backgrounds to raise text contrast
(Flow-GRPO, arXiv 2505.05470); grid artifacts and colour collapse are the other usual
failures, and a page that greys (its white ground turning grey) the quiet one. Logged per step,
these four numbers move when that happens:

- ``dark_fraction``: fraction of pixels with luma < 0.1, in [0, 1];
- ``light_fraction``: fraction of pixels with luma >= 0.85 (white or nearly white: within the
  layout judge's clear difference 0.15 of white, ``rewards.judges.layout``), in [0, 1];
- ``color_entropy_bits``: Shannon entropy, in bits, of the colour histogram with 4 bits per
  channel (16^3 = 4096 bins), in [0, 12];
- ``edge_density``: fraction of pixels whose luma gradient magnitude exceeds a threshold,
  in [0, 1].

Luma is ITU-R BT.601, Y = 0.299 R + 0.587 G + 0.114 B on 8-bit channels scaled to [0, 1].
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image

STAT_NAMES = ("dark_fraction", "color_entropy_bits", "edge_density", "light_fraction")
"""The keys of ``image_stats``, in order."""

DARK_LUMA = 0.1
"""Luma below which a pixel counts as dark (luma in [0, 1])."""

LIGHT_LUMA = 0.85
"""Luma at or above which a pixel counts as white or nearly white: the page's ground (luma in [0, 1])."""

EDGE_THRESHOLD = 0.1
"""Luma gradient magnitude (luma units per pixel) above which a pixel counts as an edge."""


def luma(image: Image.Image) -> np.ndarray:
    """BT.601 luma of ``image`` (converted to RGB): float64 (H, W) in [0, 1]."""
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0  # (H, W, 3)
    return rgb @ np.array([0.299, 0.587, 0.114])  # (H, W)


def dark_fraction(image: Image.Image, threshold: float = DARK_LUMA) -> float:
    """Fraction of pixels with luma < ``threshold``, in [0, 1]."""
    return float((luma(image) < threshold).mean())


def light_fraction(image: Image.Image, threshold: float = LIGHT_LUMA) -> float:
    """Fraction of pixels with luma >= ``threshold``, in [0, 1]: the white or nearly white ground
    of a page (a white page with dark bars over a third of it gives about 2/3)."""
    return float((luma(image) >= threshold).mean())


def color_entropy(image: Image.Image) -> float:
    """Entropy in bits of the 4-bit-per-channel colour histogram (4096 bins), in [0, 12].

    Each 8-bit channel keeps its top 4 bits; the bin is r * 256 + g * 16 + b. One flat colour
    gives 0; two colours in equal shares give 1.
    """
    q = np.asarray(image.convert("RGB"), dtype=np.uint16) >> 4  # (H, W, 3) in [0, 15]
    bins = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]  # (H, W) in [0, 4095]
    counts = np.bincount(bins.ravel(), minlength=4096)
    p = counts[counts > 0] / bins.size
    return float(-(p * np.log2(p)).sum() + 0.0)  # + 0.0 turns -0.0 into 0.0


def edge_density(image: Image.Image, threshold: float = EDGE_THRESHOLD) -> float:
    """Fraction of pixels whose luma gradient magnitude exceeds ``threshold``, in [0, 1].

    Forward differences gx = Y[y, x+1] - Y[y, x], gy = Y[y+1, x] - Y[y, x], magnitude
    sqrt(gx^2 + gy^2), over the (H-1) x (W-1) pixels that have both neighbours. A vertical
    black/white boundary in a W-pixel-wide image gives 1 / (W - 1).

    Raises:
        ValueError: the image is narrower or shorter than 2 pixels.
    """
    y = luma(image)
    if y.shape[0] < 2 or y.shape[1] < 2:
        raise ValueError(f"edge_density needs an image of at least 2x2 pixels, got {image.width}x{image.height}")
    gx = y[:-1, 1:] - y[:-1, :-1]  # (H-1, W-1)
    gy = y[1:, :-1] - y[:-1, :-1]  # (H-1, W-1)
    return float((np.hypot(gx, gy) > threshold).mean())


def image_stats(images: Sequence[Image.Image]) -> dict[str, float]:
    """Batch means of ``dark_fraction``, ``color_entropy_bits``, ``edge_density`` and ``light_fraction``.

    Args:
        images: PIL images of any mode and size (each converted to RGB).

    Returns:
        ``{"dark_fraction": [0, 1], "color_entropy_bits": [0, 12] bits, "edge_density": [0, 1],
        "light_fraction": [0, 1]}``, each the plain mean over the images.

    Raises:
        ValueError: ``images`` is empty, or an image is smaller than 2x2 pixels.
    """
    if len(images) == 0:
        raise ValueError("image_stats: no images")
    stats = [(dark_fraction(im), color_entropy(im), edge_density(im), light_fraction(im)) for im in images]
    dark, entropy, edges, light = (float(np.mean(col)) for col in zip(*stats))
    return {"dark_fraction": dark, "color_entropy_bits": entropy, "edge_density": edges, "light_fraction": light}
