"""How a VLM judge's hard-mode replies (``per_image``, ``per_check``: ``rewards.judges.vlm``) become
verdicts. A reply that answers none of the checks asked (not JSON, no yes/no word, "banana ...",
or over :data:`MAX_REPLY_CHARS`) is a failed call (``call_failed``: the item fails and a rerun
asks again); a reply that answers only some withholds the rest with ``evidence`` :data:`UNANSWERED`
(counted in ``rubricloop-judge``'s summary, ``unanswered_in_reply``).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from rewards.models.openai_client import parse_json_object
from rewards.rubric import Check, Verdict, withheld

_MAX_REASON = 300
# Salvages per-question results when the reply is not valid JSON (e.g. unescaped quotes in a reason).
_RESULT_RE = re.compile(r"\"(\d+)\"\s*:\s*\{\s*\"result\"\s*:\s*\"?(true|false)\"?", re.I)
_ANSWER_RE = re.compile(r"\"answer\"\s*:\s*\"(yes|no)\"", re.I)
_BOOL_WORDS = {"true": True, "yes": True, "false": False, "no": False}
MAX_REPLY_CHARS = 1_000_000
"""A longer reply is not read (a failed call): 20 statements with reasons are ~10 k characters."""
UNANSWERED = {"unanswered_in_reply": True}
"""``Verdict.evidence`` of a check withheld because a reply that answered others left it out."""


def too_long(text: str) -> str | None:
    """The failed-call reason for a reply over :data:`MAX_REPLY_CHARS`, else None."""
    if len(text) <= MAX_REPLY_CHARS:
        return None
    return f"reply of {len(text)} characters is over the {MAX_REPLY_CHARS} a judge reply may hold: not read"


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
    boolean. A number missing from the reply, or with an unreadable result, is withheld
    (``evidence`` :data:`UNANSWERED`). A reply that answers none of them (not JSON, no readable
    entry, over :data:`MAX_REPLY_CHARS`) withholds every check with ``call_failed``.
    """
    if (reason := too_long(text)) is not None:
        return [withheld(c, judge, reason, call_failed=True) for c in checks]
    obj = parse_json_object(text)
    if obj is None:
        obj = {k: {"result": v.lower() == "true"} for k, v in _RESULT_RE.findall(text)}
    verdicts = []
    for n, check in enumerate(checks, start=1):
        entry = obj.get(str(n), obj.get(n))  # int keys come from the Python-literal fallback
        result = _as_bool(entry.get("result") if isinstance(entry, dict) else entry)
        if entry is None:
            verdicts.append(
                Verdict(check.id, "withheld", judge, f"no answer for statement {n} in the reply", UNANSWERED)
            )
        elif result is None:
            reason = f"unreadable result for statement {n}: {str(entry)[:80]!r}"
            verdicts.append(Verdict(check.id, "withheld", judge, reason, UNANSWERED))
        else:
            verdicts.append(Verdict(check.id, "yes" if result else "no", judge, _reason(entry)))
    if all(v.answer == "withheld" for v in verdicts):
        what = "not JSON" if not obj else "no readable result"
        reason = f"reply answers none of the {len(checks)} statements ({what}): {text[:80]!r}"
        return [withheld(c, judge, reason, call_failed=True) for c in checks]
    return verdicts


def parse_per_check(text: str, check: Check, judge: str) -> Verdict:
    """The verdict for one check from a ``{"answer": "yes"|"no", "reason": ...}`` reply
    (withheld with ``call_failed`` when no yes/no answer can be read: the reply answers nothing)."""
    if (reason := too_long(text)) is not None:
        return withheld(check, judge, reason, call_failed=True)
    obj = parse_json_object(text)
    if obj is not None:
        answer = _as_bool(obj.get("answer"))
    else:
        m = _ANSWER_RE.search(text)
        answer = None if m is None else m.group(1).lower() == "yes"
    if answer is None:
        return withheld(check, judge, f"no yes/no answer in the reply: {text[:80]!r}", call_failed=True)
    return Verdict(check.id, "yes" if answer else "no", judge, _reason(obj))
