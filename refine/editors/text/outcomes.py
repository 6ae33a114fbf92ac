"""What a job of the text editor did with one expected string: left it alone, or wrote it.

The jobs return these instead of a bare reason string or a (boxes, info) pair; ``TextEditor``
matches on the type, and ``audit`` turns each into its ``last_actions`` record.
"""

from __future__ import annotations

from dataclasses import dataclass

from rewards.text.ocr.text_match import Line, Match

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) pixels, end-exclusive."""


@dataclass(frozen=True)
class Skip:
    """Nothing was written.

    Attributes:
        reason: the action recorded, one line: "skip: ..." (left alone, saying why) or "fail: ..."
            (a bound was hit).
        box: the box of the text on the page the decision is about (a near match, the string
            itself where it was found), or None.
        was: the OCR text of that box ("" without one).
        no_room: the free-space search found no rectangle for the string or its group.
    """

    reason: str
    box: Box | None = None
    was: str = ""
    no_room: bool = False


@dataclass(frozen=True)
class Written:
    """Text was written into the image.

    Attributes:
        action: the action recorded ("replace", "place", "place (in its empty badge)", ...).
        box: the main box: the near match rewritten, or the union of the rows placed.
        boxes: every box changed (erased and inked), pixels.
        info: the type written (family, bold, italic, size px, align, lines, ...), recorded as
            the action's ``type``.
        lines: one OCR-like line per row written, for the strings placed after it.
        was: the OCR text replaced ("" for a placed string).
        words: (line index, word index) of the OCR words rewritten (none for a placed string).
        erased: ink boxes erased that no OCR word stands for (a row's old value OCR misread or
            did not read, replaced in its slot).
    """

    action: str
    box: Box
    boxes: list[Box]
    info: dict
    lines: tuple[Line, ...]
    was: str = ""
    words: tuple[tuple[int, int], ...] = ()
    erased: tuple[Box, ...] = ()


@dataclass(frozen=True)
class Rewrite:
    """A near match to rewrite in place, with the lines its word indices refer to (the page's
    OCR lines, plus the harder read's when it was needed to find it), and ``centre``: the x
    (pixels) the new text is centred on when the page fixes it (a value label over a vertical
    bar: matplotlib's ``ax.text(..., ha="center")`` at the bar's middle), else None; ``right``:
    the x (pixels) its ink ends at when the page keeps that end (a link of a right-aligned menu:
    ``place_nav_item.right_edge_of_link``), else None."""

    match: Match
    lines: list[Line]
    centre: float | None = None
    right: float | None = None
