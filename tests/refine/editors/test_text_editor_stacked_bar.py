"""Text editor (issue 32): a stacked bar's missing total goes above the whole stack, over a ggplot
chart's white gridlines (``place_at_bar``: ``stack_top``, ``JUNK_TALL``)."""

import shutil

import matplotlib
import numpy as np
import pytest
from editor_helpers import failed
from PIL import Image

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from refine.editors.text import TextEditor  # noqa: E402

TICKS = ["Q1 2024", "Q2 2024", "Q1 2025", "Q2 2025"]
STACKS = [[20, 25, 17, 30], [11, 8, 20, 5], [17, 18, 24, 29]]


def stacked(shown: list[bool]) -> np.ndarray:
    """900x560 stacked bars in matplotlib's ggplot style (grey plot, white gridlines), each stack's
    total ("48k") above it where ``shown``."""
    with plt.style.context("ggplot"):
        fig, ax = plt.subplots(figsize=(9, 5.6), dpi=100)
        bottom = np.zeros(4)
        for vals in STACKS:
            ax.bar(TICKS, vals, bottom=bottom, width=0.6)
            bottom += vals
        for i, total in enumerate(bottom):
            if shown[i]:
                ax.text(i, total + 1.5, f"{int(total)}k", ha="center", va="bottom", fontsize=11)
        ax.set_ylim(0, 80)
        ax.set_title("Orders by channel")
        fig.canvas.draw()
        img = np.asarray(fig.canvas.buffer_rgba())[..., :3].copy()
    plt.close(fig)
    return img


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")
def test_a_stacked_bar_s_missing_total_goes_above_the_whole_stack():
    """Before: the bar was its bottom segment, and the slot above it was "taken" (the next segment,
    and OCR's "il" read over the gridlines, 342 px high). Now the total stands above the stack, within
    a pixel of where matplotlib sets it, and nothing else changes."""
    start, clean = stacked([True, False, True, True]), stacked([True] * 4)
    editor = TextEditor()
    out = np.asarray(
        editor.edit(Image.fromarray(start), "", failed('Is the value label above the "Q2 2024" bar "51k"?'), 0)
    )
    [act] = editor.last_actions
    assert act["action"] == "place (at its bar's end)", act["action"]
    changed = (out != start).any(2)
    ys, xs = np.nonzero(changed)
    want = np.nonzero((clean != start).any(2))
    assert abs(ys.min() - want[0].min()) <= 1 and abs(ys.max() - want[0].max()) <= 1
    assert abs(xs.min() - want[1].min()) <= 1 and abs(xs.max() - want[1].max()) <= 1
