"""The prompt rewriter: an instruct LLM rewrites a document prompt before the generator renders it.

GenOlympiad reports prompt enhancement alone moving strict scores from 14.9 to 33.0; here the
rewriter is trained on rubric rewards (``rubricloop-train task=prompt_rewriter``) and plugged
into evaluation (``rubricloop-eval ... prompt_rewriter=<run>/final``).

The same three pieces serve training and use, so a trained rewriter sees at use exactly the
request it was trained on and is held to the same guards:

* :func:`rewrite_messages`: the chat request (one user turn: :data:`REWRITE_INSTRUCTION` and the
  prompt).
* :func:`rewrite_problem`: the guards. A rewrite must keep every quoted string of the original
  (the text the document must show, exactly: dropping or altering one loses a check for sure),
  must not be empty, and must fit ``max_chars``. Training gives a refused rewrite reward 0 and
  counts it; use falls back to the original prompt and records why.
* :class:`PromptRewriter`: a trained policy folder (``rewards.models.text_policy``) loaded and
  run greedily.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

REWRITE_INSTRUCTION = (
    "Rewrite this prompt for a text-to-image model so that the document it describes comes out "
    "right: state the layout, where each element goes, and the exact text of every element. "
    "Keep every quoted string exactly as it is, in double quotes. Reply with the rewritten prompt only."
)

_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”")


def quoted_strings(prompt: str) -> list[str]:
    """The strings between double quotes (``"..."`` or ``“...”``) in ``prompt``, in order, stripped;
    empty quotes are skipped. ``'A slide titled "Q3" with "Revenue"'`` -> ``["Q3", "Revenue"]``."""
    return [s.strip() for m in _QUOTED.finditer(prompt) if (s := m.group(1) or m.group(2)).strip()]


def rewrite_messages(prompt: str) -> list[dict]:
    """The chat request for one prompt: ``[{"role": "user", "content": REWRITE_INSTRUCTION + prompt}]``."""
    return [{"role": "user", "content": f"{REWRITE_INSTRUCTION}\n\nPrompt: {prompt}"}]


def missing_quotes(original: str, rewrite: str) -> list[str]:
    """The quoted strings of ``original`` that ``rewrite`` does not contain verbatim (case and
    spacing count: the document must show them exactly)."""
    return [s for s in quoted_strings(original) if s not in rewrite]


def rewrite_problem(original: str, rewrite: str, max_chars: int | None, keep_quoted: bool = True) -> str | None:
    """Why ``rewrite`` may not replace ``original``, in a few words, or None when it may.

    Checked in this order: empty; longer than ``max_chars`` characters (None: no cap); a quoted
    string of the original missing (``keep_quoted``; names the first one missing).
    """
    if not rewrite.strip():
        return "empty rewrite"
    if max_chars is not None and len(rewrite) > max_chars:
        return f"rewrite of {len(rewrite)} characters is over the cap of {max_chars}"
    if keep_quoted:
        missing = missing_quotes(original, rewrite)
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            return f'dropped the quoted string "{missing[0]}"{more}'
    return None


@dataclass(frozen=True)
class Rewrite:
    """One prompt through the rewriter: ``prompt`` is what the generator gets (the rewrite, or the
    original when the rewrite was refused), ``rewrite`` what the model wrote, ``problem`` why it was
    refused (None: used)."""

    original: str
    rewrite: str
    prompt: str
    problem: str | None


class PromptRewriter:
    """A trained prompt rewriter (``rubricloop-train task=prompt_rewriter``), greedy decoding.

    Args:
        path: the policy folder (``<run>/final/``): its LoRA and ``rubricloop_policy.json``.
        device: torch device ("cpu", "cuda").
        max_new_tokens: generation budget (tokens); None: the one it was trained with.
        max_chars: length cap of a rewrite (characters); None: the one it was trained with.

    ``rewrite(prompts)`` returns one :class:`Rewrite` per prompt; a rewrite that fails
    :func:`rewrite_problem` is replaced by the original prompt, with the reason kept. The model
    loads on the first call.

    Raises:
        ValueError: ``path`` is not a trained prompt rewriter (one line, at construction).
    """

    def __init__(self, path: str | Path, device: str = "cpu", max_new_tokens: int | None = None, max_chars=None):
        from rewards.models.text_policy import read_policy_meta

        self.path, self.device = Path(path), device
        self.meta = read_policy_meta(self.path, "prompt_rewriter")
        self.max_new_tokens = int(max_new_tokens or self.meta["max_new_tokens"])
        self.max_chars = max_chars if max_chars is not None else self.meta.get("max_chars")
        self.keep_quoted = bool(self.meta.get("keep_quoted", True))
        self.name = f"prompt_rewriter:{self.path}"
        self.model = self.tokenizer = None

    def load(self) -> None:
        """Load the base model with the LoRA (once)."""
        if self.model is None:
            from rewards.models.text_policy import load_trained_policy

            self.model, self.tokenizer, _ = load_trained_policy(self.path, "prompt_rewriter", self.device)

    def generate(self, prompts: Sequence[str]) -> list[str]:
        """The model's rewrites of ``prompts`` (greedy, decoded, stripped), unguarded."""
        import torch

        self.load()
        texts = [
            self.tokenizer.apply_chat_template(rewrite_messages(p), tokenize=False, add_generation_prompt=True)
            for p in prompts
        ]
        inputs = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        inputs = inputs.to(self.model.device)
        with torch.no_grad():
            out = self.model.generate(**inputs, do_sample=False, max_new_tokens=self.max_new_tokens)  # (B, L + new)
        new = out[:, inputs["input_ids"].shape[1] :]
        return [t.strip() for t in self.tokenizer.batch_decode(new, skip_special_tokens=True)]

    def rewrite(self, prompts: Sequence[str]) -> list[Rewrite]:
        """Each prompt rewritten and guarded (:func:`rewrite_problem`)."""
        out = []
        for original, text in zip(prompts, self.generate(prompts)):
            problem = rewrite_problem(original, text, self.max_chars, self.keep_quoted)
            out.append(Rewrite(original, text, original if problem else text, problem))
        return out
