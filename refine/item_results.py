"""What the refine loop records of an item and of a run: the item's result (``result.json``), its
folder name, its text-check tallies, and the run's ``summary.json``.

The loop itself (``refine.loop``) writes these; nothing here judges or edits.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rewards.rubric import Item, Verdict
from rewards.scorers.item_scores import ITEM_SCORES


@dataclass
class ItemResult:
    """What the loop records for one item.

    Attributes:
        id: item id.
        scores: per iteration, every score of ``rewards.scorers.item_scores.score_item`` (floats in [0, 1]).
        best_iteration: index into ``scores`` of the kept iteration (by ``keep_best_by``).
        best_image: path of ``best.png``, relative to ``out``.
        stop_reason: why the loop ended ("iterations", "all checks pass", "no failed check to edit",
            "stopped after iteration k: the edit changed nothing (...)", see :func:`unchanged_reason`).
        withheld: reason -> number of withheld verdicts over all iterations (a dead judge shows here).
        judges: judge name -> {"checks": verdicts it gave over all iterations (not from the verdict
            cache), "failed": those withheld because its call failed (see :func:`call_error`),
            "last_error": str | None}.
        edits: what a structured editor did to the expected strings: distinct strings "added",
            "rewritten" and "left_alone" (see ``refine.editors.edit_log.tally_edits``).
        text: per iteration, the item's text checks (those with text expectations: the strings the
            text editor fixes) as counts, {"checks", "decided", "passed", "refuted", "read"} (:func:`text_tally`).
        damage: for a structured editor, the pixels of ``best.png`` changed from the start image
            that are glyphs of neither the words its kept actions replaced nor the strings they
            wrote: {"damaged_px": int, "damage_boxes": [[x0, y0, x1, y1], ...]}
            (``refine.edit_audit.damaged``); {} for other editors (and an image resized).
        error: one-line error, or None.
    """

    id: str
    scores: list[dict[str, float]] = field(default_factory=list)
    best_iteration: int | None = None
    best_image: str | None = None
    stop_reason: str | None = None
    withheld: dict[str, int] = field(default_factory=dict)
    judges: dict[str, dict[str, Any]] = field(default_factory=dict)
    edits: dict[str, Any] = field(default_factory=dict)
    text: list[dict[str, int]] = field(default_factory=list)
    damage: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


RUN_FILES = {"summary.json", "summary.json.tmp", "run.json", "run.json.tmp", "refine.log", "wandb"}
"""Names the run itself uses in ``out``; an item folder never takes one of them."""


def _id_hash(item_id: str) -> str:
    """The sha1 of an id's UTF-8 bytes, in hex (a lone surrogate, which JSON allows, too)."""
    return hashlib.sha1(item_id.encode("utf-8", "surrogatepass")).hexdigest()


def item_dir_name(item_id: str) -> str:
    """A file-system-safe folder name for an item id: characters outside ``[A-Za-z0-9._-]``
    become ``_``; a name starting with a dot or equal to one of ``RUN_FILES`` gets a ``_``
    prefix (so no id can name the output folder, its parent, or the run's own files); a name
    over 100 characters is cut to 91 plus a hash of the id."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", item_id) or "_"
    if len(name) > 100:
        name = f"{name[:91]}-{_id_hash(item_id)[:8]}"
    return "_" + name if name.startswith(".") or name in RUN_FILES else name


def item_dir_names(ids: Sequence[str]) -> list[str]:
    """``item_dir_name`` of each (distinct) id; ids whose names would share a folder ("a b",
    "a_b"; "A", "a" on a case-blind disk) get ``+`` and a hash of the id appended, so every item
    has its own folder and reruns with the same ids find the same ones, in any order.

    ``item_dir_name`` never makes a ``+``, so a hashed name can only clash with another hashed
    name of the same base and the same 8 hash digits; those take the whole sha1 instead."""
    names = [item_dir_name(i) for i in ids]
    for digits in (8, 40):
        counts: dict[str, int] = {}
        for n in names:
            counts[n.casefold()] = counts.get(n.casefold(), 0) + 1
        names = [
            f"{item_dir_name(i)}+{_id_hash(i)[:digits]}" if counts[n.casefold()] > 1 else n for n, i in zip(names, ids)
        ]
    return names


def read_result(path: Path, fingerprint: str | None = None) -> "ItemResult | None":
    """The finished item's result, or None (redo the item) when ``path`` is missing or unreadable,
    or, given the item's ``fingerprint`` (:meth:`refine.loop.RefineLoop.fingerprint`), when it records another
    one (made from other data) or none (written before fingerprints)."""
    if not path.is_file():  # missing, or a FIFO that would block the read forever
        return None
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
        made_from = recorded.pop("fingerprint", None)
        result = ItemResult(**recorded)
    except (OSError, ValueError, TypeError, AttributeError):  # AttributeError: JSON that is not an object
        return None
    return None if fingerprint is not None and made_from != fingerprint else result


def refuted(item: Item, verdicts: dict[str, Verdict]) -> float:
    """Fraction of the item's checks answered "no" (withheld and missing are not refutations);
    recorded beside the item scores and used to break ties of ``keep_best_by``."""
    checks = item.rubric.checks
    return sum(c.id in verdicts and verdicts[c.id].answer == "no" for c in checks) / len(checks) if checks else 0.0


def text_tally(item: Item, verdicts: dict[str, Verdict]) -> dict[str, int]:
    """Counts over the item's text checks (checks with ``expects``: quoted strings, what the OCR
    judge reads and the text editor fixes): ``checks``; ``decided`` (answered yes or no), ``passed``
    (yes) and ``refuted`` (no); and ``read``: checks whose every quoted string the judge read, those
    answered yes and those withheld only for parts a VLM must decide (``evidence["expects"]`` all
    ``found``). Withheld and missing verdicts are neither passed nor refuted."""
    passed = refuted = read = 0
    checks = [c for c in item.rubric.checks if c.expects]
    for c in checks:
        v = verdicts.get(c.id)
        if v is None:
            continue
        passed += v.answer == "yes"
        refuted += v.answer == "no"
        records = (v.evidence or {}).get("expects") or []
        read += v.answer == "yes" or (v.answer == "withheld" and bool(records) and all(r.get("found") for r in records))
    return {"checks": len(checks), "decided": passed + refuted, "passed": passed, "refuted": refuted, "read": read}


def text_summary(results: Sequence[ItemResult]) -> dict[str, Any]:
    """The text tallies (:func:`text_tally`) summed over the finished ``results`` at their start
    image (``start``) and at their kept iteration (``best``): {"checks": int, "items": int,
    "start": {"decided", "passed", "refuted", "read"}, "best": {...}}. Items recorded before tallies
    existed (a resumed older run) are left out, and ``items`` says how many were counted."""
    counted = [r for r in results if r.text and r.best_iteration is not None]
    keys = ("decided", "passed", "refuted", "read")
    return {
        "checks": sum(r.text[0]["checks"] for r in counted),
        "items": len(counted),
        "start": {k: sum(r.text[0][k] for r in counted) for k in keys},
        "best": {k: sum(r.text[r.best_iteration][k] for r in counted) for k in keys},
    }


def unchanged_reason(iteration: int, actions: list[dict] | None) -> str:
    """The stop reason of an edit (iteration ``iteration``) that changed no pixel, with what a
    structured editor's ``actions`` did: "stopped after iteration 2: the edit changed nothing
    (all 3 actions skipped)"; ``actions`` None (an editor that keeps no log): no parenthesis."""
    head = f"stopped after iteration {iteration}: the edit changed nothing"
    if actions is None:
        return head
    if not actions:
        return f"{head} (no action)"
    kinds = {"skipped": 0, "failed": 0, "written": 0}
    for a in actions:
        verb = a["action"]
        kinds["skipped" if verb.startswith("skip") else "failed" if verb.startswith("fail") else "written"] += 1
    n = len(actions)
    for kind, count in kinds.items():
        if count == n:
            what = f"all {n} actions {kind}" if n > 1 else f"its one action {kind}"
            break
    else:
        what = f"{n} actions: " + ", ".join(f"{c} {k}" for k, c in kinds.items() if c)
    if kinds["written"]:
        what += " without changing a pixel"
    return f"{head} ({what})"


def early_stop(result: ItemResult, iterations: int) -> str:
    """Why ``result``'s loop ended before ``iterations`` edits, with the edits it made: "after 1 of 3
    edits: all checks pass" (the image of each edit judged is ``iter_<k>.png``; an edit that changed
    nothing is counted but leaves no image)."""
    reason = result.stop_reason or ""
    made = len(result.scores) - 1
    m = re.match(r"stopped after iteration (\d+): (.*)", reason)
    if m:
        made, reason = int(m.group(1)), m.group(2)
    return f"after {made} of {iterations} edits: {reason}"


def run_summary(
    results: Sequence[ItemResult],
    load_errors: Sequence[str],
    keep_best_by: str,
    iterations: int,
    complete: bool = True,
) -> dict[str, Any]:
    """The run summary: per item results, means of the initial and best scores over the
    items that finished, every error (parse errors first), and per judge its verdicts,
    failed calls and the items it failed (``judges``), the pixels damaged over the items a
    structured editor edited (``damaged_px``: the sum of their ``damage``, and
    ``items_damaged``: how many have any) and the items whose loop ended on an edit that
    changed nothing (``stopped_unchanged``: item id -> stop reason), and every item that stopped
    before ``iterations`` edits, with why (``stopped_early``: item id -> ``early_stop``). ``complete`` is False
    in the copy written after each item (an interrupted run leaves that one). ``keep_best_by`` and
    ``iterations`` are the loop's settings, recorded as they are."""
    judges: dict[str, dict[str, Any]] = {}
    for r in results:
        for name, c in r.judges.items():
            j = judges.setdefault(name, {"checks": 0, "failed": 0, "items_failed": 0, "last_error": None})
            j["checks"] += c["checks"]
            j["failed"] += c["failed"]
            j["last_error"] = c["last_error"] or j["last_error"]
            j["items_failed"] += bool(r.error and f"judge {name} failed on" in r.error)
    ok = [r for r in results if r.error is None]
    withheld: dict[str, int] = {}
    for r in ok:
        for reason, n in r.withheld.items():
            withheld[reason] = withheld.get(reason, 0) + n
    names = list(ok[0].scores[0]) if ok else list(ITEM_SCORES) + ["coverage"]

    def mean(key: str, pick: Callable[[ItemResult], dict[str, float]]) -> float | None:
        return sum(pick(r)[key] for r in ok) / len(ok) if ok else None

    return {
        "complete": complete,
        "keep_best_by": keep_best_by,
        "iterations": iterations,
        "n_items": len(results) + len(load_errors),
        "n_finished": len(ok),
        "n_failed": len(results) - len(ok) + len(load_errors),
        "judges": judges,
        "mean_initial": {k: mean(k, lambda r: r.scores[0]) for k in names},
        "mean_best": {k: mean(k, lambda r: r.scores[r.best_iteration]) for k in names},
        "errors": list(load_errors) + [r.error for r in results if r.error],
        "withheld": dict(sorted(withheld.items(), key=lambda kv: -kv[1])),
        "text_checks": text_summary(ok),
        "damaged_px": sum(r.damage.get("damaged_px", 0) for r in ok),
        "items_damaged": sum(bool(r.damage.get("damaged_px")) for r in ok),
        "stopped_unchanged": {
            r.id: r.stop_reason for r in ok if (r.stop_reason or "").startswith("stopped after iteration")
        },
        "stopped_early": {r.id: early_stop(r, iterations) for r in ok if r.stop_reason not in (None, "iterations")},
        "items": [r.__dict__ for r in results],
    }
