"""A row of drawn objects with captions, drawn for ``bizgen_render_check`` (issue 31): "the three-line
caption beneath the eighth bottle from the left" (``rewards.text.page.object_locators``).

:func:`object_page` draws a row of bottle-like objects across the page (at least the ordinal plus
one, so the asked one is never the last unless the phrase says "rightmost"; more when the
question's place needs them: the asked caption stands in that place, "the second bottle from the
left in the bottom-left area"), each with a caption under it: the asked one holds the question's
strings, one line each; the others one filler line ("Model 3"). The "moved" defect
page puts the strings under the next object (the one before when the asked one is the last) and
a filler caption under the asked one, where a person says the strings are not beneath that object.
"""

from __future__ import annotations

import html

from rewards.text.page.object_locators import OBJECT, parse_object

FILLS = ["#2e7d32", "#1565c0", "#8d6e63", "#c62828", "#6a1b9a", "#00838f"]
"""The objects' fills, in turn."""


def _bottle(fill: str) -> str:
    """One bottle-like object: a neck over a rounded body."""
    neck = f'<div style="width:12px;height:28px;background:{fill};margin:0 auto"></div>'
    body = f'<div style="width:40px;height:96px;background:{fill};border-radius:10px;margin:0 auto"></div>'
    return neck + body


def _caption(lines: list[str], size: int, wrap: bool = False) -> str:
    """A caption of ``lines``, one line each (unwrapped: a long line runs over its neighbours'
    columns, under their one-line captions; ``wrap``: wrapped, at an end of the row), centred."""
    css = f"font-size:{size}px;line-height:1.35" + ("" if wrap else ";white-space:nowrap")
    return "".join(f'<div style="{css}">{html.escape(t)}</div>' for t in lines)


MOST = 14
"""The most objects a row is drawn with."""
MARGIN = 20
"""The page's left and right margin, px."""


def _count(n: int, from_right: bool, last: bool, area, width: int) -> int:
    """How many objects: the fewest (from the ordinal plus one, or the ordinal for "rightmost") that
    put the asked one's middle inside ``area`` (x0, x1 fractions of the page ``width``, 0.04 in from
    each edge; None: anywhere)."""
    for count in range(n if last else n + 1, (n if last else MOST) + 1):
        asked = count - n if from_right else n - 1
        x = (MARGIN + (asked + 0.5) * ((width - 2 * MARGIN) // count)) / width
        if area is None or area[0] + 0.04 <= x <= area[2] - 0.04:
            return count
    return n if last else n + 1


def object_page(parts: tuple[str, ...], texts: tuple[str, ...], moved: bool, size=(1000, 700), area=None) -> str | None:
    """The row of objects of the question's object part (module docstring) on a page of ``size``
    px, the asked caption in ``area`` (x0, y0, x1, y1 fractions; None: anywhere), or None when no
    part names an object by its ordinal."""
    part = next((p for p in parts if OBJECT.fullmatch(p) and parse_object(p) is not None), None)
    if part is None:
        return None
    (width, height), (n, from_right, last) = size, parse_object(part)
    count = _count(n, from_right, last, area, width)
    asked = count - n if from_right else n - 1
    where = asked if not moved else (asked + 1 if asked + 1 < count else asked - 1)
    column = (width - 2 * MARGIN) // count
    size = 15 if column >= 150 else 13
    cells = []
    for k in range(count):
        lines = list(texts) if k == where else [f"Model {k + 1}"]
        room = 2 * (min(k, count - 1 - k) + 0.5) * column  # a caption at an end wraps within the page
        caption = (
            f'<div style="max-width:{room:.0f}px">{_caption(lines, size, True)}</div>'
            if room < 300
            else f"<div>{_caption(lines, size)}</div>"
        )
        cells.append(
            f'<div style="width:{column}px;text-align:center">{_bottle(FILLS[k % len(FILLS)])}'
            f'<div style="margin-top:10px;display:flex;justify-content:center">{caption}</div></div>'
        )
    caption_top = max(160, area[1] * height + 12) if area is not None else 330
    top = min(caption_top, height - 150) - 134  # the bottle (124 px) and the caption's margin above it
    return f'<div style="position:absolute;left:{MARGIN}px;top:{top:.0f}px;display:flex">{"".join(cells)}</div>'
