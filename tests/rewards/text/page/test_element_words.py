"""The words an element is made of (rewards.text.page.page_lines.element_words): marks and noise at a
line's ends are left out. Synthetic OCR lines, no tesseract run."""

from PIL import Image, ImageDraw

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


def ggplot_legend(second: str) -> tuple[Image.Image, list[Line]]:
    """A tester's ggplot-style stacked area chart (matplotlib, ``plt.style.context("ggplot")``): its
    legend, inside the axes, has three swatches on a grey ground; tesseract read the middle
    swatch as "ME" and joined the y-axis tick label "12-" left of it into the entry's line."""
    img = Image.new("RGB", (800, 500), (229, 229, 229))
    d = ImageDraw.Draw(img)
    for k, colour in enumerate([(226, 74, 51), (52, 138, 189), (152, 142, 213)]):
        d.rectangle([56, 57 + 25 * k, 90, 67 + 25 * k], fill=colour)
    lines = [
        Line((Word("Mobile", (106, 55, 160, 68), 96.0),)),
        Line(
            (
                Word("12-", (16, 85, 43, 96), 90.0),
                Word("ME", (57, 81, 91, 94), 40.0),
                Word(second, (105, 80, 174, 98), 96.0),
            )
        ),
        Line((Word("Tablet", (104, 106, 154, 119), 96.0),)),
    ]
    return img, lines


def test_a_tick_label_read_into_a_legend_entrys_line_does_not_hide_the_entry():
    q = 'Does the legend list "Mobile", "Desktop" and "Tablet" from top to bottom?'

    def legend(second: str) -> str:
        img, lines = ggplot_legend(second)
        return OCRJudge().judge_lines(lines, img.size, Check("1", q, spec=compile_question(q)), img).answer

    # was a false "no": "the legend entry reads 'Mobile' / 'Tablet', which does not contain 'Desktop'"
    assert legend("Desktop") == "yes"
    assert legend("Dekstop") == "no"


def line(*words: tuple[str, tuple[int, int, int, int]], conf: float = 95.0) -> Line:
    return Line(tuple(Word(t, b, conf) for t, b in words))


def feature_row(icon: str, conf: float, right: int = 681) -> list[Line]:
    """Tesseract's lines of a Chromium landing page's title and three features (an icon, a bold
    heading, a line of body text under it), the flag before "Fast setup" read as ``icon`` with
    confidence ``conf`` (dev chromium-landing-2 after its heading's rewrite)."""
    flag = Line((Word(icon, (670, 393, right, 408), conf), Word("Fast", (696, 395, 735, 407), 95.0),
                 Word("setup", (742, 395, 794, 411), 95.0)))  # fmt: skip
    return [
        line(("Analytics", (48, 152, 252, 192)), ("your", (269, 160, 370, 192)), ("whole", (386, 152, 516, 184)),
             ("team", (532, 154, 644, 184))),
        line(("can", (50, 206, 124, 230)), ("read", (144, 198, 240, 230))),
        line(("¥", (50, 395, 62, 406)), ("Works", (75, 393, 134, 407)), ("offline", (141, 393, 200, 407))),
        line(("&", (358, 396, 372, 406)), ("Open", (385, 394, 433, 411)), ("API", (440, 394, 471, 407))),
        flag,
        line(("Share", (49, 421, 79, 431)), ("with", (84, 421, 108, 431)), ("up", (112, 424, 125, 434)),
             ("to", (130, 423, 140, 431)), ("50", (145, 421, 157, 431)), ("people.", (162, 421, 198, 434))),
        line(("Set", (358, 421, 374, 431)), ("up", (379, 424, 392, 434)), ("in", (397, 424, 406, 431)),
             ("under", (411, 421, 442, 431)), ("five", (447, 421, 467, 431)), ("minutes.", (472, 423, 518, 431))),
        line(("Updated", (668, 421, 713, 434)), ("every", (718, 424, 748, 434)), ("17", (755, 421, 766, 431)),
             ("minutes.", (770, 421, 816, 431))),
    ]  # fmt: skip


def test_an_icon_read_as_a_short_word_far_before_the_heading_is_not_the_headings():
    q = 'Is there a section heading that reads exactly "Fast setup"?'
    check = Check("1", q, spec=compile_question(q))
    lines = feature_row("B®", 19.0)
    assert element_words(lines, 4) == ((4, 1), (4, 2))
    assert OCRJudge().judge_lines(lines, (1024, 600), check).answer == "yes"  # was "no": 'B® Fast setup'
    assert element_words(feature_row("B®", 90.0), 4) == ((4, 0), (4, 1), (4, 2))  # sure of it: a word
    assert element_words(feature_row("Pm", 13.0), 4) == ((4, 1), (4, 2))  # the same flag read otherwise
    assert element_words(feature_row("Pm", 13.0, right=692), 4)[0] == (4, 0)  # a word space away: a word
