"""The phrases of step 7 of the question compiler (``rewards.text.questions.question_element``): a question,
its represented phrases blanked out, cut into its subject ("the second KPI card from the left"), its
prepositional phrases ("at the top-center of the menu", "between the cup and the donut") and its loose noun
phrases ("contain a single line that reads"), each with the spans of its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rewards.text.questions.element_words import (
    _AUX,
    _DETERMINERS,
    _ORDINAL_NUMBER,
    _ORDINALS,
    _PARTICIPLES,
    _PREPOSITIONS,
    _VERBS,
)

_TRAILING = ("and", "or", "then", "which", "that", "who")
"""Words a phrase does not end with: they join it to the next one."""


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Words and punctuation of ``text`` with their spans."""
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[\w'’-]+|[^\w\s'’-]", text)]


def _ordinal(w: str) -> int | None:
    """The position an ordinal word names ("second": 2, "3rd": 3, "last": -1), or None."""
    n = _ORDINAL_NUMBER.match(w)
    return int(n.group(1)) if n else _ORDINALS.get(w)


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
    return _Segmenter(_tokens(masked)).phrases_of()


@dataclass
class _Segmenter:
    """One left-to-right pass over the tokens of a question: ``cur`` is the phrase being read,
    ``phrases`` the ones closed so far."""

    toks: list[tuple[str, int, int]]
    phrases: list[_Phrase] = field(default_factory=list)
    cur: _Phrase | None = None
    subject_done: bool = False

    def phrases_of(self) -> list[_Phrase]:
        i = 0
        while i < len(self.toks):
            i = self._step(i)
        self._close()
        return self.phrases

    def _close(self) -> None:
        """Keep the current phrase (without the joining words it ends with) and start none."""
        cur = self.cur
        if cur is not None:
            while cur.tokens and cur.tokens[-1][0] in _TRAILING:
                cur.tokens.pop()
            if cur.tokens:
                self.phrases.append(cur)
        self.cur = None

    def _step(self, i: int) -> int:
        """Read token ``i``; returns the index of the next token to read."""
        toks = self.toks
        w = toks[i][0]
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        if i and toks[i][1] - toks[i - 1][2] > 1 and self.cur is not None:
            if self.cur.kind != "subject" or self.cur.tokens:
                self._close()  # a represented phrase was blanked here: what follows is another phrase
        cur = self.cur
        if w == "q" and cur is not None and cur.kind == "prep" and re.match(r"[\w-]", nxt):
            if nxt in _VERBS or nxt in _PREPOSITIONS or nxt in _PARTICIPLES:
                self._close()
            else:
                cur.tokens.append(toks[i])  # "in the 'Revenue' tile": the quote names the tile
        elif (
            w == "("
            and cur is not None
            and (cur.kind == "prep" or cur.words[-1:] in (["panel"], ["subfigure"]))
            and ")" in [t[0] for t in toks[i : i + 6]]
        ):
            k = [t[0] for t in toks[i : i + 6]].index(")")
            cur.tokens += toks[i : i + k + 1]  # "In panel (b)", "Does panel (b) display"
            return i + k + 1
        elif not re.match(r"[\w'’-]", w) or w == "q":
            self._close()
        elif w in _AUX and not self.subject_done and nxt in _DETERMINERS | {"there"}:
            return self._open_subject(i, nxt)
        else:
            self._word(i, w, nxt)
        return i + 1

    def _open_subject(self, i: int, nxt: str) -> int:
        """An auxiliary ("Does the ...", "Is there a ..."): the subject starts after it and its
        determiner; returns the index of its first word."""
        toks = self.toks
        self._close()
        j = i + 1
        if nxt == "there":
            j += 1
            if j < len(toks) and toks[j][0] in ("is", "are"):
                j += 1
        if j < len(toks) and toks[j][0] in _DETERMINERS:
            j += 1
        self.cur = _Phrase([], "subject")
        self.subject_done = True
        return j

    def _word(self, i: int, w: str, nxt: str) -> None:
        """Token ``i``, a word ``w`` (``nxt`` the next token) that neither opens the subject nor is
        a quote or punctuation: it closes the current phrase, opens a new one or continues it."""
        tok, cur = self.toks[i], self.cur
        if cur is not None and cur.words and cur.words[0] == "between" and w not in _VERBS:
            cur.tokens.append(tok)  # "between the cup on the left and the donut": one phrase
        elif w in ("that", "which", "who") and nxt in _VERBS:
            self._close()
        elif w == "of" and i and self.toks[i - 1][0] in ("consist", "consists", "consisting", "composed", "made"):
            self._close()  # "consist of the line ...": the verb, no locator
        elif w in _VERBS and not (
            w in ("set", "list", "form", "end", "start") and cur is not None and cur.kind == "prep"
        ):
            self._close()
        elif cur is not None and cur.kind == "prep" and cur.words[-1:] in (["the"], ["immediate"], ["to"]):
            cur.tokens.append(tok)  # "to the right of", "to the immediate right of"
        elif w in _PARTICIPLES and (w not in ("right", "far") or nxt in _PREPOSITIONS | _PARTICIPLES):
            if cur is None or cur.kind != "prep" or any(x not in _PARTICIPLES for x in cur.words):
                self._close()
                self.cur = _Phrase([], "prep")
            self.cur.tokens.append(tok)
        elif w in _PREPOSITIONS:
            self._preposition(tok, w, nxt)
        else:
            if cur is None:
                self.cur = _Phrase([], "loose")
            self.cur.tokens.append(tok)

    def _preposition(self, tok: tuple[str, int, int], w: str, nxt: str) -> None:
        """A preposition ``w``: it continues the current phrase ("to the right of", "the second card
        from the left", "next to") or opens a prepositional phrase."""
        cur = self.cur
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
            cur.tokens.append(tok)  # "the second card from the left"
        elif not continues:
            self._close()
            self.cur = _Phrase([tok], "prep")
        else:
            cur.tokens.append(tok)
