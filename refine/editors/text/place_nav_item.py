"""A navigation menu's missing first or last link, where the closed-up row leaves its slot.

A layout engine sets a menu's links in one row with one gap between them (a CSS flex ``gap``);
when a link is missing, the row closes up. A right-aligned menu (its last link ends at the
page's right text margin, mirroring the left one: a landing page's header) keeps its right end,
so its missing first link goes one gap left of the first link shown; a menu that does not reach
that margin keeps its left end, so its missing last link goes one gap right of its last. Both
are written in the type of the link beside them, on its baseline (``place_in_element._write``).
A link in between, a first link of a left-set menu or a last link of a right-set one is inserted
with the links on its free side moved back by one step (``insert_nav_item``); a link past the
menu's end by more than one is skipped with the reason. The check names the link by its place
("Is the first link of the navigation menu from the left exactly "Home"?", ``nav_place``).

The menu is the page's top row of short words (OCR words whose vertical middles lie within half a
line height of one another, in the top ``TOP`` of the page), split into links at gaps wider than
``LINK_GAP`` line heights; its links are the row's items, but for a brand at its left (``BRAND``),
when their gaps differ from their median by at most ``EVEN``. A row with one wider gap leaves a
slot for a link in between, which ``place_in_element`` fills.
"""

from __future__ import annotations

import re
from statistics import median

from refine.editors.text.insert_nav_item import insert_nav_item
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.place_in_element import _style_of, _write
from refine.editors.text.state import EditState, Rules
from refine.editors.text.tick_label import ORDINALS
from rewards.rubric import TextExpectation

NAV = re.compile(
    r"\b(\w+) (?:link|item|entry|tab) (?:of|in) the (?:navigation|nav|top) (?:menu|bar)\b(?: from the (left|right))?",
    re.IGNORECASE,
)
TOP = 0.2
"""Share of the page's height, from the top, a navigation menu stands in."""
LINK_GAP = 0.8
"""Least gap (line heights) between two links of a menu row; a word space is about 0.3."""
EVEN = 0.25
"""Most relative difference of a menu's gaps from their median."""
BRAND = 2.0
"""How many times the menu's median gap the brand stands off its first link, at least."""
MARGIN = 0.02
"""Most difference (share of the page's width) between the right margin and the left one for a
right-aligned menu."""

Box = tuple[int, int, int, int]


def nav_place(question: str) -> int | None:
    """The ordinal (1-based, from the left) of the navigation link ``question`` names, or None
    (a place counted from the right is None: the editor does not know the menu's length)."""
    m = NAV.search(question)
    if m is None or m.group(1).lower() not in ORDINALS or (m.group(2) or "left").lower() != "left":
        return None
    return ORDINALS.index(m.group(1).lower()) + 1


def menu_links(state: EditState) -> list[tuple[Box, list]]:
    """The links of the page's menu row (module docstring), left to right: (box, [(word box,
    text)]); [] when there is no row of at least two evenly spaced links."""
    words = [wd for ln in state.lines for wd in ln.words if wd.box[3] <= TOP * state.h and wd.text.strip()]
    rows: list[list] = []
    for wd in sorted(words, key=lambda wd: (wd.box[1] + wd.box[3]) / 2):
        mid, hgt = (wd.box[1] + wd.box[3]) / 2, wd.box[3] - wd.box[1]
        row = next((r for r in rows if abs((r[0].box[1] + r[0].box[3]) / 2 - mid) <= hgt / 2), None)
        if row is not None:
            row.append(wd)
        else:
            rows.append([wd])
    best: list[tuple[Box, list]] = []
    for row in rows:
        row.sort(key=lambda wd: wd.box[0])
        hgt = median(wd.box[3] - wd.box[1] for wd in row)
        links: list[list] = [[row[0]]]
        for wd in row[1:]:
            if wd.box[0] - links[-1][-1].box[2] < LINK_GAP * hgt:
                links[-1].append(wd)
            else:
                links.append([wd])
        boxes = [
            (min(w.box[0] for w in g), min(w.box[1] for w in g), max(w.box[2] for w in g), max(w.box[3] for w in g))
            for g in links
        ]
        run = _even_run(boxes)
        if len(run) > len(best):
            best = [(boxes[k], [(w.box, w.text) for w in links[k]]) for k in run]
    return best if len(best) >= 2 else []


def menu_boxes(state: EditState) -> list[Box] | None:
    """The boxes of the links of the page's menu row (``menu_links``), or None when it shows none: the
    element a check that names a link by its place ("the second link of the navigation menu") names,
    where ``find_elements`` finds none. A FAQ's answer "... from the Billing tab ..." is no link: read
    there, "Billing" was taken as on the page and the menu's "Biling" was left wrong."""
    return [box for box, _ in menu_links(state)] or None


def _even_run(boxes: list[Box]) -> list[int]:
    """Indices of the menu's links among a row's ``boxes``: all of them, or all but the first when
    it stands more than ``BRAND`` times the others' median gap off (the brand), when their gaps
    are even (``EVEN``); [] otherwise (a row that leaves a gap for a link in between is
    ``place_in_element``'s)."""
    gaps = [b[0] - a[2] for a, b in zip(boxes, boxes[1:])]
    first = 1 if len(gaps) >= 2 and gaps[0] > BRAND * median(gaps[1:]) else 0
    gaps = gaps[first:]
    if not gaps or any(abs(g - median(gaps)) > EVEN * median(gaps) for g in gaps):
        return []
    return list(range(first, len(boxes)))


def is_right_set(state: EditState, links: list[tuple[Box, list]]) -> bool:
    """Whether the menu of ``links`` (``menu_links``) is right-aligned: its last link ends at the
    page's right text margin, mirroring the left one (within ``MARGIN``)."""
    left_margin = min(ln.box[0] for ln in state.lines if ln.words)
    return abs((state.w - links[-1][0][2]) - left_margin) <= MARGIN * state.w


def right_edge_of_link(state: EditState, box) -> int | None:
    """The right end (x, pixels) of the link of a right-aligned menu (``is_right_set``) that holds
    ``box`` (a near match's), or None when ``box`` is no such link. A right-aligned menu keeps its
    right end: a link rewritten longer ("Shiping" -> "Shipping") grows to the left, as the engine
    lays it out; set from its left end it ran into the gap before the next link."""
    links = menu_links(state)
    if not links or not is_right_set(state, links):
        return None
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    link = next((b for b, _ in links if b[0] <= cx <= b[2] and b[1] <= cy <= b[3]), None)
    return None if link is None else int(link[2])


def place_nav_item(state: EditState, exp: TextExpectation, n: int, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` as link ``n`` of the page's menu (module docstring): Written; a Skip
    when the menu shows a link in that place, when the slot needs other links moved, or when it
    is taken; None when the page shows no menu row."""
    links = menu_links(state)
    if not links:
        return None
    boxes = [b for b, _ in links]
    gap = float(median(b[0] - a[2] for a, b in zip(boxes, boxes[1:])))
    right_set = is_right_set(state, links)
    if n == 1 and right_set:
        box, words = links[0]
        x, align = box[0] - gap, "right"
    elif n == len(links) + 1 and not right_set:
        box, words = links[-1]
        x, align = box[2] + gap, "left"
    elif n <= len(links) + right_set:  # the menu closed up behind it: insert it, move the others
        return insert_nav_item(state, exp, n, links, right_set, rules)
    else:
        return Skip(f"skip: link {n} of the menu would stand {n - len(links) - 1} links past its end; not written")
    # the neighbour's type, at the size that gives its text its width on the page (``_style_of``):
    # set at its matched size, "Features" came out 3 px wider than Chromium's, its left end past
    # the link's box
    style = _style_of(state, box, rules)
    if style is None:
        return None
    written = _write(state, exp.text, style, x, align, f"place (link {n} of the menu, one gap from its neighbour)", {})
    return written or Skip(f"skip: the slot for link {n} of the menu is taken; not written")
