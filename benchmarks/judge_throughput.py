"""Checks per second and model tokens per check of three ways to judge an image's checks with a
local Qwen2.5-VL, measured in one run on the same images and questions:

- ``per_check``: one request per check, the full prompt (image + question) each time, the
  answer read from the first token's logits (the cheapest per-check request: no decoding);
- ``all_in_one``: one request per image with every question, decoding the shortest per-image
  reply the parser accepts, ``{"1": true, "2": false, ...}`` (its token count forced with
  ``min_new_tokens = max_new_tokens``; BizGenEval asks for a reason per statement, which costs more);
- ``p_yes_shared``: per-check P(yes) with the shared prefix (``LocalVLMJudge.p_yes_shared``):
  the image is prefilled once, then the questions are scored from its KV cache in batches.

Tokens are language-model positions computed (prompt tokens, padding, decoded tokens); the
vision tower's work is counted as image encodes. Ratios are to ``all_in_one``. The goal is
``p_yes_shared`` at no more than 1.5x the time of ``all_in_one``.

The questions are the bundled BizGenEval example's (20 per item, refine/example), the images
its slides, resized to ``--side`` pixels. No system prompt is used in any mode (the same chat
template for all three), so the modes differ only in how the questions are sent.

    python benchmarks/judge_throughput.py --scale tiny                    # CPU, tiny random Qwen2.5-VL
    python benchmarks/judge_throughput.py --scale real --device cuda      # GPU, Qwen2.5-VL-7B shapes

``--scale real`` builds Qwen2.5-VL-7B-Instruct from ``benchmarks/configs/qwen2_5_vl_7b_instruct.json``
with random bf16 weights (speed does not depend on the weight values) and a 1024x1024 document
image (1,369 image tokens with the real image processor). The tokenizer is the tiny byte-level
one (one token per byte, ~4x the real tokenizer's count for English), which makes the question
text, and so both per-check modes, costlier than with the real tokenizer. Needs ~20 GiB of GPU
memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import torch
from PIL import Image

from refine.cli import bundled_example
from rewards.importers import load_items
from rewards.judges.local_vlm import NO_WORDS, YES_WORDS, LocalVLMJudge, answer_token_ids
from rewards.judges.vlm import PER_IMAGE_USER
from rewards.models.qwen_vl import fit_image

ROOT = Path(__file__).resolve().parent.parent
REAL_CONFIG = ROOT / "benchmarks" / "configs" / "qwen2_5_vl_7b_instruct.json"
MODES = {
    "per_check": "one request per check",
    "all_in_one": "all checks in one request",
    "p_yes_shared": "per-check P(yes), shared prefix",
}


def real_judge(device: str, dtype: torch.dtype) -> LocalVLMJudge:
    """A LocalVLMJudge holding a random-weight Qwen2.5-VL-7B (config file above)."""
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    from rewards.models.tiny_vlm import QWEN_CHAT_TEMPLATE, TinyQwen2_5_VLProcessor, tiny_qwen2_tokenizer

    spec = json.loads(REAL_CONFIG.read_text())
    tokenizer = tiny_qwen2_tokenizer()
    tid = tokenizer.convert_tokens_to_ids
    pre = spec["preprocessor"]
    processor = TinyQwen2_5_VLProcessor(
        image_processor=Qwen2VLImageProcessorPil(min_pixels=pre["min_pixels"], max_pixels=pre["max_pixels"]),
        tokenizer=tokenizer,
        chat_template=QWEN_CHAT_TEMPLATE,
    )
    text_keys = (
        "hidden_size",
        "intermediate_size",
        "num_hidden_layers",
        "num_attention_heads",
        "num_key_value_heads",
        "hidden_act",
        "max_position_embeddings",
        "rms_norm_eps",
        "rope_theta",
        "vocab_size",
        "tie_word_embeddings",
    )
    text = {k: spec[k] for k in text_keys}
    text["rope_scaling"] = {
        "mrope_section": spec["rope_scaling"]["mrope_section"],
        "rope_type": "default",
        "type": "default",
    }
    # The tiny tokenizer's special-token ids (the real vocabulary size is kept).
    text.update(bos_token_id=tid("<|endoftext|>"), eos_token_id=tid("<|im_end|>"), pad_token_id=tid("<|endoftext|>"))
    config = Qwen2_5_VLConfig(
        text_config=text,
        vision_config=spec["vision_config"],
        image_token_id=tid("<|image_pad|>"),
        video_token_id=tid("<|video_pad|>"),
        vision_start_token_id=tid("<|vision_start|>"),
        vision_end_token_id=tid("<|vision_end|>"),
    )
    torch.manual_seed(0)
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # build in bf16 directly: a float32 copy of 8 B weights would need 33 GB
    try:
        with torch.device(device):
            model = Qwen2_5_VLForConditionalGeneration(config).to(dtype).eval()
    finally:
        torch.set_default_dtype(default)
    # tiny=True skips the build-time check that the 7B id is on disk: the random-weight model above is used instead
    judge = LocalVLMJudge(
        tiny=True, torch_dtype=str(dtype).removeprefix("torch."), device=device, image_max_side=10_000
    )
    judge.model, judge.processor = model, processor
    processor.tokenizer.padding_side = "left"
    judge.yes_ids, judge.no_ids = answer_token_ids(tokenizer, YES_WORDS), answer_token_ids(tokenizer, NO_WORDS)
    return judge


def sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


@torch.inference_mode()
def per_check(judge: LocalVLMJudge, image: Image.Image, questions: list[str]) -> tuple[int, int]:
    """One full forward per check (image encoded every time). Returns (tokens, image encodes)."""
    tokens = 0
    for q in questions:
        before = judge.tokens
        judge.p_yes([image], [q])
        tokens += judge.tokens - before
    return tokens, len(questions)


def all_in_one_prompt(judge: LocalVLMJudge, questions: list[str]) -> tuple[str, str]:
    """The chat prompt carrying every question, and the shortest reply the per-image parser reads."""
    statements = "\n".join(f"{n}. {q}" for n, q in enumerate(questions, start=1))
    text = PER_IMAGE_USER.format(n=len(questions), statements=statements) + (
        '\nReply with one JSON object mapping each statement number to true or false, e.g. {"1": true, "2": false}.'
    )
    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": text}]}]
    prompt = judge.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    reply = "{" + ", ".join(f'"{n}": {"true" if n % 2 else "false"}' for n in range(1, len(questions) + 1)) + "}"
    return prompt, reply


@torch.inference_mode()
def all_in_one(judge: LocalVLMJudge, image: Image.Image, questions: list[str]) -> tuple[int, int]:
    """One prefill with every question, then the reply decoded token by token."""
    prompt, reply = all_in_one_prompt(judge, questions)
    n_new = len(judge.processor.tokenizer(reply, add_special_tokens=False)["input_ids"])
    inputs = judge.processor(text=[prompt], images=[image], return_tensors="pt").to(judge.model.device)
    out = judge.model.generate(**inputs, min_new_tokens=n_new, max_new_tokens=n_new, do_sample=False)
    assert out.shape[1] - inputs["input_ids"].shape[1] == n_new
    return inputs["input_ids"].shape[1] + n_new, 1


@torch.inference_mode()
def p_yes_shared(judge: LocalVLMJudge, image: Image.Image, questions: list[str]) -> tuple[int, int]:
    before = judge.tokens
    judge.p_yes_shared(image, questions)
    return judge.tokens - before, 1


RUN = {"per_check": per_check, "all_in_one": all_in_one, "p_yes_shared": p_yes_shared}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", choices=("tiny", "real"), default="tiny")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--images", type=int, default=4, help="example slides judged per timed pass")
    ap.add_argument("--checks", type=int, default=20, help="questions per image (the example has 20)")
    ap.add_argument("--side", type=int, default=None, help="image side in pixels (tiny: 448, real: 1024)")
    ap.add_argument("--batch-size", type=int, default=20, help="p_yes_shared: questions per forward pass")
    ap.add_argument("--repeats", type=int, default=3, help="timed passes per mode (median reported)")
    args = ap.parse_args()
    for name in ("images", "checks", "batch_size", "repeats"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be >= 1")

    if args.scale == "tiny":
        judge = LocalVLMJudge(tiny=True, torch_dtype="float32", device=args.device, image_max_side=10_000)
        judge.load()
    else:
        judge = real_judge(args.device, torch.bfloat16)
    judge.batch_size = args.batch_size
    side = args.side or (448 if args.scale == "tiny" else 1024)
    items, _ = load_items(bundled_example())
    items = [it for it in items if it.image is not None][: args.images]
    work = [
        (
            fit_image(Image.open(it.image), 10_000).resize((side, side), Image.Resampling.BICUBIC),
            [c.question for c in it.rubric.checks][: args.checks],
        )
        for it in items
    ]
    n_checks = sum(len(qs) for _, qs in work)

    rows = {}
    for mode, fn in RUN.items():
        fn(judge, work[0][0], work[0][1][:2])  # warm-up (kernels, allocator)
        times, tokens, encodes = [], 0, 0
        for _ in range(args.repeats):
            sync(args.device)
            t0 = time.perf_counter()
            counts = [fn(judge, image, qs) for image, qs in work]
            sync(args.device)
            times.append(time.perf_counter() - t0)
            tokens, encodes = sum(c[0] for c in counts), sum(c[1] for c in counts)
        rows[mode] = (statistics.median(times), tokens, encodes)

    base_t, base_tok, _ = rows["all_in_one"]
    image_tokens = (
        judge.processor(text=["<|vision_start|><|image_pad|><|vision_end|>"], images=[work[0][0]], return_tensors="pt")[
            "input_ids"
        ].shape[1]
        - 2
    )
    print(
        f"scale={args.scale} device={args.device} images={len(work)} checks={n_checks} side={side}px "
        f"image tokens={image_tokens} batch_size={args.batch_size} repeats={args.repeats} (median)"
    )
    print("| mode | checks/s | tokens/check | image encodes | time vs all-in-one | tokens vs all-in-one |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode, (t, tok, enc) in rows.items():
        print(
            f"| {MODES[mode]} | {n_checks / t:.1f} | {tok / n_checks:.0f} | {enc} "
            f"| {t / base_t:.2f}x | {tok / base_tok:.2f}x |"
        )


if __name__ == "__main__":
    main()
