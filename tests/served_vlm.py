"""A tiny random-weight Qwen2.5-VL saved to a folder that ``transformers serve`` loads as a
vision-language model, for tests against the real server (tests/rewards/judges/test_transformers_serve.py).

Two things make the folder work with the server:

- The processor keeps its image side. ``TinyQwen2_5_VLProcessor`` (rewards/models/tiny_vlm.py) has
  no video processor (transformers' Qwen2-VL video processor needs torchvision, which this project
  does not install), so its saved ``processor_class`` names no class transformers knows and
  ``AutoProcessor.from_pretrained`` falls back to the bare tokenizer: the server then treats the
  model as text-only and drops every image with a 200 OK. Saved here as remote code instead
  (``auto_map``: transformers copies tiny_vlm.py into the folder), it loads back as the full
  processor with ``trust_remote_code=True`` (``transformers serve --trust-remote-code``).
- The model can say "Yes" and "No" in one token. The byte-level tokenizer gets the two words as
  added tokens, and the folder's generation_config suppresses every other token (the end-of-turn
  token too), so a reply of n tokens is n of them: a one-token reply is "Yes" or "No" (which one
  depends on the image and the text: the weights are random), a longer one never JSON, and a
  reply always uses its whole token budget.
"""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import GenerationConfig

from rewards.models.tiny_vlm import tiny_qwen2_5_vl

ANSWER_TOKENS = ("Yes", "No")


def save_served_tiny_vlm(folder: str | Path, seed: int = 0) -> Path:
    """Save ``tiny_qwen2_5_vl(seed)`` with Yes/No answer tokens and a remote-code processor to ``folder``.

    Returns:
        the folder; ``AutoProcessor.from_pretrained(folder, trust_remote_code=True)`` gives a
        ``TinyQwen2_5_VLProcessor`` (tokenizer of 272 tokens, image processor of at most 64 image
        tokens per image), ``AutoModelForImageTextToText`` the model (float32, 272-token vocabulary).
    """
    folder = Path(folder)
    model, processor = tiny_qwen2_5_vl(seed)
    tokenizer = processor.tokenizer
    tokenizer.add_tokens(list(ANSWER_TOKENS))
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model.resize_token_embeddings(len(tokenizer), mean_resizing=False)
    keep = {tokenizer.convert_tokens_to_ids(t) for t in ANSWER_TOKENS}
    model.generation_config = GenerationConfig(
        bos_token_id=model.config.text_config.bos_token_id,
        eos_token_id=model.config.text_config.eos_token_id,
        pad_token_id=model.config.text_config.pad_token_id,
        suppress_tokens=[i for i in range(len(tokenizer)) if i not in keep],
    )
    model.save_pretrained(folder)
    processor._auto_class = "AutoProcessor"  # save_pretrained copies tiny_vlm.py and writes auto_map
    processor.save_pretrained(folder)
    return folder
