"""Slanted text OCR does not read: runs of glyph-sized ink along a diagonal that no OCR word covers.

Tesseract reads upright lines and, through the rotated pass (``rewards.text.ocr.rotated``),
columns turned by 90 degrees; a chart's tick labels turned by 30-60 degrees (matplotlib's
``rotation=45``) are read as nothing at all. A string asked of them is then "not read, nor
anything close", which the OCR judge would answer "no" for labels a person reads
(``rewards.judges.ocr_doubt`` withholds instead when :func:`slanted_runs` finds such a run).

A run: at least ``MIN_GLYPHS`` connected ink components, each the size of a glyph of the page's
type (``GLYPH_EM`` of the median OCR word height), outside every box of a word read with
confidence (``SURE_CONF``), chained by
centres at most ``LINK_EM`` em apart, whose centres lie on one line (spread across it at most
``SPREAD_EM`` em) at ``ANGLES`` degrees from the horizontal.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from rewards.common.images import pixels_digest
from rewards.text.ocr.text_match import Line

INK_CONTRAST = 60
"""Grey levels from the page's median from which a pixel is ink."""
GLYPH_EM = (0.3, 1.6)
"""A glyph's height and width, in the page's em (the median OCR word height): bars, lines and
rules are larger, specks smaller."""
LINK_EM = 1.2
"""Centres of two glyphs of one run are at most this many em apart."""
SURE_CONF = 80.0
"""Tesseract confidence (0-100) from which a word covers its ink: below it, a guess at slanted
glyphs ("ov" over a "2" and a "0" of "2024 Q1"), whose ink stays unread."""
MIN_GLYPHS = 4
"""Glyphs a run needs ("2025")."""
ANGLES = (20.0, 70.0)
"""Degrees from the horizontal of a run's line: upright and 90-degree text are read by tesseract."""
SPREAD_EM = 0.35
"""The spread of a run's centres across its line, in em: more is a cluster, not a line of text."""


def _glyphs(image: Image.Image, lines: list[Line]) -> tuple[np.ndarray, float]:
    """(centres (N, 2) as x, y of the glyph-sized ink components outside every OCR word, em)."""
    gray = np.asarray(image.convert("L"), dtype=np.int16)
    ink = np.abs(gray - np.median(gray)) > INK_CONTRAST
    heights = [w.box[3] - w.box[1] for ln in lines for w in ln.words if w.box[3] > w.box[1]]
    em = float(np.median(heights)) if heights else 12.0
    for ln in lines:
        for w in ln.words:
            if w.conf is not None and w.conf < SURE_CONF:  # tesseract's guess at slanted ink ("ov", "ol")
                continue
            x0, y0, x1, y1 = w.box
            ink[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1] = False
    labels, _ = ndimage.label(ink)
    lo, hi = GLYPH_EM[0] * em, GLYPH_EM[1] * em
    centres = [
        ((sl[1].start + sl[1].stop) / 2, (sl[0].start + sl[0].stop) / 2)
        for sl in ndimage.find_objects(labels)
        if lo <= sl[0].stop - sl[0].start <= hi and 0.1 * em <= sl[1].stop - sl[1].start <= hi
    ]
    return np.array(centres, dtype=np.float64).reshape(-1, 2), em


def _chains(centres: np.ndarray, reach: float) -> list[np.ndarray]:
    """Groups of centres linked by steps of at most ``reach`` (indices into ``centres``)."""
    n = len(centres)
    if n == 0:
        return []
    pairs = cKDTree(centres).query_pairs(reach, output_type="ndarray")  # distance <= reach, without an N x N array
    links = coo_matrix((np.ones(len(pairs), dtype=bool), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, group = connected_components(links, directed=False)
    return [np.nonzero(group == g)[0] for g in np.unique(group)]


KEPT_RUNS = 2
"""Pages whose runs :func:`slanted_runs` keeps (the last ones asked)."""
_LAST_RUNS: list = []
"""[(key, runs)], newest last: the judge asks once per unread string, on the same page and read."""


def slanted_runs(image: Image.Image, lines: list[Line]) -> list[tuple[int, int, int, int]]:
    """The boxes ``(x0, y0, x1, y1)`` (pixels) of the runs of slanted glyphs no OCR word of
    ``lines`` covers (module docstring); [] when none. The runs of the last ``KEPT_RUNS`` pages
    are kept, keyed by the pixels' digest, the lines and their words' confidences (which decide
    what is read: ``SURE_CONF``), so asking again on the same page and read costs no search."""
    confs = tuple(w.conf for ln in lines for w in ln.words)
    key = (pixels_digest(image), tuple(lines), confs)
    for k, runs in _LAST_RUNS:
        if k == key:
            return list(runs)
    runs = _search(image, lines)
    _LAST_RUNS[:] = [*_LAST_RUNS[1 - KEPT_RUNS :], (key, tuple(runs))]
    return runs


def _search(image: Image.Image, lines: list[Line]) -> list[tuple[int, int, int, int]]:
    """The runs of :func:`slanted_runs`, searched for."""
    centres, em = _glyphs(image, lines)
    if len(centres) < MIN_GLYPHS or len(centres) > 5000:  # a photo's texture is no text
        return []
    runs = []
    for idx in _chains(centres, LINK_EM * em):
        if len(idx) < MIN_GLYPHS:
            continue
        pts = centres[idx] - centres[idx].mean(axis=0)
        vals, vecs = np.linalg.eigh(pts.T @ pts / len(pts))
        dx, dy = vecs[:, 1]
        angle = np.degrees(np.arctan2(abs(dy), abs(dx)))
        if ANGLES[0] <= angle <= ANGLES[1] and np.sqrt(max(vals[0], 0.0)) <= SPREAD_EM * em:
            (x0, y0), (x1, y1) = centres[idx].min(axis=0), centres[idx].max(axis=0)
            runs.append((int(x0), int(y0), int(x1), int(y1)))
    return runs
