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


def test_the_judged_element_is_rewritten_though_its_string_stands_elsewhere_or_is_unread():
    """Issue 32's digits: "$17.25" asked of Tiramisu's price, drawn "$17.29", while Espresso's
    price reads "$17.25"; "9" asked of a grouped bar's value, drawn as a lone "2" the page read
    dropped. Before, the first was skipped ("on the page outside its place") and the second had
    no near match (0 alike) and no slot."""
    from dataclasses import replace

    import numpy as np

    from refine.editors.text.judged_element import judged_elements, judged_matches, judged_over, with_judged_reads
    from refine.editors.text.outcomes import Rewrite, Skip
    from refine.editors.text.state import EditState
    from rewards.rubric import TextExpectation
    from rewards.text.ocr.text_match import Line, Match, Word

    price, item = TextExpectation("$17.25"), TextExpectation("Tiramisu")
    c = Check("q2", 'In the "Desserts" section, is the price of "Tiramisu" exactly "$17.25"?')
    el = {"box": [686, 209, 733, 222], "text": "$17.29", "expected": "$17.25", "conf": 95.0}
    v = Verdict("q2", "no", "ocr", "", {"element_read": el})
    judged = judged_elements([(c, v)], [(price, "q2"), (item, "q2")])
    assert judged == {price: (686, 209, 733, 222)}  # the check's other strings are not the element
    lines = [Line((Word("Tiramisu", (426, 209, 485, 220), 96.0),)), Line((Word("$17.29", (686, 209, 733, 222), 95.0),)),
             Line((Word("$17.25", (686, 398, 733, 411), 96.0),))]  # fmt: skip
    elsewhere = Match("$17.25", (686, 398, 733, 411), 1.0, True, ((2, 0),))
    marked = judged_matches({price: [elsewhere], item: [replace(elsewhere, box=(426, 209, 485, 220))]}, judged)
    assert marked[price][0].found is False and marked[item][0].found is True
    state = EditState(np.zeros((500, 800, 3), np.uint8), lines, np.zeros((500, 800), bool),
                      np.zeros((500, 800), bool), set(), {})  # fmt: skip
    out = judged_over(state, judged[price], Skip("skip: on the page outside its place (moving it is a layout edit)"))
    assert isinstance(out, Rewrite) and out.match.text == "$17.29" and out.match.words == ((1, 0),)
    state.protected.add((1, 0))  # a word already fixed is never taken
    assert isinstance(judged_over(state, judged[price], Skip("skip")), Skip)
    # the lone glyph the judge read alone joins the editor's lines; a word already there is not doubled
    lone = Verdict("q1", "no", "ocr", "", {"element_read": {"box": [502, 461, 508, 471], "text": "2", "conf": 96.0}})
    more = with_judged_reads(lines, [(c, lone), (c, v)])
    assert [ln.text for ln in more] == ["Tiramisu", "$17.29", "$17.25", "2"]
