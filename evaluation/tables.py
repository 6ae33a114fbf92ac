"""Result tables with each paper's rows, columns and rounding, written as CSV and Markdown.

- BizGenEval: the official ``summary_by_domain`` / ``summary_by_dimension`` tables (4 decimals;
  the CSVs themselves are written byte-identical by ``rewards.scorers.bizgeneval_results``).
- GenExam (OpenGVLab/GenExam README leaderboard): rows Strict / Relaxed, columns Math Phy Chem
  Bio Geo Comp Eng Econ Music Hist Overall, percent with 1 decimal; Overall is the pooled mean
  (current ``cal_score.py``), "Overall (subject mean)" the older variant.
- IGenBench (README "Key Results"): Q-ACC and I-ACC with 2 decimals; a second table per question
  type and source.
- TechImage-Bench / ProImage-Bench (README leaderboard): Bio/Eng/Gen/Overall (Acc) and (Score),
  3 decimals.
- GenOlympiad: strict and relaxed (percent, 1 decimal), scored / zero / withheld counts.
- ServImage (paper Tables 2-3): revenue ($k, 2 decimals) and share (%, 1 decimal) per model and
  category, acceptance / success and creation vs editing, competition, cost savings.

A cell without data is empty.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from rewards.common.run_folder import write_text
from rewards.scorers.bizgeneval_results import summary_rows
from rewards.scorers.servimage_results import servimage_tables

Table = tuple[str, list[str], list[list[str]]]
"""(file stem, header, rows) of one table."""

GENEXAM_COLUMNS = (
    ("Math", ("Mathematics", "Math")),
    ("Phy", ("Physics",)),
    ("Chem", ("Chemistry",)),
    ("Bio", ("Biology",)),
    ("Geo", ("Geography",)),
    ("Comp", ("Computer_Science",)),
    ("Eng", ("Engineering",)),
    ("Econ", ("Economics",)),
    ("Music", ("Music",)),
    ("Hist", ("History",)),
)
"""GenExam leaderboard column -> the subject names it shows (the data's ``subject``)."""


def _f(value: Any, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def bizgeneval_tables(summary: dict[str, Any]) -> list[Table]:
    scores = {"subsets": summary["subsets"]}
    return [
        (f"summary_by_{by}", *(lambda rows: (rows[0], rows[1:]))(summary_rows(scores, by)))
        for by in ("domain", "dimension")
    ]


def genexam_tables(summary: dict[str, Any]) -> list[Table]:
    s = summary["scores"]
    header = ["Score", *(c for c, _ in GENEXAM_COLUMNS), "Overall", "Overall (subject mean)"]
    rows = []
    for key, label in (("strict", "Strict"), ("relaxed", "Relaxed")):
        cells = []
        for _, names in GENEXAM_COLUMNS:
            found = next((s["by_subject"][n] for n in names if n in s["by_subject"]), {})
            cells.append(_f(found.get(key), 1))
        rows.append(
            [label, *cells, _f((s["overall"] or {}).get(key), 1), _f((s["overall_subject_mean"] or {}).get(key), 1)]
        )
    return [("genexam_scores", header, rows)]


def igenbench_tables(summary: dict[str, Any]) -> list[Table]:
    main_rows, detail_rows = [], []
    for pair in summary["models"]:
        s = pair["scores"]
        main_rows.append([pair["gen_model"], pair["eval_model"], _f(s["q_acc"], 2), _f(s["i_acc"], 2)])
        for kind in ("source", "type"):
            for name, v in s[f"by_{kind}"].items():
                detail_rows.append(
                    [
                        pair["gen_model"],
                        pair["eval_model"],
                        kind,
                        name,
                        _f(v["q_acc"], 2),
                        f"{v['correct']}/{v['judged']}",
                    ]
                )
    return [
        ("igenbench_scores", ["Gen Model", "Eval Model", "Q-ACC", "I-ACC"], main_rows),
        (
            "igenbench_by_type_source",
            ["Gen Model", "Eval Model", "Split", "Name", "Q-ACC", "correct/judged"],
            detail_rows,
        ),
    ]


def techimage_tables(summary: dict[str, Any]) -> list[Table]:
    modes = summary["scores"]
    header, row = [], []
    for mode, label in (("bio", "Bio"), ("engineering", "Eng"), ("general", "Gen"), ("all", "Overall")):
        for key in ("Acc", "Score"):
            header.append(f"{label} ({key})")
            row.append(_f(modes[mode][key], 3) if mode in modes else "")
    return [("techimage_scores", header, [row])]


def genolympiad_tables(summary: dict[str, Any]) -> list[Table]:
    s = summary["scores"]
    c = s["counts"]
    return [
        (
            "genolympiad_scores",
            ["Strict", "Relaxed", "Scored", "Zero", "Withheld"],
            [[_f(s["strict"], 1), _f(s["relaxed"], 1), str(c["scored"]), str(c["zero"]), str(c["withheld"])]],
        )
    ]


TABLES = {
    "bizgeneval": bizgeneval_tables,
    "genexam": genexam_tables,
    "igenbench": igenbench_tables,
    "techimage": techimage_tables,
    "genolympiad": genolympiad_tables,
    "servimage": servimage_tables,
}
"""benchmark -> function(scores.json object) -> its tables."""


def markdown(header: list[str], rows: list[list[str]]) -> str:
    """A GitHub Markdown table (text columns left-aligned, the rest right-aligned)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def write_tables(benchmark: str, summary: dict[str, Any], out: str | Path, csv_too: bool = True) -> list[Path]:
    """Write ``<stem>.md`` (and ``<stem>.csv`` unless ``csv_too`` is False) for every table of ``benchmark``.

    Returns the paths written. BizGenEval's CSVs are written by its official writer, so pass
    ``csv_too=False`` there.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, header, rows in TABLES[benchmark](summary):
        write_text(out / f"{stem}.md", markdown(header, rows))  # atomic: a full disk leaves no torn table
        paths.append(out / f"{stem}.md")
        if csv_too:
            text = io.StringIO(newline="")
            csv.writer(text).writerows([header, *rows])
            write_text(out / f"{stem}.csv", text.getvalue())
            paths.append(out / f"{stem}.csv")
    return paths
