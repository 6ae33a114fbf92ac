"""The layout judge: decides page-layout checks from pixels, with fixed rules on luminance.

A code judge like :class:`rewards.judges.ocr.OCRJudge`, for checks about where the dark and
light parts of a page are (a title band, a card, bars, how much ink) rather than what the text
says. It answers only the questions of its phrase table (:data:`PHRASES`), matched exactly after
folding case and runs of whitespace; ``can_answer`` is False for every other question, so a
router hands those to a VLM or to no one (a check passes only for what was measured).

Measurements (all on the image's luminance, PIL ``convert("L")`` = ITU-R 601
0.299 R + 0.587 G + 0.114 B, divided by 255 so that black = 0 and white = 1; regions are
fractions of the height and width, rounded to whole pixels with at least one pixel each, so the
same rule reads a 16 px and a 1024 px page alike):

* **clearly darker / lighter**: a difference of mean luminance of at least :data:`CLEAR`
  (0.15): white against light grey (1.0 vs 0.85), mid-grey against dark grey (0.5 vs 0.35), a
  step anyone sees at a glance. A band only a little darker (a 0.05 tint) is not "dark".
* **at least slightly darker / lighter**: a difference of at least :data:`SLIGHT` (0.02),
  about the just-noticeable difference of luminance between two large uniform fields (Weber
  fraction 1-2% of white). These questions say "at least slightly" and ask no more.
* **noticeably darker / lighter**: at least :data:`NOTICEABLE` (0.075, half of ``CLEAR``): a
  difference one sees without looking for it, short of a clear contrast.
* **ink**: a pixel darker than mid-grey (luminance < :data:`INK_LEVEL` = 0.5): text, bars
  and rules on a light page are ink, the page is not.
* **top band** ("Is there a dark title band across the top of the page?"): the top :data:`BAND`
  (20%) of the rows (bottom band: the bottom 20%, with "below" read as "above" throughout). A
  person sees a band where the page *directly below it* is clearly lighter, so the band is
  compared with the next :data:`BAND` rows below it ("the rows below"), not only with the whole
  rest of the page (a black page with a white strip at the bottom has a rest of mean 0.25, yet
  no band: the rows under the top are as black as it). Yes when all three hold:

  - the band's mean is at least ``CLEAR`` darker than the rows below (the edge one sees);
  - and at least ``CLEAR`` darker than the whole rest of the page (dark for the page as a
    whole: a grey top over a light strip on a page darker than the top is no dark band);
  - "across" the page: each quarter of the band's width is at least ``CLEAR / 2`` darker than
    the rows below and than the rest of the page (both means over the full width, so one tall
    bar touching the band under one quarter does not undo it), so a dark patch in one corner is
    no band.
* **card** ("Is there a light card in the left half of the page?"): the box from 5% to 45% of
  the width (left half; right half: 55% to 95%) and 30% to 90% of the height (below a title
  band). A card is a light box that stands out from *its own surroundings*, so the box is
  compared with its frame: the rest of the same half from the bottom of a title band (20% of
  the height) down, in four sides (above the box, below it, and the columns left and right of
  it inside the half; a side thinner than a pixel is not measured). Yes when all hold:

  - the box's mean luminance is at least :data:`LIGHT` (0.6, lighter than mid-grey) itself;
  - it is at least ``CLEAR`` above the mean of the whole frame (it stands out in its half: a
    white left half beside a black right half has no card, its box is as white as its frame);
  - it is at least ``CLEAR / 2`` above at least :data:`CARD_EDGES` (3) of the 4 sides of the
    frame: a box shows an edge on its sides (one side may meet the middle of the page, a band
    or the page's edge and still read as a card), while a wedge of light over a dark triangle,
    or the light page over a bar chart's bars, shows edges on two sides (below and towards the
    middle) and none above or at the page's edge;
  - and at least ``CLEAR`` above the same box in the other half (the card is in *this* half).
* **bars** ("Do the bars rise from left to right?"): a column's height is its ink share (ink
  pixels / the column's pixels, in [0, 1]); the floor is the lowest column height on the page
  (0 on a blank margin, the share of a title band or axis line that crosses every column). A
  column is inked when it is at least :data:`BAR_MIN` (0.05, a twentieth of the page's height:
  shorter is a rule or a line of text, not a bar) above the floor; a bar is a run of adjacent
  inked columns at least :data:`BAR_MIN_WIDTH` (2% of the width, at least one pixel: narrower
  is an axis, a rule or a text stroke, and is left out) wide, separated from the next by at
  least one column that is not inked (a gap). A bar's height is the mean height of its columns.
  Bars "rise from left to right" when there are at least :data:`MIN_BARS` (3) bars, each at
  least :data:`BAR_STEP` (0.02 of the height, a step one sees side by side) taller than the one
  on its left, and the last at least :data:`BAR_RISE` (0.2, a fifth of the page's height)
  taller than the first; "fall": the mirror image. A solid triangle or a staircase of touching
  blocks is one run, so no bars; a person reads bars as separate shapes.
* **no card** ("Is the page free of light cards?"): yes when the card rule above finds no card
  in either half: what a bar chart or a plain page is, and a slide with its card is not.
* **light background** ("Is the page's background white or nearly white?"): the median
  luminance of the page (its background, wherever less than half of it is drawn on) is within
  ``CLEAR`` of white (>= 0.85): a chart's white, cream or light grey page is, a slide's grey
  body (0.6) is not.
* **weaker questions** (brightness tilts, not shapes; left as loose as their words): "Is the
  top (bottom) of the page at least slightly / noticeably darker than the rest of the page?"
  compares the top (bottom) 20% with every other row; "Is the left (right) half at least
  slightly / noticeably lighter than the other half?" compares the two halves; "Does ink
  increase (decrease) at least slightly / noticeably?" compares the ink shares of the first and
  last of :data:`BAR_GROUPS` (4) equal column groups (fewer on a page narrower than 4 px). A
  dark page with a light strip at the bottom *is* darker at the top, and a triangle's ink
  *does* increase: these say yes where the shape questions say no, as a person would.
* **bars rise at least slightly / noticeably** ("Do the bars rise at least slightly from left to
  right?"): the bars of the strict rule (:func:`bar_runs`), at least ``MIN_BARS`` of them, the last
  at least :data:`SLIGHT_RISE` / :data:`NOTICEABLE_RISE` taller than the first, with no rule on
  the steps between (the strict rule's lower rungs: a chart whose bars are there but merge or
  stand unevenly). Unlike the ink tilt below, a light block on the left of a page or a dark
  right edge passes it only when the page still has three separate bars.
* **ink at least slightly / noticeably increases**: the last group's ink share is at least
  :data:`SLIGHT_RISE` (0.05) / :data:`NOTICEABLE_RISE` (0.1, half of ``BAR_RISE``) above the first's.
* **ink coverage**: the ink share of the whole page, in percent, within [low, high]
  (inclusive) of the question.

Deterministic, numpy only: one luminance array per image, every check read from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image

from rewards.rubric import Check, Verdict, withheld

CLEAR = 0.15
"""Mean-luminance difference (black 0, white 1) that a person calls clearly darker or lighter."""
SLIGHT = 0.02
"""Mean-luminance difference of "at least slightly": about the just-noticeable difference."""
NOTICEABLE = 0.075
"""Mean-luminance difference of "noticeably": half of ``CLEAR``, seen without looking for it."""
INK_LEVEL = 0.5
"""A pixel is ink when its luminance is below this (darker than mid-grey)."""
LIGHT = 0.6
"""A "light" card's own mean luminance is at least this."""
BAND = 0.2
"""A top or bottom band is this fraction of the page's height."""
BAR_GROUPS = 4
"""Column groups the "ink increases" rules compare (fewer when the page is narrower)."""
BAR_RISE = 0.2
"""Bars rise when the last bar is at least this (a fifth of the page's height) taller than the first."""
BAR_STEP = 0.02
"""Each bar is at least this (2% of the page's height) taller than the one on its left: a step one sees."""
BAR_MIN = 0.05
"""A column is inked (part of a bar) when its ink share is this (a twentieth of the height) above the floor."""
BAR_MIN_WIDTH = 0.02
"""A bar is at least this fraction of the width wide (and at least a pixel): narrower is an axis or a stroke."""
MIN_BARS = 3
"""Bars rise or fall only when there are at least this many separate bars (two make a pair, not a trend)."""
SLIGHT_RISE = 0.05
"""Ink "at least slightly" increases when the last group's ink share is this above the first's."""
NOTICEABLE_RISE = 0.1
"""Ink "noticeably" increases when the last group's ink share is this above the first's (half of ``BAR_RISE``)."""

DEGREES = {"at least slightly": (SLIGHT, SLIGHT_RISE), "noticeably": (NOTICEABLE, NOTICEABLE_RISE)}
"""Degree word of a question -> (luminance difference, ink-share rise) it asks for."""

CARD_COLUMNS = {"left": (0.05, 0.45), "right": (0.55, 0.95)}
"""Column span of a card in each half, as fractions of the width."""
CARD_ROWS = (0.3, 0.9)
"""Row span of a card, as fractions of the height (below a title band)."""
CARD_FRAME_TOP = BAND
"""The card's frame starts below a title band (this fraction of the height), so a band is not its frame."""
CARD_EDGES = 3
"""A card has a visible edge (its frame side ``CLEAR / 2`` darker) on at least this many of its 4 sides."""

_OTHER = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}


def luminance(image: Image.Image) -> np.ndarray:
    """The image's luminance, float64 (H, W) in [0, 1] (PIL ``convert("L")`` / 255)."""
    return np.asarray(image.convert("L"), dtype=np.float64) / 255.0


def _span(n: int, lo: float, hi: float) -> slice:
    """Pixels [lo * n, hi * n) as a slice of at least one pixel."""
    a = min(int(round(lo * n)), n - 1)
    return slice(a, max(a + 1, int(round(hi * n))))


def _band_rows(h: int, side: str) -> tuple[slice, slice | None]:
    """(band rows, rows of the rest) for the top or bottom band; rest None on a 1-row page."""
    k = max(1, int(round(BAND * h)))
    if k >= h:
        return slice(0, h), None
    return (slice(0, k), slice(k, h)) if side == "top" else (slice(h - k, h), slice(0, h - k))


def _groups(ink: np.ndarray) -> list[float]:
    """Ink share of each of ``BAR_GROUPS`` equal column groups (left to right)."""
    w = ink.shape[1]
    g = min(BAR_GROUPS, w)
    edges = [round(i * w / g) for i in range(g + 1)]
    return [float(ink[:, edges[i] : edges[i + 1]].mean()) for i in range(g)]


@dataclass(frozen=True)
class Rule:
    """One row of the phrase table.

    Attributes:
        name: the rule's name (recorded in the evidence).
        pattern: the question, a regex matched in full against the folded question.
        example: a question it answers, as written in a rubric.
        measure: ``(luminance (H, W), match) -> (passed, reason, evidence)``.
    """

    name: str
    pattern: re.Pattern
    example: str
    measure: Callable[[np.ndarray, re.Match], tuple[bool, str, dict[str, Any]]]


def _dark_band(lum, m):
    side = m.group(1)
    h, w = lum.shape
    band_rows, rest_rows = _band_rows(h, side)
    if rest_rows is None:
        return False, "the page is one row high: no band and page below it to compare", {}
    k = band_rows.stop - band_rows.start
    # the next k rows beyond the band (below a top band, above a bottom band): the page directly next to it
    near_rows = slice(k, min(h, 2 * k)) if side == "top" else slice(max(0, h - 2 * k), h - k)
    band, rest, near = lum[band_rows], lum[rest_rows], lum[near_rows]
    b, r, n = float(band.mean()), float(rest.mean()), float(near.mean())
    quarters = [float(band[:, s].mean()) for s in (_span(w, i / 4, (i + 1) / 4) for i in range(4))]
    weakest = max(quarters)  # the lightest quarter of the band
    ref = min(n, r)  # the darker of the two the band must stand out from
    ok = n - b >= CLEAR and r - b >= CLEAR and ref - weakest >= CLEAR / 2
    where = "below" if side == "top" else "above"
    ev = {
        "band_mean": round(b, 4),
        "next_mean": round(n, 4),
        "rest_mean": round(r, 4),
        "band_quarters": [round(q, 4) for q in quarters],
    }
    reason = (
        f"{side} band mean luminance {b:.3f} vs the rows just {where} it {n:.3f} (difference {n - b:.3f}, "
        f"need >= {CLEAR}) and vs rest of page {r:.3f} (difference {r - b:.3f}, need >= {CLEAR}); "
        f"lightest quarter of the band {weakest:.3f} (need <= {ref - CLEAR / 2:.3f})"
    )
    return ok, reason, ev


def _slightly_darker_end(lum, m):
    side, (need, _) = m.group(1), DEGREES[m.group(2)]
    band_rows, rest_rows = _band_rows(lum.shape[0], side)
    if rest_rows is None:
        return False, "the page is one row high: nothing to compare", {}
    b, r = float(lum[band_rows].mean()), float(lum[rest_rows].mean())
    ok = r - b >= need
    reason = f"{side} {BAND:.0%} mean luminance {b:.3f} vs rest {r:.3f} (difference {r - b:.3f}, need >= {need})"
    return ok, reason, {"band_mean": round(b, 4), "rest_mean": round(r, 4)}


def _card_frame(h: int, w: int, side: str, rows: slice, cols: slice) -> dict[str, tuple[slice, slice]]:
    """The sides of the card box's frame inside its half, from below a title band down: name ->
    (rows, columns); a side thinner than a pixel is left out."""
    half = slice(0, w // 2) if side == "left" else slice(w - w // 2, w)
    top = min(int(round(CARD_FRAME_TOP * h)), rows.start)
    sides = {
        "above": (slice(top, rows.start), half),
        "below": (slice(rows.stop, h), half),
        "left of": (rows, slice(half.start, cols.start)),
        "right of": (rows, slice(cols.stop, half.stop)),
    }
    return {k: (r, c) for k, (r, c) in sides.items() if r.stop > r.start and c.stop > c.start}


def _light_card(lum, m):
    side = m.group(1)
    h, w = lum.shape
    rows, cols = _span(h, *CARD_ROWS), _span(w, *CARD_COLUMNS[side])
    box = lum[rows, cols]
    card = float(box.mean())
    other = float(lum[rows, _span(w, *CARD_COLUMNS[_OTHER[side]])].mean())
    frame = _card_frame(h, w, side, rows, cols)
    if not frame:
        return False, f"the page ({w}x{h} px) is too small for a card with a frame around it", {}
    sides = {k: float(lum[r, c].mean()) for k, (r, c) in frame.items()}
    frame_mean = float(sum(lum[r, c].sum() for r, c in frame.values()) / sum(lum[r, c].size for r, c in frame.values()))
    edges = [k for k, v in sides.items() if card - v >= CLEAR / 2]
    ok = card >= LIGHT and card - frame_mean >= CLEAR and len(edges) >= CARD_EDGES and card - other >= CLEAR
    shown = ", ".join(f"{k} {v:.3f}" for k, v in sides.items())
    reason = (
        f"card box in the {side} half mean luminance {card:.3f} (need >= {LIGHT}) vs its frame in that half "
        f"{frame_mean:.3f} (difference {card - frame_mean:.3f}, need >= {CLEAR}); frame sides ({shown}): "
        f"{len(edges)} at least {CLEAR / 2} darker than the box (need >= {CARD_EDGES}); vs the same box in the "
        f"{_OTHER[side]} half {other:.3f} (difference {card - other:.3f}, need >= {CLEAR})"
    )
    ev = {
        "card_mean": round(card, 4),
        "frame_mean": round(frame_mean, 4),
        "frame_sides": {k: round(v, 4) for k, v in sides.items()},
        "edges": edges,
        "other_mean": round(other, 4),
    }
    return ok, reason, ev


def _no_card(lum, m):
    found = {side: _light_card(lum, CARD_SIDE[side]) for side in ("left", "right")}
    cards = [side for side, (ok, _, _) in found.items() if ok]
    reason = "; ".join(f"{side}: {'a card' if ok else 'no card'} ({why})" for side, (ok, why, _) in found.items())
    return not cards, reason, {"cards": cards}


def _light_background(lum, m):
    median = float(np.median(lum))
    ok = median >= 1.0 - CLEAR
    reason = f"median luminance of the page {median:.3f} (need >= {1.0 - CLEAR:.2f}: within {CLEAR} of white)"
    return ok, reason, {"median": round(median, 4)}


def _slightly_lighter_half(lum, m):
    side, (need, _) = m.group(1), DEGREES[m.group(2)]
    w = lum.shape[1]
    if w < 2:
        return False, "the page is one column wide: no halves to compare", {}
    left, right = float(lum[:, : w // 2].mean()), float(lum[:, w - w // 2 :].mean())
    this, other = (left, right) if side == "left" else (right, left)
    ok = this - other >= need
    reason = (
        f"{side} half mean luminance {this:.3f} vs {_OTHER[side]} half {other:.3f} "
        f"(difference {this - other:.3f}, need >= {need})"
    )
    return ok, reason, {"half_mean": round(this, 4), "other_half_mean": round(other, 4)}


def bar_runs(lum: np.ndarray) -> tuple[float, list[tuple[int, int, float]]]:
    """(floor, bars): the lowest column ink share, and each bar left to right as (first column,
    last column + 1, mean ink share of its columns): runs of columns at least ``BAR_MIN`` above
    the floor, at least ``BAR_MIN_WIDTH`` of the width (and one pixel) wide."""
    col = (lum < INK_LEVEL).mean(axis=0)
    w = col.size
    floor = float(col.min())
    inked = col >= floor + BAR_MIN
    min_width = max(1, int(round(BAR_MIN_WIDTH * w)))
    runs, x = [], 0
    while x < w:
        if not inked[x]:
            x += 1
            continue
        start = x
        while x < w and inked[x]:
            x += 1
        if x - start >= min_width:
            runs.append((start, x, float(col[start:x].mean())))
    return floor, runs


def _bars(lum, m):
    direction = m.group(1)
    floor, runs = bar_runs(lum)
    heights = [r[2] for r in runs]
    seq = heights if direction == "rise" else heights[::-1]
    steps = [b - a for a, b in zip(seq, seq[1:])]
    total = seq[-1] - seq[0] if seq else 0.0
    monotone = all(s >= BAR_STEP for s in steps)
    ok = len(runs) >= MIN_BARS and monotone and total >= BAR_RISE
    word = "up" if direction == "rise" else "down"
    if len(runs) < 2:
        shape = "no steps"
    elif monotone:
        shape = f"every step {word} by >= {BAR_STEP}"
    else:
        shape = f"not every step {word} by >= {BAR_STEP} (smallest {min(steps):.3f})"
    reason = (
        f"{len(runs)} separate bars (runs of inked columns between gaps; need >= {MIN_BARS}), heights as ink "
        f"share left to right {[round(x, 3) for x in heights]} (floor {floor:.3f}): {shape}, "
        f"{direction} {total:.3f} (need >= {BAR_RISE})"
    )
    ev = {"bar_heights": [round(x, 4) for x in heights], "bar_columns": [[a, b] for a, b, _ in runs]}
    return ok, reason, {**ev, "floor": round(floor, 4)}


def _bars_rise_somewhat(lum, m):
    direction, (_, need) = m.group(1), DEGREES[m.group(2)]
    floor, runs = bar_runs(lum)
    heights = [r[2] for r in runs]
    change = (heights[-1] - heights[0]) if len(heights) >= 2 else 0.0
    change = change if direction == "rise" else -change
    ok = len(runs) >= MIN_BARS and change >= need
    reason = (
        f"{len(runs)} separate bars (need >= {MIN_BARS}), heights as ink share left to right "
        f"{[round(x, 3) for x in heights]} (floor {floor:.3f}): last vs first {direction} {change:.3f} (need >= {need})"
    )
    return ok, reason, {"bar_heights": [round(x, 4) for x in heights], "floor": round(floor, 4)}


def _slightly_more_ink(lum, m):
    direction, (_, need) = m.group(1), DEGREES[m.group(2)]
    g = _groups(lum < INK_LEVEL)
    change = (g[-1] - g[0]) if direction == "increase" else (g[0] - g[-1])
    ok = change >= need
    reason = (
        f"ink share of the leftmost column group {g[0]:.3f}, rightmost {g[-1]:.3f} "
        f"({direction} {change:.3f}, need >= {need})"
    )
    return ok, reason, {"column_ink": [round(x, 4) for x in g]}


def _coverage(lum, m):
    low, high = int(m.group(1)), int(m.group(2))
    share = float((lum < INK_LEVEL).mean()) * 100
    ok = low <= share <= high
    reason = f"ink (luminance < {INK_LEVEL}) covers {share:.1f}% of the page (need {low}% to {high}%)"
    return ok, reason, {"ink_percent": round(share, 2)}


def _rule(name, pattern, example, measure) -> Rule:
    return Rule(name, re.compile(pattern), example, measure)


PHRASES: tuple[Rule, ...] = (
    _rule(
        "dark_band",
        r"is there a dark title band across the (top|bottom) of the page\?",
        "Is there a dark title band across the top of the page?",
        _dark_band,
    ),
    _rule(
        "slightly_darker_band",
        r"is the (top|bottom) of the page (at least slightly|noticeably) darker than the rest of the page\?",
        "Is the top of the page at least slightly darker than the rest of the page?",
        _slightly_darker_end,
    ),
    _rule(
        "light_card",
        r"is there a light card in the (left|right) half of the page\?",
        "Is there a light card in the left half of the page?",
        _light_card,
    ),
    _rule(
        "no_card",
        r"is the page free of light cards\?",
        "Is the page free of light cards?",
        _no_card,
    ),
    _rule(
        "light_background",
        r"is the page's background white or nearly white\?",
        "Is the page's background white or nearly white?",
        _light_background,
    ),
    _rule(
        "slightly_lighter_half",
        r"is the (left|right) half of the page (at least slightly|noticeably) lighter than the other half\?",
        "Is the left half of the page at least slightly lighter than the other half?",
        _slightly_lighter_half,
    ),
    _rule(
        "bars",
        r"do the bars (rise|fall) from left to right\?",
        "Do the bars rise from left to right?",
        _bars,
    ),
    _rule(
        "bars_rise_somewhat",
        r"do the bars (rise|fall) (at least slightly|noticeably) from left to right\?",
        "Do the bars rise at least slightly from left to right?",
        _bars_rise_somewhat,
    ),
    _rule(
        "slightly_more_ink",
        r"does ink (increase|decrease) (at least slightly|noticeably) from left to right\?",
        "Does ink increase at least slightly from left to right?",
        _slightly_more_ink,
    ),
    _rule(
        "ink_coverage",
        r"does ink cover between (\d{1,3})% and (\d{1,3})% of the page\?",
        "Does ink cover between 20% and 50% of the page?",
        _coverage,
    ),
)
"""The phrase table: every question the judge answers, one rule each (see the module docstring
for the measurements). Parameters in parentheses: top/bottom, left/right, rise/fall,
increase/decrease, the degree ("at least slightly" or "noticeably", :data:`DEGREES`), and the
two whole percentages of ink coverage (0 <= low <= high <= 100)."""


def page_kind(lum: np.ndarray) -> str | None:
    """What kind of layout page the luminance (H, W) in [0, 1] shows, from the rules above:
    "slide" when a light card stands in either half (the "no card" rule fails), "chart" when there is no
    card and at least ``MIN_BARS`` separate bars (:func:`bar_runs`), None for neither (a blank
    page, noise, one block). The kind-preservation signal of the layout task: a chart prompt
    whose sample reads as a slide has drifted to the other kind."""
    if not _no_card(lum, None)[0]:
        return "slide"
    return "chart" if len(bar_runs(lum)[1]) >= MIN_BARS else None


CARD_SIDE = {side: re.fullmatch(r"(left|right)", side) for side in ("left", "right")}
"""The matches the card rule reads its side from, for the rules that ask it of both halves."""


def fold(question: str) -> str:
    """The question as the phrase table matches it: lower case, runs of whitespace -> one space, stripped."""
    return " ".join(question.lower().split())


def match_rule(question: str) -> tuple[Rule, re.Match] | None:
    """The phrase-table rule answering ``question`` and its match, or None (also for an ink
    coverage range with low > high or a bound above 100)."""
    q = fold(question)
    for rule in PHRASES:
        m = rule.pattern.fullmatch(q)
        if m is None:
            continue
        if rule.name == "ink_coverage" and not int(m.group(1)) <= int(m.group(2)) <= 100:
            return None
        return rule, m
    return None


class LayoutJudge:
    """Answers the layout questions of :data:`PHRASES` from the image's luminance.

    Verdicts: "yes"/"no" with a reason naming the measured values and thresholds, evidence
    ``{"rule": name, ...measured values}``; withheld for a question not in the table (reason
    "not a layout question this judge measures") and, with ``call_failed``, for an image it
    cannot read (empty, or PIL fails to convert it).

    Example::

        Router([LayoutJudge()])  # or Router([OCRJudge(), LayoutJudge(), VLMJudge(...)])
    """

    name = "layout"

    def cache_identity(self) -> dict[str, Any]:
        """The class and every threshold (``rewards.judges.cache``): a changed rule is a new judge."""
        return {
            "class": "rewards.judges.layout.LayoutJudge",
            "clear": CLEAR,
            "slight": SLIGHT,
            "ink_level": INK_LEVEL,
            "light": LIGHT,
            "band": BAND,
            "bar_groups": BAR_GROUPS,
            "bar_rise": BAR_RISE,
            "bar_step": BAR_STEP,
            "bar_min": BAR_MIN,
            "bar_min_width": BAR_MIN_WIDTH,
            "min_bars": MIN_BARS,
            "rules": 3,  # 2: band vs the rows next to it, card vs its frame, bars as separate runs; 3: bar rungs
            "slight_rise": SLIGHT_RISE,
            "noticeable": NOTICEABLE,
            "noticeable_rise": NOTICEABLE_RISE,
            "card": [CARD_COLUMNS["left"], CARD_COLUMNS["right"], CARD_ROWS, CARD_FRAME_TOP, CARD_EDGES],
            "phrases": [r.pattern.pattern for r in PHRASES],
        }

    def can_answer(self, check: Check) -> bool:
        """True iff ``check.question`` is one of the phrase table's questions (after :func:`fold`)."""
        return match_rule(check.question) is not None

    def judge_one(self, lum: np.ndarray, check: Check) -> Verdict:
        """The verdict on ``check`` for a luminance array (H, W) in [0, 1] (:func:`luminance`)."""
        found = match_rule(check.question)
        if found is None:
            return withheld(check, self.name, "not a layout question this judge measures")
        rule, m = found
        ok, reason, evidence = rule.measure(lum, m)
        return Verdict(check.id, "yes" if ok else "no", self.name, reason, {"rule": rule.name, **evidence})

    def judge(
        self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]
    ) -> list[list[Verdict]]:
        """One verdict per check per image, each image converted to luminance once.

        Raises:
            ValueError: ``images`` and ``checks`` differ in length.
        """
        if len(images) != len(checks):
            raise ValueError(f"LayoutJudge.judge: {len(images)} images but {len(checks)} check lists")
        out = []
        for image, image_checks in zip(images, checks):
            try:
                lum = luminance(image)
                if lum.ndim != 2 or lum.size == 0:
                    raise ValueError(f"image of size {image.size} has no pixels")
            except (OSError, ValueError) as e:
                out.append(
                    [withheld(c, self.name, f"cannot read the image: {e}", call_failed=True) for c in image_checks]
                )
                continue
            out.append([self.judge_one(lum, c) for c in image_checks])
        return out
