"""A tiny random-weight Qwen2.5-VL and its byte-level tokenizer/processor, built in memory (no model hub).

Why this lives in ``rewards``: the package layering is rewards <- refine, rewards <- training
(refine and training import rewards, never the other way round). The tiny VLM serves the local
VLM judge (``rewards.judges.local_vlm``), the local instruction writer (refine) and the
Qwen-Image text encoder of the tiny diffusers pipelines (``rewards.models.tiny_pipelines``), so its home
is the bottom layer, where all three packages can import it. It needs only transformers; the
tiny diffusers pipelines stay in ``rewards.models.tiny_pipelines`` so that ``rewards`` never imports
diffusers. Recipes and measured sizes: shared/notes/offline-models.md.

For tests and CPU smoke runs of the real code paths only: the model's text is garbage. Real
users load ``Qwen/Qwen2.5-VL-7B-Instruct`` with ``from_pretrained``.
"""

from __future__ import annotations

import torch
from tokenizers.pre_tokenizers import ByteLevel
from transformers import (
    Qwen2_5_VLConfig,
    Qwen2_5_VLForConditionalGeneration,
    Qwen2_5_VLProcessor,
    Qwen2Tokenizer,
)
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
from transformers.processing_utils import ProcessorMixin

QWEN_SPECIAL_TOKENS = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
)
"""Qwen2 / Qwen2.5-VL chat and vision special tokens, in the real tokenizer's order."""

QWEN_CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""Qwen2-VL chat layout (ChatML; an image part becomes vision_start, image_pad, vision_end),
without the real template's default system message or video parts."""


def tiny_qwen2_tokenizer() -> Qwen2Tokenizer:
    """Qwen2 tokenizer over the 256-symbol byte-level alphabet plus the 14 special tokens of
    ``QWEN_SPECIAL_TOKENS`` (ids 256..269; ``<|image_pad|>`` = 268): 270 tokens, no merges.
    The special tokens are never split; other text is one token per UTF-8 byte."""
    pieces = sorted(ByteLevel.alphabet()) + list(QWEN_SPECIAL_TOKENS)
    vocab = {piece: index for index, piece in enumerate(pieces)}
    return Qwen2Tokenizer(
        vocab=vocab,
        merges=[],
        model_max_length=32768,
        extra_special_tokens=list(QWEN_SPECIAL_TOKENS[1:]),
        chat_template=QWEN_CHAT_TEMPLATE,
    )


class TinyQwen2_5_VLProcessor(Qwen2_5_VLProcessor):
    """A Qwen2.5-VL processor for images and text only.

    transformers' ``Qwen2_5_VLProcessor.__init__`` requires a video processor, and the Qwen2-VL
    video processor needs torchvision, which this project does not install; this subclass drops
    the video slot and otherwise behaves as the parent (chat template, image-token expansion).
    """

    def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs):
        self.image_token = "<|image_pad|>"
        self.video_token = "<|video_pad|>"
        self.image_token_id = tokenizer.convert_tokens_to_ids(self.image_token)
        self.video_token_id = tokenizer.convert_tokens_to_ids(self.video_token)
        ProcessorMixin.__init__(self, image_processor, tokenizer, chat_template=chat_template)


def tiny_qwen2_5_vl(seed: int = 0) -> tuple[Qwen2_5_VLForConditionalGeneration, TinyQwen2_5_VLProcessor]:
    """A random-weight Qwen2_5_VLForConditionalGeneration (40 k parameters) and its processor.

    Text model: 2 layers, hidden 16, 2 heads (head dim 8, mrope_section [1, 1, 2]), vocabulary of
    ``tiny_qwen2_tokenizer`` (270; logits are (B, T, 270)). Vision tower: 2 blocks, hidden 16,
    patch 14, 2x2 spatial merge, out_hidden_size 16. The config's image/video/vision-start/end
    token ids equal the tokenizer's; bos = pad = ``<|endoftext|>``, eos = ``<|im_end|>``.

    The processor (``TinyQwen2_5_VLProcessor``) has the ChatML chat template and a PIL image
    processor with min_pixels 56*56 and max_pixels 28*28*64, so any image becomes at most
    256 patches / 64 image tokens. ``model.generate`` of 5 tokens on a 200x120 image takes
    ~0.05 s on CPU. Deterministic for ``seed``; CPU, float32, eval mode.
    """
    tokenizer = tiny_qwen2_tokenizer()
    token_id = tokenizer.convert_tokens_to_ids
    image_processor = Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=28 * 28 * 64)
    processor = TinyQwen2_5_VLProcessor(
        image_processor=image_processor, tokenizer=tokenizer, chat_template=QWEN_CHAT_TEMPLATE
    )
    config = Qwen2_5_VLConfig(
        text_config=dict(
            vocab_size=len(tokenizer),
            hidden_size=16,
            intermediate_size=16,
            num_hidden_layers=2,
            num_attention_heads=2,
            num_key_value_heads=2,
            max_position_embeddings=4096,
            rope_scaling={"mrope_section": [1, 1, 2], "rope_type": "default", "type": "default"},
            rope_theta=1_000_000.0,
            bos_token_id=token_id("<|endoftext|>"),
            eos_token_id=token_id("<|im_end|>"),
            pad_token_id=token_id("<|endoftext|>"),
        ),
        vision_config=dict(
            depth=2,
            hidden_size=16,
            intermediate_size=16,
            num_heads=2,
            out_hidden_size=16,
            fullatt_block_indexes=[1],
            window_size=112,
        ),
        image_token_id=token_id("<|image_pad|>"),
        video_token_id=token_id("<|video_pad|>"),
        vision_start_token_id=token_id("<|vision_start|>"),
        vision_end_token_id=token_id("<|vision_end|>"),
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen2_5_VLForConditionalGeneration(config)
    return model.eval(), processor
