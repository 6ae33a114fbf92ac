"""Step 6 of the question compiler (``rewards.text.questions.question_compiler``): what is left of a question
once its quotes, form, place and anchor phrases are removed, in words only a VLM can decide.

Locator phrases (the element's role, "the first bullet", "of the left white panel") are set
aside here: step 7 (``rewards.text.questions.question_element``) represents each one in the spec or hands
it to a VLM. Every word left must be a known filler, else it is a part only a VLM can decide (a
typeface, "icon", counts of elements "exactly 2 legend entries", "each", or any unknown word: the
compiler never guesses). Style words come out as ``style '<word>'`` parts, which
``rewards.text.questions.question_style.text_style`` turns into a measured weight or colour where it can.
"""

from __future__ import annotations

import re

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
_ROLE_WORDS = {w for alt in _ROLE[3:-1].split("|") for w in alt.split()}
_FILLER = (
    set(
        """
q does do is are there it its this that these those the a an of in on at to for from by with within inside into as and
read reads reading exactly exact shown show shows showing display displays displayed contain contains containing
include includes including labeled labelled label labels written write state states stated say says appear appears
appearing present visible located placed positioned position set consist consists consisting rendered printed spelled
spelt typed text word words match matches itself entire whole image slide page poster chart figure canvas document
infographic dashboard graphic picture single one-line two-line three-line multi-line single-line first second third
fourth fifth sixth seventh eighth ninth tenth last final next following above below under beneath near along across
between top bottom left right upper lower center centre middle centered centred corner quadrant side edge area very far
part portion half region also all any main primary large small big tiny long short wide narrow full complete correctly
correct precisely just immediately directly right-hand left-hand hand be being has have having follow follows end
beginning start begins starts ends character characters letter letters capital capitalized uppercase lowercase case
period periods comma commas colon hyphen apostrophe space spaces single separated punctuation mark marks trailing
leading phrase front behind beside before after next located closest nearest positioned sits sitting appear appears
used using supporting explanatory descriptive accompanying introductory respective respectively so way wording clause
closing opening body snippet substring expression continuation numeral numerals parentheses brackets enclosed
surrounded one two three four five six seven eight nine ten describing referring named called given listed shown
""".split()
    )
    | _ROLE_WORDS
)
_SPELLING = re.compile(
    r"\bwith (?:an? |the )?(?:uppercase|capital|lowercase) [a-z]\b(?: followed by lowercase letters)?"
    r"|\b(?:with )?(?:each|both|all|every) (?:of the )?words? (?:capitalized|capitalised|in title case)"
    r"|\b(?:with )?capital [a-z](?:,? (?:and )?(?:capital )?[a-z]\b)*"
    r"|\b(?:and )?the remaining letters (?:in )?lowercase\b"
    r"|\b(?:and )?separated by (?:a )?single spaces?\b|\bseparated by spaces\b"
    r"|\b(?:including|with) (?:a |an |the )?(?:single )?(?:comma|period|full stop|colon|semicolon|apostrophe|hyphen"
    r"|question mark"
    r"|exclamation mark|dash)(?: (?:at the end|after q|after the final q(?: in q)?|between q and q|before q))?"
    r"|\bas follows\b"
    r"|\b(?:including|with) (?:the |both )?(?:single |double )?(?:quotes|quotation marks|parentheses|brackets) around"
    r" (?:[\w-]+ ){0,3}?(?:[\w-]+)(?= and\b|,|\?|$)"
    r"|\b(?:and )?(?:the |a )?trailing (?:digit|number|numeral|letter|character|period|comma|colon|symbol)"
    r" ?[\w.]?(?=\W|$)"
)
NOT_LOCATORS = (_SPELLING, _COUNT_ELEMENTS)
"""Phrases that say how a string is spelled or how many elements there are: no locators
(``rewards.text.questions.question_element`` blanks them before it reads the locator phrases)."""

_PREP = (
    r"(?:of|in|inside|within|on|at|from|to|under|below|above|beneath|behind|near|beside|across|along|into|over"
    r"|around|between|before|after|than|next to|in front of|toward|towards|beyond|throughout|among|amid)"
)
_TEXTUAL = {"text", "texts", "word", "words", "letters", "characters", "character", "font", "type"}
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


def _drop_locators(text: str) -> str:
    """``text`` without its locators (step 7 reads them again and keeps them), style words in them
    included: the question's subject ("Does the large hero heading ..."), the kind of an element
    asked to exist, what a string describes ("describing the product"), alignment with another
    element, and prepositional phrases that end in an element noun ("of the left white panel",
    "to the right of the stethoscope icon"), except "in <colour> text", which is a claim. After
    the last quote such a phrase keeps its style words ("on a green badge" claims the badge's
    colour)."""
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
        r"(?:[\w'’-]+ ){0,2}?[\w'’-]+"
        r"(?=,| q\b| is\b| are\b| read| does\b| do\b| written\b| appear| contain| at\b| in\b)",
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
    return text


def residue(bare: str) -> tuple[str, ...]:
    """The parts only a VLM can decide, from ``bare`` with every recognised phrase removed.

    Locators are removed first (``_drop_locators``). What is left must be filler words; style
    words and element counts are VLM parts, and any other word is one too (the compiler does not
    guess what it means).
    """
    parts = [f"count {m.group(0)!r}" for m in _COUNT_ELEMENTS.finditer(bare)]
    parts += [f"quantifier {m.group(0)!r}" for m in _QUANTIFIER.finditer(_SPELLING.sub(" ", bare))]
    text = _drop_locators(_SPELLING.sub(" ", _COUNT_ELEMENTS.sub(" ", bare)))
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
