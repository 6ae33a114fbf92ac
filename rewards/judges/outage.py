"""Which judges were down for an item: a judge whose calls failed on at least a given fraction of
the checks sent to it gave no answers, and the item must fail (and be redone by a rerun) rather
than be scored on withheld verdicts::

    down = judges_down(verdicts, threshold=1.0)
    if down:
        error = f"item {item.id}: " + "; ".join(down)

Only verdicts that made a call count: not the router's or the loop's own (no judge could answer),
not a verdict served from the verdict cache (``evidence["cached"]``).
"""

from __future__ import annotations

from typing import Any, Iterable

from rewards.rubric import Verdict


def call_error(verdict: Verdict) -> str | None:
    """The judge's error when ``verdict`` is withheld because the judge's call failed
    (``verdict.call_failed``: HTTP or connection error after retries, a model's forward pass,
    the OCR engine), else None.

    The router joins the reasons of every judge it tried as ``"<judge>: <reason>; ..."``, the
    verdict's own judge last, so that judge's part is what follows its name.
    """
    if verdict.answer != "withheld" or not verdict.call_failed:
        return None
    return verdict.reason.rsplit(f"{verdict.judge}: ", 1)[-1]


def count_calls(verdicts: Iterable[Verdict]) -> dict[str, dict[str, Any]]:
    """Per judge name: {"checks": verdicts it gave by a call, "failed": those withheld because
    the call failed, "last_error": the last such error or None}."""
    calls: dict[str, dict[str, Any]] = {}
    for v in verdicts:
        if v.judge in ("router", "loop") or (v.evidence or {}).get("cached"):
            continue
        c = calls.setdefault(v.judge, {"checks": 0, "failed": 0, "last_error": None})
        c["checks"] += 1
        if (error := call_error(v)) is not None:
            c["failed"] += 1
            c["last_error"] = error
    return calls


def judges_down(verdicts: Iterable[Verdict], threshold: float = 1.0) -> list[str]:
    """One line per judge whose failed calls are at least ``threshold`` (in (0, 1]) of the checks
    sent to it among ``verdicts``: "judge <name> failed on <f> of <n> checks sent to it (<error>)".
    Empty when every judge answered; 1.0 = only a judge that answered nothing is down."""
    return [
        f"judge {name} failed on {c['failed']} of {c['checks']} checks sent to it ({c['last_error']})"
        for name, c in count_calls(verdicts).items()
        if c["failed"] and c["failed"] >= threshold * c["checks"]
    ]
