"""Text editor (issue 32): a symbol OCR leaves unread before the words it rewrites ("&" of a swapped
"& Harbor Co Growth Dashboard") is erased with them, and the rewrite starts where it started
(``refine/editors/text/unread_mark.py``).

The page is Chromium's dashboard of ``documents.engines`` (drawn here, its title swapped), so the
assertion is against the engine's own clean title; the block test draws with PIL.
"""

import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.unread_mark import with_unread_mark

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
TITLE = FACES[("Liberation Serif", True, False)]
BAND, WHITE = (58, 25, 66), (255, 255, 255)


def title_page(text: str) -> Image.Image:
    img = Image.new("RGB", (760, 200), (245, 245, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 760, 80), fill=BAND)
    d.text((40, 53), text, font=TITLE.font(36), fill=WHITE, anchor="ls")
    d.text((40, 140), "Orders rose in every region this quarter", font=TITLE.font(18), fill=(30, 30, 30), anchor="ls")
    return img


def dashboard(title: str):
    """Chromium's dashboard of ``documents.engines`` (dev seed 19's content and style: a white
    Liberation Serif Bold title on a purple band) with the title ``title``: (image, title box)."""
    import random
    from dataclasses import replace

    from documents.engines.browser import Browser
    from documents.engines.pages import draw_page, page_content
    from documents.engines.split import ENGINE_OFFSET

    specs, style = page_content("dashboard", random.Random(19 + ENGINE_OFFSET["chromium"]))
    specs = [replace(s, text=title) if s.id == "title" else s for s in specs]
    with Browser() as browser:
        image, elements = draw_page("dashboard", specs, style, browser)
    return image, next(e.box for e in elements if e.id == "title")


@needs_tesseract
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium not installed")
def test_the_unread_ampersand_before_a_swapped_title_is_erased_with_it():
    """Tesseract reads Chromium's "& Harbor Co Growth Dashboard" without its "&"; the rewrite
    takes the "&" too, starts where the title started and stays in the clean title's box."""
    start, _ = dashboard("& Harbor Co Growth Dashboard")
    clean, (x0, y0, x1, y1) = dashboard("Harbor & Co Growth Dashboard")
    editor = TextEditor()
    out = np.asarray(editor.edit(start.copy(), "", failed('Is the title "Harbor & Co Growth Dashboard" shown?'), 0))
    action = editor.last_actions[0]
    assert action["action"] == "replace" and action["was"] == "Harbor Co Growth Dashboard"  # the "&" unread
    st, cl = np.asarray(start).astype(int), np.asarray(clean).astype(int)
    band = np.median(st[y0:y1, x0:x1], axis=(0, 1))
    inked = (np.abs(out[y0:y1].astype(int) - band).max(2) > 40).any(0)
    truth = (np.abs(cl[y0:y1] - band).max(2) > 40).any(0)
    assert abs(int(np.argmax(inked)) - int(np.argmax(truth))) <= 2  # it starts where the title starts
    assert abs(int(inked.sum()) - int(truth.sum())) <= 0.03 * truth.sum()  # one "&", not a second before it
    changed = (out.astype(int) != st).any(2)
    changed[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1] = False
    assert not changed.any(), np.argwhere(changed)[:5]


def test_with_unread_mark_keeps_a_block_without_a_missing_symbol():
    from refine.editors.text.layout import Block
    from refine.editors.text.type_match import TypeStyle

    arr = np.asarray(title_page("& Harbor Co Growth Dashboard"))
    face = TITLE
    style = TypeStyle(face, 36.0, 53.0, 79.0, WHITE, 1.0)
    blk = Block([(79, 27, 540, 55)], style, BAND, "left", 79.0, 461.0, 40.0, 53.0, 0.0, ("Harbor Co Growth Dashboard",))
    assert with_unread_mark(arr, blk, "Harbor Co Growth Dashboard") is blk  # no symbol in the string
    grown = with_unread_mark(arr, blk, "Harbor & Co Growth Dashboard")
    assert grown.boxes[0][0] < 50 and grown.texts == ("& Harbor Co Growth Dashboard",)
