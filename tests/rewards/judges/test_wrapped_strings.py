"""A long quoted string that wraps over several lines of one element (issue 31, the text part's
false "no"): drawn pages read by tesseract. Confirmed when its words are read in reading order
across the lines, refuted for a one-word typo read with confidence, withheld when a line of it
holds ink OCR did not read."""

import pytest
from PIL import ImageFilter

from rewards.judges.ocr import OCRJudge
from rewards.judges.ocr_doubt import _lookalike_spelling
from rewards.rubric import Check
from rewards.text.questions.question_compiler import compile_question
from tests.pages import page

pytest.importorskip("pytesseract")

LINES = ("• Revenue grew in every region", "this quarter while freight", "costs fell for the third year")
TEXT = "Revenue grew in every region this quarter while freight costs fell for the third year"
QUESTION = f'Does the bullet point read exactly "{TEXT}"?'


def bullet_page(lines=LINES, blur_last: float = 0):
    """A heading over one bullet wrapped on three lines (DejaVu Serif 18 px); ``blur_last``: the
    third line blurred with that radius (ink OCR cannot read)."""
    texts = [("Performance", (40, 30), 28, (20, 20, 20))]
    texts += [(t, (40, 90 + 26 * k), 18, (20, 20, 20)) for k, t in enumerate(lines)]
    img = page(texts)
    if blur_last:
        box = (40, 140, 400, 168)
        img.paste(img.crop(box).filter(ImageFilter.GaussianBlur(blur_last)), box[:2])
    return img


def judged(img):
    check = Check("1", QUESTION, spec=compile_question(QUESTION))
    return OCRJudge(incremental=False).judge([img], [""], [[check]])[0][0]


def test_a_bullet_wrapped_over_three_lines_is_confirmed():
    v = judged(bullet_page())
    assert v.answer == "yes", v.reason
    assert v.evidence["expects"][0]["ocr_text"] == TEXT  # the three lines, in reading order


def test_a_one_word_typo_in_the_wrapped_bullet_is_refuted():
    v = judged(bullet_page((LINES[0], "this quarter whilc freight", LINES[2])))
    assert v.answer == "no", v.reason
    assert "whilc" in v.evidence["ocr_text"] and "doubt" not in v.evidence


@pytest.mark.parametrize("radius", [2.2, 3])
def test_a_line_of_the_bullet_ocr_cannot_read_is_withheld(radius):
    v = judged(bullet_page(blur_last=radius))
    assert v.answer == "withheld", v.reason
    assert "read only in part" in v.evidence["doubt"]
    assert v.evidence["ocr_text"] == "Revenue grew in every region this quarter while freight"


def test_a_read_that_differs_only_in_lookalike_glyphs_is_no_refutation():
    assert _lookalike_spelling("regarding object 01?", "regarding object o1?")
    assert _lookalike_spelling("| found obj", "I found obj")
    assert _lookalike_spelling("How do! add a team member?", "How do I add a team member?")  # a bold "I" read "!"
    assert not _lookalike_spelling("How do! add a member?", "How do I add a team member?")
    assert not _lookalike_spelling("regarding object 02?", "regarding object o1?")
    assert not _lookalike_spelling("object o1?", "object o1?")  # the same read is no near miss
    assert _lookalike_spelling("¢ Thermal: lower O&M costs", "• Thermal: lower O&M costs")  # a bullet read "¢"
    assert not _lookalike_spelling("¢ Thermal: lower O&M casts", "• Thermal: lower O&M costs")


def test_four_lines_stacked_directly_under_a_name_reach_past_four_line_heights():
    from rewards.text.page.grounding import decide_text
    from tests.pages import ocr_line

    q = (
        "Does the bin card, directly under '02 Rack', contain exactly the following four lines of text from top "
        "to bottom: 'Z1R2B1', 'Empty', '0kSKUs', 'Last update: 10 Oct, 2025'?"
    )
    spec = compile_question(q).text
    rows = ["02 Rack", "Z1R2B1", "Empty", "0kSKUs", "Last update: 10 Oct, 2025"]
    lines = [ocr_line(t, 50, 112 + 18 * k) for k, t in enumerate(rows)]  # the last 5 line heights down
    assert decide_text(spec, lines, None, (1000, 680)).holds is True
    far = lines[:4] + [ocr_line(rows[4], 50, 112 + 18 * 12)]  # the last string far below the stack
    d = decide_text(spec, far, None, (1000, 680))
    assert d.holds is False and d.rule == "anchor"


def test_a_word_dropped_inside_the_wrapped_bullet_is_refuted():
    v = judged(bullet_page((LINES[0], "this quarter freight", LINES[2])))  # "while" dropped, every line read
    assert v.answer == "no", v.reason
    assert "doubt" not in v.evidence
