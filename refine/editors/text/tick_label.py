"""An x-axis tick label named by its place ("the sixth x-axis tick label from the left").

The page's tick labels are its lowest row of short labels: OCR lines in the bottom half of the
page, of 1 to 3 words and at least two letters or digits (a tick mark read "T" is not a label),
whose vertical middles lie within half a line height of one another; the row with most labels
(at least ``MIN_TICKS``), left to right. The Nth from the left (or right) is the label the check
names. When its text is a version of the expected string, at most ``MAX_EDITS`` edits away (OCR's
"Jn" of "Jxn" for "Jun": a typo OCR half-reads is still that label), or its words in another
order or one word short (``reordered``), it is rewritten in place (``rewrite``), centred where
the old label was (the engine centres a tick label on its tick; on a chart drawn without tick
marks "May" for "Ma" kept the old left edge, 4 px right of the engine's place); its box is cut to
the text's own rows first, so the tick mark above it is kept. A near match on another label of the
row is never that label (``on_other_tick``): it is left alone.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
from rapidfuzz.distance import OSA

from refine.editors.text.outcomes import Rewrite
from refine.editors.text.state import EditState
from rewards.rubric import TextExpectation
from rewards.text.ocr.text_match import Line, Match, normalize

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth")  # fmt: skip
TICK = re.compile(r"\b(\w+) x-axis tick label from the (left|right)\b", re.IGNORECASE)
MIN_TICKS = 3
MAX_EDITS = 1
"""Most OSA edits between the label's OCR text and the expected string."""
INK = 60
"""Least difference of a text pixel's luminance from the box's brightest (background) level."""


def tick_place(question: str) -> tuple[int, str] | None:
    """(ordinal, "left" or "right") of the x-axis tick label ``question`` names, or None."""
    m = TICK.search(question)
    if m is None or m.group(1).lower() not in ORDINALS:
        return None
    return ORDINALS.index(m.group(1).lower()) + 1, m.group(2).lower()


def tick_row(lines: list[Line], h: int) -> list[int]:
    """Indices into ``lines`` of the page's x-axis tick labels, left to right (module docstring);
    [] when no row of at least ``MIN_TICKS`` labels is found."""
    short = [
        i
        for i, ln in enumerate(lines)
        if ln.box[1] > h / 2 and len(ln.words) <= 3 and sum(c.isalnum() for c in ln.text) >= 2
    ]
    rows: list[list[int]] = []
    for i in sorted(short, key=lambda i: (lines[i].box[1] + lines[i].box[3]) / 2):
        mid = (lines[i].box[1] + lines[i].box[3]) / 2
        row = next(
            (r for r in rows if abs((lines[r[0]].box[1] + lines[r[0]].box[3]) / 2 - mid) <= _half(lines, r)), None
        )
        if row is None:
            rows.append([i])
        else:
            row.append(i)
    rows = [r for r in rows if len(r) >= MIN_TICKS]
    if not rows:
        return []
    best = max(rows, key=lambda r: (len(r), max(lines[i].box[3] for i in r)))
    return sorted(best, key=lambda i: lines[i].box[0])


def _mid(line: Line) -> float:
    """The vertical middle of ``line``'s box."""
    return (line.box[1] + line.box[3]) / 2


def _half(lines: list[Line], row: list[int]) -> float:
    """Half the median height of the lines of ``row``."""
    return 0.5 * float(np.median([lines[i].box[3] - lines[i].box[1] for i in row]))


def text_rows(arr: np.ndarray, box) -> tuple[int, int, int, int]:
    """``box`` cut to its tallest band of rows holding dark-on-light or light-on-dark ink (the
    label's text, not the tick mark above it, which a blank row parts from it)."""
    x0, y0, x1, y1 = box
    lum = arr[y0:y1, x0:x1].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    if lum.size == 0:
        return box
    bg = float(np.median(np.concatenate([lum[0], lum[-1], lum[:, 0], lum[:, -1]])))
    rows = (np.abs(lum - bg) > INK).any(1)
    bands, start = [], None
    for k, on in enumerate([*rows, False]):
        if on and start is None:
            start = k
        elif not on and start is not None:
            bands.append((start, k))
            start = None
    if not bands:
        return box
    a, b = max(bands, key=lambda s: s[1] - s[0])
    return x0, y0 + a, x1, y0 + b


def tick_target(state: EditState, exp: TextExpectation, place: tuple[int, str], case_sensitive: bool) -> Rewrite | None:
    """The Rewrite of the tick label at ``place`` (ordinal, side) when it is a version of
    ``exp.text`` (module docstring); None when the row, the label or the version is not there."""
    row = tick_row(state.lines, state.h)
    n, side = place
    if not 1 <= n <= len(row):
        return None
    li = row[n - 1] if side == "left" else row[-n]
    ln = state.lines[li]
    seen, want = normalize(ln.text, case_sensitive), normalize(exp.text, case_sensitive)
    if seen == want or not (OSA.distance(seen, want) <= MAX_EDITS or reordered(seen, want)):
        return None
    words = tuple((li, wi) for wi in range(len(ln.words)))
    if any(w in state.protected for w in words):
        return None
    box = text_rows(state.arr, ln.box)
    lines = list(state.lines)
    lines[li] = Line(tuple(replace(wd, box=_cut(wd.box, box)) for wd in ln.words))
    match = Match(ln.text, box, OSA.normalized_similarity(seen, want), False, words)
    # centred where the old label was: the engine centres a tick label on its tick, and a chart
    # without tick marks gave the rewrite no tick to centre on ("May" for "Ma" kept its left edge)
    return Rewrite(match, lines, (box[0] + box[2]) / 2)


def reordered(seen: str, want: str) -> bool:
    """Whether ``seen`` holds the words of ``want`` in another order ("2025 Q2" for "Q2 2025"), or
    all but one of them in their order ("Q2" for "Q2 2025"): in the label the check names, that is
    the wrong version of it, as a one-edit typo is."""
    s, w = seen.split(), want.split()
    if len(w) < 2:
        return False
    if sorted(s) == sorted(w):
        return True
    return len(s) == len(w) - 1 and any(w[:k] + w[k + 1 :] == s for k in range(len(w)))


def on_other_tick(state: EditState, place: tuple[int, str], target: Rewrite) -> bool:
    """Whether ``target`` (a near match ``locate`` found) lies on a tick label of the page's row
    other than the one at ``place``: "Q2 2024", the second label, is not the wrong version of the
    fourth label's "Q2 2025" (tester8's stacked chart rewrote a right label for a swapped one)."""
    row = tick_row(state.lines, state.h)
    n, side = place
    if not 1 <= n <= len(row):
        return False
    named = row[n - 1] if side == "left" else row[-n]
    lis = {li for li, _ in target.match.words}
    return bool(lis & set(row)) and named not in lis


def _cut(b, box) -> tuple[int, int, int, int]:
    """Word box ``b`` cut to the rows of ``box``."""
    return b[0], max(b[1], box[1]), b[2], min(b[3], box[3])
