"""Rotated text (axis titles, vertical tags) read at 90 and 270 degrees (rewards.text.ocr.ocr_read)."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check, TextExpectation
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.rotated import find_rotated_text
from rewards.text.questions.question_compiler import compile_question

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
LEFT_TITLE, RIGHT_TITLE = "Users (thousands)", "Conversion rate (%)"


def rotated_text(page: Image.Image, text: str, angle: int, at: tuple[int, int], size: int = 16):
    """Paste ``text`` turned by ``angle`` degrees counter-clockwise with its top-left corner at
    ``at``; returns the pasted box (x0, y0, x1, y1)."""
    fnt = ImageFont.truetype(DEJAVU + "DejaVuSans.ttf", size)
    x0, y0, x1, y1 = ImageDraw.Draw(page).textbbox((0, 0), text, font=fnt)
    tile = Image.new("RGB", (x1 + 4, y1 + 4), (255, 255, 255))
    ImageDraw.Draw(tile).text((2, 2), text, font=fnt, fill=(30, 30, 30))
    tile = tile.rotate(angle, expand=True)
    page.paste(tile, at)
    return (at[0], at[1], at[0] + tile.width, at[1] + tile.height)


def chart() -> tuple[Image.Image, tuple, tuple]:
    """A bar chart: title, tick labels, month labels, the left axis title printed bottom to top
    (90 degrees) and the right axis title top to bottom (270 degrees)."""
    im = Image.new("RGB", (680, 420), (255, 255, 255))
    d = ImageDraw.Draw(im)
    small = ImageFont.truetype(DEJAVU + "DejaVuSans.ttf", 13)
    d.text((190, 12), "Monthly active users, 2024", font=ImageFont.truetype(DEJAVU + "DejaVuSans-Bold.ttf", 20), fill=0)
    x0, y0, x1, y1 = 90, 50, 590, 360
    d.line((x0, y0, x0, y1), fill=(60, 60, 60), width=2)
    d.line((x0, y1, x1, y1), fill=(60, 60, 60), width=2)
    d.line((x1, y0, x1, y1), fill=(60, 60, 60), width=2)
    for i in range(6):
        d.text((x0 - 28, y1 - i * 55 - 8), str(10 * i), font=small, fill=(60, 60, 60))
        d.text((x1 + 8, y1 - i * 55 - 8), f"{20 * i}", font=small, fill=(60, 60, 60))
    for i, month in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun"]):
        x = x0 + 40 + i * 80
        d.rectangle((x, y1 - 40 - i * 40, x + 45, y1 - 1), fill=(70, 120, 200))
        d.text((x + 8, y1 + 8), month, font=small, fill=(60, 60, 60))
    d.text((310, 390), "Month", font=ImageFont.truetype(DEJAVU + "DejaVuSans.ttf", 15), fill=(30, 30, 30))
    left = rotated_text(im, LEFT_TITLE, 90, (20, 130))
    right = rotated_text(im, RIGHT_TITLE, 270, (640, 125))
    return im, left, right


def plain_slide() -> Image.Image:
    """A slide without rotated text: a title, bullets and a narrow column of stacked numbers."""
    im = Image.new("RGB", (640, 400), (250, 250, 247))
    d = ImageDraw.Draw(im)
    d.text((40, 24), "Quarterly review", font=ImageFont.truetype(DEJAVU + "DejaVuSans-Bold.ttf", 30), fill=(20, 30, 60))
    body = ImageFont.truetype(DEJAVU + "DejaVuSans.ttf", 16)
    for i, text in enumerate(["Revenue grew in every region", "Churn fell to 2.1%", "Two new offices opened"]):
        d.ellipse((44, 100 + 36 * i, 52, 108 + 36 * i), fill=(20, 30, 60))
        d.text((64, 94 + 36 * i), text, font=body, fill=(40, 40, 40))
    for i, value in enumerate(["12", "15", "18", "21", "24", "27", "30"]):  # tall and thin, but horizontal
        d.text((520, 100 + 18 * i), value, font=body, fill=(40, 40, 40))
    return im


@pytest.fixture(scope="module")
def read_chart():
    im, left, right = chart()
    return im, left, right, ocr_lines(im)


def inside(box, outer, slack=2):
    return (
        outer[0] - slack <= box[0] < box[2] <= outer[2] + slack
        and outer[1] - slack <= box[1] < box[3] <= outer[3] + slack
    )


def test_a_title_printed_bottom_to_top_is_read_at_90_degrees(read_chart):
    im, left, _, lines = read_chart
    [line] = [ln for ln in lines if ln.text == LEFT_TITLE]
    assert line.angle == 90
    assert inside(line.box, left)
    assert line.box[3] - line.box[1] >= 0.8 * (left[3] - left[1])  # the whole column, not one word
    users, thousands = line.words
    assert users.box[1] > thousands.box[3]  # reading order: "Users" is the lower word
    assert all(w.box[3] - w.box[1] > w.box[2] - w.box[0] for w in line.words)  # boxes of the unrotated image


def test_a_title_printed_top_to_bottom_is_read_at_270_degrees(read_chart):
    im, _, right, lines = read_chart
    [line] = [ln for ln in lines if ln.text == RIGHT_TITLE]
    assert line.angle == 270
    assert inside(line.box, right)
    assert line.words[0].text == "Conversion" and line.words[0].box[3] < line.words[1].box[1]


def test_no_horizontal_fragments_are_left_inside_a_rotated_column(read_chart):
    _, left, right, lines = read_chart
    for ln in lines:
        if ln.angle == 0:
            for w in ln.words:
                cx, cy = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
                assert not (left[0] <= cx < left[2] and left[1] <= cy < left[3]), ln.text
                assert not (right[0] <= cx < right[2] and right[1] <= cy < right[3]), ln.text
    texts = [ln.text for ln in lines]
    assert texts.count(LEFT_TITLE) == 1 and texts.count(RIGHT_TITLE) == 1
    assert {"Jan", "Jun", "Month", "Monthly active users, 2024"} <= set(texts)  # horizontal text still read


def test_without_the_rotated_pass_the_titles_are_not_read():
    im, _, _ = chart()
    texts = " | ".join(ln.text for ln in ocr_lines(im, rotated=False))
    assert LEFT_TITLE not in texts and RIGHT_TITLE not in texts


def test_the_judge_finds_a_rotated_axis_title(read_chart):
    im, _, _, lines = read_chart
    judge = OCRJudge()
    found = judge.judge_lines(lines, im.size, Check("1", "q", expects=(TextExpectation(LEFT_TITLE),)))
    missing = judge.judge_lines(lines, im.size, Check("2", "q", expects=(TextExpectation("Users (millions)"),)))
    assert found.answer == "yes" and missing.answer == "no"


def test_the_judge_answers_a_y_axis_question_from_the_rotated_title(read_chart):
    im, _, _, lines = read_chart
    judge = OCRJudge()
    for wanted, answer in ((LEFT_TITLE, "yes"), ("Users (millions)", "no")):
        q = f"Is the y-axis labeled exactly '{wanted}'?"
        assert judge.judge_lines(lines, im.size, Check("1", q, spec=compile_question(q)), im).answer == answer


def test_a_page_without_rotated_text_gives_no_rotated_line():
    im = plain_slide()
    lines = ocr_lines(im)
    assert [ln.text for ln in lines if ln.angle] == []
    assert "Quarterly review" in [ln.text for ln in lines] and "18" in [ln.text for ln in lines]


def test_light_text_on_a_vertical_ribbon_is_read_rotated():
    im = Image.new("RGB", (600, 360), (250, 250, 247))
    d = ImageDraw.Draw(im)
    d.text((120, 40), "Summer collection", font=ImageFont.truetype(DEJAVU + "DejaVuSans-Bold.ttf", 30), fill=0)
    fnt = ImageFont.truetype(DEJAVU + "DejaVuSans-Bold.ttf", 18)
    x0, y0, x1, y1 = d.textbbox((0, 0), "LIMITED OFFER", font=fnt)
    ribbon = Image.new("RGB", (x1 + 24, y1 + 16), (180, 30, 40))
    ImageDraw.Draw(ribbon).text((12, 6), "LIMITED OFFER", font=fnt, fill=(255, 255, 255))
    ribbon = ribbon.rotate(270, expand=True)
    im.paste(ribbon, (30, 60))
    lines = ocr_lines(im)
    [line] = [ln for ln in lines if ln.angle]
    assert line.text == "LIMITED OFFER" and line.angle == 270
    assert inside(line.box, (30, 60, 30 + ribbon.width, 60 + ribbon.height))
    assert [ln.text for ln in lines if not ln.angle] == ["Summer collection"]  # the fill pass's fragments are gone


def test_a_column_of_letters_is_found_and_stacked_horizontal_text_is_not():
    im, left, right = chart()
    boxes = [c.box for c in find_rotated_text(im, [])]
    assert len(boxes) == 2 and all(any(inside(b, t, slack=4) for b in boxes) for t in (left, right))
    assert find_rotated_text(plain_slide(), []) == []  # letters of stacked lines have ink beside them
    ranks = Image.new("RGB", (300, 300), (250, 250, 247))
    fnt = ImageFont.truetype(DEJAVU + "DejaVuSans.ttf", 16)
    for i in range(7):
        ImageDraw.Draw(ranks).text((120, 40 + 18 * i), str(i + 1), font=fnt, fill=(40, 40, 40))
    assert len(find_rotated_text(ranks, [])) == 1  # one digit per line: a tall thin column ...
    read = [(120, 43 + 18 * i, 130, 55 + 18 * i) for i in range(7)]  # ... that the page passes read
    assert find_rotated_text(ranks, read) == []
