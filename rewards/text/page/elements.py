"""The elements of a page a question may be about, found from OCR lines and pixels.

``find_elements(element, lines, image, size)`` returns the elements of the page that fill the
role of an :class:`rewards.text.questions.question_compiler.ElementSpec` ("the title", "the second KPI
card", "the y-axis label", ...), or None when code cannot tell which they are (the role is not
found on this page, or it needs the image and there is none). A decision must then leave the
element part unknown: never "yes" for a string found somewhere else.

Each finder (``rewards.text.page.finders``) uses one rule, written in its docstring. Shared measures:

- **type size** (``type_size``): a line's em in pixels, its words' box height divided by the
  share of the em their characters span (``rewards.text.page.text_style.em_fraction``), the median
  over its words; for a rotated line the box's width is its height; for a line inside a badge
  (OCR gives it the badge's box) the height of its ink (``_page_sizes``).
- **block**: consecutive lines of one column (``rewards.text.ocr.text_match.next_lines``) of about the
  same type size (``SAME_SIZE``): a title or a paragraph that wraps.
- **element words**: a line's words without the marks OCR reads in a bullet or swatch at its
  ends (a word with no letter or digit, or a lone bullet letter: "e", "o").
- **rectangles** (``enclosing_box``): a border or the edge of a filled panel found on all four
  sides of a line: the cards, tiles, buttons and bands of a page.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image; a line's words are ``(line index,
word index)`` pairs into ``lines``, as in ``rewards.text.ocr.text_match.Match.words``.
"""

from __future__ import annotations

from dataclasses import replace

from PIL import Image

from rewards.text.ocr.text_match import Line, contains
from rewards.text.page.finders import FINDERS
from rewards.text.page.page_lines import Box, Element, _inside, _ordered, _Page, _pick
from rewards.text.page.rectangles import _lines_in, rectangles
from rewards.text.questions.question_compiler import ElementSpec

NEEDS_IMAGE = frozenset({"card", "legend_entry", "button"})
"""Roles found from pixels: without the image they cannot be found."""

_BY_ORDINAL_INSIDE = frozenset({"bullet", "list_item", "card", "legend_entry", "button"})
"""Finders that apply ``ElementSpec.ordinal`` themselves (among their list, kind or row)."""


def _containers(page: _Page, container: str) -> list[Box]:
    """The rectangles (``rectangles``) whose text contains ``container`` (case-insensitive)."""
    out = []
    for r in rectangles(page):
        text = " ".join(page.lines[i].text for i in sorted(_lines_in(page, r), key=lambda j: page.lines[j].box[1]))
        if contains(text, container, case_sensitive=False):
            out.append(r)
    return out


ROLE_NAMES = {
    "title": "title",
    "subtitle": "subtitle",
    "heading": "heading",
    "bullet": "bullet",
    "list_item": "list item",
    "card": "card",
    "legend_entry": "legend entry",
    "axis_title": "axis title",
    "table_cell": "table cell",
    "footer": "footer",
    "button": "button",
    "whole": "element",
}
"""Each role in words, for verdict reasons."""


def _nth(ordinal: int) -> str:
    if ordinal == -1:
        return "last"
    suffix = "th" if 10 <= ordinal % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(ordinal % 10, "th")
    return f"{ordinal}{suffix}"


def describe_element(element: ElementSpec) -> str:
    """``element`` in words, for verdict reasons: "the title", "the 2nd card in 'NPS'", "the
    y-axis title", "the table cell in row 'Solar', column '2024'"."""
    name = ROLE_NAMES.get(element.role, element.role)
    if element.axis:
        name = f"{element.axis}-{name}"
    words = ["the"] + ([_nth(element.ordinal)] if element.ordinal is not None else []) + [name]
    if element.row is not None:
        words.append(f"in row {element.row!r}" + (f", column {element.column!r}" if element.column else ""))
    elif element.column is not None:
        words.append(f"in column {element.column!r}")
    if element.container:
        words.append(f"in {element.container!r}")
    return " ".join(words)


def find_elements(
    element: ElementSpec, lines: list[Line], image: Image.Image | None, size: tuple[int, int]
) -> list[Element] | None:
    """The elements of the page that fill ``element``'s role, or None when code cannot tell.

    The role's finder (``FINDERS``, each documented with its rule) proposes candidates; the
    ``ordinal``-th is kept (1-based, -1 the last; among a finder's list, kind or row, else in
    reading order); with a ``container``, only candidates inside a rectangle whose text contains
    it ("the NPS card").

    Args:
        element: the spec (``rewards.text.questions.question_compiler.ElementSpec``).
        lines: OCR lines of the image (rotated ones carry ``Line.angle``).
        image: the judged image, for the roles found from pixels (``NEEDS_IMAGE``) and the
            container; None: those give None.
        size: (width, height) of the image in pixels.

    Returns:
        The candidate elements (at least one), or None: the role needs the image and there is
        none, no element of the role is on the page, there are fewer than ``ordinal``, or the
        container is not found.

    Raises:
        ValueError: ``element.role`` is not a known role.
    """
    if element.role not in FINDERS:
        raise ValueError(f"unknown element role {element.role!r}; expected one of {', '.join(FINDERS)}")
    if image is None and (element.role in NEEDS_IMAGE or element.container):
        return None
    page = _Page.of(lines, image, size)
    key = ("found", replace(element, phrase=""))  # once per page: the judge asks each check, the editor each edit
    if key not in page.memo:
        page.memo[key] = FINDERS[element.role](page, element)
    found = list(page.memo[key])
    if element.ordinal is not None and element.role not in _BY_ORDINAL_INSIDE:
        found = _pick([found[k] for k in _ordered([e.box for e in found])], element.ordinal)
    if element.container:
        frames = _containers(page, element.container)
        found = [e for e in found if any(_inside(e.box, f) for f in frames)]
    return found or None
