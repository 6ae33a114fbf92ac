"""The elements of a page a question may be about, found from OCR lines and pixels.

``find_elements(element, lines, image, size)`` returns the elements of the page that fill the
role of an :class:`rewards.text.question_compiler.ElementSpec` ("the title", "the second KPI
card", "the y-axis label", ...), or None when code cannot tell which they are (the role is not
found on this page, or it needs the image and there is none). A decision must then leave the
element part unknown: never "yes" for a string found somewhere else.

Each finder below uses one rule, written in its docstring. Shared measures:

- **type size** (``type_size``): a line's em in pixels, its words' box height divided by the
  share of the em their characters span (``rewards.text.text_style.em_fraction``), the median
  over its words; for a rotated line the box's width is its height; for a line inside a badge
  (OCR gives it the badge's box) the height of its ink (``_page_sizes``).
- **block**: consecutive lines of one column (``rewards.text.text_match.next_lines``) of about the
  same type size (``SAME_SIZE``): a title or a paragraph that wraps.
- **element words**: a line's words without the marks OCR reads in a bullet or swatch at its
  ends (a word with no letter or digit, or a lone bullet letter: "e", "o").
- **rectangles** (``enclosing_box``): a border or the edge of a filled panel found on all four
  sides of a line: the cards, tiles, buttons and bands of a page.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image; a line's words are ``(line index,
word index)`` pairs into ``lines``, as in ``rewards.text.text_match.Match.words``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median
from typing import Callable

import numpy as np
from PIL import Image
from scipy import ndimage

from rewards.text.ocr_read import find_fills
from rewards.text.question_compiler import ElementSpec
from rewards.text.text_match import Line, contains, find_matches, next_lines, union_box
from rewards.text.text_style import em_fraction, ink_of, measure

Box = tuple[int, int, int, int]
WordId = tuple[int, int]

TOP_BAND = 0.3
"""Share of the image height (from the top) the title's centre lies in."""
BOTTOM_BAND = 0.8
"""A footer's centre lies below this share of the image height."""
SAME_SIZE = 1.15
"""Two lines whose type sizes differ by at most this factor are of one size (one block, one list)."""
TITLE_SIZE = 0.9
"""Lines of the top band at least this share of its largest type size are title candidates."""
HEADING_SIZE = 1.15
"""A heading's type is at least this factor larger than the median of the body lines under it."""
BULLET_GLYPHS = frozenset("•·▪◦‣●○■□*-–—>»›oe°")
"""What OCR reads for a bullet mark in front of a line (a dot is often read "e" or "o")."""
MAX_PAGE_SHARE = 0.6
"""A rectangle covering more than this share of the image is the page or a background panel, not a card."""
CARD_LIKE = 0.2
"""Rectangles whose widths and heights differ by at most this share are cards of one kind."""


@dataclass(frozen=True)
class Element:
    """One element of the page.

    Attributes:
        role: the ``ElementSpec.role`` it was found for.
        box: the box of its text (pixels).
        lines: indices of its OCR lines.
        words: its words (``(line, word)`` pairs), without bullet or swatch marks.
        text: its words' text, joined by spaces.
        frame: the rectangle it lies in (a card, button or band), or None.
    """

    role: str
    box: Box
    lines: tuple[int, ...]
    words: tuple[WordId, ...]
    text: str
    frame: Box | None = None

    def as_dict(self) -> dict:
        """The element as evidence: role, box, text (and frame when there is one)."""
        out = {"role": self.role, "box": list(self.box), "text": self.text}
        return out | ({"frame": list(self.frame)} if self.frame is not None else {})


# ---------------------------------------------------------------- shared measures


def _is_mark(text: str) -> bool:
    """True for a word OCR reads in a bullet, swatch or icon: no letter or digit, or at most two
    characters each a bullet glyph or no letter or digit ("e", "e@": a dot and its ring)."""
    return not any(c.isalnum() for c in text) or (
        len(text) <= 2 and all(c in BULLET_GLYPHS or not c.isalnum() for c in text)
    )


_TEXT_SIGNS = set("()[]{}%$€£#&+=/.,:;!?'\"…")
"""Signs that are text, not a mark, at the end of a line: "Share of respondents (%)"."""


def element_words(lines: list[Line], li: int) -> tuple[WordId, ...]:
    """The words of line ``li`` without marks (``_is_mark``) at either end; at its end a word
    with a text sign (``_TEXT_SIGNS``: "(%)") is text."""
    words = lines[li].words
    lo, hi = 0, len(words)
    while lo < hi and _is_mark(words[lo].text):
        lo += 1
    while hi > lo and _is_mark(words[hi - 1].text) and not _TEXT_SIGNS & set(words[hi - 1].text):
        hi -= 1
    return tuple((li, wi) for wi in range(lo, hi))


def type_size(line: Line, rgb: np.ndarray | None = None) -> float:
    """The line's em in pixels (module docstring); 0.0 when it has no letter or digit.

    With ``rgb`` (uint8 (H, W, 3): given for a line that OCR read inside a badge, whose box is
    the whole badge, ``_page_sizes``), the height is that of the ink separated from the badge's
    fill in the word's box (``rewards.text.text_style.ink_of``); words with no separable ink
    (the badge's corner read as "L") are then not measured."""
    boxed, inked = [], []
    rotated = line.angle in (90, 270)
    for w in line.words:
        if not any(c.isalnum() for c in w.text):
            continue
        extent = (w.box[2] - w.box[0]) if rotated else (w.box[3] - w.box[1])
        boxed.append(extent / em_fraction(w.text))
        ink = ink_of(rgb, w.box) if rgb is not None else None
        rows = np.nonzero(ink.alpha.sum(axis=0 if rotated else 1) >= 0.5)[0] if ink is not None else []
        if len(rows):
            inked.append(int(rows[-1] - rows[0] + 1) / em_fraction(w.text))
    sizes = inked or boxed  # a word with no separable ink (a badge's corner read as "L") is not measured
    return float(median(sizes)) if sizes else 0.0


def _page_sizes(page) -> list[float]:
    """``type_size`` of every line of ``page``, from the ink (``rgb``) for a line whose centre
    lies in a fill (``rewards.text.ocr_read.find_fills``) at most 1.6 times its box's height:
    OCR gave it the badge's box. Elsewhere the box is the measure (an underline or a border in
    the ring around a word would mislead the ink's separation)."""
    rgb = page.rgb()
    return [type_size(ln, rgb if _in_badge(page, ln) else None) for ln in page.lines]


def _in_badge(page, line: Line) -> bool:
    """True when ``line``'s centre lies in a fill of the page at most 1.6 times its box's height
    (a badge, tag or button whose box OCR gave the line)."""
    h = max(1, line.box[3] - line.box[1])
    return any(_inside(line.box, f) and f[3] - f[1] <= 1.6 * h for f in page.fills())


def _same_size(a: float, b: float, factor: float = SAME_SIZE) -> bool:
    return a > 0 and b > 0 and max(a, b) <= factor * min(a, b)


def _centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _inside(b: Box, frame: Box) -> bool:
    """True when the centre of ``b`` lies in ``frame``."""
    cx, cy = _centre(b)
    return frame[0] <= cx <= frame[2] and frame[1] <= cy <= frame[3]


def _ordered(boxes: list[Box]) -> list[int]:
    """Indices of ``boxes`` left to right then top to bottom: rows of vertically overlapping
    boxes (by their centres), each row left to right, rows top to bottom."""
    order = sorted(range(len(boxes)), key=lambda k: _centre(boxes[k])[1])
    rows: list[list[int]] = []
    for k in order:
        cy = _centre(boxes[k])[1]
        if rows and any(boxes[j][1] <= cy <= boxes[j][3] for j in rows[-1]):
            rows[-1].append(k)
        else:
            rows.append([k])
    return [k for row in rows for k in sorted(row, key=lambda j: boxes[j][0])]


def _pick(items: list, ordinal: int | None) -> list:
    """The ``ordinal``-th of ``items`` (1-based, -1 the last) as a one-item list, all of them
    for None, [] when there are fewer."""
    if ordinal is None:
        return items
    k = ordinal - 1 if ordinal > 0 else len(items) + ordinal
    return [items[k]] if 0 <= k < len(items) else []


def _iou(a: Box, b: Box) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / union if union > 0 else 0.0


def canonical_lines(lines: list[Line]) -> list[int]:
    """For each line, the index of the first line that is the same read twice (the same text,
    boxes overlapping by at least half their union: OCR's page and fill passes both report
    some lines), else its own index. Elements are made of canonical lines only."""
    out: list[int] = []
    for i, ln in enumerate(lines):
        twin = next(
            (j for j in range(i) if out[j] == j and lines[j].text == ln.text and _iou(lines[j].box, ln.box) >= 0.5), i
        )
        out.append(twin)
    return out


_LAST_PAGES: list = []
"""The last pages made (``_Page.of``), newest last: [(key, page)], at most ``KEPT_PAGES``."""
KEPT_PAGES = 2
"""How many pages are kept: the grounding asks every check for its role's elements (with the
image) and for the page's own lines and blocks (without it), two pages of one read; with one
kept, each check rebuilt both."""


@dataclass
class _Page:
    """The OCR lines of one page with the measures the finders share."""

    lines: list[Line]
    size: tuple[int, int]
    image: Image.Image | None
    sizes: list[float]
    after: list[int | None]
    canon: list[int]
    memo: dict = field(default_factory=dict)
    """Measures computed once per page (its rectangles, its fills)."""

    @classmethod
    def of(cls, lines: list[Line], image: Image.Image | None, size: tuple[int, int]) -> _Page:
        """The page of ``lines``; the last pages made are reused when the same lines and pixels
        come again (the judge decides every check of an image on one read). The key holds the
        pixels' hash, not the image's id: an editor hands in a new image of edited pixels."""
        pixels = (image.mode, image.size, hash(image.tobytes())) if image is not None else None
        key = (pixels, tuple(size), tuple(lines))
        for k, page in _LAST_PAGES:
            if k == key:
                return page
        page = cls._make(lines, image, size)
        _LAST_PAGES[:] = [*_LAST_PAGES[1 - KEPT_PAGES :], (key, page)]
        return page

    @classmethod
    def _make(cls, lines: list[Line], image: Image.Image | None, size: tuple[int, int]) -> _Page:
        canon = canonical_lines(lines)
        kept = [ln for i, ln in enumerate(lines) if canon[i] == i]
        ids = [i for i in range(len(lines)) if canon[i] == i]
        after = [None] * len(lines)
        for k, j in enumerate(next_lines(kept)):  # the next line among the canonical lines
            after[ids[k]] = ids[j] if j is not None else None
        page = cls(lines, size, image, [], after, canon)
        page.sizes = _page_sizes(page)
        return page

    @property
    def flat(self) -> list[int]:
        """Indices of the canonical horizontal lines with letters or digits."""
        return [i for i, ln in enumerate(self.lines) if ln.angle == 0 and self.sizes[i] > 0 and self.canon[i] == i]

    @property
    def read(self) -> list[int]:
        """Indices of the canonical lines with letters or digits, rotated ones too."""
        return [i for i in range(len(self.lines)) if self.sizes[i] > 0 and self.canon[i] == i]

    def element(self, role: str, line_ids, words: tuple[WordId, ...] | None = None, frame: Box | None = None):
        """The element made of lines ``line_ids`` (or of ``words``), None when it has no words."""
        line_ids = tuple(dict.fromkeys(line_ids))
        if words is None:
            words = tuple(w for li in line_ids for w in element_words(self.lines, li))
        if not words:
            return None
        boxes = [self.lines[li].words[wi].box for li, wi in words]
        text = " ".join(self.lines[li].words[wi].text for li, wi in words)
        return Element(role, union_box(boxes), tuple(dict.fromkeys(li for li, _ in words)), words, text, frame)

    def elements(self, role: str, groups, frame: Box | None = None) -> list[Element]:
        made = [self.element(role, g, frame=frame) for g in groups]
        return [e for e in made if e is not None]

    def block(self, li: int) -> list[int]:
        """The block of line ``li``: the lines of its column above and below it of about its size."""
        before = {j: i for i, j in enumerate(self.after) if j is not None}
        up, down = [li], [li]
        while before.get(up[-1]) is not None and self._joins(before[up[-1]], up[-1]) and before[up[-1]] not in up:
            up.append(before[up[-1]])
        while self.after[down[-1]] is not None and self._joins(down[-1], self.after[down[-1]]):
            if self.after[down[-1]] in down:
                break
            down.append(self.after[down[-1]])
        return list(reversed(up[1:])) + down

    def _joins(self, a: int, b: int) -> bool:
        return self.lines[a].angle == self.lines[b].angle == 0 and _same_size(self.sizes[a], self.sizes[b])

    def gray(self) -> np.ndarray | None:
        if "gray" not in self.memo:
            self.memo["gray"] = np.asarray(self.image.convert("L")) if self.image is not None else None
        return self.memo["gray"]

    def fills(self) -> list[Box]:
        """The boxes of the page's flat-coloured fills (``rewards.text.ocr_read.find_fills``), [] without the image."""
        if "fills" not in self.memo:
            self.memo["fills"] = [f.box for f in find_fills(self.image.convert("RGB"))] if self.image else []
        return self.memo["fills"]

    def rgb(self) -> np.ndarray | None:
        if "rgb" not in self.memo:
            self.memo["rgb"] = np.asarray(self.image.convert("RGB")) if self.image is not None else None
        return self.memo["rgb"]


# ---------------------------------------------------------------- enclosing rectangles


def _ink_around(gray: np.ndarray, box: Box, pad: int, min_contrast: float) -> np.ndarray | None:
    """The ink mask (bool (H, W)) of ``gray``: pixels whose luminance differs by more than
    ``min_contrast`` from the text's background, the median of a ``pad``-pixel ring around
    ``box``; None when the ring is empty (the box lies outside the image)."""
    h, w = gray.shape
    x0, y0, x1, y1 = box
    ring = np.concatenate(
        [
            gray[max(0, y0 - pad) : y0, max(0, x0) : x1].ravel(),
            gray[y1 : min(h, y1 + pad), max(0, x0) : x1].ravel(),
            gray[max(0, y0) : y1, max(0, x0 - pad) : x0].ravel(),
            gray[max(0, y0) : y1, x1 : min(w, x1 + pad)].ravel(),
        ]
    )
    if ring.size == 0:
        return None
    return np.abs(gray.astype(np.float64) - float(np.median(ring))) > min_contrast


def _run_starts(line: np.ndarray, start: int, step: int) -> list[int]:
    """Positions where an ink run starts along ``line`` (bool), walking from ``start`` by ``step``
    (+1 or -1)."""
    seq = line[start::step] if step > 0 else line[start::-1] if start >= 0 else line[:0]
    starts = np.nonzero(seq & ~np.concatenate([[False], seq[:-1]]))[0]
    return [start + step * int(k) for k in starts]


def _shared_edge(scans: list[list[int]], covered, start: int) -> int | None:
    """The candidate position nearest ``start`` that at least 3 probe scans share (within 3 px)
    and that ``covered(position)`` accepts, or None."""
    for pos in sorted({p for sc in scans for p in sc}, key=lambda p: abs(p - start)):  # nearest the text first
        if sum(any(abs(p - pos) <= 3 for p in sc) for sc in scans) >= 3 and covered(pos):
            return pos
    return None


def _row_covered(ink: np.ndarray, y: int, lo: int, hi: int, min_coverage: float) -> bool:
    """True when one of the rows ``y - 1 .. y + 1`` is ink along ``min_coverage`` of columns ``lo .. hi``."""
    h = ink.shape[0]
    return any(ink[t, lo : hi + 1].mean() >= min_coverage for t in range(max(0, y - 1), min(h, y + 2)) if hi > lo)


def _col_covered(ink: np.ndarray, x: int, lo: int, hi: int, min_coverage: float) -> bool:
    """True when one of the columns ``x - 1 .. x + 1`` is ink along ``min_coverage`` of rows ``lo .. hi``."""
    w = ink.shape[1]
    return any(ink[lo : hi + 1, t].mean() >= min_coverage for t in range(max(0, x - 1), min(w, x + 2)) if hi > lo)


def enclosing_box(
    gray: np.ndarray, box: Box, min_contrast: float = 40.0, probes: int = 7, min_coverage: float = 0.5
) -> Box | None:
    """A rectangle enclosing ``box`` in ``gray`` (uint8 or float (H, W) luminance), or None.

    A pixel is *ink* when its luminance differs from the text's background (the median of a
    3-pixel ring around ``box``) by more than ``min_contrast``. From the text box outwards, along
    ``probes`` rows (for the left and right sides) and columns (top and bottom), every start of
    an ink run is a candidate edge. A side is the nearest candidate that at least 3 probes share
    (within 3 px) and whose line is ink along at least ``min_coverage`` of the box's extent on
    that side: a solid or dashed border, or the edge of a filled panel, and not the aligned feet
    of another line of text. All four sides must be found.

    Returns:
        ``(x0, y0, x1, y1)``: pixel positions of the four sides (of a border: its pixels nearest
        the text; of a filled panel: the first pixels outside the fill), or None.
    """
    h, w = gray.shape
    x0, y0, x1, y1 = (int(v) for v in box)
    pad = 3
    ink = _ink_around(gray, (x0, y0, x1, y1), pad, min_contrast)
    if ink is None:
        return None
    rows = np.linspace(y0, max(y0, y1 - 1), probes).round().astype(int).clip(0, h - 1)
    cols = np.linspace(x0, max(x0, x1 - 1), probes).round().astype(int).clip(0, w - 1)
    a, b = max(0, x0 - pad), min(w, x1 + pad)  # the scans start just outside the text
    c, d = max(0, y0 - pad), min(h, y1 + pad)

    def rows_covered(y: int, lo: int, hi: int) -> bool:
        return _row_covered(ink, y, lo, hi, min_coverage)

    def cols_covered(x: int, lo: int, hi: int) -> bool:
        return _col_covered(ink, x, lo, hi, min_coverage)

    left = _shared_edge([_run_starts(ink[r], a - 1, -1) for r in rows], lambda x: cols_covered(x, y0, y1), a)
    right = _shared_edge([_run_starts(ink[r], b, 1) for r in rows], lambda x: cols_covered(x, y0, y1), b)
    if left is None or right is None:
        return None
    # top and bottom must cover the span between the sides: a text line above or below does not
    top = _shared_edge([_run_starts(ink[:, q], c - 1, -1) for q in cols], lambda y: rows_covered(y, left, right), c)
    bottom = _shared_edge([_run_starts(ink[:, q], d, 1) for q in cols], lambda y: rows_covered(y, left, right), d)
    if top is None or bottom is None:
        return None
    if not (
        rows_covered(top, left, right)
        and rows_covered(bottom, left, right)
        and cols_covered(left, top, bottom)
        and cols_covered(right, top, bottom)
    ):
        return None
    return (left, top, right, bottom)


def rectangles(page: _Page) -> list[Box]:
    """The distinct rectangles around the page's horizontal lines (``enclosing_box`` of each
    line; two within 4 px on every side are one), smaller than ``MAX_PAGE_SHARE`` of the image,
    left to right then top to bottom."""
    if "rectangles" not in page.memo:
        page.memo["rectangles"] = _find_rectangles(page)
    return page.memo["rectangles"]


def _find_rectangles(page: _Page) -> list[Box]:
    gray = page.gray()
    if gray is None:
        return []
    w, h = page.size
    found: list[Box] = []
    for i in page.flat:
        r = enclosing_box(gray, page.lines[i].box)
        if r is not None and (r[2] - r[0]) * (r[3] - r[1]) <= MAX_PAGE_SHARE * w * h:
            found.append(r)
    found = _distinct(found)
    return [found[k] for k in _ordered(found)]


def _distinct(boxes: list[Box]) -> list[Box]:
    """``boxes`` without repeats: a box within 4 px on every side of an earlier one is that one."""
    out: list[Box] = []
    for b in boxes:
        if not any(all(abs(p - q) <= 4 for p, q in zip(b, o)) for o in out):
            out.append(b)
    return out


def _lines_in(page: _Page, frame: Box) -> list[int]:
    """The lines most of whose words (with letters or digits) have their centre in ``frame``
    (not the line's box: OCR adds the corner of a badge to its text as a word "L")."""
    out = []
    for i in page.flat:
        words = [w for w in page.lines[i].words if any(c.isalnum() for c in w.text)]
        if 2 * sum(_inside(w.box, frame) for w in words) > len(words):
            out.append(i)
    return out


def _framed(page: _Page, role: str, frame: Box) -> list[Element]:
    """The text of ``frame`` as elements: each line in it, each block of lines in it, and all
    of its text together (a card's "reads exactly" may mean any of them)."""
    inside = _lines_in(page, frame)
    blocks = dict.fromkeys(tuple(page.block(i)) for i in inside)
    groups = [[i] for i in inside] + [list(b) for b in blocks if len(b) > 1]
    groups = [[j for j in g if j in inside] for g in groups]
    if len(inside) > 1:
        groups.append(sorted(inside, key=lambda j: (page.lines[j].box[1], page.lines[j].box[0])))
    return page.elements(role, groups, frame)


def _like_groups(rects: list[Box]) -> list[list[Box]]:
    """``rects`` grouped into kinds: widths and heights within ``CARD_LIKE`` of the group's first."""
    groups: list[list[Box]] = []
    for r in rects:
        rw, rh = r[2] - r[0], r[3] - r[1]
        for g in groups:
            gw, gh = g[0][2] - g[0][0], g[0][3] - g[0][1]
            if abs(rw - gw) <= CARD_LIKE * max(rw, gw) and abs(rh - gh) <= CARD_LIKE * max(rh, gh):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups


# ---------------------------------------------------------------- finders, one per role


def _title(page: _Page, spec: ElementSpec) -> list[Element]:
    """The largest type in the top band: the lines whose centre lies in the top ``TOP_BAND`` of
    the image, or no lower than the centre of the topmost line (a banner whose one line is its
    title), and whose type size is at least ``TITLE_SIZE`` of the band's largest, each with the
    block it belongs to (a title that wraps)."""
    if not page.flat:
        return []
    topmost = min(page.flat, key=lambda i: page.lines[i].box[1])
    band = max(TOP_BAND * page.size[1], _centre(page.lines[topmost].box)[1])
    top = [i for i in page.flat if _centre(page.lines[i].box)[1] <= band]
    biggest = max(page.sizes[i] for i in top)
    big = [i for i in top if page.sizes[i] >= TITLE_SIZE * biggest]
    blocks = list(dict.fromkeys(tuple(page.block(i)) for i in big))
    return page.elements("title", blocks)


def _subtitle(page: _Page, spec: ElementSpec) -> list[Element]:
    """The line under the title in smaller type: the nearest line below the title's block (its
    top within six title line heights of the title's bottom), in smaller type, not an item of a
    row (``_rows``: a navigation bar between the title and its subtitle) and not a badge's text
    (``_in_badge``: a tag beside the subtitle); with its block."""
    titles = _title(page, spec)
    if not titles:
        return []
    title = titles[0]
    used = {li for t in titles for li in t.lines} | {i for g in _rows(page) for i in g}
    t_size = max(page.sizes[li] for li in title.lines)
    last = page.lines[title.lines[-1]].box
    reach = 6 * (last[3] - last[1])
    under = [
        i
        for i in page.flat
        if i not in used
        and 0 <= page.lines[i].box[1] - title.box[3] + 2 <= reach
        and page.sizes[i] < t_size / 1.05
        and not _in_badge(page, page.lines[i])
    ]
    if not under:
        return []
    first = min(under, key=lambda i: page.lines[i].box[1])
    return page.elements("subtitle", [page.block(first)])


def _body_under(page: _Page, i: int) -> list[int]:
    """The lines under line ``i`` in its column (overlapping it horizontally, within six of its heights)."""
    x0, y0, x1, y1 = page.lines[i].box
    reach = 6 * (y1 - y0)
    return [
        j
        for j in page.flat
        if j != i
        and page.lines[j].box[1] >= (y0 + y1) / 2
        and page.lines[j].box[1] - y1 <= reach
        and min(x1, page.lines[j].box[2]) > max(x0, page.lines[j].box[0])
    ]


def _heading(page: _Page, spec: ElementSpec) -> list[Element]:
    """Lines clearly larger than the body under them: a line with lines of its column starting
    within two of its heights under it, its type at least ``HEADING_SIZE`` times their median
    type size, or, at about the same size, measured
    bold over regular body lines (``rewards.text.text_style.measure``; needs the image). Top to bottom."""
    rgb = page.rgb()
    weights: dict[int, str | None] = page.memo.setdefault("weights", {})

    def weight(li: int) -> str | None:
        if li not in weights:
            line = page.lines[li]
            weights[li] = measure(rgb, [(w.box, w.text) for w in line.words]).weight if rgb is not None else None
        return weights[li]

    found = []
    for i in page.flat:
        body = _body_under(page, i)
        x0, y0, x1, y1 = page.lines[i].box
        if not body or min(page.lines[j].box[1] for j in body) - y1 > 2 * (y1 - y0):  # no body right under it
            continue
        ratio = page.sizes[i] / median(page.sizes[j] for j in body)
        if ratio >= HEADING_SIZE or (
            ratio >= 1 / SAME_SIZE and weight(i) == "bold" and all(weight(j) == "regular" for j in body[:3])
        ):
            found.append(i)
    ordered = sorted(found, key=lambda i: (page.lines[i].box[1], page.lines[i].box[0]))
    return page.elements("heading", [[i] for i in ordered])


def _dot_left(gray: np.ndarray | None, box: Box, em: float) -> bool:
    """True when a small solid mark (a bullet dot or square: 15-55% of the type size ``em``,
    about square, filling at least half of its box) stands left of the text box ``box``, within
    two em, centred on the box's middle third (of its height)."""
    if gray is None:
        return False
    x0, y0, x1, y1 = box
    lh = y1 - y0
    a, b = max(0, int(x0 - 2 * em)), max(0, x0 - 1)
    if b - a < 3 or lh < 4:
        return False
    crop = gray[y0:y1, a:b].astype(np.int16)
    bg = int(np.median(gray[max(0, y0 - 3) : y1 + 3, a:b]))
    labels, _ = ndimage.label(np.abs(crop - bg) > 60)
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        hh, ww = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        cy = y0 + (sl[0].start + sl[0].stop) / 2
        solid = (labels[sl] == k).mean()
        small = 0.15 * em <= hh <= 0.55 * em and 0.6 <= ww / hh <= 1.6
        if small and solid >= 0.5 and abs(cy - (y0 + y1) / 2) <= lh / 3:
            return True
    return False


def _text_left(page: _Page, i: int) -> int:
    """The left edge of line ``i``'s element words (after a bullet mark OCR read), else of the line."""
    own = element_words(page.lines, i)
    return page.lines[i].words[own[0][1]].box[0] if own else page.lines[i].box[0]


def _lists(page: _Page, members: list[int], gap: float = 3) -> list[list[int]]:
    """``members`` (line indices) grouped into lists: the lines of one column whose text shares
    a left edge (``_text_left``, within half a line height; a bullet mark read or not) at about
    one type size, each within ``gap`` line heights of the previous one; top to bottom."""
    groups: list[list[int]] = []
    for i in sorted(members, key=lambda j: page.lines[j].box[1]):
        _, y0, _, y1 = page.lines[i].box
        x0 = _text_left(page, i)
        for g in groups:
            p = page.lines[g[-1]].box
            if (
                abs(_text_left(page, g[-1]) - x0) <= max(4, (y1 - y0) / 2)
                and _same_size(page.sizes[g[-1]], page.sizes[i])
                and y0 - p[3] <= gap * (y1 - y0)
            ):
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


def _bullet(page: _Page, spec: ElementSpec) -> list[Element]:
    """Lines led by a bullet: a first word that is a mark (``BULLET_GLYPHS``, what OCR reads for
    a dot, or a word with no letter or digit) followed by more words, or a small solid dot mark
    left of the line's first word (``_dot_left``, with the image); grouped into lists
    (``_lists``); the ``ordinal``-th of each list. The bullet's words are the line's without the
    mark. A line that is only a mark, aligned with a list's marks within its span, is an empty
    bullet (its text missing): it counts among the list's bullets and reads ''."""
    gray = page.gray()
    led, lone = [], []
    for i, line in enumerate(page.lines):
        if line.angle != 0 or page.canon[i] != i:
            continue
        words, own = line.words, element_words(page.lines, i)
        glyph = len(words) > 1 and (_is_mark(words[0].text) or words[0].text[:1] in "•●▪")
        if own and (glyph or _dot_left(gray, words[own[0][1]].box, page.sizes[i])):
            led.append(i)
        elif not own:
            lone.append(i)
    out = []
    for g in _lists(page, led, gap=5):  # an empty bullet between two leaves a gap of two
        x0 = min(page.lines[j].box[0] for j in g)  # the marks' left edge (where OCR read one)
        pitch = max(page.lines[g[0]].box[3] - page.lines[g[0]].box[1], 1) * 2.5
        top, bottom = page.lines[g[0]].box[1] - pitch, page.lines[g[-1]].box[3] + pitch
        empty = [i for i in lone if abs(page.lines[i].box[0] - x0) <= 4 and top <= page.lines[i].box[1] <= bottom]
        for i in _pick(sorted(g + empty, key=lambda j: page.lines[j].box[1]), spec.ordinal):
            out.append(page.element("bullet", [i]) or Element("bullet", page.lines[i].box, (i,), (), ""))
    return out


def _rows(page: _Page) -> list[list[int]]:
    """Horizontal lines in rows: at least three lines of about one type size whose boxes overlap
    vertically (a menu, a navigation bar), left to right."""
    groups: list[list[int]] = []
    for i in sorted(page.flat, key=lambda j: page.lines[j].box[0]):
        cy = _centre(page.lines[i].box)[1]
        for g in groups:
            b = page.lines[g[0]].box
            if b[1] <= cy <= b[3] and _same_size(page.sizes[g[0]], page.sizes[i]):
                g.append(i)
                break
        else:
            groups.append([i])
    return [g for g in groups if len(g) >= 3]


def _list_item(page: _Page, spec: ElementSpec) -> list[Element]:
    """Items of a list or menu: the lines of a column sharing a left edge (``_lists``, at least
    two lines) or of a row (``_rows``: a menu); the ``ordinal``-th item of each list or row."""
    groups = [g for g in _lists(page, page.flat) if len(g) >= 2] + _rows(page)
    return [e for g in groups for e in page.elements("list_item", [[i] for i in _pick(g, spec.ordinal)])]


def _card(page: _Page, spec: ElementSpec) -> list[Element]:
    """Cards and tiles: the rectangles around text (``rectangles``: a border or a filled panel)
    grouped into kinds of about one size (``_like_groups``), each kind left to right then top to
    bottom; the text of the ``ordinal``-th card of each kind with that many, kinds of two or more
    cards first (``_framed``)."""
    kinds = _like_groups(rectangles(page))
    if spec.ordinal is not None:  # "the second card": among cards of one kind (a lone box is no row of cards)
        kinds = [g for g in kinds if len(g) >= 2] or kinds
    frames = [r for g in kinds for r in _pick(g, spec.ordinal)]
    return [e for r in frames for e in _framed(page, "card", r)]


def _swatch_left(rgb: np.ndarray, box: Box, em: float) -> bool:
    """True when a solid swatch stands just left of the text box ``box`` (type size ``em``
    pixels): a connected region of one colour (RGB distance > 60 from the background, channel
    spread < 40) 55-200% of the em on each side, filling at least 70% of its box (squares,
    circles), its right edge within 1.5 em of the text, centred within half an em of the text's
    middle. Bullet dots are smaller (``_dot_left``)."""
    x0, y0, x1, y1 = box
    lh = max(1.0, em)
    a, b = max(0, int(x0 - 3.5 * lh)), max(0, x0 - 1)
    top, bottom = max(0, int(y0 - lh)), min(rgb.shape[0], int(y1 + lh))
    if b - a < 3 or bottom - top < 3:
        return False
    crop = rgb[top:bottom, a:b].astype(np.int16)
    bg = np.median(crop.reshape(-1, 3), axis=0)
    labels, _ = ndimage.label(np.sqrt(((crop - bg) ** 2).sum(axis=2)) > 60)
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        hh, ww = sl[0].stop - sl[0].start, sl[1].stop - sl[1].start
        comp = labels[sl] == k
        if not (0.55 * lh <= hh <= 2 * lh and 0.55 * lh <= ww <= 2 * lh and comp.mean() >= 0.7):
            continue
        cy = top + (sl[0].start + sl[0].stop) / 2
        near = x0 - (a + sl[1].stop) <= 1.5 * lh
        if near and abs(cy - (y0 + y1) / 2) <= lh / 2 and crop[sl][comp].std(axis=0).max() < 40:
            return True
    return False


def _legend_entry(page: _Page, spec: ElementSpec) -> list[Element]:
    """Text with a small solid colour swatch just left of it (``_swatch_left``, needs the image).
    OCR often reads the swatch as a short word ("W", "M@"): a first word of up to 3 characters
    with a swatch left of the second is that swatch, not part of the entry. Top to bottom, left
    to right; the ``ordinal``-th."""
    rgb = page.rgb()
    if rgb is None:
        return []
    found: list[tuple[int, tuple[WordId, ...]]] = []
    for i in page.flat:
        own = element_words(page.lines, i)
        for k in range(min(2, len(own))):
            if k == 1 and len(page.lines[i].words[own[0][1]].text) > 3:
                break
            if _swatch_left(rgb, page.lines[i].words[own[k][1]].box, page.sizes[i]):
                found.append((i, own[k:]))
                break
    made = [page.element("legend_entry", [i], words) for i, words in found]
    made = [e for e in made if e is not None]
    ordered = [made[k] for k in _ordered([e.box for e in made])]
    return _pick(ordered, spec.ordinal)


def _tick_rows(page: _Page) -> list[list[int]]:
    """Rows of at least three short horizontal lines (up to 12 characters: tick labels)."""
    return [
        [i for i in g if len(page.lines[i].text) <= 12]
        for g in _rows(page)
        if sum(len(page.lines[i].text) <= 12 for i in g) >= 3
    ]


def _axis_title(page: _Page, spec: ElementSpec) -> list[Element]:
    """The y-axis title (``axis`` "y"): a line read rotated (``Line.angle`` 90 or 270), those in
    the left half of the image (the chart's left edge) if any, else any rotated line. The x-axis
    title ("x"): the nearest horizontal line under a row of tick labels (``_tick_rows``), within
    three label heights, its centre within the row's middle half, itself in no row. No axis
    named: either."""
    found = []
    if spec.axis in ("y", None):
        rotated = [i for i in page.read if page.lines[i].angle in (90, 270)]
        left = [i for i in rotated if _centre(page.lines[i].box)[0] < page.size[0] / 2]
        found += page.elements("axis_title", [[i] for i in left or rotated])
    if spec.axis in ("x", None):
        in_rows = {i for g in _rows(page) for i in g}
        for row in _tick_rows(page):
            box = union_box(page.lines[i].box for i in row)
            lh, mid, half = box[3] - box[1], (box[0] + box[2]) / 2, (box[2] - box[0]) / 4
            under = [
                i
                for i in page.flat
                if i not in in_rows
                and 0 <= page.lines[i].box[1] - box[3] <= 3 * lh
                and abs(_centre(page.lines[i].box)[0] - mid) <= half
            ]
            if under:
                found += page.elements("axis_title", [[min(under, key=lambda i: page.lines[i].box[1])]])
    return found


def _exact_boxes(page: _Page, text: str) -> list[Box]:
    w, h = page.size
    return [m.box for m in find_matches(text, page.lines, w, h, None, False) if m.found]


def _table_cell(page: _Page, spec: ElementSpec) -> list[Element]:
    """A table cell: the words in the row of the row label (their centre within its height band)
    and in the column of the column label (overlapping its width), other than the labels; with
    only one label, every cell of its row (right of it) or column (under it). Labels are read
    case-insensitively; a label not read gives no cell."""
    rows = _exact_boxes(page, spec.row) if spec.row else [None]
    cols = _exact_boxes(page, spec.column) if spec.column else [None]
    out = []
    for r in rows:
        for c in cols:
            if r is None and c is None:
                continue
            words = []
            for i in page.flat:
                for li, wi in element_words(page.lines, i):
                    b = page.lines[li].words[wi].box
                    cx, cy = _centre(b)
                    in_row = r is None or (r[1] <= cy <= r[3] and b[0] > r[2])
                    in_col = c is None or (min(b[2], c[2]) > max(b[0], c[0]) and b[1] > c[3])
                    if in_row and in_col:
                        words.append((li, wi))
            for li in dict.fromkeys(li for li, _ in words):
                e = page.element("table_cell", [li], tuple(w for w in words if w[0] == li))
                out += [e] if e is not None else []
    return out


FOOTER_BLOCK_TOP = 0.6
"""How high (a fraction of the image height) the lines of a footer's block may reach."""


def _footer(page: _Page, spec: ElementSpec) -> list[Element]:
    """Small type in the bottom band: lines whose centre lies below ``BOTTOM_BAND`` of the image
    height and whose type is not larger than the page's median, with the lines of their blocks
    above them down to ``FOOTER_BLOCK_TOP`` of the height (a footnote wrapped over four lines
    starts above the band: its first line "Source:" is part of it)."""
    flat = page.flat
    if not flat:
        return []
    body = median(page.sizes[i] for i in flat)
    small = {i for i in flat if page.sizes[i] <= SAME_SIZE * body}
    low = [i for i in flat if _centre(page.lines[i].box)[1] > BOTTOM_BAND * page.size[1] and i in small]
    blocks = list(dict.fromkeys(tuple(page.block(i)) for i in low))
    top = FOOTER_BLOCK_TOP * page.size[1]
    return page.elements(
        "footer", [[j for j in b if j in small and _centre(page.lines[j].box)[1] > top] for b in blocks]
    )


def _button(page: _Page, spec: ElementSpec) -> list[Element]:
    """Text inside a filled shape (a button, badge or band): the flat-coloured fills of the page
    (``rewards.text.ocr_read.find_fills``, rounded shapes included) and the rectangles whose
    inside differs from the page around them (``rectangles``), smaller than ``MAX_PAGE_SHARE``."""
    if page.image is None:
        return []
    w, h = page.size
    frames = list(page.fills())
    gray = page.gray()
    for r in rectangles(page):
        inner = gray[r[1] + 2 : r[3] - 1, r[0] + 2 : r[2] - 1]
        outer = gray[max(0, r[1] - 4) : r[1] - 1, r[0] : r[2]]
        if inner.size and outer.size and abs(float(np.median(inner)) - float(np.median(outer))) > 40:
            frames.append(r)
    frames = [f for f in frames if (f[2] - f[0]) * (f[3] - f[1]) <= MAX_PAGE_SHARE * w * h]
    frames = _distinct(frames)
    frames = [frames[k] for k in _ordered(frames)]
    framed = [f for f in frames if _lines_in(page, f)]
    return [e for f in _pick(framed, spec.ordinal) for e in _framed(page, "button", f)]


def _whole(page: _Page, spec: ElementSpec) -> list[Element]:
    """Any element of its own: every line (horizontal or rotated) and every block of lines."""
    lines = page.read
    blocks = [b for b in dict.fromkeys(tuple(page.block(i)) for i in page.flat) if len(b) > 1]
    return page.elements("whole", [[i] for i in lines] + [list(b) for b in blocks])


FINDERS: dict[str, Callable[[_Page, ElementSpec], list[Element]]] = {
    "title": _title,
    "subtitle": _subtitle,
    "heading": _heading,
    "bullet": _bullet,
    "list_item": _list_item,
    "card": _card,
    "legend_entry": _legend_entry,
    "axis_title": _axis_title,
    "table_cell": _table_cell,
    "footer": _footer,
    "button": _button,
    "whole": _whole,
}
"""One finder per ``rewards.text.question_compiler.ELEMENT_ROLES`` role."""

NEEDS_IMAGE = frozenset({"card", "legend_entry", "button"})
"""Roles found from pixels: without the image they cannot be found."""

_BY_ORDINAL_INSIDE = frozenset({"bullet", "list_item", "card", "legend_entry", "button"})
"""Finders that apply ``ElementSpec.ordinal`` themselves (among their list, kind or row)."""


def _containers(page: _Page, container: str) -> list[Box]:
    """The rectangles (``rectangles``) whose text contains ``container`` (case-insensitive)."""
    out = []
    for r in rectangles(page):
        text = " ".join(page.lines[i].text for i in sorted(_lines_in(page, r), key=lambda j: page.lines[j].box[1]))
        if contains(text, container, case_sensitive=False):
            out.append(r)
    return out


ROLE_NAMES = {
    "title": "title",
    "subtitle": "subtitle",
    "heading": "heading",
    "bullet": "bullet",
    "list_item": "list item",
    "card": "card",
    "legend_entry": "legend entry",
    "axis_title": "axis title",
    "table_cell": "table cell",
    "footer": "footer",
    "button": "button",
    "whole": "element",
}
"""Each role in words, for verdict reasons."""


def _nth(ordinal: int) -> str:
    if ordinal == -1:
        return "last"
    suffix = "th" if 10 <= ordinal % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(ordinal % 10, "th")
    return f"{ordinal}{suffix}"


def describe_element(element: ElementSpec) -> str:
    """``element`` in words, for verdict reasons: "the title", "the 2nd card in 'NPS'", "the
    y-axis title", "the table cell in row 'Solar', column '2024'"."""
    name = ROLE_NAMES.get(element.role, element.role)
    if element.axis:
        name = f"{element.axis}-{name}"
    words = ["the"] + ([_nth(element.ordinal)] if element.ordinal is not None else []) + [name]
    if element.row is not None:
        words.append(f"in row {element.row!r}" + (f", column {element.column!r}" if element.column else ""))
    elif element.column is not None:
        words.append(f"in column {element.column!r}")
    if element.container:
        words.append(f"in {element.container!r}")
    return " ".join(words)


def find_elements(
    element: ElementSpec, lines: list[Line], image: Image.Image | None, size: tuple[int, int]
) -> list[Element] | None:
    """The elements of the page that fill ``element``'s role, or None when code cannot tell.

    The role's finder (``FINDERS``, each documented with its rule) proposes candidates; the
    ``ordinal``-th is kept (1-based, -1 the last; among a finder's list, kind or row, else in
    reading order); with a ``container``, only candidates inside a rectangle whose text contains
    it ("the NPS card").

    Args:
        element: the spec (``rewards.text.question_compiler.ElementSpec``).
        lines: OCR lines of the image (rotated ones carry ``Line.angle``).
        image: the judged image, for the roles found from pixels (``NEEDS_IMAGE``) and the
            container; None: those give None.
        size: (width, height) of the image in pixels.

    Returns:
        The candidate elements (at least one), or None: the role needs the image and there is
        none, no element of the role is on the page, there are fewer than ``ordinal``, or the
        container is not found.

    Raises:
        ValueError: ``element.role`` is not a known role.
    """
    if element.role not in FINDERS:
        raise ValueError(f"unknown element role {element.role!r}; expected one of {', '.join(FINDERS)}")
    if image is None and (element.role in NEEDS_IMAGE or element.container):
        return None
    page = _Page.of(lines, image, size)
    found = FINDERS[element.role](page, element)
    if element.ordinal is not None and element.role not in _BY_ORDINAL_INSIDE:
        found = _pick([found[k] for k in _ordered([e.box for e in found])], element.ordinal)
    if element.container:
        frames = _containers(page, element.container)
        found = [e for e in found if any(_inside(e.box, f) for f in frames)]
    return found or None
