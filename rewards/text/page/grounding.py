"""Grounded decisions: a compiled text spec decided by code from OCR words and boxes.

``decide_text(spec, lines, image)`` answers whether the text part of a question
(:class:`rewards.text.questions.question_compiler.TextSpec`) holds in an image whose OCR lines are ``lines``.
Rules, applied in this order (the first that fails is named in the result):

1. **read**: each required string occurs exactly (``rewards.text.ocr.text_match`` rules: normalised,
   not inside a word, a wrapped string across consecutive lines of a column).
2. **region**: the occurrence's centre lies in the spec's place (``text_match.region_box``).
3. **anchor**: for every anchor, some exact occurrence of the anchor's text stands in the
   relation (``satisfies_relation``; for "between", ``between`` and an occurrence of
   ``Anchor.other`` too) to the occurrence. An anchor that is not read fails too
   (the relation cannot hold); so does an occurrence that *is* the anchor. "directly" below or
   above also needs no other read line between them (``line_between``).
   Anchors named by their role ("directly below the title", ``TextSpec.role_anchors``) are measured
   to that role's elements (``rewards.text.page.role_anchors``); failing, or the role not found, they
   leave the part unknown, never "no".
4. **element**: with ``element`` (``ElementSpec``: "the title", "the second KPI card", "the
   y-axis label"), the occurrence must be an element of that role found on the page
   (``rewards.text.page.elements.find_elements``): with ``whole`` ("reads exactly") its words are all
   of the element's ("BREAKFAST" inside the heading "BREAKFAST COMBOS" is not the title
   "BREAKFAST"), else it lies in the element. First, whatever the role, a "reads exactly"
   occurrence must be a line or block of its own: one inside a longer line fails; every word
   of two or more consecutive lines (marks aside: a bullet read "¢") is a block of its own, a
   paragraph or bullet that wraps (``_wrapped``), and a candidate that is its first line is
   that element (``_opens``: the finders' items are lines). Candidates
   found and no occurrence in them fails, naming what the element reads; the role not found
   (``find_elements`` None, or no candidate in the spec's place: "the title of the left panel" of a
   page whose one title is centred) is *unknown*: the element part is left to a VLM, never "yes". A
   generic role of two or more words with no relation ("the column header", "the course name")
   and a number read as "the heading" are then typed by the page (``generic_roles``), else unknown.
5. **box**: with ``in_box``, an enclosing box (a border or the edge of a filled panel on all four
   sides, ``enclosing_box``) is found around the occurrence. Not finding one is *unknown*, not a
   failure: the box part is then left to a VLM.
6. **style**: with ``weight`` or ``colour``, only occurrences whose measured stroke weight and
   ink colour (``rewards.text.page.text_style.measure`` on each matched word's box) match are kept. None
   left and every estimate a clear mismatch fails; an estimate that cannot tell (too small, too
   little ink, a colour at a bin edge, no image) is *unknown*: that part is left to a VLM.
7. **count**: the number of distinct occurrences that pass 1-6 equals ``count`` (not decided
   while the element is unknown: a count over the page is not the element's).
8. **arrangement**: one occurrence per string (distinct words) in the spec's arrangement
   (``in_arrangement``), searched over all combinations of the occurrences that pass 1-6.

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import numpy as np
from PIL import Image

from rewards.text.ocr.text_match import Line, Match, find_matches, in_region, region_box, words_conf
from rewards.text.page.anchored import Exact, ReadAnchor, anchored, label_exact, read_anchors
from rewards.text.page.card_grid import grid_apart, in_two_cards
from rewards.text.page.elements import describe_element, find_elements
from rewards.text.page.generic_roles import series_heading, table_refutes, typed_whole, unknown_element
from rewards.text.page.page_lines import Element, _Page, canonical_lines, mark_words
from rewards.text.page.rectangles import enclosing_box
from rewards.text.page.relations import (  # noqa: F401 (re-exported: the rules' geometry)
    CONTEXT_REACH,
    anchor_kind,
    beside_off_row,
    between,
    in_arrangement,
    in_column,
    in_section,
    line_between,
    satisfies_relation,
)
from rewards.text.page.role_anchors import ReadRoleAnchor, read_role_anchors, role_anchored
from rewards.text.page.text_style import Style
from rewards.text.page.text_style import matches as style_matches
from rewards.text.page.text_style import measure as measure_style
from rewards.text.questions.question_compiler import ElementSpec, TextSpec

Box = tuple[int, int, int, int]


@dataclass
class TextDecision:
    """The outcome of ``decide_text``.

    Attributes:
        holds: True (every rule passed), False (``rule`` failed), or None (only the element, box
            or style part is unknown: the element is not found on the page, no enclosing box was
            found, or the style could not be measured, and everything else holds).
        rule: the rule that decided: "read", "region", "anchor", "element", "box", "style", "count",
            "arrangement", or "all" when every rule passed.
        detail: one line saying why, for the verdict's reason.
        records: per required string: ``{"text", "found", "ocr_text", "box", "similarity",
            "rule"}`` (the best exact occurrence, else the best near match).
        anchors: per anchor: ``{"text", "relation", "found", "boxes"}``.
        enclosing_box: the box found for ``in_box``, or None.
        unknown: the parts left unknown, in words ("element 'the title'", "enclosing box",
            "weight 'bold'", "colour 'white'").
        elements: the candidates found for ``spec.element`` (``Element.as_dict``, at most
            ``MAX_ELEMENTS_SHOWN``), empty when the spec names none or none was found.
    """

    holds: bool | None
    rule: str
    detail: str
    records: list[dict] = field(default_factory=list)
    anchors: list[dict] = field(default_factory=list)
    enclosing_box: Box | None = None
    unknown: list[str] = field(default_factory=list)
    elements: list[dict] = field(default_factory=list)


MAX_ELEMENTS_SHOWN = 5
"""How many of an element's candidates a decision records as evidence."""


def _style_mismatch(text: str, style: Style, weight: str | None, colour: str | None) -> str:
    """Why ``style`` is not the asked one, for the verdict's reason."""
    if colour is not None and style.rgb is not None and style.colour != colour:
        return f"{text!r} read, but its ink is {style.colour or 'of mixed colours'} {tuple(style.rgb)}, not {colour}"
    return f"{text!r} read, but its strokes are {style.weight} (stroke/em {style.stroke_ratio:.3f}), not {weight}"


def _record(text: str, best: Match | None, rule: str, found: bool) -> dict:
    return {
        "text": text,
        "found": found,
        "ocr_text": best.text if best else "",
        "box": list(best.box) if best else None,
        "similarity": round(best.similarity, 4) if best else 0.0,
        "rule": rule,
    }


def _boxed(kept: list[Match], gray: np.ndarray | None) -> tuple[list[Match], Box | None]:
    """Rule 4: (the occurrences with an enclosing box, the first one's box), or (``kept``, None)
    when none has one (or there is no image): the box part is then unknown."""
    boxed = [(m, enclosing_box(gray, m.box)) if gray is not None else (m, None) for m in kept]
    with_box = [m for m, b in boxed if b is not None]
    if not with_box:
        return kept, None
    return with_box, next(b for m, b in boxed if b is not None)


@dataclass
class _Styled:
    """Rule 5 on one string's occurrences: those kept, the rule ("all" or "style"), the style
    recorded (or None), whether the style is unknown, and why it mismatched ("" if it did not)."""

    kept: list[Match]
    rule: str
    style: Style | None
    unknown: bool
    detail: str = ""


def _styled(text: str, kept: list[Match], spec: TextSpec, lines: list[Line], rgb: np.ndarray | None) -> _Styled:
    """Rule 5: keep the occurrences whose measured weight and colour match ``spec``'s. With a
    count, an occurrence that cannot be measured makes the style unknown even when others match."""
    styles = [
        measure_style(rgb, [(lines[li].words[wi].box, lines[li].words[wi].text) for li, wi in m.words])
        if rgb is not None
        else Style(None, None, None, None)
        for m in kept
    ]
    verdicts = [style_matches(st, spec.weight, spec.colour) for st in styles]
    styled = [(m, st) for m, st, v in zip(kept, styles, verdicts) if v is True]
    if styled:
        return _Styled([m for m, _ in styled], "all", styled[0][1], spec.count is not None and None in verdicts)
    if all(v is False for v in verdicts):
        return _Styled(kept, "style", styles[0], False, _style_mismatch(text, styles[0], spec.weight, spec.colour))
    return _Styled(kept, "all", styles[verdicts.index(None)], True)


@dataclass
class _ReadElement:
    """The element of a spec as found on the page: the spec, its candidates (None: code cannot
    tell which they are, ``find_elements``), and the lines and blocks of their own (``whole``
    role) that a "reads exactly" occurrence must be."""

    spec: ElementSpec
    found: list[Element] | None
    own: list[Element]
    canon: list[int]
    marks: frozenset = frozenset()
    page: _Page | None = None
    related: bool = False


def _read_element(spec: TextSpec, lines: list[Line], image: Image.Image | None, size) -> _ReadElement | None:
    """The element of ``spec`` found on the page, or None when the spec names none."""
    if spec.element is None:
        return None
    own = find_elements(ElementSpec("whole"), lines, None, size) or []
    canon = canonical_lines(lines)
    marks = frozenset((canon[li], wi) for li, wi in mark_words(lines))
    found = find_elements(spec.element, lines, image, size)
    if found and spec.region and not any(_in_place(e.box, spec.region, size) for e in found):
        found = None  # "the title of the left panel": the page's centred title is not it; not found (a tester's page)
    others = [loc for loc in spec.locators if loc != spec.element.phrase]  # a generic role is its own locator
    related = bool(spec.anchors or others or spec.role_anchors or spec.region)
    return _ReadElement(spec.element, found, own, canon, marks, _Page.of(lines, image, size), related)


def _in_place(box: Box, region: str, size) -> bool:
    """True when the centre of ``box`` lies in ``region`` (``text_match.region_box``) and not within
    ``EDGE`` of the image's width (height) of an edge the region shares with another place: a title
    centred over two panels has its centre on the edge of the left and right halves, in neither."""
    w, h = size
    x0, y0, x1, y1 = region_box(region, w, h)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    inner = [(cx - x0, x0 > 0, w), (x1 - cx, x1 < w, w), (cy - y0, y0 > 0, h), (y1 - cy, y1 < h, h)]
    return in_region(box, region, w, h) and all(d >= EDGE * side for d, shared, side in inner if shared)


EDGE = 0.02
"""Share of the image's side an element's centre must keep from a place's inner edge (``_in_place``)."""


def _is_element(
    m: Match, e: Element, whole: bool, several: bool, canon: list[int], marks: frozenset = frozenset()
) -> bool:
    """True when occurrence ``m`` is element ``e`` (``whole``: its words are all of the element's;
    with several required strings, all of the element's words on each line it touches) or, not
    ``whole``, lies in it. A line read twice is one line (``canon``: ``canonical_lines``). The
    marks the string quotes ("©" of "© 2026 Northwind", ``marks``: words with no letter or digit,
    which an element leaves out as bullets or icons) count as the element's."""
    mw, ew = {(canon[li], wi) for li, wi in m.words}, set(e.words)
    mw = {w for w in mw if w in ew or w not in marks} if mw - ew <= marks else mw
    if not mw <= ew:
        return False
    if not whole or mw == ew:
        return True
    touched = {li for li, _ in mw}
    return several and all(w in mw for w in ew if w[0] in touched)


def _wrapped(m: Match, read: _ReadElement) -> bool:
    """True when occurrence ``m`` is every word of two or more consecutive lines of their own
    (``read.own``), marks aside: a paragraph or bullet that wraps, read in reading order across
    its lines, is a whole element ("Note: ... (draft)" around it is not: "Note:" is left out)."""
    mw = {(read.canon[li], wi) for li, wi in m.words}
    touched = [set(e.words) for e in read.own if set(e.words) & mw]
    union = set().union(*touched) if touched else set()
    return len(touched) >= 2 and mw <= union and all(w in mw or w in read.marks for w in union)


def _block_around(m: Match, read: _ReadElement) -> str | None:
    """The text of a block of two or more lines (``read.own``) that holds occurrence ``m`` and more
    words (marks aside), or None: a paragraph's first line is no paragraph ("Does the paragraph
    read exactly 'X'" of a block that runs on after 'X' is not "yes"; nor "no": lines of two
    paragraphs close together read as one block)."""
    mw = {(read.canon[li], wi) for li, wi in m.words}
    for e in read.own:
        ew = {w for w in e.words if w not in read.marks}
        if len({li for li, _ in e.words}) > 1 and mw & ew and not ew <= mw:
            return e.text
    return None


def _opens(m: Match, e: Element, read: _ReadElement) -> bool:
    """True when the element found, ``e``, is the first line of a wrapped occurrence ``m``
    (``_wrapped``): the finders' items are lines, so a bullet that wraps is found as its first."""
    mw = [(read.canon[li], wi) for li, wi in m.words]
    ew = {w for w in e.words if w not in read.marks}
    return bool(ew) and mw[0] in ew and ew <= set(mw) and _wrapped(m, read)


@dataclass
class _Elemented:
    """Rule "element" on one string's occurrences: those kept, the element the first lies in
    (or the first candidate's, for the evidence), whether the element is unknown, and why they
    failed ("" if they did not)."""

    kept: list[Match]
    element: Element | None = None
    unknown: bool = False
    detail: str = ""


def _elemented(text: str, kept: list[Match], read: _ReadElement, several: bool) -> _Elemented:
    """Rule "element" (module docstring) on the occurrences ``kept`` of ``text``."""
    el, what = read.spec, describe_element(read.spec)
    if el.whole:
        alone = read.own + (read.found or [])  # a line or block of its own, or an element of the role
        own = [
            m
            for m in kept
            if any(_is_element(m, e, True, several, read.canon, read.marks) for e in alone) or _wrapped(m, read)
        ]
        if not own:
            first = {(read.canon[li], wi) for li, wi in kept[0].words}
            longer = next((e.text for e in read.own if first < set(e.words)), kept[0].text)
            return _Elemented([], None, False, f"{text!r} is read only inside longer text ({longer!r}), not as {what}")
        kept = own
        if "paragraph" in (el.phrase or "").lower():
            whole = [m for m in kept if _block_around(m, read) is None]
            if not whole:  # a line of a longer block: the paragraph may run on (or two paragraphs joined)
                block = _block_around(kept[0], read)
                return _Elemented(kept, None, True, f"{text!r} is read as part of the block {block!r}, not all of it")
            kept = whole
    if read.found is None:
        return _Elemented(kept, None, True)
    pairs = [
        (m, e)
        for m in kept
        for e in read.found
        if _is_element(m, e, el.whole, several, read.canon, read.marks) or (el.whole and _opens(m, e, read))
    ]
    if not pairs:
        shown = " / ".join(repr(e.text) for e in read.found[:3]) + (" ..." if len(read.found) > 3 else "")
        if el.role == "title" and el.whole and "headline" in (el.phrase or ""):
            # a newsletter's "main headline" is its lead article's heading, not the masthead the title
            # rule finds: the string read as a line of its own may be it (a tester's page)
            why = f"{text!r} stands as a line of its own and {what} reads {shown}: 'headline' may name either"
            return _Elemented(kept, read.found[0], True, why)
        if el.role == "heading" and "sub" in (el.phrase or "").lower():
            # a subheading may be set smaller than the body-relative size the heading rule needs (the
            # line under a pricing page's heading, a tester's page): read elsewhere, it may be the one
            why = f"{text!r} is read on the page and {what} reads {shown}: a subheading may be set in smaller type"
            return _Elemented(kept, read.found[0], True, why)
        if read.page is not None and (why := unknown_element(el, text, kept, read.page, read.found)):
            return _Elemented(kept, read.found[0], True, why)
        said = f"not {text!r}" if el.whole else f"which does not contain {text!r}"
        return _Elemented([], read.found[0], False, f"{what} reads {shown}, {said}")
    passing = list(dict.fromkeys(m for m, _ in pairs))
    return _typed(text, passing, pairs[0][1], read)


def _typed(text: str, passing: list[Match], first: Element, read: _ReadElement) -> _Elemented:
    """Occurrences ``passing`` of a generic role with no relation kept only where the page types
    that role (``generic_roles.typed_whole``), and a number read as "the heading" that is one of a
    series (``generic_roles.series_heading``): else the element part is unknown, never "yes"."""
    el = read.spec
    if el.role == "whole" and el.phrase and not read.related and read.page is not None:
        typed, why = typed_whole(el.phrase, text, passing, read.page)
        if typed:
            return _Elemented(typed, first)
        refuted = table_refutes(el.phrase, text, passing, read.page)
        return _Elemented([], first, False, refuted) if refuted else _Elemented(passing, first, True, why)
    if el.role == "heading" and el.whole and read.page is not None and series_heading(text, passing, read.page):
        why = f"{text!r} is one of a row or column of numbers in one type size, not a heading"
        return _Elemented(passing, first, True, why)
    return _Elemented(passing, first)


@dataclass
class _StringResult:
    """Rules 1-6 on one required string: its record, the occurrences that pass them all, the
    enclosing box found, the parts left unknown, and why the element or style rule failed."""

    record: dict
    passing: list[Match]
    box: Box | None = None
    box_unknown: bool = False
    style_unknown: bool = False
    style_detail: str = ""
    element_unknown: bool = False
    element_detail: str = ""
    relation_unknown: bool = False
    side_unknown: bool = False


def _decide_string(
    text: str,
    spec: TextSpec,
    exact: Exact,
    anchors: list[ReadAnchor],
    element: _ReadElement | None,
    lines: list[Line],
    size: tuple[int, int],
    gray: np.ndarray | None,
    rgb: np.ndarray | None,
    role_anchors: list[ReadRoleAnchor] = (),
) -> _StringResult:
    """Rules 1-6 on one required string ``text`` (module docstring) of an image of ``size`` (w, h)
    pixels; ``gray`` and ``rgb`` are the image's arrays for rules 5 and 6 (None: no image)."""
    occ, best = exact(text)
    if not occ:
        return _StringResult(_record(text, best, "read", False), [])
    kept = [m for m in occ if in_region(m.box, spec.region, *size)]
    rule = "all" if kept else "region"
    side_unknown = False
    if rule == "all":
        stack = len(spec.texts) if spec.arrangement in ("top_to_bottom", "lines") else 1
        strict = anchored(kept, anchors, spec.locators, lines, len(spec.texts) == 1, stack, rgb=rgb)
        if not strict:  # beside the anchor but off its row: "to the right of" is left to a VLM
            strict = anchored(kept, anchors, spec.locators, lines, len(spec.texts) == 1, stack, True, rgb)
            side_unknown = bool(strict)
        kept = strict
        rule = "all" if kept else "anchor"
    related = role_anchored(kept, role_anchors) if rule == "all" and role_anchors else kept
    relation_unknown = rule == "all" and not related  # "directly below the title" unseen: unknown, never "no"
    kept = related or kept
    elemented = None
    if rule == "all" and element is not None:
        elemented = _elemented(text, kept, element, len(spec.texts) > 1)
        kept, rule = elemented.kept, "all" if elemented.kept else "element"
    box, box_unknown = None, False
    if rule == "all" and spec.in_box:
        kept, box = _boxed(kept, gray)
        box_unknown = box is None
    styled = None
    if rule == "all" and (spec.weight or spec.colour):
        styled = _styled(text, kept, spec, lines, rgb)
        kept, rule = styled.kept, styled.rule
    record = _record(text, (kept or occ)[0], rule, rule == "all")
    if elemented is not None and elemented.element is not None:
        record["element"] = elemented.element.as_dict() | {"conf": words_conf(lines, elemented.element.words)}
    if styled is not None and styled.style is not None:
        record["style"] = styled.style.as_dict()
    return _StringResult(
        record,
        kept if rule == "all" else [],
        box,
        box_unknown,
        style_unknown=styled is not None and styled.unknown,
        style_detail=styled.detail if styled is not None else "",
        element_unknown=elemented is not None and elemented.unknown,
        element_detail=elemented.detail if elemented is not None else "",
        relation_unknown=relation_unknown,
        side_unknown=side_unknown,
    )


def _arranged(passing: list[list[Match]], arrangement: str, limit: int = 20000) -> bool:
    """True when one occurrence per string (distinct words) can be chosen in ``arrangement``."""
    n = 1
    for p in passing:
        n *= max(1, len(p))
    if n > limit:  # too many combinations: keep the first occurrences of each string
        passing = [p[:3] for p in passing]
    for combo in product(*passing):
        used = [set(m.words) for m in combo]
        if any(not used[i].isdisjoint(used[j]) for i in range(len(used)) for j in range(i)):
            continue
        if in_arrangement([m.box for m in combo], arrangement):
            return True
    return False


def _failed_string(
    records: list[dict], anchors: list[dict], spec: TextSpec, details: dict[str, str]
) -> tuple[str, str] | None:
    """(rule, detail) of the first required string that failed one of rules 1-6, or None;
    ``details`` holds the detail of the element and style rules, by rule."""
    for r in records:
        if r["rule"] == "read":
            near = (
                f" (best match {r['ocr_text']!r}, similarity {r['similarity']:.2f})"
                if r["ocr_text"]
                else " (no text read)"
            )
            return "read", f"{r['text']!r} not read{near}"
        if r["rule"] == "region":
            where = (
                f"the {spec.region} half"
                if spec.region in ("top", "bottom", "left", "right")
                else f"the {spec.region} region"
            )
            return "region", f"{r['text']!r} read, but not in {where}"
        if r["rule"] == "anchor":
            missing = [
                t
                for a in anchors
                if not a["found"]
                for t in (a["text"], a.get("other"))
                if t is not None and not (a["boxes"] if t == a["text"] else a["other_boxes"])
            ]
            if missing:
                return "anchor", f"anchor {missing[0]!r} not read"
            rels = ", ".join(
                f"{a['relation']} {a['text']!r}" + (f" and {a['other']!r}" if "other" in a else "") for a in anchors
            )
            return "anchor", f"{r['text']!r} read, but not {rels}"
        if r["rule"] in ("element", "style"):
            return r["rule"], details[r["rule"]]
    return None


def _named(element: ElementSpec) -> str:
    """``element`` in words; a generic role by its own words ("the card title", not "the element")."""
    return f"the {element.phrase}" if element.role == "whole" and element.phrase else describe_element(element)


def _unknown_part(
    spec: TextSpec, flags: tuple[bool, bool, bool, bool, bool], asked: list[str], details: str = ""
) -> tuple[str, str] | None:
    """(rule, detail) of the first part left unknown when every string is read, or None; ``flags``
    say whether the element, the enclosing box, the style, a role anchor's relation and a side
    relation off the anchor's row are unknown; ``details``: why the element is unknown, when said."""
    element, box, style, relation, side = flags
    if element:
        return (
            "element",
            f"the strings are read; {details or describe_element(spec.element) + ' is not found on this page'}",
        )
    if box:
        return "box", "the strings are read; no enclosing box was found around them"
    if style:
        return "style", f"the strings are read; their {' and '.join(asked)} could not be measured"
    if relation:
        said = " and ".join(repr(a.phrase) for a in spec.role_anchors)
        return "anchor", f"the strings are read; {said} is not seen (the anchor not found, or not there)"
    if side:
        said = ", ".join(f"{a.relation.replace('_', ' ')} {a.text!r}" for a in spec.anchors)
        return "anchor", f"the strings are read {said}, but off its row: a VLM must say whether that counts"
    return None


_PARTS = ("element", "box", "style", "relation", "side")
"""The parts of a string's decision that may be left unknown (``_StringResult.<part>_unknown``)."""


def decide_text(
    spec: TextSpec,
    lines: list[Line],
    image: Image.Image | None,
    size: tuple[int, int],
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> TextDecision:
    """Decide ``spec`` on OCR ``lines`` of an image of ``size`` (w, h) pixels (module rules 1-8).

    Args:
        image: the judged image, for the elements found from pixels (``spec.element``), the
            enclosing-box search (``spec.in_box``) and the style (``spec.weight``, ``spec.colour``);
            None skips them (those parts are then unknown).
        case_sensitive, lenient, max_lines: matching rules of ``rewards.text.ocr.text_match``.
    """
    w, h = size

    def exact(text: str) -> tuple[list[Match], Match | None]:
        ms = find_matches(text, lines, w, h, None, case_sensitive, lenient, max_lines)
        return [m for m in ms if m.found], (ms[0] if ms else None)

    # 1-6, string by string
    anchors_read = read_anchors(spec, exact)
    element = _read_element(spec, lines, image, size)
    role_anchors = read_role_anchors(spec.role_anchors, lines, image, size)
    gray = np.asarray(image.convert("L")) if image is not None and spec.in_box else None
    pixels = image is not None and (spec.weight or spec.colour or spec.anchors)  # style; a pill's size (in_section)
    rgb = np.asarray(image.convert("RGB")) if pixels else None
    first = label_exact(exact) if getattr(spec.element, "role", None) == "card" and len(spec.texts) > 1 else exact
    results = [
        _decide_string(t, spec, exact if k else first, anchors_read, element, lines, size, gray, rgb, role_anchors)
        for k, t in enumerate(spec.texts)
    ]
    records = [r.record for r in results]
    anchors = [a.record for a in anchors_read]  # role anchors: named in ``unknown`` when unseen
    found_box = next((r.box for r in reversed(results) if r.box is not None), None)
    flags = tuple(any(getattr(r, f"{part}_unknown") for r in results) for part in _PARTS)
    element_unknown, box_unknown, style_unknown, relation_unknown, side_unknown = flags
    asked = [f"weight {spec.weight!r}"] * bool(spec.weight) + [f"colour {spec.colour!r}"] * bool(spec.colour)
    where = [f"element {_named(spec.element)!r}"] if spec.element is not None else []
    elements = [e.as_dict() for e in (element.found or [])[:MAX_ELEMENTS_SHOWN]] if element is not None else []

    def result(holds, rule, detail):
        unknown = []
        if holds is None:
            unknown = (
                (where if element_unknown else [])
                + (["enclosing box"] if box_unknown else [])
                + (asked if style_unknown else [])
                + [f"relation {a.phrase!r}" for a in spec.role_anchors if relation_unknown]
                + ["the side relation off the anchor's row"] * side_unknown
            )
        return TextDecision(holds, rule, detail, records, anchors, found_box, unknown, elements)

    details = {
        "element": next((r.element_detail for r in results if r.element_detail), ""),
        "style": next((r.style_detail for r in results if r.style_detail), ""),
    }
    failed = _failed_string(records, anchors, spec, details)
    if failed is not None:
        return result(False, *failed)
    # 7. count, 8. arrangement
    if spec.count is not None and not element_unknown:  # a count over the whole page is not the element's
        n = len(results[0].passing)
        if n != spec.count:
            return result(False, "count", f"{spec.texts[0]!r} read {n} time(s), expected {spec.count}")
    passing = [r.passing for r in results]
    if len(spec.texts) > 1 and spec.arrangement != "all" and not _arranged(passing, spec.arrangement):
        return result(False, "arrangement", f"the strings are read, but not {spec.arrangement.replace('_', ' ')}")
    if element is not None and element.spec.role == "card" and element.found and all(passing):
        # "the card 'Gate' showing '1'" on a borderless grid of label/value pairs; a label and a figure of two cards
        apart = grid_apart([p[0] for p in passing], element.found, lines, element.canon)
        if apart := apart or in_two_cards(passing, element.found):
            return TextDecision(None, "arrangement", apart, records, anchors, found_box, [apart], elements)
    unknown = _unknown_part(spec, flags, asked, next((r.element_detail for r in results if r.element_unknown), ""))
    if unknown is not None:
        return result(None, *unknown)
    return result(
        True,
        "all",
        "every string read"
        + (f" as {describe_element(spec.element)}" if spec.element is not None else "")
        + (" and placed" if spec.region or spec.anchors or spec.in_box or spec.role_anchors else ""),
    )
