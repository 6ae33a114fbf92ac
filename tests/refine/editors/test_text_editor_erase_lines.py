"""Text editor (issue 32, a tester's dark menu): a rewrite's erase never reaches into another
line's ink. The rewrite of "Osteria Lpua" erased the top 2 px of "Dinner Menu" under it (its
padding, 0.15 of the line's height, reached the subtitle).

The page is drawn here (PIL, DejaVu Serif, light on dark), so each assertion is against the truth
of the drawing.
"""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SERIF, SANS = FACES[("DejaVu Serif", False, False)], FACES[("DejaVu Sans", False, False)]
BG, GOLD, LIGHT = (28, 26, 24), (214, 178, 110), (236, 232, 224)


def dark_menu(name: str) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A 50 px serif name and, 8 px under its baseline, a 22 px subtitle "Dinner Menu", both
    centred on a dark page. Returns the image and the subtitle's ink box."""
    img = Image.new("RGB", (900, 260), BG)
    d = ImageDraw.Draw(img)
    d.text((450, 90), name, font=SERIF.font(50), fill=GOLD, anchor="ms")
    top = 90 + 8  # 8 px under the name's baseline: the "p" descends past it
    d.text((450, top), "Dinner Menu", font=SANS.font(22), fill=LIGHT, anchor="mt")
    return img, d.textbbox((450, top), "Dinner Menu", font=SANS.font(22), anchor="mt")


@needs_tesseract
def test_rewrite_of_a_name_leaves_the_subtitle_under_it_whole():
    img, sub = dark_menu("Osteria Lpua")
    editor = TextEditor()
    out = editor.edit(img, "", failed('Does the restaurant name read exactly "Osteria Lupa"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "Osteria Lpua"
    # the erase's padding reaches the subtitle's rows, but none of its pixels changed
    assert max(b[3] for b in act["boxes"]) > sub[1]
    x0, y0, x1, y1 = sub
    assert (np.asarray(out)[y0:y1, x0:x1] == np.asarray(img)[y0:y1, x0:x1]).all()
    assert act["damaged_px"] == 0
