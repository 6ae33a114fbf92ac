"""A tenth tester's seeded pages (``benchmarks/fresh10_pages.py``; issue 31): the drawer is
deterministic, and the offline judge's wrong verdicts found on them, each on the real page drawn by
the set's templates (matplotlib or Chromium) and judged by the real OCR judge, each test naming the
cause and the general fix (judge11: the causes were fixed on the dev split's pages and measured once on
report; no page's string is in the library)."""

import shutil

import pytest
from fresh10_drawn import draw

from benchmarks import fresh10_pages, tester_set

needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")


def _truth(doc) -> tuple:
    """Everything a document's truth holds but its image paths: elements, defects, questions."""
    pages = tuple((v, tuple((e.id, e.role, e.text, e.box) for e in p.elements)) for v, p in doc.pages.items())
    return doc.id, doc.size, pages, tuple(doc.defects), tuple(doc.questions)


@needs_chromium
def test_the_drawer_is_deterministic(tmp_path):
    """The same seed draws the same strings, boxes, defects and questions, pixel for pixel, on a
    matplotlib page (seed 1, the heatmap) and a Chromium page (seed 4, the org chart)."""
    from documents.engines.browser import Browser

    ts = fresh10_pages.SET
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with Browser() as browser:
        a = [tester_set.make_doc(ts, s, "dev", tmp_path / "a", browser) for s in (1, 4)]
        b = [tester_set.make_doc(ts, s, "dev", tmp_path / "b", browser) for s in (1, 4)]
    assert [d.kind for d in a] == ["heatmap", "org_chart"]
    assert [_truth(d) for d in a] == [_truth(d) for d in b]
    for x, y in zip(a, b):
        for v in ("clean", "defect"):
            assert x.pages[v].image_path.read_bytes() == y.pages[v].image_path.read_bytes(), (x.id, v)
    assert len(a[0].pages["clean"].elements) >= 30 and len(a[0].questions) >= 8


def verdicts(image, questions: list[str]) -> list[str]:
    """The offline OCR judge's answers to ``questions`` on ``image``."""
    from rewards.judges.ocr import OCRJudge
    from rewards.rubric import Check
    from rewards.text.questions.question_compiler import compile_question

    checks = [Check(str(i), q, spec=compile_question(q)) for i, q in enumerate(questions)]
    return [v.answer for v in OCRJudge().judge([image], [""], [checks])[0]]


def html_page(name: str, seed: int, path):
    """A Chromium page of the set (see :func:`draw`)."""
    from documents.engines.browser import Browser

    with Browser() as browser:
        return draw(name, seed, path, browser=browser)


BOARDING = [
    'Is the KPI card "Gate" showing "1"?',
    'Does the "Boarding" card show the value exactly "08:20"?',
    'Does the "Zone" card show the value exactly "08:20"?',
    'Is the KPI card "Gate" showing "B34"?',
    'Is the title "Northwind Airways" shown?',
    'Is the title "BOARDING PASS" shown?',
]


@pytest.fixture(scope="module")
def boarding(tmp_path_factory) -> list[str]:
    """The judge's answers to ``BOARDING`` on fresh10-boarding_pass-8's clean page (1000x420, Helvetica
    = Liberation Sans): a dark band with the airline's name (22 px bold, white) over the route's
    airport codes in 44 px bold ("ATH ✈ VIE"), then six label/value pairs in a CSS grid with no
    card borders (labels 12 px grey, values 22 px bold: Flight, Date, Boarding, Gate, Seat, Zone)."""
    image, _ = html_page("boarding_pass", 8, tmp_path_factory.mktemp("boarding") / "page.png")
    return verdicts(image, BOARDING)


@needs_chromium
@needs_tesseract
def test_a_borderless_card_does_not_take_a_neighbouring_cards_value(boarding):
    """Six label/value pairs in a CSS grid with no card borders are found as one card: "the card
    'Gate' showing '1'" found both strings in it, the '1' being the Zone's two columns away (a false
    "yes"; fresh10-boarding_pass-8 and 'Flight' with the Boarding time in -17, -1007, -1016: 4 on dev,
    6 on report). Strings of one card in no common column or row, beside other words of a grid, are
    withheld (``card_grid.grid_apart``); the Gate's own value under it is still confirmed."""
    assert boarding[0] == "withheld"
    assert boarding[2] == "no"  # the Boarding time asked of the Zone card is refuted
    assert boarding[3] == "yes"


@needs_chromium
@needs_tesseract
def test_an_airline_name_over_the_route_is_not_refuted_as_the_title(boarding):
    """The title finder takes the page's largest line, the route's airport codes in 44 px: "the title
    reads 'ATH » VIE', which does not contain 'Northwind Airways'" refuted the airline's name in 22 px
    bold over it (fresh10-boarding_pass-8, -17: 4 false no on dev). A whole line in display type
    above the title found may be the title (``generic_roles.title_above``): withheld; the band's
    small "BOARDING PASS" is no display type and stays refuted."""
    assert boarding[4] == "withheld"
    assert boarding[5] == "no"


KANBAN = [
    'Is the second item under the "Backlog" heading exactly "Update privacy notice"?',
    'Is the second item under the "In progress" heading exactly "Fix login timeout on Safari"?',
    'Does the main title at the top of the page read exactly "Team Juniper sprint board"?',
    'Is the second item under the "Backlog" heading exactly "Migrate billing to new API"?',
]


@pytest.fixture(scope="module")
def kanban(tmp_path_factory) -> list[str]:
    """The judge's answers to ``KANBAN`` on fresh10-kanban-7's clean page (1200x380, 'Trebuchet MS' =
    DejaVu Sans): a title with the sprint line and a button on its baseline to the right, then four
    grey columns (Backlog, In progress, Review, Done, each with a count pill) of two white ticket
    cards; a card is a coloured tag ("Bug", 11 px white), the ticket's title (15 px), and a row with
    its number ("#544") and the assignee's initials in a dark disc."""
    image, _ = html_page("kanban", 7, tmp_path_factory.mktemp("kanban") / "page.png")
    return verdicts(image, KANBAN)


@needs_chromium
@needs_tesseract
def test_a_ticket_counted_in_its_board_column_is_not_refuted(kanban):
    """The items of a board's column were counted among every line below its heading (the tag
    'Bug', the ticket number '#544', the initials): 'the 2nd list item reads Translate help centre
    to German / Migrate billing to new API / #544' and a correct ticket was refuted (fresh10-kanban-7,
    -16: 10 false no on dev). A column of like cards is a list, each card's item the top line in its
    largest type (``card_lists``): the ticket's title is confirmed, one asked out of place refuted."""
    assert kanban[3] == "no"  # a title of no Backlog card asked as its second stays refuted
    assert kanban[0] == "yes" and kanban[1] == "yes"


@needs_chromium
@needs_tesseract
def test_a_title_with_a_subtitle_on_its_baseline_is_not_refuted(kanban):
    """The title and the sprint line set on its baseline to the right (15 px grey, 16 px apart) are
    read as one line 'Team Juniper sprint board | sprint 32, ends thursday', so the title was 'read
    only inside longer text' and refuted (fresh10-kanban-7, -16: 3 false no on dev). The words after
    a drop in type size that ends the line are not the title's (``page_lines.larger_lead``)."""
    assert kanban[2] == "yes"


@needs_tesseract
def test_a_heatmap_cell_under_its_column_tick_is_not_refuted(tmp_path):
    """An annotated heatmap's cells are a grid of numbers with no table rules, its column labels the
    x ticks under the grid: "the '6 pm' cell" was sought within reach of the tick only, and a cell
    read right was refuted ('93 read, but not context 6 pm, same_row Tuesday'; fresh10-heatmap-1,
    -10: 3 false no on dev). A number in the tick's column with only numbers read between them
    (``relations.down_number_column``) is reached, and the cell is typed where its row label's row
    crosses its column label's column, the label under the grid (``finders._table_cell``; judge12:
    it was withheld, no table found to type it): confirmed, while the same number asked of another
    row's cell stays refuted."""
    image, _ = draw("heatmap", 1, tmp_path / "heatmap.png")
    q = "In the '{}' row, does the '{}' cell read exactly \"{}\"?"
    tick = 'Is the fifth x-axis tick label from the left exactly "{}"?'
    asked = [q.format("Tuesday", "6 pm", "39"), q.format("Tuesday", "6 pm", "93"), q.format("Monday", "6 pm", "93")]
    answers = verdicts(image, asked + [tick.format("4 pm"), tick.format("4 am")])
    assert answers[0] == "no"  # a number on no cell of the page stays refuted
    assert answers[1] == "yes"
    assert answers[2] == "no"  # 93 is Tuesday's, not Monday's
    # the tick "4 pm" is read "4pm": spaces alone are no refutation (``OCRJudge._reads_otherwise``)
    assert answers[3] == "withheld" and answers[4] == "no"


@needs_chromium
@needs_tesseract
def test_an_accordion_question_read_whole_is_not_refuted_as_a_heading(tmp_path):
    """An FAQ accordion's questions are bold 17 px rows, each in its own bordered box (one open over
    a 15 px answer), no larger than the page's body type: the heading finder found only the 30 px
    page title and refuted every question read whole ('the heading reads Frequently asked
    questions'; fresh10-faq-14, -5: 5 false no on dev). A bold line with two or more bold lines of
    its size at its left edge was withheld (``generic_roles.bold_series``); since judge13 the bold
    lines at a found bold heading's edge (the open question over its answer) are headings
    (``heading_series``): "yes". A question not on the page, and a button's label, stay refuted. On
    fresh10-faq-5 the bold "I" of "How do I add a team member?" is read "!" and joined to "do"
    ("How do! add"): withheld as a look-alike, now read "I" from its ink (``bar_glyphs``): "yes"."""
    image, _ = html_page("faq", 14, tmp_path / "faq.png")
    q = 'Is there a section heading that reads exactly "{}"?'
    asked = ["How do I add a team member?", "Which payment methods do you accept?", "Is my data stored securely?"]
    answers = verdicts(image, [q.format(t) for t in asked + ["Open a ticket"]])
    assert answers == ["no", "yes", "yes", "no"]  # the first is on no row of this page
    image, _ = html_page("faq", 5, tmp_path / "faq5.png")
    assert verdicts(image, [q.format("How do I add a team member?")]) == ["yes"]


@needs_tesseract
def test_a_line_legend_entry_with_its_handle_read_short_is_found(tmp_path):
    """A line legend's handle (a dark stroke with a round marker) is read "—e", its right stroke lost,
    in front of "Visitors": the entry was not found and "the legend entry reads 'Memberships sold'"
    refuted it (fresh10-dual_axis-11: 2 false no on dev). A dash and a marker glyph is a handle too
    (``page_lines._HANDLE``): the entry is confirmed, a tick label asked as one stays refuted."""
    image, _ = draw("dual_axis", 11, tmp_path / "dual.png")
    q = 'Does the legend include the label "{}"?'
    assert verdicts(image, [q.format("Visitors"), q.format("May")]) == ["yes", "no"]


@needs_chromium
@needs_tesseract
def test_a_name_atop_an_org_chart_card_is_a_heading(tmp_path):
    """An org chart's cards hold a bold name (16 px) over the role (12 px); the heading finder
    measured the name against every line within six of its heights under it: the connectors read as
    letters with no confidence ("CT", 51 px) and the next row's bold name, so "Noor Siddiqui" was
    no heading and refuted (fresh10-org_chart-13: 2 false no on dev). The body is the run of lines
    right under the line (``finders._run_under``) read with confidence (``NOISE_CONF``): the name
    is confirmed, the role under it stays refuted as a heading."""
    image, _ = html_page("org_chart", 13, tmp_path / "org.png")
    q = 'Is there a section heading that reads exactly "{}"?'
    assert verdicts(image, [q.format("Noor Siddiqui"), q.format("Head of Sales")]) == ["yes", "no"]
