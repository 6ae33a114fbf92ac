"""The weight and colour a question asks of its strings (part of step 6 of
``rewards.text.questions.question_compiler``), turned from VLM parts into ``TextSpec.weight`` and
``TextSpec.colour``, which code measures from pixels (``rewards.text.page.text_style``).

Bold / regular weight and a colour said of the text itself ("in white text", "the gray source
note") are measured; a colour said of a badge, fill or background stays a VLM part. Synonyms
("grey", "navy", "crimson", ...) map onto ``question_compiler.COLOURS``.
"""

from __future__ import annotations

import re

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


def text_style(bare: str, residue: tuple[str, ...]) -> tuple[str | None, str | None, tuple[str, ...]]:
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
