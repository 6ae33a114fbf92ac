"""The offline text editor: rewrites wrong text in its own type, or adds missing text into a slot.

For every failed check with text expectations, each expected string that OCR does not find is
handled in one of these ways (``last_actions`` records which, with the pixels it changed):

1. **Rewrite** (``replace``). A fix replaces; it never adds a copy beside the wrong version. The
   best near match among the OCR lines (rapidfuzz alignment over lines and windows of
   consecutive lines, snapped to whole words; ``similarity >= min_similarity``, or the string
   with words missing, two words swapped, or one word a digit off, on a line of its own) is
   erased from its background (``erase``: a plane fitted to the surrounding pixels, so gradients
   and coloured fills are restored, only the old glyph pixels are replaced) and the expected
   string is typeset in the original's type (``type_match``: face, weight, slant and size that
   best reproduce the OCR-read string's pixels), colour, baseline and alignment (left, centre or
   right, from the block's lines or the fill the line sits in). A match over several lines is
   retypeset as one block: one size, the original line pitch, wrapped within the block's width.
   Layouts that would run into other text or graphics are tried narrower/smaller first (at most
   9% smaller). The new text is registered to the old to the pixel (the OCR-read text, laid out
   the same way, is shifted by up to 2 px to fit the pixels best), so the unchanged words land
   exactly where they were (``rewrite``). A version whose numbers differ ("18,540" for
   "18,450", "July 21-14" for "July 12-14, 2025", "Segment 1" for "Segment 8") is rewritten only
   where the editor can tell it is the wrong version: in the check's place, in the element the
   check names (``check.spec.text.element``, found by ``rewards.text.page.elements``), beside one of
   the check's other strings, or as the page's only version (``near_match``). A bullet mark OCR
   reads as a word ("e", "o", "•") is not text: no rewrite takes or erases it (``bullets``).
2. **Look harder, then leave alone** (``skip: already on the page (judge missed it)``). With no
   near match, coloured regions and unread marks are read again (``look_harder``); a string
   found there, or a near match a judge accepts (same up to the look-alikes O/0, l/1/I, S/5, B/8,
   and case when the judge ignores case), is not written again (``near_match``). A version the
   editor cannot place (two cards both a digit off) stops the string too: ``skip: '18,540' may
   be the wrong version of '18,450'; not writing a second copy``.
3. **Place, only into a slot** (``place (...)``). A string that is really missing is written only
   where its check names a place the editor can honour and the page offers a slot for it: an
   empty badge of its place that its text fits (``place (in its empty badge)``: centred, in the
   type of the page's other badges); the slot next to a string of the same check that is on the
   page (``place (next to '...')``: the next item of a list or menu, under the string before it
   or after it on its row, the next cell of a table row, in that string's type and at the
   check's own pitch; a heading under its number badge in the page's body type); the empty cell
   of a table's row and column, or the next item of the one list one item short, that the
   check's element names (``place (in its cell: ...)``, ``place (item N of its list)``:
   ``place_in_element``); the line directly under or over its anchor (``place (directly below
   '...')``). Anything else is skipped with the reason (``skip: missing, and the page offers no
   slot for it ...; not written loose``): no loose text in title bands, headers or margins.
   With ``free_space=True`` (the editor before issue 17) such a string goes in the page's body
   type (face voted by the page's longest lines, weight and size of its body lines) in a free
   rectangle of the check's place (its region, or the side of its anchor its relation names),
   left-aligned to a column edge, on the baseline of a line already there or topmost, with a
   margin of about one line (``placement``), with room for its whole group when none of the
   group is on the page; a footnote or footer whose check names no place goes in the bottom
   half (``place``). A string is not written (``skip: ...``, saying why) when the slot next to
   its check's strings is taken (a loose line would break the group, or its order: a heading far
   from its number, a fourth menu item under another label), when its group's first string had
   no room, when it is part of a longer missing string that was not written ("380" of a missing
   paragraph), or when the same string has a narrower place in another check that had no room.

Charts and rotated text (issue 32): a bar's value label ("the value label at the end of the
"Juice" bar") is fixed at its bar's end (``place_at_bar``: the number there rewritten, or the
missing one written there in the chart's face; a grouped bar's, "above the "2024" bar in the
"Wind" group", over the bar of its series' legend swatch colour); a near match read rotated (a y-axis title) is
rewritten rotated at its angle (``rewrite_rotated``); an x-axis tick label the check names by its
place ("the sixth x-axis tick label from the left") is rewritten there when OCR reads a version
of it one edit away (``tick_label``); a missing source line or footer goes at the
page's foot (``place_at_foot``); a missing legend entry goes after the last entry of a one-row
legend with a swatch in its series' colour (``place_legend_entry``); a menu's missing price goes
on its item's row, flush with the prices around it (``place_in_row_column``); a string read only
in a sibling card is copied into the card its check names at the same offset
(``place_in_sibling_card``); a navigation menu's missing first link (a right-aligned menu) or
last link goes one gap from its neighbour (``place_nav_item``); an item the engine left out of a
list, a menu or a pie's column legend, closing the gap behind it, is inserted at its place with the
items after it moved back one step (``insert_list_item``, ``insert_nav_item``,
``insert_legend_entry``: the edit is withheld when the container has no room); a slice's value is never written
after the slice's name; a near
match that differs only in a mark OCR drops or misreads ("©", a middle dot) is left alone
(``skip: already on the page (judge missed it: ...)``), never retyped.

Strings written by the previous edit are not written again when the loop hands its image back
(the judge's OCR may not read small light text on a badge): ``skip: already on the page
(written by the previous edit ...)`` (``audit``).

Bounds: an expected string over ``max_chars`` characters, or a string whose layouts exceed
``max_layout_trials``, is not edited and gets a one-line ``fail: ...`` action; so does every
string after the first ``max_strings`` of one edit (``fail: over max_strings=200 strings in one
edit ...``, and one warning logged per edit): a check quoting 3000 strings kept the editor on one
item for minutes, since ordering and placing compare every string with every other.

Never touched: strings that already match, words of a found expectation, and words whose text
contains the expected string inside a longer one ("Female" is not rewritten to "Male").
Text and background colours come from two-means clustering of the box's luminance (the cluster
closest to the surrounding ring is background): min/max was blanking light-on-dark titles.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import Image

from documents.fonts import Face
from refine.editors.text.audit import already_written, digest, skip_record, written_record
from refine.editors.text.bullets import without_bullets
from refine.editors.text.cards import off_card
from refine.editors.text.dropped_space import space_drawn
from refine.editors.text.faces import editor_faces
from refine.editors.text.grid_cell import cell_target
from refine.editors.text.judged_element import (
    judged_boxes,
    judged_elements,
    judged_matches,
    judged_over,
    not_refused,
    refused_reads,
    with_judged_reads,
)
from refine.editors.text.judged_near import with_judged_near
from refine.editors.text.near_match import in_element_only, locate, names_cell, off_legend
from refine.editors.text.order import Plan, make_plan
from refine.editors.text.other_list import off_list
from refine.editors.text.outcomes import Rewrite, Skip, Written
from refine.editors.text.place import place_missing
from refine.editors.text.place_at_bar import value_at_bar
from refine.editors.text.place_axis_title import place_axis_title
from refine.editors.text.place_in_wedge import value_in_wedge
from refine.editors.text.place_legend_entry import place_legend_entry, unlabelled_series
from refine.editors.text.place_nav_item import menu_boxes, place_nav_item, right_edge_of_link
from refine.editors.text.rewrite import rewrite
from refine.editors.text.rewrite_rotated import match_angle, rewrite_rotated
from refine.editors.text.split_number import joined_numbers
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tick_label import on_other_tick, tick_target
from refine.editors.text.tied_versions import not_asked
from refine.editors.text.work import MAX_STRINGS, collect_work, still_missing
from refine.interfaces import Failure
from rewards.common.options import require_bools
from rewards.rubric import TextExpectation
from rewards.text.ocr.ocr_cache import page_lines
from rewards.text.ocr.ocr_langs import check_ocr_options

log = logging.getLogger(__name__)


class TextEditor:
    """Editor (refine.interfaces.Editor) that fixes text expectations directly in the pixels.

    Args:
        font: path of a TrueType font to use for all new text (no type matching); None = match
            the original's type among the installed DejaVu and Liberation faces and their
            narrow cuts (``faces.editor_faces``).
        min_similarity: least similarity (rapidfuzz OSA, in [0, 1]) for a near match to be
            rewritten in place; below it the string is looked for harder, then placed. At 0.6 the
            bundled example lost correct text ("encoder" rewritten to a missing "decoder",
            similarity 0.71); 0.75 still accepts one wrong character in a 4-character string.
        lang, psm, scale, second_psm: tesseract settings (see ``rewards.text.ocr.ocr_read.ocr_lines``).
        case_sensitive, lenient, max_lines: matching rules (see ``rewards.text.ocr.text_match``); use the
            judge's values so that "already matches" means the same for both.
        max_chars: longest expected string (characters) the editor works on.
        max_layout_trials: most layouts (size x width x position) tried per string.
        max_strings: most distinct strings one edit works on, in the failed checks' order; the
            rest get a ``fail:`` action (the edit's time grows with the square of the count).
        look_harder: read coloured regions and unread marks again before placing a string.
        incremental: read an edited page again only where it changed (``rewards.text.ocr.ocr_cache``,
            shared with the OCR judge: the image the judge just read is not read again).
        free_space: also write a missing string that no slot takes in a free rectangle of its
            check's place, in the page's body type (the editor before issue 17). Off by default:
            loose text in title bands, headers and margins made pages that a judge passed and a
            reader would not (strings crammed between a logo and a menu).

    After each ``edit``, ``last_actions`` lists one dict per expected string handled: ``text``,
    ``check`` (id), ``action`` ("replace", "place (in its empty badge)", "place (next to '...')",
    "place (in its cell: ...)", "place (item N of its list)", "place (directly below '...')",
    "place" with ``free_space`` only, "skip: ...", "fail: ..."), ``box`` (the main box, pixels, or
    None), ``was`` (the OCR text replaced), ``boxes`` (every box changed), ``changed_px`` and
    ``outside_share`` (pixels changed, and their share of the image that lies outside ``boxes``:
    0.0 by construction, measured), and for written text ``type`` (family, bold, italic, size px,
    align, lines).

    Raises:
        ValueError: ``min_similarity`` outside [0, 1], a bound < 1, or tesseract settings that read no text
            (``rewards.text.ocr.ocr_langs.check_ocr_options``: psm, second_psm, lang).
        FileNotFoundError: ``font`` is not a file.
    """

    name = "text"

    def __init__(
        self,
        font: str | None = None,
        min_similarity: float = 0.75,
        lang: str = "eng",
        psm: int = 11,
        scale: float = 2.0,
        case_sensitive: bool = True,
        lenient: bool = False,
        max_lines: int = 4,
        second_psm: int | None = 3,
        max_chars: int = 2000,
        max_layout_trials: int = 400,
        max_strings: int = MAX_STRINGS,
        look_harder: bool = True,
        free_space: bool = False,
        incremental: bool = True,
    ):
        flags = {"case_sensitive": case_sensitive, "lenient": lenient, "look_harder": look_harder}
        require_bools("TextEditor", **flags, free_space=free_space, incremental=incremental)
        counts = {"max_chars": max_chars, "max_layout_trials": max_layout_trials, "max_strings": max_strings}
        for name, n in (counts | {"max_lines": max_lines}).items():
            if isinstance(n, bool) or not isinstance(n, int):
                raise ValueError(f"TextEditor: {name} must be an integer >= 1, got {n!r}")
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
            raise ValueError(f"TextEditor: scale must be a number > 0, got {scale!r}")
        if not 0.0 <= min_similarity <= 1.0:
            raise ValueError(f"TextEditor: min_similarity must be in [0, 1], got {min_similarity}")
        if max_chars < 1 or max_layout_trials < 1 or max_strings < 1 or max_lines < 1:
            raise ValueError(
                "TextEditor: max_chars, max_layout_trials, max_strings and max_lines must be >= 1, "
                f"got {max_chars}, {max_layout_trials}, {max_strings}, {max_lines}"
            )
        check_ocr_options("TextEditor", lang, psm, second_psm)
        if font is not None and not Path(font).is_file():
            raise FileNotFoundError(f"TextEditor: font file {font} does not exist")
        self.faces = [Face(Path(font).stem, False, False, str(font))] if font else editor_faces()
        if not self.faces:
            raise FileNotFoundError(
                "TextEditor: no DejaVu or Liberation font installed (apt-get install fonts-dejavu-core)"
            )
        self.min_similarity = min_similarity
        self.lang, self.psm, self.scale, self.second_psm = lang, psm, scale, second_psm
        self.case_sensitive, self.lenient, self.max_lines = case_sensitive, lenient, max_lines
        self.max_chars, self.max_layout_trials, self.look_harder = max_chars, max_layout_trials, look_harder
        self.max_strings = max_strings
        self.free_space = free_space
        self.incremental = incremental
        self.last_actions: list[dict] = []
        self._value_of: dict = {}
        self._tick_of: dict = {}
        self._judged_of: dict = {}
        self._nav_of: dict = {}
        self._wedge_of: dict = {}
        self._series_of: dict = {}
        self._axis_of: dict = {}
        self._elsewhere: set = set()
        self._refused: dict = {}
        # what the last edit wrote, and a digest of the image it returned: when the loop hands that
        # image back (the judge still fails a check), the strings it wrote are on the page even if
        # the judge's OCR cannot read them (small light text on a badge), and are not written again
        self._last_output: str | None = None
        self._last_written: dict[str, tuple[int, int, int, int]] = {}

    def _rules(self) -> Rules:
        return Rules(
            self.faces,
            self.min_similarity,
            self.case_sensitive,
            self.lenient,
            self.max_lines,
            self.max_layout_trials,
            self.lang,
            self.look_harder,
            self.free_space,
        )

    def _rules_for(self, state: EditState, exp: TextExpectation, rules: Rules, cell: bool = False) -> Rules:
        """The rules a rewrite of ``exp`` uses: a bar's value label (a few digits, alike in every
        face) is matched among the faces of the page's body family only; a grid cell's number
        (``cell``: ``grid_cell``) among those of the body's slant too ("87" matched italic on its
        two digits came out slanted among upright cells)."""
        if exp not in self._value_of and not cell:
            return rules
        body = state.body_type(rules.faces).style.face
        faces = [f for f in rules.faces if f.family == body.family and (not cell or f.italic == body.italic)]
        return replace(rules, faces=faces or rules.faces)

    def _fix(self, state: EditState, plan: Plan, exp: TextExpectation, cid: str, previous: dict, rules: Rules) -> None:
        """Fix one string: leave it alone, rewrite its near match, or place it; record the action."""
        before, read, cell = state.arr.copy(), None, None
        outcome = already_written(exp, state, previous, rules.case_sensitive)
        if outcome is None and exp in self._value_of:  # a bar's value label: at its bar's end
            outcome = value_at_bar(state, exp, self._value_of[exp], rules, self._series_of.get(exp))
            if outcome is None and exp in self._elsewhere:
                outcome = Skip("skip: read elsewhere on the page, and its bar is not found; not written")
        if outcome is None and exp in self._wedge_of:  # a slice's value: inside its wedge
            outcome = value_in_wedge(state, exp, self._wedge_of[exp], rules)
        if outcome is None and exp in self._tick_of:  # "the sixth x-axis tick label": that label
            outcome = tick_target(state, exp, self._tick_of[exp], rules.case_sensitive)
        if outcome is None:
            boxes, element = plan.element_boxes.get(exp), plan.element_of.get(exp)
            refused = self._refused.get(exp)
            outcome = locate(state, exp, plan.matches[exp], plan.group_boxes[exp], rules, boxes, element, refused)
            if exp in self._judged_of:  # the element the judge read for its "no" is the one to rewrite
                outcome = judged_over(state, self._judged_of[exp], outcome)
            if outcome is None and names_cell(element):  # a grid's cell by its row and column labels
                outcome = cell = cell_target(state, exp, element, rules)
            if (
                exp in self._tick_of
                and isinstance(outcome, Rewrite)
                and on_other_tick(state, self._tick_of[exp], outcome)
            ):
                outcome = Skip("skip: its near match is another tick label, not the one the check names; left alone")
        if isinstance(outcome, Rewrite) and exp in self._nav_of and outcome.centre is None:
            right = right_edge_of_link(state, outcome.match.box)  # a right-aligned menu keeps its right end
            outcome = outcome if right is None else replace(outcome, right=right)
        if isinstance(outcome, Rewrite) and space_drawn(state.arr, outcome.match.box, outcome.match.text, exp.text):
            outcome = Skip(
                "skip: already on the page (OCR dropped a space the pixels show); not retyped",
                outcome.match.box,
                outcome.match.text,
            )
        match outcome:
            case Rewrite() as target:
                before, read = state.arr.copy(), target.lines  # the lines its words index (the damage audit)
                turned = rewrite_rotated if match_angle(target) else rewrite  # a y-axis title stays rotated
                outcome = turned(state, target, exp, self._rules_for(state, exp, rules, cell is target))
            case None:
                before = state.arr.copy()
                if exp in self._nav_of:  # "the first link of the navigation menu": the menu's slot
                    outcome = place_nav_item(state, exp, self._nav_of[exp], rules)
                if outcome is None and exp in self._axis_of:  # "the x-axis label": under the tick labels
                    outcome = place_axis_title(state, exp, self._axis_of[exp], rules)
                if outcome is None:
                    outcome = place_missing(state, plan, exp, rules)
        match outcome:
            case Skip() as skip:
                self.last_actions.append(skip_record(exp, cid, skip))
            case Written() as written:
                self.last_actions.append(written_record(exp, cid, written, before, state.arr, read))
                state.add(exp, written, rules.case_sensitive)

    def _legend_entry(self, state: EditState, exp: TextExpectation, cid: str, entries, rules: Rules) -> None:
        """Write ``exp``, a legend entry the page shows only outside the legend (the slice's own
        label), as the legend's next entry (``place_legend_entry``), or record why not."""
        before = state.arr.copy()
        outcome = place_legend_entry(state, exp, entries, rules)
        if isinstance(outcome, Written):
            self.last_actions.append(written_record(exp, cid, outcome, before, state.arr))
            state.add(exp, outcome, rules.case_sensitive)
            return
        reason = (f"skip: {exp.text[:40]!r} is on the page but not in the legend, and the legend shows no "
                  "entry with a swatch to add it after; not written")  # fmt: skip
        self.last_actions.append(skip_record(exp, cid, outcome or Skip(reason)))

    def edit(self, image: Image.Image, instruction: str, failures: Sequence[Failure], seed: int) -> Image.Image:
        """Return a new RGB image with the failed text expectations fixed; ``instruction`` and
        ``seed`` are unused (the edit is deterministic). Failures without expectations are ignored.

        Raises:
            rewards.text.ocr.tesseract_lines.OCRError: tesseract failed on ``image``.
        """
        # 1. The image, and what the previous edit wrote when this is the image it returned.
        img = image.convert("RGB")
        arr = np.array(img)  # (H, W, 3) uint8, a copy
        h, w = arr.shape[:2]
        self.last_actions = []
        previous = self._last_written if digest(arr) == self._last_output else {}
        self._last_written, self._last_output = dict(previous), digest(arr)

        # 2. Collect the work: every expected string of a failed check, once; too long ones, and
        # those after the first max_strings, fail.
        work = collect_work(failures, self.max_chars, self.max_strings)
        self._value_of, self._tick_of, self._nav_of = work.value_of, work.tick_of, work.nav_of
        self._wedge_of, self._series_of = work.wedge_of, work.series_of
        self._axis_of = {e: el.axis for e, el in work.elements.items() if el.role == "axis_title" and el.axis}
        self._judged_of = judged_elements(failures, work.strings)
        self.last_actions.extend(skip_record(exp, cid, skip) for exp, cid, skip in work.refused)
        if over := sum(skip.reason.startswith("fail: over max_strings") for _, _, skip in work.refused):
            log.warning(
                "text editor: the failed checks quote %d strings; the first %d are edited, %d are not (max_strings=%d)",
                len(work.strings) + over,
                len(work.strings),
                over,
                self.max_strings,
            )
        if not work.strings:
            return Image.fromarray(arr)

        # 3. Read the page: its OCR lines and each string's matches; strings on the page are done.
        rules = self._rules()
        # a list's bullet dots are not text: no rewrite takes or erases them (they stay busy pixels)
        read = page_lines(img, self.lang, self.psm, self.scale, self.second_psm, self.incremental)
        lines = with_judged_reads(without_bullets(arr, read), failures)  # a lone glyph the judge read alone
        lines = joined_numbers(lines)  # "$ 2 2" read glyph by glyph is the price "$22"
        lines = with_judged_near(lines, failures)  # the judge's closer read of a near match ("Tllinn")
        matches = {exp: rules.matches(exp, lines, w, h) for exp, _ in work.strings}
        matches = not_asked(matches, rules.case_sensitive)  # "Date", asked too, is no version of "Gate"
        state = EditState.read(arr, lines, matches, self._last_written)
        # the element a check names, found before any write ("BREAKFAST" in a heading is not the title)
        element_boxes = {exp: state.element_boxes(work.elements.get(exp)) for exp, _ in work.strings}
        element_boxes = judged_boxes(failures, work.strings, element_boxes)  # the element the judge read
        # a menu link named by its place: the menu's links (the answer's "Billing" is not the link)
        element_boxes = {
            e: menu_boxes(state) if e in self._nav_of and b is None else b for e, b in element_boxes.items()
        }
        matches = {exp: in_element_only(ms, element_boxes[exp], lines) for exp, ms in matches.items()}
        matches = judged_matches(matches, self._judged_of)  # a copy elsewhere is not the element the judge read
        self._refused = refused_reads(failures, work.strings)  # nor a word of a longer line the judge refused as it
        matches = {exp: not_refused(ms, self._refused.get(exp), lines) for exp, ms in matches.items()}
        # a string read only in another card than the one its check names is missing from that card
        matches = {exp: off_card(state, exp, ms, rules) for exp, ms in matches.items()}
        # and a list item read only under another heading is missing from the list its check names
        matches = {exp: off_list(state, exp, ms, work.elements.get(exp), rules) for exp, ms in matches.items()}
        # a legend entry read only elsewhere (the slice's own label "Tea") is not in the legend
        legend = [(exp, cid) for exp, cid in work.strings if off_legend(exp, work, matches, element_boxes)
                  or (not any(m.found for m in matches.get(exp, []))
                      and unlabelled_series(state, exp, work.elements.get(exp), element_boxes[exp]))]  # fmt: skip
        for exp, cid in legend:  # the next entry of a one-row legend, with its swatch; else skipped
            self._legend_entry(state, exp, cid, element_boxes[exp], rules)
        work.strings = [s for s in work.strings if s not in legend]
        todo, matches, skips = still_missing(work.strings, lines, matches, rules, w, h)
        self.last_actions.extend(skip_record(exp, cid, skip) for exp, cid, skip in skips)
        # a bar's value read elsewhere (another bar's equal value, a y tick) is not its bar's label yet
        skipped = {exp for exp, _, _ in skips}
        self._elsewhere = {e for e, c in work.strings if e in work.value_of and (e, c) not in todo and e not in skipped}
        todo += [(e, c) for e, c in work.strings if e in self._elsewhere]

        # 4. Order the rest: strings inside others last, rewrites first, narrow places first, groups together.
        plan = make_plan(todo, work, matches, state, rules, element_boxes)

        # 5. Fix each string in turn on the same image.
        for exp, cid in plan.todo:
            self._fix(state, plan, exp, cid, previous, rules)
        self._last_output = digest(arr)
        return Image.fromarray(arr)
