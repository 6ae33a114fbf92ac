"""Text editor (issue 32): a missing legend entry goes after the last entry of a one-row legend,
with a swatch in its series' colour; a column legend, or a series the legend's order cannot
place, is skipped with the reason.

The charts are drawn here (PIL, DejaVu Sans, as matplotlib's default), so each assertion is
against the truth of the drawing.
"""

import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from benchmarks.engine_refine import mask_of
from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.bullets import without_bullets
from refine.editors.text.place_legend_entry import series_colours, swatch_of
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.ocr.ocr_read import ocr_lines
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
SANS = {(f.family, f.bold, f.italic): f for f in installed_faces()}[("DejaVu Sans", False, False)]
BG, INK = (250, 249, 246), (0, 0, 0)
BLUE, ORANGE = (46, 109, 180), (230, 136, 40)


def grouped_bars(labels: list[str], column: bool = False, colours=(BLUE, ORANGE)):
    """Two series of bars (blue, orange, in that order in each group) and a legend of ``labels``
    (in ``colours``) in one row at the top left (or a column at the right). Returns the image
    and, per legend entry, (swatch box, text box)."""
    img = Image.new("RGB", (640, 400), BG)
    d = ImageDraw.Draw(img)
    d.line([(60, 360), (600, 360)], fill=INK)
    for g, (a, b) in enumerate([(120, 200), (260, 150), (180, 90)]):
        x = 100 + 170 * g
        d.rectangle([x, 360 - a, x + 40, 359], fill=BLUE)
        d.rectangle([x + 44, 360 - b, x + 84, 359], fill=ORANGE)
    fnt, entries, x, y = SANS.font(14), [], 70, 40
    for label, colour in zip(labels, colours):
        if column:
            x, y = 560, 40 + 22 * len(entries)
        swatch = (x, y - 5, x + 26, y + 5)
        d.rectangle([swatch[0], swatch[1], swatch[2] - 1, swatch[3] - 1], fill=colour)
        d.text((x + 36, y), label, font=fnt, fill=INK, anchor="lm")
        text = tuple(int(v) for v in d.textbbox((x + 36, y), label, font=fnt, anchor="lm"))
        entries.append((swatch, text))
        x = text[2] + 26
    return img, entries


def legend_check(text: str) -> tuple[Check, Verdict]:
    spec = compile_question(f'Does the legend include the label "{text}"?')
    return Check("q1", "", expects=expectations_of(spec), spec=spec), Verdict("q1", "no", "ocr", "")


def test_swatch_and_series_colours_are_read_from_the_chart():
    img, entries = grouped_bars(["Plan", "Actual"])
    arr = np.asarray(img)
    (swatch, text), _ = entries
    box, colour = swatch_of(arr, text)
    assert colour == BLUE and abs(box[0] - swatch[0]) <= 1 and abs(box[2] - swatch[2]) <= 1
    assert [c for c, _ in series_colours(arr, 4 * 26 * 10)] == [BLUE, ORANGE]  # in series order


@needs_tesseract
def test_missing_last_entry_goes_after_the_row_with_its_swatch():
    img, _ = grouped_bars(["Plan"])
    truth, entries = grouped_bars(["Plan", "Actual"])
    editor = TextEditor()
    out = editor.edit(img, "", [legend_check("Actual")], 0)
    act = editor.last_actions[0]
    assert act["action"] == "place (next entry of the legend, with its swatch)"
    arr = np.asarray(out)
    swatch, text = entries[1]
    cx, cy = (swatch[0] + swatch[2]) // 2, (swatch[1] + swatch[3]) // 2
    assert tuple(arr[cy, cx]) == ORANGE  # the series with no entry, in its colour
    assert abs(act["box"][0] - text[0]) <= 6 and abs(act["box"][1] - text[1]) <= 3  # where the engine puts it
    changed = (arr != np.asarray(img)).any(2)
    assert not changed[~mask_of(changed.shape, [(swatch[0], text[1], text[2], text[3]), swatch], pad=3)].any()


@needs_tesseract
def test_column_legend_and_missing_first_series_are_skipped():
    pages = {
        "column": (grouped_bars(["Plan", "Actual"], column=True, colours=(BLUE, BLUE))[0], "Total"),
        "order": (grouped_bars(["Actual"], colours=(ORANGE,))[0], "Plan"),  # Plan's bars come first
    }
    for why, (page, missing) in pages.items():
        editor = TextEditor()
        out = editor.edit(page, "", [legend_check(missing)], 0)
        act = editor.last_actions[0]
        assert act["action"].startswith("skip: the legend"), why
        assert np.array_equal(np.asarray(out), np.asarray(page)), why


def test_swatch_read_into_an_entry_is_cut_off_its_first_word():
    # OCR reads a legend's swatch into the first word of its entry ("year" over the swatch and
    # the word): the word's box is cut to the text's ink, the one-letter "i" is left as it is.
    img, [_, (swatch, text)] = grouped_bars(["Plan", "year Last"])
    arr = np.asarray(img)
    merged = Line((Word("year", (swatch[0], text[1], text[0] + 30, text[3])), Word("Last", (text[0] + 36, *text[1:]))))
    [cut] = without_bullets(arr, [merged])
    assert cut.words[0].text == "year" and abs(cut.words[0].box[0] - text[0]) <= 1
    assert cut.words[1] == merged.words[1]
    assert without_bullets(arr, [Line((Word("i", swatch), *merged.words[1:]))])[0].words[0].text == "i"


@needs_tesseract
def test_entry_with_two_words_swapped_is_rewritten_beside_its_swatch():
    img, entries = grouped_bars(["Plan", "year Last"])
    editor = TextEditor()
    out = editor.edit(img, "", [legend_check("Last year")], seed=0)
    [act] = editor.last_actions
    assert act["action"] == "replace" and act["was"].endswith("year Last")
    before, after = np.asarray(img), np.asarray(out)
    swatch, text = entries[1]
    assert np.array_equal(
        before[swatch[1] : swatch[3], swatch[0] : swatch[2]], after[swatch[1] : swatch[3], swatch[0] : swatch[2]]
    )
    changed = (before != after).any(2)
    assert changed.any() and not changed[~mask_of(changed.shape, [text], pad=3)].any()
    read = [ln.text for ln in ocr_lines(out)]  # tesseract reads the swatch as a word ("lm")
    assert any(t.endswith("Last year") for t in read) and not any("year Last" in t for t in read)
