"""Steps 1-3 of the question compiler (``rewards.text.questions.question_compiler``): find the quotes of a
question, refuse the questions whose quotes code cannot decide, and give each quote its role.

1. **Quotes** (``find_quotes``, ``bare_question``, ``UNQUOTED``).
2. **Refusals** (``refusal``): negation, a choice between strings, examples or meanings.
3. **Roles** (``split_quotes``, ``context_quotes``, ``between_pair``): required strings, anchors
   (a relation phrase before the quote), clarifications, and the quote naming the element asked
   about (a "context" anchor).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------------- 1. quotes
_QUOTE = re.compile(
    r"\"((?:[^\"\\]|\\.)+)\"|“([^”]+)”|‘([^’]+)’(?![A-Za-z])|(?<![A-Za-z0-9])'(?!s\b)(.+?)'(?![A-Za-z0-9])", re.S
)
"""Double quotes may hold backslash-escaped quotes ("\"God made the integers\"", as JSON rows
carry them); a single quote opens a quote unless it touches a letter or is a possessive ("(a)'s")."""


@dataclass(frozen=True)
class Quote:
    """One quote of a question: its span ``[start, end)`` (characters, quote marks included) and
    its text (stripped, escapes resolved)."""

    start: int
    end: int
    text: str


def find_quotes(question: str) -> list[Quote]:
    """The non-empty quotes of ``question``, in order (``_QUOTE``)."""
    out = []
    for m in _QUOTE.finditer(question):
        text = next(g for g in m.groups() if g is not None)
        if m.group(1) is not None:
            text = re.sub(r'\\(["\\])', r"\1", text)
        if text.strip():
            out.append(Quote(m.start(), m.end(), text.strip()))
    return out


def bare_question(question: str, quotes: list[Quote]) -> str:
    """The question in lower case with every quote replaced by the placeholder " Q "."""
    parts, pos = [], 0
    for q in quotes:
        parts += [question[pos : q.start], " Q "]
        pos = q.end
    return re.sub(r"\s+", " ", "".join(parts + [question[pos:]]).lower()).strip()


UNQUOTED = re.compile(
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


def refusal(bare: str) -> str | None:
    """Why code must not decide a question at all (the note of form "none"), or None. ``bare``
    is ``bare_question``'s: a negation or a choice between strings would make a failed text part
    not mean "no", and quoted examples or meanings are not required strings."""
    if _NEGATION.search(bare):
        return "negation: a missing string would not mean 'no'"
    if _CHOICE.search(bare):
        return "a choice between strings"
    if _EXAMPLES.search(bare):
        return "the quotes are examples or meanings, not required strings"
    return None


# ---------------------------------------------------------------------------------- 3. roles
_REL_BEFORE = re.compile(
    r"(?P<adv>\b(?:directly|immediately|just|right)\s+)?"
    r"(?P<rel>under column|in column|in the row|in the column|in row|below|under(?:neath)?|beneath|above|over"
    r"|on top of|to the right of|right of|to the left of|left of"
    r"|next to|beside|between|after|before|near|aligned (?:horizontally |vertically )?with|in line with)"
    r"(?:\s+(?:the|a|an|this|that|its))?(?:(?:\s+(?!exactly\b|reads?\b|is\b|are\b)[\w-]+){0,2}?|\s+[a-z]+\s+\d+\s+[\w-]+)"
    r"\s*$"
)
_UNSUPPORTED_RELATIONS = {"next to", "beside", "between", "after", "before", "near"}


def _relation_of(before: str, after: str) -> str | None:
    """The relation named just before a quote (``before``: the lower-case text since the previous
    quote), or None when the quote is not an anchor. ``after`` is the text following it."""
    if re.match(r"^\s*(?:row|line)\b", after) and re.search(r"\b(?:in|on|of) (?:the|that|this)\s*$", before):
        return "same_row"
    if re.match(r"^\s*column\b", after) and re.search(
        r"\b(?:in|under|of) (?:the|that|this)\s*$|\brow,? and\s*$", before
    ):
        return "same_column"  # "in the 'Q2' row and 'Revenue' column": and-joined to a row anchor
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


def split_quotes(question: str, quotes: list[Quote]) -> tuple[list[Quote], list[tuple[Quote, str]]]:
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


_READ_VERB = re.compile(
    r"\b(?:read|reads|reading|contain|contains|show|shows|display|displays|say|says|state|states|consist"
    r"|consists|include|includes|spell|spells|list|lists)\b"
)


def context_quotes(question: str, required: list[Quote]) -> tuple[list[Quote], list[Quote]]:
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


def between_pair(question: str, first: Quote, required: list[Quote]) -> Quote | None:
    """The quote that closes "between "A" and "B"" after ``first``, when it is a required quote."""
    for q in required:
        if q.start > first.end and re.fullmatch(r"\s*,?\s*and\s*", question[first.end : q.start]):
            return q
    return None


ANCHOR_PHRASES = (
    re.compile(
        r"\b(?:directly |immediately |just |right )?(?:below|under(?:neath)?|beneath|above|over"
        r"|to the (?:right|left) of|(?:right|left) of|aligned (?:horizontally |vertically )?with"
        r"|in line with|under column|in column)(?: (?:the|a|an|this|that|its))?"
        r"(?:(?: (?!exactly\b|reads?\b|is\b|are\b)[\w-]+){0,2}?| [a-z]+ \d+ [\w-]+) q\b"
        r"(?: (?:heading|header|title|subtitle|label|card|box|row|column|button|tab|text|line|item|entry|section"
        r"|panel|tile|cell|node|badge|pill|tag|link|bar|block|caption|value|number)s?\b)?"
    ),
    re.compile(r"\b(?:in|on|of) (?:the|that|this) q (?:row|line|column)\b(?: and q column\b)?"),
)
"""The relation phrases of anchors in a bare question ("directly below the Q", "in the Q row"),
removed before the residue is read (step 6): they say where a string stands, which the anchors
check. As in ``_REL_BEFORE``, the words before the quote are not its verb: in "the text directly below
the title read 'Q'" the quote is the required string, and "below the title" is a role anchor."""
