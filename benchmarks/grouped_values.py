"""Report: a grouped bar's missing value label: the judge's verdict and the text editor's placement.

Usage::

    python benchmarks/grouped_values.py --seeds 0 9

Each seed's chart is ``documents.engines.charts``' grouped bar chart from ``chart_content("grouped_bar",
random.Random(seed))``, drawn twice: with every value label (the clean chart) and with value label
``seed % n`` left out (the start page). The OCR judge (``judge=ocr``'s ``OCRJudge``) is asked 'Is the
value label above the "<series>" bar in the "<group>" group "<value>"?' on both (truth: "no" on the
start page, "yes" on the clean chart); the text editor is handed the question as a failed check.
Per chart it prints both verdicts, the editor's action and the damage as
``benchmarks/engine_refine.py`` counts it (pixels changed outside the engine's box of the value,
less the clean chart's ink a pixel past that box); then the totals: false yes, false no and
withheld, values written at their bar, damaged px.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.wedge_values import failed  # noqa: E402
from documents.engines.charts import chart_content, draw_chart  # noqa: E402
from documents.engines.damage import changed_outside  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from rewards.judges.ocr import OCRJudge  # noqa: E402
from rewards.rubric import Check  # noqa: E402

QUESTION = 'Is the value label above the "{series}" bar in the "{category}" group "{text}"?'


def one_chart(seed: int, judge: OCRJudge) -> tuple[str, str, str, int]:
    """(the judge's answer on the start page, on the clean chart, the editor's action, damaged px)
    for chart ``seed`` (module docstring)."""
    specs, style = chart_content("grouped_bar", random.Random(seed))
    values = [s for s in specs if s.role == "value_label"]
    hide = values[seed % len(values)]
    clean, elements = draw_chart("grouped_bar", specs, style)
    start, _ = draw_chart("grouped_bar", [s for s in specs if s.id != hide.id], style)
    x0, y0, x1, y1 = next(e.box for e in elements if e.id == hide.id)
    q = QUESTION.format(text=hide.text, **hide.context)
    (check, _), answers = failed(q)[0], []
    for img in (start, clean):
        answers.append(judge.judge_lines(judge.read(img), img.size, Check("q1", q, spec=check.spec), img).answer)
    editor = TextEditor()
    out = np.asarray(editor.edit(start.copy(), "", failed(q), 0)).astype(int)
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    outside = changed_outside(out, st, cl, (x0, y0, x1, y1))
    acts = [a["action"] for a in editor.last_actions if a["text"] == hide.text]
    return answers[0], answers[1], acts[0] if acts else "(no action)", int(outside.sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 9), metavar=("FIRST", "END"))
    args = ap.parse_args(argv)
    judge = OCRJudge()
    tally = {"false_yes": 0, "false_no": 0, "withheld": 0, "placed": 0, "damaged": 0}
    for seed in range(*args.seeds):
        start, clean, action, px = one_chart(seed, judge)
        print(f"seed {seed}: judge start {start}, clean {clean}; {action[:60]}, damaged px {px}", flush=True)
        tally["false_yes"] += start == "yes"
        tally["false_no"] += clean == "no"
        tally["withheld"] += (start == "withheld") + (clean == "withheld")
        tally["placed"] += action.startswith("place (at its bar's end)")
        tally["damaged"] += px
    n = args.seeds[1] - args.seeds[0]
    t = tally
    print(f"\n{n} charts (2 pages each): false yes {t['false_yes']}, false no {t['false_no']}, withheld "
          f"{t['withheld']}; {t['placed']} values written at their bar, {t['damaged']} damaged px")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
