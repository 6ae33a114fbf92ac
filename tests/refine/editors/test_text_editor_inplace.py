"""Text editor (issue 32, strings fixed in place): an in-place rewrite changes no pixel outside the
element it restores.

The pages are drawn here (PIL, DejaVu Sans), so each assertion is against the truth of the drawing.
"""

import numpy as np
from PIL import Image, ImageDraw

from documents.fonts import installed_faces
from refine.editors.text.erase import background_model, erase

SANS = {(f.family, f.bold, f.italic): f for f in installed_faces()}[("DejaVu Sans", False, False)]


def test_the_erase_leaves_background_that_the_tilted_model_only_re_rounds():
    """A light stroke in the ring over a callout (an arrow's shaft) tilts the fitted plane to about
    253.3 over the box's top rows of a white page: the fringe pixels above the old glyphs' tops are
    white already and stay 255 (they were written 253); every pixel of the old glyphs more than
    ``SAME`` levels off the model is replaced by it."""
    img = Image.new("RGB", (300, 80), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((20, 44), "Peck: 63.6 in Mar", font=SANS.font(16), fill=(40, 40, 40), anchor="ls")
    arr = np.asarray(img).copy()
    arr[27:29, 10:200] = 252  # a light stroke along the ring's upper rows, within the plane's tolerance
    before = arr.copy()
    box = (17, 30, 162, 47)
    model = np.rint(background_model(arr, box))
    assert model[:2].max() < 255  # the old erase wrote these rows 253 wherever it touched them
    changed = erase(arr, box)
    inside = (slice(30, 47), slice(17, 162))
    old_ink = np.abs(before[inside].astype(int) - model).max(2) > 2
    assert old_ink.sum() > 300
    assert (arr[inside] == model)[old_ink].all()  # the old glyphs are gone
    assert not (changed & (before == 255).all(2)).any()  # no white pixel was re-rounded


def test_a_fix_is_read_where_the_defect_page_shows_the_element_when_it_moved():
    """``engine_refine.fix_box``: the clean page's box when the element stands there or overlaps it
    on the defect page (a typo one letter shorter), the defect page's when another defect moved it
    (dev matplotlib-pie-13's slice label, 17 px up and 14 px right), the clean one when the
    element is missing."""
    from types import SimpleNamespace as El

    from benchmarks.engine_refine import fix_box

    clean = El(box=(581, 292, 627, 309))
    assert fix_box(clean, El(box=(595, 275, 641, 292))) == (595, 275, 641, 292)
    assert fix_box(clean, El(box=(581, 292, 620, 309))) == (581, 292, 627, 309)
    assert fix_box(clean, None) == (581, 292, 627, 309)
