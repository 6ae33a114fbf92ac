"""The tick labels' type to a fraction of a pixel (``refine.editors.text.axis_type``), read from
strings matplotlib (Agg) set at a known size and baseline."""

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from documents.fonts import installed_faces
from refine.editors.text.axis_type import fit_size, ink_height

STRINGS = ("0", "20", "40", "60", "80", "100", "Sales", "Support")


def _drawn(family: str, points: float, dpi: int):
    """The strings set by matplotlib in ``family`` at ``points`` pt and ``dpi``, one per row, each on
    a baseline at a fractional row: (image, [(text, box, baseline row)])."""
    fig = Figure(figsize=(4, 4), dpi=dpi, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    rows = []
    for i, text in enumerate(STRINGS):
        y = (i + 1) * 44.3 * dpi / 100  # display px from the bottom, not on the pixel grid
        fig.text(0.2, y / fig.bbox.height, text, family=family, size=points, va="baseline")
        rows.append((text, fig.bbox.height - y))
    canvas.draw()
    arr = np.asarray(canvas.buffer_rgba())[..., :3].copy()
    px = points * dpi / 72
    out = [(t, (0, int(b - 1.2 * px), arr.shape[1], int(b + 0.5 * px)), b) for t, b in rows]
    return arr, out


@pytest.mark.parametrize(("family", "points", "dpi"), [("DejaVu Sans", 10.5, 100), ("Liberation Serif", 9, 150)])
def test_size_is_read_to_a_fraction_of_a_pixel(family, points, dpi):
    """The size fitted on the strings' ink heights is within 3% of matplotlib's (10.5 pt at 100 dpi
    is 14.58 px; integer type matching gave 16 px on such labels)."""
    (face,) = [f for f in installed_faces() if f.family == family and not f.bold and not f.italic]
    arr, rows = _drawn(family, points, dpi)
    ink, bg = (0, 0, 0), (255, 255, 255)
    size = fit_size(face, [(t, ink_height(arr, box, ink, bg)) for t, box, _ in rows])
    assert size == pytest.approx(points * dpi / 72, rel=0.03)
