"""Text editor (issue 32, a tester's receipt): a row's value slot that already holds ink is
never written beside; its one value set against the column's edge is replaced, other ink there
makes a skip.

The receipt is drawn here (PIL, Liberation Mono, the total in bold, as the tester's Chromium
page), so each assertion is against the truth of the drawing.
"""

import shutil
from pathlib import Path

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image, ImageDraw

from documents.fonts import Face
from refine.editors.text import TextEditor
from refine.editors.text.place_in_row_column import slot_ink

LIB = Path("/usr/share/fonts/truetype/liberation")
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
needs_mono = pytest.mark.skipif(not (LIB / "LiberationMono-Bold.ttf").is_file(), reason="Liberation Mono missing")
MONO = Face("Liberation Mono", False, False, str(LIB / "LiberationMono-Regular.ttf"))
MONO_BOLD = Face("Liberation Mono", True, False, str(LIB / "LiberationMono-Bold.ttf"))
BG, INK = (250, 250, 250), (17, 17, 17)
ROWS = [("Sourdough loaf", "4.50"), ("2 x Croissant", "5.20"), ("Flat white", "3.80"), ("Subtotal", "13.50")]
TOTAL_Y, EDGE = 60 + 36 * 4, 440


def receipt(total: str, stray: str = "") -> tuple[Image.Image, tuple[int, int, int, int]]:
    """Four rows and a bold "Total" row, values flush right at x=440 (``stray``: a word in the
    middle of the total's row). Returns the image and the label "Total"'s ink box."""
    img = Image.new("RGB", (480, 260), BG)
    d = ImageDraw.Draw(img)
    for i, (label, value) in enumerate(ROWS):
        d.text((40, 60 + 36 * i), label, font=MONO.font(22), fill=INK, anchor="ls")
        d.text((EDGE, 60 + 36 * i), value, font=MONO.font(22), fill=INK, anchor="rs")
    d.text((40, TOTAL_Y), "Total", font=MONO_BOLD.font(22), fill=INK, anchor="ls")
    d.text((EDGE, TOTAL_Y), total, font=MONO_BOLD.font(22), fill=INK, anchor="rs")
    if stray:
        d.text((200, TOTAL_Y), stray, font=MONO.font(22), fill=INK, anchor="ls")
    return img, d.textbbox((40, TOTAL_Y), "Total", font=MONO_BOLD.font(22), anchor="ls")


def row_runs(img: Image.Image, label) -> list[tuple[int, int]]:
    """The runs of ink (x0, x1) right of ``label`` on its rows (gaps over 12 px split them)."""
    arr = np.asarray(img).astype(np.int16)
    ink = (np.abs(arr[label[1] : label[3], label[2] + 4 :] - np.array(BG)).max(2) > 40).any(0)
    cols = np.flatnonzero(ink)
    runs = np.split(cols, np.flatnonzero(np.diff(cols) > 12) + 1)
    return [(int(r[0]) + label[2] + 4, int(r[-1]) + label[2] + 5) for r in runs if len(r)]


@needs_tesseract
@needs_mono
def test_wrong_total_is_replaced_in_its_slot_not_written_beside_it():
    img, label = receipt("17.42")
    editor = TextEditor()
    out = editor.edit(img, "", failed('Are "Total" and "14.72" arranged horizontally?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace (in the value column of its row: 'Total')"
    runs = row_runs(out, label)
    assert len(runs) == 1  # exactly one value on the row: the old one is gone
    assert abs(runs[0][1] - EDGE) <= 2 and runs[0][0] > 360  # flush right, where the total was
    assert act["damaged_px"] == 0 and len(act["erased"]) == 1
    assert (act["type"]["family"], act["type"]["bold"]) == ("Liberation Mono", True)  # its row's face


@needs_mono
def test_slot_ink_is_the_one_value_at_the_edge_or_other():
    img, label = receipt("17.42")
    x0, _, x1, _ = slot_ink(np.asarray(img), label, EDGE, "right")
    assert abs(x1 - EDGE) <= 2 and 370 <= x0 <= 380  # "17.42": 5 glyphs of 13 px
    busy, _ = receipt("17.42", stray="x")
    assert slot_ink(np.asarray(busy), label, EDGE, "right") == "other"
    empty, _ = receipt("")
    assert slot_ink(np.asarray(empty), label, EDGE, "right") is None


@needs_tesseract
@needs_mono
def test_a_row_with_more_ink_than_its_value_is_skipped():
    img, _ = receipt("17.42", stray="x")
    editor = TextEditor()
    out = editor.edit(img, "", failed('Are "Total" and "14.72" arranged horizontally?'), 0)
    assert "holds ink that is not one value" in editor.last_actions[0]["action"]
    assert (np.asarray(out) == np.asarray(img)).all()
