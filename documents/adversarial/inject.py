"""Which errors an adversarial page carries: per element role the error kinds it can carry, per
document kind the primary error kind, and the seeded choice of elements and wrong strings."""

from __future__ import annotations

import random
import re

from documents.errors import dropped_letter, missing_word, swapped_words, wrong_date, wrong_number
from documents.layout import Layout, Text

# which error kinds each element role can carry (the generator's plausible mistakes there)
ROLE_ERRORS = {
    "card": ("number",),
    "table_cell": ("table_cell", "number"),
    "bullet": ("missing_word", "swapped", "list_item"),
    "menu_item": ("list_item",),
    "subtitle": ("date", "swapped"),
    "date": ("date",),
    "venue": ("missing_word", "swapped"),
    "footer": ("missing_word", "swapped"),
    "axis_title": ("missing_word", "swapped"),
    "legend_entry": ("swapped",),
}


PRIMARY = {
    "slide": ("list_item", "number", "missing_word", "swapped"),
    "chart": ("number", "missing_word", "swapped", "date"),
    "dashboard": ("table_cell", "number", "list_item", "date"),
    "poster": ("date", "list_item", "missing_word", "swapped"),
}
"""Per kind, the error kind each of four consecutive seeds of that kind is sure to carry."""


def can_carry(kind: str, t: Text) -> bool:
    """Whether text element ``t`` can carry an error of ``kind`` (enough digits, a date, words)."""
    words = t.text.split(" ")
    if kind == "number":
        return sum(c.isdigit() for c in t.text) >= 3
    if kind == "date":
        return bool(re.search(r"\d{1,2}(-\d{1,2})?, \d{4}", t.text))
    if kind == "missing_word":
        return len(words) >= 3 and t.angle == 0
    if kind == "swapped":
        return len(words) >= 2 and len(set(words)) >= 2 and t.angle == 0 and not re.search(r"\d", t.text)
    return True


def corrupt_as(kind: str, text: str, rng: random.Random) -> str:
    """The wrong string an error of ``kind`` shows for ``text`` ("" for list_item and table_cell: missing)."""
    if kind == "number":
        return wrong_number(text, rng)
    if kind == "date":
        m = re.search(r"[A-Z][a-z]+ \d.*\d{4}", text)
        return text[: m.start()] + wrong_date(m.group(0), rng) + text[m.end() :]
    if kind == "missing_word":
        return missing_word(text, rng)
    if kind == "swapped":
        return swapped_words(text, rng)
    if kind == "decoy":
        return dropped_letter(text, rng)
    return ""  # list_item, table_cell: the text is missing


def choose_errors(lay: Layout, decoy: bool, primary: str, rng: random.Random) -> dict[str, tuple[str, str]]:
    """eid -> (kind, shown): an error of kind ``primary``, then 1-2 of other kinds, on different
    elements (and the decoy title's dropped letter when ``decoy``)."""
    options = [
        (kind, eid)
        for eid, t in lay.texts.items()
        for kind in ROLE_ERRORS.get(t.role, ())
        if can_carry(kind, t) and not (t.role == "axis_title" and t.meta.get("axis") == "y")
    ]
    chosen: dict[str, tuple[str, str]] = {}
    if decoy:
        chosen["title"] = ("decoy", corrupt_as("decoy", lay.texts["title"].text, rng))
    kinds = sorted({k for k, _ in options} - {primary})
    rng.shuffle(kinds)
    for kind in [primary, *kinds[: rng.choice([1, 2])]]:
        free = [eid for k, eid in options if k == kind and eid not in chosen]
        if free:
            eid = rng.choice(free)
            chosen[eid] = (kind, corrupt_as(kind, lay.texts[eid].text, rng))
    return chosen
