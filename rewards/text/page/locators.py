"""Locator phrases the question compiler leaves to a VLM, resolved on the page structure.

The compiler (``rewards.text.questions``) keeps a locator it cannot represent as a VLM part
("locator 'directly beneath the title'", "locator 'first x-axis tick label from the left'",
"style 'slice'"). When a question's text part holds, the OCR judge asks :func:`resolve_locators`
whether the page shows such a part for an occurrence of the required string read as a whole
element (a line or block of its own, ``rewards.text.page.finders._whole``):

- **below the title** ("directly beneath the title", "below the title"): the occurrence stands
  under a title (``finders._title``), overlapping it horizontally; "directly": no line between
  them; otherwise at most one block between them, of larger type (a subtitle over a paragraph);
- **beside the title** ("to the right of the title"): the occurrence stands on a title's band,
  beyond its right (left) edge within six title heights, no other line between them;
- **tick and category labels by ordinal** ("the second x-axis tick label from the left", "the
  fourth y-axis category label from the top"): the occurrence is the Nth of its row of short labels
  (up to ``TICK_CHARS`` characters, overlapping in height) or of its column of right-aligned
  labels, and the row or column is complete: evenly spaced (each gap 0.6-1.4 times the median)
  and with no ink where one more label would stand before the first or after the last (a label
  OCR missed would shift the count);
- **slice labels** ("a slice label", with the compiler's "style 'slice'"): the occurrence stands
  on or around the chart's pie (``rewards.text.page.pie.find_pie``: 0.3 to 1.45 radii from its
  centre) and is not a legend entry (no swatch left of it);
- **a slice and its value** ("the 'Hydro' slice labeled with the percentage '36%'"): name and
  value are slice labels at one angle from the pie's centre (within 12 degrees), each the other's
  nearest in angle among the slice labels on its side of the rim (matplotlib places a wedge's
  label and its percentage on the wedge's middle angle);
- **the centre of a donut** ("the text in the center of the donut"): within 0.35 radii of the
  centre of a pie with a hole.

The container, region, grid, shape, table and object rules live in their own modules
(``container_locators``, ``region_locators``, ``grid_locators``, ``shape_locators``: "inside the
blue circle", ``table_locators``: "the second data row" of "the lower central table",
``object_locators``: "beneath the eighth bottle from the left", ``picture_locators``: "directly
below the RGB inset").

A part is resolved only when it holds; a part that fails or that these rules do not know stays a
VLM part (the verdict is withheld): resolving never says "no". Boxes are ``(x0, y0, x1, y1)``
pixels of the judged image.
"""

from __future__ import annotations

import re
from dataclasses import replace

from PIL import Image

from rewards.text.ocr.text_match import Line, find_matches
from rewards.text.page.chart_locators import (
    _axis_label,
    _bar_end,
    _callout,
    _donut_centre,
    _group_bar,
    _line_end,
    _slice_label,
    _slice_value,
    _x_tick,
    _y_tick,
)
from rewards.text.page.container_locators import (
    HOLDER,
    NAMED_HOLDER,
    _edge_of_block,
    _named_holder,
    _nth_line,
    _one_holder,
    _panel,
    _topmost,
    holds_several,
)
from rewards.text.page.elements import find_elements
from rewards.text.page.grid_locators import ROW, _grid_row, admits_row
from rewards.text.page.grounding import _is_element
from rewards.text.page.locator_base import ORDINALS, Rule, _Ctx
from rewards.text.page.object_locators import OBJECT, _under_nth, admits_object
from rewards.text.page.page_lines import _Page, canonical_lines, element_words
from rewards.text.page.page_locators import (
    _below_date,
    _below_title,
    _beside_title,
    _card,
    _column_header,
    _date_line,
    _header_cell,
    _nav,
    _nav_brand,
    _price,
    _row_label,
)
from rewards.text.page.picture_locators import PICTURE_SIDE, _beside_picture, admits_picture
from rewards.text.page.region_locators import REGION, _region, admits_region, region_parts
from rewards.text.page.shape_locators import SHAPED, _shaped, admits_shape, shape_parts
from rewards.text.page.styled_locators import STYLE_PART, STYLED, _styled, admits_styled, styled_parts
from rewards.text.page.table_locators import ROW as TABLE_ROW
from rewards.text.page.table_locators import TABLE, _in_table, _table_row, admits_table, table_parts
from rewards.text.questions.question_compiler import ElementSpec, TextSpec


def resolve_locators(
    parts: list[str],
    spec: TextSpec,
    lines: list[Line],
    image: Image.Image | None,
    size: tuple[int, int],
    case_sensitive: bool = True,
    lenient: bool = False,
    max_lines: int = 4,
) -> tuple[list[str], list[str]]:
    """Split a question's VLM ``parts`` into those the page structure shows (module docstring) and
    the rest.

    Args:
        parts: the parts left to a VLM (``QuestionSpec.vlm_parts``), in words.
        spec: the question's text part, which holds on ``lines``.
        lines: the OCR lines of the judged image; ``image``: that image (None: nothing resolved).
        size: (width, height) of the image in pixels.

    Returns:
        (resolved, left): the parts shown, and the parts still only a VLM can decide.
    """
    if image is None or not parts:
        return [], list(parts)
    page = _Page.of(lines, image, size)
    own = find_elements(ElementSpec("whole"), lines, None, size) or []
    canon = canonical_lines(lines)
    found, spans, held, words = [], [], [], []
    for text in spec.texts:
        ms = [m for m in find_matches(text, lines, *size, spec.region, case_sensitive, lenient, max_lines) if m.found]
        found.append([e for e in own if any(_is_element(m, e, True, False, canon) for m in ms)])
        spans.append([m.box for m in ms])
        whole = [m.box for m in ms if _whole_lines(m.words, lines)] + [e.box for e in found[-1]]
        held.append(whole if spec.reads_whole else spans[-1])
        words.append([tuple((canon[li], wi) for li, wi in m.words) for m in ms])
    anchors = [
        (
            a.relation,
            [m.box for m in find_matches(a.text, lines, *size, None, case_sensitive, lenient, max_lines) if m.found],
        )
        for a in spec.anchors
    ]
    ctx = _Ctx(page, spec.texts, found, own, spans, anchors, held, words, whole=spec.reads_whole)
    resolved, left = [], list(parts)
    for rule in RULES:
        hits = rule.select(rule.patterns, left)
        if all(hits) and rule.check(ctx, [re.fullmatch(pat, p) for pat, p in zip(rule.patterns * len(hits), hits)]):
            resolved += hits
            left = [p for p in left if p not in hits]
    return resolved, left


def _whole_lines(words, lines: list[Line]) -> bool:
    """True when an occurrence's ``words`` ((line, word) pairs) are every word of each line they
    touch (its marks aside): the string reads as whole lines, not inside a longer one."""
    touched = {li for li, _ in words}
    return all(set(element_words(lines, li)) <= set(words) for li in touched)


_ORD = "(" + "|".join(ORDINALS) + ")"
TOPMOST = (
    r"locator '(?:located |positioned |placed )?above (?:(?:the )?[\w -]+ and )?(?:all|both|every) (?:the )?(?:other )?"
    r"(?:content|contents|elements|text|sections|numbered sections)'"
)
"""A phrase that puts the element above everything else on the page ("above all other content")."""

RULES: list[Rule] = [
    Rule((r"locator '(directly )?(?:beneath|below|under(?:neath)?) the (?:main )?title'",), _below_title),
    Rule((r"locator '(?:to the )?(right|left) of the (?:main )?title'",), _beside_title),
    Rule((rf"locator '{_ORD} x-axis (?:tick |category )?label from the left'",), _x_tick),
    Rule((rf"locator '{_ORD} y-axis (?:tick |category )?label from the top'",), _y_tick),
    Rule((r"style 'slice'", r"locator '(?:a )?slice label'"), _slice_label),
    Rule((r"how the quoted strings relate", r"style 'slice'", r"words percentage"), _slice_value),
    Rule((r"locator '(?:in|at) the cent(?:er|re) of the (?:donut|doughnut|ring)'",), _donut_centre),
    Rule((r"words change", r"locator '(?:the |a |that )?card'", r"locator 'the change note'"), _card),
    Rule((r"locator '(?:the |a |that )?card'",), _card),
    Rule((r"how the quoted strings relate", r"locator 'price'", r"""locator "[Ii]n the '([^']+)' section\""""), _price),
    Rule((r"""locator "at the end of the '([^']+)' bar\"""",), _bar_end),
    Rule((r"locator '(?:a |the )?callout(?: annotation)?'",), _callout),
    Rule((r"""locator "above the '([^']+)' bar in the '([^']+)' group\"""",), _group_bar),
    Rule((r"locator 'at the right end of the line'", r"locator '(highest|lowest)'"), _line_end),
    Rule((rf"locator '{_ORD} link'", r"locator 'of the navigation (?:menu|bar)'", r"locator 'from the left'"), _nav),
    Rule((r"locator '(?:at|on) the (?:far )?left (?:end |side )?of the navigation (?:menu|bar)'",), _nav_brand),
    Rule((rf"locator 'of the {_ORD} column'",), _column_header),
    Rule((rf"locator '{_ORD} row label'", rf"locator 'in the {_ORD} column'"), _row_label),
    Rule((r"locator 'date line'",), _date_line),
    Rule((r"locator 'venue line'", r"locator 'below the date'"), _below_date),
    Rule((r"locator '([xy])-axis (tick )?label'",), _axis_label),
    Rule((r"(?i)locator '(?:in |inside |within |of )?(?:the )?(?:panel|row|subfigure) \(([a-h])\)'",), _panel),
    Rule((r"locator '(?:the |a )?(?:first |top )?header row'", r"locator '(?:a |the )?(?:table )?cell'"), _header_cell),
    Rule((TOPMOST,), _topmost),
    Rule((NAMED_HOLDER.pattern,), _named_holder),
    Rule((HOLDER.pattern,), _one_holder, admits=holds_several),
    Rule((rf"locator '(?:(?:on|in) )?(?:the |a )?{_ORD} line'",), _nth_line),
    Rule((STYLED.pattern, STYLE_PART.pattern), _styled, select=styled_parts, admits=admits_styled),
    Rule((STYLED.pattern,), _styled, select=styled_parts, admits=admits_styled),
    Rule((r"claim '(?:starts?|begins?|starting|beginning) with'",), _edge_of_block),
    Rule((r"claim '(?:ends?|ending) with'",), _edge_of_block),
    # before a grid's row: "the second row" of a table
    Rule((TABLE.pattern, TABLE_ROW.pattern), _table_row, select=table_parts, admits=admits_table),
    Rule((TABLE.pattern,), _in_table, select=table_parts, admits=admits_table),
    Rule((ROW.pattern,), _grid_row, admits=admits_row),
    Rule((OBJECT.pattern,), _under_nth, admits=admits_object),
    Rule((PICTURE_SIDE.pattern,), _beside_picture, admits=admits_picture),
    Rule((SHAPED.pattern,), _shaped, select=shape_parts, admits=admits_shape),
    Rule((REGION.pattern,), _region, select=region_parts, admits=admits_region),
]
"""When a rule's ``select`` finds a part for each of its patterns among the parts left and its
``check`` holds on the page, those parts are resolved (``locator_base.Rule``)."""


def page_resolvable(parts: list[str] | tuple[str, ...], n_texts: int = 1) -> bool:
    """True when every one of a question's VLM ``parts`` is one a rule of ``RULES`` may resolve on
    the page (all the rule's patterns among the parts; a holder only of ``n_texts`` >= 2 strings,
    ``container_locators.holds_several``): with its text part, such a question gets "yes" from
    code when the page shows the parts, and "no" when the text part fails; when a part fails it
    stays withheld."""
    left = list(parts)
    for rule in RULES:
        hits = rule.select(rule.patterns, left)
        if all(hits) and rule.admits(hits[0], n_texts):
            left = [p for p in left if p not in hits]
    return bool(parts) and not left


def rule_reads(part: str, n_texts: int = 1) -> bool:
    """True when ``part`` is one a rule of ``RULES`` reads (one of its patterns; a holder only of
    ``n_texts`` >= 2 strings), alone or with the rule's other parts."""
    return any(re.fullmatch(pat, part) and rule.admits(part, n_texts) for rule in RULES for pat in rule.patterns)


ELEMENT_NAMING = (_column_header, _row_label, _x_tick, _y_tick, _nav, _beside_title)
"""Rules whose locator pins its element by position alone: the Nth cell, label or link of a row or
column found on the page (``rewards.judges.ocr.OCRJudge`` takes the element from them when the
compiler's role for it finds another line)."""


def locates_element(parts: list[str]) -> bool:
    """True when one of the VLM ``parts`` is the locator of an ``ELEMENT_NAMING`` rule."""
    naming = [p for rule in RULES if rule.check in ELEMENT_NAMING for p in rule.patterns]
    return any(re.fullmatch(pat, part) for pat in naming for part in parts)


GROUP = re.compile(r"""locator "in the '([^']+)' group\"""")
"""The compiler's VLM part for a quoted group ("the '2024' bar in the 'Tea' group")."""


def grouped_bar(spec: TextSpec, parts: list[str]) -> tuple[TextSpec, list[str]] | None:
    """A grouped bar's value question whose group name the compiler took for a required string
    (texts: group and value; anchor: above the series): the spec of the value alone and the part
    ``locator "above the 'S' bar in the 'G' group"`` (rule ``_group_bar``), else None."""
    m = next((GROUP.fullmatch(p) for p in parts if GROUP.fullmatch(p)), None)
    if m is None or len(spec.texts) != 2 or len(spec.anchors) != 1 or spec.anchors[0].relation != "above":
        return None
    group = m.group(1)
    if group not in spec.texts:
        return None
    value = next(t for t in spec.texts if t != group)
    part = f"""locator "above the '{spec.anchors[0].text}' bar in the '{group}' group\""""
    return replace(spec, texts=(value,), anchors=()), [part] + [p for p in parts if p != m.group(0)]
