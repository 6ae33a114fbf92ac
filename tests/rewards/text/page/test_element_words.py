"""The words an element is made of (rewards.text.page.page_lines.element_words): marks and noise at a
line's ends are left out. Synthetic OCR lines, no tesseract run."""

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.page.page_lines import element_words
from rewards.text.questions.question_compiler import compile_question

Q = 'Is there a point annotation reading exactly "Zephyr 3"?'


def annotation(marker_conf: float, marker_y: int = 373, marker_x: int = 138) -> list[Line]:
    """A tester's scatter: the red marker below the start of "Zephyr 3", read into its line as "P".
    (A word's confidence takes no part in equality, so each case draws its marker elsewhere: the
    judge remembers reads by their lines.)"""
    marker = Word("P", (marker_x, marker_y, marker_x + 12, marker_y + 13), marker_conf)
    return [Line((marker, Word("Zephyr", (155, 355, 216, 372), 96.0), Word("3", (222, 356, 230, 368), 96.0)))]


def ask(lines: list[Line]) -> str:
    check = Check("1", Q, spec=compile_question(Q))
    return OCRJudge().judge_lines(lines, (800, 500), check).answer


def test_a_marker_read_as_a_glyph_is_not_the_annotations():
    lines = annotation(0.0)
    assert element_words(lines, 0) == ((0, 1), (0, 2))
    assert ask(lines) == "yes"  # was a false "no": "'Zephyr 3' is read only inside longer text ('P Zephyr 3')"


def test_a_confident_glyph_or_one_on_the_line_stays_a_word():
    assert ask(annotation(90.0, marker_x=137)) == "no"  # tesseract sure of it: "P Zephyr 3" is the annotation
    assert ask(annotation(0.0, marker_y=358, marker_x=136)) == "no"  # on the line's band: a letter of the line
