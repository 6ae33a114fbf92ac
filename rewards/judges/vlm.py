"""A VLM judge over an OpenAI-compatible chat API, in the two published protocols.

- ``per_image`` (BizGenEval §3.4 and its ``evaluation/image_evaluation.py``): one request per
  image carrying all its questions, answered as a JSON object ``{"1": {"result": true,
  "reason": ...}, ...}``; what cannot be determined is false; text questions need an exact
  character match. As there, the judge is not shown the generation prompt.
- ``per_check`` (TechImage-Bench §3.3): one request per check to a "hyper-conservative"
  evaluator answering ``{"answer": "yes" | "no", "reason": ...}``, shown the generation prompt
  as context (the paper gives the judge the figure's alt text and title).
- ``p_yes``: one request per check for a single answer token with ``logprobs`` and
  ``top_logprobs`` (OpenAI, vLLM, SGLang). With the first token's top log-probs lp,

      p_yes = sum_{t in Yes} e^{lp_t} / (sum_{t in Yes} e^{lp_t} + sum_{t in No} e^{lp_t})

  over the top tokens that read "yes" / "no" once stripped of spaces, ``Ġ``/``▁`` and case
  (" Yes", "yes", "YES", ...): the answer softmax restricted to the two answers, as the local
  judge reads it from logits. This normalised form is what we follow; VQAScore (Lin et al.
  2024, "Evaluating Text-to-Visual Generation with Image-to-Text Generation", §3) reads P("Yes")
  over the whole vocabulary instead, where mass off the two answers counts against "yes". The
  normalised form alone would read a model that wants to say "I'm sorry" (top tokens ``I
  -0.0001, Sorry -9.5, Yes -20``) as p_yes 1.0, so the answers' mass

      m = sum_{t in Yes} e^{lp_t} + sum_{t in No} e^{lp_t}

  must be at least ``min_answer_mass`` (default 0.5; a rule of ours, not the paper's) for p_yes
  to be an answer: below it the check is withheld, the reason naming m. Otherwise the answer is
  "yes" iff p_yes >= ``threshold``, with ``evidence["answer_mass"]`` = m.

  A server that returns no log-probs (``transformers serve`` ignores ``logprobs``) gives the
  hard answer from the reply's text, read as strictly as ``per_check``: the whole reply must be
  one word, yes or no (case and a trailing ".", "!" aside); anything else, e.g. "Yes, but
  actually no: ...", is withheld. Such verdicts are marked ``evidence["p_yes_source"] ==
  "text"`` and ``evidence["logprobs"] == "ignored by the server"``, with p_yes None, and the
  judge logs it once.

Per-check requests put the image first and the question last, so that every request about one
image starts with the same tokens (system prompt, image, generation prompt) and a server's
prefix cache (vLLM automatic prefix caching) computes the image's tokens once per image.

Self-consistency (``votes=k``): every check is asked k times, with temperature
``vote_temperature`` (``vote_by="samples"``) or with k phrasings of the request at temperature 0
(``vote_by="paraphrases"``); the verdict is the majority answer (a tie is "no"), with
``evidence["votes"]`` and ``evidence["agreement"]`` (share of answered votes equal to the
majority). It costs k times the requests; ``calls`` counts every request sent.

The prompts are our own wording. Temperature is 0 unless voting by samples. A request that
fails after the client's retries gives its checks a ``withheld`` verdict whose reason starts
with ``"request failed: "`` and names the error. A reply that answers none of the checks asked
(not JSON, no yes/no word, "banana ...", or over ``MAX_REPLY_CHARS``) is a failed call too
(``call_failed``: the item fails and a rerun asks again); a reply that answers only some of them
withholds the rest with ``evidence["unanswered_in_reply"]`` (counted in ``rubricloop-judge``'s
summary). Withheld is never a pass. (Outage detection in the refine
loop relies on failed calls being withheld with that reason: keep it when changing this file.)
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import math
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence

from PIL import Image

from rewards.common.options import require_bools
from rewards.common.secrets import redact
from rewards.judges.vlm_replies import (  # noqa: F401 (re-exported: the parsers' old home)
    MAX_REPLY_CHARS,
    UNANSWERED,
    parse_per_check,
    parse_per_image,
)
from rewards.models.openai_client import (
    TOKEN_FIELDS,
    ChatClient,
    ChatError,
    image_data_url,
    user_message,
)
from rewards.rubric import Check, Verdict, withheld

logger = logging.getLogger(__name__)

MODES = ("per_image", "per_check", "p_yes")
RESPONSE_FORMATS = ("auto", "on", "off")


def reply_schema(mode: str, n_checks: int = 1) -> dict[str, Any]:
    """The JSON schema of a hard-mode reply, sent as ``response_format`` (OpenAI structured
    outputs; vLLM's guided decoding): "per_check" ``{"answer": "yes" | "no", "reason"}``;
    "per_image" one ``{"result": bool, "reason"}`` per statement number "1".."n"."""
    if mode == "per_check":
        properties = {"answer": {"type": "string", "enum": ["yes", "no"]}, "reason": {"type": "string"}}
    else:
        entry = {
            "type": "object",
            "properties": {"result": {"type": "boolean"}, "reason": {"type": "string"}},
            "required": ["result", "reason"],
            "additionalProperties": False,
        }
        properties = {str(n): entry for n in range(1, n_checks + 1)}
    return {
        "type": "json_schema",
        "json_schema": {
            "name": f"{mode}_verdicts",
            "strict": True,
            "schema": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            },
        },
    }


VOTE_BY = ("samples", "paraphrases")

_STRICT_TEXT = (
    "- Text statements need an exact character match: letters, case, digits, punctuation, symbols "
    "and spaces. A single wrong, missing or extra character makes the statement false."
)
_LENIENT_TEXT = (
    _STRICT_TEXT + ' Only a leading bullet marker (such as "-" or "•") and a trailing ".", "?" or "!" may differ.'
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
{{"1": {{"result": true, "reason": "..."}}, "2": {{"result": false, "reason": "..."}}}}"""  # noqa: E501 (one line per paragraph, as sent)

PER_IMAGE_USER = "Statements about the image ({n} in total, answer every one):\n\n{statements}"

PER_CHECK_SYSTEM = """You are a hyper-conservative evaluator of a generated image. You are given the image, the description it was generated from, and one yes/no question about it.
Answer "yes" only if every detail the question asks about is clearly visible and correct in the image. If anything is missing, wrong, illegible, partly hidden or uncertain, answer "no".
Quoted text must match character for character.
Reply with one JSON object and nothing else: {"answer": "yes" or "no", "reason": "<short visible evidence>"}"""  # noqa: E501 (one line per paragraph, as sent)

PER_CHECK_USER = "Description the image was generated from:\n{prompt}\n\nQuestion: {question}"

P_YES_SYSTEM = """You are a hyper-conservative evaluator of a generated image. You are given the image, the description it was generated from, and one yes/no question about it.
Answer Yes only if every detail the question asks about is clearly visible and correct in the image. If anything is missing, wrong, illegible, partly hidden or uncertain, answer No.
Quoted text must match character for character.
Reply with one word: Yes or No."""  # noqa: E501 (one line per paragraph, as sent)

P_YES_USER = "Description the image was generated from:\n{prompt}\n\nQuestion: {question}\nAnswer Yes or No."

PARAPHRASES = (
    "{question}",
    "Is the following true of the image? {question}",
    "Look at the image carefully. {question}",
    "Judge strictly from what is visible: {question}",
    "Verify this against the image: {question}",
)
"""Phrasings of one check for ``vote_by="paraphrases"`` (vote v uses ``PARAPHRASES[v % 5]``)."""

_MAX_REASON = 300


def _answer_word(token: str) -> str | None:
    """ "yes" / "no" for a token that reads as that answer (" Yes", "YES", "Ġyes", "No."), else None."""
    word = token.strip().lstrip("Ġ▁").strip().rstrip(".,!:").lower()
    return word if word in ("yes", "no") else None


def answer_masses(top: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """``(P(yes), P(no))``: the probabilities of the entries of one token's ``top_logprobs``
    list (``[{"token": str, "logprob": float}, ...]``) that read as each answer, summed."""
    mass = {"yes": 0.0, "no": 0.0}
    for entry in top:
        word = _answer_word(str(entry.get("token", ""))) if isinstance(entry, dict) else None
        lp = entry.get("logprob") if word else None
        if isinstance(lp, (int, float)) and math.isfinite(lp):
            mass[word] += math.exp(lp)
    return mass["yes"], mass["no"]


def p_yes_from_top_logprobs(top: Sequence[dict[str, Any]]) -> float | None:
    """p_yes = P(yes) / (P(yes) + P(no)) from one token's ``top_logprobs`` (module docstring);
    None when no entry reads as yes or no. The answers' mass is not checked here."""
    yes, no = answer_masses(top)
    return yes / (yes + no) if yes + no > 0 else None


def first_token_top_logprobs(choice: dict[str, Any]) -> list[dict[str, Any]] | None:
    """``choice["logprobs"]["content"][0]["top_logprobs"]`` (OpenAI chat format), or None when
    the server sent no log-probs."""
    try:
        top = choice["logprobs"]["content"][0]["top_logprobs"]
    except (KeyError, IndexError, TypeError):
        return None
    return top if isinstance(top, list) and top else None


IGNORED_LOGPROBS = "the server ignored logprobs=true (transformers serve does)"


def parse_p_yes(
    text: str, choice: dict[str, Any], check: Check, judge: str, threshold: float, min_answer_mass: float = 0.5
) -> Verdict:
    """The verdict for one check from a one-token reply (module docstring).

    With log-probs: p_yes when the Yes/No mass among the top log-probs is at least
    ``min_answer_mass`` (``evidence`` ``p_yes_source="logprobs"``, ``answer_mass``), else
    withheld. Without: the reply must be exactly one yes/no word (``p_yes_source="text"``,
    ``logprobs="ignored by the server"``), else withheld.
    """
    top = first_token_top_logprobs(choice)
    if top is not None:
        yes, no = answer_masses(top)
        mass = yes + no
        if mass <= 0 or mass < min_answer_mass:
            return withheld(
                check,
                judge,
                f"Yes/No mass {mass:.2e} among the top {len(top)} logprobs is below "
                f"min_answer_mass={min_answer_mass:g} (first token {text[:40]!r}): no answer",
            )
        p = yes / mass
        answer = "yes" if p >= threshold else "no"
        evidence = {"p_yes_source": "logprobs", "answer_mass": mass}
        reason = f"p_yes={p:.4f} from logprobs (Yes/No mass {mass:.4f})"
        return Verdict(check.id, answer, judge, reason, evidence, p_yes=p)
    word = _answer_word(text)
    if word is None:
        reason = f"{IGNORED_LOGPROBS}, and the reply is not a plain yes/no: {text[:80]!r}"
        return withheld(check, judge, reason, call_failed=True)  # it answers nothing: a rerun asks again
    evidence = {"p_yes_source": "text", "logprobs": "ignored by the server"}
    return Verdict(check.id, word, judge, f"hard answer from the text: {IGNORED_LOGPROBS}", evidence)


def majority(votes: Sequence[Verdict], check: Check, judge: str) -> Verdict:
    """The self-consistency verdict of ``votes`` (one check): the majority of the yes/no votes, a
    tie being "no"; p_yes the mean of the votes' p_yes when every answered vote has one, else
    the share of "yes" votes. All votes withheld: the first vote's withheld verdict (its reason
    names the error). ``evidence``: ``votes`` (answers in order), ``agreement`` in [0, 1]."""
    answered = [v for v in votes if v.answer != "withheld"]
    if not answered:
        return votes[0]
    n_yes = sum(v.answer == "yes" for v in answered)
    answer = "yes" if n_yes > len(answered) - n_yes else "no"
    agreement = max(n_yes, len(answered) - n_yes) / len(answered)
    ps = [v.p_yes for v in answered]
    p = sum(ps) / len(ps) if all(x is not None for x in ps) else n_yes / len(answered)
    evidence = {"votes": [v.answer for v in votes], "agreement": agreement}
    if answered[0].evidence and "p_yes_source" in answered[0].evidence:
        evidence["p_yes_source"] = answered[0].evidence["p_yes_source"]
    reason = f"{n_yes} of {len(answered)} answered votes yes (of {len(votes)}); " + answered[0].reason
    return Verdict(check.id, answer, judge, reason[:_MAX_REASON], evidence, p_yes=p)


def _redacted(verdict: Verdict) -> Verdict:
    """``verdict`` with registered API keys redacted from its reason (a server may echo them)."""
    reason = redact(verdict.reason)
    return verdict if reason == verdict.reason else dataclasses.replace(verdict, reason=reason)


class VLMJudge:
    """Answers every check with a vision-language model behind an OpenAI-compatible API.

    Args:
        base_url: API root including the version (``http://127.0.0.1:8000/v1`` for ``vllm serve``).
        model: the served model name; the judge's ``name`` is ``"vlm:<model>"``.
        api_key_env: environment variable holding the API key (None: send none).
        mode: "per_image" (BizGenEval, one request per image), "per_check" (TechImage-Bench,
            one request per check) or "p_yes" (one request per check, p_yes from log-probs).
        timeout_s: timeout of one HTTP attempt, in seconds.
        max_retries: retries on 429/5xx, connection errors and timeouts (see ``ChatClient``).
        backoff_s: exponential backoff factor, in seconds.
        max_tokens: completion budget of one request (20 statements with reasons need ~2k);
            "p_yes" always asks for 1 token.
        token_field: the request field carrying that budget: "max_tokens" (vLLM, SGLang,
            ``transformers serve``), "max_completion_tokens" (OpenAI's newer models refuse
            ``max_tokens``) or "both".
        image_max_side: images are downscaled so their longer side is at most this many pixels.
        lenient_text: forgive a leading bullet and trailing ".?!" in per-image text statements
            (BizGenEval's v2 text prompt); False asks for an exact match (its v1 prompt).
        max_concurrency: requests in flight at once (one thread each). Requests are queued image
            by image, so the checks of one image run concurrently (and share a prefix cache).
        top_logprobs: "p_yes": how many top log-probs to ask for (OpenAI allows up to 20).
        threshold: "p_yes": p_yes at or above it answers "yes", in [0, 1].
        min_answer_mass: "p_yes": the least probability the top log-probs must put on the Yes
            and No tokens together for p_yes to be an answer (below: withheld), in [0, 1].
        max_retry_wait_s: the longest wait before a retry, seconds; a longer ``Retry-After`` is
            cut to it and logged (``ChatClient``).
        require_logprobs: "p_yes": a reply without log-probs is a failed call (withheld,
            ``call_failed``: the item fails and a rerun redoes it) instead of the text fallback.
        wait_ready_s: before the first request, wait up to this many seconds for the server to
            answer ``GET /v1/models`` (a server still loading its model); 0: no wait.
        response_format: "per_image" and "per_check": send the reply's JSON schema
            (:func:`reply_schema`) so that a server with structured outputs (vLLM, OpenAI) cannot
            ramble. "auto": send it, and when the server answers 400 or 422 to a request carrying
            it, send that request again without it and never again (logged once); "on": always
            (a refusal fails the call); "off": never.
        votes: self-consistency: ask each check (each image in "per_image") this many times
            and take the majority (module docstring). 1 = no voting.
        vote_by: "samples" (temperature ``vote_temperature``) or "paraphrases" (``PARAPHRASES``).
        vote_temperature: sampling temperature of the votes when ``vote_by="samples"``.

    Attributes:
        calls: requests sent so far (every vote and every check counted; retries not counted).

    Raises:
        ValueError: an unknown ``mode``, ``vote_by`` or ``token_field``, ``votes`` < 1, ``threshold`` outside
            [0, 1], ``min_answer_mass`` outside [0, 1], ``top_logprobs`` outside 1..20, a bad
            ``base_url`` or ``max_retry_wait_s``, or an API key with whitespace inside it.
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
        top_logprobs: int = 20,
        threshold: float = 0.5,
        votes: int = 1,
        vote_by: str = "samples",
        vote_temperature: float = 0.7,
        min_answer_mass: float = 0.5,
        max_retry_wait_s: float = 60.0,
        require_logprobs: bool = False,
        wait_ready_s: float = 0.0,
        response_format: str = "auto",
        token_field: str = "max_tokens",
    ):
        if mode not in MODES:
            raise ValueError(f"VLMJudge: mode must be one of {MODES}, got {mode!r}")
        if token_field not in TOKEN_FIELDS:
            raise ValueError(f"VLMJudge: token_field must be one of {TOKEN_FIELDS}, got {token_field!r}")
        if vote_by not in VOTE_BY:
            raise ValueError(f"VLMJudge: vote_by must be one of {VOTE_BY}, got {vote_by!r}")
        if not isinstance(votes, int) or votes < 1:
            raise ValueError(f"VLMJudge: votes must be an integer >= 1, got {votes!r}")
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"VLMJudge: threshold must be in [0, 1], got {threshold!r}")
        if not isinstance(min_answer_mass, (int, float)) or not 0.0 <= min_answer_mass <= 1.0:
            raise ValueError(f"VLMJudge: min_answer_mass must be in [0, 1], got {min_answer_mass!r}")
        if not 1 <= top_logprobs <= 20:
            raise ValueError(f"VLMJudge: top_logprobs must be in 1..20, got {top_logprobs!r}")
        self.name = f"vlm:{model}"
        self.base_url, self.model, self.mode = base_url, model, mode
        self.max_tokens = max_tokens
        self.image_max_side = image_max_side
        self.max_concurrency = max_concurrency
        self.top_logprobs, self.threshold, self.min_answer_mass = top_logprobs, threshold, min_answer_mass
        self._warned_no_logprobs = False
        require_bools("VLMJudge", require_logprobs=require_logprobs)
        self.require_logprobs = require_logprobs
        if response_format not in RESPONSE_FORMATS:
            raise ValueError(f"VLMJudge: response_format must be one of {RESPONSE_FORMATS}, got {response_format!r}")
        self.response_format = response_format
        self._schema_refused = False  # "auto": the server refused response_format once; not sent again
        self.votes, self.vote_by, self.vote_temperature = votes, vote_by, vote_temperature
        self.lenient_text = lenient_text
        self.per_image_system = PER_IMAGE_SYSTEM.format(text_rule=_LENIENT_TEXT if lenient_text else _STRICT_TEXT)
        self.calls = 0
        self._calls_lock = threading.Lock()
        self.client = ChatClient(
            base_url=base_url,
            model=model,
            api_key_env=api_key_env,
            timeout_s=timeout_s,
            max_retries=max_retries,
            backoff_s=backoff_s,
            pool_size=max_concurrency,
            max_retry_wait_s=max_retry_wait_s,
            wait_ready_s=wait_ready_s,
            token_field=token_field,
        )

    def can_answer(self, check: Check) -> bool:
        """Always True: a VLM can be asked any yes/no question."""
        return True

    def cache_identity(self) -> dict[str, Any]:
        """What decides this judge's verdicts, for the verdict cache key: the server, model,
        protocol, options and a hash of the prompt texts (never the API key or its variable)."""
        prompts = "\n".join(
            [
                self.per_image_system,
                PER_IMAGE_USER,
                PER_CHECK_SYSTEM,
                PER_CHECK_USER,
                P_YES_SYSTEM,
                P_YES_USER,
                *PARAPHRASES,
            ]
        )
        return {
            "class": "VLMJudge",
            "base_url": self.base_url,
            "model": self.model,
            "mode": self.mode,
            "max_tokens": self.max_tokens,
            "image_max_side": self.image_max_side,
            "lenient_text": self.lenient_text,
            "top_logprobs": self.top_logprobs,
            "threshold": self.threshold,
            "min_answer_mass": self.min_answer_mass,
            "votes": self.votes,
            "vote_by": self.vote_by,
            "vote_temperature": self.vote_temperature,
            "response_format": self.response_format,
            "prompts_sha256": hashlib.sha256(prompts.encode()).hexdigest(),
        }

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]``; see :class:`rewards.judges.base.Judge`.

        Requests run on ``max_concurrency`` threads, queued image by image. Returns one verdict
        per check, in order.

        Raises:
            ValueError: ``images``, ``prompts`` and ``checks`` differ in length.
        """
        if not len(images) == len(prompts) == len(checks):
            raise ValueError(
                f"{self.name}: got {len(images)} images, {len(prompts)} prompts, {len(checks)} check lists"
            )
        # One task per request: (image index, check positions it answers, function -> verdicts).
        tasks: list[tuple[int, list[int], Callable[[], list[Verdict]]]] = []
        for i, (image, prompt, cs) in enumerate(zip(images, prompts, checks)):
            if not cs:
                continue
            url = image_data_url(image, self.image_max_side)
            for vote in range(self.votes):
                if self.mode == "per_image":
                    tasks.append(
                        (i, list(range(len(cs))), lambda u=url, cs=list(cs), v=vote: self._ask_per_image(u, cs, v))
                    )
                    continue
                ask = self._ask_p_yes if self.mode == "p_yes" else self._ask_per_check
                for j, c in enumerate(cs):
                    tasks.append((i, [j], lambda u=url, p=prompt, c=c, v=vote, ask=ask: [ask(u, p, c, v)]))

        votes: list[list[list[Verdict]]] = [[[] for _ in cs] for cs in checks]
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            futures = [pool.submit(fn) for _, _, fn in tasks]
            for (i, positions, _), future in zip(tasks, futures):
                for j, verdict in zip(positions, future.result()):
                    votes[i][j].append(verdict)
        if self.votes == 1:
            out = [[vs[0] for vs in row] for row in votes]
        else:
            out = [[majority(vs, c, self.name) for vs, c in zip(row, cs)] for row, cs in zip(votes, checks)]
        return [[_redacted(v) for v in row] for row in out]

    def _send(
        self, messages: list[dict[str, Any]], max_tokens: int, schema: dict[str, Any] | None = None, **extra: Any
    ) -> tuple[str, dict[str, Any]]:
        """One request (counted in ``calls``); ``schema``: the reply's ``response_format``, sent
        as ``self.response_format`` says (the constructor's docstring)."""
        sampling = self.votes > 1 and self.vote_by == "samples"
        temperature = self.vote_temperature if sampling else 0.0
        with_schema = schema is not None and (
            self.response_format == "on" or (self.response_format == "auto" and not self._schema_refused)
        )
        with self._calls_lock:
            self.calls += 1
        if not with_schema:
            return self.client.complete(messages, max_tokens=max_tokens, temperature=temperature, **extra)
        try:
            return self.client.complete(
                messages, max_tokens=max_tokens, temperature=temperature, response_format=schema, **extra
            )
        except ChatError as e:
            if self.response_format != "auto" or not re.search(r"HTTP 4(00|22)\b", str(e)):
                raise
            with self._calls_lock:
                self.calls += 1
            # the same request without the schema: its own error (a wrong model name) is raised from here
            result = self.client.complete(messages, max_tokens=max_tokens, temperature=temperature, **extra)
            with self._calls_lock:
                first, self._schema_refused = not self._schema_refused, True
            if first:
                logger.warning("%s: the server refused response_format (%s); sending without it", self.name, e)
            return result

    def _question(self, question: str, vote: int) -> str:
        return (
            PARAPHRASES[vote % len(PARAPHRASES)].format(question=question)
            if self.vote_by == "paraphrases"
            else question
        )

    def _ask_per_image(self, url: str, checks: list[Check], vote: int = 0) -> list[Verdict]:
        statements = "\n".join(f"{n}. {self._question(c.question, vote)}" for n, c in enumerate(checks, start=1))
        messages = [
            {"role": "system", "content": self.per_image_system},
            user_message(PER_IMAGE_USER.format(n=len(checks), statements=statements), url),
        ]
        try:
            text, _ = self._send(messages, self.max_tokens, reply_schema("per_image", len(checks)))
        except ChatError as e:
            logger.warning("%s: per-image request failed: %s", self.name, e)
            return [withheld(c, self.name, f"request failed: {e}", call_failed=True) for c in checks]
        return parse_per_image(text, checks, self.name)

    def _ask_per_check(self, url: str, prompt: str, check: Check, vote: int = 0) -> Verdict:
        messages = [
            {"role": "system", "content": PER_CHECK_SYSTEM},
            user_message(
                PER_CHECK_USER.format(prompt=prompt, question=self._question(check.question, vote)),
                url,
                image_first=True,
            ),
        ]
        try:
            text, _ = self._send(messages, self.max_tokens, reply_schema("per_check"))
        except ChatError as e:
            logger.warning("%s: request for check %s failed: %s", self.name, check.id, e)
            return withheld(check, self.name, f"request failed: {e}", call_failed=True)
        return parse_per_check(text, check, self.name)

    def _ask_p_yes(self, url: str, prompt: str, check: Check, vote: int = 0) -> Verdict:
        messages = [
            {"role": "system", "content": P_YES_SYSTEM},
            user_message(
                P_YES_USER.format(prompt=prompt, question=self._question(check.question, vote)), url, image_first=True
            ),
        ]
        try:
            text, choice = self._send(messages, 1, logprobs=True, top_logprobs=self.top_logprobs)
        except ChatError as e:
            logger.warning("%s: request for check %s failed: %s", self.name, check.id, e)
            return withheld(check, self.name, f"request failed: {e}", call_failed=True)
        if first_token_top_logprobs(choice) is None and self.require_logprobs:
            # a call that cannot give what was asked: call_failed, so the item fails (judge_outage)
            # and a rerun redoes it
            reason = f"{IGNORED_LOGPROBS} and require_logprobs=true: no p_yes"
            return withheld(check, self.name, reason, call_failed=True)
        verdict = parse_p_yes(text, choice, check, self.name, self.threshold, self.min_answer_mass)
        if first_token_top_logprobs(choice) is None and not self._warned_no_logprobs:
            self._warned_no_logprobs = True
            logger.warning(
                "%s: %s; p_yes falls back to the text of the reply (require_logprobs=true makes this an error)",
                self.name,
                IGNORED_LOGPROBS,
            )
        return verdict
