"""Slanted text OCR does not read (rewards.text.ocr.slanted) and the "no" it withholds
(rewards.judges.ocr_doubt rule 4b): a tester's chart whose x tick labels were turned by 45 degrees
("2025 Q2" was a false "no"). Pages drawn here; OCR lines made by hand, no tesseract run."""

from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.slanted import slanted_runs
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LABELS = ("2024 Q3", "2024 Q4", "2025 Q1", "2025 Q2")


def chart(angle: int) -> tuple[Image.Image, list[Line]]:
    """900x500: a title OCR read, an axis line, and four tick labels turned by ``angle`` degrees
    (their OCR: nothing, or low-confidence guesses such as tesseract makes)."""
    img = Image.new("RGB", (900, 500), "white")
    d = ImageDraw.Draw(img)
    d.text((300, 20), "Quarterly Revenue", font=ImageFont.truetype(SANS, 30), fill="black")
    d.line([(60, 380), (860, 380)], fill="black", width=2)
    for k, label in enumerate(LABELS):
        tile = Image.new("L", (120, 30), 0)
        ImageDraw.Draw(tile).text((2, 4), label, font=ImageFont.truetype(SANS, 16), fill=255)
        tile = tile.rotate(angle, expand=True, resample=Image.BICUBIC)
        img.paste(Image.new("RGB", tile.size, "black"), (120 + 180 * k, 392), tile)
    title = Line((Word("Quarterly", (300, 26, 440, 56), 96.0), Word("Revenue", (452, 26, 580, 56), 96.0)))
    guesses = [Line((Word("ov", (150 + 180 * k, 420, 170 + 180 * k, 440), 31.0),)) for k in range(4)]
    return img, [title, *guesses]


def ask(question: str, img: Image.Image, lines: list[Line]) -> str:
    check = Check("1", question, spec=compile_question(question))
    return OCRJudge().judge_lines(lines, img.size, check, img)


def test_slanted_tick_labels_are_found_and_a_string_not_read_is_withheld():
    img, lines = chart(45)
    runs = slanted_runs(img, lines)
    assert len(runs) == 4 and all(380 < r[1] < r[3] < 500 for r in runs)
    v = ask('Is the x tick label "2025 Q2" shown?', img, lines)
    assert v.answer == "withheld" and "slanted text OCR does not read" in v.reason
    assert ask('Is the chart title "Quarterly Revenue"?', img, lines).answer == "yes"


def test_without_slanted_text_a_string_not_read_stays_no():
    img, lines = chart(0)  # upright labels (here left unread: the hand-made OCR has none of them)
    assert slanted_runs(img, lines) == []
    assert ask('Is the x tick label "2025 Q2" shown?', img, lines).answer == "no"
    # the cost: on a page with slanted text, a string absent and nothing like it read is withheld too
    assert ask('Is the chart subtitle "Revenue by region"?', *chart(45)).answer == "withheld"


def test_runs_are_searched_once_per_page_and_read(monkeypatch):
    """The judge asks for every unread string of a page: the same pixels and read are searched once;
    another read of them (words over the labels, read for sure) is searched again."""
    from rewards.text.ocr import slanted

    searched = []
    search = slanted._search
    monkeypatch.setattr(slanted, "_search", lambda img, lines: searched.append(1) or search(img, lines))
    img, lines = chart(45)
    first = slanted_runs(img, lines)
    assert slanted_runs(img.copy(), list(lines)) == first and len(searched) == 1
    # the same words over each label, now read for sure: the labels count as read
    sure = [lines[0], *(Line((Word("ov", (110 + 180 * k, 390, 260 + 180 * k, 499), 99.0),)) for k in range(4))]
    assert len(first) == 4 and slanted_runs(img, sure) == [] and len(searched) == 2
    assert slanted_runs(img, lines) == first and len(searched) == 2
