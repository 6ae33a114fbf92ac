"""Fixtures the training tests share."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def generator_dir() -> Path:
    """The tiny layout generator's folder (``training.diffusion.pretrain``), built once per session
    when ``checkpoints/pretrained/tiny_layout_sd3`` does not hold it (about 3 min on one core)."""
    from training.diffusion.pretrain import DEFAULT_DIR, ensure_pretrained

    return ensure_pretrained(REPO / DEFAULT_DIR)
