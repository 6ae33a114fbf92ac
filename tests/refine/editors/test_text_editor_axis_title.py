"""A chart's missing axis title (issue 32, "missing"): written where matplotlib sets it
(``place_axis_title``), centred under the x tick labels or rotated left of the y tick labels,
in their type. The charts are ``documents.engines.charts``' own, drawn once with the title and
once without, so the written title is checked against the engine's box of it."""

import random
import shutil
from dataclasses import replace

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from documents.engines.charts import chart_content, draw_chart
from documents.engines.damage import changed_outside
from refine.editors.text import TextEditor
from refine.editors.text.place_axis_title import _cut_to_row, _fitted
from refine.editors.text.state import EditState
from refine.editors.text.tick_label import tick_row
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.ocr_cache import page_lines
from rewards.text.ocr.text_match import Line
from rewards.text.questions.question_compiler import compile_question

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
QUESTION = {"axis-x": 'Is the x-axis label exactly "{}"?', "axis-y": 'Does the y-axis title read exactly "{}"?'}


def ask(question: str, img: Image.Image) -> str:
    check = Check("q", question, spec=compile_question(question))
    judge = OCRJudge()
    return judge.judge_lines(judge.read(img), img.size, check, img).answer


@needs_tesseract
@pytest.mark.parametrize(
    ("kind", "seed", "eid"),
    [
        ("bar", 110, "axis-x"),
        ("grouped_bar", 51, "axis-x"),
        ("bar", 55, "axis-y"),
        ("bar", 50, "axis-x"),
        ("grouped_bar", 41, "axis-y"),
    ],
)
def test_a_missing_axis_title_is_written_in_the_engine_s_box(kind, seed, eid):
    """Dev seeds 110 (a Liberation Serif bar chart), 51 (a Liberation Sans grouped bar: the
    "Energy source" under "Department"-like ticks of the report's miss) and 55 (a horizontal
    bar chart's "Sales region", rotated), 50 (Liberation Serif "Users (thousands)": its
    parentheses reach a quarter pixel from the box, written 2 px low at the matched 16 px, 13 px
    outside) and 41 (DejaVu Serif "Tonnes per hectare", rotated: 1 px too near the axis, 6 px):
    the title is written inside the box matplotlib gives it, no pixel changed outside it, and
    the judge reads it there ("yes")."""
    specs, style = chart_content(kind, random.Random(seed))
    (hide,) = [s for s in specs if s.id == eid]
    clean, elements = draw_chart(kind, specs, style)
    start, _ = draw_chart(kind, [s for s in specs if s.id != eid], style)
    (x0, y0, x1, y1) = next(e.box for e in elements if e.id == eid)
    q = QUESTION[eid].format(hide.text)
    assert ask(q, start) == "no"
    editor = TextEditor()
    out = np.asarray(editor.edit(start.copy(), "", failed(q), 0)).astype(int)
    (act,) = [a for a in editor.last_actions if a["text"] == hide.text]
    assert act["action"].startswith(f"place (the {eid[-1]}-axis title")
    bx0, by0, bx1, by1 = act["box"]
    assert x0 - 1 <= bx0 and bx1 <= x1 + 1 and y0 - 1 <= by0 and by1 <= y1 + 1, (act["box"], (x0, y0, x1, y1))
    assert max(bx1 - bx0, by1 - by0) >= 0.9 * max(x1 - x0, y1 - y0)  # as long as the engine's (its advance)
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    assert not changed_outside(out, st, cl, (x0, y0, x1, y1)).any()
    assert ask(q, Image.fromarray(out.astype(np.uint8))) == "yes"


def _ink_span(page: np.ndarray, ground: np.ndarray, box, turned: bool) -> tuple[int, int, int, int]:
    """(first, last) column and (first, last) row, along and across the line, of the pixels of
    ``page`` more than 8 off ``ground`` in ``box`` grown by 2 px."""
    x0, y0, x1, y1 = box
    ink = np.abs(page[y0 - 2 : y1 + 2, x0 - 2 : x1 + 2] - ground[y0 - 2 : y1 + 2, x0 - 2 : x1 + 2]).max(2) > 8
    ink = ink.T if turned else ink
    cols, rows = np.flatnonzero(ink.any(0)), np.flatnonzero(ink.any(1))
    return int(cols[0]), int(cols[-1]), int(rows[0]), int(rows[-1])


@needs_tesseract
@pytest.mark.parametrize(
    ("kind", "seed", "eid"),
    [("grouped_bar", 61, "axis-x"), ("grouped_bar", 136, "axis-y"), ("line", 142, "axis-y")],
)
def test_a_missing_axis_title_is_set_as_matplotlib_sets_it(kind, seed, eid):
    """Dev seeds 61 (DejaVu Serif "Department": the string and face of the report's miss, whose
    PIL-set title came out 2 px wide with its "p" a row low), 136 and 142 (Liberation Sans "Share
    of total (%)", rotated: 5 px outside the box each when PIL set it): the title is drawn by matplotlib's own
    renderer at the size the tick labels' widths give, so its ink spans the clean page's along
    and across the line within 1 px at each end, and no pixel changes outside its box."""
    specs, style = chart_content(kind, random.Random(seed))
    (hide,) = [s for s in specs if s.id == eid]
    clean, elements = draw_chart(kind, specs, style)
    start, _ = draw_chart(kind, [s for s in specs if s.id != eid], style)
    box = next(e.box for e in elements if e.id == eid)
    editor = TextEditor()
    out = np.asarray(editor.edit(start.copy(), "", failed(QUESTION[eid].format(hide.text)), 0)).astype(int)
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    assert not changed_outside(out, st, cl, box).any()
    want, got = _ink_span(cl, st, box, eid == "axis-y"), _ink_span(out, st, box, eid == "axis-y")
    assert all(abs(a - b) <= 1 for a, b in zip(want, got)), (want, got)


def _two_failed(questions: list[str]):
    """The questions compiled as checks "q1", "q2", ... and handed to the editor as failed."""
    return [(replace(c, id=f"q{k}"), replace(v, check_id=f"q{k}")) for k, q in enumerate(questions, 1)
            for c, v in failed(q)]  # fmt: skip


@needs_tesseract
def test_a_missing_axis_title_is_sized_on_the_tick_labels_as_the_engine_drew_them():
    """Dev seed 26 (a Liberation Serif grouped bar chart) drawn with its x-axis title "Sales
    region" left out and its first tick label "North" misspelled "Nort", both asked in one edit:
    the tick label is rewritten first (in PIL's rendering, its OCR line still "Nort"), and the
    title's size, fitted on the tick labels, was read on that edited page: matplotlib's width of
    "Nort" fitted on PIL's "North" set the title a size step large and a row low (11 px outside
    its box). It is now measured on the page as handed in: no pixel changes outside the two
    elements' boxes, and the title's ink spans the clean page's within 1 px."""
    specs, style = chart_content("grouped_bar", random.Random(26))
    title = next(s for s in specs if s.id == "axis-x")
    clean, elements = draw_chart("grouped_bar", specs, style)
    shown = [replace(s, text="Nort") if s.id == "tick-x-0" else s for s in specs if s.id != "axis-x"]
    start, drawn = draw_chart("grouped_bar", shown, style)
    box = next(e.box for e in elements if e.id == "axis-x")
    ticks = [next(e.box for e in els if e.id == "tick-x-0") for els in (elements, drawn)]
    questions = ['Is the first x-axis tick label from the left exactly "North"?', QUESTION["axis-x"].format(title.text)]
    editor = TextEditor()
    out = np.asarray(editor.edit(start.copy(), "", _two_failed(questions), 0)).astype(int)
    assert [a["action"].split(" (")[0] for a in editor.last_actions] == ["replace", "place"]
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    assert not (
        changed_outside(out, st, cl, box)
        & changed_outside(out, st, cl, ticks[0])
        & changed_outside(out, st, cl, ticks[1])
    ).any()
    want, got = _ink_span(cl, st, box, False), _ink_span(out, st, box, False)
    assert all(abs(a - b) <= 1 for a, b in zip(want, got)), (want, got)


@needs_tesseract
def test_a_tick_label_read_up_over_its_tick_mark_is_cut_to_its_row():
    """Dev seed 26's x tick labels as tesseract reads them, the first ("North") with its box
    reaching up over its tick mark to the row under the spine (tesseract read it so once, after
    other pages: the tick mark's ink in its height matched the labels bold at 22 px for matplotlib's
    14.6): ``_cut_to_row`` cuts it to the row's top, and the labels are fitted regular at
    14.3-14.9 px, as without the grown box."""
    specs, style = chart_content("grouped_bar", random.Random(26))
    start, _ = draw_chart("grouped_bar", [s for s in specs if s.id != "axis-x"], style)
    arr = np.array(start.convert("RGB"))
    editor = TextEditor()
    lines = page_lines(start, editor.lang, editor.psm, editor.scale, editor.second_psm, editor.incremental)
    state, rules = EditState.read(arr, lines, {}, {}), editor._rules()
    ticks = [lines[i] for i in tick_row(lines, state.h)]
    assert [t.text for t in ticks] == ["North", "South", "East"]
    spine = ticks[0].box[1] - 8  # the bottom spine: 8 rows over the labels' tops, the tick mark under it
    grown = [Line(tuple(replace(w, box=(w.box[0], spine + 1, *w.box[2:])) for w in ticks[0].words)), *ticks[1:]]
    for got in (_fitted(state, _cut_to_row(ticks), rules), _fitted(state, _cut_to_row(grown), rules)):
        assert not got.style.face.bold and 14.3 <= got.size <= 14.9, (got.style.face, got.size)
    assert _fitted(state, grown, rules).size > 16  # the grown box uncut: the tick mark read as ink
