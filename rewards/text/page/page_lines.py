"""The page the element finders (``rewards.text.page.finders``) read: its OCR lines with their type sizes
and element words, the fills and rectangles found once per page (``_Page``, the last few kept), and the
shared measures of boxes (centre, inside, order, overlap). ``Element`` is what a finder returns.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image; a line's words are ``(line index,
word index)`` pairs into ``lines``, as in ``rewards.text.ocr.text_match.Match.words``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median

import numpy as np
from PIL import Image

from rewards.common.images import pixels_digest
from rewards.text.ocr.fills import find_fills
from rewards.text.ocr.text_match import Line, Word, next_lines, union_box
from rewards.text.page.text_style import em_fraction, ink_of, measure

Box = tuple[int, int, int, int]
WordId = tuple[int, int]
SAME_SIZE = 1.15
"""Two lines whose type sizes differ by at most this factor are of one size (one block, one list)."""
BULLET_GLYPHS = frozenset("•·▪◦‣●○■□*-–—>»›oe°")
"""What OCR reads for a bullet mark in front of a line (a dot is often read "e" or "o")."""
SAME_WEIGHT_SIZE = 1.05
"""Two lines of one size (``SAME_SIZE``) whose sizes differ by more than this factor join one block
only when their weights do not differ (a bold heading over regular text: ``_Page._joins``)."""
MAX_PAGE_SHARE = 0.6
"""A rectangle covering more than this share of the image is the page or a background panel, not a card."""


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


_HANDLE = re.compile(
    r"[-\u2010-\u2015_~=]+[^\s1-9]{1,2}[-\u2010-\u2015_~=]+|[\u2012-\u2015=]{2,}|[\u2012-\u2015]+[eoO0@•●]"
)
"""A line chart's legend handle read as a word: a marker between two strokes ("—e—", "-o-", "—A—"),
or a plain stroke, a line drawn without markers, read as two or more dashes ("——", "=——=": a
tester's dark line chart; hyphens alone, "--", are not one), or a dash and the marker with the
right stroke lost ("—e Visitors": a tenth tester's dual-axis chart)."""


def _is_mark(text: str) -> bool:
    """True for a word OCR reads in a bullet, swatch or icon: no letter or digit, or at most two
    characters each a bullet glyph or no letter or digit ("e", "e@": a dot and its ring), or a
    line legend's handle (``_HANDLE``: matplotlib's line with a marker, read "—e—" before "iOS")."""
    return (
        not any(c.isalnum() for c in text)
        or (len(text) <= 2 and all(c in BULLET_GLYPHS or not c.isalnum() for c in text))
        or _HANDLE.fullmatch(text) is not None
    )


NOISE_CONF = 10.0
"""Tesseract confidence (0-100) under which a lone glyph off its line's band is a mark's noise."""


def _is_noise(word: Word, neighbour: Word) -> bool:
    """True for a lone glyph tesseract read with confidence under ``NOISE_CONF`` that shares no
    row of pixels with the word beside it in its line: a scatter marker read as "P" below the
    start of its annotation "Zephyr 3" (a tester's chart), which made the annotation "P Zephyr 3";
    or read under ``ICON_CONF`` with its middle off the neighbour's rows: the panel to the left's
    y tick "0" (confidence 26) joined to a panel title's line, "0 Logistics department" (a ninth
    tester's small multiples; the tick sits 10 px lower than the title's foot)."""
    if len(word.text) != 1 or word.conf is None:
        return False
    mid = (word.box[1] + word.box[3]) / 2
    apart = word.box[1] >= neighbour.box[3] or word.box[3] <= neighbour.box[1]
    off_band = mid >= neighbour.box[3] or mid <= neighbour.box[1]
    return (word.conf < NOISE_CONF and apart) or (word.conf < ICON_CONF and off_band)


_TEXT_SIGNS = set("()[]{}%$€£#&+=/.,:;!?'\"…")
"""Signs that are text, not a mark, at the end of a line: "Share of respondents (%)"."""
ICON_CONF = 30.0
"""Tesseract confidence (0-100) under which a short word opening a line, far from the next, is an icon."""
ICON_GAP = 0.8
"""Least gap (the next word's heights) between an icon read as a word and the words it stands before."""


def _is_icon(word: Word, neighbour: Word) -> bool:
    """True for an icon read as a word before a line's text: at most two characters, read with
    confidence under ``ICON_CONF``, standing more than ``ICON_GAP`` of the next word's height left
    of it (a word space is a third of it). Chromium's flag before the heading "Fast setup" reads
    "®" (a mark) on the page and "B®" (confidence 19) or "Pm" (13) once the heading beside it is
    rewritten, 15 px left of "Fast" (12 px high); the heading was then "read only inside longer
    text" and the judge said "no" to a correct fix."""
    return (
        len(word.text) <= 2
        and word.conf is not None
        and word.conf < ICON_CONF
        and neighbour.box[0] - word.box[2] > ICON_GAP * (neighbour.box[3] - neighbour.box[1])
    )


MARK_CONF = 50.0
"""Tesseract confidence (0-100) under which a short word opening each line of a list is its mark."""
LIST_REACH = 4.0
"""Line heights within which another line of a list stands (``_list_mark``)."""


def read_sure(line: Line) -> bool:
    """True when some word of ``line`` is read with confidence of at least ``ICON_CONF`` (or none
    given): a line all of whose words are read less sure is a mark or a drawing read as text (a line
    chart's square markers read "- ae" at confidence 24 beside a legend)."""
    return any(w.conf is None or w.conf >= ICON_CONF for w in line.words)


TITLE_CONF = 60.0
"""Tesseract confidence under which a short line (``title_sure``) is a drawing read as text."""


def title_sure(line: Line) -> bool:
    """``read_sure``, and not a line of at most 3 letters or digits every word of which is read
    under ``TITLE_CONF``: a boxplot's box and whisker cap read "LT" at confidence 32, in larger
    "type" than the chart's title over it (a tenth tester's box plots), is no title."""
    short = sum(c.isalnum() for c in line.text) <= 3
    return read_sure(line) and not (short and all(w.conf is not None and w.conf < TITLE_CONF for w in line.words))


_LIST_NUMBER = re.compile(r"\d{1,3}[.)]")
"""An ordered list's number as OCR reads it before the item ("1.", "12)")."""


def _marks_alike(a: Word, b: Word) -> bool:
    """True when words ``a`` and ``b`` (opening two lines) read as a list's marks: both an ordered
    list's number (``_LIST_NUMBER``: a recipe's method "1. Warm the oil ...", an eleventh tester's
    page, was "read only inside longer text" as "the first item"); or, of at most two characters,
    both with confidence under ``MARK_CONF``; or one a mark (``_is_mark``); or both
    the same lower-case letter that is no English word (not "a", "i"). A green check mark "✔" before
    each item of a tenth tester's spec sheet is read "v" at confidence 88-91 (and once "¥")."""
    if _LIST_NUMBER.fullmatch(a.text) and _LIST_NUMBER.fullmatch(b.text):
        return True  # an ordered list's numbers: "1. Warm the oil" is the item "Warm the oil"
    if len(a.text) > 2 or len(b.text) > 2:
        return False
    if all(w.conf is not None and w.conf < MARK_CONF for w in (a, b)) or _is_mark(a.text) or _is_mark(b.text):
        return True
    return a.text == b.text and len(a.text) == 1 and a.text.islower() and a.text not in "ai"


def _opens_like(a: Line, b: Line) -> bool:
    """True when lines ``a`` and ``b`` each open with a word read as a list's mark
    (``_marks_alike``) at one left edge, followed by a word at one left edge (within a quarter of
    the line's height, at least 3 px), ``b`` within ``LIST_REACH`` line heights of ``a``."""
    if len(a.words) < 2 or len(b.words) < 2 or a is b:
        return False
    h = a.box[3] - a.box[1]
    tol = max(3, h / 4)
    (a0, a1), (b0, b1) = a.words[:2], b.words[:2]
    return (
        _marks_alike(a0, b0)
        and abs(a0.box[0] - b0.box[0]) <= tol
        and abs(a1.box[0] - b1.box[0]) <= tol
        and abs((b.box[3] - b.box[1]) - h) <= tol
        and abs(b.box[1] - a.box[1]) <= LIST_REACH * h
    )


def _list_mark(lines: list[Line], li: int) -> bool:
    """True when line ``li``'s first word is a mark drawn before every item of a list: another
    line near it opens alike (``_opens_like``). A green check mark "✓" before each option of a
    ninth tester's comparison slide is read "“Y", "“", "Y" or "/“" (confidence 16-48) as a word
    of the item's line, 10 px left of its text; the item was then "read only inside longer text"."""
    return lines[li].angle == 0 and any(_opens_like(lines[li], ln) for ln in lines if ln.angle == 0)


def element_words(lines: list[Line], li: int) -> tuple[WordId, ...]:
    """The words of line ``li`` without marks (``_is_mark``) or noise (``_is_noise``) at either end,
    nor an icon (``_is_icon``) before the words; at its end a word with a text sign
    (``_TEXT_SIGNS``: "(%)") is text."""
    words = lines[li].words
    lo, hi = 0, len(words)
    while lo < hi and (
        _is_mark(words[lo].text)
        or (lo + 1 < hi and (_is_noise(words[lo], words[lo + 1]) or _is_icon(words[lo], words[lo + 1])))
        or (lo == 0 and hi > 1 and _list_mark(lines, li))
    ):
        lo += 1
    while hi > lo and (
        (_is_mark(words[hi - 1].text) and not _TEXT_SIGNS & set(words[hi - 1].text))
        or (hi - 1 > lo and _is_noise(words[hi - 1], words[hi - 2]))
    ):
        hi -= 1
    return tuple((li, wi) for wi in range(lo, hi))


def mark_words(lines: list[Line]) -> list[WordId]:
    """The words of ``lines`` read in a mark: no letter or digit, a bullet glyph or a handle
    (``_is_mark``), or a list's mark opening its line (``_list_mark``: "1." of a numbered item). A
    string that quotes them ("1. Pfizer's footprint") is still its element's whole text."""
    marks = [(li, wi) for li, ln in enumerate(lines) for wi, w in enumerate(ln.words) if _is_mark(w.text)]
    return marks + [(li, 0) for li in range(len(lines)) if len(lines[li].words) > 1 and _list_mark(lines, li)]


FIGURE_LEAD = frozenset("$€£¥+-−±#")
"""Marks a figure may open with: a currency, a sign (``figure_line``)."""


def figure_line(line: Line) -> bool:
    """True when ``line`` opens with a figure: its first word holds a digit and starts with a
    digit or a ``FIGURE_LEAD`` mark ("$29/month", "18,402", "+4.2%"; a pricing tier's price in
    44 px type with a small "/month", which tesseract reads "$29 monn" at confidence 43). Such a
    value set large under its label (a tier's price, a KPI card's figure) is no heading and no
    body: the type-size rules of the heading finder and of ``relations.in_section`` step over it.
    A lead mark read as a word of its own joins the next word: 36 px bold "$52" read "$ 5 2"."""
    texts = [w.text for w in line.words[:2]]
    first = "".join(texts) if len(texts) == 2 and set(texts[0]) <= FIGURE_LEAD else (texts or [""])[0]
    return any(c.isdigit() for c in first) and (first[0].isdigit() or first[0] in FIGURE_LEAD)


def figure_size(line: Line) -> float:
    """The em of the figure that opens ``line`` (``figure_line``): of its first words, lead marks and
    words with a digit, alone. A price's small "per month" beside "$43" in 36 px type is no part of
    the price's size (the line's size, a median over its words, sits between the two)."""
    lead = []
    for w in line.words:
        if not (set(w.text) <= FIGURE_LEAD or any(c.isdigit() for c in w.text)):
            break
        lead.append(w)
    return type_size(Line(tuple(lead))) if lead else 0.0


def type_size(line: Line, rgb: np.ndarray | None = None) -> float:
    """The line's em in pixels (module docstring); 0.0 when it has no letter or digit.

    With ``rgb`` (uint8 (H, W, 3): given for a line that OCR read inside a badge, whose box is
    the whole badge, ``_page_sizes``), the height is that of the ink separated from the badge's
    fill in the word's box (``rewards.text.page.text_style.ink_of``); words with no separable ink
    (the badge's corner read as "L") are then not measured."""
    boxed, inked = [], []
    rotated = line.angle in (90, 270)
    for k, w in enumerate(line.words):
        if not any(c.isalnum() for c in w.text) or (k == 0 and len(line.words) > 1 and _is_mark(w.text)):
            continue  # a bullet read "e" is a dot's box, not type
        extent = (w.box[2] - w.box[0]) if rotated else (w.box[3] - w.box[1])
        boxed.append(extent / em_fraction(w.text))
        ink = ink_of(rgb, w.box) if rgb is not None else None
        rows = np.nonzero(ink.alpha.sum(axis=0 if rotated else 1) >= 0.5)[0] if ink is not None else []
        if len(rows):
            inked.append(int(rows[-1] - rows[0] + 1) / em_fraction(w.text))
    sizes = inked or boxed  # a word with no separable ink (a badge's corner read as "L") is not measured
    return float(median(sizes)) if sizes else 0.0


RUN_DROP = 1.45
"""A line's words after this much of a drop in type size are a run of their own (``larger_lead``)."""


def larger_lead(line: Line) -> int:
    """The number of words of ``line`` before a run in smaller type that ends it, or 0 when there is
    none: every word with a letter or digit after the cut at least ``RUN_DROP`` times smaller (em,
    ``em_fraction``) than every such word before it. Tesseract reads a title and the subtitle set
    on its baseline to the right ("Team Juniper sprint board  Sprint 32, ends Thursday", 28 px bold
    and 15 px grey, 16 px apart; a tenth tester's board) as one line."""
    ems = [
        (k, (w.box[3] - w.box[1]) / em_fraction(w.text))
        for k, w in enumerate(line.words)
        if any(c.isalnum() for c in w.text)
    ]
    for cut in range(1, len(ems)):
        if min(e for _, e in ems[:cut]) >= RUN_DROP * max(e for _, e in ems[cut:]):
            return ems[cut - 1][0] + 1
    return 0


def _page_sizes(page) -> list[float]:
    """``type_size`` of every line of ``page``, from the ink (``rgb``) for a line whose centre
    lies in a fill (``rewards.text.ocr.fills.find_fills``) at most 1.6 times its box's height:
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
        pixels' digest, not the image's id: an editor hands in a new image of edited pixels."""
        pixels = pixels_digest(image) if image is not None else None
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
        if not (self.lines[a].angle == self.lines[b].angle == 0 and _same_size(self.sizes[a], self.sizes[b])):
            return False
        # a bold 18 px card heading over its 13 px text measured 18.6 and 16.7 em (OCR's box pads
        # small type by a pixel or two): of about one size, but a bold line over a regular one
        # is a heading over its text, not one block (a ninth tester's roadmap cards)
        near = max(self.sizes[a], self.sizes[b]) <= SAME_WEIGHT_SIZE * min(self.sizes[a], self.sizes[b])
        return near or {self.weight(a), self.weight(b)} != {"bold", "regular"}

    def weight(self, li: int) -> str | None:
        """The measured weight of line ``li`` ("bold", "regular" or None: ``text_style.measure``),
        None without the image; measured once per page."""
        weights = self.memo.setdefault("weights", {})
        if li not in weights:
            rgb = self.rgb()
            words = [(w.box, w.text) for w in self.lines[li].words]
            weights[li] = measure(rgb, words).weight if rgb is not None and words else None
        return weights[li]

    def gray(self) -> np.ndarray | None:
        if "gray" not in self.memo:
            self.memo["gray"] = np.asarray(self.image.convert("L")) if self.image is not None else None
        return self.memo["gray"]

    def fills(self) -> list[Box]:
        """The boxes of the page's flat-coloured fills (``rewards.text.ocr.fills.find_fills``), [] without the image."""
        if "fills" not in self.memo:
            self.memo["fills"] = [f.box for f in find_fills(self.image.convert("RGB"))] if self.image else []
        return self.memo["fills"]

    def rgb(self) -> np.ndarray | None:
        if "rgb" not in self.memo:
            self.memo["rgb"] = np.asarray(self.image.convert("RGB")) if self.image is not None else None
        return self.memo["rgb"]
