"""The LLM instruction writer: a multimodal model turns failed checks into edit instructions.

TechImage-Bench §5.1: "for every criterion with a score of 0, we used those points together with
the original image to generate editing instructions via an LMM". The model sees the current
image, the original prompt and the failed checks grouped per criterion, and replies with one
imperative instruction per criterion, as JSON. It runs over the same OpenAI-compatible API as the
VLM judge (:mod:`rewards.models.openai_client`).
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from refine.interfaces import Failure, failures_by_criterion
from rewards.common.secrets import redact
from rewards.models.openai_client import ChatClient, ChatError, image_data_url, parse_json_object, user_message
from rewards.rubric import Criterion, Item

SYSTEM = """You write editing instructions for an image-editing model.
You are given an image, the prompt it was generated from, and the checks it failed, grouped by criterion.
For each criterion, write exactly one imperative instruction (for example "Change the title text to read \\"Q3 Revenue\\"") that makes all of that criterion's failed checks pass.
Be concrete: name the element, where it is, and the exact text, number, colour or layout required. Quote required text exactly. Do not ask for changes beyond what the failed checks need; everything else must stay as it is.
Reply with one JSON object and nothing else, one instruction per criterion in the order given:
{"instructions": ["<instruction for criterion 1>", "<instruction for criterion 2>"]}"""  # noqa: E501 (one line per paragraph, as sent)


class WriterError(RuntimeError):
    """The writer could not produce instructions (request failed, reply unreadable). One line,
    naming the item."""


def user_prompt(item: Item, groups: list[tuple[Criterion, list[Failure]]]) -> str:
    """The request text: the original prompt, then each criterion's failed checks with the
    judge's reason and any exact text the check requires."""
    lines = [f"Original prompt:\n{item.prompt}", "", "Failed checks, by criterion:"]
    for n, (crit, fails) in enumerate(groups, start=1):
        lines.append(f"Criterion {n}: {crit.name}")
        for check, verdict in fails:
            line = f"  - {check.question}"
            if check.expects:
                line += " [required text: " + ", ".join(f'"{e.text}"' for e in check.expects) + "]"
            if verdict.reason:
                line += f" (judge: {verdict.reason})"
            lines.append(line)
    lines += ["", f"Write {len(groups)} instruction(s), one per criterion, in this order."]
    return "\n".join(lines)


def parse_instructions(text: str, n: int) -> list[str] | None:
    """The ``n`` instructions of a ``{"instructions": [...]}`` reply, or None when the reply does
    not hold exactly ``n`` non-empty strings (``{"instruction": str}`` entries are accepted)."""
    obj = parse_json_object(text)
    items = obj.get("instructions") if obj is not None else None
    if not isinstance(items, list) or len(items) != n:
        return None
    out = []
    for it in items:
        s = it.get("instruction") if isinstance(it, dict) else it
        if not isinstance(s, str) or not s.strip():
            return None
        out.append(" ".join(s.split()))  # one line per criterion
    return out


class LLMInstructionWriter:
    """Implements :class:`refine.interfaces.Writer` with a chat model that sees the image.

    Args:
        base_url: API root including the version (``http://127.0.0.1:8000/v1`` for ``vllm serve``).
        model: the served model name; the writer's ``name`` is ``"llm:<model>"``.
        api_key_env: environment variable holding the API key (None: send none).
        timeout_s: timeout of one HTTP attempt, in seconds.
        max_retries: retries on 429/5xx, connection errors and timeouts.
        backoff_s: exponential backoff factor, in seconds.
        max_tokens: completion budget.
        temperature: sampling temperature (0: the same failures give the same instructions).
        image_max_side: the image is downscaled so its longer side is at most this many pixels.
        max_retry_wait_s: the longest wait before a retry, seconds; a longer ``Retry-After`` is
            cut to it and logged (``ChatClient``).

    Raises:
        ValueError: a bad ``base_url`` or ``max_retry_wait_s``, or an API key with whitespace
            or a control character inside it (one line naming the variable, never the key).
    """

    def __init__(
        self,
        *,
        base_url: str = "http://127.0.0.1:8000/v1",
        model: str = "Qwen/Qwen2.5-VL-7B-Instruct",
        api_key_env: str | None = "OPENAI_API_KEY",
        timeout_s: float = 60.0,
        max_retries: int = 4,
        backoff_s: float = 1.0,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        image_max_side: int = 1024,
        max_retry_wait_s: float = 60.0,
    ):
        self.name = f"llm:{model}"
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.image_max_side = image_max_side
        self.client = ChatClient(
            base_url=base_url,
            model=model,
            api_key_env=api_key_env,
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            pool_size=1,
            max_retry_wait_s=max_retry_wait_s,
        )

    def write(self, image: Image.Image, item: Item, failures: Sequence[Failure]) -> str:
        """One instruction line per criterion with failures, in rubric order ("" when there
        are no failures; no request is sent then).

        Registered API keys are redacted from the instructions and from every error (a server
        may echo the ``Authorization`` header).

        Raises:
            WriterError: the request failed after retries, or the reply did not hold one
                instruction per criterion.
            ValueError: a failed check is not in the item's rubric.
        """
        groups = failures_by_criterion(item, failures)
        if not groups:
            return ""
        messages = [
            {"role": "system", "content": SYSTEM},
            user_message(user_prompt(item, groups), image_data_url(image, self.image_max_side)),
        ]
        try:
            text = self.client.chat(messages, max_tokens=self.max_tokens, temperature=self.temperature)
        except ChatError as e:
            raise WriterError(redact(f"{self.name}, item {item.id}: request failed: {e}")) from None
        instructions = parse_instructions(text, len(groups))
        if instructions is None:
            raise WriterError(
                redact(
                    f'{self.name}, item {item.id}: expected {{"instructions": [...]}} with {len(groups)} '
                    f"non-empty strings, got {' '.join(text.split())[:120]!r}"
                )
            )
        return redact("\n".join(instructions))
