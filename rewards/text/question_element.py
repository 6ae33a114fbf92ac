"""Step 7 of the question compiler (``rewards.text.question_compiler``): the element a question is
about, and every locator phrase it uses, each either represented in the spec or handed to a VLM.

A locator phrase is the question's subject ("the large main title word", "the second KPI card
from the left"), a prepositional phrase that says where the element is ("at the top-center of the
menu", "between the drawing of a cup and the donut", "in the NPS card"), or a loose noun phrase
before the first quote ("contain a single line that reads"). Each one is

- represented: the subject by an ``ElementSpec`` (``question_compiler.ELEMENT_ROLES``), a place of
  the image by ``TextSpec.region`` (``question_place.places_of`` names the words it used), a
  relation to a quoted anchor by ``TextSpec.anchors``, "inside the box" by ``TextSpec.in_box``,
  "in the NPS card" by ``ElementSpec.container``; or
- handed over: a VLM part ``locator '<phrase>'`` (then the OCR judge can only answer "no").

Nothing is dropped in silence. The rules never guess: a subject with a word outside the role
vocabulary (``_ROLES``, ``_HARMLESS``) is a VLM locator, and so is every phrase relative to an
unquoted element ("beneath the eleventh bottle", "to the right of the magic-wand illustration")
or to context code cannot see ("in the same ordered list", "in panel (b)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rewards.text.question_quotes import Quote

# ------------------------------------------------------------------------------ vocabulary
_ROLES: dict[tuple[str, ...], str] = {
    **{(w,): "title" for w in ("title", "headline")},
    **{
        (k, w): "title"
        for k in ("chart", "slide", "poster", "page", "document", "infographic", "dashboard", "menu", "report")
        for w in ("title", "headline")
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
_SIDE_CONTAINERS = {"panel", "column", "box", "strip", "sidebar", "block", "pane", "page", "zone"}
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


@dataclass(frozen=True)
class Located:
    """The element and locator phrases of one question (step 7).

    Attributes:
        role, ordinal, axis, container, phrase: the subject's ``ElementSpec`` fields (role None:
            no element code can find).
        represented: the locator phrases the spec represents (for ``TextSpec.locators``).
        vlm_parts: ``locator '<phrase>'`` for each phrase it does not.
    """

    role: str | None
    ordinal: int | None
    axis: str | None
    container: str | None
    phrase: str
    represented: tuple[str, ...]
    vlm_parts: tuple[str, ...]


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Words and punctuation of ``text`` with their spans."""
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[\w'’-]+|[^\w\s'’-]", text)]


def _ordinal(w: str) -> int | None:
    """The position an ordinal word names ("second": 2, "3rd": 3, "last": -1), or None."""
    n = _ORDINAL_NUMBER.match(w)
    return int(n.group(1)) if n else _ORDINALS.get(w)


def _singular(w: str) -> str:
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def subject_role(
    words: list[str], style_words: set[str], n_texts: int = 1
) -> tuple[str, int | None, str | None] | None:
    """(role, ordinal, axis) of a subject noun phrase (its words after the determiner, lower case:
    ["large", "main", "title", "word"]), or None when a word of it is not in the role vocabulary.

    ``style_words`` are words the spec already checks (a measured weight or colour: "bold"). An
    ordinal ("second", "3rd", "last") is kept for ordered roles only; "from the right" has been
    folded into a negative ordinal by the caller. A number ("the three labels") must be
    ``n_texts``, the number of required strings.
    """
    ordinal, size, edge, rest = None, False, None, []
    for w in words:
        if _ordinal(w) is not None:
            if ordinal is not None:
                return None
            ordinal = _ordinal(w)
        elif w in _SIZE:
            size = True
        elif w in _HARMLESS or w in style_words:
            continue  # place words that made the region are harmless too: "the lower label"
        elif w in _EDGES and edge is None:
            edge = _EDGES[w]
        elif w in _NUMBERS or w.isdigit():
            if _NUMBERS.get(w, int(w) if w.isdigit() else 0) != n_texts or n_texts < 2:
                return None  # "the two labels" with three strings: a count code does not check
        else:
            rest.append(w)
    if len(rest) > 1 and rest[0] == "hero" and _singular(rest[1]) in _HERO_ROLES:
        rest = rest[1:]  # "the main hero heading": the hero is where the page's heading is
    if not rest:
        return None
    plural = tuple(_singular(w) for w in rest)
    for key in (tuple(rest), plural):
        while key:
            role = _ROLES.get(key)
            if role is not None:
                break
            if len(key) > 1 and key[-1] in _GENERIC:
                key = key[:-1]  # "button label" -> "button", "title word" -> "title"
                continue
            key = ()
        if key:
            break
    else:
        return None
    if size:
        if role not in ("title", "heading"):
            return None  # "the large label": which one is large is for a VLM
        role = "title"
    if edge is not None:
        if role in _EDGE_ROLES.get(edge, ()):
            pass  # "the top title", "the bottom footnote": where that role is anyway
        elif role in _ORDINAL_ROLES and ordinal is None:
            ordinal = 1 if edge == "top" else -1  # "the top bullet": the first one
        else:
            return None
    if key in _ORDINAL_NEEDED and ordinal is None and (n_texts < 2 or plural == tuple(rest)):
        return None  # "the item": which one; "the items" reading several strings: each is one
    if ordinal is not None and role not in _ORDINAL_ROLES:
        return None  # "the first line", "the second title": first of what, code cannot tell
    axis = next((a[0] for a in ("y-axis", "x-axis") if a in key), None)
    if role == "axis_title" and axis is None:
        axis = "y" if "vertical" in key else "x"
    elif axis:
        axis = axis[0]
    return role, ordinal, axis


@dataclass
class _Phrase:
    tokens: list[tuple[str, int, int]]
    kind: str  # "subject", "prep", "loose"

    @property
    def words(self) -> list[str]:
        return [t[0] for t in self.tokens]

    @property
    def span(self) -> tuple[int, int]:
        return self.tokens[0][1], self.tokens[-1][2]


def _segment(masked: str) -> list[_Phrase]:
    """The subject, the prepositional phrases and the loose noun phrases of ``masked`` (the bare
    question with its represented phrases blanked out)."""
    toks = _tokens(masked)
    phrases: list[_Phrase] = []
    cur: _Phrase | None = None

    def close():
        nonlocal cur
        if cur is not None:
            while cur.tokens and cur.tokens[-1][0] in ("and", "or", "then", "which", "that", "who"):
                cur.tokens.pop()
            if cur.tokens:
                phrases.append(cur)
        cur = None

    i = 0
    subject_done = False
    while i < len(toks):
        w = toks[i][0]
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        if i and toks[i][1] - toks[i - 1][2] > 1 and cur is not None and cur.kind != "subject":
            close()  # a represented phrase was blanked here: what follows is another phrase
        elif i and toks[i][1] - toks[i - 1][2] > 1 and cur is not None and cur.tokens:
            close()
        if w == "q" and cur is not None and cur.kind == "prep" and re.match(r"[\w-]", nxt):
            if nxt in _VERBS or nxt in _PREPOSITIONS or nxt in _PARTICIPLES:
                close()
            else:
                cur.tokens.append(toks[i])  # "in the 'Revenue' tile": the quote names the tile
        elif w == "(" and cur is not None and cur.kind == "prep" and ")" in [t[0] for t in toks[i : i + 6]]:
            k = [t[0] for t in toks[i : i + 6]].index(")")
            cur.tokens += toks[i : i + k + 1]  # "In panel (b)"
            i += k + 1
            continue
        elif not re.match(r"[\w'’-]", w) or w == "q":
            close()
        elif w in _AUX and not subject_done and nxt in _DETERMINERS | {"there"}:
            close()
            j = i + 1
            if nxt == "there":
                j += 1
                if j < len(toks) and toks[j][0] in ("is", "are"):
                    j += 1
            if j < len(toks) and toks[j][0] in _DETERMINERS:
                j += 1
            cur = _Phrase([], "subject")
            subject_done = True
            i = j
            continue
        elif cur is not None and cur.words and cur.words[0] == "between" and w not in _VERBS:
            cur.tokens.append(toks[i])  # "between the cup on the left and the donut": one phrase
        elif w in ("that", "which", "who") and nxt in _VERBS:
            close()
        elif w == "of" and i and toks[i - 1][0] in ("consist", "consists", "consisting", "composed", "made"):
            close()  # "consist of the line ...": the verb, no locator
        elif w in _VERBS and not (
            w in ("set", "list", "form", "end", "start") and cur is not None and cur.kind == "prep"
        ):
            close()
        elif cur is not None and cur.kind == "prep" and cur.words[-1:] in (["the"], ["immediate"], ["to"]):
            cur.tokens.append(toks[i])  # "to the right of", "to the immediate right of"
        elif w in _PARTICIPLES and (w not in ("right", "far") or nxt in _PREPOSITIONS | _PARTICIPLES):
            if cur is None or cur.kind != "prep" or any(x not in _PARTICIPLES for x in cur.words):
                close()
                cur = _Phrase([], "prep")
            cur.tokens.append(toks[i])
        elif w in _PREPOSITIONS:
            opened_by_participle = cur is not None and cur.kind == "prep" and all(x in _PARTICIPLES for x in cur.words)
            continues = (
                cur is not None
                and cur.kind == "prep"
                and (
                    w in ("of", "to", "for")
                    or (w == "from" and nxt == "the" and any(_ordinal(x) is not None for x in cur.words))
                    or opened_by_participle
                    or (cur.words and cur.words[-1] in ("next", "to", "from", "out", "in", "on") and w in ("to", "of"))
                )
            )
            if cur is not None and cur.kind == "subject" and w in ("from",) and nxt == "the":
                cur.tokens.append(toks[i])  # "the second card from the left"
            elif not continues:
                close()
                cur = _Phrase([toks[i]], "prep")
            else:
                cur.tokens.append(toks[i])
        else:
            if cur is None:
                cur = _Phrase([], "loose")
            cur.tokens.append(toks[i])
        i += 1
    close()
    return phrases


def _mask(text: str, pattern: re.Pattern, found: list[tuple[int, int]] | None = None) -> str:
    """``text`` with every match of ``pattern`` blanked by spaces (offsets kept); their spans are
    added to ``found``."""

    def blank(m: re.Match) -> str:
        if found is not None and m.group(0).strip():
            found.append((m.start(), m.end()))
        return " " * len(m.group(0))

    return pattern.sub(blank, text)


def _restore(bare: str, span: tuple[int, int], quotes: list[Quote], cased: str = "") -> str:
    """The words of ``bare[span]`` (in the question's own case, ``cased``, when its offsets are
    the same) with each placeholder " q " put back as its quote."""
    qs = [m.start() for m in re.finditer(r"(?<![\w'’-])q(?![\w'’-])", bare)]
    source = cased if len(cased) == len(bare) else bare
    out = []
    for m in re.finditer(r"[\w'’-]+|[^\w\s'’-]", source[span[0] : span[1]]):
        pos = span[0] + m.start()
        if m.group(0) in ("q", "Q") and pos in qs and qs.index(pos) < len(quotes):
            out.append(repr(quotes[qs.index(pos)].text))
        else:
            out.append(m.group(0))
    return re.sub(r" ([,;:?)])", r"\1", " ".join(out)).replace("( ", "(").strip(" ,")


def _words_in(bare: str, cased: str, span: tuple[int, int]) -> list[str]:
    return re.findall(r"[\w'’-]+", cased[span[0] : span[1]]) if len(cased) == len(bare) else []


def locate(
    question: str,
    bare: str,
    quotes: list[Quote],
    first_required: int,
    masks: list[re.Pattern],
    represented_masks: list[re.Pattern],
    in_box: re.Pattern | None,
    place_words: set[str],
    context_texts: set[str],
    style_words: set[str],
    n_texts: int = 1,
) -> Located:
    """Step 7: the element and locator phrases of ``bare`` (module docstring).

    Args:
        question: the question as asked (its capitals name containers: "in the NPS card").
        bare: ``question_quotes.bare_question(question, quotes)``.
        quotes: the question's quotes, in order (to put them back into the phrases).
        first_required: the index in ``quotes`` of the first required string (the words after it
            are claims, read by the residue step).
        masks: phrases that are not locators (form, spelling, counts), blanked first.
        represented_masks: phrases the spec represents (anchor relations), blanked and listed.
        in_box: the pattern of the enclosing box ``TextSpec.in_box`` asks for, or None.
        place_words: the place words that made ``TextSpec.region`` (``question_place.places_of``).
        context_texts: the texts of the question's "context", same-row and same-column anchors
            ("in the 'Revenue' tile", "in the row labeled 'Hydro'").
        style_words: subject words the spec checks already (a measured weight or colour).
        n_texts: the number of required strings ("the three labels" must name as many).
    """
    cased = _cased_bare(question, quotes)
    represented, handed = [], []
    masked = bare
    for p in masks:
        masked = _mask(masked, p)
    found: list[tuple[int, int]] = []
    for p in represented_masks:
        masked = _mask(masked, p, found)
    represented += [_restore(bare, s, quotes, cased) for s in sorted(found)]
    phrases = _segment(masked)
    qs = [m.start() for m in re.finditer(r"(?<![\w'’-])q(?![\w'’-])", bare)]
    first_quote = qs[first_required] if first_required < len(qs) else len(bare)
    subject = next((p for p in phrases if p.kind == "subject"), None)
    role = ordinal = axis = container = None
    subject_phrase = ""
    if subject is not None and subject.tokens:
        subject_phrase = _restore(bare, subject.span, quotes, cased)
        harmless = style_words | {x for w in place_words for x in re.split(r"[- ]", w)} | place_words
        parsed = _subject_element(subject, phrases, first_quote, masked, harmless, n_texts)
        if parsed == "image":
            subject_phrase = ""  # "Does the chart include ...": the whole image
        elif parsed is None:
            handed.append(subject_phrase)
        else:
            role, ordinal, axis = parsed
    for p in phrases:
        if p is subject:
            continue
        words = [w for w in p.words if w not in _DETERMINERS]
        text = _restore(bare, p.span, quotes, cased)
        used = {x for pw in place_words for x in re.split(r"[- ]", pw)}
        # "right" and "far" open a phrase ("right below") but are places too ("on the right")
        core = [
            w for w in words if (w not in _PARTICIPLES or w in used or w in ("right", "far")) and w not in _PREPOSITIONS
        ]
        if ordinal is not None and p.words[:1] == ["from"] and core in (["left"], ["right"], ["top"], ["bottom"]):
            # "the third item of the navigation menu from the left": the ordinal's direction
            ordinal = -abs(ordinal) if core[0] in ("right", "bottom") else ordinal
            represented.append(text)
            continue
        after = masked[p.span[1] :]
        named = _CONTEXT_NAME.match(after)
        if named and _quote_at(p.span[1] + named.end() - 1, bare, quotes) in context_texts:
            holds = p.words[0] in ("in", "inside", "within", "of", "on") and set(core) <= _NAMED_HOLDERS
            if p.kind == "loose" or holds:
                # "with the numeric label '54'", "in the row labeled 'Hydro'": the quote names the
                # element, and the context anchor checks it is read beside the string
                represented.append(_restore(bare, (p.span[0], p.span[1] + named.end()), quotes, cased))
                continue
        if p.kind == "loose":
            if p.span[0] > first_quote:
                continue  # words after the quote are claims: the residue reads them
            if all(w in _OBJECT_WORDS | _HARMLESS | _GENERIC or re.fullmatch(r"\d+|[a-z]", w) for w in core):
                continue  # "contain a single line that reads", "1)", "it": says only that there is text
            handed.append(text)
            continue
        if not core:
            continue
        if _CONTEXT_WORDS & set(p.words) or (p.words[0] == "to" and {"its", "their"} & set(p.words)):
            # "in the same list", "to its right": relative to context or to another element
            handed.append(text)
            continue
        if set(core) <= _TEXTUAL | _STYLE | style_words | {"and", "letters"}:
            continue  # "in bold", "in white text": a style claim, read by the style step
        # "on the large desktop-style layout": the whole image
        if (
            p.words[0] in _IMAGE_PREPOSITIONS
            and core[-1] in _IMAGE_NOUNS
            and set(core[:-1]) <= _IMAGE_ADJECTIVES
            and not (core[-1] in ("menu", "chart", "diagram", "graph", "plot") and len(core) > 1)
        ):
            continue
        if _is_place(core, place_words):
            represented.append(text)
            continue
        if role is not None and set(core) <= _CONTEXT_ROLES.get(role, set()):
            represented.append(text)  # "in the legend" of a legend entry
            continue
        name = _container(p, bare, cased, quotes, context_texts)
        if name is not None and container is None and (role is not None or subject is None):
            container = name
            represented.append(text)
            continue
        if (
            in_box is not None
            and in_box.fullmatch(masked[p.span[0] : p.span[1]])
            and set(core[:-1]) <= _BOX_SHAPES
            and "each" not in p.words
        ):
            represented.append(text)  # "inside the dashed rectangle": TextSpec.in_box
            continue
        handed.append(text)
    if container is not None and role is None:
        role = "whole"
    return Located(
        role,
        ordinal,
        axis,
        container,
        subject_phrase if role is not None else "",
        tuple(dict.fromkeys([subject_phrase] * (role is not None and bool(subject_phrase)) + represented)),
        tuple(dict.fromkeys(f"locator {t!r}" for t in handed)),
    )


def _subject_element(
    subject: _Phrase, phrases: list[_Phrase], first_quote: int, masked: str, harmless: set[str], n_texts: int
) -> tuple[str, int | None, str | None] | str | None:
    """(role, ordinal, axis) of the question's subject (``subject_role``), "image" when the subject
    is the whole image ("Does the chart include ..."), or None (a VLM locator).

    "the second card from the left" folds into the ordinal (negative from the right or bottom;
    cards count only left to right, bullets and legend entries only top to bottom); a holder
    ("Does the legend contain the exact label ...") is the role of what it holds. ``harmless``
    are words the spec checks already: a measured weight or colour, the place words of the region
    ("the bottom-right footnote")."""
    words = subject.words
    tail: list[str] = []
    if "from" in words:
        k = words.index("from")
        if words[-1:] in (["left"], ["right"], ["top"], ["bottom"]):
            words, tail = words[:k], words[k:]
    parsed = subject_role(words, harmless, n_texts)
    holder = _CONTAINER_SUBJECTS.get(words[-1]) if len(words) == 1 else None
    if parsed is None and holder is not None and _object_is_text(phrases, subject, first_quote, masked):
        parsed = (holder, None, None)
    if parsed is not None and "from" in subject.words:
        role, ordinal, axis = parsed
        horizontal = subject.words[-1] in ("left", "right")
        if not tail or ordinal is None or (role == "card") != horizontal and role in ("card", "bullet", "legend_entry"):
            return None
        parsed = (role, -ordinal if tail[-1] in ("right", "bottom") else ordinal, axis)
    if parsed is None and words and words[-1] in _IMAGE_NOUNS and set(words[:-1]) <= _IMAGE_ADJECTIVES:
        return "image"
    return parsed


def _quote_at(pos: int, bare: str, quotes: list[Quote]) -> str | None:
    """The text of the quote whose placeholder "q" ends at ``pos`` in ``bare`` (None: no quote)."""
    qs = [m.start() for m in re.finditer(r"(?<![\w'’-])q(?![\w'’-])", bare)]
    return quotes[qs.index(pos)].text if pos in qs and qs.index(pos) < len(quotes) else None


def _object_is_text(phrases: list[_Phrase], subject: _Phrase, first_quote: int, masked: str) -> bool:
    """True when the noun phrase after the subject's verb names only text ("the exact label",
    "an entry"), or the subject itself reads the strings ("Does the legend read exactly, from top
    to bottom: ..."), so the subject holds them."""
    after = [p for p in phrases if subject.span[1] < p.span[0] < first_quote]
    if not after:
        return bool(re.match(r"\s*(?:reads?|lists?|shows?|includes?|contains?)\b", masked[subject.span[1] :]))
    return after[0].kind == "loose" and all(
        w in _GENERIC | _OBJECT_WORDS | _DETERMINERS | {"entry", "item", "label"} for w in after[0].words
    )


def _is_place(core: list[str], place_words: set[str]) -> bool:
    """True when the phrase's words (without determiners, prepositions and opening participles)
    are place words that made ``TextSpec.region`` (and place fillers: "corner", "of the image")."""
    if not place_words:
        return False
    used = {w for pw in place_words for w in re.split(r"[- ]", pw)}
    rest = [w for w in core if w not in _PLACE_FILLER and w not in _IMAGE_NOUNS and w not in _IMAGE_ADJECTIVES]
    if len(rest) > 1 and _singular(rest[-1]) in _SIDE_CONTAINERS:
        rest = rest[:-1]  # "in the upper-right panel": that side of the image (question_place)
    parts = [x for w in rest for x in w.split("-")]
    # "center-left": the centre word narrows a side the region checks
    parts = [x for x in parts if not (x in ("center", "centre", "middle") and len(parts) > 1)]
    return bool(parts) and all(x in used for x in parts)


def _container(p: _Phrase, bare: str, cased: str, quotes: list[Quote], context_texts: set[str]) -> str | None:
    """The name of the card, tile or panel a phrase puts the element in ("in the NPS card" -> "NPS",
    "in the 'Revenue' tile" -> "Revenue"), or None. The name must be quoted (a context anchor) or
    written with capitals in the question, and not only a kind ("the KPI card")."""
    words = p.words
    if not words or words[0] not in ("in", "inside", "within", "on") or len(words) < 3:
        return None
    if words[1] not in ("the", "a") or _singular(words[-1]) not in _CONTAINERS:
        return None
    name_words = words[2:-1]
    if name_words == ["q"]:
        qs = [m.start() for m in re.finditer(r"(?<![\w'’-])q(?![\w'’-])", bare)]
        pos = [t[1] for t in p.tokens if t[0] == "q"][0]
        text = quotes[qs.index(pos)].text if pos in qs and qs.index(pos) < len(quotes) else None
        return text if text in context_texts else None
    original = _words_in(bare, cased, p.span)[2:-1]
    if not original or len(original) > 3 or len(original) != len(name_words):
        return None
    if not all(w[:1].isupper() or w[:1].isdigit() for w in original) or all(w.lower() in _KIND_WORDS for w in original):
        return None
    if any(w.lower() in _PLACE_FILLER | _SIDES for w in original):
        return None
    if original[0].lower() in _DETERMINERS:
        return None
    return " ".join(original)


def _cased_bare(question: str, quotes: list[Quote]) -> str:
    """``question_quotes.bare_question`` without lower-casing (same words, same offsets)."""
    parts, pos = [], 0
    for q in quotes:
        parts += [question[pos : q.start], " Q "]
        pos = q.end
    return re.sub(r"\s+", " ", "".join(parts + [question[pos:]])).strip()
