"""The vocabulary of step 7 of the question compiler (``rewards.text.questions.question_element``): the
role words (``_ROLES``), the harmless and generic words a subject may hold, ordinals, prepositions,
participles and verbs that end a subject, and the words of places, containers, image objects and
style a locator phrase is read with.
"""

from __future__ import annotations

import re

# ------------------------------------------------------------------------------ vocabulary
_ROLES: dict[tuple[str, ...], str] = {
    **{(w,): "title" for w in ("title", "headline")},
    **{
        (k, w): "title"
        for k in ("chart", "slide", "poster", "page", "document", "infographic", "dashboard", "menu", "report")
        for w in ("title", "headline", "heading")  # "the page heading": the page's own, not any heading
    },
    **{(w,): "subtitle" for w in ("subtitle", "sub-title", "tagline", "subheadline", "sub-headline")},
    **{(k, "subtitle"): "subtitle" for k in ("chart", "slide", "poster", "page")},
    **{(w,): "heading" for w in ("heading", "header", "subheading", "sub-heading", "subheader")},
    **{("section", w): "heading" for w in ("title", "heading", "header", "headline", "subheading")},
    **{(w,): "bullet" for w in ("bullet",)},
    **{("bullet", w): "bullet" for w in ("point", "item", "line", "entry")},
    ("bulleted", "item"): "bullet",
    **{(k, w): "list_item" for k in ("list", "menu", "navigation", "nav") for w in ("item", "entry", "link", "option")},
    **{(w,): "list_item" for w in ("item", "entry", "step")},
    **{(w,): "card" for w in ("card", "tile", "kpi")},
    **{(k, w): "card" for k in ("kpi", "metric", "stat", "stats", "statistic") for w in ("card", "tile", "box")},
    **{("legend", w): "legend_entry" for w in ("entry", "label", "item", "text")},
    **{(a, w): "axis_title" for a in ("y-axis", "x-axis") for w in ("label", "title", "name", "text")},
    **{(a,): "axis_title" for a in ("y-axis", "x-axis")},
    **{(o, "axis", w): "axis_title" for o in ("vertical", "horizontal") for w in ("label", "title", "name")},
    **{(w,): "table_cell" for w in ("cell",)},
    ("table", "cell"): "table_cell",
    **{(w,): "footer" for w in ("footer", "footnote")},
    **{("source", w): "footer" for w in ("note", "line", "text", "label", "citation")},
    **{("footer", w): "footer" for w in ("note", "text", "line")},
    **{("footer", "source", w): "footer" for w in ("note", "line", "text")},
    **{("bottom", "source", w): "footer" for w in ("note", "line")},
    **{(w,): "button" for w in ("button", "badge", "pill", "tag", "chip", "band", "banner")},
    **{(k, "button"): "button" for k in ("call-to-action", "cta", "action")},
    ("cta",): "button",
    **{
        (w,): "whole"
        for w in ("label", "text", "line", "caption", "name", "value", "number", "word", "phrase", "string", "note")
    },
    ("paragraph",): "whole",
    ("entry", "label"): "whole",
    ("text", "label"): "whole",
    ("text", "line"): "whole",
    ("numeric", "label"): "whole",
    ("numerical", "label"): "whole",
}
"""Role nouns (singular, as word tuples) -> ``ELEMENT_ROLES``."""

_GENERIC = {"label", "text", "word", "line", "string", "value", "number", "caption", "name", "phrase"}
"""Nouns that, after a role noun, say only that the text of that element is meant ("button label",
"title word", "card value")."""

_ORDINAL_NEEDED = {("item",), ("entry",), ("step",)}
"""Roles that name an element only with an ordinal ("the first item"; "the item" alone is any one),
or in the plural for several strings ("do the items read, in order: ...")."""

_SIZE = {"large", "main", "big", "primary", "largest", "biggest", "principal"}
"""Size words: with a title, heading or headline they name the title (the largest type)."""

_HARMLESS = {
    "single",
    "one-word",
    "single-word",
    "two-word",
    "three-word",
    "four-word",
    "one-line",
    "single-line",
    "two-line",
    "three-line",
    "four-line",
    "multi-line",
    "multiline",
    "short",
    "brief",
    "small",
    "textual",
    "visible",
    "printed",
    "displayed",
    "whole",
    "entire",
    "complete",
    "full",
    "exact",
}
"""Words of a subject that do not change which element is meant ("the single-line caption")."""

_HERO_ROLES = {"heading", "title", "headline", "subtitle", "subheading", "tagline", "subheadline"}
_EDGES = {"top": "top", "upper": "top", "bottom": "bottom", "lower": "bottom"}
_EDGE_ROLES = {"top": {"title", "subtitle"}, "bottom": {"footer"}}
"""An edge word in a subject: said of a role that sits there, it adds nothing; said of an ordered
role, it is the first or the last ("the top bullet"); else it is for a VLM."""
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "last": -1,
    "final": -1,
    "penultimate": -2,
    "second-to-last": -2,
    "topmost": 1,
    "uppermost": 1,
    "leftmost": 1,
    "rightmost": -1,
    "bottommost": -1,
    "lowest": -1,
}
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_ORDINAL_NUMBER = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$")
_ORDINAL_ROLES = {"bullet", "list_item", "card", "legend_entry", "heading", "button"}
"""Roles whose elements are ordered (``ElementSpec.ordinal``)."""

_PREPOSITIONS = {
    "in",
    "inside",
    "within",
    "on",
    "at",
    "under",
    "underneath",
    "below",
    "beneath",
    "above",
    "over",
    "beside",
    "near",
    "next",
    "between",
    "along",
    "across",
    "behind",
    "around",
    "among",
    "amid",
    "toward",
    "towards",
    "from",
    "to",
    "atop",
    "throughout",
    "of",
    "for",
    "about",
    "describing",
    "depicting",
    "listing",
    "naming",
    "referring",
    "beyond",
    "after",
    "before",
    "against",
    "via",
    "into",
    "onto",
    "alongside",
    "opposite",
}
_PARTICIPLES = {
    "located",
    "positioned",
    "placed",
    "situated",
    "sitting",
    "sits",
    "found",
    "aligned",
    "centered",
    "centred",
    "grouped",
    "arranged",
    "stacked",
    "running",
    "spanning",
    "floating",
    "anchored",
    "attached",
    "overlaid",
    "embedded",
    "nested",
    "directly",
    "immediately",
    "just",
    "right",
    "far",
    "slightly",
    "horizontally",
    "vertically",
    "level",
    "still",
    "also",
    "again",
    "roughly",
    "approximately",
    "about",
}
"""Words that open a locator phrase and join the preposition after them ("located at ...",
"directly beneath ..."). "right" and "far" open one only before a preposition ("right below")."""
_VERBS = {
    "does",
    "do",
    "is",
    "are",
    "was",
    "were",
    "has",
    "have",
    "did",
    "can",
    "read",
    "reads",
    "reading",
    "contain",
    "contains",
    "containing",
    "include",
    "includes",
    "including",
    "say",
    "says",
    "saying",
    "show",
    "shows",
    "showing",
    "display",
    "displays",
    "displaying",
    "state",
    "states",
    "stating",
    "consist",
    "consists",
    "labeled",
    "labelled",
    "titled",
    "named",
    "called",
    "marked",
    "spell",
    "spells",
    "spelled",
    "spelt",
    "appear",
    "appears",
    "appearing",
    "shown",
    "exactly",
    "match",
    "matches",
    "begin",
    "begins",
    "start",
    "starts",
    "end",
    "ends",
    "written",
    "rendered",
    "presented",
    "there",
    "as",
    "with",
    "while",
    "where",
    "when",
    "using",
    "give",
    "gives",
    "list",
    "lists",
    "set",
    "typed",
    "printed",
    "serve",
    "serves",
    "serving",
    "form",
    "forms",
    "represent",
    "represents",
}
"""Words that end a locator phrase (the question's verbs and clause words)."""
_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those", "its", "their", "any", "each", "one", "same"}
_BOX_SHAPES = {
    *("dashed", "dotted", "solid", "rounded", "rectangular", "square", "bordered", "outlined", "framed", "thin"),
    *("thick", "small", "large", "big", "single", "enclosing", "boxed", "highlighted", "inset"),
}
"""Words of "inside the dashed rectangle" that only say what the box looks like: ``in_box``
checks an enclosing box. A kind ("the product card") or a colour ("the blue button") says which
box, which it does not check."""
_CONTEXT_WORDS = {"same", "previous", "preceding", "aforementioned", "corresponding", "respective", "other", "that"}
"""Words that point at context code cannot see ("in the same ordered list", "in that panel"): a
phrase with one is always a VLM's."""
_AUX = {"does", "do", "is", "are", "was", "were", "has", "have", "did", "can"}
_IMAGE_NOUNS = {
    "image",
    "slide",
    "page",
    "poster",
    "chart",
    "figure",
    "canvas",
    "document",
    "infographic",
    "dashboard",
    "graphic",
    "picture",
    "design",
    "layout",
    "composition",
    "flyer",
    "screen",
    "webpage",
    "mockup",
    "menu",
    "diagram",
    "graph",
    "plot",
    "report",
    "slides",
}
"""Nouns that may name the whole image ("on the large desktop-style layout")."""
_IMAGE_ADJECTIVES = {
    "overall",
    "entire",
    "whole",
    "full",
    "large",
    "big",
    "wide",
    "tall",
    "single",
    "main",
    "desktop-style",
    "desktop",
    "landscape",
    "portrait",
    "square",
    "rectangular",
    "horizontal",
    "vertical",
    "website",
    "web",
    "mobile",
    "generated",
}
_IMAGE_PREPOSITIONS = {"in", "on", "of", "across", "within", "throughout", "inside", "at"}
_PLACE_FILLER = {
    "very",
    "far",
    "extreme",
    "corner",
    "corners",
    "quadrant",
    "area",
    "part",
    "portion",
    "region",
    "side",
    "edge",
    "half",
    "band",
    "margin",
    "section",
    "of",
    "and",
    "hand",
    "toward",
    "towards",
}
_SIDE_CONTAINERS = {"panel", "column", "box", "strip", "sidebar", "block", "pane", "page", "zone", "table", "section"}
_SIDES = {"left", "right", "top", "bottom", "upper", "lower", "middle", "center", "centre"}
_OBJECT_WORDS = {
    "text",
    "texts",
    "of",
    "and",
    "it",
    "they",
    "them",
    "exact",
    "following",
    "sentence",
    "sentences",
    "snippet",
    "characters",
    "character",
    "lines",
    "words",
    "labels",
    "strings",
    "sequence",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "both",
    "parts",
}
"""Words of a noun phrase after the verb that say only that there is text ("contain the following
four lines", "include the exact sentence", "does it read")."""
_CONTAINER_SUBJECTS = {
    "legend": "legend_entry",
    "footer": "footer",
    "table": "table_cell",
    "card": "card",
    "tile": "card",
    "button": "button",
    "badge": "button",
    "banner": "button",
}
"""A subject that holds the text ("Does the legend contain the exact label 'X'?"): the element is
the holder's entry when the object names only text."""
_CONTEXT_NAME = re.compile(
    r"\s*(?:labell?ed |titled |named |called |headed |marked |with (?:the |a |an )?(?:[\w-]+ ){0,2}?)?q(?![\w'’-])"
)
"""A quote right after a phrase that names its element ("the row labeled 'Hydro'", "the bar with
the numeric label '54'")."""
_NAMED_HOLDERS = {"row", "column", "menu", "list", "section", "group", "table", "legend", "card", "tile", "box"}
"""Holders a context anchor stands for ("in the row labeled 'Hydro'": the anchor's row)."""
_CONTAINERS = {"card", "tile", "panel", "box", "section", "badge", "block", "column", "cell", "button", "pill"}
_KIND_WORDS = {"kpi", "metric", "stat", "stats", "cta", "summary", "info", "data", "text", "content", "main"}
"""Capitalised words that name a kind of card, not one card ("In the KPI card")."""
_TEXTUAL = {"text", "texts", "font", "type", "typeface", "letters", "lettering", "characters", "weight", "ink"}
_STYLE = {
    *("bold", "bolded", "boldface", "italic", "italics", "regular", "plain", "normal", "non-bold", "uppercase"),
    *("lowercase", "serif", "sans-serif", "monospace", "handwritten", "cursive", "script", "condensed", "thin"),
    *("colored", "coloured", "color", "colour", "dark", "light", "pale", "bright", "white", "black", "gray", "grey"),
    *("red", "orange", "yellow", "green", "blue", "navy", "teal", "purple", "violet", "pink", "brown", "gold"),
    *("golden", "silver", "beige", "cream", "maroon", "crimson", "cyan", "magenta", "turquoise", "olive", "indigo"),
    *("weight", "style", "size", "all", "caps", "capital", "capitals", "small", "large", "larger", "smaller", "case"),
}
"""Words of a phrase that claims the text's style ("in a bold sans-serif font colored navy"): the
style step (``question_style``) measures what it can and hands the rest to a VLM; no locator."""
_CONTEXT_ROLES = {
    "legend_entry": {"legend"},
    "bullet": {"list", "bullet", "bullets", "bulleted"},
    "list_item": {
        "list",
        "menu",
        "navigation",
        "nav",
        "website",
        "header",
        "top",
        "bar",
        "main",
        "ordered",
        "numbered",
    },
    "table_cell": {"table", "grid"},
    "axis_title": {"axis", "y-axis", "x-axis"},
}
"""A phrase "in the legend" said of a legend entry adds nothing: the role already says it."""
