"""The editor rewrites the element the judge read for a positional "no" (issue 31,
refine.editors.text.judged_element): "Gas" asked of the fourth y-axis category label, drawn "Gau",
while the annotation "Highest: Gas (93%)" holds the string. Before, the editor took that
annotation for the string already on the page and did nothing. Chart drawn by matplotlib
(tests/mpl_charts.py), read by tesseract."""

import shutil

import pytest
from mpl_charts import hbar

from refine.editors.text import TextEditor
from refine.editors.text.judged_element import judged_boxes
from rewards.importers import expectations_of
from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, Verdict
from rewards.text.questions.question_compiler import compile_question

QUESTION = 'Is the fourth y-axis category label from the top exactly "Gas"?'


def check() -> Check:
    spec = compile_question(QUESTION)
    return Check("q4", QUESTION, expects=expectations_of(spec), spec=spec)


def test_judged_boxes_take_the_element_the_verdict_read():
    c = check()
    exp = c.expects[0]
    read = Verdict("q4", "no", "ocr", "", {"element_read": {"box": [56, 376, 86, 388], "text": "Gau"}})
    plain = Verdict("q4", "no", "ocr", "", {})
    assert judged_boxes([(c, read)], [(exp, "q4")], {exp: None}) == {exp: [(56, 376, 86, 388)]}
    assert judged_boxes([(c, plain)], [(exp, "q4")], {exp: None}) == {exp: None}


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
def test_the_label_the_judge_read_is_rewritten_not_the_annotation():
    img = hbar(["Solar", "Wind", "Hydro", "Gau", "Coal"], [63, 24, 36, 93, 38])
    judge, c = OCRJudge(), check()
    v = judge.judge_lines(judge.read(img), img.size, c, img)
    assert v.answer == "no" and v.evidence["element_read"]["text"] == "Gau"
    editor = TextEditor()
    out = editor.edit(img, "", [(c, v)], 0)
    action = next(a for a in editor.last_actions if a["text"] == "Gas")
    assert action["action"].startswith("replace") and action["was"] == "Gau"
    after = judge.judge_lines(judge.read(out), out.size, c, out)
    assert after.answer == "yes", after.reason
    # the annotation is untouched
    assert "Highest: Gas (93%)" in [ln.text for ln in judge.read(out)]
