"""``rubricloop-report <run>``: a self-contained HTML report (``report.html`` + ``report_files/``)
for an eval, refine or train run.

    rubricloop-report runs/eval/base        # rubricloop-eval output (scores.json)
    rubricloop-report runs/refine           # rubricloop-refine output (summary.json)
    rubricloop-report checkpoints/ocr1      # rubricloop-train run folder (history.json)

Contents: the score tables (the paper's tables for eval runs), a score-vs-iteration curve for
refine runs (mean over items of the best score seen after N edits: the shape of
TechImage-Bench Table 5), reward and KL curves from the training run's ``history.json``,
per-dimension bar charts, and per item the image strip across iterations with the failed
checks under each image (the judge's reason on hover). Charts are drawn with matplotlib,
the page with a jinja2 template (``evaluation/templates/report.html.j2``). ``--wandb
offline|online`` also logs the tables and image strips (``wandb.Image`` of each full image) as
W&B Tables into the W&B run the reported run logged into (resumed by the id it recorded:
``rewards.common.wandb_run``), a new one only when it logged into none.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import jinja2
import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402

from rewards.common.task import run_console_script  # noqa: E402
from rewards.rubric import record_check  # noqa: E402

FILES = "report_files"
"""Folder next to ``report.html`` holding its charts and image thumbnails."""

THUMB = 256
"""Longest side of the image thumbnails in the report, in pixels."""

MAX_ITEMS = 50
"""Items shown with their image strips (the tables cover every item)."""


class Report:
    """Collects tables, charts and image strips, then renders ``report.html``."""

    def __init__(self, run: Path, kind: str):
        self.run, self.kind = run, kind
        self.files = run / FILES
        if self.files.exists():
            shutil.rmtree(self.files)
        self.files.mkdir(parents=True)
        self.tables: list[dict[str, Any]] = []
        self.charts: list[dict[str, str]] = []
        self.items: list[dict[str, Any]] = []
        self.note = ""

    def table(self, title: str, header: list[str], rows: list[list[Any]]) -> None:
        self.tables.append({"title": title, "header": header, "rows": [[str(c) for c in r] for r in rows]})

    def chart(self, title: str, fig) -> None:
        name = f"chart_{len(self.charts)}.png"
        fig.savefig(self.files / name, dpi=96, bbox_inches="tight")
        plt.close(fig)
        self.charts.append({"title": title, "src": f"{FILES}/{name}"})

    def thumbnail(self, image: Path, name: str) -> str | None:
        """Copy ``image`` as a PNG thumbnail into the files folder; its relative src, or None."""
        try:
            with Image.open(image) as im:
                im = im.convert("RGB")
                im.thumbnail((THUMB, THUMB))
                if max(im.size) < 64:  # tiny test images: scale up so the strip is visible
                    s = 64 // max(im.size) + 1
                    im = im.resize((im.width * s, im.height * s), Image.NEAREST)
                im.save(self.files / name)
        except (OSError, ValueError):
            return None
        return f"{FILES}/{name}"

    def render(self) -> Path:
        env = jinja2.Environment(loader=jinja2.PackageLoader("evaluation", "templates"), autoescape=True)
        html = env.get_template("report.html.j2").render(
            title=f"RubricLoop {self.kind} report",
            kind=self.kind,
            run=str(self.run),
            note=self.note,
            tables=self.tables,
            charts=self.charts,
            items=self.items,
        )
        from rewards.common.run_folder import write_text

        path = self.run / "report.html"
        write_text(path, html, path.with_name("report.html.tmp"))  # a full disk leaves no torn page
        return path


def bar_chart(groups: dict[str, float], title: str, ylabel: str, ymax: float = 1.0):
    """A matplotlib figure: one bar per group, the y axis from 0 to ``ymax`` (1 for [0, 1]
    scores, 100 for percentages) or the highest bar."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    names = list(groups)
    values = [groups[n] for n in names]
    bars = ax.bar(range(len(names)), values, color="#4878a8")
    # a bar of 0 has no height: its top edge is drawn as a thick line in the bar's colour, and
    # every bar gets its value written on it, so an all-zero chart does not look empty
    zero = [k for k, v in enumerate(values) if v == 0]
    if zero:
        ax.hlines([0.0] * len(zero), [k - 0.4 for k in zero], [k + 0.4 for k in zero], color="#4878a8", linewidth=5)
    ax.bar_label(bars, labels=[f"{v:.2f}" for v in values], padding=4, fontsize=9)
    ax.axhline(0.0, color="#333", linewidth=0.8)
    top = max(ymax, *values)
    ax.set_ylim(min(0.0, *values), top * 1.1)
    ax.set_xticks(range(len(names)), [n.replace("_", " ") for n in names], rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    return fig


def line_chart(series: dict[str, tuple[list[float], list[float]]], title: str, xlabel: str, ylabel: str):
    """A matplotlib figure: one line (with markers) per named (x, y) series."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    for name, (x, y) in series.items():
        ax.plot(x, y, marker="o", label=name)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))  # steps and iterations
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend()
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- eval runs


def _eval_bars(summary: dict[str, Any]) -> list[tuple[str, dict[str, float], str]]:
    b = summary["benchmark"]
    if b == "bizgeneval":
        s = summary["subsets"]["all"]
        return [
            (
                f"BizGenEval penalty score by {k}",
                {g: v["error_score"] for g, v in s[f"by_{k}"].items()},
                "score (all questions)",
            )
            for k in ("domain", "dimension")
            if s[f"by_{k}"]
        ]
    if b == "genexam":
        by = summary["scores"]["by_subject"]
        return [
            (f"GenExam {k} by subject", {g: v[k] / 100 for g, v in by.items()}, f"{k} / 100")
            for k in ("strict", "relaxed")
            if by
        ]
    if b == "techimage":
        modes = {m: v for m, v in summary["scores"].items() if m != "all"}
        return [
            (f"TechImage-Bench {k} by domain", {m: v[k] for m, v in modes.items()}, k)
            for k in ("Acc", "Score")
            if modes
        ]
    if b == "igenbench":
        out = []
        for m in summary["models"]:
            by = {t: v["q_acc"] for t, v in m["scores"]["by_type"].items() if v["q_acc"] is not None}
            if by:
                out.append((f"IGenBench Q-ACC by question type ({m['gen_model']} / {m['eval_model']})", by, "Q-ACC"))
        return out
    return []


def eval_report(run: Path, summary: dict[str, Any]) -> Report:
    from evaluation.tables import TABLES

    rep = Report(run, "eval")
    benchmark = summary["benchmark"]
    rep.note = f"benchmark {benchmark}"
    for stem, header, rows in TABLES[benchmark](summary):
        rep.table(stem.replace("_", " "), header, rows)
    cov = summary.get("coverage", {})
    rep.table("coverage", list(cov), [list(cov.values())])
    not_scored = summary.get("not_scored", {})
    if not_scored:
        rep.table("not scored", ["reason", "items"], [[k, len(v)] for k, v in not_scored.items()])
    for title, groups, ylabel in _eval_bars(summary):
        rep.chart(title, bar_chart(groups, title, ylabel))
    strips = bizgeneval_strips(run, summary) if benchmark == "bizgeneval" else generic_strips(run, summary)
    rep.items = strips[:MAX_ITEMS]
    return rep


def bizgeneval_strips(run: Path, summary: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame per item: its image and the questions its result file marks false."""
    from rewards.importers import load_items
    from rewards.scorers.bizgeneval_results import result_filename

    try:  # no further than the run read (rubricloop-eval limit=2 on a 100k-row file)
        limit = json.loads((run / "run.json").read_text(encoding="utf-8")).get("limit")
    except (OSError, ValueError, AttributeError):
        limit = None
    try:
        items, _ = load_items(summary["data"], limit=limit if isinstance(limit, int) and limit > 0 else None)
    except (ValueError, OSError):
        return []
    metrics = {r["id"]: r["metrics"] for r in summary.get("per_item", [])}
    out = []
    for item in items:
        name = result_filename(item)
        path = Path(summary["results"]) / name
        image = run / "images" / (name[: -len(".json")] + ".png")
        if item.id not in metrics or not path.is_file():
            continue
        meta = json.loads(path.read_text(encoding="utf-8")).get("meta_info", {})
        failed = [
            {
                "check": f"Q{q}: {e.get('raw_description', '')}",
                "reason": f"{e.get('answer', 'no')}: {e.get('reason', '')}",
                "kind": "withheld" if e.get("answer") == "withheld" else "no",
            }
            for q, e in meta.items()
            if isinstance(e, dict) and e.get("result") is not True
        ]
        frames = [
            {
                "label": f"{item.meta.get('domain', '')} / {item.meta.get('dimension', '')}",
                "best": False,
                "score": f"all {metrics[item.id].get('all', 0):.2f}",
                "failed": failed,
                "image": image,
            }
        ]
        withheld = sum(f["kind"] == "withheld" for f in failed)
        note = f"{len(failed) - withheld} of {len(meta)} questions failed, {withheld} withheld"
        out.append({"id": item.id, "frames": frames, "note": note})
    return out


def generic_strips(run: Path, summary: dict[str, Any]) -> list[dict[str, Any]]:
    from rewards.scorers.verdict_results import result_name

    out = []
    for r in summary.get("per_item", []):
        stem = result_name(r["id"])[: -len(".json")]
        image = run / "images" / f"{stem}.png"
        path = run / "results" / f"{stem}.json"
        failed = []
        if path.is_file() and summary["benchmark"] == "genolympiad":
            data = json.loads(path.read_text(encoding="utf-8"))
            failed = [
                {"check": v["check_id"], "reason": f"{v['answer']}: {v.get('reason', '')}", "kind": v["answer"]}
                for v in data.get("verdicts", [])
                if v.get("answer") != "yes"
            ]
        score = ", ".join(f"{m} {v:.2f}" for m, v in r["metrics"].items() if v is not None)
        out.append(
            {
                "id": r["id"],
                "frames": [{"label": "image", "best": False, "score": score, "failed": failed, "image": image}],
            }
        )
    return out


# ---------------------------------------------------------------- refine runs


def kept_iteration(scores: list[dict[str, float]], key: str) -> int:
    """The index ``RefineLoop`` keeps among ``scores`` (one dict per iteration): the highest ``key``,
    ties to the fewest checks answered "no" (``refuted``), then the earliest (refine/loop.py)."""
    return max(range(len(scores)), key=lambda i: (scores[i].get(key, 0.0), -scores[i].get("refuted", 0.0), -i))


def refine_report(run: Path, summary: dict[str, Any]) -> Report:
    rep = Report(run, "refine")
    items = [it for it in summary.get("items", []) if it.get("scores")]
    rep.note = (
        f"{summary.get('n_finished', len(items))} of {summary.get('n_items', len(items))} items finished, "
        f"{summary.get('iterations')} iterations"
    )
    names = list(summary.get("mean_initial", {}))
    rep.table(
        "mean scores",
        ["score", "initial", "best"],
        [[n, f"{summary['mean_initial'][n]:.3f}", f"{summary['mean_best'][n]:.3f}"] for n in names],
    )
    n_iter = max((len(it["scores"]) for it in items), default=0)
    curve_key = summary.get("keep_best_by") or "pass_rate"
    series = {}
    for name in dict.fromkeys([curve_key, *names]):
        if not items or name not in items[0]["scores"][0]:
            continue
        ys = []
        for k in range(n_iter):
            # each score at the iteration the loop would keep after k edits (an item that stopped early
            # keeps its last), not each score's own maximum: "refuted" and "coverage" go down as it improves
            kept = [it["scores"][kept_iteration(it["scores"][: k + 1], curve_key)] for it in items]
            ys.append(sum(s[name] for s in kept) / len(items))
        series[name] = (list(range(n_iter)), ys)
    if series:
        rep.table(
            "best score after N iterations (mean over items)",
            ["N", *series],
            [[k, *(f"{series[n][1][k]:.3f}" for n in series)] for k in range(n_iter)],
        )
        rep.chart(
            "score vs iteration",
            line_chart(series, "best score after N edits (mean over items)", "iteration N", "score"),
        )
    if items:
        last = {
            n: sum(it["scores"][it["best_iteration"]][n] for it in items) / len(items) for n in names if n != "coverage"
        }
        rep.chart("mean best scores", bar_chart(last, "mean score of each item's kept image", "score"))
    questions = _refine_questions(run)
    for it in items[:MAX_ITEMS]:
        folder = run / Path(it["best_image"]).parent if it.get("best_image") else None
        if folder is None:
            continue
        by_iter: dict[int, list[dict[str, str]]] = {}
        vpath = folder / "verdicts.jsonl"
        if vpath.is_file():
            for line in vpath.read_text(encoding="utf-8").splitlines():
                v = json.loads(line)
                if v["answer"] != "yes":
                    check = record_check(v)  # "check_id" in runs made before the shared record
                    q = v.get("question") or questions.get(it["id"], {}).get(check, "")
                    by_iter.setdefault(v["iteration"], []).append(
                        {
                            "check": f"{check}: {q}" if q else check,
                            "reason": f"{v['answer']}: {v.get('reason', '')}",
                            "kind": v["answer"],
                        }
                    )
        frames = [
            {
                "label": f"iter {k}",
                "best": k == it["best_iteration"],
                "image": folder / f"iter_{k}.png",
                "score": f"{curve_key} {s.get(curve_key, 0):.2f}",
                "failed": by_iter.get(k, []),
            }
            for k, s in enumerate(it["scores"])
        ]
        rep.items.append({"id": it["id"], "frames": frames, "note": it.get("stop_reason") or ""})
    return rep


def _refine_questions(run: Path) -> dict[str, dict[str, str]]:
    """item id -> check id -> question, from the data file named in the run's ``run.json``."""
    try:
        data = json.loads((run / "run.json").read_text(encoding="utf-8")).get("data")
        from rewards.importers import load_items

        items, _ = load_items(data)
    except (OSError, ValueError, TypeError):
        return {}
    return {it.id: {c.id: c.question for c in it.rubric.checks} for it in items}


# ---------------------------------------------------------------- train runs


def train_report(run: Path, history: dict[str, Any]) -> Report:
    rep = Report(run, "train")
    steps = history.get("step", [])
    rep.note = f"{len(steps)} GRPO steps"
    curves = {k: history[k] for k in ("reward_mean", "kl", "approx_kl", "loss", "clip_fraction") if history.get(k)}
    rep.table(
        "training log (every step)",
        ["step", *curves],
        [
            [s, *(f"{curves[k][i]:.4g}" if i < len(curves[k]) and curves[k][i] is not None else "" for k in curves)]
            for i, s in enumerate(steps)
        ],
    )
    if history.get("reward_mean"):
        series = {"train reward (mean)": (steps, history["reward_mean"])}
        if history.get("eval_reward"):
            series["held-out eval reward"] = (history["eval_step"], history["eval_reward"])
        rep.chart("reward", line_chart(series, "reward", "step", "reward"))
    kl = {k: (steps, history[k]) for k in ("kl", "approx_kl") if history.get(k)}
    if kl:
        rep.chart("KL", line_chart(kl, "KL to the reference", "step", "KL"))
    rates = history.get("check_pass_rates") or []
    if rates and isinstance(rates[-1], dict) and rates[-1]:
        rep.chart(
            "check pass rates (last step)", bar_chart(rates[-1], "pass rate per check tag (last step)", "pass rate")
        )
    ckpts = sorted(p.name for p in run.glob("step_*") if p.is_dir())
    if ckpts:
        rep.table("checkpoints", ["folder"], [[c] for c in ckpts])
    return rep


# ---------------------------------------------------------------- entry points


def _finish(rep: Report) -> Path:
    """Thumbnail every frame's image, then render."""
    n = 0
    for item in rep.items:
        for frame in item["frames"]:
            image = frame.pop("image", None)
            frame["src"] = rep.thumbnail(image, f"img_{n}.png") if image is not None and Path(image).is_file() else ""
            # the thumbnail links to the full image (a text fix is checked at full size)
            frame["full"] = os.path.relpath(image, rep.run) if frame["src"] else ""
            n += 1
        item["frames"] = [f for f in item["frames"] if f["src"]]
    rep.items = [it for it in rep.items if it["frames"]]
    return rep.render()


def build_report(run: str | Path) -> Report:
    """The :class:`Report` of an eval, refine or train run folder (not yet rendered).

    Raises:
        ValueError: the folder holds none of scores.json, summary.json, history.json.
    """
    run = Path(run)
    for name, build in (("scores.json", eval_report), ("summary.json", refine_report), ("history.json", train_report)):
        path = run / name
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as e:
                raise ValueError(f"{path}: not readable JSON ({e})") from None
            return build(run, data)
    raise ValueError(f"{run}: no scores.json (eval), summary.json (refine) or history.json (train) to report on")


def write_report(run: str | Path) -> Path:
    """Write ``<run>/report.html`` (atomically) and ``<run>/report_files/``; returns the HTML path.

    Raises:
        ValueError: see :func:`build_report`.
        OSError: the folder cannot be written (read-only, disk full).
    """
    return _finish(build_report(run))


def log_report_to_wandb(rep: Report, mode: str, project: str | None = None) -> tuple[str, bool]:
    """Log the report's tables and its image strips (a table whose ``image`` column holds
    ``wandb.Image`` of each frame's full image) into the W&B run the reported run logged into
    (``rewards.common.wandb_run.recorded_run_id``: resumed by its id, in the run's own project
    unless ``project`` is given), or into a new run when it logged into none.

    Returns:
        (the W&B run id logged into, True when it is the reported run's own).
    """
    import wandb

    from rewards.common.wandb_run import recorded_project, recorded_run_id

    run_id = recorded_run_id(rep.run)
    project = project or recorded_project(rep.run) or "rubricloop"
    same = {"id": run_id, "resume": "allow"} if run_id else {"job_type": f"{rep.kind}-report"}
    with wandb.init(project=project, mode=mode, dir=str(rep.run), **same) as wb:
        logs = {t["title"]: wandb.Table(columns=t["header"], data=t["rows"]) for t in rep.tables}
        rows = [
            [
                it["id"],
                f["label"],
                wandb.Image(str(rep.run / (f["full"] or f["src"])), caption=f"{it['id']} {f['label']}"),
                "; ".join(x["check"] for x in f["failed"]),
            ]
            for it in rep.items
            for f in it["frames"]
        ]
        if rows:
            logs["image strips"] = wandb.Table(columns=["item", "frame", "image", "failed checks"], data=rows)
        wb.log(logs)
        return wb.id, run_id is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rubricloop-report", description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="an eval, refine or train run folder")
    parser.add_argument(
        "--wandb",
        choices=["disabled", "offline", "online"],
        default="disabled",
        help="also log the tables and image strips to W&B (default disabled)",
    )
    parser.add_argument(
        "--wandb-project", default=None, help="default: the project the run logged into (else rubricloop)"
    )
    args = parser.parse_args(argv)
    try:
        rep = build_report(args.run)
        path = _finish(rep)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a read-only run folder, a full disk: report.html is written whole or not at all
        print(f"error: {args.run}: cannot write the report ({e.strerror or type(e).__name__})", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    if args.wandb != "disabled":
        run_id, own = log_report_to_wandb(rep, args.wandb, args.wandb_project)
        where = "the run's own W&B run" if own else "a new W&B run (the run logged into none)"
        print(f"logged the report into {where} {run_id} ({args.wandb})")
    return 0


def console() -> None:
    """Console entry point (``rewards.common.task``): ``main``'s status is the exit status."""
    run_console_script(main)


if __name__ == "__main__":
    console()
