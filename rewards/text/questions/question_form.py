"""Step 4 of the question compiler (``rewards.text.questions.question_compiler``): the form of the required
strings, read from the bare question (``rewards.text.questions.question_quotes.bare_question``).

- **arrangement** (``arrangement_of``, one of ``question_compiler.ARRANGEMENTS``): lines ("first
  line X, second line Y", a line break inside the quote, "followed by the two lines", "'Asia'
  with '4600' as a two-line label"), order ("from top to bottom", "left to right", "in order",
  "then"), a table row ("a row labeled 'A' with values '1', '2'", "arranged horizontally"), else
  all present;
- **count** of one string (``count_of``: "exactly once", "twice", "3 times");
- **case** (``cased``: "in uppercase" upper-cases the strings);
- whether the words between the quotes only separate a list (``list_gaps_ok``).
"""

from __future__ import annotations

import re

from rewards.text.questions.question_quotes import Quote

LINE_BREAK = re.compile(r"\n|\\n")  # a newline, or the two characters backslash-n some rows carry
_LINES = re.compile(
    r"\b(?:first|1st|top|upper) line\b.*\b(?:second|2nd|bottom|lower|next) line\b|\bline break\b"
    r"|\bfollowed by (?:the |a )?(?:two|three|four|\d) (?:[\w-]+ )?lines\b|\bone per line\b"
    r"|\bon (?:separate|consecutive|successive) lines\b|\beach (?:on|as) its own line\b"
)
_TOP_TO_BOTTOM = re.compile(r"\b(?:from )?top[- ]to[- ]bottom\b|\bstacked vertically\b")
_LEFT_TO_RIGHT = re.compile(r"\b(?:from )?left[- ]to[- ]right\b")
REVERSED = re.compile(r"\b(?:from )?(right[- ]to[- ]left|bottom[- ]to[- ]top)\b")
"""An order read backwards ("from right to left"): the compiler reverses the strings and checks
them left to right (or top to bottom)."""
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

FORM_PHRASES = (_TOP_TO_BOTTOM, _LEFT_TO_RIGHT, REVERSED, _SIDE_BY_SIDE, _READING, _LINES, _TIMES, _UPPER, _LOWER)
"""The phrases of this step, removed (in this order) before the residue is read (step 6)."""

_N_LINES = re.compile(r"\b(two|three|four|five)[- ]line\b")
_LINE_GAP = set("with and as a an the on its first second third fourth line then followed by".split())
_ROW_SUBJECT = re.compile(r"\brows?\b")
_ROW_GAP = set("with values value and entries cells numbers then followed by".split())


def _gaps_within(question: str, required: list[Quote], allowed: set[str]) -> bool:
    """True when every word between consecutive required quotes is in ``allowed``."""
    return all(
        set(re.findall(r"[a-z]+", question[a.end : b.start].lower())) <= allowed for a, b in zip(required, required[1:])
    )


def arrangement_of(question: str, bare: str, required: list[Quote], texts: list[str]) -> str:
    """How the required strings ``texts`` (the ``required`` quotes of ``question``, split at line
    breaks) are laid out (``question_compiler.ARRANGEMENTS``); one string has no order."""
    arrangement = "all"
    if any(LINE_BREAK.search(q.text) for q in required) or (len(texts) > 1 and _LINES.search(bare)):
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
    return arrangement


def count_of(bare: str) -> int | None:
    """How many times the question asks its string to occur ("exactly once", "3 times"), or None."""
    times = _TIMES.search(bare)
    if times is None:
        return None
    n = times.group("n")
    return {"once": 1, "twice": 2, "thrice": 3}.get(n) or int(_NUMBER.get(n.split()[0], n.split()[0]))


def cased(bare: str, texts: list[str]) -> list[str]:
    """``texts`` upper-cased ("in uppercase", "all caps") or lower-cased ("in lowercase") as the
    question asks, else as they are."""
    if _UPPER.search(bare):
        return [t.upper() for t in texts]
    if _LOWER.search(bare):
        return [t.lower() for t in texts]
    return texts


_RELATION_GAP = set(
    """with without next beside near of for under over above below pointing points pointed connected
linked from to into inside within between versus vs than same matching match matches per each against""".split()
)


def list_gaps_ok(question: str, required: list[Quote]) -> bool:
    """True when the text between consecutive required quotes only separates a list ("'A', 'B',
    and 'C'", "'X' on the first line and 'Y' on the second line"), not a relation ("'Advice' with
    values '53'", "'A' pointing to 'B'"): no word of the gap is a relation word."""
    for a, b in zip(required, required[1:]):
        words = re.findall(r"[a-z]+", question[a.end : b.start].lower())
        if any(w in _RELATION_GAP for w in words):
            return False
    return True
