"""The locator rule of an element named by how it looks ("the bold section label", "the gray source
line", "the centered subtitle"; issue 31, dev half): real DejaVu text drawn with PIL, whose OCR
lines are the drawn words' boxes (no tesseract)."""

from PIL import Image, ImageDraw, ImageFont

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.page.locators import page_resolvable, resolve_locators
from rewards.text.page.styled_locators import admits_styled
from rewards.text.questions.question_compiler import compile_question

FONTS = "/usr/share/fonts/truetype/dejavu/"


def draw(d: ImageDraw.ImageDraw, text: str, x: int, y: int, px: int = 28, bold=False, fill=(20, 20, 20)) -> Line:
    """Draw ``text`` at (x, y) and return its OCR line: one word per space-separated token, boxed
    by the font's own bounding box."""
    font = ImageFont.truetype(FONTS + ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), px)
    d.text((x, y), text, font=font, fill=fill)
    words, cx = [], x
    for t in text.split(" "):
        b = font.getbbox(t)
        words.append(Word(t, (cx + b[0], y + b[1], cx + b[2], y + b[3]), 95.0))
        cx += round(font.getlength(t + " "))
    return Line(tuple(words))


def middle(text: str, px: int = 24) -> int:
    """Half the drawn width of ``text`` in DejaVu Sans at ``px``."""
    return round(ImageFont.truetype(FONTS + "DejaVuSans.ttf", px).getlength(text) / 2)


def verdict(question: str, lines: list[Line], im: Image.Image) -> tuple[str, list[str]]:
    spec = compile_question(question)
    resolved = resolve_locators(list(spec.vlm_parts), spec.text, lines, im, im.size)[0]
    v = OCRJudge().judge_lines(lines, im.size, Check(id="c", question=question, spec=spec), im)
    return v.answer, resolved


def section_labels() -> tuple[Image.Image, list[Line]]:
    """A page of a title and two section labels, "PREPARE" bold and "SURVIVE" regular, each over a line of body text."""
    im = Image.new("RGB", (900, 600), (250, 250, 250))
    d = ImageDraw.Draw(im)
    lines = [draw(d, "Emergency guide", 40, 30, 40, bold=True)]
    lines += [draw(d, "PREPARE", 60, 150, bold=True), draw(d, "Stock water and food for three days", 60, 200, 20)]
    lines += [draw(d, "SURVIVE", 60, 330), draw(d, "Stay indoors and listen to the radio", 60, 380, 20)]
    return im, lines


def test_a_bold_label_is_resolved_only_when_its_strokes_measure_bold():
    im, lines = section_labels()
    q = "Does the bold section label read exactly: '{}'?"
    assert page_resolvable(list(compile_question(q.format("PREPARE")).vlm_parts))
    assert verdict(q.format("PREPARE"), lines, im) == ("yes", ["locator 'bold section label'"])
    # read, but its strokes are regular: not the element named, and no claim to fix: withheld
    assert verdict(q.format("SURVIVE"), lines, im) == ("withheld", [])
    # not on the page at all: "no", as for any located string
    assert verdict(q.format("RECOVER"), lines, im)[0] == "no"
    # inside a longer line it is no label of its own
    assert verdict("Does the bold section label read exactly: 'water'?", lines, im)[0] != "yes"


def panels(source_fill=(128, 128, 128), centre=True) -> tuple[Image.Image, list[Line]]:
    """Panels (a) and (b) side by side, bordered; in each a subtitle (centred in its panel, or at
    its left edge) and a source line in ``source_fill``."""
    im = Image.new("RGB", (1000, 520), (255, 255, 255))
    d = ImageDraw.Draw(im)
    lines = []
    for k, (sub, src) in enumerate([("Model A", "Source: Street Scenes"), ("Model B", "Source: Mixed Visual")]):
        x0 = 30 + 480 * k
        d.rectangle((x0, 40, x0 + 440, 480), outline=(40, 40, 40), width=2)
        lines.append(draw(d, f"({'ab'[k]}) Results", x0 + 20, 60, 22))
        w = round(ImageFont.truetype(FONTS + "DejaVuSans.ttf", 24).getlength(sub))
        lines.append(draw(d, sub, x0 + 220 - w // 2 if centre else x0 + 20, 140, 24))
        lines.append(draw(d, src, x0 + 20, 420, 18, fill=source_fill))
    return im, lines


def test_a_gray_source_line_is_read_in_gray_ink_and_its_own_style_part_with_it():
    q = "Does panel (a) display the gray source line exactly 'Source: Street Scenes'?"
    parts = compile_question(q).vlm_parts
    assert "style 'gray'" in parts and "locator 'panel (a)'" in parts and page_resolvable(list(parts))
    im, lines = panels()
    answer, resolved = verdict(q, lines, im)
    assert answer == "yes" and set(resolved) == set(parts)
    im, lines = panels(source_fill=(20, 20, 20))  # black ink: not the gray line named
    assert verdict(q, lines, im)[0] == "withheld"
    im, lines = panels(source_fill=(30, 70, 190))  # blue ink
    assert verdict(q, lines, im)[0] == "withheld"


def test_a_centred_subtitle_is_centred_in_its_panel_not_on_the_page():
    q = "Does panel ({}) display the centered subtitle exactly '{}'?"
    im, lines = panels()
    assert verdict(q.format("a", "Model A"), lines, im)[0] == "yes"  # centred in panel (a), left of the page's middle
    assert verdict(q.format("b", "Model B"), lines, im)[0] == "yes"
    assert verdict(q.format("b", "Model A"), lines, im)[0] == "withheld"  # panel (a)'s subtitle
    im, lines = panels(centre=False)  # at the panel's left edge
    assert verdict(q.format("a", "Model A"), lines, im)[0] == "withheld"


def test_a_badge_hugging_the_text_is_no_container_to_be_centred_in_but_a_full_panel_is():
    im = Image.new("RGB", (900, 500), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((40, 40, 170, 90), radius=20, fill=(30, 90, 160))  # a pill at the page's left
    lines = [draw(d, "NEW", 75, 50, 24, fill=(255, 255, 255))]
    d.rectangle((300, 150, 640, 450), outline=(40, 40, 40), width=2)  # a panel the subtitle nearly fills
    lines.append(draw(d, "Language-only In-context", 470 - middle("Language-only In-context"), 200, 24))
    q = "Does the centered label read exactly '{}'?"
    assert verdict(q.format("NEW"), lines, im)[1] == []  # centred in its pill only
    assert verdict(q.format("Language-only In-context"), lines, im)[1] == ["locator 'centered label'"]


def test_phrases_the_rule_refuses_before_the_page_is_seen():
    assert admits_styled("locator 'centered subtitle'", 1) and admits_styled("locator 'the dark blue label'", 1)
    assert not admits_styled("locator 'magenta callout'", 1)  # a holder: its colour is a fill's
    assert not admits_styled("locator 'the bold left label'", 1)  # a place claim no rule checks
    assert not admits_styled("locator 'red and blue label'", 1)
    assert not admits_styled("locator 'the green red label'", 1)  # two colours
    assert not admits_styled("locator 'large word'", 1)  # size: no adjective of this rule


def test_the_nth_line_said_with_on():
    im = Image.new("RGB", (800, 400), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.rectangle((40, 40, 500, 260), outline=(40, 40, 40), width=2)
    lines = [draw(d, "Figure 1", 60, 60, 24), draw(d, "Overview of the method", 60, 110, 20)]
    q = "Does the header box show the text '{}' on the {} line?"
    assert verdict(q.format("Figure 1", "first"), lines, im)[1] == ["locator 'on the first line'"]
    assert verdict(q.format("Figure 1", "second"), lines, im)[1] == []


def test_a_wrapped_block_is_centred_only_when_each_of_its_lines_is():
    q = "Does the centered subtitle read exactly 'Language-only In-context reasoning'?"
    for second_x, expected in ((470 - middle("reasoning"), ["locator 'centered subtitle'"]), (318, [])):
        im = Image.new("RGB", (900, 500), (255, 255, 255))
        d = ImageDraw.Draw(im)
        d.rectangle((300, 150, 640, 450), outline=(40, 40, 40), width=2)
        first = draw(d, "Language-only In-context", 470 - middle("Language-only In-context"), 200, 24)
        lines = [first, draw(d, "reasoning", second_x, 232, 24)]
        assert verdict(q, lines, im)[1] == expected  # the first line fills the panel; the second centred, or left
