"""Locator rules of a page's containers (``rewards.text.page.locators``): a panel or row named by
its letter ("in panel (a)", "in row (b)"), a box named by the text it holds ("the Step 1 box"),
one box that holds several strings ("a continent node labeled 'Asia' with '4600'"), and the
element above all other content.

- **panel (a)**: the page's panel labels are the lines that open with a letter in brackets
  ("(a)", "(b) Variance adaptor"). The occurrence lies in a rectangle of the page
  (``rectangles.rectangles``: a border or a fill around a line) that holds the asked label and no
  other; at least two labels must be read on the page (one OCR missed could lie in that
  rectangle too). A label outside its panel (a caption under it) finds no such rectangle: the
  part stays a VLM's.
- **a named box** ("Does the Step 1 box include 'Extract the graph.'", a name of capitalised
  words or digits before box, card, node, tile, block, panel or bubble): the smallest rectangle
  around an occurrence of the string also holds a line that reads the name.
- **one holder of several strings** ("a continent node labeled 'Asia' with '4600'", a generic
  holder, ``rewards.text.questions.generic_role``): the smallest rectangle around an occurrence
  of the first string holds an occurrence of each of the others.

An occurrence a holder holds is any for "includes", "contains"; for "labeled", "reads exactly"
(``TextSpec.reads_whole``) only one read as whole lines or a whole element (``_Ctx.held``):
"Note: Asia (draft)" is no node labeled "Asia".
- **the Nth line** ("Does the Shareholders box include the second line 'Team size: 3'"): the
  string is a whole line, the Nth from the top of the lines in the smallest rectangle around it
  (without one, of its block of lines).
- **starts / ends with** ("a legend note that begins with 'Legend note:'"): the string opens the
  first line of its block (or closes its last line).
- **above all other content** ("above all numbered sections"): the occurrence's top is above
  the middle of every other line read on the page (of a title on two lines, the first line's).

Both are yes-only: a part that fails stays a VLM part.
"""

from __future__ import annotations

import re

from rewards.text.ocr.text_match import find_matches
from rewards.text.page.locator_base import ORDINALS, _Ctx
from rewards.text.page.page_lines import Box, _inside, _Page, element_words
from rewards.text.page.rectangles import _lines_in, rectangles
from rewards.text.questions.generic_role import HOLDER_HEADS, is_generic_role

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
        if not any(_inside(b, frame) for b in mine) or any(_inside(b, frame) for b in others):
            continue
        if any(_inside(o.box, frame) for o in ctx.found[0]):
            return True
    return False


NAMED_HOLDER = re.compile(
    r"locator '(?:the |a |an )?(?!(?:In|On|At|Of|Inside|Within|Under|Below|Above|The|A|An)\b)"
    r"(?P<name>(?:[A-Z0-9][^\s']*\s){1,4})(?:box|card|node|tile|block|panel|bubble)'"
)
"""A box named by its text: capitalised words or digits, then the holder's noun ("the Step 1 box")."""


def _smallest_frame(page: _Page, box: Box) -> Box | None:
    """The smallest rectangle of the page (``rectangles.rectangles``) around the centre of ``box``."""
    frames = [f for f in rectangles(page) if _inside(box, f)]
    return min(frames, key=lambda f: (f[2] - f[0]) * (f[3] - f[1]), default=None)


def _named_holder(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "a named box" (module docstring)."""
    if len(ctx.texts) != 1:
        return False
    page, (w, h) = ctx.page, ctx.page.size
    name = m[0].group("name").strip()
    names = [x.box for x in find_matches(name, page.lines, w, h, None, True) if x.found]
    for span in ctx.held[0]:
        frame = _smallest_frame(page, span)
        if frame is not None and any(_inside(b, frame) and b != span for b in names):
            return True
    return False


HOLDER = re.compile(r"locator '(?:the |a |an )?((?:[a-z][a-z-]* ){0,3}(?:" + "|".join(sorted(HOLDER_HEADS)) + r"))'")
"""A generic holder's phrase ("the continent node"); ``holds_several`` tells which are generic."""


def holds_several(part: str, n_texts: int) -> bool:
    """True when ``part`` names one generic holder (``HOLDER``, ``generic_role.is_generic_role``)
    of ``n_texts`` >= 2 required strings: the rule "one holder of several strings" reads it."""
    m = HOLDER.fullmatch(part)
    return m is not None and n_texts >= 2 and is_generic_role(m.group(1).split())


def _one_holder(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "one holder of several strings" (module docstring)."""
    if not holds_several(m[0].group(0), len(ctx.texts)):
        return False
    for span in ctx.held[0]:
        frame = _smallest_frame(ctx.page, span)
        if frame is not None and all(any(_inside(b, frame) for b in boxes) for boxes in ctx.held[1:]):
            return True
    return False


def _nth_line(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "the Nth line" (module docstring)."""
    ordinal = ORDINALS.get(m[0].group(1).lower())
    if ordinal is None or len(ctx.texts) != 1:
        return False
    page = ctx.page
    for words in ctx.words[0]:
        li = words[0][0]
        if {w[0] for w in words} != {li} or set(element_words(page.lines, li)) - set(words):
            continue  # not one whole line
        frame = _smallest_frame(page, page.lines[li].box)
        group = _lines_in(page, frame) if frame is not None else page.block(li)
        group = sorted(group, key=lambda i: page.lines[i].box[1])
        k = ordinal - 1 if ordinal > 0 else len(group) + ordinal
        if 0 <= k < len(group) and group[k] == li:
            return True
    return False


def _edge_of_block(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "starts / ends with" (module docstring)."""
    if len(ctx.texts) != 1:
        return False
    page, start = ctx.page, not re.search(r"\bend", m[0].group(0))
    for words in ctx.words[0]:
        first, last = min(words), max(words)
        block = page.block(first[0] if start else last[0])
        edge = block[0] if start else block[-1]
        own = element_words(page.lines, edge)
        if own and (first == own[0] if start else last == own[-1]) and (first if start else last)[0] == edge:
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
