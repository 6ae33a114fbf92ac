"""Text editor (issue 32, a third tester's pages in matplotlib's dark_background and ggplot styles).

- The dark chart's annotation "Deploy v2.7" was rewritten in DejaVu Serif, the chart's face being
  DejaVu Sans: matplotlib sets text at fractional pixel positions, and the matcher compared the
  ink only with renderings at whole pixels. Polarity plays no part: the same text dark on light at
  the same position failed alike. Each word is now compared at its best sub-pixel phase, and a
  near tie of a face's two weights goes to the one whose ink amount is nearer (matplotlib's
  Liberation Serif at some phases scored its bold as high as its regular).
- The ggplot title's rewrite left the old parentheses' tails under the new ones: the erase's
  background plane, fitted to a ring that touched the grey axes two rows under the title, was
  tilted, and the rows of the tails, off that plane all along, were kept as a rule.

The pages are drawn here with matplotlib, so each assertion is against the truth of the drawing.
"""

import io
import shutil

import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

from documents.fonts import installed_faces
from refine.editors.text import TextEditor
from refine.editors.text.colours import box_colours
from refine.editors.text.type_match import match_type, phased, shift_coverage

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
FACES = installed_faces()
QUARTERS = (0.0, 0.25, 0.5, 0.75)


def _plt():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> np.ndarray:
    plt = _plt()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return np.asarray(Image.open(buf).convert("RGB"))


def annotation(family: str, fx: float, fy: float, dark: bool) -> tuple[np.ndarray, tuple, list]:
    """'Deploy v2.7' at 12 pt in ``family``, set ``fx``, ``fy`` px off the pixel grid on a 300 x 100
    px figure (white on black in dark_background, else black on white). Returns the image, the
    text's ink box and its two words' ink boxes (split at the widest blank run of columns)."""
    plt = _plt()
    with plt.style.context("dark_background" if dark else "default"):
        fig = plt.figure(figsize=(3, 1), dpi=100)
        fig.text((40 + fx) / 300, (40 + fy) / 100, "Deploy v2.7", fontsize=12, family=family)
        arr = _png(fig)
    inked = np.abs(arr.astype(int) - arr[0, 0].astype(int)).max(2) > 40
    ys, xs = np.nonzero(inked)
    box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    cols = np.flatnonzero(inked.any(0))
    gap = int(np.argmax(np.diff(cols)))
    split = int(cols[gap]) + 1, int(cols[gap + 1])
    words = [((box[0], box[1], split[0], box[3]), "Deploy"), ((split[1], box[1], box[2], box[3]), "v2.7")]
    return arr, box, words


def test_shift_coverage_moves_a_stem_by_its_share():
    cov = np.zeros((2, 3), np.float32)
    cov[:, 1] = 1.0  # a one-pixel stem
    out = shift_coverage(cov, np.array([0.0, 0.25]), np.array([0.0, 0.5]))
    assert out.shape == (2, 2, 3, 4)
    assert np.allclose(out[0, 0, :2, :3], cov) and out[0, 0, 2].sum() == 0 and out[0, 0, :, 3].sum() == 0
    assert np.allclose(out[0, 1, 0], [0, 0.75, 0.25, 0])  # a quarter pixel right
    assert np.allclose(out[1, 0, :, 1], [0.5, 1.0, 0.5])  # half a pixel down
    assert np.isclose(out.sum(axis=(2, 3)), cov.sum()).all()  # ink is kept


def test_phased_renderings_start_with_the_whole_pixel_one():
    font = FACES[0].font(17)
    maps = phased("Deploy", font)
    assert len(maps) == len(QUARTERS) ** 2
    first = maps[0]
    assert first.max() == pytest.approx(1.0) and maps[5].max() < 1.0  # (0.25, 0.25): every stem spread


@pytest.mark.parametrize("family", ["DejaVu Sans", "DejaVu Serif", "Liberation Serif"])
@pytest.mark.parametrize("dark", [True, False], ids=["light_on_dark", "dark_on_light"])
def test_matplotlib_text_off_the_pixel_grid_is_matched_to_its_own_face(family, dark):
    got = []
    for fy in QUARTERS:
        for fx in QUARTERS:
            arr, box, words = annotation(family, fx, fy, dark)
            ink, bg = box_colours(arr, box)
            assert (sum(ink) > sum(bg)) == dark
            st = match_type(arr, box, "Deploy v2.7", ink, bg, FACES, words)
            got.append((fx, fy, st.face.family, st.face.bold, st.face.italic))
    wrong = [g for g in got if g[2:] != (family, False, False)]
    assert not wrong, wrong


def dark_chart(label: str) -> np.ndarray:
    """The tester's dark_background line chart (8 x 5 in at 100 dpi, DejaVu Sans) with the
    annotation ``label``."""
    plt = _plt()
    with plt.style.context("dark_background"):
        fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
        w = np.arange(1, 9)
        ax.plot(w, [40, 42, 39, 45, 41, 38, 37, 36], label="p50", color="#4cc9f0")
        ax.plot(w, [90, 95, 88, 120, 99, 92, 90, 85], label="p95", color="#f72585")
        ax.set_title("Server Latency by Week", fontsize=18)
        ax.annotate(label, (4, 120), xytext=(5, 125), fontsize=12, arrowprops=dict(arrowstyle="->", color="white"))
        ax.set_ylim(0, 140)
        ax.legend(loc="lower right", fontsize=12)
        fig.tight_layout()
        return _png(fig)


@needs_tesseract
def test_dark_charts_annotation_is_rewritten_in_the_charts_sans():
    img = dark_chart("Deploy v2.7")
    editor = TextEditor()
    out = editor.edit(Image.fromarray(img), "", failed('Does the annotation read exactly "Deploy v2.4"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["was"] == "Deploy v2.7"
    assert (act["type"]["family"], act["type"]["bold"], act["type"]["italic"]) == ("DejaVu Sans", False, False)
    assert act["damaged_px"] == 0
    changed = (np.asarray(out) != img).any(2)
    x0, y0, x1, y1 = act["boxes"][0]
    assert changed.any() and not changed[:y0].any() and not changed[y1:].any()


def ggplot_title(title: str) -> np.ndarray:
    """The tester's ggplot stacked area chart (8 x 5 in at 100 dpi) titled ``title`` (16 pt)."""
    plt = _plt()
    with plt.style.context("ggplot"):
        fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
        ax.stackplot(range(6), [3, 4, 4, 5, 6, 7], [2, 2, 3, 3, 3, 4], labels=["Mobile", "Desktop"])
        ax.set_title(title, fontsize=16)
        ax.legend(loc="upper left", fontsize=12)
        fig.tight_layout()
        return _png(fig)


@needs_tesseract
def test_a_title_rewrite_erases_the_old_parentheses_and_descenders_whole():
    right = "Daily Signups by Region (grouped, yearly)"
    img, clean = ggplot_title("Daily Signupps by Region (grouped, yearly)"), ggplot_title(right)
    editor = TextEditor()
    out = editor.edit(Image.fromarray(img), "", failed(f'Does the chart title read exactly "{right}"?'), 0)
    act = editor.last_actions[0]
    assert act["action"] == "replace" and act["damaged_px"] == 0
    x0, y0, x1, y1 = act["boxes"][0]  # the erased box, padding included
    band = np.asarray(out)[y0:y1].astype(int)
    assert (img[y1 + 1, x0:x1] != 255).any()  # the axes' grey fill starts just under it
    # the right title as matplotlib draws it, moved along the row to where the rewrite set it (the
    # rewrite keeps the old left edge, matplotlib centres), grown by 2 px: the new text's only place
    ink_out = (np.abs(band - 255).max(2) > 40).astype(int)
    ink_clean = (np.abs(clean[y0:y1].astype(int) - 255).max(2) > 40).astype(int)
    dx = max(range(-12, 13), key=lambda d: int((np.roll(ink_clean, d, 1) * ink_out).sum()))
    near = np.zeros(ink_clean.shape, bool)
    for sy in range(-2, 3):
        for sx in range(dx - 2, dx + 3):
            near |= np.roll(np.roll(ink_clean, sy, 0), sx, 1).astype(bool)
    old = np.abs(img[y0:y1].astype(int) - 255).max(2) > 40
    assert (old & ~near).sum() > 100  # the misspelt title's ")" and "(" tails stand away from the right one
    # away from the right title, every pixel of the band is the page's white: no tail, no grey
    assert (band[~near] == 255).all()
