"""The text policies in front of the image models, and the folders a trained one is saved in.

Two policies (``rubricloop-train task=...``):

* ``prompt_rewriter``: a causal LM (``kind="lm"``: ``Qwen/Qwen2.5-1.5B-Instruct``, or the tiny
  ``rewards.models.tiny_lm`` in tests) that rewrites a document prompt before the generator
  renders it (``rewards.rewriting``; ``rubricloop-eval prompt_rewriter=<folder>``).
* ``instruction_writer``: a VLM (``kind="vlm"``: ``Qwen/Qwen2.5-VL-7B-Instruct``, or the tiny
  ``rewards.models.tiny_vlm``) that sees the image and the failed checks and writes the edit
  instruction (``refine.writers.local_vlm``; ``rubricloop-refine writer=trained writer.path=<folder>``).

A trained policy folder (``<run>/final/`` or a trl ``checkpoint-<n>/``) holds peft's LoRA
(``adapter_config.json``, ``adapter_model.safetensors``: ``PeftModel.from_pretrained`` loads it
onto the base model in your own code) and ``rubricloop_policy.json`` (:data:`POLICY_FILE`), which
names the task and the base model so that one path is all a user passes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rewards.models import devices

POLICY_FILE = "rubricloop_policy.json"
"""In a trained policy folder: ``{"task", "kind", "model_id", "tiny", "torch_dtype", "max_new_tokens",
"max_chars", "keep_quoted"}`` (:func:`policy_meta`)."""

TASK_KINDS = {"prompt_rewriter": "lm", "instruction_writer": "vlm"}
"""task -> the kind of model its policy is: a causal LM or a Qwen2.5-VL."""


def load_base_policy(kind: str, model_id: str | None, tiny: bool, torch_dtype: str, device: str) -> tuple[Any, Any]:
    """The untrained policy: ``(model, processing_class)`` in eval mode on ``device``.

    Args:
        kind: "lm" (``AutoModelForCausalLM`` + ``AutoTokenizer``, left padding) or "vlm"
            (``rewards.models.qwen_vl.load_qwen2_5_vl``: model + processor).
        model_id: hub id or local folder; ignored when ``tiny``.
        tiny: build the random-weight tiny model in code instead (``tiny_qwen2_lm`` or
            ``tiny_qwen2_5_vl``, seed 0: the same weights every time, so a LoRA loads back).
        torch_dtype: "float32" | "bfloat16" | "float16".
        device: "cpu", "cuda", "cuda:1".

    Raises:
        ValueError: unknown kind or dtype, or no ``model_id`` for a real model.
        RuntimeError: CUDA requested but unavailable.
    """
    if kind not in ("lm", "vlm"):
        raise ValueError(f"policy kind must be 'lm' or 'vlm', got {kind!r}")
    if not tiny and not model_id:
        raise ValueError("policy.model_id is empty; name a hub id or folder, or set policy.tiny=true")
    dev, dtype = devices.require_device(device, "policy", "policy.device=cpu"), devices.torch_dtype(torch_dtype)
    if kind == "vlm":
        from rewards.models.qwen_vl import load_qwen2_5_vl

        return load_qwen2_5_vl(model_id or "tiny", torch_dtype, device, tiny)
    if tiny:
        from rewards.models.tiny_lm import tiny_qwen2_lm

        model, tokenizer = tiny_qwen2_lm(seed=0)
        model = model.to(dtype)
    else:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        model = AutoModelForCausalLM.from_pretrained(model_id, dtype=dtype)
        tokenizer = AutoTokenizer.from_pretrained(model_id)
        if tokenizer.chat_template is None:
            raise ValueError(f"policy model {model_id!r}: its tokenizer has no chat template; use an instruct model")
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"  # decoder-only: the last position of every row is its real last token
    return model.to(dev).eval(), tokenizer


def policy_meta(
    task: str,
    model_id: str | None,
    tiny: bool,
    torch_dtype: str,
    max_new_tokens: int,
    max_chars: int | None = None,
    keep_quoted: bool = True,
) -> dict:
    """The contents of :data:`POLICY_FILE` for a policy trained on ``task``.

    Raises:
        ValueError: unknown task.
    """
    if task not in TASK_KINDS:
        raise ValueError(f"unknown policy task {task!r}; choose one of {sorted(TASK_KINDS)}")
    return {
        "task": task,
        "kind": TASK_KINDS[task],
        "model_id": None if tiny else model_id,
        "tiny": bool(tiny),
        "torch_dtype": torch_dtype,
        "max_new_tokens": int(max_new_tokens),
        "max_chars": max_chars,
        "keep_quoted": bool(keep_quoted),
    }


def write_policy_meta(folder: Path, meta: dict) -> None:
    """Write ``meta`` (:func:`policy_meta`) as ``<folder>/rubricloop_policy.json``."""
    (Path(folder) / POLICY_FILE).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def read_policy_meta(folder: str | Path, task: str) -> dict:
    """The metadata of the trained policy in ``folder``, checked to be a ``task`` policy.

    Raises:
        ValueError: one line naming the folder: not a folder, no LoRA in it, no or unreadable
            :data:`POLICY_FILE`, or a policy trained for another task.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: not a folder (a trained policy is <run>/final/ from rubricloop-train task={task})")
    if not (folder / "adapter_config.json").is_file():
        raise ValueError(f"{folder}: no adapter_config.json (not a LoRA saved by rubricloop-train task={task})")
    try:
        meta = json.loads((folder / POLICY_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{folder}: no {POLICY_FILE} (not saved by rubricloop-train task={task})") from None
    except (OSError, ValueError) as e:
        raise ValueError(f"{folder / POLICY_FILE}: unreadable ({e})") from None
    if not isinstance(meta, dict) or meta.get("task") != task:
        got = meta.get("task") if isinstance(meta, dict) else None
        raise ValueError(f"{folder}: a policy trained for task={got}, not task={task}")
    return meta


def load_trained_policy(
    folder: str | Path, task: str, device: str = "cpu", torch_dtype: str | None = None
) -> tuple[Any, Any, dict]:
    """A trained policy: its base model (:func:`load_base_policy` from the folder's metadata)
    with the folder's LoRA applied (``peft.PeftModel.from_pretrained``), eval mode.

    Args:
        folder: the policy folder (``<run>/final/`` or ``<run>/checkpoint-<n>/``).
        task: "prompt_rewriter" or "instruction_writer"; a folder trained for the other is refused.
        device: torch device.
        torch_dtype: weights dtype; None: the one it was trained in.

    Returns:
        ``(model, processing_class, meta)``.

    Raises:
        ValueError: the folder is not a ``task`` policy (:func:`read_policy_meta`), or its base
            model cannot be built (one line).
    """
    from peft import PeftModel

    meta = read_policy_meta(folder, task)
    model, processing = load_base_policy(
        meta["kind"], meta.get("model_id"), meta.get("tiny", False), torch_dtype or meta["torch_dtype"], device
    )
    model = PeftModel.from_pretrained(model, str(folder)).to(model.device)
    return model.eval(), processing, meta


POLICY_FILES = ("adapter_config.json", "adapter_model.safetensors", "adapter_model.bin", POLICY_FILE)
"""The files a trained policy's behaviour depends on (:func:`policy_digest`)."""


def policy_digest(folder: str | Path) -> str:
    """sha256 over the name and bytes of each of :data:`POLICY_FILES` present in ``folder``, in
    that order: recorded in a run's ``run.json`` (refine's ``writer=trained``), so that a rerun after
    the weights at the same path changed is refused.

    Raises:
        ValueError: a file cannot be read (one line naming it).
    """
    import hashlib

    h = hashlib.sha256()
    for name in POLICY_FILES:
        path = Path(folder) / name
        if not path.is_file():
            continue
        h.update(name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError as e:
            raise ValueError(f"{path}: cannot be read ({e.strerror or e})") from None
    return h.hexdigest()
