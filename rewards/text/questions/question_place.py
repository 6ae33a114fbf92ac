"""Step 5 of the question compiler (``rewards.text.questions.question_compiler``): the place of the image a
question names, read from the bare question (``rewards.text.questions.question_quotes.bare_question``).

Quadrants, corners, bands, centre, halves of the image (``rewards.text.ocr.text_match.REGION_FRACTIONS``);
a side named on a container ("the left panel", "the upper content box") is that side of the
image; a place *of* another element ("the top of the legend") is a locator and is not checked,
and a place claimed relative to another element is a part only a VLM can decide (``region_of``).
"inside the dashed rectangle" asks for an enclosing box (``asks_in_box``). A side word before "page"
("on the left page" of a two-page spread) is no place of the image: the pages of a spread need not
be halves, and the locator part is resolved at the spread's seam (``rewards.text.page.region_locators``).
"""

from __future__ import annotations

import re

_IMAGE_NOUNS = (
    r"(?:image|slide|page|poster|chart|figure|canvas|document|infographic|dashboard|graphic|picture|design"
    r"|frame|layout|composition|diagram|flyer|screen|webpage)"
)
_CONTAINERS = (
    r"(?:panel|column|box|half|side|strip|section|card|sidebar|block|container|frame|pane|area|region"
    r"|rectangle|band)s?\b"
)
_ROLE_NOUNS = r"(?:heading|header|title|subtitle|label|text|button|item|entry|line|word|caption|badge|tab|link)s?\b"
_PLACE_WORDS = re.compile(
    r"\b(?:(?:very|far|extreme) )?(?:(?:top|upper|bottom|lower)[- ](?:left|right|center|centre|middle)"
    r"|top|bottom|upper|lower|left|right|center|centre|middle|centered|centred)\b"
    r"(?:[- ](?:corner|quadrant|half|edge|side|area|part|portion|region|background|band|margin)s?\b)?"
)
_NOT_A_PLACE = re.compile(  # "top to bottom" (an order), "left-aligned", "top line", "center hole"
    r"^[- ]?(?:to[- ](?:bottom|top|right|left)|aligned|line|row|column|entry|item|bullet|sentence|paragraph|heading"
    r"|subheading|title|subtitle|text|word|caption|note|menu|list|group|block|hole|page)\b"
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


_PLACE_OF_PLACE = re.compile(
    r"^[- ](?:side |part |portion |area |half )?of the (?:very |far )?(?:(?:top|upper|bottom|lower)[- ])?"
    r"(?:left|right|center|centre|middle|top|bottom|upper|lower)(?: (?:part|portion|area|half|section))?"
    r" of the (?:\w+ )?" + _IMAGE_NOUNS + r"\b"
)
"""A place of a place of the image ("left side of the upper-middle of the page"): one place, not a
place of another element."""


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


_ORDER = re.compile(
    r"\b(?:from )?(?:top[- ]to[- ]bottom|left[- ]to[- ]right|right[- ]to[- ]left|bottom[- ]to[- ]top)\b"
    r"|(?P<nth>\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|last"
    r"|\d{1,2}(?:st|nd|rd|th)) "
    r"(?:(?!q\b)[\w-]+ ){0,5}?)from the (?:left|right|top|bottom)\b"
)


def region_of(bare: str) -> tuple[str | None, list[str]]:
    """The place of the image the question names (a ``REGION_FRACTIONS`` key, or None), and the
    places it claims relative to another element ("placed in the top-left corner of the inset
    panel", "in the legend ... on the far right"), which only a VLM can check.

    An order ("from top to bottom", "left to right", "the second card from the left") names no
    place. A place word is a place of the image unless it names no place (``_NOT_A_PLACE``), is a
    place *of* another element ("the top of the legend": a locator, or a claim after a placing
    verb), follows a leading "In the <element>," (relative to that element), or says the centre of
    another element ("centered below the title"). Contradicting places give None.
    """
    region, claims, _ = places_of(bare)
    return region, claims


def places_of(bare: str) -> tuple[str | None, list[str], set[str]]:
    """``region_of``'s (region, relative claims), and the place words that made the region
    ("top-left", "very top"), so that the compiler can tell which locator phrases the region
    represents (``rewards.text.questions.question_element``)."""
    bare = _strip_orders(bare)
    relative_claims, tokens, used = [], [], set()
    lead = _LEAD.match(bare)
    lead_end = lead.end() if lead and not re.search(r"\b" + _IMAGE_NOUNS + r"s?$", lead.group("np")) else None
    first_quote = bare.find(" q ", lead_end or 0) if " q " in bare[lead_end or 0 :] else len(bare)
    last_quote = bare.rfind(" q ")
    for m in _PLACE_WORDS.finditer(bare):
        words, after = m.group(0), bare[m.end() : m.end() + 60]
        if _NOT_A_PLACE.match(after):
            continue
        if re.search(
            r"\bq (?:[\w-]+ ){0,2}?(?:" + _CONTAINERS + r" (?:on|at|in)|" + _ROLE_NOUNS + r" (?:on|at))"
            r" (?:the )?(?:very |far )?$",
            bare[: m.start()],
        ):
            continue  # "aligned with the "02" box on the left", "the "DRINKS" heading on the right": the anchor's place
        if re.search(r"\bto (?:its|their) $", bare[: m.start()]):
            continue  # "the heading to its right": beside another element
        of = _OF_ELEMENT.match(after)
        of_other = (
            of
            and not re.fullmatch(_IMAGE_NOUNS + "s?", of.group(2))
            and of.group(2) not in ("entire", "whole", "overall")
            and not _PLACE_OF_PLACE.match(after)  # "the left side of the upper-middle of the page"
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
        used.add(words)
    region = _region_name(tokens)
    return region, relative_claims, used if region else set()


def _strip_orders(bare: str) -> str:
    """``bare`` without its orders (``_ORDER``: "from top to bottom", "second from the left")."""
    out, pos = [], 0
    for m in _ORDER.finditer(bare):
        out += [bare[pos : m.start()], f" {m.group('nth') or ''}"]
        pos = m.end()
    return "".join(out + [bare[pos:]])


IN_BOX = re.compile(
    r"\b(?:inside|within|in|enclosed (?:in|by)|contained (?:in|within)|surrounded by)\s+"
    r"(?:the |a |an |its |that |this |each |one )?(?P<words>(?:[\w-]+ ){0,3}?)"
    r"(?:box|rectangle|frame|card|button|badge|pill|callout|bubble|border|container|tile|cell)\b"
)


def asks_in_box(bare: str) -> bool:
    """True when the question asks for its strings inside an enclosing box ("inside the dashed
    rectangle", ``IN_BOX``), unless the box is named by its place ("in the left box")."""
    box = IN_BOX.search(bare)
    return bool(box) and not re.search(r"\b(?:left|right|upper|lower|top|bottom|middle)\b", box.group(0))
