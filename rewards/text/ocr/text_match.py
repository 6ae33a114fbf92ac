"""Text normalisation and matching of expected strings against OCR lines.

Shared by the OCR judge (:mod:`rewards.judges.ocr`), the text editor
(:mod:`refine.editors.text`) and ``scripts/verify_example.py``, so that "found" means the
same thing everywhere.

Normalisation (applied to the expected string and to every OCR word):

1. Unicode NFKC (ligatures, full-width forms, "…" -> "...", non-breaking spaces -> spaces).
2. Typographic quotes fold to ASCII (‘ ’ ‚ ‛ ′ -> ', “ ” „ ‟ ″ -> "), and dashes fold to the
   hyphen-minus (‐ ‑ ‒ – — ― − -> -): OCR engines do not tell these apart reliably, and
   BizGenEval's VLM judge does not either.
3. Whitespace runs collapse to one space; leading/trailing whitespace is dropped; no space is
   kept between two Han or kana characters (Chinese and Japanese put none between words).
4. A separator standing alone between spaces (``SEPARATORS``: a middle dot, bullet, hyphen,
   dash, colon, full stop, vertical bar, slash, and the guillemet tesseract reads for a small
   dot) folds to "·": tesseract reads the middle dot of "Privacy · Terms" as ".", ":", "-" or
   "«", and a person reads them as the same separator, so "10 AM - 6 PM" and "10 AM · 6 PM"
   match (a dot or hyphen inside a word, "3.5", "COVID-19", is kept).
5. Case: kept when ``case_sensitive`` (BizGenEval asks for an exact character match),
   otherwise both sides are case-folded.
6. ``lenient`` (BizGenEval's lenient variant): a leading bullet (• · ▪ ◦ ‣ * - o followed by a
   space) and trailing punctuation (. , ; : ! ?) are removed from the expected string before
   matching, so neither is required in the image.

Found: the normalised expected string occurs in the text of one OCR line, or of consecutive
lines of one column joined by one space (a string that wraps; the line after a line is the
nearest one starting below it that overlaps it horizontally), and the occurrence does not start
or end inside a word (the characters just outside it are not letters or digits: "AP" is not
found in "AP50") or inside a longer number ("2%" is not found in "-2%", "95" not in "95.5").
With a region, the centre of the occurrence's box must lie in that region of the image
(``REGION_FRACTIONS``: halves, quadrants, corners, bands, centre).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

_FOLD = str.maketrans(
    {
        "‘": "'",
        "’": "'",
        "‚": "'",
        "‛": "'",
        "′": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "″": '"',
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "―": "-",
        "−": "-",
    }
)
_SPACE = re.compile(r"\s+")
SEPARATORS = "·•∙⋅.:-|/«»"
"""Characters that, standing alone as a word, fold to "·" (module rule 4; dashes fold to "-" first)."""
_SEPARATOR = re.compile(r"(?:(?<= )|^)[" + re.escape(SEPARATORS) + r"](?= |$)")
_BULLET = re.compile(r"^(?:[•·▪◦‣*\-]|o)\s+")
_TRAILING_PUNCT = re.compile(r"[.,;:!?]+$")


@dataclass(frozen=True)
class Word:
    """One OCR word: its raw text and ink box ``(x0, y0, x1, y1)`` in pixels of the judged image,
    and tesseract's confidence in it (0-100; None for words not read by tesseract: an editor's
    placed text, a test's). ``conf`` takes no part in equality."""

    text: str
    box: tuple[int, int, int, int]
    conf: float | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Line:
    """One OCR text line, words left to right (reading order of the engine).

    ``angle`` is the rotation (degrees, counter-clockwise, 0 / 90 / 270) the text was read at:
    a y-axis title printed bottom to top is read with the page turned, so its words read
    left to right and ``angle`` is 90; word boxes are always in pixels of the unrotated image."""

    words: tuple[Word, ...]
    angle: int = 0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def box(self) -> tuple[int, int, int, int]:
        return union_box([w.box for w in self.words])


@dataclass(frozen=True)
class Match:
    """Where an expected string best matches the OCR text.

    Attributes:
        text: the OCR text of the matched words (raw, not normalised).
        box: union of the matched words' boxes ``[x0, y0, x1, y1]`` in pixels.
        similarity: rapidfuzz ``OSA.normalized_similarity`` (1 - optimal string alignment
            distance / longer length: a dropped, substituted or swapped character costs 1)
            between the normalised expected string and the normalised matched text, in [0, 1].
        found: the expected string occurs exactly (module rules), in its region if given.
        words: ``(line index, word index)`` of every matched word, in reading order.
    """

    text: str
    box: tuple[int, int, int, int]
    similarity: float
    found: bool
    words: tuple[tuple[int, int], ...]


_HAN_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_SPACE_IN_CJK = re.compile(f"(?<=[{_HAN_KANA}]) (?=[{_HAN_KANA}])")


def words_conf(lines: list[Line], words) -> float:
    """The lowest tesseract confidence (0-100) of ``words`` (``(line, word)`` indices into
    ``lines``, as ``Match.words``); 100.0 when none has one (text not read by tesseract)."""
    confs = [lines[li].words[wi].conf for li, wi in words]
    confs = [c for c in confs if c is not None]
    return min(confs) if confs else 100.0


def joins_without_space(a: str, b: str) -> bool:
    """True when text ``a`` followed by ``b`` is written without a space between them: Chinese
    and Japanese (Han, kana) put none between words, and tesseract's chi_sim/jpn models return
    one word per character or two ("季 度 收入" for "季度收入")."""
    return bool(a and b and _SPACE_IN_CJK.search(a[-1] + " " + b[0]))


def wrapped_hyphen(a: str, b: str) -> bool:
    """True when a line that ends in ``a`` and the next line's first word ``b`` are one compound
    broken at its hyphen ("first-" / "line" is "first-line"): ``a`` ends in a letter and a hyphen,
    ``b`` opens with a letter (a browser wraps a table cell's "first-line" so)."""
    return len(a) >= 2 and a[-1] == "-" and a[-2].isalpha() and b[:1].isalpha()


LOOKALIKES = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1", "|": "1", "S": "5", "B": "8"})
"""Characters OCR confuses, folded one onto another: the editor's test that a string is already on
the page (``refine.editors.text.near_match``) and the judge's look-alike doubt
(``rewards.judges.ocr_doubt``)."""


def normalize(text: str, case_sensitive: bool = True) -> str:
    """Steps 1-5 of the module rules: NFKC, ASCII quotes/dashes, collapsed whitespace (none kept
    between two Han or kana characters), lone separators as "·", case."""
    text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    text = _SPACE_IN_CJK.sub("", _SPACE.sub(" ", text).strip())
    text = _SEPARATOR.sub("·", text)
    return text if case_sensitive else text.casefold()


def normalize_expected(text: str, case_sensitive: bool = True, lenient: bool = False) -> str:
    """``normalize`` plus, when ``lenient``, no leading bullet and no trailing punctuation."""
    text = normalize(text, case_sensitive)
    if lenient:
        text = _TRAILING_PUNCT.sub("", _BULLET.sub("", text)).strip()
    return text


def union_box(boxes) -> tuple[int, int, int, int]:
    """Smallest box ``(x0, y0, x1, y1)`` holding all ``boxes``."""
    boxes = list(boxes)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def boxes_meet(a, b) -> bool:
    """True when boxes ``a`` and ``b`` (x0, y0, x1, y1) share a pixel."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


REGION_FRACTIONS: dict[str, tuple[float, float, float, float]] = {
    # halves
    "top": (0, 0, 1, 1 / 2),
    "bottom": (0, 1 / 2, 1, 1),
    "left": (0, 0, 1 / 2, 1),
    "right": (1 / 2, 0, 1, 1),
    # quadrants ("top-left quadrant", "bottom-right of the slide")
    "top_left": (0, 0, 1 / 2, 1 / 2),
    "top_right": (1 / 2, 0, 1, 1 / 2),
    "bottom_left": (0, 1 / 2, 1 / 2, 1),
    "bottom_right": (1 / 2, 1 / 2, 1, 1),
    # corners: the outer third of each side ("bottom-right corner")
    "top_left_corner": (0, 0, 1 / 3, 1 / 3),
    "top_right_corner": (2 / 3, 0, 1, 1 / 3),
    "bottom_left_corner": (0, 2 / 3, 1 / 3, 1),
    "bottom_right_corner": (2 / 3, 2 / 3, 1, 1),
    # horizontal bands: thirds, and the outer fifth ("very top", "very bottom")
    "top_band": (0, 0, 1, 1 / 3),
    "middle_band": (0, 1 / 3, 1, 2 / 3),
    "bottom_band": (0, 2 / 3, 1, 1),
    "very_top": (0, 0, 1, 1 / 5),
    "very_bottom": (0, 4 / 5, 1, 1),
    # vertical bands: the outer thirds ("far left", "far right")
    "left_band": (0, 0, 1 / 3, 1),
    "right_band": (2 / 3, 0, 1, 1),
    # centre: the middle third both ways; "centered": the text's centre within 10% of the
    # vertical centre line, at any height, or in the top / bottom band ("top-center")
    "center": (1 / 3, 1 / 3, 2 / 3, 2 / 3),
    "centered": (0.4, 0, 0.6, 1),
    "top_center": (0.4, 0, 0.6, 1 / 3),
    "bottom_center": (0.4, 2 / 3, 0.6, 1),
    "very_top_center": (0.4, 0, 0.6, 1 / 5),
    "very_bottom_center": (0.4, 4 / 5, 0.6, 1),
}
"""Every place name a text expectation may carry, as fractions ``(x0, y0, x1, y1)`` of the image's
width and height. A string is *in* a region when the centre of its box lies in the region's box
(``region_box``), so these boxes bound where a string's centre may be, not its whole extent."""


def region_box(region: str, width: int, height: int) -> tuple[int, int, int, int]:
    """The pixel box ``(x0, y0, x1, y1)`` of a place name of ``REGION_FRACTIONS`` in a
    ``width`` x ``height`` image (x1, y1 exclusive, rounded to whole pixels).

    Raises:
        ValueError: unknown region name.
    """
    if region not in REGION_FRACTIONS:
        raise ValueError(f"unknown region {region!r}; expected one of {', '.join(REGION_FRACTIONS)} or None")
    fx0, fy0, fx1, fy1 = REGION_FRACTIONS[region]
    return (round(fx0 * width), round(fy0 * height), round(fx1 * width), round(fy1 * height))


def in_region(box, region: str | None, width: int, height: int) -> bool:
    """True when the centre of ``box`` lies in ``region`` (``region_box``; None: anywhere).

    A centre on the edge between two regions belongs to the lower/right one (as for halves).
    """
    if region is None:
        return True
    x0, y0, x1, y1 = region_box(region, width, height)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return x0 <= cx and (cx < x1 or x1 == width) and y0 <= cy and (cy < y1 or y1 == height)


class _Window:
    """Consecutive lines joined by spaces (none after a compound's hyphen at a line's end,
    ``wrapped_hyphen``), with each word's character span in the joined text."""

    def __init__(self, lines: list[Line], chain: list[int], case_sensitive: bool):
        self.ids, self.spans, self.raw, parts, pos = [], [], [], [], 0
        for li in chain:
            for wi, word in enumerate(lines[li].words):
                norm = normalize(word.text, case_sensitive)
                if not norm:
                    continue
                if parts and (joins_without_space(parts[-1], norm) or (wi == 0 and wrapped_hyphen(parts[-1], norm))):
                    pos -= 1  # no space between two Han/kana words, nor at a compound's hyphen a line broke
                    parts[-1] += norm
                else:
                    parts.append(norm)
                self.ids.append((li, wi))
                self.raw.append(word)
                self.spans.append((pos, pos + len(norm)))
                pos += len(norm) + 1
        self.text = " ".join(parts)

    def words_in(self, start: int, end: int) -> list[int]:
        """Indices (into this window) of the words overlapping characters [start, end)."""
        return [k for k, (s, e) in enumerate(self.spans) if s < end and e > start]


def contains(outer: str, inner: str, case_sensitive: bool = True) -> bool:
    """True when normalised ``inner`` occurs in normalised ``outer`` not inside a word."""
    o, i = normalize(outer, case_sensitive), normalize(inner, case_sensitive)
    k = o.find(i) if i else -1
    while k >= 0:
        if boundary_ok(o, k, k + len(i)):
            return True
        k = o.find(i, k + 1)
    return False


def boundary_ok(text: str, start: int, end: int) -> bool:
    """Not inside a word, and a number not inside a longer number: "2%" is not in "-2%" (a sign,
    not a hyphen as in "COVID-19"), "95" not in "95.5" or "1,206"."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or after.isalnum():
        return False
    if text[start : start + 1].isdigit() and before in "+-" and (start < 2 or not text[start - 2].isalnum()):
        return False
    return not (text[end - 1 : end].isdigit() and after in ".," and text[end + 1 : end + 2].isdigit())


def label_spellings(text: str) -> list[str]:
    """How a label a question names ("Why you will like it", "8 am") may be drawn and read, in order
    of trust: as written; in capitals (a heading set with CSS ``text-transform: uppercase``, "WHY
    YOU WILL LIKE IT"); its words run together (tesseract drops the narrow space of a number and
    its unit: the heatmap tick "8 am" is read "8am"). For labels that only place the string asked
    (an anchor, a row or column label); the string asked is matched as written."""
    return list(dict.fromkeys((text, text.upper(), text.replace(" ", ""))))


def find_matches(
    expected: str,
    lines: list[Line],
    width: int,
    height: int,
    region: str | None = None,
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> list[Match]:
    """Candidate matches of ``expected`` in ``lines``, best first.

    Exact occurrences (module rules) come first with ``found=True`` (or ``found=False`` when
    only outside ``region``). Then fuzzy candidates: for each window of 1..``max_lines``
    consecutive lines of a column (``next_lines``; more while the window's text is shorter
    than ``expected``: a long paragraph in a narrow column wraps over five lines), rapidfuzz ``partial_ratio_alignment``
    locates the best substring, which is snapped to whole words (trying one word more or less
    at each end) and scored with OSA similarity. Candidates are deduplicated by their word set.

    Args:
        expected: the string the rubric requires (raw).
        lines: OCR lines of the image.
        width, height: the image size in pixels (for ``region``).

    Returns:
        Matches sorted by (found, similarity, in region) descending, so an exact occurrence
        outside the region ranks just below the found ones; empty when ``lines`` has no words or
        ``expected`` normalises to "".
    """
    target = normalize_expected(expected, case_sensitive, lenient)
    if not target:
        return []
    seen: dict[tuple, Match] = {}

    def add(win: _Window, ks: list[int], found: bool, similarity: float):
        key = tuple(win.ids[k] for k in ks)
        box = union_box(win.raw[k].box for k in ks)
        found = found and in_region(box, region, width, height)
        m = Match(" ".join(win.raw[k].text for k in ks), box, similarity, found, key)
        old = seen.get(key)
        if old is None or (m.found, m.similarity) > (old.found, old.similarity):
            seen[key] = m

    lengths = [len(normalize(line.text, case_sensitive)) for line in lines]
    after = next_lines(lines)
    for first in range(len(lines)):
        chain = [first]
        while True:
            if len(chain) > 2 and sum(lengths[k] + 1 for k in chain[1:-1]) >= len(target):
                break  # a match starting in the first line cannot reach the last one
            win = _Window(lines, chain, case_sensitive)
            if win.text:
                _scan(win, target, add)
            # a string longer than max_lines lines of its column wraps over as many as it needs
            full = len(chain) >= max_lines and sum(lengths[k] + 1 for k in chain) > len(target)
            if full or after[chain[-1]] is None or after[chain[-1]] in chain:
                break
            chain.append(after[chain[-1]])
    return sorted(
        seen.values(), key=lambda m: (m.found, m.similarity, in_region(m.box, region, width, height)), reverse=True
    )


def _scan(win: _Window, target: str, add) -> None:
    """Report the exact occurrences and the best word-snapped fuzzy match of ``target`` in ``win``."""
    # Exact occurrences.
    start = win.text.find(target)
    while start >= 0:
        end = start + len(target)
        if boundary_ok(win.text, start, end):
            add(win, win.words_in(start, end), True, 1.0)
        start = win.text.find(target, start + 1)
    # Best fuzzy substring, snapped to whole words.
    al = fuzz.partial_ratio_alignment(target, win.text)
    if al is None or al.score == 0:
        return
    ks = win.words_in(al.dest_start, max(al.dest_end, al.dest_start + 1))
    if not ks:
        return
    lo, hi = ks[0], ks[-1]
    for a in (lo - 1, lo, lo + 1):
        for b in (hi - 1, hi, hi + 1):
            if 0 <= a <= b < len(win.ids):
                cand = win.text[win.spans[a][0] : win.spans[b][1]]
                add(win, list(range(a, b + 1)), cand == target, OSA.normalized_similarity(target, cand))


def next_lines(lines: list[Line]) -> list[int | None]:
    """For each line, the index of the line that continues it in its column, or None: the
    nearest line whose top is below the line's centre, within 1.5 line heights, overlapping it
    horizontally."""
    boxes = [ln.box for ln in lines]
    out = []
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        h, best = max(1, y1 - y0), None
        for j, (u0, v0, u1, v1) in enumerate(boxes):
            if j == i or v0 < (y0 + y1) / 2 or v0 - y1 > 1.5 * h or min(x1, u1) <= max(x0, u0):
                continue
            key = (v0 - y1, abs(u0 - x0))
            if best is None or key < best[0]:
                best = (key, j)
        out.append(best[1] if best else None)
    return out
