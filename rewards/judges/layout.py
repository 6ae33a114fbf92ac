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
* **top band**: the top :data:`BAND` (20%) of the rows (bottom band: the bottom 20%); "the
  rest of the page" is every other row. "Across" the page: each quarter of the band's width is
  at least ``CLEAR / 2`` darker than the rest of the page, so a dark patch in one corner is no
  band.
* **card**: the box from 5% to 45% of the width (left half; right half: 55% to 95%) and 30% to
  90% of the height (below a title band); "light card": its mean luminance is at least
  ``CLEAR`` above the same rows of the other half and at least :data:`LIGHT` (0.6, lighter than
  mid-grey) itself.
* **bars**: the page's columns are split into :data:`BAR_GROUPS` (4) equal groups (fewer on a
  page narrower than 4 px); a group's height is its ink share (ink pixels / pixels in its
  columns, in [0, 1]). Bars "rise from left to right" when every group is taller than the one
  on its left and the last is at least :data:`BAR_RISE` (0.2, a fifth of the page's height)
  taller than the first; "fall": the mirror image.
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
"""Column groups the bar rules compare (fewer when the page is narrower)."""
BAR_RISE = 0.2
"""Bars rise when the last group's ink share is at least this above the first's (and each step rises)."""
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
    band_rows, rest_rows = _band_rows(lum.shape[0], side)
    if rest_rows is None:
        return False, "the page is one row high: no band and page below it to compare", {}
    band, rest = lum[band_rows], lum[rest_rows]
    b, r = float(band.mean()), float(rest.mean())
    w = lum.shape[1]
    quarters = [float(band[:, s].mean()) for s in (_span(w, i / 4, (i + 1) / 4) for i in range(4))]
    weakest = max(quarters)  # the lightest quarter of the band
    ok = r - b >= CLEAR and r - weakest >= CLEAR / 2
    ev = {"band_mean": round(b, 4), "rest_mean": round(r, 4), "band_quarters": [round(q, 4) for q in quarters]}
    reason = (
        f"{side} band mean luminance {b:.3f} vs rest of page {r:.3f} (difference {r - b:.3f}, "
        f"need >= {CLEAR}); lightest quarter of the band {weakest:.3f} (need <= {r - CLEAR / 2:.3f})"
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


def _light_card(lum, m):
    side = m.group(1)
    h, w = lum.shape
    rows = _span(h, *CARD_ROWS)
    card = float(lum[rows, _span(w, *CARD_COLUMNS[side])].mean())
    other = float(lum[rows, _span(w, *CARD_COLUMNS[_OTHER[side]])].mean())
    ok = card - other >= CLEAR and card >= LIGHT
    reason = (
        f"card box in the {side} half mean luminance {card:.3f} (need >= {LIGHT}) vs the same box in the "
        f"{_OTHER[side]} half {other:.3f} (difference {card - other:.3f}, need >= {CLEAR})"
    )
    return ok, reason, {"card_mean": round(card, 4), "other_mean": round(other, 4)}


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


def _bars(lum, m):
    direction = m.group(1)
    g = _groups(lum < INK_LEVEL)
    seq = g if direction == "rise" else g[::-1]
    steps = [b - a for a, b in zip(seq, seq[1:])]
    total = seq[-1] - seq[0]
    ok = len(g) >= 2 and all(s > 0 for s in steps) and total >= BAR_RISE
    shape = ("every step " + ("up" if direction == "rise" else "down")) if all(s > 0 for s in steps) else "not monotone"
    reason = (
        f"column ink shares left to right {[round(x, 3) for x in g]}: {shape}, "
        f"{'rise' if direction == 'rise' else 'fall'} {total:.3f} (need >= {BAR_RISE})"
    )
    return ok, reason, {"column_ink": [round(x, 4) for x in g]}


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
            "slight_rise": SLIGHT_RISE,
            "noticeable": NOTICEABLE,
            "noticeable_rise": NOTICEABLE_RISE,
            "card": [CARD_COLUMNS["left"], CARD_COLUMNS["right"], CARD_ROWS],
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
