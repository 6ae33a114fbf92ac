"""Locator rule of an element named by how it looks (``rewards.text.page.locators``): a generic
role ("label", "heading", "subtitle", "source line") with style adjectives a person reads off the
page: its weight, its text colour, whether it is centred ("the bold section label", "the gray
source line", "the centered subtitle").

The phrase is ``[the] ADJ... ROLE`` where each ``ADJ`` is one of

- **bold** ("bold", "bolded", "boldface"): every word of the occurrence measured bold
  (``text_style.measure``: stroke width / em above ``text_style.BOLD_RATIO``, calibrated on the
  installed faces);
- **a text colour** (``question_style._COLOUR_NAMES``, with "dark", "light", "pale" or "bright"
  before it): the ink of the words holding at least half of the characters is named that colour
  and no word is named another (``text_style.matches``);
- **centered** ("centered", "centred"): on each line the occurrence spans, its words' middle
  lies within ``CENTRED_SHARE`` of the width of its container from the container's vertical
  midline (a left-aligned block whose first line fills its panel is not centred: its last line
  is off the middle); the container is the
  smallest rectangle of the page around the occurrence (``rectangles.rectangles``) that is no
  badge hugging it (one within ``HUG`` line heights of it on both axes centres anything), else
  the page;

and ``ROLE`` (the rest) is a generic role (``generic_role.is_generic_role``: "section label",
"source line", "subtitle"; not a holder such as "callout" or "box", whose colour is a fill's),
satisfied, as without the adjectives, by the string read as whole lines. A question's own
``style '<colour>'`` part that repeats the phrase's colour ("Does panel (a) display the gray
source line ...") is read with it.

Yes-only, like every locator rule: a style that is not measured, or measured otherwise, leaves
the part to a VLM (withheld). The adjectives name which element is meant; they are not the claim
the editor should fix, so a mismatch never turns into "no". Boxes are ``(x0, y0, x1, y1)`` pixels.
"""

from __future__ import annotations

import re

from rewards.text.page.locator_base import _Ctx
from rewards.text.page.page_lines import Box, _Page, element_words, union_box
from rewards.text.page.rectangles import rectangles
from rewards.text.page.text_style import matches, measure
from rewards.text.questions.generic_role import HOLDER_HEADS, is_generic_role
from rewards.text.questions.question_style import _COLOUR_NAMES

CENTRED_SHARE = 0.025
"""How far (a share of the container's width) an occurrence's middle may lie from the container's
midline and still be centred: 25 px on a 1,000 px page, about one letter of body text; 7 px in a
290 px panel, where a left-aligned line that fills most of the panel (margins 15 and 31 px, 8 px
off the middle) is not called centred."""

HUG = 2.0
"""A rectangle whose width exceeds the occurrence's by at most ``2 * HUG`` line heights and whose
height by at most ``2 * HUG`` line heights hugs it (a badge, a pill): no container to be centred in."""

_BOLD = r"bold|bolded|boldface"
_COLOUR = r"(?:(?:dark|light|pale|bright)[- ])?(?:" + "|".join(sorted(_COLOUR_NAMES)) + r")"
_ADJ = rf"(?:{_BOLD}|centered|centred|{_COLOUR})"
STYLED = re.compile(rf"locator '(?:the |a |an )?(?P<adj>(?:{_ADJ},? )+)(?P<role>[a-z][a-z -]*)'")
"""A generic role with style adjectives ("the bold section label", "centered subtitle")."""

STYLE_PART = re.compile(rf"style '(?P<word>{_COLOUR}|{_BOLD})'")
"""The residue's own style part of a colour or weight word ("style 'gray'")."""


def _hue(word: str) -> str:
    """A colour word without its shade ("dark blue" -> "blue")."""
    return re.sub(r"^(?:dark|light|pale|bright)[- ]", "", word)


def _adjectives(part: str) -> tuple[str | None, str | None, bool] | None:
    """(weight, colour, centred) a ``STYLED`` part asks, or None when it is no such part or names
    two colours."""
    m = STYLED.fullmatch(part)
    if m is None:
        return None
    words = re.findall(_ADJ, m.group("adj"))
    colours = {_COLOUR_NAMES[_hue(w)] for w in words if re.fullmatch(_COLOUR, w)}
    if len(colours) > 1:
        return None
    weight = "bold" if any(re.fullmatch(_BOLD, w) for w in words) else None
    return weight, next(iter(colours), None), any(w in ("centered", "centred") for w in words)


def admits_styled(part: str, n_texts: int) -> bool:
    """True when ``part`` is a ``STYLED`` phrase whose role is generic and holds no fill
    (``HOLDER_HEADS``): the rule reads it before the page is seen."""
    m = STYLED.fullmatch(part)
    if m is None or _adjectives(part) is None:
        return False
    role = m.group("role").split()
    return role[-1] not in HOLDER_HEADS and is_generic_role(role, n_texts=n_texts)


def styled_parts(patterns: tuple[str, ...], parts: list[str]) -> list[str | None]:
    """The rule's parts among ``parts``: the first ``STYLED`` one and, when the rule has a second
    pattern, a ``style '<word>'`` part that repeats one of its adjectives (None when there is none)."""
    styled = next((p for p in parts if STYLED.fullmatch(p) and _adjectives(p) is not None), None)
    if len(patterns) == 1 or styled is None:
        return [styled]
    weight, colour, _ = _adjectives(styled)
    same = None
    for p in parts:
        m = STYLE_PART.fullmatch(p)
        w = m.group("word") if m else ""
        if m and ((weight and re.fullmatch(_BOLD, w)) or (colour and _COLOUR_NAMES.get(_hue(w)) == colour)):
            same = p
            break
    return [styled, same]


def _centred(page: _Page, box: Box, row: Box) -> bool:
    """True when the middle of ``row`` (one line of the occurrence ``box``) lies within
    ``CENTRED_SHARE`` of the width of ``box``'s container from the container's midline (module
    docstring)."""
    pad = 2 * HUG * (row[3] - row[1])
    cx = (row[0] + row[2]) / 2
    frames = [
        f
        for f in rectangles(page)
        if f[0] <= box[0]
        and f[1] <= box[1]
        and f[2] >= box[2]
        and f[3] >= box[3]
        and (f[2] - f[0] > box[2] - box[0] + pad or f[3] - f[1] > box[3] - box[1] + pad)
    ]
    frame = min(frames, key=lambda f: (f[2] - f[0]) * (f[3] - f[1]), default=(0, 0, *page.size))
    return abs(cx - (frame[0] + frame[2]) / 2) <= CENTRED_SHARE * (frame[2] - frame[0])


def _styled(ctx: _Ctx, m: list[re.Match]) -> bool:
    """Rule "an element named by how it looks" (module docstring): every required string has an
    occurrence read as whole lines with each asked style measured."""
    asked = _adjectives(m[0].group(0))
    rgb = ctx.page.rgb()
    if asked is None or rgb is None or not admits_styled(m[0].group(0), len(ctx.texts)):
        return False
    weight, colour, centred = asked
    page = ctx.page
    for occurrences in ctx.words:
        shown = False
        for words in occurrences:
            touched = {li for li, _ in words}
            if not words or any(set(element_words(page.lines, li)) - set(words) for li in touched):
                continue  # not whole lines: inside a longer element
            boxes = [page.lines[li].words[wi].box for li, wi in words]
            rows = [union_box([b for b, (lj, _) in zip(boxes, words) if lj == li]) for li in touched]
            if centred and not all(_centred(page, union_box(boxes), r) for r in rows):
                continue
            if weight or colour:
                style = measure(rgb, [(b, page.lines[li].words[wi].text) for b, (li, wi) in zip(boxes, words)])
                if matches(style, weight, colour) is not True:
                    continue
            shown = True
            break
        if not shown:
            return False
    return True
