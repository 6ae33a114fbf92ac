"""Locator rules of a page's parts (``rewards.text.page.locators``): a panel or row named by its
letter ("in panel (a)", "in row (b)"), and the element above all other content.

- **panel (a)**: the page's panel labels are the lines that open with a letter in brackets
  ("(a)", "(b) Variance adaptor"). The occurrence lies in a rectangle of the page
  (``rectangles.rectangles``: a border or a fill around a line) that holds the asked label and no
  other; at least two labels must be read on the page (one OCR missed could lie in that
  rectangle too). A label outside its panel (a caption under it) finds no such rectangle: the
  part stays a VLM's.
- **above all other content** ("above all numbered sections"): the occurrence's top is above
  the middle of every other line read on the page (of a title on two lines, the first line's).

Both are yes-only: a part that fails stays a VLM part.
"""

from __future__ import annotations

import re

from rewards.text.page.locator_base import _Ctx, _inside_box
from rewards.text.page.page_lines import Box, _Page
from rewards.text.page.rectangles import rectangles

PANEL_LABEL = re.compile(r"\(([a-h])\)")
"""A panel label: a letter in brackets that opens its line ("(a)", "(b) Variance adaptor")."""


def panel_labels(page: _Page) -> dict[str, list[Box]]:
    """The page's panel labels (``PANEL_LABEL``): letter -> the boxes of the words that read them."""
    out: dict[str, list[Box]] = {}
    for i in page.flat:
        words = page.lines[i].words
        m = PANEL_LABEL.match(words[0].text) if words else None
        if m is not None:
            out.setdefault(m.group(1), []).append(words[0].box)
    return out


def _panel(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "in panel (a)" (module docstring)."""
    labels = panel_labels(ctx.page)
    mine = labels.get(m[0].group(1).lower(), [])
    others = [b for k, boxes in labels.items() if k != m[0].group(1).lower() for b in boxes]
    if len(ctx.texts) != 1 or not mine or not others:
        return False
    for frame in rectangles(ctx.page):
        if not any(_inside_box(b, frame) for b in mine) or any(_inside_box(b, frame) for b in others):
            continue
        if any(_inside_box(o.box, frame) for o in ctx.found[0]):
            return True
    return False


def _topmost(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "above all other content" (module docstring); with several strings (a title on two
    lines) the first one's occurrence is above every line that is none of theirs, and each string is read."""
    if not all(ctx.found):
        return False
    page = ctx.page
    theirs = {i for found in ctx.found for o in found for i in o.lines}
    others = [i for i in page.read if i not in theirs]
    return any(all(o.box[1] < (page.lines[i].box[1] + page.lines[i].box[3]) / 2 for i in others) for o in ctx.found[0])
