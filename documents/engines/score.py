"""Scoring a judge on the engine-drawn set: build a project judge, judge a split's rows, tally
verdicts against the truth, or score a ``rubricloop-judge`` run's ``verdicts.jsonl``.

A record is one (page, check): ``judge, item, engine, kind, variant, check, form, truth_kind,
question, truth, answer, reason, decided_by`` (the verdict's judge: "ocr", "vlm:oracle",
"router"). :func:`tally` counts true questions (truth "yes": answered yes / no = false no /
withheld) and false questions (truth "no": no / yes = false yes / withheld).

Use from a test::

    docs = build_split("report", "matplotlib", folder)
    rows = write_rows(docs, folder)
    with OracleServer(docs) as server:
        counts = tally(judge_split(make_judge("ocr_vlm", server.base_url), folder, "ocr_vlm+oracle"))
    assert counts["false_yes"] == 0
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from omegaconf import OmegaConf
from PIL import Image

from rewards.common.components import build_component
from rewards.importers import load_items

CONF = Path(__file__).resolve().parents[2] / "conf"
"""The project's Hydra config folder (``conf/judge/*.yaml``)."""


def make_judge(name: str, base_url: str | None = None):
    """The judge of ``conf/judge/<name>.yaml`` (its defaults); with ``base_url`` (an
    :class:`~.oracle.OracleServer`'s) its VLM judges (ocr_vlm, vlm) send there, model "oracle", no API key.

    Raises:
        ValueError: one line naming the judge when it cannot be built (``build_component``).
    """
    cfg = OmegaConf.create({"judge": OmegaConf.load(CONF / "judge" / f"{name}.yaml")})
    if base_url is not None:
        vlms = [j for j in cfg.judge.judges if j._target_ == "rewards.judges.vlm.VLMJudge"]
        if not vlms:
            raise ValueError(f"judge={name}: has no VLM judge to point at {base_url}")
        for j in vlms:
            j.base_url, j.model, j.api_key_env = base_url, "oracle", None
    return build_component(cfg, "judge")


def tally(records: list[dict]) -> dict[str, int]:
    """Counts over verdict records (``truth``, ``answer``): true_yes, false_no, true_withheld (truth
    yes) and true_no, false_yes, false_withheld (truth no), with n_true, n_false."""
    c = Counter((r["truth"], r["answer"]) for r in records)
    return {
        "n_true": sum(v for (t, _), v in c.items() if t == "yes"),
        "true_yes": c[("yes", "yes")], "false_no": c[("yes", "no")], "true_withheld": c[("yes", "withheld")],
        "n_false": sum(v for (t, _), v in c.items() if t == "no"),
        "true_no": c[("no", "no")], "false_yes": c[("no", "yes")], "false_withheld": c[("no", "withheld")],
    }  # fmt: skip


def judge_split(judge, folder: Path, judge_name: str) -> list[dict]:
    """Judge every row of ``folder/rows.jsonl`` (:func:`~.split.write_rows`) with ``judge`` (a project
    judge: ``judge(images, prompts, checks)``), in one call; one record per (row, check) with its truth
    (module docstring), ``judge`` = ``judge_name``. Prints the seconds taken to stderr.

    Raises:
        ValueError: a row the importers refuse (their one-line error).
    """
    items, errors = load_items(folder / "rows.jsonl")
    if errors:
        raise ValueError(f"{folder / 'rows.jsonl'}: {errors[0]}")
    images = [Image.open(it.image).convert("RGB") for it in items]
    t0 = time.perf_counter()
    verdicts = judge.judge(images, [it.prompt for it in items], [it.rubric.checks for it in items])
    seconds = time.perf_counter() - t0
    out = []
    for it, vs in zip(items, verdicts):
        for check, v in zip(it.rubric.checks, vs):
            out.append(
                {
                    "judge": judge_name, "item": it.id, "engine": it.meta["engine"], "kind": it.meta["kind"],
                    "variant": it.meta["variant"], "check": check.id, "form": check.tag,
                    "truth_kind": it.meta["truth_kinds"][check.id], "question": check.question,
                    "truth": it.meta["answers"][check.id], "answer": v.answer, "reason": v.reason,
                    "decided_by": v.judge,
                }
            )  # fmt: skip
    print(f"  {judge_name}: {len(items)} pages judged in {seconds:.0f} s", file=sys.stderr)
    return out


def score_verdicts(verdicts: Path, rows: Path, judge_name: str = "verdicts") -> list[dict]:
    """Records (as :func:`judge_split`'s) of a ``rubricloop-judge`` run's ``verdicts.jsonl`` over the
    rows it judged (``rows.jsonl`` of a split: their ``meta`` holds the truth).

    Raises:
        ValueError: one line naming the file and line, when a verdict names an item or check the rows lack.
    """
    meta = {}
    for line in rows.read_text().splitlines():
        row = json.loads(line)
        meta[row["id"]] = (row["meta"], {c["id"]: c for crit in row["criteria"] for c in crit["checks"]})
    out = []
    for n, line in enumerate(verdicts.read_text().splitlines(), start=1):
        v = json.loads(line)
        if v["item_id"] not in meta or v["check"] not in meta[v["item_id"]][1]:
            raise ValueError(f"{verdicts}:{n}: item {v['item_id']!r} check {v['check']!r} is not in {rows}")
        m, checks = meta[v["item_id"]]
        out.append(
            {
                "judge": judge_name, "item": v["item_id"], "engine": m["engine"], "kind": m["kind"],
                "variant": m["variant"], "check": v["check"], "form": checks[v["check"]]["tag"],
                "truth_kind": m["truth_kinds"][v["check"]], "question": v["question"],
                "truth": m["answers"][v["check"]], "answer": v["answer"], "reason": v["reason"],
                "decided_by": v.get("judge", ""),
            }
        )  # fmt: skip
    return out
