"""Qwen2.5-VL for the in-process judge and instruction writer: the loader, a build-time check
that the weights can be had, and the image fit."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PIL import Image

from rewards.models import devices


def load_qwen2_5_vl(model_id: str, torch_dtype: str, device: str, tiny: bool) -> tuple[Any, Any]:
    """Load a Qwen2.5-VL model (eval mode, on ``device``) and its processor (left padding).

    Args:
        model_id: a hub id or local folder, read with ``from_pretrained``; ignored when ``tiny``.
        torch_dtype: weights dtype name, e.g. "bfloat16".
        device: "cuda", "cuda:1", "cpu".
        tiny: build a random-weight model in code instead (``rewards.models.tiny_vlm``; no hub,
            for tests).

    Returns:
        ``(model, processor)``: a ``Qwen2_5_VLForConditionalGeneration`` and its processor.

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: unknown dtype name, or a
        processor without a chat template.
    """
    dev, dtype = devices.require_device(device, "local_vlm", "device=cpu"), devices.torch_dtype(torch_dtype)
    if tiny:
        from rewards.models.tiny_vlm import tiny_qwen2_5_vl

        model, processor = tiny_qwen2_5_vl(seed=0)
        model = model.to(dtype)
    else:
        from transformers import AutoProcessor, Qwen2_5_VLForConditionalGeneration

        model = Qwen2_5_VLForConditionalGeneration.from_pretrained(model_id, dtype=dtype)
        processor = AutoProcessor.from_pretrained(model_id)
    if processor.chat_template is None:
        raise ValueError(f"model {model_id!r}: its processor has no chat template; the judge needs one")
    # Decoder-only: pad on the left so the last position of every row is its real last token.
    processor.tokenizer.padding_side = "left"
    return model.to(dev).eval(), processor


HUB_TIMEOUT_S = 5.0
"""How long :func:`check_model_available` waits for the Hugging Face Hub, seconds."""


def hub_offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` or ``TRANSFORMERS_OFFLINE`` is set to 1/true/yes/on (read now,
    not at import: huggingface_hub reads it once when imported)."""
    flags = (os.environ.get(v, "").strip().lower() for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))
    return any(f in ("1", "true", "yes", "on") for f in flags)


def check_model_available(model_id: str, timeout_s: float = HUB_TIMEOUT_S) -> None:
    """Fail fast, in one line, when ``from_pretrained(model_id)`` could not get the weights:
    called when a judge is built, so a wrong id fails once before the first item instead of
    trying the network on every item.

    Passes when ``model_id`` is a local folder with a ``config.json``, or a hub id whose
    ``config.json`` is in the local Hugging Face cache, or (online) a hub id the Hub knows
    (``HfApi.model_info`` within ``timeout_s`` seconds).

    Raises:
        ValueError: ``"model_id=<id>: ..."``: a folder without ``config.json``; not cached while
            offline (``HF_HUB_OFFLINE=1``); not on the Hub; the Hub not reachable in time.
    """
    from huggingface_hub import HfApi, constants, try_to_load_from_cache
    from huggingface_hub.errors import RepositoryNotFoundError

    head = f"model_id={model_id!r}"
    if Path(model_id).is_dir():
        if not (Path(model_id) / "config.json").is_file():
            raise ValueError(f"{head}: the folder has no config.json (not a transformers model folder)")
        return
    try:
        cached = try_to_load_from_cache(model_id, "config.json")
    except ValueError as e:  # HFValidationError: not a valid repo id either
        why = " ".join(str(e).split())[:150]
        raise ValueError(f"{head}: not a local folder and not a valid hub id ({why})") from None
    if isinstance(cached, str):
        return
    where = f"not a local folder and not in the Hugging Face cache ({constants.HF_HUB_CACHE})"
    if hub_offline():
        raise ValueError(f"{head}: {where}, and HF_HUB_OFFLINE=1 forbids downloading it")
    try:
        HfApi().model_info(model_id, timeout=timeout_s)
    except RepositoryNotFoundError:
        raise ValueError(f"{head}: {where}, and the Hugging Face Hub has no such model (or it is private)") from None
    except Exception as e:  # connection refused, DNS, timeout: offline in practice
        raise ValueError(
            f"{head}: {where}, and the Hugging Face Hub did not answer within {timeout_s:g} s "
            f"({type(e).__name__}); download it first or give a local folder"
        ) from None


def fit_image(image: Image.Image, max_side: int) -> Image.Image:
    """Decode ``image`` to RGB and shrink it (bicubic, aspect kept) so its longer side is at
    most ``max_side`` pixels. Raises whatever PIL raises for a corrupt or truncated image."""
    image = image.convert("RGB")
    scale = max_side / max(image.size)
    if scale < 1:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.BICUBIC)
    return image
