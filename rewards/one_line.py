"""Error messages that stay one readable line whatever the user's data puts in them."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0/C1 controls (CR, tab, ESC...), line/paragraph separators and bidi overrides."""


def one_line(text: str, limit: int = 600) -> str:
    """``text`` with every control character written as its escape (CR -> ``\\r``, ESC ->
    ``\\x1b``, U+2028 -> ``\\u2028``), so a terminal shows it on one line as it is, and with
    its middle cut when it is longer than ``limit`` characters (a 5,000-character path)."""
    text = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    if len(text) > limit:
        cut = len(text) - limit + 40
        text = f"{text[: limit - 200]} [... {cut} characters ...] {text[-160:]}"
    return text
