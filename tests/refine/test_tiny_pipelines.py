"""Tiny random-weight pipelines: built offline, deterministic per seed, runnable in 2 steps on CPU."""

import numpy as np
import pytest
import torch
from PIL import Image

from rewards.models import tiny_pipelines as tp
from rewards.models import tiny_vlm


def n_parameters(pipe) -> int:
    return sum(p.numel() for c in pipe.components.values() if isinstance(c, torch.nn.Module) for p in c.parameters())


def same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def generate(pipe, seed: int, size: int, **kwargs) -> np.ndarray:
    image = pipe(
        prompt="a bar chart titled Q3 revenue",
        num_inference_steps=2,
        height=size,
        width=size,
        generator=torch.Generator().manual_seed(seed),
        **kwargs,
    ).images[0]
    assert image.mode == "RGB" and image.size == (size, size)
    return np.asarray(image)


TEXT_TO_IMAGE = [
    (tp.tiny_sd3_pipeline, 89_371, dict(max_sequence_length=77)),
    (tp.tiny_flux_pipeline, 131_271, dict(max_sequence_length=77)),
    (tp.tiny_qwen_image_pipeline, 240_655, dict(max_sequence_length=256)),
    (tp.tiny_sana_pipeline, 19_283, dict(use_resolution_binning=False)),
]


@pytest.mark.parametrize("builder,params,kwargs", TEXT_TO_IMAGE, ids=lambda x: getattr(x, "__name__", ""))
def test_text_to_image_builder_is_deterministic_and_runs(builder, params, kwargs):
    pipe, again, other = builder(seed=0), builder(seed=0), builder(seed=1)
    assert n_parameters(pipe) == params
    assert same_weights(pipe.transformer, again.transformer)
    assert not same_weights(pipe.transformer, other.transformer)
    assert all(p.dtype == torch.float32 and p.device.type == "cpu" for p in pipe.transformer.parameters())

    first, repeat, reseeded = (generate(pipe, seed, 32, **kwargs) for seed in (0, 0, 1))
    assert np.array_equal(first, repeat)
    assert np.abs(first.astype(int) - reseeded.astype(int)).mean() > 1.0
    # A different seed of the weights gives a different image for the same noise.
    assert not np.array_equal(first, generate(other, 0, 32, **kwargs))
    generate(pipe, 0, 64, **kwargs)


def test_builders_leave_the_global_rng_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    tp.tiny_sd3_pipeline(seed=5)
    assert torch.equal(torch.rand(3), expected)


def test_clip_and_t5_tokenizers_are_byte_and_character_level():
    clip = tp.tiny_clip_tokenizer()
    assert len(clip) == 2 * 256 + 2
    ids = clip("hi you").input_ids
    # <|startoftext|>, h, i</w>, y, o, u</w>, <|endoftext|>: one token per byte, </w> on each word's last byte.
    assert ids[0] == clip.bos_token_id and ids[-1] == clip.eos_token_id and len(ids) == 7
    assert clip.convert_ids_to_tokens(ids[1:6]) == ["h", "i</w>", "y", "o", "u</w>"]
    assert clip.model_max_length == 77

    t5 = tp.tiny_t5_tokenizer()
    ids = t5("Q3 up").input_ids
    assert ids[-1] == t5.eos_token_id == 1 and t5.pad_token_id == 0
    assert t5.decode(ids, skip_special_tokens=True) == "Q3 up"


def test_sd3_encode_prompt_shapes_and_lora_wrapping():
    from peft import LoraConfig

    pipe = tp.tiny_sd3_pipeline()
    prompt_embeds, _, pooled, _ = pipe.encode_prompt(
        "title", "title", "title", device="cpu", do_classifier_free_guidance=False, max_sequence_length=77
    )
    # 77 CLIP tokens (2 x hidden 16 concatenated, padded to 32) followed by 77 T5 tokens (d_model 32).
    assert prompt_embeds.shape == (1, 154, 32) and pooled.shape == (1, 32)

    pipe.transformer.add_adapter(
        LoraConfig(r=4, lora_alpha=4, init_lora_weights="gaussian", target_modules=["to_q", "to_k", "to_v", "to_out.0"])
    )
    lora = [n for n, p in pipe.transformer.named_parameters() if p.requires_grad]
    # 1 joint block x (to_q, to_k, to_v, to_out.0) x (lora_A, lora_B)
    assert len(lora) == 8 and all("lora_" in n for n in lora)


def test_qwen2_5_vl_tokens_processor_and_model_agree():
    model, processor = tiny_vlm.tiny_qwen2_5_vl(seed=0)
    tokenizer = processor.tokenizer
    assert len(tokenizer) == 270
    assert tokenizer.convert_tokens_to_ids("<|image_pad|>") == 268 == model.config.image_token_id
    assert tokenizer.convert_tokens_to_ids("<|vision_start|>") == model.config.vision_start_token_id == 265
    assert tokenizer.convert_tokens_to_ids("<|vision_end|>") == model.config.vision_end_token_id == 266
    assert tokenizer("<|im_start|>ok<|im_end|>").input_ids == [257, ord("o") - 33, ord("k") - 33, 258]

    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "Is the title Q3?"}]}]
    text = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    assert text == (
        "<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>Is the title Q3?<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    inputs = processor(text=[text], images=[Image.new("RGB", (200, 120), "white")], return_tensors="pt")
    # 200x120 is resized to 196x112 (multiples of 28) -> 14x8 patches of 14 px -> 112 patches, 2x2 merge -> 28 tokens.
    assert inputs["image_grid_thw"].tolist() == [[1, 8, 14]]
    assert int((inputs["input_ids"] == 268).sum()) == 28
    assert sum(p.numel() for p in model.parameters()) == 40_304

    logits = model(**inputs).logits
    assert logits.shape == (1, inputs["input_ids"].shape[1], 270)
    out = model.generate(**inputs, max_new_tokens=4, do_sample=False)
    again = tiny_vlm.tiny_qwen2_5_vl(seed=0)[0].generate(**inputs, max_new_tokens=4, do_sample=False)
    assert torch.equal(out, again)
