"""Containers named by shape and colour, drawn for ``bizgen_render_check`` (issue 31): "inside the blue
circle", "the top dark blue rounded rectangle", "the left vertical blue phase box".

:func:`shape_page` draws the asked container (its shape, colour, size and orientation as
``rewards.text.page.shape_locators.parse_shape`` reads the phrase) with the question's block in it,
and a second container: with position words ("top", "left") another of the same kind beyond it the
other way (the page a person reads "the top one" on), else a decoy of another shape and colour.
The "moved" defect page swaps them: the asked container holds another label and the block stands
in the second one (in the lower box of "the top box", in a red square for "the blue circle"),
where a person says the string is not in the named container.
"""

from __future__ import annotations

from rewards.text.page.region_locators import parse_region
from rewards.text.page.shape_locators import is_shape, parse_shape

CSS = {
    "red": "#c62828", "orange": "#e67e22", "yellow": "#e3c21a", "green": "#1f8a4c", "blue": "#2563eb",
    "purple": "#7b3fa0", "pink": "#e58fb5", "brown": "#7a4a21", "white": "#ffffff", "gray": "#9aa0a6",
    "grey": "#9aa0a6", "black": "#111111", "navy": "#1b2a5e", "olive": "#6b7a1f", "beige": "#efe4c8",
    "cream": "#f3ead2", "teal": "#138a8a", "cyan": "#1aa6b7", "magenta": "#b0308f",
}  # fmt: skip
"""A CSS colour for each colour word; "dark" and "light" alone or with a hue are below."""

DARK = {"blue": "#1e3a8a", "green": "#14532d", "red": "#7f1d1d", "gray": "#374151", "grey": "#374151"}
LIGHT = {"blue": "#bcd3f5", "green": "#c6ecd2", "red": "#f6c4c4", "gray": "#dfe2e6", "grey": "#dfe2e6"}


def fill_of(colours: set[str]) -> str:
    """The CSS fill of a phrase's colour words (a mid blue-gray when it names none)."""
    hue = next((c for c in sorted(colours) if c in CSS and c not in ("dark", "light", "pale")), None)
    if "dark" in colours:
        return DARK.get(hue or "gray", CSS.get(hue or "", "#374151"))
    if "light" in colours or "pale" in colours:
        return LIGHT.get(hue or "gray", CSS.get(hue or "", "#dfe2e6"))
    return CSS.get(hue or "", "#4a6fa5")


def _form(asked: dict) -> str:
    """The one shape name every shape word of the phrase accepts, in order of preference."""
    common = set.intersection(*asked["shapes"])
    return next((s for s in ("circle", "pill", "rounded", "rect", "oval", "square") if s in common), "rounded")


def _size(form: str, asked: dict, chars: int) -> tuple[int, int]:
    """(width, height) px of a container of ``form`` for a block of ``chars`` characters."""
    small = asked["small"]
    if form in ("circle", "square"):
        d = max(56 if small else 110, min(320, (10 if small else 13) * chars + 40))
        return d, d
    if asked["orient"] == "vertical":
        return 140, 320
    return min(440, max(120 if small else 180, (10 if small else 13) * chars + 60)), 48 if small else 96


def _at(x: float, y: float, inner: str) -> str:
    """``inner`` centred at (x, y) px of the page."""
    return f'<div style="position:absolute;left:{x:.0f}px;top:{y:.0f}px;transform:translate(-50%,-50%)">{inner}</div>'


def _box(form: str, fill: str, asked: dict, inner: str, chars: int) -> str:
    """One container of ``form`` with ``inner`` centred in it; form "none": the bare text on the page."""
    w, h = _size(form, asked, chars)
    if form == "none":
        fill = "#ffffff"
    radius = {"circle": "50%", "oval": "50%", "pill": f"{h // 2}px", "rounded": "18px"}.get(form, "0")
    dark = sum(int(fill[i : i + 2], 16) for i in (1, 3, 5)) < 400
    css = (
        f"width:{w}px;height:{h}px;"
        f"background:{fill};border-radius:{radius};display:flex;align-items:center;justify-content:center;"
        f"text-align:center;color:{'#fff' if dark else '#111'};font-size:{16 if asked['small'] else 20}px;"
        "padding:6px;box-sizing:border-box"
    )
    return f'<div style="{css}"><div>{inner}</div></div>'


def _decoy(asked: dict, fill: str) -> tuple[str, str]:
    """A container no shape or colour word of the phrase accepts (form, fill): a rectangle or a
    circle, red or green; "none" (the bare page) when every shape is accepted (a badge)."""
    accepted = set.union(*asked["shapes"])
    form = next((f for f in ("rect", "circle") if f not in accepted), None)
    if form is None and not asked["colours"]:
        return "none", "#ffffff"
    return form or "rect", "#2e7d32" if "red" in asked["colours"] else "#b23a3a"


def shape_page(
    parts: tuple[str, ...], block: str, texts: tuple[str, ...], area, size, moved: bool, wrap=lambda b: b
) -> str | None:
    """The containers of the question's shape part (module docstring) in ``area`` (x0, y0, x1, y1
    fractions of the page ``size``), or None when no part names a shape; ``wrap`` places the
    question's anchors around the asked container (``bizgen_render_check._anchored``)."""
    part = next((p for p in parts if is_shape(p)), None)
    if part is None:
        return None
    asked = parse_shape(part[len("locator '") : -1])
    form, fill = _form(asked), fill_of(asked["colours"])
    (w, h), chars = size, max(len(t) for t in texts)
    cx, cy = (area[0] + area[2]) / 2 * w, (area[1] + area[3]) / 2 * h
    bounds = parse_region(" ".join(asked["positions"])) if asked["positions"] else None
    for axis, k in (("x", w), ("y", h)):
        if bounds and axis in bounds:
            c = (bounds[axis][0] + bounds[axis][1]) / 2 * k
            cx, cy = (c, cy) if axis == "x" else (cx, c)
    bw, bh = _size(form, asked, chars)
    cx, cy = min(max(cx, bw / 2 + 20), w - bw / 2 - 20), min(max(cy, bh / 2 + 20), h - bh / 2 - 20)  # on the page
    words = set(asked["positions"])
    dx = bw + 40 if "left" in words else -(bw + 40) if "right" in words else 0
    dy = bh + 30 if words & {"top", "upper"} else -(bh + 30) if words & {"bottom", "lower"} else 0
    other, other_fill = form, fill
    if dx == dy == 0:  # a decoy of another shape or colour, above or below it
        other, other_fill = _decoy(asked, fill)
        dy = max(bh, _size(other, asked, chars)[1]) + 40
        dy = dy if cy + dy < h - 40 else -dy
    label = '<div style="font-size:18px">Other label</div>'
    mine, theirs = (label, block) if moved else (block, label)
    near = f'<div style="display:inline-block">{_box(form, fill, asked, mine, chars)}</div>'
    return _at(cx, cy, wrap(near)) + _at(cx + dx, cy + dy, _box(other, other_fill, asked, theirs, chars))
