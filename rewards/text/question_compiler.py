"""The question compiler: a rubric question -> a spec that code can decide from OCR words and boxes.

``compile_question`` reads one yes/no question and returns a :class:`QuestionSpec`: the text
part code can check (:class:`TextSpec`) and the parts only a VLM can decide (``vlm_parts``).
It reads the question in these steps, each a small function below:

1. **Quotes** (``_quotes``): "double", “curly”, 'single' (an apostrophe touching a letter is no
   quote). No quote: nothing to compile (form ``none``), except one unquoted string after
   "exactly:" that runs to the final "?" of a singular question (``_UNQUOTED``).
2. **Refusals**: negation ("not", "no", "without", "rather than") and choices ("either", "or"
   between quotes) make the whole question VLM-only: a failed text part would not mean "no".
3. **Roles of the quotes** (``_split_quotes``): a quote that is part of a longer quote is a
   clarification ("with an apostrophe after the final "s""); a quote after a relation phrase is
   an anchor ("directly below "MENU"", "to the right of "Step 1"", "in the 'men' row"); the
   others are the required strings. "between "A" and "B"" pairs two anchors; a quote before the
   question's reading verb, when required quotes follow it, names the element asked about (a
   "context" anchor: "the label under the bar with the numeric label "54" ... read exactly").
4. **Form**: lines ("first line X, second line Y", a line break inside the quote, "followed by
   the two lines"), order ("from top to bottom", "left to right", "in order", "then"), a count
   of one string ("exactly once", "twice", "3 times"), case ("in uppercase": the strings are
   upper-cased), a table row ("a row labeled 'A' with values '1', '2'", "arranged horizontally"),
   else one exact string or a list (all present).
5. **Place** (``_region``): quadrants, corners, bands, centre, halves of the image
   (``rewards.text.text_match.REGION_FRACTIONS``); a side named on a container ("the left panel",
   "the upper content box") is that side of the image; a place *of* another element ("the top of
   the legend") is a locator and is not checked. "inside the dashed rectangle" asks for an
   enclosing box (``TextSpec.in_box``), found by the OCR judge or left unchecked.
6. **The rest** (``_residue``): locator phrases (the element's role, "the first bullet", "of the
   left white panel") are removed; every word left must be a known filler, else it is a part only
   a VLM can decide (a typeface, "icon", counts of elements "exactly 2 legend entries", "each",
   or any unknown word: the compiler never guesses). Bold / regular weight and a colour said of
   the text itself ("in white text", "the gray source note") become ``TextSpec.weight`` and
   ``TextSpec.colour``, measured from pixels (``_text_style``); a colour said of a badge, fill or
   background stays a VLM part.

A spec with a text part and no ``vlm_parts`` is decided by code both ways. With ``vlm_parts`` the
text part is a necessary condition: its failure decides "no", its success decides nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
``rewards.text.grounding.satisfies_relation``). "between" takes two anchors (``Anchor.other``);
"context" (a quote naming the element asked about) needs the anchor read and the string in its
column or row nearby (``rewards.text.grounding.CONTEXT_REACH``)."""

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

FORMS = ("exact", "list", "lines", "order", "count", "none")


@dataclass(frozen=True)
class Anchor:
    """A quoted string the required text must stand in ``relation`` (one of ``RELATIONS``) to;
    for "between", ``other`` is the second anchor's text."""

    text: str
    relation: str
    other: str | None = None


@dataclass(frozen=True)
class TextSpec:
    """The code-decidable text part of a question.

    Attributes:
        texts: the required strings, exactly as quoted (after the case rule).
        arrangement: one of ``ARRANGEMENTS``.
        count: when set, ``texts[0]`` must occur exactly this many times (not inside a word).
        region: a place name of ``rewards.text.text_match.REGION_FRACTIONS`` every string's centre
            must lie in, or None.
        anchors: every required string must stand in each anchor's relation to one occurrence
            of the anchor's text.
        in_box: every required string must lie inside an enclosing box (border or filled panel).
        weight: "bold" or "regular" (``WEIGHTS``): the stroke weight of every required string, or None.
        colour: a ``COLOURS`` name: the ink colour of every required string, or None.
    """

    texts: tuple[str, ...]
    arrangement: str = "all"
    count: int | None = None
    region: str | None = None
    anchors: tuple[Anchor, ...] = ()
    in_box: bool = False
    weight: str | None = None
    colour: str | None = None


@dataclass(frozen=True)
class QuestionSpec:
    """What code can decide of one question.

    Attributes:
        form: one of ``FORMS`` ("none": nothing code-decidable).
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
    return QuestionSpec("none", note=note)


# ---------------------------------------------------------------------------------- 1. quotes
_QUOTE = re.compile(
    r"\"((?:[^\"\\]|\\.)+)\"|“([^”]+)”|‘([^’]+)’(?![A-Za-z])|(?<![A-Za-z0-9])'(?!s\b)(.+?)'(?![A-Za-z0-9])", re.S
)
"""Double quotes may hold backslash-escaped quotes ("\"God made the integers\"", as JSON rows
carry them); a single quote opens a quote unless it touches a letter or is a possessive ("(a)'s")."""


@dataclass(frozen=True)
class _Quote:
    start: int
    end: int
    text: str


def _quotes(question: str) -> list[_Quote]:
    out = []
    for m in _QUOTE.finditer(question):
        text = next(g for g in m.groups() if g is not None)
        if m.group(1) is not None:
            text = re.sub(r'\\(["\\])', r"\1", text)
        if text.strip():
            out.append(_Quote(m.start(), m.end(), text.strip()))
    return out


def _bare(question: str, quotes: list[_Quote]) -> str:
    """The question in lower case with every quote replaced by the placeholder " Q "."""
    parts, pos = [], 0
    for q in quotes:
        parts += [question[pos : q.start], " Q "]
        pos = q.end
    return re.sub(r"\s+", " ", "".join(parts + [question[pos:]]).lower()).strip()


_UNQUOTED = re.compile(
    r"^(?P<head>(?:[^:]*?, )?(?:[Dd]oes|[Ii]s) (?:the|this|that) [^:\"“”‘’']*?\bexactly(?: as)?):\s*"
    r"(?P<text>[^\"“”]+?)\s*\?\s*$",
    re.S,
)
"""A question that gives its one string unquoted after "exactly:" and up to the final "?" (a
singular subject: "do the titles read exactly: A, B" may list several strings and is left alone)."""

# ---------------------------------------------------------------------------------- 2. refusals
_NEGATION = re.compile(
    r"\b(?:not|no|none|never|without|rather than|instead of|absent|missing|nothing|neither|nor"
    r"|isn't|aren't|doesn't|don't|removed|omitted|only)\b|n't\b"
)
_CHOICE = re.compile(r"\beither\b|q,? or q\b|\bor (?:the )?(?:word |text |label )?q\b")
_EXAMPLES = re.compile(
    r"\be\.g\.|\bfor example\b|\bfor instance\b|\bsuch as\b|\blike q\b|\bsimilar to\b|\bmeaning\b"
    r"|\btranslat\w*|\bequivalent\b|\bsynonym"
)

# ---------------------------------------------------------------------------------- 3. roles
_REL_BEFORE = re.compile(
    r"(?P<adv>\b(?:directly|immediately|just|right)\s+)?"
    r"(?P<rel>under column|in column|in the row|in the column|in row|below|under(?:neath)?|beneath|above|over"
    r"|on top of|to the right of|right of|to the left of|left of"
    r"|next to|beside|between|after|before|near|aligned (?:horizontally |vertically )?with|in line with)"
    r"(?:\s+(?:the|a|an|this|that|its))?(?:\s+(?!exactly\b|reads?\b|is\b|are\b)[\w-]+){0,2}?\s*$"
)
_UNSUPPORTED_RELATIONS = {"next to", "beside", "between", "after", "before", "near"}


def _relation_of(before: str, after: str) -> str | None:
    """The relation named just before a quote (``before``: the lower-case text since the previous
    quote), or None when the quote is not an anchor. ``after`` is the text following it."""
    if re.match(r"^\s*(?:row|line)\b", after) and re.search(r"\b(?:in|on|of) (?:the|that|this)\s*$", before):
        return "same_row"
    if re.match(r"^\s*column\b", after) and re.search(r"\b(?:in|under|of) (?:the|that|this)\s*$", before):
        return "same_column"
    m = _REL_BEFORE.search(before)
    if m is None:
        return None
    rel, direct = m.group("rel"), bool(m.group("adv"))
    if rel in _UNSUPPORTED_RELATIONS:
        return "unsupported:" + rel
    if rel.startswith(("aligned", "in line")) and re.match(
        r"^\s*(?:box|panel|card|tile|section|block|row|column|cell)s?\b", after
    ):
        return "unsupported:aligned with the box of"  # "aligned with the "02" box": boxes align, not the strings
    if rel in ("below", "under", "underneath", "beneath"):
        return "directly_below" if direct else "below"
    if rel in ("above", "over", "on top of"):
        return "directly_above" if direct else "above"
    if rel in ("to the right of", "right of"):
        return "right_of"
    if rel in ("to the left of", "left of"):
        return "left_of"
    if rel.startswith("aligned vertically") or "column" in rel:
        return "same_column"
    return "same_row"  # aligned (horizontally) with, in line with, in the row


def _split_quotes(question: str, quotes: list[_Quote]) -> tuple[list[_Quote], list[tuple[_Quote, str]]]:
    """(required quotes, [(anchor quote, relation)]); clarifications (a quote inside a longer,
    earlier quote: "... "practices' data" with an apostrophe after the final "s"") are dropped."""
    required, anchors = [], []
    clarification = False
    for i, q in enumerate(quotes):
        gap = question[quotes[i - 1].end : q.start].lower() if i else ""
        in_list = bool(i) and re.fullmatch(r"[\s,;:]*(?:and|then|or)?[\s,;:]*", gap) is not None
        inside = any(q.text != o.text and q.text in o.text for o in quotes[:i])
        if inside and (not in_list or clarification):  # "'subdominant', 'tonic', and 'dominant'" is a list
            clarification = True
            continue
        clarification = False
        before = question[quotes[i - 1].end if i else 0 : q.start].lower()
        after = question[q.end : q.end + 20].lower()
        rel = _relation_of(before, after)
        if rel is None:
            required.append(q)
        else:
            anchors.append((q, rel))
    # The same string both anchored and required ("...under "MAIN COURSE", ... "MAIN COURSE"")
    required_texts = {q.text for q in required}
    anchors = [(q, r) for q, r in anchors if q.text not in required_texts or r == "unsupported:between"]
    return required, anchors


# ---------------------------------------------------------------------------------- 4. form
_LINE_BREAK = re.compile(r"\n|\\n")  # a newline, or the two characters backslash-n some rows carry
_LINES = re.compile(
    r"\b(?:first|1st|top|upper) line\b.*\b(?:second|2nd|bottom|lower|next) line\b|\bline break\b"
    r"|\bfollowed by (?:the |a )?(?:two|three|four|\d) (?:[\w-]+ )?lines\b|\bone per line\b"
    r"|\bon (?:separate|consecutive|successive) lines\b|\beach (?:on|as) its own line\b"
)
_TOP_TO_BOTTOM = re.compile(r"\b(?:from )?top[- ]to[- ]bottom\b|\bstacked vertically\b")
_LEFT_TO_RIGHT = re.compile(r"\b(?:from )?left[- ]to[- ]right\b")
_SIDE_BY_SIDE = re.compile(
    r"\b(?:arranged|placed|set|shown) (?:horizontally|side by side|in (?:a|one) row)\b|\bside by side\b"
    r"|\bon the same (?:line|row)\b"
)
_READING = re.compile(
    r"\bin (?:that |this |the same |the following |reading )?(?:order|sequence)\b|\bthen\b"
    r"|\bfollowed by\b|\bin reading order\b"
)
_NUMBER = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_TIMES = re.compile(
    r"\b(?:exactly |only |precisely )?(?P<n>once|twice|thrice|(?:\d+|one|two|three|four|five|six|seven"
    r"|eight|nine|ten) times)\b"
)
_UPPER = re.compile(
    r"\b(?:in|using|with) (?:all[- ])?(?:upper[- ]?case|capital letters|capitals|block capitals|caps)"
    r"(?! [a-z]\b)(?: letters)?\b|\ball[- ]caps\b|\ball (?:upper[- ]?case|capitals)\b"
)
_LOWER = re.compile(r"\b(?:in|using) (?:all[- ])?lower[- ]?case(?! [a-z]\b)(?: letters)?\b|\ball lower[- ]?case\b")
_SPELLING = re.compile(
    r"\bwith (?:an? |the )?(?:uppercase|capital|lowercase) [a-z]\b(?: followed by lowercase letters)?"
    r"|\b(?:with )?(?:each|both|all|every) (?:of the )?words? (?:capitalized|capitalised|in title case)"
    r"|\b(?:with )?capital [a-z](?:,? (?:and )?(?:capital )?[a-z]\b)*"
    r"|\b(?:and )?the remaining letters (?:in )?lowercase\b"
    r"|\b(?:and )?separated by (?:a )?single spaces?\b|\bseparated by spaces\b"
    r"|\b(?:including|with) (?:a |an |the )?(?:single )?(?:comma|period|full stop|colon|semicolon|apostrophe|hyphen|question mark"
    r"|exclamation mark|dash)(?: (?:at the end|after q|after the final q(?: in q)?|between q and q|before q))?"
    r"|\bas follows\b"
    r"|\b(?:including|with) (?:the |both )?(?:single |double )?(?:quotes|quotation marks|parentheses|brackets) around"
    r" (?:[\w-]+ ){0,3}?(?:[\w-]+)(?= and\b|,|\?|$)"
    r"|\b(?:and )?(?:the |a )?trailing (?:digit|number|numeral|letter|character|period|comma|colon|symbol) ?[\w.]?(?=\W|$)"
)


def _times(n: str) -> int:
    return {"once": 1, "twice": 2, "thrice": 3}.get(n) or int(_NUMBER.get(n.split()[0], n.split()[0]))


# ---------------------------------------------------------------------------------- 5. place
_IMAGE_NOUNS = (
    r"(?:image|slide|page|poster|chart|figure|canvas|document|infographic|dashboard|graphic|picture|design"
    r"|frame|layout|composition|diagram|flyer|screen|webpage)"
)
_CONTAINERS = (
    r"(?:panel|column|box|half|side|strip|section|card|sidebar|block|container|frame|pane|area|region"
    r"|rectangle|band)s?\b"
)
_PLACE_WORDS = re.compile(
    r"\b(?:(?:very|far|extreme) )?(?:(?:top|upper|bottom|lower)[- ](?:left|right|center|centre|middle)"
    r"|top|bottom|upper|lower|left|right|center|centre|middle|centered|centred)\b"
    r"(?:[- ](?:corner|quadrant|half|edge|side|area|part|portion|region|background|band|margin)s?\b)?"
)
_NOT_A_PLACE = re.compile(  # "top to bottom" (an order), "left-aligned", "top line", "center hole"
    r"^[- ]?(?:to[- ](?:bottom|top|right|left)|aligned|line|row|column|entry|item|bullet|sentence|paragraph|heading"
    r"|subheading|title|subtitle|text|word|caption|note|menu|list|group|block|hole)\b"
)
_OF_ELEMENT = re.compile(
    r"^(?:[- ](?:of|in|inside|within|on) (?:the |this |that |each |its |a )?((?:[\w'’-]+ ){0,3}?)([\w-]+))"
)
_CENTRED_BY_ELEMENT = re.compile(
    r"^ (?:below|beneath|under|above|directly|immediately|between|within|inside|in the)"
    r"|^ (?:at|in|on|along|near) (?:the )?(?:very )?(?:top|bottom|upper|lower)? ?(?:of|in|inside|within) (?:the )?"
    r"(?:[\w-]+ )?(?!" + _IMAGE_NOUNS + r")\w"
)
_CLAIM_VERB = re.compile(
    r"\b(?:placed|located|positioned|situated|sits?|set|arranged|shown|appears?|aligned|anchored)"
    r"(?: (?:\w+ly))? (?:in|at|on|near|inside|within|along|toward|towards|to|in the)? ?(?:the )?"
    r"(?:very |far )?$"
)
_MAIN_VERB = re.compile(
    r"\b(?:read|reads|contain|contains|show|shows|display|displays|say|says|state|states|consist"
    r"|consists|include|includes|spell|spells|labeled|labelled|exactly|titled|named|appear|appears)\b"
)
_LEAD = re.compile(
    r"^(?:in|within|inside|on|across|at|along|for) (?:the|that|this) (?:same )?(?P<np>[^,]*?)"
    r"(?=,| does\b| do\b| is\b| are\b)"
)


def _region(bare: str) -> tuple[str | None, list[str]]:
    """The place of the image the question names (a ``REGION_FRACTIONS`` key, or None), and the
    places it claims relative to another element ("placed in the top-left corner of the inset
    panel", "in the legend ... on the far right"), which only a VLM can check.

    A place word is a place of the image unless it names no place (``_NOT_A_PLACE``), is a
    place *of* another element ("the top of the legend": a locator, or a claim after a placing
    verb), follows a leading "In the <element>," (relative to that element), or says the centre
    of another element ("centered below the title"). Contradicting places give None.
    """
    relative_claims, tokens = [], []
    lead = _LEAD.match(bare)
    lead_end = lead.end() if lead and not re.search(r"\b" + _IMAGE_NOUNS + r"s?$", lead.group("np")) else None
    first_quote = bare.find(" q ", lead_end or 0) if " q " in bare[lead_end or 0 :] else len(bare)
    last_quote = bare.rfind(" q ")
    for m in _PLACE_WORDS.finditer(bare):
        words, after = m.group(0), bare[m.end() : m.end() + 60]
        if _NOT_A_PLACE.match(after):
            continue
        if re.search(
            r"\bq (?:[\w-]+ ){0,2}?" + _CONTAINERS + r" (?:on|at|in) (?:the )?(?:very |far )?$", bare[: m.start()]
        ):
            continue  # "aligned with the "02" box on the left": the place of the anchor's element
        of = _OF_ELEMENT.match(after)
        of_other = (
            of
            and not re.fullmatch(_IMAGE_NOUNS + "s?", of.group(2))
            and of.group(2) not in ("entire", "whole", "overall")
        )
        # "the heading positioned to the right of the icon ... read exactly 'X'": a locator of the subject
        claimed = bool(_CLAIM_VERB.search(bare[: m.start()])) and not (
            m.start() < last_quote and _MAIN_VERB.search(bare[m.end() :])
        )
        if of_other:
            if claimed:
                relative_claims.append(f"place {words!r} of {of.group(1) + of.group(2)!r}")
            continue
        if lead_end is not None and m.start() >= lead_end and not of:
            if claimed or m.start() > first_quote:  # a claim, not a locator of the element ("placed at")
                relative_claims.append(f"place {words!r} inside {lead.group('np')!r}")
            continue
        centre = re.search(r"cent(?:er|re|red)|middle", words)
        if centre and (
            re.fullmatch(r"center|centre|middle", words)
            and re.match(r"^[- ]?(?:[\w-]+ ){0,2}?" + _CONTAINERS, after)
            or _CENTRED_BY_ELEMENT.match(after)
        ):
            continue  # "the middle panel", "centered below the title": not the centre of the image
        tokens += re.split(r"[- ]", words)
    return _region_name(tokens), relative_claims


def _region_name(tokens: list[str]) -> str | None:
    """Merge the words of every place mention into one ``REGION_FRACTIONS`` name (None when they
    contradict: "top" and "bottom", "left" and "right")."""
    v = {"top": "top", "upper": "top", "bottom": "bottom", "lower": "bottom"}
    vs = {v[t] for t in tokens if t in v}
    hs = {t for t in tokens if t in ("left", "right")}
    centre = any(t in ("center", "centre", "middle", "centered", "centred") for t in tokens)
    if len(vs) > 1 or len(hs) > 1:
        return None
    vert, horiz = next(iter(vs), None), next(iter(hs), None) or ("center" if centre else None)
    very = any(t in ("very", "far", "extreme") for t in tokens)
    if vert is None and horiz is None:
        return None
    if horiz == "center":
        if vert is None:
            return "centered" if any(t in ("centered", "centred") for t in tokens) else "center"
        return ("very_" if very else "") + f"{vert}_center"
    if vert and horiz:
        return f"{vert}_{horiz}_corner" if "corner" in tokens else f"{vert}_{horiz}"
    if vert:
        return f"very_{vert}" if very else vert
    return f"{horiz}_band" if very else horiz


_IN_BOX = re.compile(
    r"\b(?:inside|within|in|enclosed (?:in|by)|contained (?:in|within)|surrounded by)\s+"
    r"(?:the |a |an |its |that |this |each |one )?(?P<words>(?:[\w-]+ ){0,3}?)"
    r"(?:box|rectangle|frame|card|button|badge|pill|callout|bubble|border|container|tile|cell)\b"
)


# ---------------------------------------------------------------------------------- 6. residue
_STYLE = re.compile(
    r"\b(?:bold(?:ed|face)?|italic(?:s|ized)?|underlined?|strike(?:d|through)?|font|typeface|serif|sans-serif|handwritten"
    r"|cursive|script|colou?r(?:s|ed)?|fill(?:ed)?|shaded|highlighted|gradient|outlined?|border(?:ed)?|dotted|shadow"
    r"|glow(?:ing)?|transparent|translucent|red|green|blue|navy|teal|orange|yellow|purple|violet|pink|white|black|gr[ae]y"
    r"|gold(?:en)?|silver|brown|beige|cream|olive|crimson|maroon|cyan|magenta|indigo|turquoise|burnt-orange|pale|dark|light"
    r"|bright|icons?|logos?|arrows?|pointing|points|photos?|pictures?|illustrations?|drawings?|emoji|symbols?|larger|smaller"
    r"|biggest|largest|smallest|size|sized|rotated|vertical(?:ly)?|horizontal(?:ly)?|diagonal(?:ly)?|curved|circles?"
    r"|circular|shapes?|same|match(?:es|ing)?|consistent|proportion(?:al)?|visually|legible|readable|overlap(?:s|ping)?"
    r"|cropped|aligned|alignment|spacing|spaced|gap|chart|bar|bars|slice|wedge|line chart|marker|markers)\b"
)
_COUNT_ELEMENTS = re.compile(
    r"\b(?:exactly|only|precisely|at least|at most) (?:\d+|one|two|three|four|five|six|seven|eight"
    r"|nine|ten)\b(?! times)|\bhow many\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)"
    r" (?:distinct|separate|different)\b"
)
_ROLE = (
    r"(?:title|subtitle|heading|headings|header|headers|subheading|label|labels|text|texts|word|words|phrase|string|line"
    r"|lines|caption|footnote|footer|note|legend|entry|entries|item|items|bullet|bullets|bullet point|paragraph"
    r"|sentence|sentences|button|link|tag|badge|callout|annotation|name|names|value|values|number|numbers|figure"
    r"|tick label|tick labels|axis label|column label|row label|cell|cells|menu|tab|tabs|banner|slogan|tagline|quote"
    r"|headline|kicker|acronym|abbreviation|term|message|sign|stamp|price|prices|date|year|unit|units|mark|list"
    r"|block|group|content|copy|statement|question|answer|option|options|step|panel|box|section|sidebar|card|column"
    r"|row|table|mockup|area|region|strip|bar|band|container|background|stack|element|node|tile|pill|chip|field|form"
    r"|header bar|navigation|nav|logo text|character|characters|symbol|entry label|sequence|separator|compound word"
    r"|icon|logo|arrow|photo|image|picture|illustration|circle|rectangle|shape|slice|wedge|segment|axis|grid|frame"
    r"|mockup|page|slide|poster|chart|figure|diagram|website|document|dashboard|legend|layer|divider|rule|border"
    r"|items|buttons|cards|panels|boxes|rows|columns|sections|tiles|nodes|icons|photos|descriptions|description"
    r"|group|groups|part|side|edge|corner|half|top|bottom|centre|center|middle|end|beginning|start|hero|footer|header)"
)
_FILLER = set(
    """
q does do is are there it its this that these those the a an of in on at to for from by with within inside into as and
read reads reading exactly exact shown show shows showing display displays displayed contain contains containing include
includes including labeled labelled label labels written write state states stated say says appear appears appearing
present visible located placed positioned position set consist consists consisting rendered printed spelled spelt
typed text word words match matches itself entire whole image slide page poster chart figure canvas document infographic
dashboard graphic picture single one-line two-line three-line multi-line single-line first second third fourth fifth
sixth seventh eighth ninth tenth last final next following above below under beneath near along across between top bottom
left right upper lower center centre middle centered centred corner quadrant side edge area very far part portion half
region also all any main primary large small big tiny long short wide narrow full complete correctly correct precisely
just immediately directly right-hand left-hand hand be being has have having follow follows end beginning start begins
starts ends character characters letter letters capital capitalized uppercase lowercase case period periods comma commas
colon hyphen apostrophe space spaces single separated punctuation mark marks trailing leading phrase
front behind beside before after next located closest nearest positioned sits sitting appear appears used using
supporting explanatory descriptive accompanying introductory respective respectively
so way wording clause closing opening body snippet substring expression continuation numeral numerals parentheses
brackets enclosed surrounded
one two three four five six seven eight nine ten describing referring named called given listed shown
""".split()
) | {w for alt in _ROLE[3:-1].split("|") for w in alt.split()}
_ROLE_WORDS = {w for alt in _ROLE[3:-1].split("|") for w in alt.split()}


def _strip(bare: str, patterns) -> str:
    for p in patterns:
        bare = p.sub(" ", bare)
    return bare


_PREP = (
    r"(?:of|in|inside|within|on|at|from|to|under|below|above|beneath|behind|near|beside|across|along|into|over"
    r"|around|between|before|after|than|next to|in front of|toward|towards|beyond|throughout|among|amid)"
)
_TEXTUAL = {"text", "texts", "word", "words", "letters", "characters", "character", "font", "type"}


def _residue(bare: str) -> tuple[str, ...]:
    """The parts only a VLM can decide, from ``bare`` with every recognised phrase removed.

    Locators are removed first, style words in them included: the question's subject ("Does the
    large hero heading ...") and prepositional phrases that end in an element noun ("of the left
    white panel", "to the right of the stethoscope icon"), except "in <colour> text", which is a
    claim. What is left must be filler words; style words and element counts are VLM parts, and
    any other word is one too (the compiler does not guess what it means).
    """
    parts = [f"count {m.group(0)!r}" for m in _COUNT_ELEMENTS.finditer(bare)]
    parts += [f"quantifier {m.group(0)!r}" for m in _QUANTIFIER.finditer(_SPELLING.sub(" ", bare))]
    text = _SPELLING.sub(" ", _COUNT_ELEMENTS.sub(" ", bare))
    text = re.sub(
        r"(?:^|, )(?:does|do|is|are|was|were|has|have|did|can) (?:the|this|that|these|those) (?:(?!q )[\w'’-]+ ){0,6}"
        + _ROLE
        + r"\b",
        " ",
        text,
    )
    # "is there a merged header reading ...": the element's kind is a locator, its style a claim
    text = re.sub(
        r"\bthere (?:is |are )?(?:a|an|one|any|some) (?:[\w'’-]+ ){0,5}" + _ROLE + r"s?\b",
        lambda m: " ".join(w.group(0) for w in _STYLE.finditer(m.group(0))) or " ",
        text,
    )
    text = re.sub(
        r"\b(?:describing|referring to|listing|naming|showing|depicting|for|about) (?:the |a |an |all |its )?"
        r"(?:[\w'’-]+ ){0,2}?[\w'’-]+(?=,| q\b| is\b| are\b| read| does\b| do\b| written\b| appear| contain| at\b| in\b)",
        " ",
        text,
    )
    text = re.sub(
        r"\b(?:horizontally |vertically )?(?:aligned|in line|level) with (?:the |a |an |its )?(?:[\w'’-]+ ){0,4}?"
        + _ROLE
        + r"s?\b",
        " ",
        text,
    )  # "horizontally aligned with the top-left box": a locator
    text = re.sub(
        r"\b"
        + _PREP
        + r" (?:the |a |an |this |that |its |each |all |same |one |both )*(?:[\w'’-]+ ){0,5}?"
        + _ROLE
        + r"(?:s|es)?\b(?: (?:of|for) (?:the )?(?:[\w'’-]+ ){0,2}?"
        + _ROLE
        + r"(?:s|es)?\b)?",
        lambda m: (
            m.group(0)
            if m.group(0).split()[-1] in _TEXTUAL and m.group(0).startswith(("in ", "on "))
            # after the last quote, "on a green badge" claims the badge's colour: its style words stay
            else " " + " ".join(w.group(0) for w in _STYLE.finditer(m.group(0))) + " "
            if m.start() > text.rfind(" q ") >= 0
            else " "
        ),
        text,
    )
    k = text.find(" q ")
    pre, claims = (text[:k], text[k:]) if k >= 0 else (text, "")
    # A definite subject's style words say which element is meant ("Does the large faint word
    # ..."), unless the question states them of it before the quote ("Is the panel filled with").
    definite = re.match(
        r"^(?:(?:in|within|inside|on|at|under|across|along|for|directly|immediately) [^,]*, (?:[^,]*, ){0,2})?"
        r"(?:does|do|is|are|was|were|has|have) (?:the|this|that|these|those)\b"
        r"|^(?:does|do) (?:a|an|any) (?:[\w'’-]+ ){0,8}?(?:read|reads|contain|contains|show|shows|display|say)\b",
        bare,
    )
    if not definite or _STYLE_PREDICATE.search(pre):
        claims = pre + claims
    for m in _STYLE.finditer(claims):
        parts.append(f"style {m.group(0)!r}")
    claims = _STYLE.sub(" ", claims)
    # Before the first quote the words describe which element is meant (its role, its place in a
    # list: "the first navigation item in that website header menu"): they are locators, unless
    # the question asks whether a non-text element exists ("Are two eye cross-sections shown ...").
    first = bare.find(" q ")
    head = _existential_head(bare[:first] if first >= 0 else bare)
    if head is not None and head.rstrip("s") not in _ROLE_WORDS and head not in _ROLE_WORDS:
        parts.append(f"element {head!r}")
    claims = claims[claims.find(" q ") :] if " q " in claims else ""
    unknown = [w for w in re.findall(r"[a-z][a-z'’]*", claims) if w not in _FILLER and w.strip("'’") not in _FILLER]
    if unknown:
        parts.append("words " + " ".join(dict.fromkeys(unknown)))
    return tuple(dict.fromkeys(parts))


_QUANTIFIER = re.compile(
    r"\b(?:each(?! (?:as|on) its own line)|every"
    r"|(?<!above )(?<!below )(?<!under )(?<!beneath )(?<!between )(?<!across )(?<!over )"
    r"both(?! (?:of )?(?:the )?(?:exact )?(?:[\w-]+ )?q,? and q)|all of the"
    r"|all (?:the )?(?:\w+ )?(?:labels|entries|items|panels|boxes|cells|nodes))\b"
)
_STYLE_PREDICATE = re.compile(
    r"\b(?:filled|colou?red|set|shown|written in|displayed|rendered|highlighted|drawn|shaded"
    r"|printed|styled|formatted|outlined|bolded|underlined|italici[sz]ed|in bold|in italics?)\b"
    r"|\bin (?:a |an )?(?:[\w-]+ ){0,3}(?:font|colou?r|text|letters|type)\b"
)
_EXISTENTIAL = re.compile(
    r"\b(?:is|are) there\b|^(?:are|is|do|does) (?:\d+|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|several|some|any|multiple)\b"
)


def _existential_head(pre: str) -> str | None:
    """The head noun of an existential question's subject ("is there a merged header reading" ->
    "header"), or None when the question is not existential."""
    if not _EXISTENTIAL.search(pre):
        return None
    subject = re.split(
        r"\b(?:that|which|who|reading|reads|exactly|labeled|labelled|with|containing|contains|showing|saying"
        r"|displaying|marked|titled|named|called|written|shown|placed|located|in|on|at|under|below|above"
        r"|near|inside|within)\b",
        pre,
    )[0]
    words = re.findall(r"[a-z][\w'’-]*", subject)
    return words[-1] if words and words[-1] not in ("there", "is", "are", "does", "do") else None


# ---------------------------------------------------------------------------------- compile
def compile_question(question: str) -> QuestionSpec:
    """Compile one yes/no rubric question (module steps 1-6).

    Returns:
        A ``QuestionSpec``; form "none" (with ``note``) when code can decide nothing of it.
    """
    question = re.sub(r"[ \t]{2,}", " ", question)  # runs of spaces (matching collapses them too)
    quotes = _quotes(question)
    if not quotes:
        unquoted = _UNQUOTED.match(question)
        if unquoted is None:
            return none("no quoted text")
        # "Does the first line read exactly: 1. Pfizer's Substantial Footprint?": one string after the colon
        return compile_question(f'{unquoted.group("head")} "{unquoted.group("text")}"?')
    bare = _bare(question, quotes)
    if _NEGATION.search(bare):
        return none("negation: a missing string would not mean 'no'")
    if _CHOICE.search(bare):
        return none("a choice between strings")
    if _EXAMPLES.search(bare):
        return none("the quotes are examples or meanings, not required strings")
    required, anchors = _split_quotes(question, quotes)
    pairs = {id(q): _between_pair(question, q, required) for q, rel in anchors if rel == "unsupported:between"}
    required = [r for r in required if all(r is not p for p in pairs.values())]
    required, context = _context_quotes(question, required)
    if not required:
        return none("every quote is an anchor or a clarification")
    texts = [t.strip() for q in required for t in _LINE_BREAK.split(q.text) if t.strip()]
    vlm_parts: list[str] = []
    good_anchors = [Anchor(q.text, "context") for q in context]
    for q, rel in anchors:
        if pairs.get(id(q)) is not None:
            good_anchors.append(Anchor(q.text, "between", pairs[id(q)].text))
        elif rel.startswith("unsupported:"):
            vlm_parts.append(f"relation {rel.split(':', 1)[1]!r} to {q.text!r}")
        else:
            good_anchors.append(Anchor(q.text, rel))

    # 4. form
    arrangement, count = "all", None
    if any(_LINE_BREAK.search(q.text) for q in required) or (len(texts) > 1 and _LINES.search(bare)):
        arrangement = "lines"
    elif _TOP_TO_BOTTOM.search(bare):
        arrangement = "top_to_bottom"
    elif _LEFT_TO_RIGHT.search(bare):
        arrangement = "left_to_right"
    elif len(texts) > 1 and _READING.search(bare):
        arrangement = "reading_order"
    elif len(texts) > 1 and _SIDE_BY_SIDE.search(bare):
        arrangement = "row"
    if len(texts) == 1 and arrangement != "lines":
        arrangement = "all"  # "from top to bottom, read exactly 'A'": one string has no order
    times = _TIMES.search(bare)
    if times:
        if len(texts) > 1:
            return none("a count of several strings")
        count = _times(times.group("n"))
    if _UPPER.search(bare):
        texts = [t.upper() for t in texts]
    elif _LOWER.search(bare):
        texts = [t.lower() for t in texts]
    lines_n = _N_LINES.search(bare)
    if (
        len(texts) > 1
        and arrangement == "all"
        and lines_n
        and _NUMBER.get(lines_n.group(1)) == len(texts)
        and _gaps_within(question, required, _LINE_GAP)
    ):
        arrangement = "lines"  # "'Asia' with '4600' as a two-line label"
    if (
        len(texts) > 1
        and arrangement == "all"
        and _ROW_SUBJECT.search(bare.split(" q ")[0])
        and _gaps_within(question, required, _ROW_GAP)
    ):
        arrangement = (
            "row"  # "a row labeled 'Advice' with values '53', '30'", "the first data row show 'in' with '47%'"
        )
    if len(texts) > 1 and arrangement == "all" and not _list_gaps_ok(question, required):
        vlm_parts.append("how the quoted strings relate")

    # 5. place
    region, relative_places = _region(re.sub(r"\b(?:from )?(?:top[- ]to[- ]bottom|left[- ]to[- ]right)\b", " ", bare))
    vlm_parts += relative_places
    box = _IN_BOX.search(bare)
    in_box = bool(box) and not re.search(r"\b(?:left|right|upper|lower|top|bottom|middle)\b", box.group(0))

    # 6. the rest
    rest = bare
    rest = _strip(
        rest,
        [
            _TOP_TO_BOTTOM,
            _LEFT_TO_RIGHT,
            _SIDE_BY_SIDE,
            _READING,
            _LINES,
            _TIMES,
            _UPPER,
            _LOWER,
            _IN_BOX,
            re.compile(
                r"\b(?:directly |immediately |just |right )?(?:below|under(?:neath)?|beneath|above|over"
                r"|to the (?:right|left) of|(?:right|left) of|aligned (?:horizontally |vertically )?with"
                r"|in line with|under column|in column)(?: (?:the|a|an|this|that|its))?(?: [\w-]+){0,2}? q"
            ),
            re.compile(r"\b(?:in|on|of) (?:the|that|this) q (?:row|line|column)\b"),
        ],
    )
    residue = _residue(rest)
    weight, colour, residue = _text_style(bare, residue)
    vlm_parts += residue
    if arrangement == "lines":
        form = "lines"
    elif arrangement != "all":
        form = "order"
    elif count is not None:
        form = "count"
    else:
        form = "exact" if len(texts) == 1 else "list"
    spec = TextSpec(tuple(texts), arrangement, count, region, tuple(good_anchors), in_box, weight, colour)
    return QuestionSpec(form, spec, tuple(dict.fromkeys(vlm_parts)))


_BOLD = {"bold", "bolded", "boldface", "boldfaced"}
_COLOUR_NAMES = {
    "white": "white",
    "black": "black",
    "gray": "gray",
    "grey": "gray",
    "silver": "gray",
    "red": "red",
    "crimson": "red",
    "maroon": "red",
    "orange": "orange",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "navy": "blue",
    "purple": "purple",
    "violet": "purple",
    "pink": "pink",
    "brown": "brown",
}
_SHADES = {"dark", "light", "pale", "bright"}
_TEXT_NOUN = (
    r"(?:text|texts|font|type|letters?|lettering|ink|label|labels|title|heading|headline|word|words|digits?"
    r"|numbers?|numerals?|characters?|caption|value|values|string|note|paragraph|sentence|footer|footnote"
    r"|subtitle|tagline|slogan|link|links)"
)
_NOT_TEXT = re.compile(
    r"\b(?:swatch(?:es)?|markers?|circles?|bars?|icons?|box(?:es)?|rectangles?|shapes?|fill|filled|background"
    r"|bands?|panels?|cards?|buttons?|arrows?|dots?|segments?|slices?|wedges?|squares?|tiles?|lines?|legend"
    r"|borders?|outlined?|frames?|badges?|pills?|banners?|strips?|areas?|regions?)\b"
)
_COLOUR_WORD = "(?:" + "|".join(_COLOUR_NAMES) + ")"
_TEXT_COLOUR = re.compile(
    r"\b(?:in|written in|colou?red|set in|printed in|rendered in|shown in|displayed in|appears? in) (?:a |an )?"
    r"(?:(?:dark|light|pale|bright)[- ])?(?P<a>" + _COLOUR_WORD + r")(?: (?:colou?r|" + _TEXT_NOUN + r"))?\b"
    r"|\b(?:(?:dark|light|pale|bright)[- ])?(?P<b>"
    + _COLOUR_WORD
    + r")(?:-colou?red)? (?:(?!q )[\w-]+ ){0,2}?"
    + _TEXT_NOUN
    + r"\b(?! (?:bar|box|band|banner|panel|area|card|background|strip|rectangle|block|container|cell|row|column"
    r"|frame|tile|pill|button|badge|shape|region)s?\b)"
)


_REGULAR = re.compile(
    r"\b(?:non-?bold(?:ed)?|un-?bold(?:ed)?|(?:regular|normal|plain)(?:[- ]weight)?,? (?:\(?non-?bold\)? )?"
    r"(?=text|font|type|weight|letters|face|style)|(?:regular|normal) (?:font[- ])?weight)\b"
)


def _text_style(bare: str, residue: tuple[str, ...]) -> tuple[str | None, str | None, tuple[str, ...]]:
    """(weight, colour, the residue without them): a claimed "bold" becomes ``TextSpec.weight``,
    and one claimed colour of the text itself ("in white", "white text", "written in dark
    green", "red-colored label") becomes ``TextSpec.colour`` (``COLOURS``). A colour said of
    anything else (a fill, a panel, "dark" alone) stays a VLM part."""
    styles = [p[len("style '") : -1] for p in residue if p.startswith("style '")]
    weight = "bold" if any(w in _BOLD for w in styles) else None
    if _REGULAR.search(bare):  # "in non-bold text", "in regular weight": bold said of nothing else
        if weight is None or not re.search(r"\bbold(?:ed|face)?\b", _REGULAR.sub(" ", bare)):
            weight = "regular"
            residue = tuple(
                p
                for p in residue
                if not re.match(r"words (?:regular|normal|plain|weight|non|un|bold| )+$", p)
                and p not in ("style 'font'", "style 'type'", "style 'typeface'")
            )
        else:
            return None, None, residue + ("weight: bold and regular both named",)
    hues = {_COLOUR_NAMES[w] for w in styles if w in _COLOUR_NAMES}
    # "in <colour>" / "colored <colour>" with no text noun of its own is said of the text only when
    # the question names no other element it could colour ("is the swatch labeled 'Four' colored purple")
    said_of_text = {
        _COLOUR_NAMES[g]
        for m in _TEXT_COLOUR.finditer(bare)
        for g in (m.group("a"), m.group("b"))
        if g in _COLOUR_NAMES
        and (
            m.group("b")
            or re.search(_TEXT_NOUN + r"\b", m.group(0))
            or re.search(r"\b" + _TEXT_NOUN + r" q\b", bare)  # "the badge text 'NEW'"
            or not _NOT_TEXT.search(bare)
        )
    }
    # one colour said of the text ("in white text on the navy band": white); others stay VLM parts
    colour = next(iter(said_of_text)) if len(said_of_text) == 1 and said_of_text <= hues else None
    subject = [m.group("b") for m in _TEXT_COLOUR.finditer(bare.split(" q ")[0]) if m.group("b")]
    if not hues and len({_COLOUR_NAMES[g] for g in subject}) == 1:  # "the gray source note 'X'"
        colour = _COLOUR_NAMES[subject[0]]
    others = [
        w
        for w in styles
        if w not in _BOLD
        and w not in _COLOUR_NAMES
        and not (colour and (w in _SHADES or w.startswith(("colo", "hue"))))
    ]
    dropped = {
        f"style {w!r}"
        for w in styles
        if w not in others and (w in _BOLD or colour) and (w not in _COLOUR_NAMES or _COLOUR_NAMES[w] == colour)
    }
    if len(hues) > 1:  # a shade ("dark") may belong to the other colour: keep it
        dropped -= {f"style {w!r}" for w in _SHADES}
    return weight, colour, tuple(p for p in residue if p not in dropped)


_N_LINES = re.compile(r"\b(two|three|four|five)[- ]line\b")
_LINE_GAP = set("with and as a an the on its first second third fourth line then followed by".split())
_ROW_SUBJECT = re.compile(r"\brows?\b")
_ROW_GAP = set("with values value and entries cells numbers then followed by".split())
_READ_VERB = re.compile(
    r"\b(?:read|reads|reading|contain|contains|show|shows|display|displays|say|says|state|states|consist"
    r"|consists|include|includes|spell|spells|list|lists)\b"
)


def _gaps_within(question: str, required: list[_Quote], allowed: set[str]) -> bool:
    """True when every word between consecutive required quotes is in ``allowed``."""
    return all(
        set(re.findall(r"[a-z]+", question[a.end : b.start].lower())) <= allowed for a, b in zip(required, required[1:])
    )


def _context_quotes(question: str, required: list[_Quote]) -> tuple[list[_Quote], list[_Quote]]:
    """(required, context): a quote before the question's reading verb, when other quotes follow
    that verb, names the element being asked about ("In the section labeled "Overall NYC media",
    does the first bullet read exactly "..."", "the label under the bar with the numeric label
    "54" ... read exactly "..."): it must be read, where it stands is not checked (a "context"
    anchor)."""
    for m in _READ_VERB.finditer(question.lower()):
        if any(q.start <= m.start() < q.end for q in required):
            continue  # a verb inside a quote
        before = [q for q in required if q.end <= m.start()]
        after = [q for q in required if q.start >= m.end()]
        return (after, before) if before and after else (required, [])
    return required, []


def _between_pair(question: str, first: _Quote, required: list[_Quote]) -> _Quote | None:
    """The quote that closes "between "A" and "B"" after ``first``, when it is a required quote."""
    for q in required:
        if q.start > first.end and re.fullmatch(r"\s*,?\s*and\s*", question[first.end : q.start]):
            return q
    return None


_RELATION_GAP = set(
    """with without next beside near of for under over above below pointing points pointed connected
linked from to into inside within between versus vs than same matching match matches per each against""".split()
)


def _list_gaps_ok(question: str, required: list[_Quote]) -> bool:
    """True when the text between consecutive required quotes only separates a list ("'A', 'B',
    and 'C'", "'X' on the first line and 'Y' on the second line"), not a relation ("'Advice' with
    values '53'", "'A' pointing to 'B'"): no word of the gap is a relation word."""
    for a, b in zip(required, required[1:]):
        words = re.findall(r"[a-z]+", question[a.end : b.start].lower())
        if any(w in _RELATION_GAP for w in words):
            return False
    return True
