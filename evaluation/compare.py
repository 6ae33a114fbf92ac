"""``rubricloop-eval compare <run_a> <run_b> ...``: per-domain and per-dimension score deltas with
paired bootstrap confidence intervals over items.

Runs are ``rubricloop-eval`` output folders (their ``scores.json``) or ``rubricloop-refine``
output folders (``summary.json``: ``iter=initial`` and ``iter=best`` compare iteration 0 with
the best iteration of the same run: ``compare runs/refine:initial runs/refine:best``).

For each later run B against the first run A, every metric and every group (all items, and each
value of each grouping: domain, dimension, subject...), over the items scored in both runs:

    delta = mean_i (B_i - A_i)
    CI    = the (alpha/2, 1 - alpha/2) percentiles of the delta over ``n_boot`` resamples of
            those items with replacement (the same resampled items for A and B: paired;
            Efron & Tibshirani 1993, ch. 13 percentile interval), seeded

A row whose interval contains 0 is flagged "~" (no clear difference). The per-item deltas are
means over items, as the papers' per-group means are; the papers' "Average" rows (mean of group
means) are not bootstrapped.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np


def load_per_item(run: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """``(label, {item id: {"groups": {...}, "metrics": {...}}})`` of one run.

    ``run`` is an eval folder, or a refine folder with ``:initial`` / ``:best`` (default best).

    Raises:
        ValueError: one line, when the folder has neither file or the file is not readable.
    """
    path, _, which = run.partition(":")
    folder = Path(path)
    try:
        if (folder / "scores.json").is_file():
            data = json.loads((folder / "scores.json").read_text(encoding="utf-8"))
            return run, {r["id"]: r for r in data.get("per_item", [])}
        if (folder / "summary.json").is_file():
            data = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
            which = which or "best"
            if which not in ("initial", "best"):
                raise ValueError(f"{run}: a refine run is compared as <folder>:initial or <folder>:best")
            out = {}
            for item in data.get("items", []):
                if item.get("error") or not item.get("scores"):
                    continue
                k = 0 if which == "initial" else item["best_iteration"]
                out[item["id"]] = {"groups": {}, "metrics": dict(item["scores"][k])}
            return f"{path}:{which}", out
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{run}: cannot read its scores ({e})") from None
    raise ValueError(f"{run}: no scores.json (rubricloop-eval) or summary.json (rubricloop-refine) in {folder}")


def paired_bootstrap(
    a: np.ndarray, b: np.ndarray, n_boot: int, alpha: float, rng: np.random.Generator
) -> tuple[float, float, float]:
    """(mean(b - a), CI low, CI high) by the paired percentile bootstrap.

    Args:
        a, b: float arrays of shape (n_items,), the same items in the same order.
    """
    d = b - a
    idx = rng.integers(0, len(d), size=(n_boot, len(d)))
    means = d[idx].mean(axis=1)
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(d.mean()), float(lo), float(hi)


def compare(
    base: dict[str, dict], other: dict[str, dict], n_boot: int = 2000, alpha: float = 0.05, seed: int = 0
) -> list[dict[str, Any]]:
    """Delta rows of ``other`` against ``base`` (see the module docstring).

    Returns:
        rows ``{"group", "metric", "n", "a", "b", "delta", "ci_low", "ci_high", "contains_zero"}``,
        group "all" first, then each grouping's values in sorted order. Items missing in
        either run, or without that metric (None), are left out of that row.
    """
    common = [i for i in base if i in other]
    groups: dict[str, list[str]] = {"all": common}
    for i in common:
        for key, value in base[i].get("groups", {}).items():
            groups.setdefault(f"{key}={value}", []).append(i)
    metrics = sorted({m for i in common for m in base[i]["metrics"]})
    rows = []
    for name in ["all", *sorted(g for g in groups if g != "all")]:
        for metric in metrics:
            ids = [
                i
                for i in groups[name]
                if base[i]["metrics"].get(metric) is not None and other[i]["metrics"].get(metric) is not None
            ]
            if not ids:
                continue
            a = np.array([base[i]["metrics"][metric] for i in ids], dtype=float)
            b = np.array([other[i]["metrics"][metric] for i in ids], dtype=float)
            rng = np.random.default_rng(seed)
            delta, lo, hi = paired_bootstrap(a, b, n_boot, alpha, rng)
            rows.append(
                {
                    "group": name,
                    "metric": metric,
                    "n": len(ids),
                    "a": float(a.mean()),
                    "b": float(b.mean()),
                    "delta": delta,
                    "ci_low": lo,
                    "ci_high": hi,
                    "contains_zero": bool(lo <= 0 <= hi),
                }
            )
    return rows


HEADER = ["group", "metric", "n", "a", "b", "delta", "ci_low", "ci_high", "flag"]


def format_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Rows as strings, 4 decimals; flag "~" when the interval contains 0, else "*"."""
    return [
        [
            r["group"],
            r["metric"],
            str(r["n"]),
            f"{r['a']:.4f}",
            f"{r['b']:.4f}",
            f"{r['delta']:+.4f}",
            f"{r['ci_low']:+.4f}",
            f"{r['ci_high']:+.4f}",
            "~" if r["contains_zero"] else "*",
        ]
        for r in rows
    ]


def main(argv: list[str]) -> int:
    """CLI: prints one delta table per later run; ``--out`` also writes ``compare.json`` / ``.csv`` / ``.md``."""
    parser = argparse.ArgumentParser(prog="rubricloop-eval compare", description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", nargs="+", help="eval output folders, or refine folders as <folder>:initial / <folder>:best"
    )
    parser.add_argument("--n-boot", type=int, default=2000, help="bootstrap resamples (default 2000)")
    parser.add_argument("--alpha", type=float, default=0.05, help="1 - confidence level (default 0.05: 95%% intervals)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--out", type=Path, default=None, help="folder for compare.json, compare.csv, compare.md")
    args = parser.parse_args(argv)
    if len(args.runs) < 2:
        parser.error("give at least two runs: the base first")
    if args.n_boot < 1 or not 0 < args.alpha < 1:
        parser.error("--n-boot must be >= 1 and --alpha in (0, 1)")
    try:
        loaded = [load_per_item(r) for r in args.runs]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    (label_a, base), results = loaded[0], []
    from evaluation.tables import markdown

    md = []
    for label_b, other in loaded[1:]:
        rows = compare(base, other, args.n_boot, args.alpha, args.seed)
        if not rows:
            print(f"error: {label_a} and {label_b} share no scored item", file=sys.stderr)
            return 1
        results.append(
            {"a": label_a, "b": label_b, "n_boot": args.n_boot, "alpha": args.alpha, "seed": args.seed, "rows": rows}
        )
        title = (
            f"{label_b} - {label_a} (paired bootstrap, {100 * (1 - args.alpha):g}% CI, "
            f"{args.n_boot} resamples; ~ = CI contains 0)"
        )
        table = markdown(HEADER, format_rows(rows))
        md.append(f"### {title}\n\n{table}")
        print(f"\n{title}\n{table}")
    if args.out:
        try:
            write_outputs(args.out, results, md)
        except OSError as e:  # a read-only or full --out: each file is written whole or not at all
            from rewards.common.run_folder import write_error

            print(f"error: --out {args.out}: {write_error(e, args.out)}", file=sys.stderr)
            return 1
        print(f"wrote {args.out / 'compare.md'}")
    return 0


def write_outputs(out: Path, results: list[dict[str, Any]], md: list[str]) -> None:
    """``compare.json``, ``compare.md`` and ``compare.csv`` into ``out`` (created), each atomically.

    Raises:
        OSError: ``out`` or a file cannot be written.
    """
    from rewards.common.run_folder import write_text

    out.mkdir(parents=True, exist_ok=True)
    table = io.StringIO(newline="")
    w = csv.writer(table)
    w.writerow(["a", "b", *HEADER])
    for res in results:
        w.writerows([res["a"], res["b"], *r] for r in format_rows(res["rows"]))
    for name, text in (
        ("compare.json", json.dumps(results, indent=2)),
        ("compare.md", "\n".join(md)),
        ("compare.csv", table.getvalue()),
    ):
        write_text(out / name, text, out / f"{name}.tmp")
