"""Torch dtype names and device checks shared by every component that loads a model."""

from __future__ import annotations

import torch

TORCH_DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


def torch_dtype(name: str) -> torch.dtype:
    """``"bfloat16"`` -> ``torch.bfloat16`` (also ``float16``, ``float32``).

    Raises:
        ValueError: any other name, e.g. ``torch_dtype='bf16' is not one of [...]``.
    """
    if name not in TORCH_DTYPES:
        raise ValueError(f"torch_dtype={name!r} is not one of {sorted(TORCH_DTYPES)}")
    return TORCH_DTYPES[name]


def require_device(device: str, what: str, fix: str = "device=cpu") -> torch.device:
    """``torch.device(device)``, failing early and in one line when CUDA is asked for but absent.

    Args:
        device: torch device string from the config ("cuda", "cuda:1", "cpu").
        what: the component, as the user selected it (e.g. ``"editor=flux_kontext"``).
        fix: what to change instead (e.g. ``"editor=tiny or device=cpu"``).

    Raises:
        RuntimeError: ``<what> needs a GPU; device=<device> not available; use <fix>``.
    """
    dev = torch.device(device)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError(f"{what} needs a GPU; device={device} not available; use {fix}")
    return dev
