"""Lists whose items are cards (issue 31): a kanban board's column of ticket cards, a stack of
like cards down a column, each card one item.

The list finder (``finders._lists``) groups lines that share a left edge and type size within three
line heights of each other. A card's items stand further apart (a ticket card holds a tag above its
title and a number and initials under it), so the cards of a board's column were no list, and every
small line that shares their left edge (the tags, the ticket numbers) was counted among the items
instead: a correct ticket was refuted as "the second item under 'Backlog'" (a tenth tester's board).

``card_lists`` finds the rectangles of like cards stacked in one column (``card_rectangles``: left
edges within ``EDGE`` px, widths within ``rectangles.CARD_LIKE``) and takes, of each card, its item:
the top line in the card's largest type (the ticket's title over its tag and number; lines inside
a smaller rectangle of the card, a coloured tag pill, are not the card's own).
"""

from __future__ import annotations

from rewards.text.page.page_lines import SAME_SIZE, Box, _Page
from rewards.text.page.rectangles import CARD_LIKE, _lines_in, card_rectangles

EDGE = 4
"""Pixels two stacked cards' left edges may differ by (one column of a board)."""


def _area(b: Box) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _own_lines(page: _Page, card: Box, rects: list[Box]) -> list[int]:
    """The lines in ``card`` that lie in no smaller rectangle inside it (a tag pill's label is the pill's)."""
    inner = [r for r in rects if r != card and _area(r) < _area(card) and r[0] >= card[0] and r[2] <= card[2]]
    inner = [r for r in inner if r[1] >= card[1] and r[3] <= card[3]]
    own = set(_lines_in(page, card))
    for r in inner:
        own -= set(_lines_in(page, r))
    return sorted(own)


def _item(page: _Page, lines: list[int]) -> int:
    """The top line of ``lines`` (not empty) in their largest type size (within ``SAME_SIZE``)."""
    big = max(page.sizes[i] for i in lines)
    top = [i for i in lines if page.sizes[i] * SAME_SIZE >= big]
    return min(top, key=lambda i: page.lines[i].box[1])


def _whole_cards(rects: list[Box]) -> list[Box]:
    """``rects`` without the part of a card found from one of its lines (the band around a tag:
    same left and right edges, inside a taller rectangle)."""
    return [
        r
        for r in rects
        if not any(
            o != r
            and abs(o[0] - r[0]) <= EDGE
            and abs(o[2] - r[2]) <= EDGE
            and o[1] <= r[1]
            and r[3] <= o[3]
            and _area(o) > _area(r)
            for o in rects
        )
    ]


def card_lists(page: _Page) -> list[list[int]]:
    """Columns of two or more like cards stacked one under another, each as the list of its cards'
    items (``_item`` of the card's own lines), top to bottom. A card holds two or more lines of its
    own (a pill or a disc around one label is no card)."""
    rects = card_rectangles(page)
    columns: list[list[Box]] = []
    for r in sorted(_whole_cards(rects), key=lambda b: b[1]):
        if len(_own_lines(page, r, rects)) < 2:
            continue
        for col in columns:
            c = col[-1]
            like = abs((r[2] - r[0]) - (c[2] - c[0])) <= CARD_LIKE * max(r[2] - r[0], c[2] - c[0])
            if abs(r[0] - c[0]) <= EDGE and like and r[1] >= c[3]:
                col.append(r)
                break
        else:
            columns.append([r])
    out = []
    for col in columns:
        items = [_item(page, _own_lines(page, card, rects)) for card in col]
        if len(col) >= 2:
            out.append(items)
    return out
