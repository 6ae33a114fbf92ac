"""The words an element is made of (rewards.text.page.page_lines.element_words): marks and noise at a
line's ends are left out. Synthetic OCR lines, no tesseract run."""

from PIL import Image

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


def legend_lines(second: str) -> list[Line]:
    """A tester's matplotlib line chart: its legend's handles (a stroke, a marker, a stroke) read
    as words before the entries ("—e— iOS")."""
    rows = [("—e—", "iOS"), ("—m—", second), ("—A—", "Web")]
    return [
        Line(
            (Word(h, (78, 90 + 27 * k, 112, 102 + 27 * k), 60.0), Word(t, (128, 88 + 27 * k, 190, 104 + 27 * k), 95.0))
        )
        for k, (h, t) in enumerate(rows)
    ]


def test_a_line_legends_handle_is_a_mark_and_names_its_entry():
    q = 'Does the legend read "iOS", "Android" and "Web"?'
    img = Image.new("RGB", (1000, 650), "white")

    def legend(second: str) -> str:
        lines = legend_lines(second)
        return OCRJudge().judge_lines(lines, img.size, Check("1", q, spec=compile_question(q)), img).answer

    assert element_words(legend_lines("Android"), 0) == ((0, 1),)
    assert legend("Android") == "yes"  # was a false "no": "'iOS' is read only inside longer text ('—e— iOS')"
    assert legend("Andriod") == "no"
    assert element_words([Line((Word("-5-", (0, 0, 20, 10), 90.0), Word("Q3", (30, 0, 50, 10), 90.0)))], 0) == (
        (0, 0),
        (0, 1),
    )  # a digit between dashes is text (a page number), not a marker
