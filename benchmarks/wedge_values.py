"""Report: a pie or donut slice's missing value, written by the text editor where matplotlib draws it.

Usage::

    python benchmarks/wedge_values.py --seeds 0 40

Each seed's chart is ``documents.engines.charts``' pie (even seeds) or donut (odd seeds) from
``chart_content(kind, random.Random(seed))``, drawn twice: with every value (the clean chart) and
with value ``seed % n`` left out (the start page). The text editor is asked 'Is the "<slice>"
slice labeled with the percentage "<value>"?' as a failed check. Per chart it prints the action
and the damage as ``benchmarks/engine_refine.py`` counts it: pixels changed outside the engine's
box of the value, less the clean chart's ink a pixel past that box; and the totals.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from documents.engines.charts import chart_content, draw_chart  # noqa: E402
from documents.engines.damage import changed_outside  # noqa: E402
from refine.editors.text import TextEditor  # noqa: E402
from rewards.importers import expectations_of  # noqa: E402
from rewards.rubric import Check, Verdict  # noqa: E402
from rewards.text.questions.question_compiler import compile_question  # noqa: E402


def failed(question: str):
    """``question`` compiled as check "q1", handed to the editor as failed (an OCR "no")."""
    spec = compile_question(question)
    return [(Check("q1", question, expects=expectations_of(spec), spec=spec), Verdict("q1", "no", "ocr", ""))]


def one_chart(seed: int) -> tuple[str, int]:
    """(the editor's action, damaged px) for chart ``seed`` (module docstring)."""
    kind = ("pie", "donut")[seed % 2]
    specs, style = chart_content(kind, random.Random(seed))
    values = [s for s in specs if s.id.startswith("pct-")]
    hide = values[seed % len(values)]
    clean, elements = draw_chart(kind, specs, style)
    start, _ = draw_chart(kind, [s for s in specs if s.id != hide.id], style)
    x0, y0, x1, y1 = next(e.box for e in elements if e.id == hide.id)
    editor = TextEditor()
    q = f'Is the "{hide.context["category"]}" slice labeled with the percentage "{hide.text}"?'
    out = np.asarray(editor.edit(start.copy(), "", failed(q), 0)).astype(int)
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    outside = changed_outside(out, st, cl, (x0, y0, x1, y1))
    action = editor.last_actions[0]["action"] if editor.last_actions else "(no action)"
    return action, int(outside.sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(0, 40), metavar=("FIRST", "END"))
    args = ap.parse_args(argv)
    placed = damaged = charts = 0
    for seed in range(*args.seeds):
        action, px = one_chart(seed)
        print(f"seed {seed}: {action[:60]}, damaged px {px}", flush=True)
        placed += action.startswith("place (in its wedge)")
        damaged += px
        charts += px > 0
    n = args.seeds[1] - args.seeds[0]
    print(f"\n{n} charts: {placed} values written in their wedge, {damaged} damaged px on {charts} charts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
