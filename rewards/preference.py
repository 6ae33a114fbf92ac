"""Image-preference rewards: a CLIP-style scorer through transformers (PickScore and its kin).

PickScore (Kirstain et al., "Pick-a-Pic", arXiv 2305.01569 §4; yuvalkirstain/PickScore README)
scores an image for a prompt as

    s = exp(logit_scale) * cos(E_img(image), E_txt(prompt))

with the CLIP model's image and text embeddings (its projections) and its learned temperature.
Flow-GRPO trains on it (yifan123/flow_grpo 94e23ee, ``flow_grpo/rewards.py``: ``pickscore_score``)
and so does Flow-Factory (X-GenGroup/Flow-Factory 73ddbdc, ``src/flow_factory/rewards/pick_score.py``:
``PickScoreRewardModel``, which L2-normalises both embeddings, multiplies by ``logit_scale.exp()``
and divides by 26, "norm to 0-1"). The code here is our own.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Sequence

import torch
from PIL import Image

from rewards.models.devices import require_device, torch_dtype


class CLIPPreferenceReward:
    """``reward_i = exp(logit_scale) * cos(image_i, prompt_i) / divide_by`` (module docstring),
    in our reward contract (``rewards.reward_fns``): one float per image, never None.

    Args:
        model: the CLIP model's hub id or folder (``CLIPModel.from_pretrained``), e.g.
            ``yuvalkirstain/PickScore_v1``.
        processor: the processor's hub id or folder (``CLIPProcessor.from_pretrained``); PickScore
            uses ``laion/CLIP-ViT-H-14-laion2B-s32B-b79K``.
        divide_by: the scale the score is divided by (26 in Flow-GRPO and Flow-Factory; 1 for
            the raw logit).
        batch_size: images per forward pass.
        device: torch device ("cuda", "cpu").
        dtype: "float32", "float16" or "bfloat16".
        tiny: the name of a builder in ``rewards.models.tiny_clip`` (e.g. ``tiny_clip_scorer``)
            that returns (model, processor) with random weights, for tests and smoke runs; then
            ``model`` and ``processor`` are not loaded.
        name: the name the reward is logged under (``rewards/<name>/mean``).

    Call: ``reward(prompts, images, **columns) -> list[float]``; text longer than 77 tokens is
    truncated (CLIP's context).

    Raises:
        ValueError: a bad ``dtype``, ``batch_size`` < 1, ``divide_by`` <= 0, a ``model`` or
            ``processor`` path (starting with / . or ~) that does not exist, or an unknown
            ``tiny`` builder; at call time, prompts and images differ in number.
        RuntimeError: ``device`` is CUDA on a machine without one (``require_device``).
        OSError: the weights cannot be found or downloaded (``from_pretrained``).
    """

    def __init__(
        self,
        model: str = "yuvalkirstain/PickScore_v1",
        processor: str = "laion/CLIP-ViT-H-14-laion2B-s32B-b79K",
        divide_by: float = 26.0,
        batch_size: int = 16,
        device: str = "cuda",
        dtype: str = "float32",
        tiny: str | None = None,
        name: str = "pickscore",
    ):
        if batch_size < 1 or not divide_by > 0:
            raise ValueError(f"{name}: batch_size must be >= 1 and divide_by > 0, got {batch_size}, {divide_by}")
        self.name, self.divide_by, self.batch_size = name, float(divide_by), batch_size
        self.device = require_device(device, f"rewards {name}", "device=cpu")
        dtype_ = torch_dtype(dtype)  # a bad dtype fails before gigabytes are loaded
        for field, ref in (("model", model), ("processor", processor)):
            if not tiny and str(ref).startswith(("/", "./", "../", "~")) and not Path(ref).expanduser().exists():
                raise ValueError(f"{name}: {field}={ref!r}: no such folder")  # a path, not a hub id: no download
        if tiny:
            builders = importlib.import_module("rewards.models.tiny_clip")
            if not callable(getattr(builders, tiny, None)):
                raise ValueError(f"{name}: tiny={tiny!r} is no builder in rewards.models.tiny_clip")
            self.model, self.processor = getattr(builders, tiny)()
        else:
            from transformers import CLIPModel, CLIPProcessor

            self.processor = CLIPProcessor.from_pretrained(processor)
            self.model = CLIPModel.from_pretrained(model)
        self.model = self.model.to(self.device, dtype_).eval().requires_grad_(False)
        self.model_id = tiny or model

    @torch.no_grad()
    def scores(self, prompts: Sequence[str], images: Sequence[Image.Image]) -> torch.Tensor:
        """The raw scores ``exp(logit_scale) * cos`` before ``divide_by``: Tensor (N,) float32.

        Raises:
            ValueError: prompts and images differ in number.
        """
        if len(prompts) != len(images):
            raise ValueError(f"reward {self.name!r}: got {len(prompts)} prompts but {len(images)} images")
        out = []
        for start in range(0, len(images), self.batch_size):
            texts = list(prompts[start : start + self.batch_size])
            batch = [im.convert("RGB") for im in images[start : start + self.batch_size]]
            pixels = self.processor(images=batch, return_tensors="pt")["pixel_values"]  # (B, 3, H, W)
            tokens = self.processor(text=texts, padding=True, truncation=True, max_length=77, return_tensors="pt")
            pixels = pixels.to(self.device, self.model.dtype)
            ids, mask = tokens["input_ids"].to(self.device), tokens["attention_mask"].to(self.device)  # (B, L)
            image_emb = _embedding(self.model.get_image_features(pixel_values=pixels))  # (B, D)
            text_emb = _embedding(self.model.get_text_features(input_ids=ids, attention_mask=mask))  # (B, D)
            cos = torch.nn.functional.cosine_similarity(image_emb.float(), text_emb.float(), dim=-1)  # (B,)
            out.append(self.model.logit_scale.exp().float() * cos)
        return torch.cat(out).cpu() if out else torch.zeros(0)

    def __call__(self, prompts: Sequence[str], images: Sequence[Image.Image], **columns: Any) -> list[float | None]:
        return [float(s) / self.divide_by for s in self.scores(prompts, images)]


def _embedding(features: Any) -> torch.Tensor:
    """The projected embedding (B, D): transformers 5 returns a ``BaseModelOutputWithPooling``
    whose ``pooler_output`` holds it; older releases return the tensor itself."""
    return features if isinstance(features, torch.Tensor) else features.pooler_output
