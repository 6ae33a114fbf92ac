"""Text editor (issue 32): a rewrite stays inside the old element's box. An x tick label is
centred on its tick mark, a row is set at the width the engine gave the old text, and moved
back into the old text's columns when a rasteriser sets it a pixel off.

The pages are drawn here (PIL, DejaVu Sans, as matplotlib's default), so each assertion is
against the truth of the drawing.
"""

import shutil

import numpy as np
import pytest
from PIL import Image, ImageDraw

from benchmarks.engine_refine import mask_of, own_ink
from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.rewrite import fit_shift, tick_mark_above
from refine.editors.text.set_width import engine_size, ink_span, ink_width
from refine.editors.text.type_match import render_coverage
from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.questions.question_compiler import compile_question

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
SANS = {(f.family, f.bold, f.italic): f for f in installed_faces()}[("DejaVu Sans", False, False)]
BG, INK = (255, 255, 255), (0, 0, 0)


def axis(labels: list[str]) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """A chart's x axis: a line, a tick mark under it per label, each label centred on its tick.
    Returns the image and each label's ink box."""
    img = Image.new("RGB", (640, 220), BG)
    d = ImageDraw.Draw(img)
    d.text((40, 50), "Weekly orders by drink", font=SANS.font(26), fill=INK, anchor="ls")
    d.line([(60, 150), (600, 150)], fill=INK, width=1)
    boxes = []
    for i, label in enumerate(labels):
        x = 120 + 160 * i
        d.line([(x, 151), (x, 155)], fill=INK, width=1)
        d.text((x, 160), label, font=SANS.font(20), fill=INK, anchor="mt")
        boxes.append(tuple(int(v) for v in d.textbbox((x, 160), label, font=SANS.font(20), anchor="mt")))
    return img, boxes


def test_tick_mark_above_a_label_but_not_a_bar():
    img, boxes = axis(["Coffee", "Tea", "Juice"])
    arr = np.asarray(img)
    assert [tick_mark_above(arr, b, BG)[0] for b in boxes] == [120.0, 280.0, 440.0]
    d = ImageDraw.Draw(img)
    d.rectangle([boxes[1][0] - 4, 120, boxes[1][2] + 4, 150], fill=(58, 12, 163))  # a bar on the axis
    d.line([(440, 151), (440, 155)], fill=BG)  # no tick under the third label
    arr = np.asarray(img)
    assert tick_mark_above(arr, boxes[2], BG) is None
    assert tick_mark_above(arr, boxes[1], BG)[0] == 280.0  # a bar on the axis over its tick
    assert tick_mark_above(arr, (boxes[1][0], 150, boxes[1][2], boxes[1][3]), BG) == (
        280.0,
        boxes[1][1],
    )  # box over the tick
    d.text((boxes[0][0], boxes[0][1] - 2), "Hot", font=SANS.font(20), fill=INK, anchor="ls")
    assert tick_mark_above(np.asarray(img), boxes[0], BG) is None  # a line of text above it


def test_fit_shift_keeps_a_row_in_the_old_columns():
    row = np.zeros((10, 30), np.float32)
    row[:, 2:28] = 1.0  # ink in columns 2..27 of the map: 26 columns
    assert fit_shift((100, 126), row, 97, "left") == 1  # drawn at 99..124: one right
    assert fit_shift((100, 126), row, 99, "left") == -1  # drawn at 101..126: one left
    assert fit_shift((100, 126), row, 98, "right") == 0  # already inside
    assert fit_shift((100, 120), row, 97, "left") == 1  # wider: its left edge inside
    assert fit_shift((100, 120), row, 93, "right") == -1  # wider (95..120): its right edge inside
    assert fit_shift((100, 120), row, 93, "centre") == 0  # wider and centred: stays centred
    assert fit_shift((100, 126), row, 90, "left") == 0  # 8 px off: the layout differs, not the raster


def test_engine_size_narrows_a_wider_face_to_the_pixels():
    text = "Data: Regional offices"
    at20 = ink_width(render_coverage(text, SANS.font(20))[0])
    assert engine_size(SANS, 20, text, at20) == 20  # already as wide as the pixels
    size = engine_size(SANS, 20.6, text, at20)  # a matched size 3% large, as OCR boxes give
    assert 19.3 <= size < 20.6 and ink_width(render_coverage(text, SANS.font(size))[0]) <= at20
    assert engine_size(SANS, 24, text, at20) == 24  # 20% wider: another type, left alone
    img = Image.new("RGB", (400, 60), BG)
    ImageDraw.Draw(img).text((10, 40), text, font=SANS.font(20), fill=INK, anchor="ls")
    cols = np.nonzero((255 - np.asarray(img).astype(int) > 8).any(2).any(0))[0]  # its ink, antialiasing too
    assert ink_span(np.asarray(img), (cols[0] + 1, 20, cols[-1], 45), BG) == (cols[0], cols[-1] + 1)


@needs_tesseract
def test_longer_tick_label_is_centred_on_its_tick_inside_the_clean_box():
    img, _ = axis(["Cofee", "Tea", "Juice"])
    _, truth = axis(["Coffee", "Tea", "Juice"])
    spec = compile_question('Is the first x-axis tick label from the left exactly "Coffee"?')
    chk = Check("q1", spec.question if hasattr(spec, "question") else "", expects=expectations_of(spec), spec=spec)
    editor = TextEditor()
    out = editor.edit(img, "", [(chk, Verdict("q1", "no", "ocr", ""))], 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["type"]["align"] == "centre"
    x0, _, x1, _ = act["boxes"][-1]
    assert abs((x0 + x1) / 2 - 120) <= 1.5  # centred on the tick
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert changed.any()
    assert not changed[~mask_of(changed.shape, [truth[0]], pad=1)].any()  # nothing outside the label's box


def y_axis(labels: list[str]) -> tuple[Image.Image, list[tuple[int, int, int, int]]]:
    """A horizontal bar chart's y axis: a line, a tick mark left of it per label, each label set
    right-aligned at its tick (as matplotlib sets a y tick label), 60 px apart. Returns the image
    and each label's ink box."""
    img = Image.new("RGB", (420, 300), BG)
    d = ImageDraw.Draw(img)
    d.line([(100, 20), (100, 280)], fill=INK, width=1)
    boxes = []
    for i, label in enumerate(labels):
        y = 50 + 60 * i
        d.line([(95, y), (99, y)], fill=INK, width=1)
        d.rectangle([101, y - 18, 180 + 40 * i, y + 18], fill=(58, 12, 163))
        d.text((92, y), label, font=SANS.font(15), fill=INK, anchor="rm")
        boxes.append(tuple(int(v) for v in d.textbbox((92, y), label, font=SANS.font(15), anchor="rm")))
    return img, boxes


def test_right_column_is_told_from_a_left_aligned_list():
    from refine.editors.text.rewrite import _right_column
    from rewards.text.ocr.text_match import Line, Word

    def lines_of(boxes):  # OCR boxes end up to 2 px off the ink, as tesseract's do
        return [Line((Word("w", (b[0] + k % 2, b[1], b[2] - k % 3, b[3])),)) for k, b in enumerate(boxes)]

    img, boxes = y_axis(["Search", "Social", "Email", "Direct"])
    arr = np.asarray(img)
    assert all(_right_column(arr, lines_of(boxes), i, BG) for i in range(4))  # they end at the axis
    img = Image.new("RGB", (420, 300), BG)
    d = ImageDraw.Draw(img)
    items = ["Search", "Social", "Email", "Direct"]
    for i, t in enumerate(items):
        d.text((40, 50 + 30 * i), t, font=SANS.font(15), fill=INK, anchor="lm")
    boxes = [
        tuple(int(v) for v in d.textbbox((40, 50 + 30 * i), t, font=SANS.font(15), anchor="lm"))
        for i, t in enumerate(items)
    ]
    assert not any(_right_column(np.asarray(img), lines_of(boxes), i, BG) for i in range(4))  # left-aligned


@needs_tesseract
def test_lengthened_y_tick_label_grows_left_from_the_axis_in_its_own_size():
    img, _ = y_axis(["Seach", "Social", "Email", "Direct"])
    truth, boxes = y_axis(["Search", "Social", "Email", "Direct"])
    spec = compile_question('Is there a label reading exactly "Search"?')
    chk = Check("q1", "", expects=expectations_of(spec), spec=spec)
    editor = TextEditor()
    out = editor.edit(img, "", [(chk, Verdict("q1", "no", "ocr", ""))], 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["type"]["align"] == "right"
    assert abs(act["type"]["size"] - 15) <= 0.9  # not set smaller to miss the tick mark
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert changed.any() and not changed[~mask_of(changed.shape, [boxes[0]], pad=2)].any()


def test_own_ink_is_the_elements_ink_one_pixel_past_its_box_and_nothing_further():
    # An engine's box is the advance box: the "J" of "Jun" reaches a column left of it. Those
    # pixels are the element's own ink (on the clean page or the start image); a mark 3 px off
    # the box, and blank page beside it, are not.
    page = np.full((40, 80, 3), 255, np.uint8)
    page[10:20, 19] = 120  # the glyph's antialiased column, just left of the box
    page[10:20, 20:40] = 0  # the glyph inside the box
    page[10:20, 43] = 0  # another mark, 3 px right of the box
    start = np.full_like(page, 255)
    start[12:18, 40] = 90  # the start image's ink a column right of the box
    box = (20, 10, 40, 20)
    own = own_ink([page, start], [box])
    assert own[10:20, 19].all() and own[12:18, 40].all()
    assert own.sum() == 10 + 6  # nothing inside the box, nor the mark 3 px off, nor blank page
