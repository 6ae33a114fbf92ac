"""What one edit of the text editor works with: its rules, and the page with its writes so far.

``Rules`` holds the editor's settings the jobs need (read-only). ``EditState`` is the one
mutable object of an edit, passed to every job that reads the page or writes on it: the image,
its OCR lines, the masks of where nothing may be placed, and what the strings written so far
changed (the words they took, their rows, their boxes). Jobs read it; only ``EditState.add`` and
the lazy readers here change it, besides the pixels the jobs draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from refine.editors.text.look_harder import candidate_regions, page_background, read_regions
from refine.editors.text.outcomes import Written
from refine.editors.text.page import BodyType, body_type, max_text_height
from refine.editors.text.placement import busy_mask
from refine.editors.text.type_match import Face
from refine.editors.text.wrapped_block import block_matches
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, find_matches, normalize, union_box
from rewards.text.page.elements import find_elements


@dataclass(frozen=True)
class Rules:
    """The settings of ``TextEditor`` its jobs use (see its arguments of the same names).

    Attributes:
        faces: candidate faces for type matching (one, a given font file, or the installed ones).
        min_similarity: least similarity (rapidfuzz OSA, [0, 1]) of a near match rewritten in place.
        case_sensitive, lenient, max_lines: matching rules (``rewards.text.ocr.text_match``).
        max_layout_trials: most layouts tried per string.
        lang: tesseract language(s) of the harder read.
        look_harder: read coloured regions and unread marks again before placing a string.
        free_space: write a missing string that no slot takes in a free rectangle of its check's
            place (off: a missing string goes only into a slot).
    """

    faces: list[Face]
    min_similarity: float
    case_sensitive: bool
    lenient: bool
    max_lines: int
    max_layout_trials: int
    lang: str
    look_harder: bool
    free_space: bool = False

    def matches(self, exp: TextExpectation, lines: list[Line], w: int, h: int, max_lines: int | None = None):
        """``find_matches`` of ``exp`` in ``lines`` of a w x h page, in its region, by these
        rules (``max_lines`` overrides the lines a match may span); best first. A near match over
        lines that are no wrapped block (a tick label over an axis title) is not one
        (``wrapped_block.block_matches``)."""
        found = find_matches(
            exp.text, lines, w, h, exp.region, self.case_sensitive, self.lenient, max_lines or self.max_lines
        )
        return block_matches(found, lines)

    def found_line(self, text: str, lines: list[Line], w: int, h: int, last: bool):
        """(box, OCR text, words) of the last (``last``) or first line of an exact occurrence of
        ``text`` in ``lines`` (any place), or None."""
        ms = find_matches(text, lines, w, h, None, self.case_sensitive, self.lenient, self.max_lines)
        if not ms or not ms[0].found:
            return None
        li = ms[0].words[-1][0] if last else ms[0].words[0][0]
        wds = [lines[li].words[wi] for l2, wi in ms[0].words if l2 == li]
        return union_box(wd.box for wd in wds), " ".join(wd.text for wd in wds), wds


@dataclass
class EditState:
    """The page of one edit and what the strings written so far changed on it.

    Attributes:
        arr: uint8 (H, W, 3) the image being edited, drawn on in place.
        lines: the page's OCR lines as handed in (word indices in ``protected`` refer to them).
        busy: bool (H, W) where something is drawn (``placement.busy_mask``), plus every box
            written (grown by 2 px).
        fills: bool (H, W) pixels more than 40 per channel off the page background (bands,
            badges, pictures: nothing is placed on them), plus every box written.
        protected: (line index, word index) of words never rewritten: those of exact matches,
            and those already rewritten.
        last_written: normalized text -> main box of every string this edit (and the previous
            one, when handed its output) wrote; the editor keeps it for its next edit.
        written: the expected strings written so far, in order.
        unplaced: expectations whose place had no room.
        held: expectation -> text of its group's first string, which had no room.
        placed_lines: one line per row written, the neighbours of the strings placed after it.
        extra: the harder read's lines (``look_harder``), read at first need; None before.
        body: the page's body type, measured at first need; None before.
        elements: element spec -> boxes of the page's elements of that role, or None when code
            cannot find them (``element_boxes``), found at first need.
        start: the image as handed in, before this edit's writes (None: ``arr`` is read instead):
            the type of a missing string measured on its neighbours must not read a neighbour
            this edit rewrote in PIL's rendering (``place_axis_title``).
        inherited: main boxes of the strings the previous edit wrote (handed its output), on
            ``start`` in the editor's rendering, not the engine's.
    """

    arr: np.ndarray
    lines: list[Line]
    busy: np.ndarray
    fills: np.ndarray
    protected: set[tuple[int, int]]
    last_written: dict[str, tuple[int, int, int, int]]
    written: list[str] = field(default_factory=list)
    unplaced: list[TextExpectation] = field(default_factory=list)
    held: dict[TextExpectation, str] = field(default_factory=dict)
    placed_lines: list[Line] = field(default_factory=list)
    extra: list[Line] | None = None
    body: BodyType | None = None
    elements: dict = field(default_factory=dict)
    start: np.ndarray | None = None
    inherited: tuple[tuple[int, int, int, int], ...] = ()

    @classmethod
    def read(
        cls, arr: np.ndarray, lines: list[Line], matches: dict[TextExpectation, list[Match]], last_written: dict
    ) -> EditState:
        """The state before any write: masks of ``arr`` and its ``lines``; the words of every exact
        match among ``matches`` (each expectation's, best first) protected."""
        protected = {wd for ms in matches.values() for m in ms if m.similarity == 1.0 for wd in m.words}
        busy = busy_mask(arr, lines)
        fills = np.abs(arr.astype(np.int16) - page_background(arr)[None, None]).max(2) > 40
        inherited = tuple(tuple(int(v) for v in b) for b in last_written.values())
        return cls(arr, lines, busy, fills, protected, last_written, start=arr.copy(), inherited=inherited)

    @property
    def w(self) -> int:
        """Page width, pixels."""
        return self.arr.shape[1]

    @property
    def h(self) -> int:
        """Page height, pixels."""
        return self.arr.shape[0]

    def harder_lines(self, lang: str) -> list[Line]:
        """The lines of the harder read of the page as it is now (read once per edit)."""
        if self.extra is None:
            regions = candidate_regions(self.arr, self.lines, max_text_height(self.lines, self.h))
            self.extra = read_regions(Image.fromarray(self.arr), regions, lang)
        return self.extra

    def body_type(self, faces: list[Face]) -> BodyType:
        """The page's body type as it is now (measured once per edit)."""
        if self.body is None:
            self.body = body_type(self.arr, self.lines, faces)
        return self.body

    def element_boxes(self, element) -> list[tuple[int, int, int, int]] | None:
        """Boxes of the page's elements of ``element`` (a ``rewards.text.questions.question_compiler.ElementSpec``)
        as the page was handed in, from ``rewards.text.page.elements.find_elements`` (the card, button or
        band an element lies in, else its text's box); None when the check names no element or only
        "whole" (any line of its own) or code cannot find its elements on this page (then the check's
        place alone locates a near match)."""
        if element is None or element.role == "whole":
            return None  # "the label", "the text": any line of its own, which locates nothing
        if element not in self.elements:
            found = find_elements(element, self.lines, Image.fromarray(self.arr), (self.w, self.h))
            # an element inside a card, button or band is located by its frame (a number in its card)
            boxes = [e.frame or e.box for e in found or ()]
            self.elements[element] = [tuple(int(v) for v in b) for b in boxes] or None
        return self.elements[element]

    def add(self, exp: TextExpectation, written: Written, case_sensitive: bool) -> None:
        """Book ``written`` (``exp``'s string): its rows become neighbours, its words are not
        rewritten again, its main box is remembered, and its boxes (grown by 2 px) become busy."""
        self.placed_lines.extend(written.lines)
        self.protected.update(written.words)
        self.last_written[normalize(exp.text, case_sensitive)] = tuple(int(v) for v in written.box)
        self.written.append(exp.text)
        for b in written.boxes:
            self.busy[max(0, b[1] - 2) : b[3] + 2, max(0, b[0] - 2) : b[2] + 2] = True
            self.fills[max(0, b[1] - 2) : b[3] + 2, max(0, b[0] - 2) : b[2] + 2] = True
