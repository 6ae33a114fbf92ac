"""A VLM judge over an OpenAI-compatible chat API, in the two published protocols.

- ``per_image`` (BizGenEval §3.4 and its ``evaluation/image_evaluation.py``): one request per
  image carrying all its questions, answered as a JSON object ``{"1": {"result": true,
  "reason": ...}, ...}``; what cannot be determined is false; text questions need an exact
  character match. As there, the judge is not shown the generation prompt.
- ``per_check`` (TechImage-Bench §3.3): one request per check to a "hyper-conservative"
  evaluator answering ``{"answer": "yes" | "no", "reason": ...}``, shown the generation prompt
  as context (the paper gives the judge the figure's alt text and title).

The prompts are our own wording. Temperature is 0. A request that fails after the client's
retries, or an answer missing or unreadable for a check, gives that check a ``withheld``
verdict (never a pass) whose reason says why.
"""

from __future__ import annotations

import logging
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

from PIL import Image

from rewards.judges.openai_client import ChatClient, ChatError, image_data_url, parse_json_object, user_message
from rewards.rubric import Check, Verdict, withheld

logger = logging.getLogger(__name__)

MODES = ("per_image", "per_check")

_STRICT_TEXT = (
    "- Text statements need an exact character match: letters, case, digits, punctuation, symbols "
    "and spaces. A single wrong, missing or extra character makes the statement false."
)
_LENIENT_TEXT = (
    _STRICT_TEXT + " Only a leading bullet marker (such as \"-\" or \"•\") and a trailing \".\", \"?\" "
    "or \"!\" may differ."
)

PER_IMAGE_SYSTEM = """You are a strict evaluator of generated business and technical images (slides, webpages, posters, charts, scientific figures).
For each numbered statement, decide whether it is true of the image.

Rules:
- Judge only from what is visible in the image. Do not assume, guess or infer what was intended.
- Answer true only when the statement is clearly satisfied. Answer false when it is violated.
- If it cannot be determined from the image (missing, cut off, illegible, ambiguous), answer false.
- Be strict about counts, colours (a close shade is fine, a different hue is not), positions, alignment, relative sizes, shapes and line styles.
{text_rule}
- For factual or numeric statements, use the visible content plus standard domain knowledge; answer false if they cannot be verified.

Reply with one JSON object and nothing else. It has one key per statement number, from 1 to the last, each with a boolean result and a short reason citing the visible evidence:
{{"1": {{"result": true, "reason": "..."}}, "2": {{"result": false, "reason": "..."}}}}"""

PER_IMAGE_USER = "Statements about the image ({n} in total, answer every one):\n\n{statements}"

PER_CHECK_SYSTEM = """You are a hyper-conservative evaluator of a generated image. You are given the image, the description it was generated from, and one yes/no question about it.
Answer "yes" only if every detail the question asks about is clearly visible and correct in the image. If anything is missing, wrong, illegible, partly hidden or uncertain, answer "no".
Quoted text must match character for character.
Reply with one JSON object and nothing else: {"answer": "yes" or "no", "reason": "<short visible evidence>"}"""

PER_CHECK_USER = "Description the image was generated from:\n{prompt}\n\nQuestion: {question}"

_MAX_REASON = 300
# Salvages per-question results when the reply is not valid JSON (e.g. unescaped quotes in a reason).
_RESULT_RE = re.compile(r"\"(\d+)\"\s*:\s*\{\s*\"result\"\s*:\s*\"?(true|false)\"?", re.I)
_ANSWER_RE = re.compile(r"\"answer\"\s*:\s*\"(yes|no)\"", re.I)
_BOOL_WORDS = {"true": True, "yes": True, "false": False, "no": False}


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _BOOL_WORDS.get(value.strip().lower())
    return None


def _reason(entry: Any) -> str:
    reason = entry.get("reason", "") if isinstance(entry, dict) else ""
    return " ".join(str(reason).split())[:_MAX_REASON]


def parse_per_image(text: str, checks: Sequence[Check], judge: str) -> list[Verdict]:
    """Verdicts for ``checks`` (numbered 1..n in the request) from a per-image JSON reply.

    An entry is ``{"result": bool | "true"/"false"/"yes"/"no", "reason": str}`` or a bare
    boolean. A number missing from the reply, or with an unreadable result, is withheld.
    """
    obj = parse_json_object(text)
    if obj is None:
        salvaged: dict[Any, Any] = {k: {"result": v.lower() == "true"} for k, v in _RESULT_RE.findall(text)}
        if not salvaged:
            return [withheld(c, judge, f"reply is not JSON: {text[:80]!r}") for c in checks]
        obj = salvaged
    verdicts = []
    for n, check in enumerate(checks, start=1):
        entry = obj.get(str(n), obj.get(n))  # int keys come from the Python-literal fallback
        result = _as_bool(entry.get("result") if isinstance(entry, dict) else entry)
        if entry is None:
            verdicts.append(withheld(check, judge, f"no answer for statement {n} in the reply"))
        elif result is None:
            verdicts.append(withheld(check, judge, f"unreadable result for statement {n}: {str(entry)[:80]!r}"))
        else:
            verdicts.append(Verdict(check.id, "yes" if result else "no", judge, _reason(entry)))
    return verdicts


def parse_per_check(text: str, check: Check, judge: str) -> Verdict:
    """The verdict for one check from a ``{"answer": "yes"|"no", "reason": ...}`` reply
    (withheld when no yes/no answer can be read)."""
    obj = parse_json_object(text)
    if obj is not None:
        answer = _as_bool(obj.get("answer"))
    else:
        m = _ANSWER_RE.search(text)
        answer = None if m is None else m.group(1).lower() == "yes"
    if answer is None:
        return withheld(check, judge, f"no yes/no answer in the reply: {text[:80]!r}")
    return Verdict(check.id, "yes" if answer else "no", judge, _reason(obj))


class VLMJudge:
    """Answers every check with a vision-language model behind an OpenAI-compatible API.

    Args:
        base_url: API root including the version (``http://127.0.0.1:8000/v1`` for ``vllm serve``).
        model: the served model name; the judge's ``name`` is ``"vlm:<model>"``.
        api_key_env: environment variable holding the API key (None: send none).
        mode: "per_image" (BizGenEval, one request per image) or "per_check" (TechImage-Bench,
            one request per check).
        timeout_s: timeout of one HTTP attempt, in seconds.
        max_retries: retries on 429/5xx, connection errors and timeouts (see ``ChatClient``).
        backoff_s: exponential backoff factor, in seconds.
        max_tokens: completion budget of one request (20 statements with reasons need ~2k).
        image_max_side: images are downscaled so their longer side is at most this many pixels.
        lenient_text: forgive a leading bullet and trailing ".?!" in per-image text statements
            (BizGenEval's v2 text prompt); False asks for an exact match (its v1 prompt).
        max_concurrency: requests in flight at once (one thread each).

    Raises:
        ValueError: an unknown ``mode`` or a bad ``base_url``.
    """

    def __init__(
        self,
        *,
        base_url: str = "http://127.0.0.1:8000/v1",
        model: str = "Qwen/Qwen2.5-VL-7B-Instruct",
        api_key_env: str | None = "OPENAI_API_KEY",
        mode: str = "per_image",
        timeout_s: float = 60.0,
        max_retries: int = 4,
        backoff_s: float = 1.0,
        max_tokens: int = 4096,
        image_max_side: int = 1024,
        lenient_text: bool = False,
        max_concurrency: int = 4,
    ):
        if mode not in MODES:
            raise ValueError(f"VLMJudge: mode must be one of {MODES}, got {mode!r}")
        self.name = f"vlm:{model}"
        self.mode = mode
        self.max_tokens = max_tokens
        self.image_max_side = image_max_side
        self.max_concurrency = max_concurrency
        self.per_image_system = PER_IMAGE_SYSTEM.format(text_rule=_LENIENT_TEXT if lenient_text else _STRICT_TEXT)
        self.client = ChatClient(
            base_url=base_url,
            model=model,
            api_key_env=api_key_env,
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            pool_size=max_concurrency,
        )

    def can_answer(self, check: Check) -> bool:
        """Always True: a VLM can be asked any yes/no question."""
        return True

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]``; see :class:`rewards.judges.base.Judge`.

        Requests run on ``max_concurrency`` threads. Returns one verdict per check, in order.

        Raises:
            ValueError: ``images``, ``prompts`` and ``checks`` differ in length.
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(f"{self.name}: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists")
        # One task per request: (image index, check positions it answers, function -> verdicts).
        tasks: list[tuple[int, list[int], Callable[[], list[Verdict]]]] = []
        for i, (image, prompt, cs) in enumerate(zip(images, prompts, checks)):
            if not cs:
                continue
            url = image_data_url(image, self.image_max_side)
            if self.mode == "per_image":
                tasks.append((i, list(range(len(cs))), lambda u=url, cs=list(cs): self._ask_per_image(u, cs)))
            else:
                for j, c in enumerate(cs):
                    tasks.append((i, [j], lambda u=url, p=prompt, c=c: [self._ask_per_check(u, p, c)]))

        out: list[list[Verdict | None]] = [[None] * len(cs) for cs in checks]
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            futures = [pool.submit(fn) for _, _, fn in tasks]
            for (i, positions, _), future in zip(tasks, futures):
                for j, verdict in zip(positions, future.result()):
                    out[i][j] = verdict
        return out  # type: ignore[return-value]  # every position was filled by its task

    def _ask_per_image(self, url: str, checks: list[Check]) -> list[Verdict]:
        statements = "\n".join(f"{n}. {c.question}" for n, c in enumerate(checks, start=1))
        messages = [
            {"role": "system", "content": self.per_image_system},
            user_message(PER_IMAGE_USER.format(n=len(checks), statements=statements), url),
        ]
        try:
            text = self.client.chat(messages, max_tokens=self.max_tokens)
        except ChatError as e:
            logger.warning("%s: per-image request failed: %s", self.name, e)
            return [withheld(c, self.name, f"request failed: {e}") for c in checks]
        return parse_per_image(text, checks, self.name)

    def _ask_per_check(self, url: str, prompt: str, check: Check) -> Verdict:
        messages = [
            {"role": "system", "content": PER_CHECK_SYSTEM},
            user_message(PER_CHECK_USER.format(prompt=prompt, question=check.question), url),
        ]
        try:
            text = self.client.chat(messages, max_tokens=self.max_tokens)
        except ChatError as e:
            logger.warning("%s: request for check %s failed: %s", self.name, check.id, e)
            return withheld(check, self.name, f"request failed: {e}")
        return parse_per_check(text, check, self.name)
