"""What the element a positional locator names reads: the page's side of a confident "no" (issue 31).

The locator rules (``rewards.text.page.locators``) only ever confirm: "the fourth y-axis category
label from the top" is resolved when an occurrence of the quoted string *is* that label, and
otherwise stays a VLM part. When the quoted string is read elsewhere ("Gas" in the annotation
"Highest: Gas (93%)") while the fourth label reads "Gau", a person answers "no, the fourth label
reads Gau". :func:`element_read` finds that element, and says what it reads, only when the page
pins it for sure:

- **the Nth x tick or y category label** ("the fourth x-axis tick label from the left", "the
  second y-axis category label from the top"): the page has exactly one complete row of short
  labels below its middle (x) or one complete column of right-aligned labels in its left half
  (y): at least three, evenly spaced (each gap 0.6-1.4 times the median), no unread ink where
  one more label would stand before the first or after the last, none a legend entry (a swatch
  left of it); a missing or merged label would break the spacing, so the ordinal is sure;
- **the header of the Nth column** ("Is the header of the third column exactly 'Segment'?"): the
  page's table (``page_locators._table``: a header row of three cells or more over two rows or
  more aligned with it) has as many cells in every body row as in its header row (no column's
  header unread), and the Nth header cell is the element (``_table`` finds no table when a row of
  cells stands just over the row it would take for the header: a blank corner cell);
- **the value label at the end of the 'X' bar**: the category label X, read as a whole line,
  has exactly one first line right of it in its row with ink (the bar's end) within 1.5 type
  sizes left of it, and that line looks like a value (a digit, at most ``VALUE_CHARS`` characters);
- **the 'X' slice labelled with the percentage 'V'**: on the pie found in the pixels every slice
  has its name and its percentage read as slice labels (as many percentages as names, two or
  more), X is one of the names, and one percentage is both the nearest in angle to X (within
  ``chart_locators.SLICE_ANGLE``) and has X as its nearest name.
- **a value label that is not drawn** (``empty_slots``): "the value label above the 'S' bar in
  the 'G' group" (its bar found by the series' swatch colour in the group's span) and "the 'X'
  slice's percentage" (every other slice has its own): the slot found for sure and holding no
  ink reads "" (``ElementRead.empty``), a person's "no, that bar has no value label".

The judge (``rewards.judges.ocr``) compares what the element reads with the quoted string and
decides whether that is a confident "no" (confidence, look-alikes, a second read of the strip).
Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from PIL import Image

from rewards.text.ocr.ocr_cache import part_lines
from rewards.text.ocr.ocr_read import ReadSettings
from rewards.text.ocr.tesseract_lines import OCRError
from rewards.text.ocr.text_match import Line, find_matches, normalize, words_conf
from rewards.text.page.chart_locators import SLICE_ANGLE, _slice_labels, _swatch_colour, _y_column
from rewards.text.page.elements import find_elements
from rewards.text.page.empty_slots import empty_over, empty_wedge
from rewards.text.page.legend_marks import swatch_left
from rewards.text.page.locator_base import ORDINALS, _complete, _Ctx, _ink, _lines_right_of, _x_row, line_of
from rewards.text.page.page_lines import Box, Element, _Page
from rewards.text.page.page_locators import _table
from rewards.text.page.pie import angle_gap
from rewards.text.page.series_bars import group_span, label_height, series_bar
from rewards.text.questions.question_compiler import ElementSpec

_ORD = "(" + "|".join(ORDINALS) + ")"
X_TICK = re.compile(rf"locator '{_ORD} x-axis (?:tick |category )?label from the left'")
Y_TICK = re.compile(rf"locator '{_ORD} y-axis (?:tick |category )?label from the top'")
COLUMN = re.compile(rf"locator 'of the {_ORD} column'")
BAR_END = re.compile(r"""locator "at the end of the '([^']+)' bar\"""")
GROUP_BAR = re.compile(r"""locator "above the '([^']+)' bar in the '([^']+)' group\"""")
CARD = "locator 'card'"
"""The compiler's one VLM part of "Does the 'L' card show the value 'V'?" (a KPI card)."""
VALUE_SIZE = 1.3
"""A KPI card's value is set at least this many times its label's height."""
PRICE = "locator 'price'"
"""The compiler's VLM part of "the price of 'X'" (a menu item's price)."""
SLICE_PARTS = ("how the quoted strings relate", "style 'slice'", "words percentage")
"""The compiler's VLM parts of "Is the 'X' slice labeled with the percentage 'V'?"."""
VALUE_CHARS = 8
"""A value label ("93%", "$1,250") has at most this many characters."""
_PERCENT = re.compile(r"\d+(?:[.,]\d+)?%")


@dataclass(frozen=True)
class ElementRead:
    """The element a positional locator names, as read.

    Attributes:
        part: the VLM part that names it ("locator 'fourth x-axis tick label from the left'").
        what: the element in words, for a reason ("the fourth x-axis tick label from the left").
        expected: the quoted string the element should read.
        text: what OCR read there (its words, marks aside).
        box: the element's box (pixels).
        conf: the lowest tesseract confidence of its words (0-100; 100 with none).
        empty: the element is not drawn: its slot was found and holds no ink (``text`` is "",
            ``box`` the slot's).
    """

    part: str
    what: str
    expected: str
    text: str
    box: Box
    conf: float
    empty: bool = False

    def as_dict(self) -> dict:
        out = {"part": self.part, "what": self.what, "expected": self.expected, "text": self.text}
        return (
            out
            | {"box": [int(v) for v in self.box], "conf": float(self.conf)}
            | ({"empty": True} if self.empty else {})
        )


def element_read(
    parts: list[str],
    texts: tuple[str, ...],
    lines: list[Line],
    image: Image.Image | None,
    size: tuple[int, int],
    contexts: tuple[str, ...] = (),
) -> ElementRead | None:
    """The element one of a question's VLM ``parts`` pins by position, found for sure (module
    rules), and what it reads; None when no part names one or the page does not pin it.

    Args:
        parts: the parts left to a VLM (``QuestionSpec.vlm_parts`` after the locator rules).
        texts: the question's required strings (``TextSpec.texts``).
        contexts: the texts of its "context" anchors (the card's label of "the 'L' card shows
            the value 'V'").
        lines: the OCR lines of ``image``; size: its (width, height) in pixels.
    """
    if image is None:
        return None
    page = _Page.of(lines, image, size)
    for part in parts:
        tick = X_TICK.fullmatch(part) or Y_TICK.fullmatch(part)
        if tick is not None and len(texts) == 1:
            axis = 0 if X_TICK.fullmatch(part) else 1
            return _nth_label(page, part, texts[0], ORDINALS[tick.group(1).lower()], axis)
        col = COLUMN.fullmatch(part)
        if col is not None and len(texts) == 1:
            return _column_head(page, part, texts[0], ORDINALS[col.group(1).lower()])
        group = GROUP_BAR.fullmatch(part)
        if group is not None and len(texts) == 1:
            return group_value(page, part, group.group(1), group.group(2), texts[0])
        bar = BAR_END.fullmatch(part)
        if bar is not None and len(texts) == 2 and normalize(bar.group(1)).lower() == normalize(texts[0]).lower():
            return _bar_value(page, part, texts)
    if list(parts) == [CARD] and len(texts) == 1 and len(contexts) == 1:
        return _card_value(page, contexts[0], texts[0])
    if PRICE in parts and len(texts) >= 2:
        return _row_price(page, texts)
    if all(p in parts for p in SLICE_PARTS) and len(texts) == 2:
        slot = empty_wedge(page, texts)
        if slot is not None:
            return ElementRead("words percentage", slot[0], texts[1], "", slot[1], 100.0, empty=True)
        return _slice_value(page, texts)
    return None


def _value_like(text: str) -> bool:
    """Whether ``text`` looks like a value: a digit, at most ``VALUE_CHARS`` characters."""
    return len(text) <= VALUE_CHARS and any(c.isdigit() for c in text)


def _read(page: _Page, el: Element, part: str, what: str, expected: str) -> ElementRead:
    return ElementRead(part, what, expected, el.text, el.box, words_conf(page.lines, el.words))


def _what(part: str) -> str:
    """The element a locator part names, in words ("locator 'fourth ...'" -> "the fourth ...")."""
    inner = part.split(" ", 1)[1].strip("'\"")
    return inner if inner.startswith("the ") else f"the {inner}"


def axis_labels(page: _Page, axis: int) -> tuple[int, ...] | None:
    """The page's x tick labels (``axis`` 0) or y category labels (1): line indices in order
    along the axis, when exactly one complete row (column) of them stands where the module says;
    None otherwise."""
    key = ("axis_labels", axis)
    if key not in page.memo:
        (w, h), rgb = page.size, page.rgb()
        runs = set()
        for i in page.flat:
            run = tuple(_x_row(page, i) if axis == 0 else _y_column(page, i))
            if len(run) < 3 or run in runs:
                continue
            boxes = [page.lines[j].box for j in run]
            mids = [(b[1 - axis] + b[3 - axis]) / 2 for b in boxes]
            if not all(m > h / 2 if axis == 0 else m < w / 2 for m in mids):
                continue
            if rgb is not None and any(swatch_left(rgb, page.lines[j].box, page.sizes[j]) for j in run):
                continue
            if _complete(page, boxes, axis):
                runs.add(run)
        page.memo[key] = next(iter(runs)) if len(runs) == 1 else None
    return page.memo[key]


def _nth_label(page: _Page, part: str, expected: str, ordinal: int, axis: int) -> ElementRead | None:
    """Rule "the Nth x tick or y category label" (module docstring)."""
    run = axis_labels(page, axis)
    if run is None:
        return None
    k = ordinal - 1 if ordinal > 0 else len(run) + ordinal
    el = page.element("tick", [run[k]]) if 0 <= k < len(run) else None
    return _read(page, el, part, _what(part), expected) if el is not None else None


def _column_head(page: _Page, part: str, expected: str, ordinal: int) -> ElementRead | None:
    """Rule "the header of the Nth column" (module docstring)."""
    head, body = _table(_Ctx(page, (expected,), [], [], [], []))
    if not head or any(len(r) != len(head) for r in body):
        return None
    k = ordinal - 1 if ordinal > 0 else len(head) + ordinal
    el = page.element("header", [head[k]]) if 0 <= k < len(head) else None
    return _read(page, el, part, f"the header of the {part.split()[3]} column", expected) if el is not None else None


def _whole_line(page: _Page, box: Box) -> bool:
    """True when ``box`` (an occurrence) is the whole of the line it lies in (marks aside)."""
    i = line_of(page, box)
    el = page.element("line", [i]) if i is not None else None
    return el is not None and abs(el.box[0] - box[0]) <= 2 and abs(el.box[2] - box[2]) <= 2


def _bar_value(page: _Page, part: str, texts: tuple[str, ...]) -> ElementRead | None:
    """Rule "the value label at the end of the 'X' bar" (module docstring)."""
    labels = [m.box for m in find_matches(texts[0], page.lines, *page.size, None) if m.found]
    values = set()
    for label in (b for b in labels if _whole_line(page, b)):
        right = _lines_right_of(page, label)
        if right:
            b, em = page.lines[right[0]].box, page.sizes[right[0]]
            if _ink(page, (b[0] - 1.5 * em, b[1], b[0] - 1, b[3])):
                values.add(right[0])
    if len(values) != 1:
        return None
    el = page.element("value", [values.pop()])
    if el is None or not _value_like(el.text):
        return None
    return _read(page, el, part, f"the value label at the end of the {texts[0]!r} bar", texts[1])


def _card_value(page: _Page, label: str, expected: str) -> ElementRead | None:
    """Rule "the 'L' card shows the value 'V'" (a KPI card): L is read as a whole line exactly
    once, and the first line under it that overlaps its columns, within 4 of its heights, is set
    at least ``VALUE_SIZE`` times its height (a card's figure, not its change note) and looks
    like a value (a digit, at most ``VALUE_CHARS`` characters)."""
    whole = [m.box for m in find_matches(label, page.lines, *page.size, None) if m.found and _whole_line(page, m.box)]
    if len(whole) != 1:
        return None
    x0, y0, x1, y1 = whole[0]
    under = sorted(
        (
            i
            for i in page.flat
            if page.lines[i].box[1] >= y1 and min(x1, page.lines[i].box[2]) > max(x0, page.lines[i].box[0])
        ),
        key=lambda i: page.lines[i].box[1],
    )
    if not under or under[0] == line_of(page, whole[0]):
        return None
    b = page.lines[under[0]].box
    el = page.element("value", [under[0]])
    if b[1] - y1 > 4 * (y1 - y0) or b[3] - b[1] < VALUE_SIZE * (y1 - y0) or el is None:
        return None
    if not _value_like(el.text):
        return None
    return _read(page, el, CARD, f"the value of the {label!r} card", expected)


def _row_price(page: _Page, texts: tuple[str, ...]) -> ElementRead | None:
    """Rule "the price of 'X'" (a menu): the price is the last quoted string and the only one with
    a digit, X the string before it; X is read as a whole line exactly once, and the first line
    right of it on its row (a menu sets an item's price on the item's baseline, flush with the
    column's right edge) looks like a value (a digit, at most ``VALUE_CHARS`` characters)."""
    price, item = texts[-1], texts[-2]
    if sum(any(c.isdigit() for c in t) for t in texts) != 1 or not any(c.isdigit() for c in price):
        return None
    labels = [m.box for m in find_matches(item, page.lines, *page.size, None) if m.found]
    whole = [b for b in labels if _whole_line(page, b)]
    right = _lines_right_of(page, whole[0]) if len(whole) == 1 else []
    el = page.element("value", right[:1]) if right else None
    if el is None or not _value_like(el.text):
        return None
    return _read(page, el, PRICE, f"the price of {item!r}", price)


def _slice_value(page: _Page, texts: tuple[str, ...]) -> ElementRead | None:
    """Rule "the 'X' slice labelled with the percentage 'V'" (module docstring)."""
    own = find_elements(ElementSpec("whole"), page.lines, None, page.size) or []
    ctx = _Ctx(page, texts, [], own, [], [])
    pie = ctx.pie()
    if pie is None:
        return None
    labels = _slice_labels(ctx, pie)
    pcts = [e for e in labels if _PERCENT.fullmatch(normalize(e.text))]
    names = [e for e in labels if not any(c.isdigit() for c in e.text)]
    named = [e for e in names if normalize(e.text) == normalize(texts[0])]
    if len(named) != 1 or len(pcts) != len(names) or len(names) < 2 or len(pcts) + len(names) != len(labels):
        return None
    n = named[0]
    near = lambda of, among: min(among, key=lambda e: angle_gap(pie.angle(e.box), pie.angle(of.box)))  # noqa: E731
    v = near(n, pcts)
    if angle_gap(pie.angle(v.box), pie.angle(n.box)) > SLICE_ANGLE or near(v, names).box != n.box:
        return None
    return _read(page, v, "words percentage", f"the percentage of the {texts[0]!r} slice", texts[1])


def group_value(page: _Page, part: str, series: str, group: str, expected: str) -> ElementRead | None:
    """Rule "the value label above the 'S' bar in the 'G' group" (grouped bars): the x tick label
    G of the page's one row of tick labels (``axis_labels``) spans the group (half a label step
    either side of its middle); the series S has one legend swatch (``_swatch_colour``); its bar
    in that span is ``series_bars.series_bar``'s (the one finder of a grouped bar). The value is the one line
    over the bar whose foot lies within 1.5 label heights above the top and that looks like a
    value; when no line was read there but ink stands there, that ink is read on its own
    (``_read_alone``: tesseract drops a lone "2" over a short bar). None when anything is unsure."""
    ticks, rgb = axis_labels(page, 0), page.rgb()
    if ticks is None or rgb is None:
        return None
    at = [k for k, i in enumerate(ticks) if normalize(page.lines[i].text).lower() == normalize(group).lower()]
    legend = [m.box for m in find_matches(series, page.lines, *page.size, None) if m.found]
    colours = [c for c in (_swatch_colour(page, b, b[3] - b[1] + 2) for b in legend) if c is not None]
    if len(at) != 1 or len(colours) != 1:
        return None
    em = _tick_height(page, ticks)
    mids = [(page.lines[i].box[0] + page.lines[i].box[2]) / 2 for i in ticks]
    foot = min(page.lines[i].box[1] for i in ticks)
    bar = series_bar(rgb, colours[0], group_span(mids, at[0], rgb.shape[1]), foot, em)
    if bar is None:
        return None
    bx0, top, bx1, _ = bar
    over = [
        i
        for i in page.flat
        if bx0 - 2 <= (page.lines[i].box[0] + page.lines[i].box[2]) / 2 <= bx1 + 2
        and 0 <= top - page.lines[i].box[3] <= 1.5 * em
    ]
    what = f"the value label above the {series!r} bar in the {group!r} group"
    if len(over) > 1:
        return None
    if not over:  # not drawn (its slot holds no ink: ``empty_slots``), or a lone glyph OCR dropped
        slot = empty_over(page, bx0, top, bx1, em)
        if slot is not None:
            return ElementRead(part, what, expected, "", slot, 100.0, empty=True)
        return _read_alone(page, (bx0, round(top - 1.6 * em), bx1, top - 1), part, what, expected)
    el = page.element("value", over)
    if el is None or not _value_like(el.text):
        return None
    return _read(page, el, part, what, expected)


def _tick_height(page: _Page, ticks: tuple[int, ...]) -> float:
    """The tick labels' height (px): ``series_bars.label_height`` of their boxes."""
    return label_height([page.lines[i].box for i in ticks])


def _read_alone(page: _Page, box: Box, part: str, what: str, expected: str) -> ElementRead | None:
    """The ink in ``box`` that no OCR line holds, read on its own (its bounding box padded by half
    its height, one text line, psm 7) at 3x and at 2x; an ElementRead when both reads give the
    same value-like text (a digit, at most ``VALUE_CHARS`` characters), else None."""
    gray = page.gray()
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(gray.shape[1], int(box[2])), min(gray.shape[0], int(box[3]))
    if x1 <= x0 or y1 <= y0 or not _ink(page, (x0, y0, x1, y1)):
        return None
    ink = np.abs(gray[y0:y1, x0:x1].astype(np.int16) - int(np.median(gray))) > 60
    ys, xs = np.nonzero(ink)
    ib = (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)
    pad = max(2, (ib[3] - ib[1]) // 2)
    crop = (max(0, ib[0] - pad), max(0, ib[1] - pad), min(gray.shape[1], ib[2] + pad), min(y1 + 1, ib[3] + pad))
    image = Image.fromarray(page.rgb()).crop(crop)
    reads = []
    for scale in (3.0, 2.0):
        try:
            got = part_lines(image, ReadSettings("eng", 7, scale, None, fills=False))
        except OCRError:
            return None
        words = [w for ln in got for w in ln.words]
        reads.append((" ".join(w.text for w in words), min((w.conf for w in words if w.conf is not None), default=0)))
    text = reads[0][0]
    if text != reads[1][0] or not _value_like(text):
        return None
    return ElementRead(part, what, expected, text, ib, float(min(c for _, c in reads)))
