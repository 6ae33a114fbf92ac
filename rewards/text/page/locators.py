"""Locator phrases the question compiler leaves to a VLM, resolved on the page structure.

The compiler (``rewards.text.questions``) keeps a locator it cannot represent as a VLM part
("locator 'directly beneath the title'", "locator 'first x-axis tick label from the left'",
"style 'slice'"). When a question's text part holds, the OCR judge asks :func:`resolve_locators`
whether the page shows such a part for an occurrence of the required string read as a whole
element (a line or block of its own, ``rewards.text.page.finders._whole``):

- **below the title** ("directly beneath the title", "below the title"): the occurrence stands
  under a title (``finders._title``), overlapping it horizontally; "directly": no line between
  them; otherwise at most one block between them, of larger type (a subtitle over a paragraph);
- **tick and category labels by ordinal** ("the second x-axis tick label from the left", "the
  fourth y-axis category label from the top"): the occurrence is the Nth of its row of tick labels
  (``finders._tick_rows``) or of its column of right-aligned labels, and the row or column is
  complete: evenly spaced (each gap 0.6-1.4 times the median) and with no ink where one more
  label would stand before the first or after the last (a label OCR missed would shift the count);
- **slice labels** ("a slice label", with the compiler's "style 'slice'"): the occurrence stands
  on or around the chart's pie (``rewards.text.page.pie.find_pie``: 0.3 to 1.45 radii from its
  centre) and is not a legend entry (no swatch left of it);
- **a slice and its value** ("the 'Hydro' slice labeled with the percentage '36%'"): name and
  value are slice labels at one angle from the pie's centre (within 12 degrees), each the other's
  nearest in angle among the slice labels on its side of the rim (matplotlib places a wedge's
  label and its percentage on the wedge's middle angle);
- **the centre of a donut** ("the text in the center of the donut"): within 0.35 radii of the
  centre of a pie with a hole.

A part is resolved only when it holds; a part that fails or that these rules do not know stays a
VLM part (the verdict is withheld): resolving never says "no". Boxes are ``(x0, y0, x1, y1)``
pixels of the judged image.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from PIL import Image

from rewards.text.ocr.text_match import Line, find_matches
from rewards.text.page.elements import find_elements
from rewards.text.page.finders import _swatch_left, _tick_rows
from rewards.text.page.grounding import _is_element
from rewards.text.page.page_lines import Box, Element, _Page, canonical_lines
from rewards.text.page.pie import Pie, angle_gap, find_pie
from rewards.text.questions.question_compiler import ElementSpec, TextSpec

ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1,
}  # fmt: skip
"""Ordinal words of a locator phrase (1-based; -1 the last)."""

SLICE_REACH = (0.3, 1.45)
"""Radii from a pie's centre where its slice labels stand (inside wedges, or beside the rim)."""

SLICE_ANGLE = 12.0
"""Degrees: a slice's name and its value stand at most this far apart in angle."""


@dataclass
class _Ctx:
    """What the rules read: the page, the required strings' whole-element occurrences, the pie."""

    page: _Page
    texts: tuple[str, ...]
    found: list[list[Element]]
    own: list[Element]
    memo: dict = field(default_factory=dict)

    def pie(self) -> Pie | None:
        if "pie" not in self.memo:
            rgb = self.page.rgb()
            self.memo["pie"] = find_pie(rgb) if rgb is not None else None
        return self.memo["pie"]


def resolve_locators(
    parts: list[str],
    spec: TextSpec,
    lines: list[Line],
    image: Image.Image | None,
    size: tuple[int, int],
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> tuple[list[str], list[str]]:
    """Split a question's VLM ``parts`` into those the page structure shows (module docstring) and
    the rest.

    Args:
        parts: the parts left to a VLM (``QuestionSpec.vlm_parts``), in words.
        spec: the question's text part, which holds on ``lines``.
        lines: the OCR lines of the judged image; ``image``: that image (None: nothing resolved).
        size: (width, height) of the image in pixels.

    Returns:
        (resolved, left): the parts shown, and the parts still only a VLM can decide.
    """
    if image is None or not parts:
        return [], list(parts)
    page = _Page.of(lines, image, size)
    own = find_elements(ElementSpec("whole"), lines, None, size) or []
    canon = canonical_lines(lines)
    found = []
    for text in spec.texts:
        ms = [m for m in find_matches(text, lines, *size, spec.region, case_sensitive, lenient, max_lines) if m.found]
        found.append([e for e in own if any(_is_element(m, e, True, False, canon) for m in ms)])
    ctx = _Ctx(page, spec.texts, found, own)
    resolved, left = [], list(parts)
    for patterns, rule in RULES:
        hits = [next((p for p in left if re.fullmatch(pat, p)), None) for pat in patterns]
        if all(hits) and rule(ctx, [re.fullmatch(pat, p) for pat, p in zip(patterns, hits)]):
            resolved += hits
            left = [p for p in left if p not in hits]
    return resolved, left


# ---------------------------------------------------------------- below the title


def _below_title(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "below the title" (module docstring)."""
    if len(ctx.texts) != 1:
        return False
    directly = bool(m[0].group(1))
    page = ctx.page
    titles = find_elements(ElementSpec("title"), page.lines, page.image, page.size) or []
    for o in ctx.found[0]:
        for t in titles:
            if o.box[1] < t.box[3] - 2 or min(o.box[2], t.box[2]) <= max(o.box[0], t.box[0]):
                continue
            between = [
                i
                for i in page.flat
                if i not in o.lines
                and i not in t.lines
                and t.box[3] - 2 <= (page.lines[i].box[1] + page.lines[i].box[3]) / 2 <= o.box[1] + 2
                and min(page.lines[i].box[2], o.box[2]) > max(page.lines[i].box[0], o.box[0])
            ]
            size = min(page.sizes[i] for i in o.lines)
            blocks = {tuple(page.block(i)) for i in between}
            if not between or (not directly and len(blocks) == 1 and all(page.sizes[i] > 1.15 * size for i in between)):
                return True
    return False


# ---------------------------------------------------------------- tick labels by ordinal


def _ink(page: _Page, box: Box) -> bool:
    """True when ``box`` (clipped to the image) holds pixels unlike the page (luminance 60 off the
    median) outside every line OCR read (a title read above a column of labels is no missed label)."""
    gray = page.gray()
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(gray.shape[1], int(box[2])), min(gray.shape[0], int(box[3]))
    if x1 <= x0 or y1 <= y0:
        return False
    ink = np.abs(gray[y0:y1, x0:x1].astype(np.int16) - int(np.median(gray))) > 60
    for ln in page.lines:
        a0, b0, a1, b1 = ln.box
        ink[max(0, b0 - 1 - y0) : max(0, b1 + 2 - y0), max(0, a0 - 1 - x0) : max(0, a1 + 2 - x0)] = False
    return bool(ink.any())


def _complete(page: _Page, boxes: list[Box], axis: int) -> bool:
    """True when ``boxes`` (in order along ``axis``: 0 = x, 1 = y) are evenly spaced and no ink
    stands where one more would be, one gap before the first and after the last."""
    mids = [(b[axis] + b[axis + 2]) / 2 for b in boxes]
    gaps = np.diff(mids)
    if len(gaps) < 1 or (gaps <= 0).any():
        return False
    g = float(np.median(gaps))
    if not ((gaps >= 0.6 * g) & (gaps <= 1.4 * g)).all():
        return False
    lo = min(b[1 - axis] for b in boxes)
    hi = max(b[3 - axis] for b in boxes)
    for mid in (mids[0] - g, mids[-1] + g):
        span = (mid - 0.3 * g, mid + 0.3 * g)
        probe = (span[0], lo, span[1], hi) if axis == 0 else (lo, span[0], hi, span[1])
        if _ink(page, probe):
            return False
    return True


def _nth_is(items: list[int], line: int, ordinal: int) -> bool:
    k = ordinal - 1 if ordinal > 0 else len(items) + ordinal
    return 0 <= k < len(items) and items[k] == line


def _x_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the x axis (module docstring)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for o in ctx.found[0]:
        if len(o.lines) != 1:
            continue
        for row in _tick_rows(page):
            row = sorted(row, key=lambda i: page.lines[i].box[0])
            if o.lines[0] in row and _complete(page, [page.lines[i].box for i in row], 0):
                if _nth_is(row, o.lines[0], ordinal):
                    return True
    return False


def _y_column(page: _Page, li: int) -> list[int]:
    """The short horizontal lines right-aligned with line ``li`` (within half its type size), top to bottom."""
    right, em = page.lines[li].box[2], page.sizes[li]
    col = [i for i in page.flat if abs(page.lines[i].box[2] - right) <= max(2.0, 0.5 * em)]
    return sorted((i for i in col if len(page.lines[i].text) <= 20), key=lambda i: page.lines[i].box[1])


def _y_tick(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "tick labels by ordinal" along the y axis (module docstring)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for o in ctx.found[0]:
        if len(o.lines) != 1:
            continue
        col = _y_column(page, o.lines[0])
        if len(col) >= 3 and _complete(page, [page.lines[i].box for i in col], 1) and _nth_is(col, o.lines[0], ordinal):
            return True
    return False


# ---------------------------------------------------------------- pies and donuts


def _slice_labels(ctx: _Ctx, pie: Pie) -> list[Element]:
    """The whole elements of one line standing where a slice label stands (``SLICE_REACH``), not legend entries."""
    page, rgb = ctx.page, ctx.page.rgb()
    out = []
    for e in ctx.own:
        if len(e.lines) != 1 or not SLICE_REACH[0] <= pie.distance(e.box) <= SLICE_REACH[1]:
            continue
        if not _swatch_left(rgb, e.box, page.sizes[e.lines[0]]):
            out.append(e)
    return out


def _slice_label(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "slice labels" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 1:
        return False
    labels = {e.box for e in _slice_labels(ctx, pie)}
    return any(o.box in labels for o in ctx.found[0])


def _nearest(pie: Pie, of: Element, among: list[Element]) -> Element | None:
    """The element of ``among`` other than ``of`` nearest to it in angle seen from the pie's centre."""
    others = [e for e in among if e.box != of.box]
    return min(others, key=lambda e: angle_gap(pie.angle(e.box), pie.angle(of.box)), default=None)


def _slice_value(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a slice and its value" (module docstring)."""
    pie = ctx.pie()
    if pie is None or len(ctx.texts) != 2:
        return False
    labels = _slice_labels(ctx, pie)
    boxes = {e.box for e in labels}
    for n in (e for e in ctx.found[0] if e.box in boxes):
        for v in (e for e in ctx.found[1] if e.box in boxes):
            if angle_gap(pie.angle(n.box), pie.angle(v.box)) > SLICE_ANGLE:
                continue
            n_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(n.box) >= 1)]
            v_side = [e for e in labels if (pie.distance(e.box) >= 1) == (pie.distance(v.box) >= 1)]
            near_n, near_v = _nearest(pie, v, n_side), _nearest(pie, n, v_side)
            if near_n is not None and near_v is not None and near_n.box == n.box and near_v.box == v.box:
                return True
    return False


def _donut_centre(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the centre of a donut" (module docstring)."""
    pie = ctx.pie()
    if pie is None or not pie.donut or len(ctx.texts) != 1:
        return False
    return any(pie.distance(o.box) <= 0.35 for o in ctx.found[0])


_ORD = "(" + "|".join(ORDINALS) + ")"

RULES: list[tuple[tuple[str, ...], Callable[[_Ctx, list[re.Match]], bool]]] = [
    ((r"locator '(directly )?(?:beneath|below|under(?:neath)?) the (?:main )?title'",), _below_title),
    ((rf"locator '{_ORD} x-axis (?:tick |category )?label from the left'",), _x_tick),
    ((rf"locator '{_ORD} y-axis (?:tick |category )?label from the top'",), _y_tick),
    ((r"style 'slice'", r"locator '(?:a )?slice label'"), _slice_label),
    ((r"how the quoted strings relate", r"style 'slice'", r"words percentage"), _slice_value),
    ((r"locator '(?:in|at) the cent(?:er|re) of the (?:donut|doughnut|ring)'",), _donut_centre),
]
"""(patterns, rule): when every pattern matches one of the parts left (``re.fullmatch``) and the
rule holds, those parts are resolved."""
