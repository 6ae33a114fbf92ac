"""The question compiler: a rubric question -> a spec that code can decide from OCR words and boxes.

``compile_question`` reads one yes/no question and returns a :class:`QuestionSpec`: the text
part code can check (:class:`TextSpec`) and the parts only a VLM can decide (``vlm_parts``).
It reads the question in these steps, each in a small module of its own:

1. **Quotes** (``rewards.text.questions.question_quotes``): "double", “curly”, 'single' (an apostrophe
   touching a letter is no quote). No quote: nothing to compile (form ``none``), except one
   unquoted string after "exactly:" that runs to the final "?" of a singular question
   (``question_quotes.UNQUOTED``).
2. **Refusals** (``question_quotes.refusal``): negation ("not", "no", "without", "rather than")
   and choices ("either", "or" between quotes) make the whole question VLM-only: a failed text
   part would not mean "no".
3. **Roles of the quotes** (``question_quotes.split_quotes``, ``_roles``): a quote that is part of
   a longer quote is a clarification ("with an apostrophe after the final "s""); a quote after a
   relation phrase is an anchor ("directly below "MENU"", "to the right of "Step 1"", "in the
   'men' row"); the others are the required strings. "between "A" and "B"" pairs two anchors; a
   quote before the question's reading verb, when required quotes follow it, names the element
   asked about (a "context" anchor: "the label under the bar with the numeric label "54" ... read
   exactly").
4. **Form** (``rewards.text.questions.question_form``): lines ("first line X, second line Y", a line break
   inside the quote, "followed by the two lines"), order ("from top to bottom", "left to right",
   "in order", "then"), a count of one string ("exactly once", "twice", "3 times"), case ("in
   uppercase": the strings are upper-cased), a table row ("a row labeled 'A' with values '1',
   '2'", "arranged horizontally"), else one exact string or a list (all present).
5. **Place** (``rewards.text.questions.question_place``): quadrants, corners, bands, centre, halves of the
   image (``rewards.text.ocr.text_match.REGION_FRACTIONS``); a side named on a container ("the left
   panel", "the upper content box") is that side of the image; a place *of* another element
   ("the top of the legend") is a locator and is not checked. "inside the dashed rectangle" asks
   for an enclosing box (``TextSpec.in_box``), found by the OCR judge or left unchecked.
6. **The rest** (``rewards.text.questions.question_residue``): with the locator phrases set aside (step 7
   reads them), every word left must be a known filler, else it is a part only a VLM can decide
   (a typeface, "icon", counts of elements "exactly 2 legend entries", "each", or any unknown
   word: the compiler never guesses). Bold / regular weight and a colour said of the text itself
   ("in white text", "the gray source note") become ``TextSpec.weight`` and ``TextSpec.colour``
   (``rewards.text.questions.question_style``), measured from pixels; a colour said of a badge, fill or
   background stays a VLM part.
7. **The element and the locators** (``rewards.text.questions.question_element``): the subject ("the large
   main title word", "the second KPI card from the left", "the y-axis") becomes
   ``TextSpec.element`` when every word of it is in the role vocabulary; every locator phrase is
   either represented (the element, a place of the image, an anchor relation, in_box, "in the
   NPS card") and listed in ``TextSpec.locators``, or a VLM part ``locator '<phrase>'`` ("between
   the drawing of a cup and the donut", "in panel (b)", "beneath the eleventh bottle"). "Starts
   with" / "ends with" is a VLM part too (``claim '...'``): only containment is checked.

A spec with a text part and no ``vlm_parts`` is decided by code both ways. With ``vlm_parts`` the
text part is a necessary condition: its failure decides "no", its success decides nothing. An
unrepresented locator is therefore never answered "yes" by OCR (issue 17: a string found in the
wrong element is no pass).

The spec's ``form`` (:func:`form_of`: relation, box, place, colour, weight, lines, order, count,
exact, list, none) labels the question for summaries and verdict records; no judge reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rewards.text.questions.question_element import locate
from rewards.text.questions.question_form import (
    FORM_PHRASES,
    LINE_BREAK,
    REVERSED,
    arrangement_of,
    cased,
    count_of,
    list_gaps_ok,
)
from rewards.text.questions.question_place import IN_BOX, asks_in_box, places_of
from rewards.text.questions.question_quotes import (
    ANCHOR_PHRASES,
    UNQUOTED,
    Quote,
    bare_question,
    between_pair,
    context_quotes,
    find_quotes,
    refusal,
    split_quotes,
)
from rewards.text.questions.question_residue import NOT_LOCATORS, residue
from rewards.text.questions.question_style import text_style

RELATIONS = (
    "below",
    "directly_below",
    "above",
    "directly_above",
    "right_of",
    "left_of",
    "same_row",
    "same_column",
    "between",
    "context",
)
"""How a required string may stand to a quoted anchor (decided from boxes by
``rewards.text.page.grounding.satisfies_relation``). "between" takes two anchors (``Anchor.other``);
"context" (a quote naming the element asked about) needs the anchor read and the string in its
column or row nearby (``rewards.text.page.relations.CONTEXT_REACH``)."""

WEIGHTS = ("bold", "regular")
"""The stroke weight a question may ask of its strings (``TextSpec.weight``)."""

COLOURS = ("white", "black", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown")
"""The ink colour names a question may ask of its strings (``TextSpec.colour``); synonyms
("grey", "navy", "teal", ...) are mapped onto these by the compiler."""

ARRANGEMENTS = ("all", "lines", "top_to_bottom", "left_to_right", "reading_order", "row")
"""How several required strings are laid out: all present anywhere; consecutive lines in order;
centres strictly from top to bottom; strictly left to right; in reading order (each next string
starts on a later line, or further right on the same line); one table row (left to right, every
box overlapping the first one's height band: "a row labeled 'A' with values '1', '2'")."""

FORMS = ("relation", "box", "place", "colour", "weight", "lines", "order", "count", "exact", "list", "none")
"""The question forms (:func:`form_of`), a label for summaries and verdict records only (nothing
dispatches on it): a check of where or how a string stands (relation to another string, inside a
box, in a place of the image, in a colour, in a weight), else of the text alone (consecutive
lines, an order, a count of one string, one exact string, a list of strings), or "none" (nothing
code-decidable)."""


@dataclass(frozen=True)
class Anchor:
    """A quoted string the required text must stand in ``relation`` (one of ``RELATIONS``) to;
    for "between", ``other`` is the second anchor's text."""

    text: str
    relation: str
    other: str | None = None


@dataclass(frozen=True)
class RoleAnchor:
    """An unquoted anchor named by its role ("directly below the title", "above the footer"): every
    required string must stand in ``relation`` ("below", "directly_below", "above",
    "directly_above") to an element of ``role`` found on the page (``ELEMENT_ROLES``: "title",
    "footer"); ``phrase`` is the question's words, for the verdict's reason. Found and the
    relation failing, or not found, the part is unknown (never "no": which element the finder
    took for the title is the weak link)."""

    role: str
    relation: str
    phrase: str = ""


ELEMENT_ROLES = (
    "title",
    "subtitle",
    "heading",
    "bullet",
    "list_item",
    "card",
    "legend_entry",
    "axis_title",
    "table_cell",
    "footer",
    "button",
    "whole",
)
"""The elements code finds from the page itself (``rewards.text.page.elements.find_elements``): the
title (the largest type in the top band), a subtitle (the next-largest line under it), a heading
(a line larger or bolder than the body near it), the Nth bullet of a list (a line led by a bullet
mark), the Nth item of a list or menu (lines of one column or row, in reading order), the Nth card
or KPI tile (filled or bordered rectangles of one kind, left to right then top to bottom), a
legend entry (text beside a colour swatch), an axis title (rotated text along a chart's left
edge: "y", or a line under the x tick labels: "x"), a table cell (by row label and column label),
a footer or source note (small type in the bottom band), text inside a button, badge or band (an
enclosing filled shape), and "whole": any text element (a line or block of lines of its own,
the role a question names when it says only "the label", "the text", "the caption")."""


@dataclass(frozen=True)
class ElementSpec:
    """The element of the page a question is about, as far as code can find it.

    Attributes:
        role: one of ``ELEMENT_ROLES``.
        ordinal: 1-based position among the elements of that role (top to bottom for bullets and
            list items, left to right then top to bottom for cards, tiles and columns); negative
            counts from the end (-1: the last one, -2: "the second card from the right"); None:
            any of them.
        axis: "x" or "y" for an axis title, else None.
        row, column: the row label and column label of a table cell (quoted or named), else None.
        container: the text that names the card, panel or tile the element lies in ("the NPS
            card" -> "NPS"), else None.
        whole: True when the element's whole text must be the required string ("reads exactly
            X": a match inside a longer line is not that element); False when the element need
            only contain it ("contains X", "includes X", "starts with X", the last with a VLM part
            for the start). For a card, button or table cell (elements that hold lines) True means
            a whole line or block of text inside it is the string. Role "whole" with False is no
            constraint and is not emitted, except with a ``container``.
        phrase: the question's words this spec represents (the subject: "large main title word"),
            for the verdict's reason.
    """

    role: str
    ordinal: int | None = None
    axis: str | None = None
    row: str | None = None
    column: str | None = None
    container: str | None = None
    whole: bool = True
    phrase: str = ""


@dataclass(frozen=True)
class TextSpec:
    """The code-decidable text part of a question.

    Attributes:
        texts: the required strings, exactly as quoted (after the case rule).
        arrangement: one of ``ARRANGEMENTS``.
        count: when set, ``texts[0]`` must occur exactly this many times (not inside a word).
        region: a place name of ``rewards.text.ocr.text_match.REGION_FRACTIONS`` every string's centre
            must lie in, or None.
        anchors: every required string must stand in each anchor's relation to one occurrence
            of the anchor's text.
        in_box: every required string must lie inside an enclosing box (border or filled panel).
        weight: "bold" or "regular" (``WEIGHTS``): the stroke weight of every required string, or None.
        colour: a ``COLOURS`` name: the ink colour of every required string, or None.
        element: the element every required string must be (or lie in), found from the page
            (``ElementSpec``), or None when the question names no element code can find.
        locators: the question's locator phrases this spec represents (checked by the rules
            above); those it does not represent are ``QuestionSpec.vlm_parts`` ("locator '...'").
        role_anchors: anchors named by their role ("directly below the title", ``RoleAnchor``).
        reads_whole: True when the question asks each string as a whole element ("reads exactly",
            "labeled"), False for containment ("includes", "contains"); the page locator rules
            (``rewards.text.page.locators``) then take only whole occurrences.
    """

    texts: tuple[str, ...]
    arrangement: str = "all"
    count: int | None = None
    region: str | None = None
    anchors: tuple[Anchor, ...] = ()
    in_box: bool = False
    weight: str | None = None
    colour: str | None = None
    element: ElementSpec | None = None
    locators: tuple[str, ...] = ()
    role_anchors: tuple[RoleAnchor, ...] = ()
    reads_whole: bool = field(default=False, compare=False)  # read from the wording, as the element's whole


@dataclass(frozen=True)
class QuestionSpec:
    """What code can decide of one question.

    Attributes:
        form: one of ``FORMS`` (:func:`form_of` of ``text``; "none": nothing code-decidable).
        text: the text part, or None.
        vlm_parts: what only a VLM can decide, in words ("bold", "colour 'navy'", "negation").
        note: for form "none", why.
    """

    form: str
    text: TextSpec | None = None
    vlm_parts: tuple[str, ...] = ()
    note: str = ""

    @property
    def decidable(self) -> bool:
        """True when code can answer both "yes" and "no"."""
        return self.text is not None and not self.vlm_parts


def none(note: str) -> QuestionSpec:
    """The spec of a question code can decide nothing of (form "none"), saying why in ``note``."""
    return QuestionSpec("none", note=note)


def _roles(question: str, quotes: list[Quote]) -> tuple[list[Quote], list[Anchor], list[str]]:
    """Step 3: (required quotes, anchors, VLM parts): the anchors of supported relations (a
    "between" anchor paired with the quote that closes it, context quotes first), and one VLM
    part per anchor whose relation code does not check ("next to", "near")."""
    required, anchored = split_quotes(question, quotes)
    pairs = {id(q): between_pair(question, q, required) for q, rel in anchored if rel == "unsupported:between"}
    required = [r for r in required if all(r is not p for p in pairs.values())]
    required, context = context_quotes(question, required)
    anchors = [Anchor(q.text, "context") for q in context]
    vlm_parts = []
    for q, rel in anchored:
        if pairs.get(id(q)) is not None:
            anchors.append(Anchor(q.text, "between", pairs[id(q)].text))
        elif rel.startswith("unsupported:"):
            vlm_parts.append(f"relation {rel.split(':', 1)[1]!r} to {q.text!r}")
        else:
            anchors.append(Anchor(q.text, rel))
    return required, anchors, vlm_parts


def _strip(bare: str, patterns) -> str:
    """``bare`` with every match of each pattern, in turn, replaced by a space."""
    for p in patterns:
        bare = p.sub(" ", bare)
    return bare


_CELL_SEPARATOR = re.compile(r"\s+\|\s+")
_TABLE_WORDS = re.compile(r"\b(?:rows?|table|cells?|columns?)\b")
_BLANK_CELL = re.compile(r"\[?(?:blank|empty)\]?|-|—|–", re.IGNORECASE)


def table_cells(bare: str, texts: list[str]) -> list[str] | None:
    """The cells of one quoted table row written with " | " between them ("'Pos | Team | Pts'"),
    when the question speaks of a row, table, cell or column; cells written "[blank]" (or a lone
    dash) are left out. None otherwise: a pipe in a card's line ("ViX | Youtube") is printed text."""
    if len(texts) != 1 or not _CELL_SEPARATOR.search(texts[0]) or not _TABLE_WORDS.search(bare):
        return None
    cells = [c.strip() for c in _CELL_SEPARATOR.split(texts[0])]
    cells = [c for c in cells if c and not _BLANK_CELL.fullmatch(c)]
    return cells if len(cells) >= 2 else None


def restated_once(texts: list[str]) -> list[str]:
    """``texts`` without a restatement: a question that quotes its strings twice over ('Is the dish
    "Burrata" priced at "12", with "Burrata" and "12" arranged horizontally?') asks for them once, so
    a run of two or more strings that repeats the whole run before it is dropped (else the row
    arrangement looked for "Burrata 12 Burrata 12" and answered "no"). A repeat of one string
    ("values '5', '5'") is kept: it can be two cells."""
    n = len(texts)
    if n >= 4 and n % 2 == 0 and texts[: n // 2] == texts[n // 2 :]:
        return texts[: n // 2]
    return texts


def form_of(text: TextSpec) -> str:
    """The ``FORMS`` name of a text part: the first that applies of "relation" (an anchor other
    than a "context" one: 'Is "Net" to the right of "Gross"?'), "box" (``in_box``), "place"
    (``region``: 'Is "Q3 Revenue" in the top-left corner?'), "colour" ('Is "Total" written in
    red?'), "weight" (bold / regular), then of the strings alone "lines", "order" (any other
    arrangement), "count", "exact" (one string) or "list"."""
    if any(a.relation != "context" for a in text.anchors) or text.role_anchors:
        return "relation"
    if text.in_box:
        return "box"
    if text.region is not None:
        return "place"
    if text.colour is not None:
        return "colour"
    if text.weight is not None:
        return "weight"
    if text.arrangement == "lines":
        return "lines"
    if text.arrangement != "all":
        return "order"
    if text.count is not None:
        return "count"
    return "exact" if len(text.texts) == 1 else "list"


def compile_question(question: str) -> QuestionSpec:
    """Compile one yes/no rubric question (module steps 1-6).

    Returns:
        A ``QuestionSpec``; form "none" (with ``note``) when code can decide nothing of it.
    """
    # 1. quotes
    question = re.sub(r"[ \t]{2,}", " ", question)  # runs of spaces (matching collapses them too)
    quotes = find_quotes(question)
    if not quotes:
        unquoted = UNQUOTED.match(question)
        if unquoted is None:
            return none("no quoted text")
        # "Does the first line read exactly: 1. Pfizer's Substantial Footprint?": one string after the colon
        return compile_question(f'{unquoted.group("head")} "{unquoted.group("text")}"?')
    bare = bare_question(question, quotes)

    # 2. refusals
    why = refusal(bare)
    if why is not None:
        return none(why)

    # 3. roles of the quotes
    required, anchors, vlm_parts = _roles(question, quotes)
    if not required:
        return none("every quote is an anchor or a clarification")
    texts = restated_once([t.strip() for q in required for t in LINE_BREAK.split(q.text) if t.strip()])

    # 4. form
    arrangement, count = arrangement_of(question, bare, required, texts), count_of(bare)
    cells = table_cells(bare, texts)
    if cells is not None:  # "does the header row read exactly 'Pos | Team | Pts'": cells, left to right in one row
        texts, arrangement = cells, "row"
    if count is not None and len(texts) > 1:
        return none("a count of several strings")
    texts = cased(bare, texts)
    reverse = REVERSED.search(bare)
    if reverse and len(texts) > 1 and arrangement in ("all", "row"):
        # "from right to left: 'A', 'B'" is B then A from left to right (no arrangement reads leftwards)
        texts = texts[::-1]
        if arrangement == "all":
            arrangement = "left_to_right" if reverse.group(1).startswith("right") else "top_to_bottom"
    if len(texts) > 1 and arrangement == "all" and not list_gaps_ok(question, required):
        vlm_parts.append("how the quoted strings relate")

    # 5. place
    region, relative_places, place_words = places_of(bare)
    vlm_parts += relative_places
    in_box = asks_in_box(bare)

    # 6. the rest
    weight, colour, rest = text_style(bare, residue(_strip(bare, [*FORM_PHRASES, IN_BOX, *ANCHOR_PHRASES])))
    vlm_parts += rest

    # 7. the element and the locator phrases
    first = next(i for i, q in enumerate(quotes) if q is required[0])
    element, locators, handed, role_anchors, whole = _element(
        question, bare, quotes, first, anchors, place_words, in_box, weight, colour, count, texts, arrangement
    )
    if arrangement == "row":  # "a row labeled 'A' with values ...": the arrangement checks the row
        row_subject = [p for p in handed if re.fullmatch(r"locator '(?:table |data )?rows?'", p)]
        handed = [p for p in handed if p not in row_subject]
        locators += tuple(p[len("locator '") : -1] for p in row_subject)
    vlm_parts += handed
    spec = TextSpec(tuple(texts), arrangement, count, region, tuple(anchors), in_box, weight, colour, element)
    spec = replace(spec, locators=locators, role_anchors=role_anchors, reads_whole=whole)
    return QuestionSpec(form_of(spec), spec, tuple(dict.fromkeys(vlm_parts)))


_WHOLE_OBJECT = (
    r" (?:exactly\b|(?:the |a |an )?(?:exact )?(?:text )?(?:label|entry|item|line)(?: text)?(?: exactly)? q\b)"
)
_CONTAINS = re.compile(r"\b(?:contains?|containing|includes?|including)\b(?!" + _WHOLE_OBJECT + ")")
"""Containment, unless the question says what is contained is a whole element ("contains the exact
label 'X'", "includes the line exactly 'X'", "contains exactly these lines"); "includes the exact
text 'X'" is containment."""
_IS_THE = re.compile(  # "Is the fifth navigation item ..., the single word "Programs"?"
    r"^(?:[^,]*, )*(?:is|are) (?:the|this|that) .*\bthe (?:[\w-]+ ){0,2}?(?:word|phrase|text|string|label|number|value"
    r"|name) q\b"
)
_LINE_OF = re.compile(
    r"\b(?:on|as|in) (?:the|its) (?:first|second|third|fourth|fifth|sixth|top|bottom|next|last|final) line\b"
    r"|\bline by line\b|\b(?:on|in) (?:two|three|four|five|separate) lines\b"
    r"|\bline break between the (?:two )?(?:sentences|lines|parts|words|phrases)\b"
)
_BETWEEN = re.compile(r"\b(?:located |positioned |placed )?between (?:the )?(?:[\w-]+ ){0,2}?q,? and (?:the )?q\b")
_EDGE = re.compile(r"\b(?:starts?|starting|begins?|beginning|ends?|ending) with\b")
_WHOLE = re.compile(
    r"\b(?:read|reads|reading|exact|exactly|labell?ed|titled|named|called|says?|saying|spells?|spelled|spelt)\b"
)


def _element(
    question: str,
    bare: str,
    quotes: list[Quote],
    first: int,
    anchors: list[Anchor],
    place_words: set[str],
    in_box: bool,
    weight: str | None,
    colour: str | None,
    count: int | None,
    texts: list[str],
    arrangement: str,
) -> tuple[ElementSpec | None, tuple[str, ...], list[str], tuple[RoleAnchor, ...], bool]:
    """Step 7 (``rewards.text.questions.question_element.locate``): (the element, the locator phrases the spec
    represents, the VLM parts: ``locator '...'`` for each phrase it does not, and "starts with" /
    "ends with", which no spec field checks, the anchors named by their role: ``RoleAnchor``, and
    whether the strings are asked as whole elements: ``TextSpec.reads_whole``).

    ``whole`` is True for "read(s) exactly", "is exactly", "labeled", "titled"; False for
    "contains", "includes" and the edge claims. A "whole" element that need not be whole is no
    constraint (None), and nor is the element of a count ("the word 'Total' appears twice").
    A cell with a row anchor and a column anchor is the table cell at their crossing."""
    lines = arrangement == "lines"  # "'A' on the first line and 'B' on the second": the form, no locator
    spelled = bare
    for p in NOT_LOCATORS:
        spelled = p.sub(" ", spelled)
    edge = _EDGE.search(spelled)
    whole = not _CONTAINS.search(spelled) and not edge
    whole = whole and bool(_WHOLE.search(spelled) or _IS_THE.search(spelled) or re.search(_WHOLE_OBJECT, spelled))
    style_words = {"bold", "bolded", "boldface"} if weight == "bold" else set()
    if colour is not None:
        style_words |= {colour, "grey" if colour == "gray" else colour, "dark", "light", "pale", "bright"}
    located = locate(
        question,
        bare,
        quotes,
        first,
        [*FORM_PHRASES, *NOT_LOCATORS, *([_LINE_OF] if lines else [])],
        [*ANCHOR_PHRASES, *([_BETWEEN] if any(a.relation == "between" for a in anchors) else [])],
        IN_BOX if in_box else None,
        place_words,
        {a.text for a in anchors if a.relation in ("context", "same_row", "same_column")},
        style_words,
        len(texts),
    )
    vlm_parts = list(located.vlm_parts)
    role_anchors = tuple(RoleAnchor(r, rel, ph) for r, rel, ph in located.role_anchors)
    whole = whole or (located.names_quote and not edge)  # "include the country label 'China'"
    if edge:
        vlm_parts.append(f"claim {edge.group(0)!r}")
    role = located.role
    rows = [a.text for a in anchors if a.relation == "same_row"]
    columns = [a.text for a in anchors if a.relation == "same_column"]
    row = column = None
    represented = located.represented
    # "In the 'Q1' row, does the 'Visits' cell read ...": the quote naming the cell is its column label
    named_cell = [
        a.text
        for a in anchors
        if a.relation == "context" and re.search(re.escape(a.text) + r"\W{0,2}\s+(?:column\s+)?cell\b", question)
    ]
    if role is None and len(rows) == 1 and not columns and len(named_cell) == 1 and "locator 'cell'" in vlm_parts:
        vlm_parts.remove("locator 'cell'")
        role, columns, represented = "table_cell", named_cell, (*represented, f"the {named_cell[0]!r} cell")
    if role in ("table_cell", "whole") and len(rows) == 1 and len(columns) == 1:
        role, row, column = "table_cell", rows[0], columns[0]
    if role == "whole" and re.fullmatch(r"(?:\w+ )*(?:word|phrase)s?(?: displayed| shown)?", located.phrase.lower()):
        whole = False  # "the word", "the phrase": part of a longer line as often as a line of its own
    if role is None or count is not None or (role == "whole" and not whole and located.container is None):
        return None, represented, vlm_parts, role_anchors, whole
    phrase = located.phrase or f"the {column!r} cell"
    element = ElementSpec(role, located.ordinal, located.axis, row, column, located.container, whole, phrase)
    return element, represented, vlm_parts, role_anchors, whole
