"""API keys: read once from the environment, checked, and redacted from every text that leaves.

A key is read from the variable its component names (``api_key_env``) by :func:`read_api_key`:
surrounding whitespace is stripped (a key file saved with CRLF ends in ``"\\r\\n"``), and a key
holding whitespace or a control character inside it is refused in one line that names the
variable, never the value. Every key read is registered; :func:`redact` replaces each registered
key in a text by ``<redacted>``, also in its JSON-escaped and ``repr`` forms, so a server that
echoes the ``Authorization`` header into an error or a reply cannot carry it into a verdict's
reason, an error line, a log file or W&B. :class:`RedactingFilter` does the same to log records
(``rewards.common.run_folder.run_files`` puts it on the run's log handlers).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import unicodedata
from urllib.parse import quote, quote_plus

REDACTED = "<redacted>"
MIN_LENGTH = 6
"""Values shorter than this (stripped) are not redacted: placeholders such as ``EMPTY`` (what
vLLM's docs put in ``OPENAI_API_KEY``) or ``x`` are no secret, and replacing them would mangle
ordinary text."""

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""An environment variable's name, as ``api_key_env`` must give it (a key such as "sk-proj-..." is none)."""

_secrets: set[str] = set()
_lock = threading.Lock()


def register(secret: str) -> None:
    """Redact ``secret`` (and its JSON-escaped, ``repr`` and URL-encoded forms) from now on; a value shorter
    than :data:`MIN_LENGTH` once stripped is ignored."""
    if len(secret.strip()) < MIN_LENGTH:
        return
    # as echoed by a server: verbatim, JSON-escaped, repr'd, or URL-encoded (a query string, a redirect)
    forms = {secret, json.dumps(secret)[1:-1], repr(secret)[1:-1], quote(secret, safe=""), quote_plus(secret)}
    with _lock:
        _secrets.update(f for f in forms if f)


def redact(text: str) -> str:
    """``text`` with every registered secret replaced by ``<redacted>`` (longest first, so a key
    that contains another is replaced whole)."""
    if not _secrets or not text:
        return text
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for s in secrets:
        text = text.replace(s, REDACTED)
    return text


def read_api_key(env: str | None) -> str | None:
    """The API key held by the environment variable ``env``, stripped of surrounding whitespace
    and registered for :func:`redact`.

    Args:
        env: the variable's name (a component's ``api_key_env``), or None for no key.

    Returns:
        The key, or None when ``env`` is None, unset, or only whitespace.

    Raises:
        ValueError: one line naming ``api_key_env=<env>`` (never the value) when the key holds
            whitespace or a control character (Unicode category C) inside it; one line without
            ``env`` when ``env`` is no variable name (``api_key_env=$OPENAI_API_KEY``: the key
            itself, which would otherwise be saved in ``.hydra/`` and ``run.json``).
    """
    if not env:
        return None
    if not _ENV_NAME.fullmatch(env):  # the key itself given for the variable's name: never echo it
        register(env)
        raise ValueError(
            "api_key_env must name an environment variable (letters, digits and _, e.g. OPENAI_API_KEY), "
            "not hold the key; its value is not shown"
        )
    raw = os.environ.get(env)
    if raw is None:
        return None
    register(raw)
    key = raw.strip()
    if not key:
        return None
    register(key)
    if any(c.isspace() or unicodedata.category(c).startswith("C") for c in key):
        raise ValueError(
            f"api_key_env={env}: the key in that variable holds whitespace or a control character "
            "inside it; fix the variable (its value is not shown)"
        )
    return key


class RedactingFilter(logging.Filter):
    """A handler filter that rewrites each record's message (and traceback text) through
    :func:`redact`. Put it on handlers, not loggers: a logger's filters miss records that
    propagate from its children."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _secrets:
            return True
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
