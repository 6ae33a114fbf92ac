"""A list item read only under another heading than the one its check names is missing from its list.

A check such as "Is the second item under the "Budget" heading exactly "Revenue grew faster than
planned"?" names a list by its heading. A slide with two lists may hold the same string in the
other one ("Revenue grew ..." under "Open questions" too); that line is not this list's item, nor
a version of it to rewrite: the string is missing from this list and goes in by its slot
(``place``: the list closed up behind it, ``insert_list_item``), as a string read only in another
card is missing from its card (``cards.off_card``).
"""

from __future__ import annotations

from refine.editors.text.state import EditState, Rules
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Match, find_matches

Box = tuple[int, int, int, int]


def under_another(heading: Box, box: Box) -> bool:
    """Whether ``box`` stands clear of the column under ``heading``: above the heading (a list
    over it), wholly left of it (by more than a heading height), or starting more than three
    heading heights past its right end (the next column). A line merely indented under it, or
    read a little off its left edge, is not clear of it."""
    hh = heading[3] - heading[1]
    return box[3] <= heading[1] or box[2] < heading[0] - hh or box[0] > heading[2] + 3 * hh


def _heading(state: EditState, text: str, rules: Rules) -> Box | None:
    """The box of the one exact occurrence of ``text`` on one line of the page, or None."""
    ms = [m for m in find_matches(text, state.lines, state.w, state.h, None, False, rules.lenient, 1)
          if m.found and len({li for li, _ in m.words}) == 1]  # fmt: skip
    return tuple(int(v) for v in ms[0].box) if len(ms) == 1 else None


def off_list(state: EditState, exp: TextExpectation, matches: list[Match], element, rules: Rules) -> list[Match]:
    """``matches`` without those clear of the column under the heading ``exp``'s check names
    (``under_another``), when its exact ones all are (module docstring); as they are otherwise (no
    heading named or read, not a list item, an exact one that may be in the heading's column)."""
    if getattr(element, "role", None) not in ("list_item", "bullet") or exp.relation not in ("below", "directly_below"):
        return matches
    exact = [m for m in matches if m.found]
    heading = _heading(state, exp.anchor, rules) if exact and exp.anchor else None
    if heading is None or not all(under_another(heading, m.box) for m in exact):
        return matches
    return [m for m in matches if not under_another(heading, m.box)]
