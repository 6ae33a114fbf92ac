"""A button the engine drew with no label: grown to its sibling buttons' height, its label written in theirs.

A check such as "Is there a button labeled exactly "Talk to sales"?" names a button. When the
label is left out, a layout engine still draws the button, as an empty bar only its padding high
(a pricing card's "Talk to sales" under "Try it free" in the card beside it). A designer writes
the label in that button, in the type of its like buttons, and the button is as high as they are.
``place_in_empty_button`` does that when the page shows it:

- the bar is an empty badge (``placement.empty_badges``: a flat fill shaped like a label's
  background); its siblings are filled boxes of its width (within ``LIKE`` px) standing on its
  top or its left edge (a row or a column of buttons), taller than it, each holding one OCR line;
  they must agree on their height (within ``LIKE``);
- the bar grows downward (a card's content flows from its top) to that height: its top half
  stays, its bottom half moves down and the rows between repeat its middle row (its side edges and
  rounded corners kept), when the rows it grows into are one flat colour (empty card or page);
- the label goes where a sibling holds its own (centred in the button when the sibling's is
  centred, else at its offset from the button's left), on the baseline at the sibling's offset
  from the button's top, in the sibling label's matched type and colour.

Anything else (no empty bar, no sibling or siblings of two heights, no room under the bar, the
label wider than the button) is None (not this slot) or a ``Skip`` saying why.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy import ndimage

from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.placement import busy_mask, empty_badges
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import render_coverage
from rewards.rubric import TextExpectation

Box = tuple[int, int, int, int]
LIKE = 4
"""Most difference (px) of width, of edge and of height between like buttons."""
FLAT = 6
"""Most difference (any channel) between the pixels of the rows a bar grows into."""


def filled_boxes(arr: np.ndarray, page_bg) -> list[Box]:
    """Boxes of the page's filled shapes (``empty_badges``' shape, but for their flat inside:
    a button holding its label): 12..100 px high, at least 1.5x as wide, filling >= 85% of
    their box (the label's holes in the fill counted as fill)."""
    fg = np.abs(arr.astype(np.int16) - np.asarray(page_bg, np.int16)[None, None]).max(2) > 40
    labels, _ = ndimage.label(fg)
    out = []
    for k, sl in enumerate(ndimage.find_objects(labels), start=1):
        y0, y1, x0, x1 = sl[0].start, sl[0].stop, sl[1].start, sl[1].stop
        if not 12 <= y1 - y0 <= 100 or x1 - x0 < 1.5 * (y1 - y0):
            continue
        if ndimage.binary_fill_holes(labels[sl] == k).mean() >= 0.85:
            out.append((x0, y0, x1, y1))
    return out


def _siblings(state: EditState, bar: Box) -> list[tuple[Box, Box]]:
    """(button, its label's line box) of the like buttons of the empty ``bar`` (module docstring)."""
    x0, y0, x1, y1 = bar
    found = []
    for b in filled_boxes(state.arr, page_background(state.arr)):
        if abs((b[2] - b[0]) - (x1 - x0)) > LIKE or b[3] - b[1] <= y1 - y0 + LIKE:
            continue
        if abs(b[1] - y0) > LIKE and abs(b[0] - x0) > LIKE:
            continue
        inside = [ln.box for ln in state.lines if ln.words and b[0] <= ln.box[0] and ln.box[2] <= b[2]
                  and b[1] <= ln.box[1] and ln.box[3] <= b[3]]  # fmt: skip
        if len(inside) == 1:
            found.append((b, tuple(int(v) for v in inside[0])))
    return found


def place_in_empty_button(state: EditState, exp: TextExpectation, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` in the one empty button bar that has like labelled buttons, grown to
    their height (module docstring): Written; a Skip when there is no room; None when the page
    shows no such bar."""
    bars = [(bar, fill) for bar, fill in empty_badges(state.arr, page_background(state.arr))]
    found = [(bar, fill, sibs) for bar, fill in bars if (sibs := _siblings(state, bar))]
    if len(found) != 1:
        return None
    (x0, y0, x1, y1), fill, sibs = found[0]
    heights = [b[3] - b[1] for b, _ in sibs]
    if max(heights) - min(heights) > LIKE:
        return None
    button, label = min(sibs, key=lambda s: max(abs(a - b) for a, b in zip(_fill_of(state.arr, s[0]), fill)))
    style = _style_of(state, label, rules)
    if style is None:
        return None
    grow = (button[3] - button[1]) - (y1 - y0)
    below = state.arr[y1 : y1 + grow + 1, max(0, x0 - 1) : x1 + 1].astype(np.int16)
    if y1 + grow + 1 > state.h or (np.abs(below - below[0, 0]).max(2) > FLAT).any():
        return Skip(f"skip: the empty button under {exp.text[:30]!r}'s place has no room to grow to its like buttons' "
                    "height; not written")  # fmt: skip
    _, (bx0, _, bx1, _) = render_coverage(exp.text, style.face.font(style.size))
    width = bx1 - bx0
    centred = abs((label[0] + label[2]) / 2 - (button[0] + button[2]) / 2) <= 2
    x = (x0 + x1) / 2 - width / 2 if centred else x0 + (label[0] - button[0])
    pad = max(6, round(0.25 * (button[3] - button[1])))
    if x < x0 + pad or x + width > x1 - pad:
        return Skip("skip: the label is wider than the empty button; not written")
    saved, busy_before = state.arr.copy(), state.busy.copy()
    mid = (y0 + y1) // 2
    state.arr[mid + grow : y1 + grow, x0:x1] = saved[mid:y1, x0:x1]
    state.arr[mid : mid + grow, x0:x1] = saved[mid, x0:x1][None]
    state.busy[y0 : y1 + grow, x0:x1] = busy_mask(state.arr[y0 : y1 + grow, x0:x1], [])
    action = "place (label of the empty button, grown to its like buttons' height, in their type)"
    written = _write(state, exp.text, replace(style, baseline=style.baseline + (y0 - button[1])), x, "left", action, {})
    if written is None:
        state.arr[:] = saved
        state.busy[:] = busy_before
        return Skip("skip: the empty button's label slot is taken; not written")
    grown = (x0, y0, x1, y1 + grow)
    return Written(action, written.box, [*written.boxes, grown], written.info | {"grown": list(grown)},
                   written.lines, erased=((x0, y0, x1, y1),))  # fmt: skip


def _fill_of(arr: np.ndarray, box: Box) -> tuple[int, ...]:
    """The median colour of ``box``'s pixels (a button's fill: its label is the smaller share)."""
    x0, y0, x1, y1 = box
    return tuple(int(v) for v in np.median(arr[y0:y1, x0:x1].reshape(-1, 3), axis=0))
