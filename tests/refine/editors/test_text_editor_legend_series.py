"""Text editor (issue 32, "missing"): a grouped bar chart's legend that shows one series' label is
given the other series' entry, with its swatch, and the label shown is never rewritten into the
missing one ("2024" is not a misspelling of "2025" while the bars show a series no swatch names),
on a matplotlib chart drawn by the engine (dev seed 31)."""

import random
import shutil

import numpy as np
import pytest

from documents.engines.charts import chart_content, draw_chart
from documents.engines.split import ENGINE_OFFSET
from refine.editors.text import TextEditor
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.questions.question_compiler import compile_question

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


@pytest.fixture(scope="module")
def chart():
    specs, style = chart_content("grouped_bar", random.Random(31 + ENGINE_OFFSET["matplotlib"]))
    legend = [s for s in specs if s.role == "legend_entry"]
    assert [s.text for s in legend] == ["2024", "2025"]
    clean, elements = draw_chart("grouped_bar", specs, style)
    return specs, style, legend, clean, {e.id: e.box for e in elements}


def edit(start, text: str):
    question = f'Does the legend include the label "{text}"?'
    spec = compile_question(question)
    editor = TextEditor()
    out = editor.edit(start, "", [(Check("1", question, expects=expectations_of(spec), spec=spec),
                                   Verdict("1", "no", "ocr", ""))], seed=0)  # fmt: skip
    [act] = editor.last_actions
    return np.asarray(out).astype(int), act


def test_the_second_series_entry_is_added_after_the_first_which_stays(chart):
    specs, style, legend, clean, boxes = chart
    start, _ = draw_chart("grouped_bar", [s for s in specs if s.id != legend[1].id], style)
    out, act = edit(start, "2025")
    assert act["action"] == "place (next entry of the legend, with its swatch)", act["action"]
    s, c = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    x0, y0, x1, y1 = boxes[legend[0].id]
    assert (out[y0 - 2 : y1 + 2, x0 - 3 * (y1 - y0) : x1 + 2] == s[y0 - 2 : y1 + 2, x0 - 3 * (y1 - y0) : x1 + 2]).all()
    nx0, ny0, nx1, ny1 = boxes[legend[1].id]  # the new swatch in the second series' (orange) colour
    swatch = out[(ny0 + ny1) // 2, nx0 - 2 * (ny1 - ny0)]
    assert np.abs(swatch - c[(ny0 + ny1) // 2, nx0 - 2 * (ny1 - ny0)]).max() <= 12, swatch


def test_a_missing_first_series_is_skipped_not_written_over_the_second(chart):
    specs, style, legend, _, _ = chart
    start, _ = draw_chart("grouped_bar", [s for s in specs if s.id != legend[0].id], style)
    out, act = edit(start, "2024")
    assert act["action"].startswith("skip: the legend's missing series"), act["action"]
    assert (out == np.asarray(start).astype(int)).all()
