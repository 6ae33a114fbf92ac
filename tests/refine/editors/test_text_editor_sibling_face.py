"""Text editor (issue 32, a tester's bar chart): a rewritten label keeps the face of its own ink
and its siblings'. "Tallinn", regular among regular y-axis category labels, was rewritten bold.

The chart is drawn here (matplotlib, as the tester's page: PIL's own rendering of the same
labels matches regular without the siblings), so each assertion is against the truth of the
drawing.
"""

import io
import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.sibling_face import siblings
from rewards.text.ocr.text_match import Line, Word

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = {(f.family, f.bold, f.italic): f for f in installed_faces()}
SANS = FACES[("DejaVu Sans", False, False)]
CITIES = ["Lisbon", "Oslo", "Talinn", "Valencia", "Krakow"]


def hbar() -> Image.Image:
    """A matplotlib horizontal bar chart (8 x 5 in at 100 dpi, the default DejaVu Sans, 10 pt
    category labels), the tester's, with "Tallinn" misspelled "Talinn"."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    ax.barh(CITIES, [14, 9, 6, 11, 8], color="#3b7dd8")
    ax.set_title("Regional Store Openings 2025", fontsize=18, fontweight="bold")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def test_siblings_are_the_lines_of_its_height_on_its_edge_or_row():
    lines = [Line((Word(t, (40, y, 80, y + 11)),)) for t, y in (("Krakow", 44), ("Valencia", 94), ("Talinn", 144))]
    lines.append(Line((Word("Sales by city, 2024", (100, 5, 300, 25)),)))  # a title: not its height
    assert [ln.text for ln in siblings(lines, {2}, lines[2].box)] == ["Valencia", "Krakow"]


@needs_tesseract
def test_regular_label_among_regular_labels_is_rewritten_regular():
    img = hbar()
    editor = TextEditor()
    out = editor.edit(
        img, "", failed('Are the y-axis category labels "Lisbon", "Oslo", "Tallinn", "Valencia" and "Krakow"?'), 0
    )
    act = next(a for a in editor.last_actions if a["text"] == "Tallinn")
    assert act["action"] == "replace" and act["was"] == "Talinn"
    assert act["type"]["bold"] is False and act["type"]["family"] == "DejaVu Sans"
    assert act["damaged_px"] == 0 and act["moved_px"] <= 1  # right-aligned where it was
    changed = (np.asarray(out) != np.asarray(img)).any(2)
    assert not changed[:, act["erased"][0][2] + 3 :].any()  # the ticks, the axis, the bars untouched
