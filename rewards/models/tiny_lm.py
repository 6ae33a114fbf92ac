"""A tiny random-weight Qwen2 causal LM with the byte-level tokenizer of the tiny VLM, built in memory.

The text-only counterpart of ``rewards.models.tiny_vlm``: the policy of the prompt rewriter in
tests and CPU smoke runs (``policy=tiny_lm``). Its text is garbage; it exercises the same code
path (chat template, generation, LoRA, trl's GRPOTrainer) as ``Qwen/Qwen2.5-1.5B-Instruct``.
"""

from __future__ import annotations

import torch
from transformers import Qwen2Config, Qwen2ForCausalLM, Qwen2Tokenizer

from rewards.models.tiny_vlm import tiny_qwen2_tokenizer


def tiny_qwen2_lm(seed: int = 0, hidden_size: int = 32) -> tuple[Qwen2ForCausalLM, Qwen2Tokenizer]:
    """A random-weight ``Qwen2ForCausalLM`` (about 40 k parameters at hidden 32) and its tokenizer.

    2 layers, ``hidden_size`` hidden (4 heads, 2 KV heads), vocabulary of ``tiny_qwen2_tokenizer``
    (270: one token per UTF-8 byte plus the Qwen special tokens; logits are (B, T, 270), float32),
    untied embeddings, weights drawn with std 0.2 (see the config); bos = pad = ``<|endoftext|>``,
    eos = ``<|im_end|>`` (the end of a chat turn, so generation stops where a chat reply ends).
    The tokenizer pads on the left and has the ChatML chat template. Deterministic for ``seed``
    (the global RNG is left untouched), so a LoRA trained on it loads back onto the same weights;
    CPU, float32, eval mode.
    """
    tokenizer = tiny_qwen2_tokenizer()
    tokenizer.padding_side = "left"
    token_id = tokenizer.convert_tokens_to_ids
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=False,
        # At transformers' default 0.02 the logits span about +-0.3 after the final RMSNorm, so the
        # next-token distribution is flat (entropy 5.59 of ln 270 = 5.60) and a LoRA, which cannot
        # rescale the norm or the head, cannot make it prefer anything: GRPO then learns nothing.
        # At 0.2 the entropy is 4.96: still diverse samples, but the policy can move.
        initializer_range=0.2,
        bos_token_id=token_id("<|endoftext|>"),
        eos_token_id=token_id("<|im_end|>"),
        pad_token_id=token_id("<|endoftext|>"),
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen2ForCausalLM(config)
    model.generation_config.eos_token_id = config.eos_token_id
    model.generation_config.pad_token_id = config.pad_token_id
    return model.eval(), tokenizer
