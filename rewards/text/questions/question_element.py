"""Step 7 of the question compiler (``rewards.text.questions.question_compiler``): the element a question is
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

The phrases are cut by ``locator_phrases``. Nothing is dropped in silence. The rules never guess:
a subject with a word outside the role vocabulary (``_ROLES``, ``_HARMLESS``) is a VLM locator,
and so is every phrase relative to an unquoted element ("beneath the eleventh bottle", "to the
right of the magic-wand illustration") or to context code cannot see ("in the same ordered
list", "in panel (b)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rewards.text.questions.element_words import (
    _BOX_SHAPES,
    _CONTAINER_SUBJECTS,
    _CONTAINERS,
    _CONTEXT_NAME,
    _CONTEXT_ROLES,
    _CONTEXT_WORDS,
    _DETERMINERS,
    _EDGE_ROLES,
    _EDGES,
    _GENERIC,
    _HARMLESS,
    _HERO_ROLES,
    _IMAGE_ADJECTIVES,
    _IMAGE_NOUNS,
    _IMAGE_PREPOSITIONS,
    _KIND_WORDS,
    _NAMED_HOLDERS,
    _NUMBERS,
    _OBJECT_WORDS,
    _ORDINAL_NEEDED,
    _ORDINAL_ROLES,
    _PARTICIPLES,
    _PLACE_FILLER,
    _PREPOSITIONS,
    _ROLES,
    _SIDE_CONTAINERS,
    _SIDES,
    _SIZE,
    _STYLE,
    _TEXTUAL,
)
from rewards.text.questions.generic_role import is_generic_role
from rewards.text.questions.locator_phrases import _ordinal, _Phrase, _segment
from rewards.text.questions.question_quotes import Quote
from rewards.text.questions.role_anchor import role_anchor


@dataclass(frozen=True)
class Located:
    """The element and locator phrases of one question (step 7).

    Attributes:
        role, ordinal, axis, container, phrase: the subject's ``ElementSpec`` fields (role None:
            no element code can find).
        represented: the locator phrases the spec represents (for ``TextSpec.locators``).
        vlm_parts: ``locator '<phrase>'`` for each phrase it does not.
        names_quote: True when a generic role right before the first required string names it
            ("include the country label 'China'"): the string is that element's whole text.
        role_anchors: (role, relation, phrase) of each phrase relative to an element named by its
            role ("directly below the title": ``role_anchor.role_anchor``).
    """

    role: str | None
    ordinal: int | None
    axis: str | None
    container: str | None
    phrase: str
    represented: tuple[str, ...]
    vlm_parts: tuple[str, ...]
    names_quote: bool = False
    role_anchors: tuple[tuple[str, str, str], ...] = ()


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
        if "section" not in rest:
            role = "title"  # "the main section heading" heads a section, not the page
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


@dataclass(frozen=True)
class _Asked:
    """What the phrase rules read of one question (the arguments of ``locate``): ``bare`` with its
    represented phrases blanked (``masked``) and in the question's own case (``cased``), and the
    offset in ``bare`` of the first required string (``first_quote``)."""

    bare: str
    cased: str
    masked: str
    quotes: list[Quote]
    first_quote: int
    in_box: re.Pattern | None
    place_words: set[str]
    context_texts: set[str]
    style_words: set[str]

    def text(self, span: tuple[int, int]) -> str:
        """The words of ``span`` with their quotes put back (``_restore``)."""
        return _restore(self.bare, span, self.quotes, self.cased)


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
    masked = bare
    for p in masks:
        masked = _mask(masked, p)
    found: list[tuple[int, int]] = []
    for p in represented_masks:
        masked = _mask(masked, p, found)
    qs = [m.start() for m in re.finditer(r"(?<![\w'’-])q(?![\w'’-])", bare)]
    first_quote = qs[first_required] if first_required < len(qs) else len(bare)
    cased = _cased_bare(question, quotes)
    asked = _Asked(bare, cased, masked, quotes, first_quote, in_box, place_words, context_texts, style_words)
    represented, handed = [asked.text(s) for s in sorted(found)], []
    phrases = _segment(masked)
    subject = next((p for p in phrases if p.kind == "subject"), None)
    subject_phrase, parsed = _read_subject(subject, phrases, asked, n_texts)
    role, ordinal, axis = parsed if isinstance(parsed, tuple) else (None, None, None)
    if parsed is None:
        handed.append(subject_phrase)
    container, names_quote, role_anchors = None, False, []
    for p in phrases:
        if p is subject:
            continue
        may_contain = container is None and (role is not None or subject is None)
        fate, text, detail = _phrase_fate(p, asked, role, ordinal, may_contain)
        if fate == "generic" and role is not None:
            fate = "handed"  # "Does the x-axis include a tick label '1950'": no axis title, a VLM's
        elif fate == "generic":  # "include the country label 'China'": the label is the string
            names_quote, subject_phrase, role = True, text, "whole"
        elif fate == "role_anchor":
            role_anchors.append((*detail, text))
        elif fate == "direction":
            ordinal = -abs(ordinal) if detail in ("right", "bottom") else ordinal
        elif fate == "container":
            container = detail
        if fate == "handed":
            handed.append(text)
        elif fate != "dropped":
            represented.append(text)
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
        names_quote,
        tuple(role_anchors),
    )


_AXIS_NOUNS = (["x-axis"], ["y-axis"], ["horizontal", "axis"], ["vertical", "axis"])
_TICK_WORDS = frozenset({"tick", "category", "axis", "label", "value", "number", "numeric", "exact", "year", "name"})


def _bare_axis(subject: _Phrase | None) -> bool:
    """True when the subject is an axis itself ("the x-axis", "the vertical axis"), not its title."""
    words = [w for w in subject.words if w not in _DETERMINERS] if subject is not None else []
    return words in _AXIS_NOUNS


def _tick_object(p: _Phrase, asked: _Asked) -> bool:
    """True when ``p`` is the object an axis holds, right before the first required string, naming
    a tick or category label ("Does the x-axis include the category label 'A'", "show a tick label")."""
    words = [w for w in p.words if w not in _DETERMINERS]
    return (
        p.kind == "loose"
        and p.span[0] < asked.first_quote
        and bool(re.match(r"\s*q\b", asked.masked[p.span[1] :]))
        and bool(words)
        and words[-1] in ("label", "value", "number", "name")
        and set(words) <= _TICK_WORDS
    )


def _read_subject(
    subject: _Phrase | None, phrases: list[_Phrase], asked: _Asked, n_texts: int
) -> tuple[str, tuple[str, int | None, str | None] | str | None]:
    """(the subject's words with their quotes, ``_subject_element`` of it: None for a VLM locator):
    ("", "absent") when the question has no subject, ("", "image") when the subject is the whole
    image, ("x-axis tick label", None) when an axis holds a tick label (``_tick_object``, which is
    taken out of ``phrases``)."""
    if subject is None or not subject.tokens:
        return "", "absent"
    subject_phrase = asked.text(subject.span)
    place_words = asked.place_words
    harmless = asked.style_words | {x for w in place_words for x in re.split(r"[- ]", w)} | place_words
    parsed = _subject_element(subject, phrases, asked.first_quote, asked.masked, harmless, n_texts)
    if parsed == "image":
        return "", parsed  # "Does the chart include ...": the whole image
    if isinstance(parsed, tuple) and parsed[:2] == ("axis_title", None) and _bare_axis(subject):
        tick = next((p for p in phrases if _tick_object(p, asked)), None)
        if tick is not None:  # "Does the y-axis show a tick label '0.50'": a tick label, not the title
            phrases.remove(tick)  # the object is the locator ("the label" of an axis: its title or a tick)
            return f"{parsed[2]}-axis {'tick ' if {'tick', 'category'} & set(tick.words) else ''}label", None
    return subject_phrase, parsed


def _phrase_fate(
    p: _Phrase, asked: _Asked, role: str | None, ordinal: int | None, may_contain: bool
) -> tuple[str, str, str | None]:
    """What becomes of a phrase other than the subject: (fate, its text, detail), the fate one of
    "represented", "handed" (a VLM locator), "dropped" (no locator: a style claim, the whole
    image, words after the quote), "direction" ("from the right": detail the side the subject's
    ``ordinal`` counts from) or "container" (detail the name; only when ``may_contain``).
    ``role`` and ``ordinal`` are the subject's."""
    bare, masked = asked.bare, asked.masked
    words = [w for w in p.words if w not in _DETERMINERS]
    text = asked.text(p.span)
    used = {x for pw in asked.place_words for x in re.split(r"[- ]", pw)}
    # "right" and "far" open a phrase ("right below") but are places too ("on the right")
    core = [
        w for w in words if (w not in _PARTICIPLES or w in used or w in ("right", "far")) and w not in _PREPOSITIONS
    ]
    if ordinal is not None and p.words[:1] == ["from"] and core in (["left"], ["right"], ["top"], ["bottom"]):
        return "direction", text, core[0]  # "the third item of the navigation menu from the left"
    named = _CONTEXT_NAME.match(masked[p.span[1] :])
    if named and _quote_at(p.span[1] + named.end() - 1, bare, asked.quotes) in asked.context_texts:
        holds = p.words[0] in ("in", "inside", "within", "of", "on") and set(core) <= _NAMED_HOLDERS
        if p.kind == "loose" or holds:
            # "with the numeric label '54'", "in the row labeled 'Hydro'": the quote names the
            # element, and the context anchor checks it is read beside the string
            return "represented", asked.text((p.span[0], p.span[1] + named.end())), None
    if p.kind == "loose":
        if p.span[0] > asked.first_quote:
            return "dropped", text, None  # words after the quote are claims: the residue reads them
        if all(w in _OBJECT_WORDS | _HARMLESS | _GENERIC or re.fullmatch(r"\d+|[a-z]", w) for w in core):
            return "dropped", text, None  # "contain a single line that reads", "1)", "it": says only that there is text
        if is_generic_role(words, asked.style_words) and re.match(r"\s*q\b", masked[p.span[1] :]):
            return "generic", text, None  # "the country label 'China'" (generic_role)
        return "handed", text, None
    if not core:
        return "dropped", text, None
    return _prep_fate(p, core, text, asked, role, may_contain)


def _prep_fate(
    p: _Phrase, core: list[str], text: str, asked: _Asked, role: str | None, may_contain: bool
) -> tuple[str, str, str | None]:
    """``_phrase_fate`` of a prepositional phrase with words ``core`` (without determiners,
    prepositions and opening participles)."""
    if _CONTEXT_WORDS & set(p.words) or (p.words[0] == "to" and {"its", "their"} & set(p.words)):
        return "handed", text, None  # "in the same list", "to its right": relative to context or to another element
    if set(core) <= _TEXTUAL | _STYLE | asked.style_words | {"and", "letters"}:
        return "dropped", text, None  # "in bold", "in white text": a style claim, read by the style step
    # "on the large desktop-style layout": the whole image
    if (
        p.words[0] in _IMAGE_PREPOSITIONS
        and core[-1] in _IMAGE_NOUNS
        and set(core[:-1]) <= _IMAGE_ADJECTIVES
        and not (core[-1] in ("menu", "chart", "diagram", "graph", "plot") and len(core) > 1)
    ):
        return "dropped", text, None
    if _is_place(core, asked.place_words):
        return "represented", text, None
    named_role = role_anchor(text)
    if named_role is not None:
        return "role_anchor", text, named_role  # "directly below the title" (role_anchor)
    if role is not None and set(core) <= _CONTEXT_ROLES.get(role, set()):
        return "represented", text, None  # "in the legend" of a legend entry
    name = _container(p, asked.bare, asked.cased, asked.quotes, asked.context_texts)
    if name is not None and may_contain:
        return "container", text, name
    if (
        asked.in_box is not None
        and asked.in_box.fullmatch(asked.masked[p.span[0] : p.span[1]])
        and set(core[:-1]) <= _BOX_SHAPES
        and "each" not in p.words
    ):
        return "represented", text, None  # "inside the dashed rectangle": TextSpec.in_box
    return "handed", text, None


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
    if parsed is None and not tail and is_generic_role(words, harmless, n_texts):
        parsed = ("whole", None, None)  # "the callout label", "a CEO box": a whole element (generic_role)
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
