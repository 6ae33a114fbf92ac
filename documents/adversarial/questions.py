"""The adversarial set's rubric questions: each asks whether one element reads exactly a string,
in the shared BizGenEval subset's phrasing, with its truth on the clean and the erroneous page."""

from __future__ import annotations

import random

from documents.adversarial.truth import Element, Error, Question
from documents.adversarial.vocab import ORDINALS


def phrase(e: Element, kind: str, text: str, rng: random.Random, named: bool = False) -> str:
    """A question asking whether element ``e`` reads exactly ``text``, in the benchmarks' phrasing
    (the shared BizGenEval subset), naming the element by its role, position or labels;
    ``named``: never a phrasing that names no single element ("Does the legend include ...")."""
    page = {"slide": "slide", "chart": "chart", "dashboard": "dashboard", "poster": "poster"}[kind]
    q = rng.choice
    if e.role == "title":
        return q(
            [
                f'Does the main title at the top of the {page} read exactly "{text}"?',
                f'Is the large title in the top band exactly "{text}"?',
            ]
        )
    if e.role == "subtitle":
        return f'Does the subtitle directly beneath the title read exactly "{text}"?'
    if e.role == "heading":
        return f'Does the section heading read exactly "{text}"?'
    if e.role == "bullet":
        return q(
            [
                f'Does the {ORDINALS[e.ordinal - 1]} bullet read exactly "{text}"?',
                f'In the bulleted list, does the {ORDINALS[e.ordinal - 1]} bullet point read exactly "{text}"?',
            ]
        )
    if e.role == "menu_item":
        return f'Is the {ORDINALS[e.ordinal - 1]} item of the navigation menu from the left exactly "{text}"?'
    if e.role == "card":
        if e.container and kind != "poster" and rng.random() < 0.4:
            return f"Does the '{e.container}' card show exactly '{text}'?"
        if kind == "poster":
            return f'Does the text in the colored band near the bottom read exactly "{text}"?'
        return f"Does the {ORDINALS[e.ordinal - 1]} KPI card from the left show exactly '{text}'?"
    if e.role == "legend_entry":
        if named or rng.random() < 0.5:
            return f'Is the {ORDINALS[e.ordinal - 1]} legend entry labeled exactly "{text}"?'
        return f'Does the legend include an entry labeled exactly "{text}"?'
    if e.role == "axis_title":
        return f"Is the {e.axis}-axis labeled exactly '{text}'?"
    if e.role == "table_cell":
        return f"In the '{e.row}' row, does the '{e.column}' cell read exactly '{text}'?"
    if e.role == "date":
        return q([f'Does the date line read exactly "{text}"?', f'Is the event date shown exactly as "{text}"?'])
    if e.role == "venue":
        return f'Does the venue line below the date read exactly "{text}"?'
    if e.role == "footer":
        return q([f"Does the footer source note read exactly '{text}'?", f'Is the footer text exactly "{text}"?'])
    raise ValueError(f"no phrasing for role {e.role!r}")


ASKABLE = {"title", "subtitle", "heading", "bullet", "menu_item", "card", "legend_entry", "axis_title"}
ASKABLE |= {"table_cell", "date", "venue", "footer"}


def sibling_text(doc_elements: list[Element], e: Element) -> str | None:
    """The text of another element of ``e``'s role (a string on the page, in another element)."""
    others = [
        o.correct
        for o in doc_elements
        if o.role == e.role and o.id != e.id and o.correct and o.correct != e.correct and o.correct == o.shown
    ]
    return others[0] if others else None


def ask_questions(kind: str, elements: list[Element], errors: list[Error], rng: random.Random) -> list[Question]:
    """The document's questions, in order: one per error, the rotated y-axis title, two exact, one wrong_element."""
    by_id = {e.id: e for e in elements}
    out: list[Question] = []

    def ask(qtype: str, e: Element, text: str, clean: bool, erroneous: bool) -> None:
        qid = f"q{len(out) + 1}"
        yn = ("no", "yes")
        named = qtype == "wrong_element"
        out.append(Question(qid, qtype, phrase(e, kind, text, rng, named), e.id, text, yn[clean], yn[erroneous]))

    for err in errors:
        ask(err.kind, by_id[err.element], err.correct, True, False)
    if "axis-y" in by_id:
        e = by_id["axis-y"]
        ask("axis_title", e, e.correct, True, True)
    wrong = {err.element for err in errors}
    fine = [e for e in elements if e.role in ASKABLE and e.id not in wrong and e.id != "axis-y" and e.correct]
    for e in rng.sample(fine, min(2, len(fine))):
        ask("exact", e, e.correct, True, True)
    tries = [e for e in fine if sibling_text(elements, e)]
    for e in rng.sample(tries, min(1, len(tries))):
        ask("wrong_element", e, sibling_text(elements, e), False, False)
    return out
