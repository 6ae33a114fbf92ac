"""Locator rules of BizGenEval phrasings (issue 31, dev half): an axis's tick label, a panel named by
its letter, the element above all other content; on tiny drawn pages whose OCR lines are given (no
tesseract), as ``test_locators``."""

from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line
from rewards.text.page.locators import page_resolvable, resolve_locators
from rewards.text.questions.question_compiler import compile_question

line = ocr_line  # an OCR line of text at (x, y), 0.6 h per character


def centred(text: str, cx: float, cy: float, h: int = 12) -> Line:
    return line(text, round(cx - 0.3 * h * len(text)), round(cy - h / 2), h)


def right_aligned(text: str, right: int, y: int, h: int = 12) -> Line:
    return line(text, right - round(0.6 * h * len(text)), y, h)


def resolve(question: str, lines: list[Line], image: Image.Image) -> list[str]:
    """The parts the page shows of ``question``."""
    spec = compile_question(question)
    return resolve_locators(list(spec.vlm_parts), spec.text, lines, image, image.size)[0]


def blank(w: int = 800, h: int = 600) -> Image.Image:
    return Image.new("RGB", (w, h), (250, 250, 250))


def chart_lines() -> list[Line]:
    """A chart's title, its y tick labels (right-aligned at x = 90) and x category labels (y = 520)."""
    lines = [centred("Accuracy by method", 400, 30, 20)]
    lines += [right_aligned(t, 90, 460 - 100 * k) for k, t in enumerate(["0.50", "0.60", "0.70", "0.80"])]
    lines += [centred(t, 200 + 150 * k, 520) for k, t in enumerate(["Method A", "Method B", "Method C", "Method D"])]
    return lines + [centred("Method", 425, 560, 14)]


def test_an_axis_tick_label_is_one_of_an_evenly_spaced_row_or_column_on_its_side():
    im, lines = blank(), chart_lines()
    assert resolve('Does the x-axis include the category label "Method C"?', lines, im) == [
        "locator 'x-axis tick label'"
    ]
    assert resolve('Does the y-axis show a tick label "0.60"?', lines, im) == ["locator 'y-axis tick label'"]
    assert resolve('Does the y-axis show a tick label "Method C"?', lines, im) == []  # an x label
    assert resolve('Does the x-axis include the category label "0.60"?', lines, im) == []  # a y label
    # the title is no tick label; "the label" of the x-axis may be its title
    assert resolve('Does the x-axis include the tick label "Method"?', lines, im) == []
    assert resolve('Does the x-axis include the label "Method"?', lines, im) == ["locator 'x-axis label'"]
    # a row of labels in the top half (a navigation bar) is no x-axis
    top = [centred(t, 200 + 150 * k, 80) for k, t in enumerate(["Home", "Pricing", "Blog", "Contact"])]
    assert resolve('Does the x-axis include the category label "Blog"?', top, im) == []
    # unevenly spaced labels are no tick row
    uneven = [centred(t, x, 520) for t, x in zip(["North", "South", "East"], [150, 250, 700])]
    assert resolve('Does the x-axis include the category label "South"?', uneven, im) == []


def panels(borders: bool = True, label_b: bool = True) -> tuple[Image.Image, list[Line]]:
    """Two panels side by side, "(a) Encoder side" and "(b) Decoder side" at their top, a block in each."""
    im = blank(900, 500)
    d = ImageDraw.Draw(im)
    lines = []
    for k, (label, block) in enumerate([("(a) Encoder side", "Mel Decoder"), ("(b) Decoder side", "Vocoder")]):
        x = 40 + 430 * k
        if borders:
            d.rectangle((x, 60, x + 400, 440), outline=(40, 40, 40), width=2)
        if k == 0 or label_b:
            lines.append(line(label, x + 20, 80, 16))
        lines.append(line(block, x + 120, 240, 16))
    return im, lines


def test_a_panel_named_by_its_letter_is_the_bordered_panel_that_holds_that_label_alone():
    q = 'In panel ({}), is there a block labeled exactly "{}"?'
    im, lines = panels()
    assert resolve(q.format("a", "Mel Decoder"), lines, im) == ["locator 'In panel (a)'"]
    assert resolve(q.format("b", "Vocoder"), lines, im) == ["locator 'In panel (b)'"]
    assert resolve(q.format("b", "Mel Decoder"), lines, im) == []
    im, lines = panels(borders=False)  # no panel found on the page: a VLM's
    assert resolve(q.format("a", "Mel Decoder"), lines, im) == []
    im, lines = panels(label_b=False)  # one label read: another panel may be unread
    assert resolve(q.format("a", "Mel Decoder"), lines, im) == []


def test_above_all_other_content_is_the_topmost_line():
    im = blank()
    lines = [line("Executive Summary", 40, 40, 32), line("1 Market", 40, 120, 16), line("2 Outlook", 400, 120, 16)]
    q = 'Does the main heading located at the top-left of the slide, above all numbered sections, read exactly "{}"?'
    assert resolve(q.format("Executive Summary"), lines, im) == ["locator 'above all numbered sections'"]
    assert resolve(q.format("2 Outlook"), lines, im) == []
    assert resolve(q.format("Executive Summary"), [line("CONFIDENTIAL", 600, 8, 10), *lines], im) == []


def test_the_judge_decides_a_tick_label_question_both_ways():
    im, lines = blank(), chart_lines()
    for q, answer in [
        ('Does the x-axis include the category label "Method D"?', "yes"),  # (digits: the look-alike check)
        ('Does the x-axis include the category label "Method E"?', "no"),
        # a short value not read, a near miss read: withheld by the judge's doubt (ocr_doubt), never "yes"
        ('Does the y-axis show a tick label "0.75"?', "withheld"),
    ]:
        spec = compile_question(q)
        assert page_resolvable(spec.vlm_parts)
        v = OCRJudge().judge_lines(lines, im.size, Check(id="c", question=q, spec=spec), im)
        assert v.answer == answer, (q, v.reason)
    # a place inside a picture stays a VLM part (a side of one is read since picture_locators:
    # test_picture_locators; "the large right page" of a spread at its seam: test_region_locators)
    assert not page_resolvable(["locator 'inside the lightbulb illustration'"])


def test_a_title_on_two_lines_above_all_other_content():
    im = blank()
    lines = [line("Quarterly results", 40, 30, 28), line("and outlook", 40, 66, 28), line("1 Market", 40, 140, 16)]
    q = 'Does the two-line title, above all other content, read exactly "Quarterly results" and "and outlook"?'
    assert resolve(q, lines, im) == ["locator 'above all other content'"]
    assert resolve(q, [line("DRAFT", 600, 10, 10), *lines], im) == []


def boxes(names_and_lines: list[tuple[str, str]]) -> tuple[Image.Image, list[Line]]:
    """Bordered boxes side by side, each with a name line over a body line."""
    im = blank(900, 300)
    d = ImageDraw.Draw(im)
    lines = []
    for k, (name, body) in enumerate(names_and_lines):
        x = 30 + 290 * k
        d.rectangle((x, 60, x + 270, 220), outline=(40, 40, 40), width=2)
        lines += [line(name, x + 20, 90, 16), line(body, x + 20, 150, 12)]
    return im, lines


def test_a_box_named_by_its_text_holds_the_string_in_its_smallest_frame():
    im, lines = boxes([("Step 1", "Extract the graph."), ("Step 2", "Find the query.")])
    q = "Does the {} box include the exact text '{}'?"
    assert resolve(q.format("Step 1", "Extract the graph."), lines, im) == ["locator 'Step 1 box'"]
    assert resolve(q.format("Step 2", "Extract the graph."), lines, im) == []
    # an outer frame around both boxes does not make "Step 2" hold the other box's text
    ImageDraw.Draw(im).rectangle((10, 20, 890, 280), outline=(40, 40, 40), width=2)
    assert resolve(q.format("Step 2", "Extract the graph."), lines, im) == []
    assert resolve(q.format("Step 1", "Extract the graph."), lines, im) == ["locator 'Step 1 box'"]
    # "In panel (a)" is no box named "In"
    assert not page_resolvable(["locator 'In the narrow product card'"])


def test_one_holder_of_several_strings_holds_them_all():
    im, lines = boxes([("Asia", "4600"), ("Africa", "1300")])
    q = "Is there a continent node labeled '{}' with '{}' as a two-line label?"
    assert resolve(q.format("Asia", "4600"), lines, im) == ["locator 'continent node'"]
    assert resolve(q.format("Asia", "1300"), lines, im) == []
    spec = compile_question(q.format("Asia", "4600"))
    assert page_resolvable(spec.vlm_parts, 2) and not page_resolvable(spec.vlm_parts, 1)
    # a holder with a claim (a place, an ordinal) is not generic: no rule reads it
    assert not page_resolvable(["locator 'leftmost collection card'"], 3)


def test_a_cell_of_the_header_row_is_a_cell_of_the_tables_first_row():
    im = blank(900, 400)
    rows = [["Problem", "Solver", "Result"], ["Knapsack", "Greedy", "0.91"], ["Routing", "Exact", "0.88"]]
    lines = [line(t, x, 150 + 42 * r) for r, row in enumerate(rows) for t, x in zip(row, [64, 282, 499])]
    q = "Does the first header row contain a cell labeled exactly '{}'?"
    assert resolve(q.format("Solver"), lines, im) == ["locator 'first header row'", "locator 'a cell'"]
    assert resolve(q.format("Greedy"), lines, im) == []  # a body cell
    assert resolve(q.format("Solver"), lines[:6], im) == []  # one body row: no table


def test_a_holder_labeled_with_a_string_holds_it_as_a_whole_line_includes_any_occurrence():
    im, lines = boxes([("Note: Asia (draft)", "4600"), ("Step 1", "Note: Extract the graph. (draft)")])
    q = "Is there a continent node labeled 'Asia' with '4600' as a two-line label?"
    assert compile_question(q).text.reads_whole and resolve(q, lines, im) == []
    q = "Does the Step 1 box include the exact text 'Extract the graph.'?"  # containment: inside a longer line
    assert not compile_question(q).text.reads_whole
    assert resolve(q, lines, im) == ["locator 'Step 1 box'"]
    assert resolve("Does the Step 1 box read exactly 'Extract the graph.'?", lines, im) == []


def test_the_nth_line_of_a_box_and_a_block_that_starts_with_a_string():
    im, lines = boxes([("Shareholders", "Team size: 3"), ("Board", "Team size: 5")])
    q = "Does the {} box include the second line “{}”?"
    assert resolve(q.format("Shareholders", "Team size: 3"), lines, im) == ["locator 'the second line'"]
    assert resolve(q.format("Shareholders", "Shareholders"), lines, im) == []  # the first line
    im = blank()
    note = [line("Legend note: circles mark", 40, 300), line("the 2013 share.", 40, 316)]
    q = 'Is there a legend note that begins with the exact snippet "{}"?'
    assert resolve(q.format("Legend note:"), note, im) == ["claim 'begins with'"]
    assert resolve(q.format("circles mark"), note, im) == []  # inside the line
    assert resolve(q.format("the 2013"), note, im) == []  # opens the block's second line
    q = 'Does the legend note end with "{}"?'
    assert resolve(q.format("2013 share."), note, im) == ["claim 'end with'"]
