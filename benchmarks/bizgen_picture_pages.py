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


PLACE = {
    "below": "bottom:calc(100% + 14px);left:50%;transform:translateX(-50%)",
    "above": "top:calc(100% + 14px);left:50%;transform:translateX(-50%)",
    "right": "right:calc(100% + 14px);top:50%;transform:translateY(-50%)",
    "left": "left:calc(100% + 14px);top:50%;transform:translateY(-50%)",
}
"""Where the picture stands from the strings' block, per side the strings are on (CSS)."""


def picture_page(parts: tuple[str, ...], block: str, moved: bool, size=(1000, 700), area=None) -> str | None:
    """The strings' ``block`` (HTML) centred in ``area`` (x0, y0, x1, y1 fractions of the page
    ``size``, its top kept 0.1 under the title and its sides 0.2 in from a picture beside it; None:
    the middle of the page) and the picture on the side the question's picture part names (module
    docstring), or None when no part names a side of a picture."""
    part = next((p for p in parts if PICTURE_SIDE.fullmatch(p)), None)
    if part is None:
        return None
    side = SIDES[PICTURE_SIDE.fullmatch(part).group("side")]
    side = OPPOSITE[side] if moved else side
    width, height = size
    x0, y0, x1, y1 = area if area is not None else (0.2, 0.25, 0.8, 0.85)
    y0, y1 = max(y0, 0.1 + (0.2 if side == "below" else 0.0)), min(y1, 1.0 - (0.2 if side == "above" else 0.0))
    x0, x1 = max(x0, 0.2 if side == "right" else 0.0), min(x1, 0.8 if side == "left" else 1.0)
    if y1 <= y0 or x1 <= x0:  # no room on that side in the area: the middle of the page
        x0, y0, x1, y1 = 0.2, 0.3, 0.8, 0.7
    box = f"left:{x0 * width:.0f}px;top:{y0 * height:.0f}px;width:{(x1 - x0) * width:.0f}px"
    box += f";height:{(y1 - y0) * height:.0f}px"
    wide = (x1 - x0) * width - 20
    group = (
        f'<div style="position:relative;width:max-content;max-width:{wide:.0f}px">'
        f'<div style="position:absolute;{PLACE[side]}">{PICTURE}</div>{block}</div>'
    )
    return f'<div style="position:absolute;{box};display:flex;align-items:center;justify-content:center">{group}</div>'


def object_part(part: str) -> bool:
    """True for an object named by its ordinal (``bizgen_object_pages``) or a picture named by its
    side (this module): the parts whose "moved" page puts the strings by another object or side."""
    return admits_object(part, 1) or is_picture(part)
