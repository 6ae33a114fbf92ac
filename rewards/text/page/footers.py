"""The footer finder (``finders.FINDERS["footer"]``): small type at the bottom of the page.

A footer is the small type a page ends with. On a page that fills its image to the bottom it
stands in the image's bottom band (``BOTTOM_BAND``). A page drawn on a card or a sheet smaller
than the image ends higher: a boarding pass's "Gate closes 20 minutes before departure." at 66%
of the image height, a newsletter's "You receive this because ..." at 54%, a receipt's "Receipt
18718 - thank you for shopping" above an empty margin (a tenth and a ninth tester's pages: 12
footers left to a VLM on dev). When no small line stands in the bottom band, the page's lowest
line is its footer when it is small type, read with confidence, in the lower half of the image,
and set apart from the lines above it (``APART`` of its heights): the end of the content, not a
paragraph's last line.
"""

from __future__ import annotations

from statistics import median

from rewards.text.page.page_lines import SAME_SIZE, Element, _centre, _in_badge, _Page, read_sure
from rewards.text.questions.question_compiler import ElementSpec

BOTTOM_BAND = 0.8
"""A footer's centre lies below this share of the image height."""
FOOTER_BLOCK_TOP = 0.6
"""How high (a fraction of the image height) the lines of a footer's block may reach."""
LOWEST_TOP = 0.5
"""With no line in the bottom band, the lowest line is a footer only with its centre below this share of the height."""
APART = 1.5
"""...and a gap of at least this many of its heights to the lines above it that it overlaps."""
DRAWING = 3.0
"""A "line" above it in type over this many times its size is a drawing read as letters (a receipt's
barcode bars read "ll" at confidence 60), not text it must stand apart from."""


def footer(page: _Page, spec: ElementSpec) -> list[Element]:
    """Small type in the bottom band: lines whose centre lies below ``BOTTOM_BAND`` of the image
    height and whose type is not larger than the page's median, with the lines of their blocks
    above them down to ``FOOTER_BLOCK_TOP`` of the height (a footnote wrapped over four lines
    starts above the band: its first line "Source:" is part of it). With no such line, the page's
    lowest line when it ends the content (``lowest_footer``)."""
    flat = page.flat
    if not flat:
        return []
    body = median(page.sizes[i] for i in flat)
    small = {i for i in flat if page.sizes[i] <= SAME_SIZE * body}
    low = [i for i in flat if _centre(page.lines[i].box)[1] > BOTTOM_BAND * page.size[1] and i in small]
    if not low:
        return lowest_footer(page, small)
    blocks = list(dict.fromkeys(tuple(page.block(i)) for i in low))
    top = FOOTER_BLOCK_TOP * page.size[1]
    return page.elements(
        "footer", [[j for j in b if j in small and _centre(page.lines[j].box)[1] > top] for b in blocks]
    )


def lowest_footer(page: _Page, small: set[int]) -> list[Element]:
    """The page's lowest line (with the small lines of its block) as its footer, when it is in
    ``small`` type, read with confidence (``read_sure``), not in a badge or button, its centre
    below ``LOWEST_TOP`` of the image height, and at least ``APART`` of its heights under every
    other line it overlaps horizontally (``DRAWING`` aside); else no footer."""
    i = max(page.flat, key=lambda j: page.lines[j].box[3])
    x0, y0, x1, y1 = page.lines[i].box
    if i not in small or not read_sure(page.lines[i]) or _in_badge(page, page.lines[i]):
        return []
    if _centre(page.lines[i].box)[1] <= LOWEST_TOP * page.size[1]:
        return []
    block = [j for j in page.block(i) if j in small]
    top = min(page.lines[j].box[1] for j in block)
    above = [
        b[3]
        for j in page.flat
        if j not in block
        and (b := page.lines[j].box)[3] <= top
        and min(x1, b[2]) > max(x0, b[0])
        and page.sizes[j] <= DRAWING * page.sizes[i]
    ]
    if above and top - max(above) < APART * (y1 - y0):
        return []
    return page.elements("footer", [block])
