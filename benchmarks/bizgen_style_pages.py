"""The look ``bizgen_render_check`` gives the strings of a question whose element is named by how it
looks (``rewards.text.page.styled_locators``: "the bold section label", "the gray source line", "the
centered subtitle"), and the look of its "restyled" defect page: the right strings, but regular
where bold was asked, black (or blue, when black was asked) where a colour was, and off the middle
of their container where centred was. On that page no element looks as named: the judge must not
say "yes" (it should withhold: the look names the element, it is no claim the editor fixes).
"""

from __future__ import annotations

from dataclasses import replace

from rewards.text.page.styled_locators import STYLE_PART, _adjectives, admits_styled
from rewards.text.questions.question_compiler import TextSpec


def is_styled(part: str) -> bool:
    """True for a part this renderer styles: a ``STYLED`` phrase the rule reads, or its own
    ``style '<word>'`` part ("style 'gray'")."""
    return admits_styled(part, 1) or STYLE_PART.fullmatch(part) is not None


def looks(parts: tuple[str, ...]) -> tuple[str | None, str | None, bool] | None:
    """(weight, colour, centred) the question's ``STYLED`` part asks, or None when it has none."""
    return next((_adjectives(p) for p in parts if admits_styled(p, 1)), None)


def styled(
    spec: TextSpec, parts: tuple[str, ...], restyled: bool = False, boxed: bool = False
) -> tuple[TextSpec, str, str]:
    """(the spec to draw the strings with, the CSS of the wrapper around the block, its closing tag):
    the asked weight and colour set on the spec (``restyled``: the opposite ones), and the block
    centred in its container (``restyled``: at its left; in a panel, ``boxed``, in smaller type so
    that it does not fill the panel's width; elsewhere widened on its right)."""
    asked = looks(parts)
    if asked is None:
        return spec, "", ""
    weight, colour, centred = asked
    if restyled:
        weight = "regular" if weight else None
        colour = ("blue" if colour == "black" else "black") if colour else None
    spec = replace(spec, weight=weight or spec.weight, colour=colour or spec.colour)
    if not centred:
        return spec, "", ""
    if not restyled:
        return spec, '<div style="text-align:center">', "</div>"
    if boxed:  # the strings' own type size is set on their element: override it
        return (
            spec,
            "<style>.off div{font-size:14px!important}</style>"
            '<div class="off" style="text-align:left;padding-right:90px">',
            "</div>",
        )
    return spec, '<div style="text-align:left;padding-right:240px">', "</div>"
