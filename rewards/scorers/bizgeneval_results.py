"""BizGenEval per-image result files and summary tables, in the official formats.

Formats of microsoft/BizGenEval (commit 1c15075):

- Result file (``evaluation/image_evaluation.py`` writes it, ``evaluation/summarize.py`` reads
  it): ``<result_dir>/<name>.json`` holding ``{"meta_info": {"1": {"result": true,
  "raw_description": <question>, "reason": <str>}, ...}, "prompt", "accuracy", "is_correct",
  "n_questions"}``. ``<name>`` comes from :func:`result_filename`.
- Summary tables ``summary_by_domain.csv`` / ``summary_by_dimension.csv``: header ``Split``,
  one column per domain (dimension) in the official order with title-cased names, then
  ``Average``; rows ``easy`` and ``hard`` (only when that subset scored any item) and ``all``;
  4-decimal values, empty cells for groups without items; CRLF line ends (``csv`` module).

Reading is as lenient as the official summarize, and no more: a missing file, a file that is
not JSON, and a file whose ``meta_info`` is empty leave the item unscored. Where the official
script would crash (the file is JSON but not an object, ``meta_info`` is not an object) we
leave the item unscored too and report the file as malformed.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any, Mapping

from rewards.common.run_folder import write_json, write_text
from rewards.importers import BIZGENEVAL_NAME_KEYS
from rewards.rubric import Item, Verdict
from rewards.scorers.bizgeneval import DIMENSIONS, DOMAINS

JUDGE = "bizgeneval-result"
"""Judge name of verdicts read from a result file that does not name its judge."""

MISSING_FROM_OUTPUT = "missing_from_output"
"""The reason the official judge writes when the VLM gave no answer for a question."""


def image_name(meta: Mapping[str, Any], item_id: str) -> str:
    """The official image file name of a BizGenEval row (``_infer_image_name``).

    The basename of the first non-blank string among ``BIZGENEVAL_NAME_KEYS`` in ``meta``,
    else ``f"{domain}_{dimension}_{id}.png"`` (domain and dimension stripped, "" when absent).
    """
    for key in BIZGENEVAL_NAME_KEYS:
        ref = meta.get(key)
        if isinstance(ref, str) and ref.strip():
            return os.path.basename(ref.strip())
    domain = str(meta.get("domain", "")).strip()
    dimension = str(meta.get("dimension", "")).strip()
    return f"{domain}_{dimension}_{item_id}.png"


def result_filename(item: Item) -> str:
    """The result file name the official summarize looks for: the image name, last suffix -> ``.json``.

    (The official judge writes ``name.split('.')[0] + '.json'`` instead; the two differ only
    for image names with more than one dot, and we follow the reader.)
    """
    return image_name(item.meta, item.id).rsplit(".", 1)[0] + ".json"


def plain_file_name(name: str) -> bool:
    """True when ``name`` names a file inside its folder: no path separator, not "", "." or ".."."""
    return name not in ("", ".", "..") and "/" not in name and os.sep not in name and "\0" not in name


def result_name_problems(items: list[Item], result_dir: str | Path) -> dict[str, str]:
    """Items whose result file cannot be told apart or kept inside ``result_dir``.

    The official name comes from the row (:func:`image_name`): an image basename, else
    ``domain_dimension_id``. A name that is not a plain file name (a ``domain`` of
    ``"../../tmp/x"``) would put the file outside the folder, and two rows naming the same
    file (``a/slide.png``, ``b/slide.png``) would share one result: such an item is refused
    (the first row to use a name keeps it), the other items keep the official names.

    Returns:
        item id -> one error line, ``"<result_dir>/<name> (item <id>): <why>; refused"``.
    """
    owner: dict[str, str] = {}
    problems = {}
    for item in items:
        name = image_name(item.meta, item.id)
        result = name.rsplit(".", 1)[0] + ".json"
        where = f"{Path(result_dir) / result} (item {item.id})"
        if not plain_file_name(name) or not plain_file_name(result):
            problems[item.id] = (
                f"{where}: the BizGenEval image name {name!r} (from the row's image, domain, dimension and id "
                "fields) is not a plain file name; refused, so nothing is read or written outside the folder"
            )
        elif result in owner:
            problems[item.id] = (
                f"{where}: the file is item {owner[result]}'s too (both rows' images are named {result[:-5]!r} "
                "but for folder and extension; BizGenEval names result files by that); refused"
            )
        else:
            owner[result] = item.id
    return problems


def verdicts_to_result(item: Item, verdicts: Mapping[str, Verdict]) -> dict[str, Any]:
    """The official result-file object for one image.

    "yes" -> ``"result": true``; "no", "withheld" and a missing verdict -> ``false`` (so the
    official summarize counts them as errors). Each entry keeps the verdict's ``reason`` and
    adds ``answer`` and ``judge`` (extra keys, ignored by the official tools) so
    :func:`result_to_verdicts` restores withheld verdicts; a missing verdict gets the
    official ``"missing_from_output"`` reason.
    """
    meta_info = {}
    for check in item.rubric.checks:
        v = verdicts.get(check.id)
        if v is None:
            meta_info[check.id] = {"result": False, "raw_description": check.question, "reason": MISSING_FROM_OUTPUT}
            continue
        meta_info[check.id] = {
            "result": v.answer == "yes",
            "raw_description": check.question,
            "reason": v.reason,
            "answer": v.answer,
            "judge": v.judge,
        }
    n = len(item.rubric.checks)
    true_count = sum(1 for e in meta_info.values() if e["result"] is True)
    accuracy = true_count / n if n else 0.0
    return {
        "meta_info": meta_info,
        "prompt": item.prompt,
        "accuracy": accuracy,
        "is_correct": accuracy == 1,
        "n_questions": n,
    }


def write_result_file(result_dir: str | Path, item: Item, verdicts: Mapping[str, Verdict]) -> Path:
    """Write one image's result file into ``result_dir`` (created if needed), atomically (a temporary
    name, then renamed: a killed run leaves no half file); returns its path."""
    path = Path(result_dir) / result_filename(item)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, verdicts_to_result(item, verdicts))
    return path


def result_to_verdicts(meta_info: Mapping[str, Any]) -> dict[str, Verdict]:
    """Verdicts from a result file's ``meta_info``, keyed as in the file.

    ``"result": true`` -> "yes". ``false`` -> "no", unless the entry says it was withheld
    (``"answer": "withheld"``, written by us) or unanswered (reason ``"missing_from_output"``,
    written by the official judge) -> "withheld". Any other result (``"true"``, 1, null, absent,
    an entry that is not an object) -> "withheld" with a reason naming the value: the official
    scorer counts all of these as errors, and so does every scorer here.
    """
    verdicts = {}
    for qid, entry in meta_info.items():
        if not isinstance(entry, dict):
            verdicts[qid] = Verdict(qid, "withheld", JUDGE, f"entry is not an object: {entry!r}")
            continue
        judge = entry.get("judge") if isinstance(entry.get("judge"), str) else JUDGE
        reason = entry.get("reason") if isinstance(entry.get("reason"), str) else ""
        result = entry.get("result", None)
        if result is True:
            answer = "yes"
        elif result is False:
            answer = "withheld" if entry.get("answer") == "withheld" or reason == MISSING_FROM_OUTPUT else "no"
        else:
            answer, reason = "withheld", f"result is not a boolean: {result!r}"
        verdicts[qid] = Verdict(qid, answer, judge, reason)
    return verdicts


def read_result_file(result_dir: str | Path, item: Item) -> tuple[str, dict[str, Verdict] | None]:
    """Read one item's result file back as verdicts.

    Returns:
        ``(status, verdicts)``: status "ok" with the verdicts, or one of "missing" (no file),
        "unreadable" (not JSON / not UTF-8), "empty" (``meta_info`` absent or empty),
        "malformed" (JSON, but not an object or ``meta_info`` not an object) with None.
        Only "ok" items are scored, as in the official summarize.
    """
    path = Path(result_dir) / result_filename(item)
    if not os.path.isfile(path):  # False, as the official os.path.exists, also for a name too long to stat
        return "missing", None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return "unreadable", None
    if not isinstance(data, dict):
        return "malformed", None
    meta_info = data.get("meta_info") or {}
    if not isinstance(meta_info, dict):
        return "malformed", None
    if not meta_info:
        return "empty", None
    return "ok", result_to_verdicts(meta_info)


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def summary_rows(scores: dict[str, Any], by: str) -> list[list[str]]:
    """The official summary table (header first) from :func:`score_bizgeneval` output.

    Args:
        by: "domain" or "dimension".

    Raises:
        ValueError: for any other ``by``.
    """
    if by not in ("domain", "dimension"):
        raise ValueError(f"summary table must be by 'domain' or 'dimension', got {by!r}")
    order = DOMAINS if by == "domain" else DIMENSIONS
    rows = [["Split", *(g.replace("_", " ").title() for g in order), "Average"]]
    for subset in ("easy", "hard", "all"):
        s = scores["subsets"][subset]
        if s["count"] == 0 and subset != "all":
            continue
        groups = s[f"by_{by}"]
        values = [_fmt(groups[g]["error_score"]) if g in groups else "" for g in order]
        rows.append([subset, *values, _fmt(s[f"average_by_{by}"])])
    return rows


def write_summary_csvs(scores: dict[str, Any], out_dir: str | Path) -> list[Path]:
    """Write ``summary_by_domain.csv`` and ``summary_by_dimension.csv`` into ``out_dir``, each
    atomically (a full disk leaves the old file, never a torn one).

    Raises:
        OSError: a file could not be written.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for by in ("domain", "dimension"):
        path = out_dir / f"summary_by_{by}.csv"
        text = io.StringIO(newline="")
        csv.writer(text).writerows(summary_rows(scores, by))  # the official bytes: \r\n line ends
        write_text(path, text.getvalue())
        paths.append(path)
    return paths
