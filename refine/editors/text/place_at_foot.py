"""A missing source line, footnote or footer: written at the page's foot, as a designer would.

The slot is one line at the bottom of the page, aligned as the page is (``foot_alignment``):
left-aligned with the page's left text edge (its title's left edge: ``_left_edge``), centred on the page
when its title is centred or most of its lines are (a poster, a menu), right-aligned on its right
text edge when its title is set there; its baseline ``FOOT_BASELINE`` em above the bottom edge (a
bottom margin of about one line, as matplotlib's ``fig.text`` source notes and a browser page's
left-set footer sit: 1.35-1.5 em on the engine pages of ``documents/engines``), ``FOOT_BASELINE_CENTRED``
on a centred page (a poster's or menu's deeper bottom margin), and below every line on the page by
at least half an em. A page that ends in a bar of its own colour (``foot_band``: a landing page's
footer bar) takes the line in the bar, centred in it (or where the bar, drawn empty, grown upwards
would hold it). The type is the page's body face (``page.body_type``) in its regular upright
weight (``_plain``) at ``FOOT_SCALE`` of the size of the page's smallest text (a source note is
set a point or two under the tick labels), kept within ``FOOT_PX`` (a screen page's footer size),
in the ink of its lowest line (a chart's axis title, a page's last paragraph; white on a dark bar)
toned ``FOOT_TONE`` towards the colour under it: a source line is set smaller and lighter than the
text it notes. The slot must be clear: nothing drawn there (no ink darker than a faint gridline)
and no OCR word. When no such slot exists the string is skipped with the reason.
"""

from __future__ import annotations

import numpy as np
from rapidfuzz.distance import OSA

from refine.editors.text.colours import box_colours
from refine.editors.text.erase import composite
from refine.editors.text.look_harder import page_background
from refine.editors.text.outcomes import Skip, Written
from refine.editors.text.state import EditState, Rules
from refine.editors.text.type_match import match_type, render_coverage
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Word, normalize

FOOT_SCALE = 0.85
FOOT_PX = (12.0, 13.5)
"""Least and most size (px) of a foot line: a screen page's footer is set at about 12-13 px
whatever its body size (Chromium's CSS "small" is 13 px; on the dev engine pages every footer and
source note is 12-13.2 px, matplotlib's source notes 12.3-12.8 px at 100 dpi), where
``FOOT_SCALE`` of the smallest text read 10.2-15.3 px on Chromium's (a 13 px bold badge, 18 px menu
items). For pages drawn at one CSS px a pixel (or 100 dpi): on a page wider than ``SCREEN_PX``
both ends grow with the width, a page of 1920 px (a slide export) taking 18-20 px."""
SCREEN_PX = 1280
"""Widest page (px) taken as drawn at one CSS px a pixel (a laptop's CSS viewport); a wider page
is taken as drawn at ``width / SCREEN_PX`` pixels a CSS px (a 2x screenshot, a slide export)."""
SMALLEST = 3
"""Lines (the lowest boxes) whose matched size gives the page's smallest text size."""
FOOT_BASELINE = 1.4
"""Height (em of the foot line's type) of the foot line's baseline above the page's bottom edge."""
CENTRED = 0.6
"""Share of the page's lines (of >= 4 letters) centred on the page (within 2% of its width) above
which the page is set centred and its foot line too."""
FOOT_TONE = 0.4
"""Share of the way from the ink to the page background a foot line's colour is set."""
CLEAR = 40
"""Most difference (any channel) from the page background of a pixel in a clear slot."""
EDGE = 0.01
"""How far (share of the page's width) left of the title's ink a line may start on its text edge."""
FOOT_BASELINE_CENTRED = 2.1
"""Height (em) of a centred page's foot line's baseline above its bottom edge: a centred poster or
menu leaves a deeper bottom margin under its footer (Chromium, dev: 1.9 em on the posters, 2.3 em
on the menus, where the left-set slides, tables and dashboards set theirs 1.5 em up)."""
INSET = 0.1
"""Share of the page's width past which a centred title starts well inside the page."""
FIGURE_MARGIN = 0.02
"""Share of the page's width and height from its left and bottom edges of a foot line's ink left
edge and baseline on a left-set page whose title starts past ``INSET`` (centred over the plot,
``ax.set_title``): nothing on the page gives the note's edge then, and matplotlib's figure notes
(``fig.text(x, y)`` at figure fractions) stand in its bottom-left corner (0.01-0.02 of the width and
height on the testers' charts, where a note on the title's left edge stood 250 px right of it)."""
BAND = 0.9
"""Share of a row's pixels within ``CLEAR`` of the band colour for the row to be the band's."""
BAND_MAX = 0.15
"""Most height (share of the page's) of a band the page ends in."""
BAR_PAD = 0.8
"""Least padding (em) above and below a line centred in the band the page ends in."""
LAST_ROW = 0.4
"""Least similarity (OSA, case ignored) of the page's lowest row, its OCR pieces joined, to the
string for the row to be taken as the string read poorly (``_last_row_reads``): an unrelated
last line (a chart's base note under a survey, its title) scores 0.17-0.25 against a footer."""


def _clear(arr: np.ndarray, box, lines: list[Line], under: np.ndarray) -> bool:
    """Whether ``box`` holds no ink (no pixel further than ``CLEAR`` from the colour ``under`` it,
    (3,)) and no OCR word of ``lines``."""
    x0, y0, x1, y1 = box
    crop = arr[y0:y1, x0:x1].astype(np.int16)
    if crop.size == 0 or (np.abs(crop - under[None, None]).max(2) > CLEAR).any():
        return False
    boxes = [wd.box for ln in lines for wd in ln.words]
    return not any(min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]) for b in boxes)


def _centred(lines: list[Line], w: int) -> bool:
    """Whether the page's lines of at least four letters are mostly centred (``CENTRED``)."""
    texts = [ln for ln in lines if sum(c.isalpha() for c in ln.text) >= 4]
    mid = [abs((ln.box[0] + ln.box[2]) / 2 - w / 2) <= 0.02 * w for ln in texts]
    return bool(texts) and sum(mid) >= CENTRED * len(texts)


def _title(lines: list[Line]) -> Line | None:
    """The page's title line: the tallest horizontal line (wider than tall: not a y-axis title
    read bottom to top) of at least four letters (the topmost of equals)."""
    texts = [
        ln for ln in lines if sum(c.isalpha() for c in ln.text) >= 4 and ln.box[2] - ln.box[0] > ln.box[3] - ln.box[1]
    ]
    return max(texts, key=lambda ln: (ln.box[3] - ln.box[1], -ln.box[1]), default=None)


def foot_alignment(lines: list[Line], w: int) -> str:
    """How a foot line of a page ``w`` px wide with OCR ``lines`` is aligned: "centre", "right" or
    "left". A designer sets the footer as the page's title: on the engine pages of
    ``documents/engines`` (dev, 24 pages) every footer and source note has its title's alignment,
    centred on the posters and menus, left on the charts, slides and dashboards. A title off the
    left text edge (by more than 2% of ``w``) whose middle is within 2% of the page's middle is
    centred, one whose right end is on the right text edge is right-aligned; else the page is
    centred when most of its lines are (``CENTRED``), left otherwise. A poster whose centred
    title block sat above a longer left-aligned list voted left (5 of 9 lines centred), and its
    footer was written on the left edge where the engine centred it (628 px changed outside the
    footer's box). A title centred on the page that starts past ``INSET`` of its width is centred
    though a line starts as far left as it (dev chromium-poster-9: its wide title "City Jazz Night"
    at x 105 of 640, a line at 103; the footer went left at x 103, 828 px outside the engine's)."""
    title = _title(lines)
    if title is not None:
        left, right = min(ln.box[0] for ln in lines), max(ln.box[2] for ln in lines)
        x0, _, x1, _ = title.box
        mid = abs((x0 + x1) / 2 - w / 2) <= 0.02 * w
        if mid and x0 > INSET * w:
            return "centre"
        if x0 > left + 0.02 * w:
            if mid:
                return "centre"
            if x1 >= right - 0.02 * w:
                return "right"
    return "centre" if _centred(lines, w) else "left"


def _left_edge(lines: list[Line], w: int) -> int:
    """The page's left text edge (px): the leftmost start of its lines that start on its title's
    left edge or up to ``EDGE`` of the page's width ``w`` left of it (a bold title's ink starts a
    pixel or two right of the subtitle's and the source note's, all set at one x); the leftmost
    start of its lines when it has no title line. A horizontal bar chart's category labels,
    right-aligned to the axis, start further left (19 px where the title and matplotlib's source
    note start at 35), and the source line written there ran 16 px left of the engine's."""
    title = _title(lines)
    if title is None:
        return min(ln.box[0] for ln in lines)
    x0 = title.box[0]
    return min(ln.box[0] for ln in lines if x0 - EDGE * w <= ln.box[0] <= x0)


def _size(arr: np.ndarray, lines: list[Line], faces, face) -> float | None:
    """The em size (px) of the page's smallest text, in ``face``: the smallest matched size of
    its ``SMALLEST`` lowest lines of at least three letters (a tick label "Jan" counts; one line's
    box height alone misjudges a line without ascenders). Each is matched in ``face`` and its bold
    weight among ``faces``: a line chart's smallest lines are its bold line-end labels, which in the
    plain face alone read about 10% large (16.5 px for 15)."""
    cands = sorted((ln for ln in lines if sum(c.isalpha() for c in ln.text) >= 3), key=lambda ln: ln.box[3] - ln.box[1])
    bold = next((f for f in faces if f.family == face.family and f.bold and not f.italic), None)
    sizes = []
    for small in cands[:SMALLEST]:
        ink, bg = box_colours(arr, small.box)
        words = [(wd.box, wd.text) for wd in small.words]
        style = match_type(arr, small.box, small.text, ink, bg, [face] + ([bold] if bold else []), words)
        if style is not None:
            sizes.append(style.size)
    return min(sizes) if sizes else None


def _plain(face, faces):
    """The regular upright face of ``face``'s family among ``faces`` (``face`` when none): a
    source line or footnote is set in the plain weight, whatever the page's longest lines use.
    A line chart whose longest lines are bold (its title, its bold line-end labels) voted a bold
    body face; the source line came out bold, and the tick labels its size is read from,
    matched in bold, gave a size 10% small (11.05 px for matplotlib's 12.3 px source note), its
    baseline a pixel low, its descenders past the engine's box."""
    return next((f for f in faces if f.family == face.family and not f.bold and not f.italic), face)


def foot_band(arr: np.ndarray) -> tuple[int, np.ndarray] | None:
    """The band the page ends in: (its top row, its colour (3,)) when the page's bottom rows are one
    colour (``BAND`` of each row's pixels within ``CLEAR`` of its bottom row's median) other than the
    page background, up to ``BAND_MAX`` of the page's height; None otherwise. A landing page's
    footer sits in such a bar (Chromium, dev: a 48 px bar under 600, its footer's line box centred
    in it), and the page's foot above the bar is no place for it."""
    h = arr.shape[0]
    colour = np.median(arr[-1].astype(np.float64), 0)
    if np.abs(colour - page_background(arr)).max() <= CLEAR:
        return None
    start = max(0, h - int(BAND_MAX * h) - 1)  # a band reaching above this is too tall: only these rows are read
    close = (np.abs(arr[start:].astype(np.int16) - colour[None, None]).max(2) <= CLEAR).mean(1) >= BAND
    top = h
    while top > start and close[top - 1 - start]:
        top -= 1
    return (top, colour) if 0 < h - top <= BAND_MAX * h else None


def _slot_y(arr, band, fnt, size, align, by0) -> tuple[int, np.ndarray]:
    """(top row of the foot line's ink, the colour under it (3,)). In the ``band`` the page ends in
    (``foot_band``): its line box (the font's ascent and descent) centred in the band, as a browser
    centres a line in a bar's even padding; but a band too low for that (under ``BAR_PAD`` em of
    padding each side) was drawn empty, its padding alone, and a bar anchored to the page's bottom
    grows upwards to hold the line: the line box's bottom goes half the band's height (its bottom
    padding) above the page's bottom edge (Chromium, dev chromium-landing-20: the empty bar is
    32 px, its footer's box 568-583 of 600 on the clean page). Else the baseline ``FOOT_BASELINE``
    em (``FOOT_BASELINE_CENTRED`` on a centred page) above the bottom edge."""
    h = arr.shape[0]
    if band is not None:
        top, colour = band
        asc, desc = fnt.getmetrics()
        if (h - top - asc - desc) / 2 >= BAR_PAD * size:
            return int(round((top + h) / 2 + (asc - desc) / 2 + by0)), colour
        return int(round(h - (h - top) / 2 - desc + by0)), colour
    depth = FOOT_BASELINE_CENTRED if align == "centre" else FOOT_BASELINE
    return int(round(h - depth * size + by0)), page_background(arr)


def _ink(arr, lowest: Line, under: np.ndarray) -> tuple[int, int, int]:
    """The foot line's colour: its page's lowest line's ink toned ``FOOT_TONE`` towards the colour
    ``under`` it; in a band the page ends in, white on a dark band (black on a light one), untoned,
    as a bar's text is set (Chromium's landing footers: white on the bar; toned, dev
    chromium-landing-20's footer was grey on navy and tesseract did not read it)."""
    page = page_background(arr)
    if np.abs(under - page).max() > CLEAR:
        return (255, 255, 255) if under.mean() < 128 else (0, 0, 0)
    ink, _ = box_colours(arr, lowest.box)
    return tuple(int(round((1 - FOOT_TONE) * c + FOOT_TONE * p)) for c, p in zip(ink, under))


def _title_over_plot(lines: list[Line], title: Line | None, w: int) -> bool:
    """Whether the ``title`` of a page ``w`` px wide starts past ``INSET`` of its width with no
    other line of four letters or more starting on its left edge (within ``EDGE``): a title centred
    over a chart's plot, not the head of a column of text (a page's centred container, whose footer
    takes the column's left edge)."""
    if title is None or title.box[0] <= INSET * w:
        return False
    return not any(
        ln is not title and sum(c.isalpha() for c in ln.text) >= 4 and abs(ln.box[0] - title.box[0]) <= EDGE * w
        for ln in lines
    )


def _last_row_reads(lines: list[Line], text: str) -> str | None:
    """The OCR text of the page's lowest row (its lines whose middles lie within half its lowest
    line's height, left to right) when it reads as a version of ``text`` (OSA similarity at least
    ``LAST_ROW``, case ignored), else None. A footer set small and grey is read in pieces ("To",
    "jubs", "motec", "the b", ...); matched piece by piece it was not found, and a second footer was
    written under the card (the eleventh tester's league table, 1636 px)."""
    lowest = max(lines, key=lambda ln: ln.box[3])
    mid, hgt = (lowest.box[1] + lowest.box[3]) / 2, lowest.box[3] - lowest.box[1]
    row = sorted((ln for ln in lines if abs((ln.box[1] + ln.box[3]) / 2 - mid) <= hgt / 2), key=lambda ln: ln.box[0])
    read = " ".join(ln.text for ln in row)
    sim = OSA.normalized_similarity(normalize(text, case_sensitive=False), normalize(read, case_sensitive=False))
    return read if sim >= LAST_ROW else None


def place_at_foot(state: EditState, exp: TextExpectation, rules: Rules) -> Written | Skip | None:
    """Write ``exp.text`` in the page's foot slot (module docstring): Written, a Skip when the slot
    is taken or too narrow, None when the page has no lines to measure it by."""
    arr, lines = state.arr, state.lines + state.placed_lines
    h, w = arr.shape[:2]
    band = foot_band(arr)
    if band is not None:  # lines read inside the band (OCR of its edges) are not the page's
        lines = [ln for ln in lines if ln.box[3] <= band[0]]
    if not lines:
        return None
    if (read := _last_row_reads(lines, exp.text)) is not None:
        return Skip(f"skip: the page's last line ({read[:40]!r}) may be it, read in pieces; not writing a second copy")
    body = state.body_type(rules.faces).style
    face = _plain(body.face, rules.faces)
    smallest = FOOT_SCALE * (_size(arr, lines, rules.faces, face) or body.size)
    size = float(np.clip(smallest, *(px * max(1.0, w / SCREEN_PX) for px in FOOT_PX)))
    fnt = face.font(size)
    alpha, (_, by0, _, _) = render_coverage(exp.text, fnt)
    ah, aw = alpha.shape
    align = foot_alignment(lines, w)
    title = _title(lines)
    on_figure = band is None and align == "left" and _title_over_plot(lines, title, w)
    margin = round(FIGURE_MARGIN * w) if on_figure else _left_edge(lines, w)
    right_edge = max(ln.box[2] for ln in lines)
    left = {"centre": round(w / 2 - aw / 2), "right": right_edge - aw}.get(align, margin)
    lowest = max(lines, key=lambda ln: ln.box[3])
    oy, under = _slot_y(arr, band, fnt, size, align, by0)
    if on_figure:
        oy = int(round(h - FIGURE_MARGIN * h + by0))
    box = (left, oy, left + aw, oy + ah)
    side = min(ln.box[0] for ln in lines) if align == "centre" else margin
    inside = left >= side and box[2] <= (right_edge if align == "right" else w - side)
    if not inside or oy < lowest.box[3] + 0.5 * size or box[3] > h:
        return Skip("skip: missing, and the page's foot has no free line for it; not written loose")
    pad = max(2, round(0.3 * size))
    slot = (max(0, left - pad), max(0, oy - pad), min(w, box[2] + pad), min(h, box[3] + pad))
    if not _clear(arr, slot, [] if band is not None else lines, under):
        return Skip("skip: missing, and the slot at the page's foot is taken; not written loose")
    composite(arr, alpha, (left, oy), _ink(arr, lowest, under))
    info = {"family": face.family, "bold": face.bold, "italic": face.italic, "size": size, "align": align,
            "lines": 1, "at_foot": True, "in_band": band is not None}  # fmt: skip
    line = Line(tuple(Word(t, box) for t in exp.text.split()))
    return Written("place (at the page's foot)", box, [box], info, (line,))
