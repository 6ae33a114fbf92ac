"""A tenth tester's seeded pages (``benchmarks/fresh10_pages.py``; issue 31): the drawer is
deterministic, and the offline judge's wrong verdicts found on them, each on the real page drawn by
the set's templates (matplotlib or Chromium) and judged by the real OCR judge, as strict xfails that
name the cause (these pages are held out: the library was not changed to fit them)."""

import shutil

import pytest

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


def draw(name: str, seed: int, path, texts: dict | None = None, browser=None):
    """Template ``name`` of the set drawn with the content of ``seed`` (and ``texts``: element id ->
    the string drawn instead, "" leaves it out) into ``path``: (image, element id -> box)."""
    from PIL import Image

    _, recs = tester_set.render(fresh10_pages.SET, name, seed, texts or {}, path, browser)
    return Image.open(path).convert("RGB"), {r["eid"]: r["box"] for r in recs}


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
    'Is the title "Northwind Airways" shown?',
    'Is the KPI card "Gate" showing "1"?',
    'Does the "Boarding" card show the value exactly "08:20"?',
    'Does the "Zone" card show the value exactly "08:20"?',
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
@pytest.mark.xfail(
    strict=True,
    reason="the title finder takes the largest type near the top for the title: on a boarding pass that is the "
    "route's airport codes in 44 px under the band ('ATH » VIE'), and the airline's name in 22 px white on the "
    "dark band above it is refuted ('the title reads ATH » VIE'; fresh10-boarding_pass-8, -17, both pages). A "
    "string read whole at the top of the page, on a band of its own, is the title or at least not refuted",
)
def test_a_title_on_a_dark_band_above_larger_route_codes_is_not_refuted(boarding):
    assert boarding[2] == "yes"  # a card value under its label is read
    assert boarding[0] != "no"


@needs_chromium
@needs_tesseract
@pytest.mark.xfail(
    strict=True,
    reason="six label/value pairs in a CSS grid with no card borders read as one KPI card: the card 'Gate' is "
    "credited with the Zone's value '1' two columns away ('every string read as the card'; fresh10-boarding_pass-8 "
    "and 'Flight' with the Boarding time '09:05' in -17: a false yes on both pages). A borderless card is its "
    "label and the value directly under it, not the row of values",
)
def test_a_borderless_card_does_not_take_a_neighbouring_cards_value(boarding):
    assert boarding[3] == "no"  # the Boarding time asked of the Zone card is refuted
    assert boarding[1] != "yes"


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
@pytest.mark.xfail(
    strict=True,
    reason="the items of a board's column are counted among every line below its heading (the tag 'Bug', the "
    "ticket number '#544', the initials, the other columns' titles): 'the 2nd list item reads Translate help "
    "centre to German / Migrate billing to new API / #544' and a correct ticket is refuted (fresh10-kanban-7, "
    "-16: 9 false no on dev). An item of a column is a line in the heading's column, in the body type, one per card",
)
def test_a_ticket_counted_in_its_board_column_is_not_refuted(kanban):
    assert kanban[3] == "no"  # the first card's title asked as the second stays refuted
    assert kanban[0] != "no" and kanban[1] != "no"


@needs_chromium
@needs_tesseract
@pytest.mark.xfail(
    strict=True,
    reason="the title and the sprint line set on its baseline to the right (15 px grey, 16 px apart) are read as "
    "one line 'Team Juniper sprint board | sprint 32, ends thursday', so the title is 'read only inside longer "
    "text' and refuted (fresh10-kanban-7, -16); a run of smaller, lighter type after the title's last word is "
    "another element, as a subtitle to the right of it",
)
def test_a_title_with_a_subtitle_on_its_baseline_is_not_refuted(kanban):
    assert kanban[2] != "no"


@needs_tesseract
@pytest.mark.xfail(
    strict=True,
    reason="tesseract reads the 12 px tick label '4 pm' (Liberation Sans, a 3 px space) as one word '4pm', and "
    "the judge compares spaces as letters: a correct tick is refuted ('reads 4pm, not 4 pm'; fresh10-heatmap-1, "
    "the editor then rewrites it). A read that differs from the string only by a space inside it is an OCR "
    "doubt, not a difference",
)
def test_a_tick_label_whose_narrow_space_ocr_drops_is_not_refuted(tmp_path):
    image, _ = draw("heatmap", 1, tmp_path / "heatmap.png")
    q = 'Is the fifth x-axis tick label from the left exactly "{}"?'
    answers = verdicts(image, [q.format("4 pm"), q.format("4 am")])
    assert answers[1] == "no"  # another string stays refuted
    assert answers[0] != "no"
