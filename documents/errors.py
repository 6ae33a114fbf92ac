"""The errors image generators make in text, injected into a document's strings: each function
takes the correct string and a seeded ``random.Random`` and returns a wrong one (never equal to
the input, unless a docstring says otherwise), drawing from ``rng`` in a fixed order so that a
seed gives the same error every time.

- :func:`corrupt`: one character dropped, two swapped, one replaced by a look-alike, or the whole
  string missing (:data:`CORRUPTIONS`; the bundled example and the text-editor benchmark);
- :func:`wrong_number`, :func:`wrong_date`, :func:`missing_word`, :func:`swapped_words`,
  :func:`dropped_letter`: the adversarial set's error kinds;
- :func:`near_miss`: a plural "s", a changed digit, a flipped case or a dropped letter (the
  fidelity set's near misses).
"""

from __future__ import annotations

import random
import re

CORRUPTIONS = ("drop", "swap", "substitute", "missing")
"""The kinds of :func:`corrupt`."""
LOOKALIKE = dict(zip("eoaciltnmrsuvhb0158ESOCIRBGTPNM", "caoelifmnnzvuhd8763FZQGLPEC1RMN"))
"""Look-alike substitutions typical of generated text (``corrupt(..., "substitute", ...)``)."""


def corrupt(text: str, kind: str, rng: random.Random) -> str:
    """``text`` with one injected error of ``kind`` ("missing" -> ""). Always differs from ``text``."""
    if kind == "missing":
        return ""
    alnum = [i for i, ch in enumerate(text) if ch.isalnum()]
    if kind == "swap":
        pairs = [i for i in alnum if i + 1 < len(text) and text[i + 1].isalnum() and text[i] != text[i + 1]]
        if pairs:
            i = rng.choice(pairs)
            return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
        kind = "substitute"
    if kind == "substitute":
        subs = [i for i in alnum if text[i] in LOOKALIKE]
        i = rng.choice(subs or alnum)
        new = LOOKALIKE.get(text[i], "x" if text[i] != "x" else "y")
        return text[:i] + new + text[i + 1 :]
    i = rng.choice(alnum[1:] or alnum)  # drop: keep the first character so the line is still findable
    return text[:i] + text[i + 1 :]


def wrong_number(text: str, rng: random.Random) -> str:
    """``text`` with two adjacent different digits swapped, else one digit changed (never equal)."""
    pairs = [i for i in range(len(text) - 1) if text[i].isdigit() and text[i + 1].isdigit() and text[i] != text[i + 1]]
    if pairs and rng.random() < 0.6:
        i = rng.choice(pairs)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    if not digits:
        raise ValueError(f"no digit in {text!r}")
    i = rng.choice(digits)
    return text[:i] + str((int(text[i]) + rng.randint(1, 8)) % 10) + text[i + 1 :]


def wrong_date(text: str, rng: random.Random) -> str:
    """A date with the two digits of its first day swapped ("July 21-14, 2025" for "July 12-14,
    2025"), else a number error (``wrong_number``) in it; never equal to ``text``."""
    day = re.search(r"\b(\d)(\d)(?=[-,])", text)
    if day and day.group(1) != day.group(2) and rng.random() < 0.6:
        return text[: day.start()] + day.group(2) + day.group(1) + text[day.end() :]
    return wrong_number(text, rng)


def missing_word(text: str, rng: random.Random) -> str:
    """``text`` with one word (not the first) dropped; needs >= 3 words."""
    words = text.split(" ")
    k = rng.randrange(1, len(words))
    return " ".join(words[:k] + words[k + 1 :])


def swapped_words(text: str, rng: random.Random) -> str:
    """``text`` with two adjacent different words swapped."""
    words = text.split(" ")
    ks = [k for k in range(len(words) - 1) if words[k] != words[k + 1]]
    k = rng.choice(ks)
    words[k], words[k + 1] = words[k + 1], words[k]
    return " ".join(words)


def dropped_letter(text: str, rng: random.Random) -> str:
    """``text`` with one inner letter of its longest word dropped ("BREAKFAST" -> "BREAKAST")."""
    m = max(re.finditer(r"[A-Za-z]+", text), key=lambda m: len(m.group(0)))
    i = rng.randrange(m.start() + 1, m.end() - 1)
    return text[:i] + text[i + 1 :]


def near_miss(text: str, rng: random.Random) -> str:
    """A string one typical generator error away from ``text``: a plural "s", a changed digit,
    one word's case flipped, or a dropped letter (always different from ``text``)."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    words = [m for m in re.finditer(r"[A-Za-z]{3,}", text)]
    kinds = ["plural"] + (["digit"] if digits else []) + (["case"] if words else []) + (["drop"] if words else [])
    kind = rng.choice(kinds)
    if kind == "digit":
        i = rng.choice(digits)
        return text[:i] + str((int(text[i]) + rng.randint(1, 8)) % 10) + text[i + 1 :]
    if kind == "case":
        m = rng.choice(words)
        w = m.group(0)
        flipped = w.lower() if w[0].isupper() else w.capitalize()
        flipped = w.upper() if flipped == w else flipped
        return text[: m.start()] + flipped + text[m.end() :]
    if kind == "drop":
        m = rng.choice(words)
        i = rng.randrange(m.start() + 1, m.end())
        return text[:i] + text[i + 1 :]
    last = list(re.finditer(r"[A-Za-z]+", text))
    if not last:
        return text + "s"
    m = last[-1]
    return text[: m.end()] + "s" + text[m.end() :]
