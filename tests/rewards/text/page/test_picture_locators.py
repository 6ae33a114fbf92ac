"""Rule "beside a picture" (issue 31, the BizGenEval dev half's "the label below the RGB inset", "the
heading to the left of the stretching person illustration"): the phrase read
(``picture_locators.PICTURE_SIDE``) and the verdict both ways on drawn pages whose OCR lines are
given (no tesseract), as ``test_object_locators``."""

import pytest
from pages import ocr_line
from PIL import Image, ImageDraw

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.page.locators import page_resolvable
from rewards.text.page.picture_locators import is_picture
from rewards.text.questions.question_compiler import compile_question

BG = (252, 250, 244)


def bulb(d, x, y):
    """A drawn lightbulb 90 px wide, 130 px tall from (x, y): a yellow globe, a gray base, rays."""
    d.ellipse((x + 10, y + 10, x + 80, y + 80), fill=(240, 200, 40), outline=(120, 90, 10), width=3)
    d.rectangle((x + 30, y + 80, x + 60, y + 120), fill=(110, 110, 120))
    for k in range(3):
        d.line((x + 30, y + 90 + 10 * k, x + 60, y + 90 + 10 * k), fill=(60, 60, 60), width=2)


def text(d, lines, s, x, y, h=18):
    """An ink bar for ``s`` at (x, y), its OCR line added to ``lines``."""
    ln = ocr_line(s, x, y, h)
    for w in ln.words:
        d.rectangle((w.box[0], w.box[1] + 4, w.box[2], w.box[3] - 4), fill=(20, 20, 20))
    lines.append(ln)


def page(caption_at=(300, 260), flat=False, between=None, h=18):
    """A page with a lightbulb at (300, 100) (or a flat blue rectangle of its size: ``flat``), the
    caption "Bright idea" at ``caption_at``, a page title, a filler line; ``between``: a line of
    text drawn at that (x, y)."""
    im = Image.new("RGB", (900, 600), BG)
    d = ImageDraw.Draw(im)
    lines = []
    text(d, lines, "Five steps to launch", 40, 20, 34)
    if flat:
        d.rectangle((300, 110, 390, 230), fill=(40, 90, 180))
    else:
        bulb(d, 300, 100)
    text(d, lines, "Bright idea", *caption_at, h)
    text(d, lines, "Figures are preliminary", 40, 540)
    if between:
        text(d, lines, "Step one", *between)
    return im, lines


def verdict(question, im, lines):
    spec = compile_question(question)
    return OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im).answer


BELOW = "Does the caption directly below the lightbulb illustration read exactly 'Bright idea'?"
ABOVE = "Does the caption directly above the lightbulb illustration read exactly 'Bright idea'?"
RIGHT = "Does the label to the right of the lightbulb illustration read exactly 'Bright idea'?"
NEXT = "Does the label next to the brain icon read exactly 'Bright idea'?"
LEFT = "Does the label to the left of the lightbulb illustration read exactly 'Bright idea'?"


def test_the_phrase_is_read_and_others_are_not():
    assert is_picture("locator 'directly below the RGB inset'")
    assert is_picture("locator 'positioned above the circular illustration of a first-aid kit and bottle'")
    assert is_picture("locator 'positioned to the right of the person holding items'")
    assert is_picture("locator 'to the left of the stretching person illustration'")
    assert not is_picture("locator 'to the right of the logo text'")  # its head is text: no picture
    assert not is_picture("locator 'above the Pfizer logo and source line'")
    assert not is_picture("locator 'inside the triangular icon'")  # inside: a container, not a side
    assert not is_picture("locator 'beneath the eleventh bottle'")  # one picture among several: ranked
    assert not is_picture("locator 'directly below the left map-style graphic'")
    spec = compile_question(BELOW)
    assert page_resolvable(spec.vlm_parts, len(spec.text.texts))


@pytest.mark.parametrize(
    "question, at, answer",
    [
        (BELOW, (300, 250), "yes"),  # 20 px under the bulb's base (at 220 px)
        (ABOVE, (300, 250), "withheld"),  # the caption is under it, not over it
        (BELOW, (300, 330), "withheld"),  # 110 px (six line heights) under it: not directly below
        (BELOW, (600, 250), "withheld"),  # below the bulb's row, but beside it, not under it
        (ABOVE, (300, 70), "yes"),
        (RIGHT, (410, 150), "yes"),
        (LEFT, (410, 150), "withheld"),
        (LEFT, (150, 150), "yes"),
        (NEXT, (410, 150), "yes"),
        (NEXT, (150, 150), "yes"),
        (NEXT, (300, 250), "withheld"),  # under it: not beside it
    ],
)
def test_the_string_on_the_named_side_of_the_picture(question, at, answer):
    im, lines = page(at)
    assert verdict(question, im, lines) == answer


def test_a_ranked_picture_is_not_read():
    im, lines = page((300, 250))
    q = "Does the caption directly below the second lightbulb illustration read exactly 'Bright idea'?"
    assert verdict(q, im, lines) == "withheld"  # which bulb is the second: not measured


def test_a_flat_fill_is_no_picture():
    im, lines = page((300, 250), flat=True)
    assert verdict(BELOW, im, lines) == "withheld"  # a card's or band's flat colour: a container, not a picture


def test_text_between_them_breaks_the_adjacency():
    im, lines = page((300, 262), between=(300, 232))
    assert verdict(BELOW, im, lines) == "withheld"  # "Step one" stands between the bulb and the caption


def test_the_no_comes_from_the_text_part():
    im, lines = page((300, 250))
    assert verdict(BELOW.replace("Bright idea", "Bright ideas"), im, lines) == "no"
    assert verdict(ABOVE.replace("Bright idea", "Dim idea"), im, lines) == "no"  # read nowhere: no


def test_a_string_on_a_card_beside_a_picture():
    """The string's background is the card's fill, not the page's: the card is no ink around it,
    the picture on the card is."""
    im, lines = page((300, 250))
    d = ImageDraw.Draw(im)
    d.rectangle((270, 80, 480, 300), fill=(225, 235, 250))
    bulb(d, 300, 100)
    lines = [ln for ln in lines if ln.text != "Bright idea"]
    text(d, lines, "Bright idea", 300, 250)
    assert verdict(BELOW, im, lines) == "yes"


def test_two_caption_lines_read_as_one_block_below_the_picture():
    im, lines = page((300, 250))
    d = ImageDraw.Draw(im)
    text(d, lines, "Launch in May", 300, 274)
    q = (
        "Do the two caption lines directly below the lightbulb illustration read exactly 'Bright idea' and "
        "'Launch in May'?"
    )
    assert verdict(q, im, lines) == "yes"
    im, lines = page((300, 250))
    text(ImageDraw.Draw(im), lines, "Launch in May", 620, 274)  # the second line away from the caption's block
    assert verdict(q, im, lines) == "withheld"


def test_a_picture_tesseract_reads_as_a_mark_is_still_a_picture():
    """tesseract reads a drawing as a line of marks ("." over its box): no letter, no text."""
    from rewards.text.ocr.text_match import Line, Word

    im, lines = page((300, 250))
    lines.append(Line((Word(".", (300, 100, 390, 220), 30.0),)))
    assert verdict(BELOW, im, lines) == "yes"
    lines[-1] = Line((Word("py", (300, 170, 390, 222), 15.0),))  # letters, but 52 px tall and doubted
    assert verdict(BELOW, im, lines) == "yes"
    lines[-1] = Line((Word("py", (300, 170, 390, 222), 90.0),))  # read with confidence: text over the bulb's foot
    assert verdict(BELOW, im, lines) == "withheld"  # what is drawn left (100-170 px) is too far over the caption


def test_a_pale_panel_is_part_of_the_picture():
    """An illustration on a pale panel (sky blue on white, 48 levels off) is one blob with what is
    drawn on it: the heading beside the panel is beside the picture."""
    im = Image.new("RGB", (900, 600), (255, 255, 255))
    d = ImageDraw.Draw(im)
    lines = []
    d.rectangle((500, 100, 660, 220), fill=(207, 232, 251))
    d.ellipse((610, 110, 646, 146), fill=(244, 196, 48))  # a sun at the panel's top right
    d.polygon([(500, 220), (560, 180), (660, 200), (660, 220)], fill=(76, 175, 80))  # a hill at its foot
    text(d, lines, "Bright idea", 300, 110)
    text(d, lines, "Five steps to launch", 40, 20, 34)
    assert verdict(LEFT, im, lines) == "yes"  # 83 px (4.6 line heights) left of the panel, level with its top


def test_a_two_line_heading_is_measured_by_its_lines():
    """The picture must be 1.5 line heights tall, not 1.5 heights of the two-line block beside it."""
    im, lines = page((410, 110), h=36)
    text(ImageDraw.Draw(im), lines, "Go today", 410, 152, 36)
    q = "Does the heading to the right of the lightbulb illustration read exactly 'Bright idea' and 'Go today'?"
    assert verdict(q.replace("heading", "label"), im, lines) == "yes"  # a 111 px bulb, a 78 px block of 36 px lines
