"""Qwen2.5-VL for the in-process judge and instruction writer: the loader and the image fit."""

from __future__ import annotations

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


def fit_image(image: Image.Image, max_side: int) -> Image.Image:
    """Decode ``image`` to RGB and shrink it (bicubic, aspect kept) so its longer side is at
    most ``max_side`` pixels. Raises whatever PIL raises for a corrupt or truncated image."""
    image = image.convert("RGB")
    scale = max_side / max(image.size)
    if scale < 1:
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(size, Image.Resampling.BICUBIC)
    return image
