"""Rewriting a near match where it stands, in its own type.

The matched words are erased from their background (``erase``) and the expected string is
typeset in the original's type (``type_match``), colour, baseline and alignment (left, centre or
right, from the block's lines or the fill the line sits in). A match over several lines is
retypeset as one block: one size, the original line pitch, wrapped within the block's width.
Layouts that would run into other text or graphics are tried narrower/smaller first (at most 9%
smaller). The new text is registered to the old to the pixel (the OCR-read text, laid out the
same way, is shifted by up to 2 px to fit the pixels best), so unchanged words land exactly
where they were.
"""

from __future__ import annotations

import numpy as np

from refine.editors.text.colours import box_colours
from refine.editors.text.dropped_space import MERGED
from refine.editors.text.edge_trim import trim_edges
from refine.editors.text.erase import composite, erase
from refine.editors.text.layout import SHRINK, WIDEN, Block, set_rows, wrap
from refine.editors.text.outcomes import Rewrite, Skip, Written
from refine.editors.text.set_width import engine_size, ink_span
from refine.editors.text.sibling_face import with_siblings
from refine.editors.text.state import EditState, Rules
from refine.editors.text.stroke_weight import heavier, weight_gamma
from refine.editors.text.type_match import coverage, match_type
from refine.editors.text.unread_mark import with_unread_mark
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, Word, in_region, union_box


def _single_line_alignment(arr: np.ndarray, box, bg, lines: list[Line] = ()) -> str:
    """ "centre" when the line sits centred (within 3 px) in the run of its background colour
    along its middle row and that run is narrower than the image (a centred title, a button
    centred on the page), else "left" (a button or badge sized to its label: ``_fits_its_label``)."""
    H, W = arr.shape[:2]
    y = min(H - 1, (box[1] + box[3]) // 2)
    row = np.abs(arr[y].astype(np.int16) - np.asarray(bg, np.int16)).max(1) <= 12
    x0, x1 = box[0], box[2]
    a = x0
    while a > 0 and (row[a - 1] or x0 - a < 2 or _grid_line(arr, a - 1, box, bg)):
        a -= 1
    b = x1
    while b < W and (row[b] or b - x1 < 2 or _grid_line(arr, b, box, bg)):
        b += 1
    if a <= 0 and b >= W:  # the line's fill spans the page: centred on the page, or over the plot below it?
        on_page = abs((x0 + x1) / 2 - W / 2) <= 3 and x0 > 0.1 * W
        return "centre" if on_page or _centred_over_run_below(arr, box, bg) else "left"
    if not (a > 0 and b < W and abs((x0 - a) - (b - x1)) <= 3):
        return "left"
    return "left" if _fits_its_label(a, b, box, lines) else "centre"


FIT_PAD = 3.0
"""Most padding (heights of the line's OCR box, about its cap height) each side of a label in a fill
for the fill to be sized to its label (a button's or badge's CSS padding: 1.5-2.1 of them on the
engine pages, 23 px beside an 11 px box on dev landing-20's ghost button; a matplotlib annotation's
bbox pad 0.3 em), not a box the label is centred in."""


def _fits_its_label(a: int, b: int, box, lines: list[Line]) -> bool:
    """Whether the fill run ``a``..``b`` (columns) around the centred line ``box`` is a button or
    badge sized to its label (``FIT_PAD``) that stands in no centred column of text: no two other
    lines of ``lines`` share a centre (within 3 px) within a line height (``box``'s) of the fill's
    (a button's margin on one side moves it off the column's centre: 7 px on the posters).
    An engine sets such a fill around its label and grows it from its left edge (Chromium's
    inline-block in a left-to-right row, matplotlib's left-aligned annotation with a bbox): a
    lengthened label keeps its left edge. Centred in the old fill, the ghost button's "Learn more"
    (for "Lean more") stood 3 px left of Chromium's box. A fill in a centred column (a poster's
    ticket button under its centred title) grows both ways, and its label stays centred."""
    pad = FIT_PAD * (box[3] - box[1])
    mids = [(ln.box[0] + ln.box[2]) / 2 for ln in lines if ln.words and (ln.box[1] >= box[3] or ln.box[3] <= box[1])]
    near = [c for c in mids if abs(c - (a + b) / 2) <= box[3] - box[1]]
    column = any(sum(abs(c - d) <= 3 for d in mids) >= 2 for c in near)
    return box[0] - a <= pad and b - box[2] <= pad and not column


def _grid_line(arr: np.ndarray, x: int, box, bg) -> bool:
    """Whether column ``x`` of ``arr`` is a rule drawn through the line's row, not a container's
    edge: a run of at most 2 columns, with the background (within 12) on both sides, of one colour
    over 3 line heights above and below the line (a chart's gridline or spine; a button's border
    turns within a line height or two). A chart annotation between two gridlines was taken for a
    centred label and its rewrite centred, 4 px left of matplotlib's left-aligned text."""
    H, W = arr.shape[:2]
    y0, y1 = box[1], box[3]
    reach = 3 * (y1 - y0)
    if y0 - reach < 0 or y1 + reach > H:
        return False
    y, back = (y0 + y1) // 2, np.asarray(bg, np.int16)
    on_bg = [0 <= c < W and np.abs(arr[y, c].astype(np.int16) - back).max() <= 12 for c in range(x - 2, x + 3)]
    if on_bg[2] or not any(on_bg[2 - d] and on_bg[2 + e] for d in (1, 2) for e in (1, 2) if d + e <= 3):
        return False
    px = arr[y, x].astype(np.int16)
    column = arr[y0 - reach : y1 + reach, x].astype(np.int16)
    return bool((np.abs(column - px).max(1) <= 12).all())


def _centred_over_run_below(arr: np.ndarray, box, bg) -> bool:
    """Whether the line ``box`` sits centred (within 3 px) over the first run below it of
    non-background pixels (off ``bg`` by more than 12) wider than the line and than 30% of the
    image: matplotlib centres a chart's title over its axes (their face, a spine or the bottom
    axis line), not over the page (a tester's log-scale bars: the title 40 px right of the page's
    centre, rewritten from its old left edge, ended 20 px off centre). With no such run below, the
    first one above it: matplotlib centres the x-axis title under its axes (a scatter chart with a
    colour bar: "Diameter at breast height" rewritten from its left edge ended 22 px right of
    where the engine sets "Diameter at breast height (cm)")."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = box
    need = max(x1 - x0, 0.3 * W)
    for rows in (range(min(H, y1 + 1), H), range(max(0, y0 - 1) - 1, -1, -1)):
        for y in rows:
            off = np.abs(arr[y].astype(np.int16) - np.asarray(bg, np.int16)).max(1) > 12
            edges = np.flatnonzero(np.diff(np.concatenate([[0], off.astype(np.int8), [0]])))
            for a, b in zip(edges[::2], edges[1::2]):
                if b - a > need:
                    return abs((a + b) / 2 - (x0 + x1) / 2) <= 3
    return False


def _alignment(arr: np.ndarray, lines: list[Line], segs: dict[int, list[int]], boxes, bg, leading: bool) -> str:
    """How the matched lines are aligned: "centre" or "right" when several lines share their
    centre or right edge (within 3 px) but not their left edge; one whole line centred in its
    fill is "centre"; else "left"."""
    order = list(segs)
    lefts = [b[0] for b in boxes]
    rights = [b[2] for b in boxes]
    if len(order) > 1:
        body_lefts = lefts[1:] if leading else lefts
        centres = [(a + b) / 2 for a, b in zip(lefts, rights)]
        if max(body_lefts) - min(body_lefts) > 3:
            return (
                "centre" if max(centres) - min(centres) <= 3 else "right" if max(rights) - min(rights) <= 3 else "left"
            )
        return "left"
    if not leading and max(segs[order[0]]) == len(lines[order[0]].words) - 1:
        align = _single_line_alignment(arr, boxes[0], bg, lines)
        if align == "left" and (
            _flush_right(arr, lines, order[0], boxes[0]) or _right_column(arr, lines, order[0], bg)
        ):
            return "right"
        return align
    return "left"


def _right_column(arr: np.ndarray, lines: list[Line], li: int, bg) -> bool:
    """Whether line ``li`` stands in a right-aligned column: with the lines of its height (within
    30%) within 20 line heights above or below it that start or end where it does (OCR boxes
    within 4 px; at least two), their ink (``ink_span``, against ``bg``) ends at one column
    (within 2 px: the side bearings differ) and starts at columns further apart than that.
    matplotlib sets a y-axis tick label right-aligned at its tick ("Searc", "Social", "Email" end
    at the axis, up to 8 line heights apart; OCR's boxes end 2 px apart, the ink 1 px): a
    lengthened rewrite grows to the left, not over the axis (where it was set smaller to miss
    the tick)."""
    box = lines[li].box
    hgt = box[3] - box[1]
    column = [box] + [
        ln.box
        for k, ln in enumerate(lines)
        if k != li
        and ln.words
        and abs((ln.box[3] - ln.box[1]) - hgt) <= 0.3 * hgt
        and max(ln.box[1] - box[3], box[1] - ln.box[3]) <= 20 * hgt
        and (abs(ln.box[2] - box[2]) <= 4 or abs(ln.box[0] - box[0]) <= 4)
    ]
    spans = [s for s in (ink_span(arr, b, bg) for b in column) if s is not None]
    if len(column) < 3 or len(spans) < len(column):
        return False
    rights, lefts = [s[1] for s in spans], [s[0] for s in spans]
    spread = max(rights) - min(rights)
    return spread <= 2 and max(lefts) - min(lefts) > spread


def _flush_right(arr: np.ndarray, lines: list[Line], li: int, box) -> bool:
    """A whole line in the right half of the page that no line near it (within 4 line heights)
    shares its left edge with, and that ends at the page's right text margin: its right edge is the rightmost text edge
    (within 3 px) shared by another line, or the margin right of it is no wider than the page's
    left text margin. Right-aligned ("Source: Finance team monthly" at a dashboard's right
    margin, under "Last updated October 18, 2024"): a lengthened rewrite grows to the left, not
    past the margin."""
    W = arr.shape[1]
    others = [ln.box for k, ln in enumerate(lines) if k != li and ln.words]
    near = 4 * (box[3] - box[1])  # a column's lines stand within a few line heights of each other
    column = [b for b in others if abs(b[0] - box[0]) <= 3 and max(b[1] - box[3], box[1] - b[3]) <= near]
    if box[0] <= W / 2 or not others or column:
        return False
    rightmost = max(b[2] for b in others)
    shares_right = any(abs(b[2] - box[2]) <= 3 for b in others) and box[2] >= rightmost - 3
    return shares_right or W - box[2] <= min(b[0] for b in others) + 3


def tick_mark_above(arr: np.ndarray, box, bg) -> tuple[float, int] | None:
    """(x of the tick mark right above a one-line label ``box``, y of the label's top row), px,
    or None. Bands of inked rows (a
    pixel > 40 off ``bg``): the label's text is the lowest (an OCR box often holds the
    tick too). Of the 12 rows over it, those inked across more than 60% of the box's width are
    a rule or a bar (the axis line, a bar standing on it) and are left out; of the rest, the
    columns inked in 3 rows or more must be one run of at most 3 columns in the middle half of
    the box, with no other ink in those rows beside it (a pixel of antialiasing each side); a line of
    text above is wider (the bottom rows of the tick label "20" over an x-axis title made one such
    run, and the title was centred under it, 60 px right). matplotlib centres an x tick label on its tick
    (``XTick`` labels are ``Text`` with ha="center"), so a label under one is centred on it,
    whatever its length."""
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, top = max(0, x0), max(0, y0 - 12)
    if x1 - x0 < 4 or y1 <= y0:
        return None
    inked = np.abs(arr[top:y1, x0:x1].astype(np.int16) - np.asarray(bg, np.int16)).max(2) > 40
    on = inked.any(1)
    end = len(on) - int(np.argmax(on[::-1])) if on.any() else 0
    start = end
    while start > 0 and on[start - 1]:
        start -= 1
    window = inked[max(0, start - 12) : start]
    window = window[window.mean(1) <= 0.6]
    cols = np.nonzero(window.sum(0) >= 3)[0]
    if start < 3 or not len(cols) or cols[-1] - cols[0] > 2:
        return None
    spread = np.nonzero(window.any(0))[0]
    if spread[-1] - spread[0] > cols[-1] - cols[0] + 2:
        return None  # other ink beside the run: the foot of a line of text (an x tick label over the axis title)
    x = x0 + (cols[0] + cols[-1]) / 2
    return (float(x), top + start) if abs(x - (x0 + x1) / 2) <= (x1 - x0) / 4 else None


def block(arr: np.ndarray, lines: list[Line], m: Match, rules: Rules) -> Block | None:
    """The matched words of ``m`` grouped per line, with the type of the longest line; None when
    that line's box holds no ink."""
    segs: dict[int, list[int]] = {}
    for li, wi in m.words:
        segs.setdefault(li, []).append(wi)
    order = list(segs)
    boxes = [union_box(lines[li].words[wi].box for wi in segs[li]) for li in order]
    texts = [" ".join(lines[li].words[wi].text for wi in segs[li]) for li in order]
    k = max(range(len(order)), key=lambda i: len(texts[i]))
    ink, bg = box_colours(arr, boxes[k])
    words = [(lines[order[k]].words[wi].box, lines[order[k]].words[wi].text) for wi in segs[order[k]]]
    tick = tick_mark_above(arr, boxes[0], bg) if len(order) == 1 else None
    if tick is not None:  # an x tick label: its box cut to its own rows, below the tick mark
        boxes[0] = (boxes[0][0], max(boxes[0][1], tick[1]), boxes[0][2], boxes[0][3])
        words = [((b[0], max(b[1], tick[1]), b[2], b[3]), t) for b, t in words]
        ink, bg = box_colours(arr, boxes[0])
    style = match_type(arr, boxes[k], texts[k], ink, bg, rules.faces, words)
    if style is None:
        return None
    style = with_siblings(arr, lines, set(order), boxes[k], texts[k], words, style, rules.faces)
    n = len(order)
    lefts = [b[0] for b in boxes]
    tops = [b[1] for b in boxes]
    leading = min(segs[order[0]]) > 0  # words before the match on its first line
    pitch = float(np.median(np.diff(tops))) if n > 1 else round(style.size * 1.25)
    align = _alignment(arr, lines, segs, boxes, bg, leading)
    left = min(lefts[1:] if leading and n > 1 else lefts)
    right = max(b[2] for b in boxes)
    anchor_x = {"left": left, "centre": (left + right) / 2, "right": right}[align]
    if tick is not None:  # an x tick label: centred on its tick mark, however long the new text
        align, anchor_x = "centre", tick[0]
    indent = (lefts[0] - left) if leading and align == "left" else 0.0
    return Block(
        boxes,
        style,
        bg,
        align,
        float(anchor_x),
        float(right - left),
        pitch,
        style.baseline - k * pitch,
        float(indent),
        tuple(texts),
    )


def _registration(arr: np.ndarray, blk: Block, seen_rows) -> tuple[int, int]:
    """(dx, dy) pixels, each in -2..2, that best align the block's own text as OCR read it,
    laid out as the rewrite lays out rows (``seen_rows``: (coverage, origin, box) per line), with
    the pixels it stands for (coverage between the block's ink and background, over the lines'
    boxes): an OCR box is often a pixel off the ink, and a rewrite one pixel off its original is
    visible as a jump and makes other OCR engines split or join words. (0, 0) unless a shift
    lowers the mean absolute coverage difference by more than 5%."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = union_box([b for _, _, b in seen_rows] + list(blk.boxes))
    x0, y0, x1, y1 = max(0, x0 - 4), max(0, y0 - 4), min(W, x1 + 4), min(H, y1 + 4)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0, 0
    obs = coverage(arr[y0:y1, x0:x1], blk.style.ink, blk.bg)
    mask = np.zeros(obs.shape, bool)
    for b in blk.boxes:
        mask[max(0, b[1] - y0 - 2) : max(0, b[3] - y0 + 2), max(0, b[0] - x0 - 2) : max(0, b[2] - x0 + 2)] = True
    costs = {}
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            ren = np.zeros(obs.shape, np.float32)
            for alpha, (ox, oy), _ in seen_rows:
                ax, ay = ox + dx - x0, oy + dy - y0
                sy0, sx0 = max(0, -ay), max(0, -ax)
                ey, ex = min(alpha.shape[0], ren.shape[0] - ay), min(alpha.shape[1], ren.shape[1] - ax)
                if ey > sy0 and ex > sx0:
                    region = ren[ay + sy0 : ay + ey, ax + sx0 : ax + ex]
                    np.maximum(region, alpha[sy0:ey, sx0:ex], out=region)
            costs[(dx, dy)] = float(np.abs(ren - obs)[mask].mean()) if mask.any() else 0.0
    best = min(costs, key=lambda k: (costs[k], abs(k[0]) + abs(k[1])))
    return best if costs[best] < 0.95 * costs[(0, 0)] else (0, 0)


def _grow_over_touching_ink(arr: np.ndarray, box, bg, limit: int) -> tuple[int, int, int, int]:
    """``box`` widened, at most ``limit`` px each side, over columns holding ink (a pixel > 40 off
    ``bg``) that follow it with at most 2 blank columns between (the "." or "," OCR left out;
    a word space is wider)."""
    H, W = arr.shape[:2]
    x0, y0, x1, y1 = (int(v) for v in box)
    rows = arr[max(0, y0) : min(H, y1)].astype(np.int16)
    inked = (np.abs(rows - np.asarray(bg, np.int16)).max(2) > 40).any(0) if len(rows) else np.zeros(W, bool)
    hi, lo = min(W, int(box[2]) + limit), max(0, int(box[0]) - limit)
    while x1 < hi:
        ahead = np.nonzero(inked[x1 : min(hi, x1 + 3)])[0]
        if not len(ahead):
            break
        x1 += int(ahead[-1]) + 1
    while x0 > lo:
        behind = np.nonzero(inked[max(lo, x0 - 3) : x0])[0]
        if not len(behind):
            break
        x0 = max(lo, x0 - 3) + int(behind[0])
    return (x0, y0, x1, y1)


def fit_shift(old: tuple[int, int], alpha: np.ndarray, ox: int, align: str) -> int:
    """Horizontal shift (px) that keeps one rewritten row inside the old text's columns ``old``
    (``ink_span``): a rasteriser sets a glyph a pixel left or right of the engine's, and that
    pixel lands outside the element's box. The row's columns are those ``alpha`` (its coverage,
    (h, w) in [0, 1], drawn at x ``ox``) changes by at least 1/255. A row no wider than the old
    text is moved inside it; a wider one keeps its aligned edge inside it (its left edge when
    left-aligned, its right edge when right-aligned; a centred row stays centred). Moves of
    more than 2 px are not made (the layout, not the raster, differs then): 0."""
    cols = np.nonzero((alpha >= 1 / 255).any(0))[0]
    if not len(cols):
        return 0
    a, b = ox + int(cols[0]), ox + int(cols[-1]) + 1
    if b - a <= old[1] - old[0]:
        dx = max(0, old[0] - a) + min(0, old[1] - b)
    else:
        dx = {"left": max(0, old[0] - a), "right": min(0, old[1] - b)}.get(align, 0)
    return dx if abs(dx) <= 2 else 0


LEFT_EDGE = (2, 4)
"""Least and most offset (px) of a left-aligned row's first glyph from the old ink's left edge that
``keep_left_edge`` moves back: a pixel is the rasteriser's, over 4 px the layout's."""


def _same_letters(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` hold the same letters and digits, in any order (two words swapped:
    "Total 2,700" for "2,700 Total"). Set at the old text's size, the swapped centre label of a
    donut came out a pixel wider than the old one and, centred, ran a column past its box.
    Look-alikes are folded (``dropped_space.MERGED``): OCR read the swapped FAQ question "How do I my
    reset password?" as "How do! my reset ...", and the new line, not narrowed to the old one's
    width, ran 3 px past its box."""
    a, b = a.translate(MERGED), b.translate(MERGED)
    return sorted(c for c in a if c.isalnum()) == sorted(c for c in b if c.isalnum())


def _fit_row(arr: np.ndarray, blk: Block, placed, rows, shrink: float, shift):
    """One rewritten row fitted to the old text's columns (``ink_span``): set at the size that
    gives the old text, as OCR read it, its width on the page (``engine_size``; the new text too
    when it holds the same letters, ``_same_letters``), then moved by
    ``fit_shift``. ``shift``: the registration (dx, dy) already in ``placed``. Returns (placed,
    shrink)."""
    old = ink_span(arr, blk.boxes[0], blk.bg)
    if old is None:
        return placed, shrink
    face, size = blk.style.face, blk.style.size
    f = engine_size(face, size * shrink, blk.texts[0], old[1] - old[0]) / size
    if _same_letters(rows[0], blk.texts[0]):  # its words reordered: the engine gives them the old width
        f = min(f, engine_size(face, size * f, rows[0], old[1] - old[0]) / size)
    if f < shrink:
        (alpha, (ox, oy), b), (dx, dy) = set_rows(rows, face.font(size * f), blk, f)[0], shift
        placed, shrink = [(alpha, (ox + dx, oy + dy), (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy))], f
    (alpha, (ox, oy), b), sx = placed[0], fit_shift(old, placed[0][0], placed[0][1][0], blk.align)
    sx += keep_left_edge(old, alpha, ox + sx, blk.align, rows[0][:1] == blk.texts[0][:1])
    return [(alpha, (ox + sx, oy), (b[0] + sx, b[1], b[2] + sx, b[3]))], shrink


def keep_left_edge(old: tuple[int, int], alpha: np.ndarray, ox: int, align: str, same_first: bool) -> int:
    """Shift (px) that puts a left-aligned row whose first glyph is the old text's on the old
    ink's left edge (``old``: its columns), when it starts ``LEFT_EDGE`` px off it and the move
    keeps it inside the old columns; else 0. An engine sets a left-aligned line from one pen x,
    so the same first glyph starts where it did; the registration against OCR's read of the old
    line drifts when the read is off ("How do! my reset password?" for "How do I my reset ...",
    a space dropped): the rewritten FAQ question started 3 px right of the old left edge."""
    cols = np.nonzero((alpha >= 1 / 255).any(0))[0]
    if align != "left" or not same_first or not len(cols):
        return 0
    a, b = ox + int(cols[0]), ox + int(cols[-1]) + 1
    dx = old[0] - a
    return dx if LEFT_EDGE[0] <= abs(dx) <= LEFT_EDGE[1] and b + dx <= max(b, old[1]) else 0


def _with_margin(b, blk: Block) -> tuple[slice, slice]:
    """The rows and columns of box ``b`` grown by 1 px, but not above or below the old block's
    rows where ``b`` stays within them: the engine set the old text that close to what lies
    there (a chart title's descenders on the axes' top spine: the title with its missing word
    "quality", set in the old rows, was shrunk 9% for a margin the original never had)."""
    top, bottom = min(x[1] for x in blk.boxes), max(x[3] for x in blk.boxes)
    y0 = b[1] if b[1] >= top else b[1] - 1
    y1 = b[3] if b[3] <= bottom else b[3] + 1
    return slice(max(0, y0), max(0, y1)), slice(max(0, b[0] - 1), max(0, b[2] + 1))


def _best_layout(blk: Block, text: str, room: np.ndarray, max_trials: int):
    """The layout of ``text`` in ``blk`` that overlaps fewest busy pixels of ``room`` (first tried
    on ties): size x ``SHRINK`` outer, width x ``WIDEN`` inner, stopping at the first free one or
    after ``max_trials``. Returns ((overlap px, trial), rows laid out, font, shrink, row texts)."""
    n_orig = len(blk.boxes)
    best, trials = None, 0
    for shrink in SHRINK:
        fnt = blk.style.face.font(blk.style.size * shrink)
        for widen in WIDEN:
            trials += 1
            if trials > max_trials:
                break
            # the widest line's ink, plus the side bearings a pen advance adds (half an em)
            width = (blk.width + 0.5 * blk.style.size) * widen
            rows = [" ".join(text.split())] if n_orig == 1 else wrap(text, fnt, width, blk.indent)
            if n_orig == 1 and fnt.getlength(rows[0]) > width and widen == WIDEN[-1] and shrink == SHRINK[-1]:
                rows = wrap(text, fnt, width, 0.0)
            placed = set_rows(rows, fnt, blk, shrink)
            overlap = sum(int(room[_with_margin(b, blk)].sum()) for _, _, b in placed)
            key = (overlap, trials)
            if best is None or key < best[0]:
                best = (key, placed, fnt, shrink, rows)
            if overlap == 0:
                break
        if best is not None and best[0][0] == 0:
            break
    return best


def _other_lines(arr: np.ndarray, target: Rewrite) -> np.ndarray:
    """bool (H, W): the word boxes (grown by 1 px) of the lines the match ``target`` is not on,
    less the boxes of its own words (a descender of its own in the line below's box goes)."""
    keep, mine = np.zeros(arr.shape[:2], bool), np.zeros(arr.shape[:2], bool)
    own = {li for li, _ in target.match.words}
    for li, ln in enumerate(target.lines):
        for wd in ln.words:
            x0, y0, x1, y1 = wd.box
            if li in own:
                mine[max(0, y0) : y1, max(0, x0) : x1] = True
            else:
                keep[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1] = True
    return keep & ~mine


def rewrite(state: EditState, target: Rewrite, exp: TextExpectation, rules: Rules) -> Skip | Written:
    """Erase the near match ``target`` from ``state.arr`` and typeset ``exp.text`` as one block in
    its type (module docstring). Written "replace" (or "replace (outside its place: fixed where
    it is)" for a match outside the check's region), or a Skip when the match holds no ink."""
    arr, m = state.arr, target.match
    blk = block(arr, target.lines, m, rules)
    if blk is None:
        return Skip("skip: no ink in the matched box", m.box, m.text)
    blk = with_unread_mark(arr, blk, exp.text)  # a symbol OCR dropped before the words ("&")
    if target.centre is not None:  # centred where the page centres it (a value over its bar)
        blk.align, blk.left = "centre", float(target.centre)
    elif target.right is not None:  # ending where the page ends it (a link of a right-aligned menu)
        blk.align, blk.left = "right", float(target.right)
    # OCR often drops a word's trailing punctuation: grow each box over ink that touches it
    blk.boxes = [_grow_over_touching_ink(arr, b, blk.bg, round(0.35 * blk.style.size)) for b in blk.boxes]
    pads = [max(2, round(0.15 * (b[3] - b[1]))) for b in blk.boxes]
    erase_boxes = [(b[0] - p, b[1] - p, b[2] + p, b[3] + p) for b, p in zip(blk.boxes, pads)]
    room = state.busy.copy()
    for x0, y0, x1, y1 in erase_boxes:
        room[max(0, y0 - 2) : y1 + 2, max(0, x0 - 2) : x1 + 2] = False
    (overlap, _), placed, fnt, shrink, rows = _best_layout(blk, exp.text, room, rules.max_layout_trials)
    dx, dy = _registration(arr, blk, set_rows(list(blk.texts), blk.style.face.font(blk.style.size), blk, 1.0))
    placed = [
        (alpha, (ox + dx, oy + dy), (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)) for alpha, (ox, oy), b in placed
    ]
    if len(blk.boxes) == 1 and len(rows) == 1:  # the row stays in the old text's columns
        placed, shrink = _fit_row(arr, blk, placed, rows, shrink, (dx, dy))
        # its end columns inked only where the old glyphs' overhang was (measured before the erase)
        was, now = " ".join(blk.texts).strip(), exp.text.strip()
        ends = (was[:1] == now[:1], was[-1:] == now[-1:])  # an end with another glyph keeps its own edge
        placed = [(trim_edges(a, o, arr, blk.boxes[0], blk.style.ink, blk.bg, *ends), o, b) for a, o, b in placed]
    # the strokes as heavy as the engine's text they replace (measured before the erase)
    k = weight_gamma(arr, blk.boxes, blk.texts, blk.style.face.font(blk.style.size), blk.style.ink, blk.bg)
    keep = _other_lines(arr, target)  # the padding never reaches into another line's ink
    for b in erase_boxes:
        erase(arr, b, keep=keep)
    ink_boxes = []
    for alpha, origin, box in placed:
        composite(arr, heavier(alpha, k), origin, blk.style.ink)
        ink_boxes.append(box)
    face = blk.style.face
    info = {
        "family": face.family,
        "bold": face.bold,
        "italic": face.italic,
        "size": round(blk.style.size * shrink, 2),
        "align": blk.align,
        "lines": len(rows),
        "match_score": round(blk.style.score, 3),
    }
    if k != 1.0:
        info["weight_gamma"] = k
    if overlap:
        info["overlap_px"] = overlap
    boxes = erase_boxes + ink_boxes
    # the corrected text is a neighbour for the strings placed after it
    rows_lines = tuple(Line(tuple(Word(t, b) for t in row.split())) for row, b in zip(rows, boxes[-len(rows) :]))
    in_place = in_region(m.box, exp.region, state.w, state.h)
    action = "replace" if in_place else "replace (outside its place: fixed where it is)"
    return Written(action, m.box, boxes, info, rows_lines, m.text, tuple(m.words))
