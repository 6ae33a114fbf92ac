"""A drawn picture with the asked strings beside it, drawn for ``bizgen_render_check`` (issue 31): "the
caption directly below the RGB inset", "the heading to the left of the stretching person
illustration" (``rewards.text.page.picture_locators``).

:func:`picture_page` draws an illustration (an inline SVG: a sky-blue panel with a sun, a green
hill and a dark tree, 160 x 120 px) in the question's place on the page, and the strings' block on
the side the picture part names, 14 px from it. The "moved" defect page puts the block on the
opposite side of the picture (above it for "below the illustration", left of it for "to the right
of"), where a person says the strings are not on that side.
"""

from __future__ import annotations

from rewards.text.page.object_locators import admits_object
from rewards.text.page.picture_locators import PICTURE_SIDE, SIDES, is_picture

PICTURE = (
    '<svg width="160" height="120" viewBox="0 0 160 120" style="display:block">'
    '<rect width="160" height="120" rx="10" fill="#cfe8fb"/>'
    '<circle cx="122" cy="34" r="18" fill="#f4c430"/>'
    '<path d="M0 120 Q50 50 100 95 T160 80 V120 Z" fill="#4caf50"/>'
    '<rect x="38" y="62" width="8" height="30" fill="#5d4037"/>'
    '<circle cx="42" cy="56" r="17" fill="#2e7d32"/></svg>'
)
"""The illustration: a landscape of four colours, no text."""

OPPOSITE = {"below": "above", "above": "below", "right": "left", "left": "right"}


def picture_page(parts: tuple[str, ...], block: str, moved: bool, size=(1000, 700), area=None) -> str | None:
    """The picture and the strings' ``block`` (HTML) on the side the question's picture part names
    (module docstring), centred in ``area`` (x0, y0, x1, y1 fractions of the page ``size``; None:
    the middle of the page under its title), or None when no part names a side of a picture."""
    part = next((p for p in parts if PICTURE_SIDE.fullmatch(p)), None)
    if part is None:
        return None
    side = SIDES[PICTURE_SIDE.fullmatch(part).group("side")]
    side = OPPOSITE[side] if moved else side
    width, height = size
    x0, y0, x1, y1 = area if area is not None else (0.1, 0.2, 0.9, 0.9)
    direction = {"below": "column", "above": "column-reverse", "right": "row", "left": "row-reverse"}[side]
    text = f'<div style="max-width:{(x1 - x0) * width * (0.9 if side in ("below", "above") else 0.5):.0f}px">'
    flex = f"display:flex;flex-direction:{direction};align-items:center;gap:14px"
    group = f'<div style="{flex}">{PICTURE}{text}{block}</div></div>'
    box = f"left:{x0 * width:.0f}px;top:{y0 * height:.0f}px;width:{(x1 - x0) * width:.0f}px"
    box += f";height:{(y1 - y0) * height:.0f}px"
    return f'<div style="position:absolute;{box};display:flex;align-items:center;justify-content:center">{group}</div>'


def object_part(part: str) -> bool:
    """True for an object named by its ordinal (``bizgen_object_pages``) or a picture named by its
    side (this module): the parts whose "moved" page puts the strings by another object or side."""
    return admits_object(part, 1) or is_picture(part)
