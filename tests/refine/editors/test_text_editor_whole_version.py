"""Text editor (issue 32): a rewrite covers the element's whole wrong version (a footer with two
words swapped keeps no leftover word), and a short label's one typo ("Gds" for "Gas") is
rewritten where it stands, unless another version on the page could be the one.

The pages are drawn here (PIL, DejaVu), so each assertion is against the truth of the drawing.
"""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.audit import string_words
from refine.editors.text.near_match import _short_typo, whole_line
from rewards.text.ocr.text_match import Line, Match, Word

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS = FACES[("DejaVu Sans", False, False)]
BG, INK, GREY = (250, 249, 246), (20, 20, 20), (90, 90, 90)


def poster(footer: str) -> Image.Image:
    """A title, a line of body text and ``footer`` centred at the foot (13 px grey)."""
    img = Image.new("RGB", (640, 480), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 60), "Film Week", font=SANS.font(40), fill=INK, anchor="ls")
    d.text((40, 120), "Three new regional offices opened", font=SANS.font(18), fill=INK, anchor="ls")
    d.text((320, 455), footer, font=SANS.font(13), fill=GREY, anchor="ms")
    return img


def test_whole_line_takes_the_words_of_the_string_left_out_of_the_match():
    line = Line((Word("at", (235, 446, 246, 455)), Word("More", (252, 446, 282, 455)),
                 Word("www.filmweek.org", (289, 444, 405, 458))))  # fmt: skip
    m = Match("More www.filmweek.org", (252, 444, 405, 458), 0.87, False, ((0, 1), (0, 2)))
    wide = whole_line(m, [line], "More at www.filmweek.org")
    assert wide.words == ((0, 0), (0, 1), (0, 2)) and wide.box == (235, 444, 405, 458)
    assert wide.text == "at More www.filmweek.org"
    # a word the string does not hold (running text around a label) keeps the match as it is
    assert whole_line(m, [line], "More www.filmweek.org") is m
    # the string's words are counted: a second "at" is not the string's
    line2 = Line((Word("at", (200, 446, 211, 455)), *line.words))
    m2 = Match("More www.filmweek.org", (252, 444, 405, 458), 0.87, False, ((0, 2), (0, 3)))
    assert whole_line(m2, [line2], "More www.filmweek.org at") is m2


def test_string_words_keeps_a_swapped_word_of_the_string():
    words = [("at", (235, 446, 246, 455)), ("More", (252, 446, 282, 455)), ("www.filmweek.org", (289, 444, 405, 458))]
    assert string_words(words, "More at www.filmweek.org") == [b for _, b in words]
    # a bullet read as "e" before the string is still not one of its words
    assert string_words([("e", (10, 0, 14, 9)), *words[1:]], "More www.filmweek.org") == [b for _, b in words[1:]]


def test_short_typo_is_one_edit_of_a_word_of_three_letters_or_more():
    assert _short_typo("gds", "gas") and _short_typo("gsa", "gas") and _short_typo("juce", "juice")
    assert not _short_typo("ga", "gs")  # two letters: as likely another word
    assert not _short_typo("gds", "gas x") and not _short_typo("gxs y", "gas y")  # one word only
    assert not _short_typo("gdd", "gas")  # two edits
    assert not _short_typo("38%", "18%") and not _short_typo("2o24", "2024")  # another slice's value


@needs_tesseract
def test_footer_with_two_words_swapped_is_rewritten_whole_with_no_leftover_word():
    img = poster("at More www.filmweek.org")
    editor = TextEditor()
    out = editor.edit(img, "", failed('Does the footer read exactly "More at www.filmweek.org"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "at More www.filmweek.org"
    assert act["damaged_px"] == 0
    # the leading "at" (left of "More") is erased: nothing but the new row's ink is left there
    new_x0 = act["inked"][0][0]
    start, after = np.asarray(img), np.asarray(out)
    foot = np.abs(after[435:465].astype(int) - BG).max(2) > 40
    old = np.abs(start[435:465].astype(int) - BG).max(2) > 40
    assert old[:, :new_x0].any() and not foot[:, : new_x0 - 1].any()
    # centred as it was: the new row's middle within 2 px of the page's middle
    x0, _, x1, _ = act["inked"][0]
    assert abs((x0 + x1) / 2 - 320) <= 2
    changed = (after != start).any(2)
    assert not changed[:430].any()  # nothing above the foot


def labels(words: list[tuple[str, tuple[int, int]]]) -> Image.Image:
    """Loose 14 px labels (a pie's slice labels) at the given (x, baseline y)."""
    img = Image.new("RGB", (640, 480), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 40), "Share of Traffic Sources", font=SANS.font(24), fill=INK, anchor="ls")
    for text, (x, y) in words:
        d.text((x, y), text, font=SANS.font(14), fill=INK, anchor="ls")
    return img


@needs_tesseract
def test_a_short_labels_one_typo_is_rewritten_where_it_stands():
    img = labels([("Gds", (170, 370)), ("Coal", (215, 180)), ("Solar", (450, 125)), ("Hydro", (400, 420))])
    editor = TextEditor()
    out = editor.edit(img, "", failed('Is there a slice label reading exactly "Gas"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "Gds"
    x0, y0, x1, y1 = act["box"]
    assert 165 <= x0 <= 175 and 355 <= y0 <= 362  # where "Gds" stood
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    ys, xs = np.nonzero(changed)
    assert xs.min() >= 160 and xs.max() <= 215 and ys.min() >= 350 and ys.max() <= 375


@needs_tesseract
def test_two_short_versions_of_a_label_are_left_alone():
    img = labels([("Gds", (170, 370)), ("Gap", (215, 180)), ("Solar", (450, 125))])
    editor = TextEditor()
    out = editor.edit(img, "", failed('Is there a slice label reading exactly "Gas"?'), 0)
    act = editor.last_actions[0]
    assert act["action"].startswith("skip:") and "wrong version" in act["action"]
    assert np.array_equal(np.asarray(out), np.asarray(img))


@needs_tesseract
def test_a_footer_cut_short_beside_a_band_is_rewritten_whole_at_its_right_edge():
    img = Image.new("RGB", (600, 800), BG)
    d = ImageDraw.Draw(img)
    serif = FACES[("DejaVu Serif", False, False)]
    d.text((300, 70), "FOOD MARKET", font=FACES[("DejaVu Serif", True, False)].font(40), fill=INK, anchor="ms")
    d.text((50, 320), "Local food trucks every evening", font=serif.font(17), fill=INK, anchor="ls")
    d.rectangle((0, 650, 600, 707), fill=(22, 90, 80))
    d.text((300, 686), "Tickets from $45", font=serif.font(20), fill=(255, 255, 255), anchor="ms")
    d.line((30, 756, 570, 756), fill=(170, 170, 170))
    d.text((570, 781), "More at", font=serif.font(13), fill=GREY, anchor="rs")
    editor = TextEditor()
    out = editor.edit(img, "", failed("Does the footer source note read exactly 'More at www.foodmarket.org'?"), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "More at"
    assert act["damaged_px"] == 0
    x0, y0, x1, y1 = act["inked"][0]
    assert abs(x1 - 570) <= 2 and x1 - x0 > 150  # right-aligned as it was, the address written
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert not changed[:760].any()  # the band, the rule and the body untouched


def test_weight_gamma_gives_the_rendering_the_ink_of_the_page():
    from refine.editors.text.erase import composite
    from refine.editors.text.stroke_weight import heavier, weight_gamma
    from refine.editors.text.type_match import render_coverage

    font = SANS.font(16)
    alpha, (bx0, by0, bx1, by1) = render_coverage("Renew the warehouse lease", font)
    for k_page in (1.0, 1.6, 0.7):  # FreeType's own ink; an engine's heavier and lighter ink
        arr = np.zeros((60, 300, 3), np.uint8)
        arr[:] = (11, 60, 93)
        composite(arr, heavier(alpha, k_page), (20, 20), (255, 255, 255))
        box = (20, 20, 20 + alpha.shape[1], 20 + alpha.shape[0])
        k = weight_gamma(arr, [box], ["Renew the warehouse lease"], font, (255, 255, 255), (11, 60, 93))
        if k_page == 1.0:
            assert k == 1.0  # within 3% of the rendering: kept as it is
        else:
            assert abs(k - k_page) <= 0.05 * k_page
    assert np.array_equal(heavier(alpha, 1.4) > 0, alpha > 0)  # no pixel the rendering leaves alone


@needs_tesseract
def test_another_series_label_one_letter_off_is_never_rewritten():
    img = labels([("Team B", (520, 150)), ("Solar", (450, 300)), ("Hydro", (400, 420))])
    editor = TextEditor()
    q = 'Is the label at the right end of the line that ends lowest exactly "Team A"?'
    out = editor.edit(img, "", failed(q), 0)
    act = editor.last_actions[0]
    assert act["action"].startswith("skip:") and "'Team B' may be the wrong version" in act["action"]
    assert np.array_equal(np.asarray(out), np.asarray(img))
