"""Rubric questions from an engine-drawn document's truth, in BizGenEval's text-question phrasing.

Each question names one element by its role and context ("Is the value label above the 'South'
bar "42"?", "Is the first item under the "Starters" heading "Garlic Bread"?", "Does the y-axis
title read exactly "..."?") or asks whether a role's set includes a string ("Does the legend
include the label "..."?"). Truth kinds (``Question.truth_kind``):

- exact: the element's correct string, the element drawn without defect: "yes" on both pages;
- a defect kind (``model.DEFECT_KINDS``): the defective element's correct string: "yes" on the
  clean page, "no" on the defect page (where it is misspelt, changed or missing);
- wrong_element: the string of another element of the same role, asked of this element (a
  string on the page, in the wrong element): "no" on both pages; only for questions that name
  one element;
- near_miss: the correct string with one letter changed, not on either page: "no" on both.

Questions whose locator a defect moves are not asked: an ordinal among a group that lost an
element ("the third nav item"), or a context quoting a defective element's correct string (the
price of a misspelt item).
"""

from __future__ import annotations

import random

from documents.engines.model import Defect, Element, Question, typo

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
KINDS = (
    "title", "chart_title", "subtitle", "heading_shown", "item_under_heading", "menu_item_under_heading",
    "price_of_item", "card_label_shown", "card_value", "card_delta", "date_line", "venue_line", "text_under_heading",
    "paragraph", "table_header", "row_label", "table_cell", "x_axis_title", "y_axis_title", "x_tick", "y_category",
    "legend_includes", "value_label_above", "value_label_end", "slice_value", "callout_contains", "donut_center",
    "pie_label_shown", "line_end_label", "nav_item", "brand", "button", "badge", "footer", "source_note",
)  # fmt: skip
"""Question forms (``Question.kind``)."""
INCLUDES = {
    "heading_shown",
    "card_label_shown",
    "legend_includes",
    "callout_contains",
    "pie_label_shown",
    "button",
    "badge",
}
"""Forms that ask whether a role's set includes the string: no wrong_element question (it would be true)."""

PAGE_WORD = {"slide": "slide", "dashboard": "dashboard", "landing": "page", "poster": "poster", "table": "page",
             "menu": "menu"}  # fmt: skip


CHART_ROLES = {"axis_title", "tick_label", "legend_entry", "value_label", "callout", "pie_label", "line_end_label"}


def _chart_phrase(role: str, c: dict, q: str, o: str | None, doc_kind: str) -> tuple[str, str] | None:
    """:func:`phrase` for the roles only charts have (``CHART_ROLES``)."""
    if role == "axis_title":
        if c["axis"] == "y":
            return "y_axis_title", f"Does the y-axis title read exactly {q}?"
        return "x_axis_title", f"Is the x-axis label exactly {q}?"
    if role == "tick_label" and o and c["axis"] == "y":
        return "y_category", f"Is the {o} y-axis category label from the top exactly {q}?"
    if role == "tick_label":
        return ("x_tick", f"Is the {o} x-axis tick label from the left exactly {q}?") if o else None
    if role == "legend_entry":
        return "legend_includes", f"Does the legend include the label {q}?"
    if role == "value_label" and "series" in c:
        return (
            "value_label_above",
            f'Is the value label above the "{c["series"]}" bar in the "{c["category"]}" group {q}?',
        )
    if role == "value_label" and doc_kind in ("pie", "donut"):
        return "slice_value", f'Is the "{c["category"]}" slice labeled with the percentage {q}?'
    if role == "value_label" and c.get("place") == "end":
        return "value_label_end", f'Is the value label at the end of the "{c["category"]}" bar {q}?'
    if role == "value_label":
        return "value_label_above", f'Is the value label above the "{c["category"]}" bar {q}?'
    if role == "callout" and c.get("place") == "center":
        return "donut_center", f"Does the text in the center of the donut read exactly {q}?"
    if role == "callout":
        return "callout_contains", f"Is there a callout annotation that contains the exact text {q}?"
    if role == "pie_label":
        return "pie_label_shown", f"Is there a slice label reading exactly {q}?"
    if role == "line_end_label":
        if c.get("rank") in ("top", "bottom"):
            where = "highest" if c["rank"] == "top" else "lowest"
            return "line_end_label", f"Is the label at the right end of the line that ends {where} exactly {q}?"
        return None


def phrase(e: Element, asked: str, doc_kind: str, rng: random.Random) -> tuple[str, str] | None:
    """(form, question) asking whether element ``e`` reads ``asked``; None when its role has no question
    (numeric y ticks)."""
    c, q = e.context, f'"{asked}"'
    o = ORDINALS[c["ordinal"] - 1] if c.get("ordinal") else None
    role = e.role
    if role == "title":
        page = PAGE_WORD.get(doc_kind, "page")
        return "title", rng.choice(
            (f"Does the main title at the top of the {page} read exactly {q}?", f"Is the title {q} shown?")
        )
    if role == "chart_title":
        return "chart_title", f"Is the chart title exactly {q}?"
    if role == "subtitle" and c.get("place") == "right":
        return "subtitle", f"Does the subtitle to the right of the title read exactly {q}?"
    if role == "subtitle":
        return "subtitle", f"Does the subtitle directly beneath the title read exactly {q}?"
    if role == "section_heading":
        return "heading_shown", f"Is there a section heading that reads exactly {q}?"
    if role == "list_item":
        return "item_under_heading", f'Is the {o} item under the "{c["heading"]}" heading exactly {q}?'
    if role == "item_name":
        return "menu_item_under_heading", f'Is the {o} item under the "{c["heading"]}" heading {q}?'
    if role == "item_price":
        return "price_of_item", f'In the "{c["heading"]}" section, is the price of "{c["item"]}" exactly {q}?'
    if role == "card_label":
        return "card_label_shown", f"Is there a KPI card labeled exactly {q}?"
    if role == "card_value":
        return "card_value", rng.choice(
            (f'Is the KPI card "{c["card"]}" showing {q}?', f'Does the "{c["card"]}" card show the value exactly {q}?')
        )
    if role == "paragraph" and "card" in c:
        return "card_delta", f'Does the "{c["card"]}" card show the change note {q}?'
    if role == "paragraph" and c.get("label") == "date":
        return "date_line", f"Does the date line read exactly {q}?"
    if role == "paragraph" and c.get("label") == "venue":
        return "venue_line", f"Does the venue line below the date read exactly {q}?"
    if role == "paragraph" and "heading" in c:
        return "text_under_heading", f'Does the text under the "{c["heading"]}" heading read exactly {q}?'
    if role == "paragraph":
        return "paragraph", f"Does the paragraph below the title read exactly {q}?"
    if role == "table_header":
        return "table_header", f"Is the header of the {o} column exactly {q}?"
    if role == "table_cell" and o:
        return "row_label", f"Is the {o} row label in the first column exactly {q}?"
    if role == "table_cell":
        return "table_cell", f"In the '{c['row']}' row, does the '{c['column']}' cell read exactly {q}?"
    if role in CHART_ROLES:
        return _chart_phrase(role, c, q, o, doc_kind)
    if role == "nav_item":
        if c.get("ordinal") == 0:
            return "brand", f"Is the brand name at the left of the navigation bar exactly {q}?"
        return "nav_item", f"Is the {o} link of the navigation menu from the left exactly {q}?"
    if role == "button":
        return "button", f"Is there a button labeled exactly {q}?"
    if role == "badge":
        return "badge", f"Is there a badge reading exactly {q}?"
    if role == "footer":
        return "footer", f"Does the footer read exactly {q}?"
    if role == "source_note":
        return "source_note", f"Does the source note at the bottom read exactly {q}?"
    return None


def _group(e: Element) -> tuple:
    """The elements an ordinal counts among: same role and container."""
    c = e.context
    return (e.role, c.get("heading"), c.get("axis"), c.get("column_side") if e.role == "nav_item" else None)


def _moved(e: Element, defects: list[Defect], by_id: dict[str, Element]) -> bool:
    """Whether a defect moves ``e``'s locator (see module docstring)."""
    for d in defects:
        if d.element == e.id:
            continue
        other = by_id.get(d.element)
        if other is None:
            continue
        if d.kind == "missing" and _group(other) == _group(e) and "ordinal" in e.context:
            return True
        if any(isinstance(v, str) and v == d.correct for v in e.context.values()):
            return True
    return False


def make_questions(
    doc_kind: str, clean: list[Element], defect: list[Element], defects: list[Defect], rng: random.Random,
    n_exact: int = 6,
) -> list[Question]:  # fmt: skip
    """The questions of one document (see module docstring): one per defect, ``n_exact`` exact ones,
    up to two wrong_element and one near_miss, in that order, ids "q1", "q2", ..."""
    by_id = {e.id: e for e in clean}
    on_defect = {e.id for e in defect}
    texts = {e.text for e in clean} | {e.text for e in defect}
    broken = {d.element for d in defects}
    out: list[Question] = []

    def ask(e: Element, asked: str, truth_kind: str, clean_answer: str, defect_answer: str) -> bool:
        p = phrase(e, asked, doc_kind, rng)
        if p is None or any(x.question == p[1] for x in out):
            return False
        out.append(Question(f"q{len(out) + 1}", p[0], truth_kind, p[1], e.id, asked,
                            {"clean": clean_answer, "defect": defect_answer}))  # fmt: skip
        return True

    for d in defects:
        if d.element in by_id and not _moved(by_id[d.element], defects, by_id):
            ask(by_id[d.element], d.correct, d.kind, "yes", "no")
    fine = [e for e in clean if e.id not in broken and e.id in on_defect and not _moved(e, defects, by_id)]
    fine = [e for e in fine if phrase(e, e.text, doc_kind, random.Random(0)) is not None]
    by_form: dict[str, list[Element]] = {}
    for e in rng.sample(fine, len(fine)):
        by_form.setdefault(phrase(e, e.text, doc_kind, random.Random(0))[0], []).append(e)
    spread = [e for k in range(len(fine)) for group in by_form.values() if k < len(group) for e in [group[k]]]
    for e in spread[:n_exact]:  # one of each form before a second of any
        ask(e, e.text, "exact", "yes", "yes")
    located = [e for e in fine if phrase(e, e.text, doc_kind, random.Random(0))[0] not in INCLUDES]
    rng.shuffle(located)
    wrong = 0
    for e in located:
        siblings = [o.text for o in fine if o.role == e.role and o.text != e.text and o.id != e.id]
        if siblings and wrong < 2 and ask(e, rng.choice(siblings), "wrong_element", "no", "no"):
            wrong += 1
    for e in rng.sample(fine, len(fine)):
        miss = typo(e.text, rng)
        if miss and miss not in texts and ask(e, miss, "near_miss", "no", "no"):
            break
    return out
