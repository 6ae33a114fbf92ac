"""The rotated pass of the OCR read (``rewards.text.ocr.ocr_read``): columns of letter-sized ink much taller
than wide that the page passes did not read (:func:`find_rotated_text`, :func:`tall_fills`), each read
turned by 90 and by 270 degrees, and the better turn merged into the page's lines.
"""

from __future__ import annotations

import numpy as np
from PIL import Image
from scipy import ndimage

from rewards.text.ocr.fills import _pad, fill_tile
from rewards.text.ocr.tesseract_lines import (
    Fill,
    _mean_conf,
    _mosaic,
    _mostly_inside,
    _ReadLine,
    _tesseract,
    _words,
)
from rewards.text.ocr.text_match import Line, Word, boxes_meet

COLUMN_RATIO = 2.5
"""A column of ink is read rotated when its height is at least this many times its width."""

MIN_ROTATED_CONF = 75.0
"""Tesseract confidence (0-100) a rotated reading needs to be kept: axis titles read 94-96 on the
rendered and matplotlib charts; columns that were no rotated text (horizontal lines that touch)
read up to 64."""

ROTATED_SIDE = 2000
"""Pixels: rotated columns are looked for on a copy whose longer side is at most this."""


def find_rotated_text(
    rgb: Image.Image,
    known: list[tuple[int, int, int, int]],
    contrast: int = 40,
    ratio: float = COLUMN_RATIO,
    min_width: int = 6,
    max_glyph: int = 120,
    max_columns: int = 8,
) -> list[Fill]:
    """Columns of letter-sized ink much taller than wide that no horizontal reading covers.

    Ink is every pixel whose luminance differs from the page's (the median) by more than
    ``contrast``, on a copy whose longer side is at most ``ROTATED_SIDE``. Its connected components
    (8-connectivity) are glyphs when their short side is 2..``max_glyph`` pixels, their long side
    at most 15x the short one (axis lines and grid lines are not), and they are not solid blocks
    (bars). Each glyph's box is stretched up and down by half its width (the gap between two
    words of a rotated line is ~0.3 of its type size, the width of a glyph of that line ~0.7), and
    the stretched boxes that touch form a column. A column is kept when it holds at least two
    glyphs, is at least ``min_width`` pixels wide (smaller than a letter is skipped), at least
    ``ratio`` x as high as wide and at most 3x as wide as its median glyph (one line of rotated
    text is 1.2-1.6x; stacked horizontal lines joined through a badge were 4.5-7.5x), and the
    ``known`` boxes (words read horizontally, with confidence) that overlap it cover less than
    half its height: a stack of short horizontal lines (a table column of numbers) is also tall
    and thin, and so are letters of two lines of a paragraph that touch ("by" above "th"), which
    are also told apart by the ink beside them (``_flanked``: at least 30% of the column's rows
    have ink within a quarter of its width left or right of it).

    Args:
        rgb: the page.
        known: ``(x0, y0, x1, y1)`` boxes, in pixels of ``rgb``, of trusted horizontal words
            (``horizontal_boxes``).

    Returns:
        At most ``max_columns`` columns, tallest first, as fills (``box`` padded by 3 px,
        ``shape`` all True, ``fill`` = the non-ink pixels, ``text_height`` = the median width of
        its glyphs) in pixels of ``rgb``.
    """
    ink_full, ink, f = _ink(rgb, contrast)
    g_boxes, stretched = _glyphs(ink, f, max_glyph)
    if not len(g_boxes):
        return []
    boxes, members = _columns_of(g_boxes, stretched)
    out = []
    for k in np.flatnonzero((boxes[:, 3] - boxes[:, 1]) >= 1.5 * (boxes[:, 2] - boxes[:, 0])):
        if len(members[k]) < 2 or (boxes[k, 2] - boxes[k, 0]) < min_width * f:
            continue
        box, glyph_ids = _grow_column(boxes, members, k)
        widths = g_boxes[glyph_ids, 2] - g_boxes[glyph_ids, 0]
        x0, y0, x1, y1 = (v / f for v in box)
        w, h, text_h = x1 - x0, y1 - y0, float(np.median(widths)) / f
        if h < ratio * w or w > 3 * text_h:
            continue
        box = (
            max(0, int(x0) - 3),
            max(0, int(y0) - 3),
            min(rgb.width, int(np.ceil(x1)) + 3),
            min(rgb.height, int(np.ceil(y1)) + 3),
        )
        if _covered_height(box, known) >= 0.5 * h or any(boxes_meet(box, o.box) for _, o in out):
            continue
        if _flanked(ink_full, box, max(2, round(0.25 * w))) >= 0.3:
            continue
        region = ink_full[box[1] : box[3], box[0] : box[2]]
        out.append((h, Fill(box, np.ones_like(region), ~region, text_h)))
    out.sort(key=lambda t: -t[0])
    return [fl for _, fl in out[:max_columns]]


def _ink(rgb: Image.Image, contrast: int) -> tuple[np.ndarray, np.ndarray, float]:
    """(ink of ``rgb``, ink of its copy with the longer side at most ``ROTATED_SIDE``, the scale
    of that copy): pixels whose luminance differs from the paper's (``paper_level``) by more than
    ``contrast``."""
    gray_full = np.asarray(rgb.convert("L")).astype(np.int16)
    page = paper_level(gray_full)
    ink_full = np.abs(gray_full - page) > contrast
    f = min(1.0, ROTATED_SIDE / max(rgb.size))
    ink = ink_full
    if f < 1.0:
        small = rgb.convert("L").resize((max(1, round(rgb.width * f)), max(1, round(rgb.height * f))), Image.BOX)
        ink = np.abs(np.asarray(small).astype(np.int16) - page) > contrast
    return ink_full, ink, f


def paper_level(gray: np.ndarray) -> int:
    """The paper's luminance of a page ``gray`` (0-255): its most common level, counted in bands
    of 5 (anti-aliasing and JPEG noise spread one colour over a few levels). Not the median: on a
    chart whose fills cover more than half the page (a stacked area chart, 45% white) the median
    is a fill's level, every white pixel was "ink" and the y-axis title beside it no glyph."""
    counts = np.bincount(np.clip(gray, 0, 255).ravel() // 5, minlength=52)
    band = int(np.argmax(counts))
    inside = gray[(gray // 5) == band]
    return int(np.median(inside))


def _glyphs(ink: np.ndarray, f: float, max_glyph: int) -> tuple[np.ndarray, np.ndarray]:
    """(the ``(n, 4)`` boxes ``x0, y0, x1, y1`` of the glyphs of ``ink``, the mask of their boxes
    stretched up and down by half their width), in pixels of ``ink`` (the copy at scale ``f``);
    the rules are ``find_rotated_text``'s."""
    labels, n = ndimage.label(ink, structure=np.ones((3, 3), bool))
    stretched = np.zeros_like(ink)
    if n == 0:
        return np.zeros((0, 4), int), stretched
    area = np.bincount(labels.ravel(), minlength=n + 1)
    glyphs = []
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        y0, y1, x0, x1 = sl[0].start, sl[0].stop, sl[1].start, sl[1].stop
        h, w = y1 - y0, x1 - x0
        short, long = min(h, w), max(h, w)
        if not 2 <= short <= max_glyph * f or long > 15 * short:
            continue
        if short > 4 and area[k] > 0.9 * h * w:
            continue  # a solid block: a bar or a swatch, not a letter
        g = int(np.ceil(0.5 * w))
        stretched[max(0, y0 - g) : y1 + g, x0:x1] = True
        glyphs.append((x0, y0, x1, y1))
    return (np.array(glyphs) if glyphs else np.zeros((0, 4), int)), stretched


def _columns_of(g_boxes: np.ndarray, stretched: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """(the ``(m, 4)`` boxes of the clusters of glyphs whose stretched boxes touch, the glyph
    indices of each cluster), clusters in the order of their labels in ``stretched``."""
    cols, _ = ndimage.label(stretched)
    label = cols[(g_boxes[:, 1] + g_boxes[:, 3]) // 2, (g_boxes[:, 0] + g_boxes[:, 2]) // 2]
    order = np.argsort(label, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(label[order]) != 0])
    members = np.split(order, starts[1:])  # glyph indices per cluster
    boxes = np.stack(
        [
            np.minimum.reduceat(g_boxes[order, 0], starts),
            np.minimum.reduceat(g_boxes[order, 1], starts),
            np.maximum.reduceat(g_boxes[order, 2], starts),
            np.maximum.reduceat(g_boxes[order, 3], starts),
        ],
        axis=1,
    )
    return boxes, members


def tall_fills(
    fills: list[Fill], known: list[tuple[int, int, int, int]], ratio: float = COLUMN_RATIO, min_width: int = 6
) -> list[Fill]:
    """The ``fills`` (``find_fills``) whose enclosed text is a column: a vertical tag or ribbon
    with light text on a dark band, which the ink of ``find_rotated_text`` (pixels unlike the page)
    sees as one solid block. The text (pixels inside the fill's outline, not of its colour) spans
    a box at least ``min_width`` wide and ``ratio`` x as high as wide, and the ``known`` words cover
    less than half of it (a bar with its value label on top encloses no such column)."""
    out = []
    for f in fills:
        ys, xs = np.nonzero(f.shape & ~f.fill)
        if not len(ys):
            continue
        w, h = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        if w >= min_width and h >= ratio * w and _covered_height(f.box, known) < 0.5 * h:
            out.append(f)
    return out


def _flanked(ink: np.ndarray, box, side: int) -> float:
    """Share of the rows of ``box`` that have ink within ``side`` pixels left or right of it: letters
    of a paragraph's lines stacked into a column have their words' other letters beside them, a
    rotated line has free space (or a tick label further off)."""
    x0, y0, x1, y1 = box
    left = ink[y0:y1, max(0, x0 - side) : x0].any(axis=1)
    right = ink[y0:y1, x1 : x1 + side].any(axis=1)
    return float((left | right).mean()) if y1 > y0 else 0.0


def _grow_column(boxes: np.ndarray, members: list[np.ndarray], k: int) -> tuple[tuple, np.ndarray]:
    """Cluster ``k`` joined with the clusters above and below it that continue it: at most 1.3x as
    wide, overlapping it horizontally by half the narrower width, at most one column width away
    (a monospaced face leaves a whole cell between two rotated words; a short last word such as
    "(ms)" is no column of its own)."""
    x0, y0, x1, y1 = (int(v) for v in boxes[k])
    ids, taken = [members[k]], {int(k)}
    widths = boxes[:, 2] - boxes[:, 0]
    for _ in range(16):
        w = x1 - x0
        overlap = np.minimum(boxes[:, 2], x1) - np.maximum(boxes[:, 0], x0)
        gap = np.maximum(boxes[:, 1] - y1, y0 - boxes[:, 3])
        near = (widths <= 1.3 * w) & (overlap >= 0.5 * np.minimum(widths, w)) & (gap <= w)
        new = [int(j) for j in np.flatnonzero(near) if int(j) not in taken]
        if not new:
            break
        for j in new:
            taken.add(j)
            ids.append(members[j])
            x0, y0 = min(x0, int(boxes[j, 0])), min(y0, int(boxes[j, 1]))
            x1, y1 = max(x1, int(boxes[j, 2])), max(y1, int(boxes[j, 3]))
    return (x0, y0, x1, y1), np.concatenate(ids)


def _covered_height(box, known) -> int:
    """Pixels of ``box``'s height covered by the ``known`` boxes that overlap it."""
    rows = np.zeros(box[3] - box[1], bool)
    for k in known:
        if boxes_meet(box, k):
            rows[max(0, k[1] - box[1]) : max(0, k[3] - box[1])] = True
    return int(rows.sum())


def horizontal_boxes(lines: list[_ReadLine], min_conf: float = 70.0) -> list[tuple[int, int, int, int]]:
    """Word boxes of the lines read horizontally with at least ``min_conf``: lines in which every
    word of at least two characters is at least as wide as high (tesseract's own reading of a
    column printed bottom to top gives tall words in the wrong order, which does not count)."""
    out = []
    for r in lines:
        words = r.line.words
        if r.conf >= min_conf and r.line.angle == 0 and not any(_tall(wd) for wd in words):
            out.extend(wd.box for wd in words)
    return out


def _tall(word: Word) -> bool:
    x0, y0, x1, y1 = word.box
    return len(word.text) >= 2 and (y1 - y0) > (x1 - x0)


_PLAIN = set("()[]%$€£#&+-.,:;/'\"!?")


def _plausibility(text: str) -> float:
    """Share of the characters that are letters, digits, spaces or ordinary punctuation."""
    return sum(c.isalnum() or c.isspace() or c in _PLAIN for c in text) / max(1, len(text))


def read_rotated(rgb: Image.Image, columns: list[Fill], lang: str = "eng", psm: int = 6) -> list[_ReadLine]:
    """Read every column turned by 90 and by 270 degrees, in one tesseract call on a vertical
    mosaic of the turned tiles (``fill_tile``: black text on white, ~``FILL_TEXT_HEIGHT`` high):
    psm 6 (a block of lines, each tile one line) instead of one psm 7 call per tile, which would
    cost two tesseract starts per column.

    Per column the turn with the higher score (character-weighted mean confidence x the share of
    ordinary characters) is kept: an upside-down reading comes out as "(spuesnou}) siasn" at a
    low confidence. Words are ordered along the turned line (reading order) and their boxes
    mapped back to pixels of ``rgb``.

    Returns:
        One line per column that read anything, ``angle`` 90 or 270, ``fill_box`` = the column.

    Raises:
        OCRError: tesseract failed.
    """
    gray = np.asarray(rgb.convert("L"))
    tiles = []  # (turned tile, column index, angle, tile shape before turning, scale)
    for i, col in enumerate(columns):
        tile, s = fill_tile(gray, col)
        tiles.append((np.rot90(tile, k=-1), i, 90, tile.shape, s))  # bottom-to-top text turned clockwise
        tiles.append((np.rot90(tile, k=1), i, 270, tile.shape, s))
    mosaic, offsets = _mosaic([t for t, *_ in tiles])
    read: dict[int, list[tuple[float, Word, float]]] = {}  # tile -> (position along the line, word, conf)
    for _, text, conf, (x, wy, w, h) in _words(_tesseract(Image.fromarray(mosaic), lang, psm)):
        j = int(np.searchsorted(offsets, wy + h / 2, side="right")) - 1
        _, i, angle, (th, tw), s = tiles[j]
        col = columns[i]
        rx0, ry0, rx1, ry1 = x, wy - offsets[j], x + w, wy - offsets[j] + h
        if angle == 90:  # turned[i, j] = tile[th - 1 - j, i]
            tx0, ty0, tx1, ty1 = ry0, th - rx1, ry1, th - rx0
        else:  # turned[i, j] = tile[j, tw - 1 - i]
            tx0, ty0, tx1, ty1 = tw - ry1, rx0, tw - ry0, rx1
        pad = _pad(s)
        bx, by = col.box[0] - pad / s, col.box[1] - pad / s  # the tile's origin in pixels of rgb
        box = (int(bx + tx0 / s), int(by + ty0 / s), int(round(bx + tx1 / s)), int(round(by + ty1 / s)))
        box = (max(col.box[0], box[0]), max(col.box[1], box[1]), min(col.box[2], box[2]), min(col.box[3], box[3]))
        if box[2] > box[0] and box[3] > box[1]:
            read.setdefault(j, []).append((x, Word(text, box, conf), conf))
    best: dict[int, tuple[float, _ReadLine]] = {}
    for j, found in read.items():
        _, i, angle, _, _ = tiles[j]
        found.sort(key=lambda t: t[0])
        words = tuple(wd for _, wd, _ in found)
        sizes = [max(1, len(wd.text)) for wd in words]
        conf = sum(c * n for (_, _, c), n in zip(found, sizes)) / sum(sizes)
        line = Line(words, angle=angle)
        score = conf * _plausibility(line.text)
        if i not in best or score > best[i][0]:
            best[i] = (score, _ReadLine(line, conf, columns[i].box))
    return [best[i][1] for i in sorted(best)]


def _read_rotated_each(rgb: Image.Image, columns: list[Fill], lang: str = "eng") -> list[_ReadLine | None]:
    """``read_rotated``, per column: its line, or None when it read nothing."""
    read = {r.fill_box: r for r in read_rotated(rgb, columns, lang)}
    return [read.get(c.box) for c in columns]


def merge_rotated_lines(page: list[_ReadLine], rotated: list[_ReadLine]) -> list[_ReadLine]:
    """Page lines plus rotated lines: a rotated line read with at least ``MIN_ROTATED_CONF``
    replaces the page lines that lie (80% of their box) inside its column when there are none,
    when one of them is tesseract's own vertical reading (tall words, ``horizontal_boxes``) or when
    their mean confidence is lower (a rotated word read as "s", "fe", "Bs"); otherwise it is
    dropped. Page lines that reach outside the column are kept without their words of at most two
    characters whose centre lies in it (the fragments tesseract makes of a rotated word)."""
    kept = list(page)
    for r in rotated:
        if r.conf < MIN_ROTATED_CONF or r.fill_box is None:
            continue
        hits = [p for p in kept if _mostly_inside(p.line.box, r.fill_box)]
        if hits and not any(_tall(w) for p in hits for w in p.line.words) and r.conf <= _mean_conf(hits):
            continue
        kept = [_without_words_in(p, r.fill_box) for p in kept if not any(p is h for h in hits)]
        kept = [p for p in kept if p.line.words] + [r]
    return kept


def _without_words_in(r: _ReadLine, box) -> _ReadLine:
    """``r`` without its words of at most two characters whose centre lies in ``box`` (a letter of
    a rotated line that tesseract joined to a horizontal neighbour: "s 30" = "s" of "Revenue" +
    the tick label "30")."""

    def fragment(w):
        cx, cy = (w.box[0] + w.box[2]) / 2, (w.box[1] + w.box[3]) / 2
        return len(w.text) <= 2 and box[0] <= cx < box[2] and box[1] <= cy < box[3]

    words = tuple(w for w in r.line.words if not fragment(w))
    return r if len(words) == len(r.line.words) else _ReadLine(Line(words, r.line.angle), r.conf, r.fill_box)
