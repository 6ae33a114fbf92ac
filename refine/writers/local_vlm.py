"""An instruction writer run in-process with a transformers Qwen2.5-VL (TechImage-Bench §5.1).

The VLM sees the image, the original prompt and the failed checks grouped per criterion, and
writes the edit instruction by greedy decoding. ``tiny=True`` uses a random-weight model built in
code: its text is garbage, but it is a deterministic string and exercises the same code path.
"""

from __future__ import annotations

from typing import Sequence

import torch
from PIL import Image

from refine.interfaces import Failure, failures_by_criterion
from rewards.models import devices
from rewards.models.qwen_vl import check_model_available, fit_image, load_qwen2_5_vl
from rewards.rubric import Item

INSTRUCTION = (
    "You write edit instructions for an image editor. The image was generated for the prompt below "
    "and fails the listed checks. Write one short imperative edit per criterion that would make every "
    "listed check pass. Reply with the edits only, one per line."
)


def writer_prompt(item: Item, failures: Sequence[Failure]) -> str:
    """The user text: instruction, original prompt, then ``- <criterion>: <question>`` lines."""
    lines = [INSTRUCTION, "", f"Prompt: {item.prompt}", "Failed checks:"]
    for criterion, group in failures_by_criterion(item, failures):
        lines += [f"- {criterion.name}: {check.question}" for check, _ in group]
    return "\n".join(lines)


def fallback_instruction(failures: Sequence[Failure]) -> str:
    """One plain line per failed check, ``Fix: <question>`` (used when generation is empty)."""
    return "\n".join(f"Fix: {check.question}" for check, _ in failures)


class LocalVLMInstructionWriter:
    """Writer protocol (``refine.interfaces.Writer``) over a local Qwen2.5-VL, greedy decoding.

    Returns the decoded new tokens, stripped. If that text is empty (the model emitted only
    special tokens or whitespace, which a random-weight model often does), it falls back to
    ``fallback_instruction``: one ``Fix: <question>`` line per failed check. No failures gives "".
    The model loads on the first ``write`` call.

    Args:
        model_id (`str`, defaults to "Qwen/Qwen2.5-VL-7B-Instruct"): hub id or local folder.
        torch_dtype (`str`, defaults to "bfloat16"): weights dtype.
        device (`str`, defaults to "cuda"): torch device; "cuda" without CUDA raises RuntimeError here.
        max_new_tokens (`int`, defaults to 128): generation budget (tokens).
        image_max_side (`int`, defaults to 768): the image is shrunk to this longer side (pixels).
        tiny (`bool`, defaults to False): random-weight tiny model built in code (tests).

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: unknown dtype, a failed check
        missing from the item's rubric (on ``write``).
    """

    def __init__(
        self,
        model_id: str = "Qwen/Qwen2.5-VL-7B-Instruct",
        torch_dtype: str = "bfloat16",
        device: str = "cuda",
        max_new_tokens: int = 128,
        image_max_side: int = 768,
        tiny: bool = False,
    ):
        devices.require_device(device, "writer local_vlm", "writer.device=cpu")
        devices.torch_dtype(torch_dtype)
        if not tiny:  # a wrong id fails once, here, not on every item (offline: without trying the network)
            check_model_available(model_id)
        self.model_id, self.torch_dtype, self.device, self.tiny = model_id, torch_dtype, device, tiny
        self.max_new_tokens, self.image_max_side = max_new_tokens, image_max_side
        self.name = f"local_vlm:{'tiny-qwen2.5-vl' if tiny else model_id}"
        self.model = self.processor = None

    def load(self) -> None:
        """Load the model and processor (once)."""
        if self.model is None:
            self.model, self.processor = load_qwen2_5_vl(self.model_id, self.torch_dtype, self.device, self.tiny)

    @torch.no_grad()
    def write(self, image: Image.Image, item: Item, failures: Sequence[Failure]) -> str:
        if not failures:
            return ""
        self.load()
        content = [{"type": "image"}, {"type": "text", "text": writer_prompt(item, failures)}]
        messages = [{"role": "user", "content": content}]
        text = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        inputs = self.processor(text=[text], images=[fit_image(image, self.image_max_side)], return_tensors="pt")
        inputs = inputs.to(self.model.device)
        out = self.model.generate(**inputs, do_sample=False, max_new_tokens=self.max_new_tokens)  # (1, L + new)
        new_tokens = out[0, inputs["input_ids"].shape[1] :]
        instruction = self.processor.tokenizer.decode(new_tokens, skip_special_tokens=True).strip()
        return instruction or fallback_instruction(failures)
