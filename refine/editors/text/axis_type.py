"""A chart's tick labels measured to a fraction of a pixel, for setting a missing axis title.

matplotlib places an axis title ``labelpad`` points beyond the layout boxes of the tick labels
(``axis.XAxis._update_label_position``), and a layout box reaches the face's line metrics past
the baseline (``text.Text._get_layout``, matplotlib 3.10+: ascent ``max(ink, sTypoAscender)``,
descent ``max(ink, -sTypoDescender)`` of the OS/2 table, hhea without one). The title's ink then
fills its own box within a fraction of a pixel (parentheses reach 0.25 px from its top in
Liberation Serif), so its slot needs the tick labels' size and baseline to better than the
whole pixels ``type_match`` gives (it matched 16 px to matplotlib's 14.58 px Liberation Serif
and put "Users (thousands)" 2 px under its box). Here:

- the size is the tick labels' ink heights on the page, edges read to a fraction of a pixel from
  their antialiasing, over their heights in the face at 1 px (``fit_size``; ``place_axis_title``
  then settles it on their widths as matplotlib itself sets them, ``mpl_text``).
"""

from __future__ import annotations

import numpy as np

from documents.fonts import Face
from refine.editors.text.type_match import coverage, render_coverage

EM_PROBE = 200.0
"""Size (px) at which a string's width in em is read: large enough that hinting moves it < 0.5%."""
FAINT = 0.02
"""Least coverage of a column or row that counts as ink when edges are read."""


def ink_edges(profile: np.ndarray) -> tuple[float, float] | None:
    """(first, last) edge of the ink along a coverage ``profile`` (the most covered pixel of each
    column), to a fraction of a pixel: an edge pixel covered a share ``c`` holds ``c`` of ink on
    the glyph's side. None when no pixel is inked."""
    on = np.flatnonzero(profile >= FAINT)
    if not len(on):
        return None
    a, b = on[0], on[-1]
    return a + 1 - float(min(1.0, profile[a])), b + float(min(1.0, profile[b]))


def ink_extent(arr: np.ndarray, box, ink, bg) -> tuple[float, float, float] | None:
    """(left, right, centroid row) of the ink in ``box`` of ``arr``: left and right edges to a
    fraction of a pixel (``ink_edges``), the coverage-weighted mean row; None when the box is blank."""
    x0, y0, x1, y1 = (int(v) for v in box)
    cov = coverage(arr[y0:y1, x0:x1], ink, bg)
    if cov.size == 0 or cov.sum() <= 0:
        return None
    edges = ink_edges(cov.max(0))
    if edges is None:
        return None
    rows = cov.sum(1)
    return x0 + edges[0], x0 + edges[1], y0 + float((np.arange(len(rows)) + 0.5) @ rows / rows.sum())


def fit_size(face: Face, measured: list[tuple[str, float]]) -> float | None:
    """The size (px) at which ``face`` sets the strings of ``measured`` ((text, ink height on the
    page, ``ink_height``)) as tall as the page does, all together; None when none has height."""
    page = sum(h for _, h in measured)
    em = sum(em_height(face, t) for t, _ in measured)
    return page / em if em > 0 and page > 0 else None


def ink_height(arr: np.ndarray, box, ink, bg) -> float | None:
    """The height of the ink in ``box`` of ``arr``, its top and bottom edges read to a fraction of
    a pixel (``ink_edges`` of the most covered pixel of each row); None when the box is blank."""
    x0, y0, x1, y1 = (int(v) for v in box)
    cov = coverage(arr[y0:y1, x0:x1], ink, bg)
    edges = ink_edges(cov.max(1)) if cov.size else None
    return edges[1] - edges[0] if edges else None


def em_height(face: Face, text: str) -> float:
    """The ink height of ``text`` set in ``face``, in em (read at ``EM_PROBE`` px)."""
    cov, _ = render_coverage(text, face.font(EM_PROBE))
    edges = ink_edges(cov.max(1))
    return (edges[1] - edges[0]) / EM_PROBE if edges else 0.0
