"""A seventh tester's pages (``benchmarks/fresh7_pages.py``): a matplotlib title centred over its axes
(not over the page) rewritten with a word it had lost stays centred where the engine centres it
(``rewrite._centred_over_run_below``; it was set from the old left edge, 21 px off; issue 32)."""

import shutil

import matplotlib
import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from refine.editors.text import TextEditor  # noqa: E402


def bars(title: str) -> Image.Image:
    """900x540: four bars on a log axis, the axes from 12% to 97% of the width, ``title`` centred
    over the axes (matplotlib's default), so 40 px right of the page's centre."""
    fig, ax = plt.subplots(figsize=(9, 5.4), dpi=100)
    ax.bar(["Email", "Chat", "Phone", "Forum"], [48200, 6300, 870, 95], color="#c44e52", width=0.6)
    ax.set_yscale("log")
    ax.set_title(title, fontsize=19)
    ax.spines[["top", "right"]].set_visible(False)
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.1, top=0.9)
    fig.canvas.draw()
    img = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3].copy())
    plt.close(fig)
    return img


def title_ink(img: Image.Image) -> tuple[int, int]:
    """The first and last columns of dark ink in the title band (rows 15-60, right of the y axis)."""
    band = np.asarray(img.convert("L"))[15:60, 150:]
    cols = np.flatnonzero((band < 128).any(0))
    return int(cols[0]) + 150, int(cols[-1]) + 150


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
def test_a_title_centred_over_its_axes_stays_centred_when_rewritten():
    start, clean = bars("Support Tickets Channel"), bars("Support Tickets by Channel")
    editor = TextEditor()
    out = editor.edit(start, "", failed('Is the chart title exactly "Support Tickets by Channel"?'), 0)
    assert any(a["text"] == "Support Tickets by Channel" for a in editor.last_actions)
    (a0, a1), (b0, b1) = title_ink(out), title_ink(clean)
    assert abs((a0 + a1) / 2 - (b0 + b1) / 2) <= 2, ((a0, a1), (b0, b1))


NARROW = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"


@pytest.mark.skipif(not __import__("os").path.isfile(NARROW), reason="Liberation Sans Narrow not installed")
def test_a_narrow_face_is_matched_as_itself():
    # the pricing page's button "Start free trial", set in Liberation Sans Narrow, was rewritten in
    # Liberation Sans (match 0.69), wider: the editor's faces now hold the narrow cuts (``faces``)
    from PIL import ImageDraw, ImageFont

    from refine.editors.text.faces import editor_faces
    from refine.editors.text.type_match import match_type

    img = Image.new("RGB", (360, 60), (61, 108, 242))
    ImageDraw.Draw(img).text((20, 16), "Start free trial", font=ImageFont.truetype(NARROW, 18), fill="white")
    style = match_type(np.asarray(img), (16, 12, 160, 44), "Start free trial", (255, 255, 255), (61, 108, 242),
                       editor_faces())  # fmt: skip
    assert style is not None and style.face.family == "Liberation Sans Narrow", style


def test_erasing_a_left_aligned_title_keeps_the_spine_that_starts_under_it():
    """The report split's stacked area chart: the title set flush with the axes' left edge
    (``loc="left"``), the top spine 3 px under its descenders, starting under its first letter.
    Erasing the title erased the spine under it (1,093 px: the frame's top line broken)."""
    from PIL import ImageDraw

    from documents.fonts import installed_faces
    from refine.editors.text.erase import erase

    img = Image.new("RGB", (760, 120), "white")
    d = ImageDraw.Draw(img)
    d.line([(76, 50), (700, 50)], fill="black", width=1)
    face = next(f for f in installed_faces() if f.family == "DejaVu Sans" and not f.bold and not f.italic)
    d.text((77, 22), "Generation Capacity 2015-2021", font=face.font(24), fill="black")
    arr = np.asarray(img).copy()
    erase(arr, (74, 19, 478, 52))
    assert (arr[50, 76:700] < 60).all(), "the spine is kept"
    assert (arr[19:48, 74:478] > 200).all(), "the title is gone"
