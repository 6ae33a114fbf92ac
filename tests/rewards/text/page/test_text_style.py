"""Ink colour and stroke weight measured on rendered words, and the style rule of decide_text
on hand-built OCR lines (no OCR engine needed: the word boxes are the drawn text's boxes)."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from rewards.text.ocr.text_match import Line, Word
from rewards.text.page.grounding import decide_text
from rewards.text.page.text_style import _run_widths, colour_name, ink_of, matches, measure, stroke_ratio
from rewards.text.questions.question_compiler import TextSpec

FONTS = "/usr/share/fonts/truetype"
FACES = {
    "DejaVuSans": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf"),
    "DejaVuSerif": ("dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSerif-Bold.ttf"),
    "LiberationSans": ("liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf"),
    "LiberationSerif": ("liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSerif-Bold.ttf"),
}


def word_crop(text, face, px, ink, bg):
    """uint8 (H, W, 3) with ``text`` drawn on ``bg``, and its ink box (pixels)."""
    font = ImageFont.truetype(f"{FONTS}/{face}", px)
    img = Image.new("RGB", (int(font.getlength(text)) + 40, 2 * px + 40), bg)
    d = ImageDraw.Draw(img)
    d.text((20, 20), text, font=font, fill=ink)
    return np.asarray(img), d.textbbox((20, 20), text, font=font)


@pytest.mark.parametrize(
    "ink,bg,name",
    [
        ((255, 255, 255), (20, 80, 60), "white"),
        ((200, 30, 30), (250, 250, 247), "red"),
        ((128, 128, 128), (255, 255, 255), "gray"),
        ((25, 25, 25), (250, 250, 247), "black"),
        ((30, 70, 190), (250, 250, 247), "blue"),
        ((255, 255, 255), (200, 60, 40), "white"),
    ],
)
def test_ink_colour_of_rendered_words(ink, bg, name):
    arr, box = word_crop("Revenue 42", FACES["DejaVuSans"][0], 18, ink, bg)
    found = ink_of(arr, box)
    assert found is not None and colour_name(found.rgb) == name
    assert max(abs(a - b) for a, b in zip(found.rgb, ink)) <= 12  # the core ink, not an edge blend
    assert max(abs(a - b) for a, b in zip(found.background, bg)) <= 1


def test_colour_bins_by_hand():
    assert colour_name((128, 128, 128)) == "gray" and colour_name((250, 250, 250)) == "white"
    assert colour_name((230, 125, 25)) == "orange" and colour_name((125, 45, 165)) == "purple"
    assert colour_name((255, 215, 0)) == "yellow" and colour_name((30, 135, 55)) == "green"
    assert colour_name((139, 69, 19)) == "brown" and colour_name((255, 192, 203)) == "pink"
    assert colour_name((80, 80, 80)) is None  # value 80, within 14 of the black/gray edge (78)
    # a JPEG-tinted white stroke: chroma 28 lies in the chroma margin, but value 255, saturation 0.11
    assert colour_name((255, 242, 227)) == "white" and colour_name((255, 192, 203)) == "pink"
    assert colour_name((120, 100, 95)) is None  # chroma 25: between achromatic and coloured
    # hue = 60 * G / 255 for (255, G, 0): 54.1 is yellow, 44.7 and 49.9 lie within 5 of the orange/yellow edge (45)
    assert (
        colour_name((255, 230, 0)) == "yellow"
        and colour_name((255, 190, 0)) is None
        and colour_name((255, 212, 0)) is None
    )


@pytest.mark.parametrize("face", list(FACES))
@pytest.mark.parametrize("px", [17, 24, 36])
def test_bold_and_regular_faces(face, px):
    for bold, want in ((0, "regular"), (1, "bold")):
        arr, box = word_crop("Highlights", FACES[face][bold], px, (30, 30, 30), (250, 250, 247))
        style = measure(arr, [(box, "Highlights")])
        assert style.weight == want, (face, px, want, style.stroke_ratio)


def test_too_small_or_no_ink_is_unknown():
    arr, box = word_crop("Revenue", FACES["DejaVuSans"][1], 9, (20, 20, 20), (250, 250, 247))
    style = measure(arr, [(box, "Revenue")])
    assert style.colour == "black" and style.weight is None  # a 9 px em is too small to tell the weight
    flat = np.full((40, 80, 3), 200, np.uint8)
    assert ink_of(flat, (10, 10, 70, 30)) is None and measure(flat, [((10, 10, 70, 30), "x")]).colour is None
    assert ink_of(flat, (500, 500, 600, 600)) is None  # a box outside the image


def test_run_widths_sum_alpha_along_runs():
    alpha = np.array([[0.5, 1.0, 0.5, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.5]])
    on = alpha > 0.2
    np.testing.assert_allclose(_run_widths(alpha, on), [[2.0, 2.0, 2.0, 0.0, 1.0], [0, 0, 0, 0, 0.5]])
    arr, box = word_crop("l", FACES["DejaVuSans"][0], 48, (0, 0, 0), (255, 255, 255))
    ratio, em = stroke_ratio(ink_of(arr, box), "l")
    # DejaVu Sans' "l" stem is 184 of 2048 font units wide: 0.0898 em; its height 1556 units = 0.76 em
    assert ratio * em == pytest.approx(48 * 184 / 2048, abs=0.4) and em == pytest.approx(48 * 0.76 / 0.72, rel=0.06)


def page():
    """A bold heading, a regular item, red note, white badge text on dark green; and its OCR lines."""
    img = Image.new("RGB", (420, 200), (250, 250, 247))
    d = ImageDraw.Draw(img)
    words = []
    for (x, y), text, face, ink in [
        ((20, 20), "Revenue", FACES["DejaVuSans"][1], (20, 20, 20)),
        ((20, 60), "Costs", FACES["DejaVuSans"][0], (20, 20, 20)),
        ((20, 100), "Draft", FACES["LiberationSerif"][0], (200, 30, 30)),
    ]:
        font = ImageFont.truetype(f"{FONTS}/{face}", 22)
        d.text((x, y), text, font=font, fill=ink)
        words.append(Word(text, d.textbbox((x, y), text, font=font)))
    d.rounded_rectangle([250, 90, 330, 130], radius=8, fill=(20, 80, 60))
    font = ImageFont.truetype(f"{FONTS}/{FACES['DejaVuSans'][1]}", 20)
    d.text((290, 110), "NEW", font=font, fill=(255, 255, 255), anchor="mm")
    words.append(Word("NEW", d.textbbox((290, 110), "NEW", font=font, anchor="mm")))
    return img, [Line((w,)) for w in words]


def test_decide_text_style_both_ways_and_unknown():
    img, lines = page()
    decide = lambda spec, image=img: decide_text(spec, lines, image, img.size)  # noqa: E731
    assert decide(TextSpec(("Revenue",), weight="bold")).holds is True
    no = decide(TextSpec(("Costs",), weight="bold"))
    assert (
        no.holds is False
        and no.rule == "style"
        and "regular" in no.detail
        and no.records[0]["style"]["weight"] == "regular"
    )
    assert decide(TextSpec(("Costs",), weight="regular")).holds is True
    assert decide(TextSpec(("NEW",), colour="white")).holds is True
    red = decide(TextSpec(("Draft",), colour="blue"))
    assert (
        red.holds is False
        and red.rule == "style"
        and "ink is red" in red.detail
        and red.records[0]["style"]["colour"] == "red"
    )
    assert decide(TextSpec(("Draft",), colour="red", weight="regular")).holds is True
    assert decide(TextSpec(("Revenue",), colour="black", weight="regular")).holds is False  # black, but bold
    unknown = decide(TextSpec(("Revenue",), weight="bold"), None)  # no image: cannot measure
    assert unknown.holds is None and unknown.rule == "style" and unknown.unknown == ["weight 'bold'"]
    assert decide(TextSpec(("Revenues",), weight="bold")).rule == "read"  # a failed read decides first


def test_matches_needs_half_the_characters_known():
    from rewards.text.page.text_style import Style

    st = Style((200, 30, 30), None, None, None, (("red", 5), (None, 2)))
    assert matches(st, None, "red") is True and matches(st, None, "blue") is False
    st = Style((200, 30, 30), None, None, None, (("red", 2), (None, 5)))
    assert matches(st, None, "red") is None and matches(st, "bold", None) is None


def test_not_an_rgb_image_is_a_clear_error():
    with pytest.raises(ValueError, match=r"uint8 \(H, W, 3\)"):
        ink_of(np.zeros((20, 20), np.uint8), (2, 2, 10, 10))


def test_box_spanning_a_whole_badge_finds_the_text_inside():
    """OCR may box a badge whole: the fill is then the background and its holes the text."""
    img = Image.new("RGB", (160, 80), (250, 250, 247))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([20, 15, 140, 65], radius=10, fill=(30, 120, 70))
    d.text(
        (80, 40),
        "NEW",
        font=ImageFont.truetype(f"{FONTS}/{FACES['DejaVuSans'][1]}", 22),
        fill=(255, 255, 255),
        anchor="mm",
    )
    ink = ink_of(np.asarray(img), (20, 15, 141, 66))
    assert ink is not None and ink.background == (30, 120, 70) and colour_name(ink.rgb) == "white"
    assert measure(np.asarray(img), [((20, 15, 141, 66), "NEW")]).weight == "bold"


def test_box_cutting_a_badge_follows_the_fill():
    """A box over the badge's left part and the page below it: the fill is followed outside the box."""
    img = Image.new("RGB", (160, 100), (250, 250, 247))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([20, 15, 140, 55], radius=10, fill=(200, 60, 40))
    d.text(
        (80, 35),
        "NEW",
        font=ImageFont.truetype(f"{FONTS}/{FACES['DejaVuSans'][1]}", 22),
        fill=(255, 255, 255),
        anchor="mm",
    )
    ink = ink_of(np.asarray(img), (50, 17, 86, 75))  # the "N", part of "E", and 20 px of page below
    assert ink is not None and ink.background == (200, 60, 40) and colour_name(ink.rgb) == "white"
