"""A tiny random-weight CLIP scorer built in code (no hub): a ``CLIPModel`` with 2-layer text and
vision towers and a ``CLIPProcessor`` over the in-memory byte-level CLIP tokenizer
(``rewards.models.tiny_pipelines.tiny_clip_tokenizer``) and a PIL ``CLIPImageProcessor`` (no
torchvision). Its scores mean nothing; tests and smoke runs use it to exercise the real
preference-reward path (``rewards.preference.CLIPPreferenceReward``, ``tiny=tiny_clip_scorer``).
"""

from __future__ import annotations

import torch
from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor

from rewards.models.tiny_pipelines import CLIP_MAX_LENGTH, tiny_clip_tokenizer

IMAGE_SIZE = 32
"""The side, in pixels, every image is resized and centre-cropped to before the vision tower."""


def tiny_clip_scorer(seed: int = 0) -> tuple[CLIPModel, CLIPProcessor]:
    """(model, processor): a random-weight ``CLIPModel`` (hidden 32, projection 16, 2 layers per
    tower, patch 8 on 32 px images) in eval mode, seeded by ``seed``, and its processor.

    The model's ``logit_scale`` is CLIP's initial ``log(1 / 0.07)``, so scores are
    ``14.3 * cos(image, text)`` in [-14.3, 14.3].
    """
    tokenizer = tiny_clip_tokenizer()
    text = {
        "vocab_size": len(tokenizer),
        "hidden_size": 32,
        "intermediate_size": 37,
        "num_attention_heads": 4,
        "num_hidden_layers": 2,
        "max_position_embeddings": CLIP_MAX_LENGTH,
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "pad_token_id": tokenizer.pad_token_id,
    }
    vision = {
        "hidden_size": 32,
        "intermediate_size": 37,
        "num_attention_heads": 4,
        "num_hidden_layers": 2,
        "image_size": IMAGE_SIZE,
        "patch_size": 8,
    }
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = CLIPModel(CLIPConfig(text_config=text, vision_config=vision, projection_dim=16)).eval()
    crop = {"height": IMAGE_SIZE, "width": IMAGE_SIZE}
    images = CLIPImageProcessor(size={"shortest_edge": IMAGE_SIZE}, crop_size=crop)
    return model, CLIPProcessor(image_processor=images, tokenizer=tokenizer)
