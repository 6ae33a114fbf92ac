"""An instruction writer run in-process with a transformers Qwen2.5-VL (TechImage-Bench §5.1).

The VLM sees the image, the original prompt and the failed checks grouped per criterion, and
writes the edit instruction by greedy decoding. ``tiny=True`` uses a random-weight model built in
code: its text is garbage, but it is a deterministic string and exercises the same code path.

``path=<folder>`` (``rubricloop-refine writer=trained writer.path=<folder>``) loads an instruction
writer trained on rubric rewards (``rubricloop-train task=instruction_writer``): the folder's
``rubricloop_policy.json`` names the base model and its LoRA is applied
(``rewards.models.text_policy.load_trained_policy``). The policy was trained on exactly
:func:`writer_prompt` after the image, in the chat layout of :meth:`LocalVLMInstructionWriter.write`,
so neither may change without retraining it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import torch
from PIL import Image

from refine.interfaces import Failure, failures_by_criterion
from rewards.models import devices
from rewards.models.qwen_vl import check_model_available, fit_image, load_qwen2_5_vl
from rewards.models.text_policy import POLICY_FILE, load_trained_policy, read_policy_meta
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


DEFAULT_MODEL_ID = "Qwen/Qwen2.5-VL-7B-Instruct"
"""The base VLM of ``writer=local_vlm``."""

TASK = "instruction_writer"
"""The ``rubricloop-train`` task whose policy folders ``path`` accepts."""


def check_trained_writer(path: str | Path, model_id: str | None, tiny: bool) -> dict:
    """The metadata of the trained instruction writer in ``path``
    (``rewards.models.text_policy.read_policy_meta``), checked to hold LoRA weights and to agree
    with a ``model_id`` / ``tiny`` set next to it.

    Raises:
        ValueError: one line naming the folder: empty ``path``, not a folder, not a policy saved by
            ``rubricloop-train task=instruction_writer`` (or one of another task), no weights
            file, no base model named, or a ``model_id`` / ``tiny`` other than the one it was
            trained on. The writer prefixes ``writer.path: ``.
    """
    if not str(path).strip():
        raise ValueError("empty; name the policy folder rubricloop-train task=instruction_writer saved")
    folder = Path(path)
    meta = read_policy_meta(folder, TASK)
    if not any((folder / f).is_file() for f in ("adapter_model.safetensors", "adapter_model.bin")):
        raise ValueError(f"{folder}: no adapter_model.safetensors (the LoRA weights of the trained writer)")
    trained_tiny, trained_id = bool(meta.get("tiny")), meta.get("model_id")
    if not trained_tiny and not trained_id:
        raise ValueError(f"{folder / POLICY_FILE}: names no model_id (the base model the LoRA was trained on)")
    if (tiny and not trained_tiny) or (model_id is not None and (trained_tiny or model_id != trained_id)):
        base = "the tiny model" if trained_tiny else f"model_id={trained_id!r}"
        asked = "the tiny model" if tiny else f"model_id={model_id!r}"
        raise ValueError(f"{folder}: trained on {base}, not {asked}; leave writer.model_id and writer.tiny unset")
    return meta


class LocalVLMInstructionWriter:
    """Writer protocol (``refine.interfaces.Writer``) over a local Qwen2.5-VL, greedy decoding.

    Returns the decoded new tokens, stripped. If that text is empty (the model emitted only
    special tokens or whitespace, which a random-weight model often does), it falls back to
    ``fallback_instruction``: one ``Fix: <question>`` line per failed check. No failures gives "".
    The model loads on the first ``write`` call.

    With ``path``, a trained instruction writer: the base model (``model_id``, ``tiny``) and the
    defaults of ``torch_dtype`` and ``max_new_tokens`` come from the folder's
    ``rubricloop_policy.json``, the folder's LoRA is applied on load, and ``name`` is
    ``trained:<path>``. The prompt, the greedy decoding and the fallback are the same.

    Args:
        model_id (`str`, *optional*): hub id or local folder; None: "Qwen/Qwen2.5-VL-7B-Instruct",
            or with ``path`` the policy's base model (another one is refused).
        torch_dtype (`str`, *optional*): weights dtype; None: "bfloat16", or with ``path`` the
            dtype the policy was trained in.
        device (`str`, defaults to "cuda"): torch device; "cuda" without CUDA raises RuntimeError here.
        max_new_tokens (`int`, *optional*): generation budget (tokens); None: 128, or with ``path``
            the policy's training budget.
        image_max_side (`int`, defaults to 768): the image is shrunk to this longer side (pixels).
        tiny (`bool`, defaults to False): random-weight tiny model built in code (tests); with
            ``path`` it comes from the folder.
        path (`str`, *optional*): a policy folder saved by ``rubricloop-train task=instruction_writer``
            (``<run>/final/`` or ``checkpoint-<n>/``).

    Raises:
        RuntimeError: CUDA requested but unavailable. ValueError: unknown dtype; ``path`` that is
        not a trained instruction writer (one line naming the folder, :func:`check_trained_writer`);
        a failed check missing from the item's rubric (on ``write``).
    """

    def __init__(
        self,
        model_id: str | None = None,
        torch_dtype: str | None = None,
        device: str = "cuda",
        max_new_tokens: int | None = None,
        image_max_side: int = 768,
        tiny: bool = False,
        path: str | None = None,
    ):
        self.path = None if path is None else str(path)
        meta = None
        if self.path is not None:
            try:
                meta = check_trained_writer(self.path, model_id, tiny)
            except ValueError as e:
                raise ValueError(f"writer.path: {e}") from None
            model_id, tiny = meta.get("model_id"), bool(meta.get("tiny"))
            torch_dtype = torch_dtype or meta.get("torch_dtype") or "bfloat16"
            max_new_tokens = meta.get("max_new_tokens") or 128 if max_new_tokens is None else max_new_tokens
        model_id, torch_dtype = model_id or DEFAULT_MODEL_ID, torch_dtype or "bfloat16"
        max_new_tokens = 128 if max_new_tokens is None else max_new_tokens
        if not isinstance(max_new_tokens, int) or isinstance(max_new_tokens, bool) or max_new_tokens < 1:
            raise ValueError(f"writer.max_new_tokens must be an integer >= 1, got {max_new_tokens!r}")
        what = "writer trained" if meta else "writer local_vlm"
        devices.require_device(device, what, "writer.device=cpu")
        devices.torch_dtype(torch_dtype)
        if not tiny:  # a wrong id fails once, here, not on every item (offline: without trying the network)
            check_model_available(model_id)
        self.model_id, self.torch_dtype, self.device, self.tiny = model_id, torch_dtype, device, tiny
        self.max_new_tokens, self.image_max_side = max_new_tokens, image_max_side
        if self.path is not None:
            self.name = f"trained:{self.path}"
        else:
            self.name = f"local_vlm:{'tiny-qwen2.5-vl' if tiny else model_id}"
        self.model = self.processor = None

    def load(self) -> None:
        """Load the model and processor (once); with ``path``, the base model with the LoRA applied."""
        if self.model is None:
            if self.path is not None:
                self.model, self.processor, _ = load_trained_policy(self.path, TASK, self.device, self.torch_dtype)
            else:
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
