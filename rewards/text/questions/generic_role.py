"""Generic roles of step 7 of the question compiler (issue 31): a subject or object that names a kind
of text element by what it holds ("the country label", "a slice label", "the callout annotation
text", "a CEO box labeled ...") with no ordinal, no place and no relation.

Such a phrase names no element code could pick out by position, and needs none: it is satisfied by
the quoted string read as a whole element (a line or block of its own, role "whole" of
``rewards.text.questions.question_compiler.ELEMENT_ROLES``), not inside a longer one. The judge then
answers "yes" only when the string is read as an element of its own, and "no" only when it is not
read, or read only inside longer text (``rewards.text.page.grounding``).

A phrase is generic when its last word (singular) is one of ``GENERIC_HEADS`` and every other word
is a plain word that says what the element holds ("country", "subregion", "callout", "CEO"). Words
that make a claim code does not check are refused: ordinals and counts ("second", "three"),
sizes ("large"), places ("left", "top", "central"), colours, shapes ("circular", "rounded"),
relations and quantifiers ("next", "other", "each"). Those phrases stay VLM parts.
"""

from __future__ import annotations

import re

from rewards.text.questions.element_words import (
    _EDGES,
    _HARMLESS,
    _NUMBERS,
    _ORDINAL_NUMBER,
    _ORDINALS,
    _PARTICIPLES,
    _PREPOSITIONS,
    _SIZE,
    _STYLE,
)

GENERIC_HEADS = frozenset(
    {
        *("label", "text", "heading", "header", "headline", "title", "caption", "name", "note", "tag"),
        *("annotation", "line", "callout", "box", "card", "block", "node", "tile", "bubble"),
        *("badge", "banner", "link", "tab", "description", "quote", "snippet", "statement", "slogan", "paragraph"),
        *("subheading", "subheader", "subtitle", "tagline", "value", "figure", "number", "string", "marker"),
    }
)
"""Head nouns of a generic role: a text element or a shape that holds one line or block of text."""

HOLDER_HEADS = frozenset({"box", "card", "block", "node", "tile", "bubble", "badge", "banner", "callout"})
"""Heads that hold text: generic only for one required string (several strings in "the guideline
box" claim they stand together in one box, which a whole element does not check)."""

_CLAIMS = frozenset(
    {
        *("left", "right", "top", "bottom", "upper", "lower", "center", "centre", "central", "middle", "centered"),
        *("far", "very", "inner", "outer", "left-hand", "right-hand", "top-left", "top-right", "bottom-left"),
        *("bottom-right", "upper-left", "upper-right", "lower-left", "lower-right", "mid", "midsection"),
        *("circular", "round", "rounded", "rectangular", "oval", "square", "dashed", "dotted", "outlined", "boxed"),
        *("filled", "shaded", "highlighted", "underlined", "vertical", "horizontal", "rotated", "diagonal"),
        *("curved", "arrow", "arrows", "icon", "tall", "wide", "narrow", "tiny", "huge", "short", "long"),
        *("next", "previous", "other", "same", "each", "every", "all", "both", "any", "only", "another", "last"),
        *("first", "final", "adjacent", "nearby", "corresponding", "respective", "following", "preceding"),
        *("hero", "overlay", "overlaid", "inset", "sub", "main", "its", "their", "q", "and", "or"),
    }
)
"""Words a generic phrase may not hold: claims of place, shape, size or relation to other elements
(checked by no spec field), a quote placeholder ("q"), and a conjunction ("the heading and
paragraph" names two elements, not one)."""

_PLACED_BY_RULE = frozenset({"slice", "wedge", "segment", "change", "date", "venue"})
"""Words of kinds the page structure places by a rule of their own (``rewards.text.page.locators``:
a slice label stands on or beside its wedge, a change note inside its named card, a date line reads
as a date): such a phrase
stays a locator, so that rule checks the place instead of any whole element passing."""

_PLAIN = re.compile(r"[a-z][a-z'’-]*")

MAX_WORDS = 5
"""A generic phrase names its kind in a few words; a longer one describes, and is left to a VLM."""


def is_generic_role(words: list[str], checked: set[str] = frozenset(), n_texts: int = 1) -> bool:
    """True when ``words`` (a noun phrase after its determiner, lower case: ["country", "label"])
    name a generic role (module docstring): the last word, singular, is in ``GENERIC_HEADS``, at
    most ``MAX_WORDS`` words, and no word is an ordinal, a count, a size, a place, a shape, a
    colour or style word not in ``checked`` (the weight or colour the spec measures), a relation
    or quantifier (``_CLAIMS``), a preposition or participle (nor a part of a compound word:
    "first-row").

    Args:
        words: the phrase's words in lower case, without the leading determiner.
        checked: words the spec already checks ("bold" with ``TextSpec.weight``).
        n_texts: the number of required strings (a holder, ``HOLDER_HEADS``, takes one).
    """
    if not words or len(words) > MAX_WORDS or words[-1] not in GENERIC_HEADS:
        return False  # a plural ("the column headers") asks for a whole set: not one element
    if n_texts > 1 and words[-1] in HOLDER_HEADS:
        return False
    if _PLACED_BY_RULE.intersection(words):
        return False
    for w in words[:-1]:
        if w in checked or w == "text" or (w in _HARMLESS and w not in _CLAIMS):
            continue
        if not _PLAIN.fullmatch(w) or any(_refused(part) for part in w.split("-")):
            return False  # "first-row site label": an ordinal inside a compound too
    return True


def _refused(w: str) -> bool:
    """True when word ``w`` makes a claim a generic phrase may not hold (``is_generic_role``)."""
    if _ORDINAL_NUMBER.match(w) or w in _ORDINALS or w in _NUMBERS:
        return True
    return w in _SIZE or w in _EDGES or w in _STYLE or w in _CLAIMS or w in _PREPOSITIONS or w in _PARTICIPLES
