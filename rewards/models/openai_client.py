"""A small client for OpenAI-compatible ``POST {base_url}/chat/completions`` (vLLM, SGLang,
OpenAI, Gemini's compatible endpoint), plus the two helpers every caller needs: an image as a
base64 PNG data URL, and a forgiving parser for the JSON object a model replies with.

Retries use ``urllib3.util.Retry`` mounted on a ``requests`` session: 429 and 5xx answers,
connection errors and read timeouts are retried ``max_retries`` times. urllib3 waits 0 s before
the first retry and ``backoff_s * 2 ** (n - 1)`` seconds before retry n >= 2, or what the
server's ``Retry-After`` header asks for on 413/429/503; either wait is capped at
``max_retry_wait_s`` (a capped Retry-After is logged as a warning), so a server asking for an
hour cannot stall a run.

The API key is read once from the environment variable named by ``api_key_env``
(``rewards.common.secrets.read_api_key``: stripped, checked, registered for redaction) and only
ever placed in the ``Authorization`` header; every error message is passed through
``rewards.common.secrets.redact``, so a server that echoes the header cannot put the key in it.
"""

from __future__ import annotations

import ast
import base64
import io
import json
import logging
import re
import threading
import time
from typing import Any

import requests
from PIL import Image
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError
from urllib3.util import Retry

from rewards.common.secrets import read_api_key, redact

logger = logging.getLogger(__name__)

RETRY_STATUSES = (429, 500, 502, 503, 504)
TOKEN_FIELDS = ("max_tokens", "max_completion_tokens", "both")
"""Request fields that carry the completion's token budget: ``max_tokens`` (vLLM, SGLang,
``transformers serve``, OpenAI's older models), ``max_completion_tokens`` (OpenAI's newer models,
which refuse ``max_tokens`` with a 400; ``transformers serve`` and vLLM accept it too) or both."""


class ChatError(RuntimeError):
    """A chat request that failed after all retries. The message is one line naming the HTTP
    status or the connection error, never the API key."""


class CappedRetry(Retry):
    """``urllib3`` ``Retry`` whose ``Retry-After`` wait is capped at ``max_wait_s`` seconds (a
    capped wait is logged). urllib3's own ``retry_after_max`` exists only in recent releases."""

    def __init__(self, *args: Any, max_wait_s: float = 60.0, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.max_wait_s = max_wait_s

    def new(self, **kw: Any) -> "CappedRetry":
        retry = super().new(**kw)
        retry.max_wait_s = self.max_wait_s
        return retry

    def sleep_for_retry(self, response: Any) -> bool:
        wait = self.get_retry_after(response)  # urllib3 cuts it to its own retry_after_max (6 h) first
        if wait is not None and wait > self.max_wait_s:
            sent = " ".join(str(response.headers.get("Retry-After", "")).split())[:80]  # as the server wrote it
            logger.warning(
                "the server sent Retry-After: %s; waiting %g s (max_retry_wait_s=%g)",
                sent,
                self.max_wait_s,
                self.max_wait_s,
            )
            wait = self.max_wait_s
        if wait:
            time.sleep(wait)
            return True
        return False


def retrying_session(
    *, max_retries: int, backoff_s: float, max_retry_wait_s: float, pool_size: int, api_key: str | None = None
) -> requests.Session:
    """A ``requests`` session that retries POSTs as the module docstring says (429 and 5xx answers,
    connection errors and read timeouts, ``max_retries`` times, waits capped at
    ``max_retry_wait_s``), keeps ``pool_size`` connections open, and sends ``Authorization:
    Bearer <api_key>`` when a key is given. Shared by :class:`ChatClient` and the judge-server
    client (``rewards.judges.http_judge``).
    """
    retry = CappedRetry(
        total=max_retries,
        connect=max_retries,
        read=max_retries,
        status=max_retries,
        other=0,
        redirect=0,
        backoff_factor=backoff_s,
        backoff_max=max_retry_wait_s,
        max_wait_s=max_retry_wait_s,
        status_forcelist=RETRY_STATUSES,
        allowed_methods=frozenset({"POST"}),
        respect_retry_after_header=True,
        raise_on_status=False,  # give back the last 429/5xx response so the caller can name it
    )
    session = requests.Session()
    adapter = HTTPAdapter(max_retries=retry, pool_connections=1, pool_maxsize=pool_size)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    if api_key:
        session.headers["Authorization"] = f"Bearer {api_key}"
    return session


class ChatClient:
    """Sends chat-completion requests to one model behind an OpenAI-compatible server.

    Args:
        base_url: the API root including the version, e.g. ``http://127.0.0.1:8000/v1`` (vLLM)
            or ``https://api.openai.com/v1``; requests go to ``{base_url}/chat/completions``.
        model: the model name the server expects.
        api_key_env: name of the environment variable holding the API key (read once, here).
            None, or a variable that is unset, sends no ``Authorization`` header (local servers).
        timeout_s: connect and read timeout of one attempt, in seconds.
        max_retries: retries after the first attempt on 429/5xx, connection errors and timeouts.
        backoff_s: urllib3 ``backoff_factor`` in seconds (see the module docstring).
        pool_size: connections kept open to the server; set it to the caller's thread count.
        max_retry_wait_s: the longest wait before a retry, in seconds: a larger ``Retry-After``
            is cut to it (logged) and so is the exponential backoff.
        wait_ready_s: before the first request, poll ``GET {base_url}/models`` (every second) for
            up to this many seconds until the server answers 200, for a server still loading its
            model; 0: no wait. A server not ready in time fails that request in one line.
        token_field: the request field(s) carrying the token budget, one of ``TOKEN_FIELDS``.

    Raises:
        ValueError: a bad ``base_url``, a negative ``max_retry_wait_s``, an unknown
            ``token_field``, or a key with whitespace or a control character inside it
            (``read_api_key``; one line naming the variable, never the key).
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key_env: str | None = "OPENAI_API_KEY",
        timeout_s: float = 60.0,
        max_retries: int = 4,
        backoff_s: float = 1.0,
        pool_size: int = 4,
        max_retry_wait_s: float = 60.0,
        wait_ready_s: float = 0.0,
        token_field: str = "max_tokens",
    ):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {base_url!r}")
        if not isinstance(max_retry_wait_s, (int, float)) or isinstance(max_retry_wait_s, bool) or max_retry_wait_s < 0:
            raise ValueError(f"max_retry_wait_s must be >= 0, got {max_retry_wait_s!r}")
        if not isinstance(wait_ready_s, (int, float)) or isinstance(wait_ready_s, bool) or wait_ready_s < 0:
            raise ValueError(f"wait_ready_s must be >= 0, got {wait_ready_s!r}")
        if token_field not in TOKEN_FIELDS:
            raise ValueError(f"token_field must be one of {TOKEN_FIELDS}, got {token_field!r}")
        self.token_field = token_field
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.models_url = base_url.rstrip("/") + "/models"
        self.wait_ready_s = float(wait_ready_s)
        self._ready = wait_ready_s == 0
        self._waited = False  # a wait ran out: ask once from then on
        self._ready_lock = threading.Lock()
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self._key = read_api_key(api_key_env)
        if api_key_env and not self._key:
            logger.info("environment variable %s is not set or empty; sending requests without an API key", api_key_env)

        self._session = retrying_session(
            max_retries=max_retries,
            backoff_s=backoff_s,
            max_retry_wait_s=max_retry_wait_s,
            pool_size=pool_size,
            api_key=self._key,
        )

    def __repr__(self) -> str:
        return f"ChatClient(url={self.url!r}, model={self.model!r})"

    def chat(self, messages: list[dict[str, Any]], *, max_tokens: int, temperature: float = 0.0) -> str:
        """Send one chat request and return the first choice's message text.

        Args:
            messages: OpenAI chat messages (``{"role", "content"}``; content may be a list of
                ``{"type": "text"}`` / ``{"type": "image_url"}`` parts).
            max_tokens: the completion's token budget.
            temperature: sampling temperature (0 for judging).

        Raises:
            ChatError: the server still answered non-200 after the retries (message names the
                status and the start of the body), the connection failed or timed out on every
                attempt, or the 200 response had no message text.
        """
        return self.complete(messages, max_tokens=max_tokens, temperature=temperature)[0]

    def complete(
        self, messages: list[dict[str, Any]], *, max_tokens: int, temperature: float = 0.0, **extra: Any
    ) -> tuple[str, dict[str, Any]]:
        """Like :meth:`chat`, and also return the first choice as the server sent it.

        Args:
            messages, max_tokens, temperature: as :meth:`chat`; ``max_tokens`` is sent in the
                field(s) ``token_field`` names.
            extra: more request fields, e.g. ``logprobs=True, top_logprobs=20`` (OpenAI, vLLM and
                SGLang then put ``choice["logprobs"]["content"][i]["top_logprobs"]`` in the reply).

        Returns:
            ``(text, choice)``: the message text (registered API keys redacted: a server may echo
            the ``Authorization`` header) and the raw ``choices[0]`` dict.

        Raises:
            ChatError: as :meth:`chat`.
        """
        self.wait_until_ready()
        budget = ("max_tokens", "max_completion_tokens") if self.token_field == "both" else (self.token_field,)
        payload = {
            "model": self.model,
            "messages": messages,
            "temperature": temperature,
            **dict.fromkeys(budget, max_tokens),
            **extra,
        }
        try:
            resp = self._session.post(self.url, json=payload, timeout=self.timeout_s)
        except requests.RequestException as e:
            raise ChatError(redact(f"{self.url}: {describe_error(e)} (after {self.max_retries} retries)")) from None
        if resp.status_code != 200:
            body = " ".join(resp.text.split())[:200]
            hint = ""
            if resp.status_code == 400 and "context length" in body.lower():
                hint = (
                    " (one request is the system prompt, the image's tokens and the check's text with the whole "
                    "generation prompt: shorten the prompt, lower image_max_side, or serve a longer context, "
                    "vllm serve --max-model-len)"
                )
            elif resp.status_code == 400 and "max_completion_tokens" in body and self.token_field == "max_tokens":
                hint = " (the server wants the budget as max_completion_tokens: set token_field=max_completion_tokens)"
            raise ChatError(redact(f"{self.url}: HTTP {resp.status_code} {resp.reason}: {body}{hint}"))
        try:
            choice = resp.json()["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ChatError(redact(f"{self.url}: malformed response body: {resp.text[:200]!r}")) from None
        if isinstance(content, list):  # some servers return content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not content:
            raise ChatError(redact(f"{self.url}: empty message (finish_reason={choice.get('finish_reason')!r})"))
        return redact(content), choice

    def wait_until_ready(self) -> None:
        """Block until ``GET {base_url}/models`` answers 200, for at most ``wait_ready_s`` seconds,
        once per client (concurrent callers wait for the first one). After a wait that ran out,
        later calls ask once, without waiting: a server that never came up costs one wait per run,
        not one per item.

        Raises:
            ChatError: the server did not answer 200 in time (one line with its last answer).
        """
        if self._ready:
            return
        with self._ready_lock:
            if self._ready:
                return
            deadline, last = time.monotonic() + (0.0 if self._waited else self.wait_ready_s), "no answer"
            while True:
                try:
                    resp = requests.get(self.models_url, timeout=min(5.0, self.timeout_s))
                    if resp.status_code == 200:
                        self._ready = True
                        return
                    last = f"HTTP {resp.status_code}"
                except requests.RequestException as e:
                    last = describe_error(e)
                if time.monotonic() >= deadline:
                    self._waited = True
                    raise ChatError(
                        redact(f"{self.models_url}: server not ready after wait_ready_s={self.wait_ready_s:g} ({last})")
                    )
                time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


def describe_error(e: requests.RequestException) -> str:
    """'ReadTimeoutError: ... Read timed out' rather than requests' nested MaxRetryError text."""
    inner = e.args[0] if e.args else None
    if isinstance(inner, MaxRetryError) and inner.reason is not None:
        inner = inner.reason
    if isinstance(inner, Exception):
        return f"{type(inner).__name__}: {inner}"
    return f"{type(e).__name__}: {e}"


def image_data_url(image: Image.Image, max_side: int = 1024) -> str:
    """``image`` as a ``data:image/png;base64,...`` URL for an ``image_url`` message part.

    The image is converted to RGB and, when its longer side exceeds ``max_side`` pixels,
    downscaled (Lanczos) so that the longer side is ``max_side``; the aspect ratio is kept.
    """
    image = image.convert("RGB")
    w, h = image.size
    if max(w, h) > max_side:
        scale = max_side / max(w, h)
        image = image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def user_message(text: str, data_url: str, image_first: bool = False) -> dict[str, Any]:
    """A user message with ``text`` and one image (OpenAI vision message format): text then
    image, or with ``image_first`` image then text, so requests about one image share their
    leading tokens (system prompt + image) and a server's prefix cache can reuse them."""
    parts = [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": data_url}}]
    return {"role": "user", "content": parts[::-1] if image_first else parts}


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)\s*```", re.S)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in a model's reply, or None when there is none.

    Tries, in order: the text inside a ```` ```json ```` fence (or the whole text); then the span
    from its first ``{`` to its last ``}`` (drops leading/trailing prose); then the same span read
    as a Python literal (``True``/``False``/``None``, single quotes).
    """
    fenced = _FENCE.search(text)
    s = (fenced.group(1) if fenced else text).strip()
    start, end = s.find("{"), s.rfind("}")
    candidates = [s] + ([s[start : end + 1]] if 0 <= start < end else [])
    for c in candidates:
        try:
            obj = json.loads(c)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    if 0 <= start < end:
        try:
            obj = ast.literal_eval(s[start : end + 1])
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
        if isinstance(obj, dict):
            return obj
    return None
