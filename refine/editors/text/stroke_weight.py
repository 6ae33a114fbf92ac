"""The weight of a rewrite's strokes: as much ink as the engine's text it replaces.

Agg (matplotlib) and Skia (Chromium) set text with more ink than FreeType's grayscale coverage
at the same face and size: on the engine pages of ``benchmarks/engine_refine.py`` the editor's
rewrites held 0.82 to 0.97 of the clean page's ink in the element's box (median 0.91), a
lighter, thinner line beside the page's own. The ink the old text holds on the page, against
the same text rendered in the matched type, gives a gamma ``k`` for the coverage of what is
written (``1 - (1 - a) ** k``: 0 stays 0, so no pixel that the plain rendering leaves alone is
touched, and full coverage stays full).
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.type_match import coverage, render_coverage

LIGHTER, HEAVIER = 0.97, 1.03
"""Ink ratios (page / rendering) within which the rendering is kept as it is."""
MAX_RATIO = 1.5
"""Ratios past this (or under 1 / it) are taken as a misread box, not a heavier face."""


def heavier(alpha: np.ndarray, k: float) -> np.ndarray:
    """Coverage ``alpha`` ((h, w) float in [0, 1]) with gamma ``k``: ``1 - (1 - alpha) ** k``."""
    return alpha if k == 1.0 else 1.0 - (1.0 - alpha) ** k


def weight_gamma(arr: np.ndarray, boxes, texts, font, ink, bg) -> float:
    """The gamma ``k`` (``heavier``) that gives ``texts`` rendered in ``font`` the ink the page
    ``arr`` (uint8 (H, W, 3)) holds in ``boxes`` (one (x0, y0, x1, y1) per text, each grown by
    1 px for the antialiased edge; ink measured by ``type_match.coverage`` between ``bg`` and
    ``ink``); 1.0 when the ratio lies within ``LIGHTER`` .. ``HEAVIER`` or past ``MAX_RATIO``
    either way, or nothing is rendered."""
    h, w = arr.shape[:2]
    measured, alphas = 0.0, []
    for (x0, y0, x1, y1), text in zip(boxes, texts):
        crop = arr[max(0, y0 - 1) : min(h, y1 + 1), max(0, x0 - 1) : min(w, x1 + 1)]
        measured += float(coverage(crop, ink, bg).sum())
        alphas.append(render_coverage(text, font)[0].ravel())
    flat = np.concatenate(alphas) if alphas else np.zeros(0, np.float32)
    rendered = float(flat.sum())
    if rendered <= 0:
        return 1.0
    ratio = measured / rendered
    if LIGHTER <= ratio <= HEAVIER or not 1 / MAX_RATIO <= ratio <= MAX_RATIO:
        return 1.0
    lo, hi = 0.3, 4.0
    for _ in range(30):  # the ink grows with k
        k = (lo + hi) / 2
        if float(heavier(flat, k).sum()) < measured:
            lo = k
        else:
            hi = k
    return round((lo + hi) / 2, 3)
