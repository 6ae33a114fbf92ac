"""The slot of a chart's value label found empty: the page's side of a "no" for a missing value (issue 32).

``positional_reads`` says what a value label the page pins reads; when the label is not drawn at
all there is nothing to read, and a person still answers "no, that bar has no value label". These
rules find the slot for sure and see that it holds no ink:

- **the value label above the 'S' bar in the 'G' group** (grouped bars): the bar is found by
  ``positional_reads.group_value``; when no line stands over it, the slot (the bar's width,
  ``OVER`` tick heights over its top, ``empty_over``) must hold no strong ink (a pixel ``STRONG``
  off the page colour: a faint gridline may run there): then the label is missing;
- **the 'X' slice's percentage** (pies and donuts): two or more percentages are read as slice
  labels, each with its own slice name (its nearest name in angle, within ``SLICE_ANGLE``, none
  shared; OCR may miss a light percentage on a dark wedge), fewer than the names, none within
  ``SLICE_ANGLE`` of X; the slot is on X's angle at
  the other percentages' median distance from the centre, as wide as the widest of them; it must
  be flat (every pixel within ``FLAT`` per channel of its median: the wedge's fill alone).

Each rule gives the empty slot's box, ``(x0, y0, x1, y1)`` pixels of the judged image, or None
when the page does not pin the slot or something stands in it.
"""

from __future__ import annotations

import math
import re

import numpy as np

from rewards.text.ocr.text_match import normalize
from rewards.text.page.chart_locators import SLICE_ANGLE, _slice_labels
from rewards.text.page.elements import find_elements
from rewards.text.page.locator_base import _Ctx
from rewards.text.page.page_lines import Box, _Page
from rewards.text.page.pie import angle_gap
from rewards.text.questions.question_compiler import ElementSpec

OVER = 2.0
"""Type sizes over a bar's top within which its value label stands."""
STRONG = 60
"""Least difference (any channel) from the page colour of a pixel of ink (a gridline is fainter)."""
FLAT = 24
"""Most difference (any channel) from a wedge's median colour of a pixel of an empty slot."""
_PERCENT = re.compile(r"\d+(?:[.,]\d+)?%")


def _page_colour(page: _Page, rgb: np.ndarray) -> np.ndarray:
    if "page_colour" not in page.memo:
        page.memo["page_colour"] = np.median(rgb[::4, ::4].reshape(-1, 3), axis=0)
    return page.memo["page_colour"]


def empty_over(page: _Page, x0: int, top: int, x1: int, em: float) -> Box | None:
    """The slot over a bar (``x0``..``x1`` wide, ``OVER`` * ``em`` px high over its ``top``, pixels)
    when it holds no strong ink, else None (or when it is less than ``em`` high: the page's top)."""
    slot = (int(x0), max(0, int(top - OVER * em)), int(x1), max(0, int(top) - 1))  # ints: a verdict's evidence is JSON
    rgb = page.rgb()
    if rgb is None or slot[3] - slot[1] < em:
        return None
    ink = np.abs(rgb[slot[1] : slot[3], slot[0] : slot[2]].astype(np.int16) - _page_colour(page, rgb)).max(2)
    return None if (ink > STRONG).any() else slot


def _paired(pie, names: list, pcts: list) -> bool:
    """True when every one of ``pcts`` has its own slice name of ``names`` (nearest in angle,
    within ``SLICE_ANGLE``, none shared)."""
    taken = set()
    for v in pcts:
        n = min(names, key=lambda e: angle_gap(pie.angle(e.box), pie.angle(v.box)))
        if angle_gap(pie.angle(v.box), pie.angle(n.box)) > SLICE_ANGLE or n.box in taken:
            return False
        taken.add(n.box)
    return True


def empty_wedge(page: _Page, texts: tuple[str, ...]) -> tuple[str, Box] | None:
    """Rule "the 'X' slice's percentage" when X's wedge holds none (module docstring): (the
    element in words, the empty slot's box), or None."""
    own = find_elements(ElementSpec("whole"), page.lines, None, page.size) or []
    ctx = _Ctx(page, texts, [], own, [], [])
    pie, rgb = ctx.pie(), page.rgb()
    if pie is None or rgb is None:
        return None
    labels = _slice_labels(ctx, pie)
    pcts = [e for e in labels if _PERCENT.fullmatch(normalize(e.text))]
    names = [e for e in labels if not any(c.isdigit() for c in e.text)]
    named = [e for e in names if normalize(e.text) == normalize(texts[0])]
    if len(named) != 1 or not 2 <= len(pcts) < len(names) or len(pcts) + len(names) != len(labels):
        return None
    n = named[0]
    if any(angle_gap(pie.angle(v.box), pie.angle(n.box)) <= SLICE_ANGLE for v in pcts):
        return None
    if not _paired(pie, names, pcts):
        return None
    dist = float(np.median([pie.distance(v.box) for v in pcts])) * pie.radius
    a = math.radians(pie.angle(n.box))
    cx, cy = pie.centre[0] + dist * math.cos(a), pie.centre[1] - dist * math.sin(a)
    half_w = max(v.box[2] - v.box[0] for v in pcts) / 2
    half_h = max(v.box[3] - v.box[1] for v in pcts) / 2
    slot = (int(cx - half_w), int(cy - half_h), int(cx + half_w) + 1, int(cy + half_h) + 1)
    if slot[0] < 0 or slot[1] < 0 or slot[2] > rgb.shape[1] or slot[3] > rgb.shape[0]:
        return None
    crop = rgb[slot[1] : slot[3], slot[0] : slot[2]].reshape(-1, 3).astype(np.int16)
    if np.abs(crop - np.median(crop, axis=0)).max() > FLAT:
        return None
    what = f"the {texts[0]!r} slice's percentage"
    return what, slot
