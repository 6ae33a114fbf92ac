"""A navigation link the engine left out between two others: inserted, the links on its free side moved.

A flex menu closes up when a link is left out: a right-aligned menu (a landing page's header,
ending at the right text margin) keeps its right end, so the links before the missing one move
right; a menu set from the left keeps its left end, so the links after it move left. A designer
inserts the link at its place and moves those links back by one step: the new link's width and
one gap of the menu. ``insert_nav_item`` does that for link N of the menu row
``place_nav_item.menu_links`` finds, when the menu shows a link N (the string is nowhere on the
page, and no near version of it: those are rewritten before this runs):

- the step is the new link's ink width in its neighbour's type (``place_in_element._style_of``:
  set at the width the page gives that link) plus the menu's gap between links' ink (their
  median);
- the band of the links that move (from their top to their bottom, grown by ``PAD``) is copied
  one step left (right-set) or right, the columns it leaves are painted in the band's ground
  colour, and the string is written one gap from the link it now stands beside, on the menu's
  baseline, in that link's type.

Withheld (a ``Skip`` with the reason, nothing drawn) when the columns the links move into are not
empty page (the brand, the page's edge or another graphic: the menu has no room), or the band's
ground is not one colour.
"""

from __future__ import annotations

from statistics import median

from refine.editors.text.insert_list_item import PAD, _ground
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.placement import busy_mask
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import TypeStyle
from rewards.rubric import TextExpectation

Box = tuple[int, int, int, int]


def insert_nav_item(state: EditState, exp: TextExpectation, n: int, links: list, right_set: bool, rules: Rules):
    """Insert ``exp.text`` as link ``n`` (1-based) of the menu whose ``links`` are (ink box,
    [(word box, text)]) left to right (``place_nav_item.menu_links``), moving the links before it
    left (``right_set``: ``2 <= n <= len(links) + 1``) or those from it on right (``1 <= n <=
    len(links)``) (module docstring): Written, a Skip saying why not, or None when the
    neighbour's type is not read."""
    boxes = [b for b, _ in links]
    gap = float(median(b[0] - a[2] for a, b in zip(boxes, boxes[1:])))
    if right_set:  # the new link's ink ends one gap left of the link after it, or where the menu ends
        x = boxes[n - 1][0] - gap if n <= len(boxes) else boxes[-1][2]
    else:  # it starts one gap right of the link before it, or where the menu starts
        x = boxes[n - 2][2] + gap if n >= 2 else boxes[0][0]
    beside = boxes[min(n - 1, len(boxes) - 1)] if right_set else boxes[max(n - 2, 0)]
    style = _style_of(state, beside, rules)
    if style is None:
        return None
    step = int(round(_step(exp.text, [" ".join(t for _, t in words) for _, words in links], boxes, style)))
    moving = boxes[: n - 1] if right_set else boxes[n - 1 :]
    y0 = max(0, min(b[1] for b in boxes) - PAD)
    y1 = min(state.h, max(b[3] for b in boxes) + PAD)
    x0, x1 = max(0, moving[0][0] - PAD), min(state.w, moving[-1][2] + PAD)
    # the columns the links move into (past the busy mask's 2 px grown around their own ink)
    into = (x0 - step - PAD, y0, x0 - 2, y1) if right_set else (x1 + 2, y0, x1 + step + PAD, y1)
    if into[0] < 0 or into[2] > state.w or state.busy[into[1] : into[3], into[0] : into[2]].any():
        return Skip(f"skip: link {n} of the menu needs the links {'before' if right_set else 'after'} it moved "
                    f"{step} px, and the menu has no room there; not inserted")  # fmt: skip
    ground = _ground(state.arr, (max(0, x0 - PAD), max(0, y0 - PAD), x1 + PAD, y1 + PAD), list(moving))
    if ground is None:
        return Skip(f"skip: the links beside link {n} of the menu stand on no one ground colour; not moved, "
                    "not inserted")  # fmt: skip
    shift = -step if right_set else step
    saved, busy_before = state.arr.copy(), state.busy.copy()
    state.arr[y0:y1, x0 + shift : x1 + shift] = saved[y0:y1, x0:x1]
    vacated = (max(x0, x1 + shift), y0, x1, y1) if right_set else (x0, y0, min(x1, x0 + shift), y1)
    state.arr[y0:y1, vacated[0] : vacated[2]] = ground
    _rebusy(state, (min(x0, x0 + shift), y0, max(x1, x1 + shift), y1))
    action = f"place (link {n} of the menu, the links {'before' if right_set else 'after'} it moved {step} px)"
    written = _write(state, exp.text, style, x, "right" if right_set else "left", action, {})
    if written is None:
        state.arr[:] = saved
        state.busy[:] = busy_before
        return Skip(f"skip: link {n} of the menu does not fit between its neighbours; not inserted")
    moved = (x0 + shift, y0, x1 + shift, y1)
    info = written.info | {"moved": [[x0, y0, x1, y1], shift]}
    return Written(action, written.box, [*written.boxes, moved], info, written.lines, erased=((x0, y0, x1, y1),))


def _rebusy(state: EditState, box: Box, grow: int = 3) -> None:
    """Recompute ``state.busy`` over ``box`` grown by ``grow`` px (the busy mask's 2 px grown around
    ink the move took away: an OCR box a pixel short of the ink left a column of the link's old
    mask in the slot, and the link did not fit), from a crop wider still (ink just outside counts)."""
    x0, y0, x1, y1 = box
    a0, b0, a1, b1 = (
        max(0, x0 - 2 * grow),
        max(0, y0 - 2 * grow),
        min(state.w, x1 + 2 * grow),
        min(state.h, y1 + 2 * grow),
    )
    fresh = busy_mask(state.arr[b0:b1, a0:a1], [])
    c0, d0, c1, d1 = max(0, x0 - grow), max(0, y0 - grow), min(state.w, x1 + grow), min(state.h, y1 + grow)
    state.busy[d0:d1, c0:c1] = fresh[d0 - b0 : d1 - b0, c0 - a0 : c1 - a0]


def _step(text: str, shown: list[str], boxes: list[Box], style: TypeStyle) -> float:
    """How far (px) the links move for ``text`` set between them: its advance in ``style`` plus the
    menu's gap between advances, the gaps between the ink ``boxes`` of the ``shown`` links less
    their side bearings (a flex ``gap`` stands between the links' advances, not their ink). A box
    read on the page is narrower than the rendered glyphs' box (its faint antialiased columns are
    not ink to the reader): half the difference is added back on each side."""
    font = style.face.font(style.size)

    def edges(t: str, box: Box) -> tuple[float, float]:  # the rendered box's left and right on the page
        x0, _, x1, _ = font.getbbox(t, anchor="ls")
        pad = ((x1 - x0) - (box[2] - box[0])) / 2
        return box[0] - pad - x0, box[2] + pad + (font.getlength(t) - x1)  # pen start, advance end

    pens = [edges(t, b) for t, b in zip(shown, boxes)]
    return font.getlength(text) + float(median(b[0] - a[1] for a, b in zip(pens, pens[1:])))
