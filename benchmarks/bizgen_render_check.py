"""Report: is the BizGenEval decided-both-ways share right? (issue 31) Render a sample of the quoted-text
questions code decides both ways, once correct and once with a defect, and judge them with ``judge=ocr``.

Usage::

    python benchmarks/bizgen_render_check.py bizgeneval.jsonl \
        --exclude ../shared/benchmarks/bizgeneval/bizgeneval_subset.jsonl --n 20 --seed 0 --out runs/bizgen_check

The questions are those of ``scripts/compiler_coverage.py``'s quoted-text table (dimension "text",
at least one quote) on one half (``--half``, default report: ``sha1(str(id)) % 2 == 1``) that the
question compiler decides both ways (``QuestionSpec.decidable``), or whose only VLM parts are ones
a page locator rule resolves and this renderer draws (``drawn_part``: an axis's tick label, a panel
named by its letter, above all other content, a region of the page (``region_locators``: "on the
left page", "in the upper central column"), a grid's row (``grid_locators``), a container named by
shape and colour (``shape_locators``: drawn by ``bizgen_shape_pages``), a table named by place or
subject and its row (``table_locators``: drawn by ``bizgen_table_pages``), a caption beneath the
Nth object of a row (``object_locators``: drawn by ``bizgen_object_pages``), a side of a picture
(``picture_locators``: ``bizgen_picture_pages``); ``--rules-only``: those alone; ``--regions``: only
questions with a region or grid-row part; ``--shapes``: only those with a shape or table part;
``--objects``: only those with an object or picture part; ``--grep``: only those a regular
expression finds); ``--n`` of them are
drawn with ``--seed``. Each is drawn by a small honest renderer that places the quoted strings as the spec says
(:func:`page_html`): the title as the page's largest line, a subtitle right under it, a footer in
small type at the foot, a button filled, a card bordered, bullets in a list, a quoted anchor in its
relation, a place of the image by absolute position; axis titles and legend entries in a
matplotlib bar chart (:func:`chart_image`). Pages are laid out by headless Chromium
(``documents.engines.browser``). The defect page changes one letter (or digit) of the first
required string (``documents.engines.model.typo``, ``digit_change``); when the question asks for a
whole element ("reads exactly"), a second defect page ("inside") shows each string inside a longer
line ("Note: <string> (draft)"), which is not that element; when it names a region of the page, a
third ("moved") shows the right strings in the mirror place (``region_area``), out of the region
(a grid's row, ``grid_locators``: in the next row of the grid, ``_grid``; a container named by
shape and colour, ``shape_locators``: in the other container, ``bizgen_shape_pages``; a named
table: in the other table or row, ``bizgen_table_pages``; an object's caption: under the next
object, ``bizgen_object_pages``; a picture's side: on its other side, ``bizgen_picture_pages``).

Printed: over the correct pages (truth "yes") yes / false no / withheld, over the defect pages
(truth "no") no / false yes / withheld (also per defect kind), and each false or withheld answer
with its question and reason. ``--out`` keeps the PNGs and a ``verdicts.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from benchmarks.bizgen_object_pages import object_page  # noqa: E402
from benchmarks.bizgen_picture_pages import object_part, picture_page  # noqa: E402
from benchmarks.bizgen_shape_pages import shape_page  # noqa: E402
from benchmarks.bizgen_style_pages import is_styled, looks, styled  # noqa: E402
from benchmarks.bizgen_table_pages import table_page  # noqa: E402
from documents.engines.browser import Browser  # noqa: E402
from documents.engines.model import digit_change, typo  # noqa: E402
from documents.engines.score import make_judge  # noqa: E402
from rewards.rubric import Check  # noqa: E402
from rewards.text.ocr.text_match import REGION_FRACTIONS  # noqa: E402
from rewards.text.page.container_locators import HOLDER, NAMED_HOLDER  # noqa: E402
from rewards.text.page.grid_locators import is_row, parse_row  # noqa: E402
from rewards.text.page.locators import TOPMOST, page_resolvable  # noqa: E402
from rewards.text.page.region_locators import REGION, is_region, parse_region  # noqa: E402
from rewards.text.page.shape_locators import is_shape  # noqa: E402
from rewards.text.page.table_locators import ROW as TABLE_ROW  # noqa: E402
from rewards.text.page.table_locators import is_table  # noqa: E402
from rewards.text.questions.question_compiler import QuestionSpec, TextSpec, compile_question  # noqa: E402
from rewards.text.questions.question_quotes import find_quotes  # noqa: E402

W, H = 1000, 700
"""Page size in pixels (CSS pixels at device scale 1)."""

PAGE_TITLE = "Annual Overview"
"""The page's title when the question's element is not the title itself."""

CSS_COLOURS = {
    **{c: c for c in ("white", "black", "gray", "red", "orange", "green", "blue", "purple", "pink", "brown")},
    "yellow": "#b59a00",
}
"""The CSS colour of each ``question_compiler.COLOURS`` name the spec may ask of its strings."""

FILLER = "Figures are shown in thousands and are preliminary."
"""One neutral line of body text, away from the strings asked about."""


def sample(
    path: Path,
    exclude: Path | None,
    half: str,
    n: int,
    seed: int,
    rules_only: bool = False,
    regions: bool = False,
    shapes: bool = False,
    objects: bool = False,
    grep: str | None = None,
    looked: bool = False,
) -> list[tuple[str, str, QuestionSpec]]:
    """``n`` (row id, question, spec) drawn with ``seed`` from the quoted-text questions of ``half``
    that code decides both ways (module docstring; ``rules_only``: through page rules only;
    ``regions``: only those with a region part, ``region_locators.is_region``; ``shapes``: only
    those with a container named by shape, ``shape_locators.is_shape``; ``objects``: only those
    with an object named by its ordinal, ``object_locators``; ``grep``: only questions this regular
    expression finds, ignoring case)."""
    drop = {json.loads(x)["id"] for x in exclude.read_text().splitlines() if x.strip()} if exclude else set()
    pool = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else None
        if row is None or row.get("id") in drop or row.get("dimension") != "text":
            continue
        key = int(hashlib.sha1(str(row.get("id")).encode()).hexdigest(), 16) % 2
        if ("dev", "report")[key] != half:
            continue
        for q in row.get("questions", []):
            spec = compile_question(q) if find_quotes(q) else None
            if spec is None or spec.text is None:
                continue
            ruled = page_resolvable(spec.vlm_parts, len(spec.text.texts)) and all(drawn_part(v) for v in spec.vlm_parts)
            if regions and not any(is_region(v) or is_row(v) for v in spec.vlm_parts):
                continue
            if shapes and not any(is_shape(v) or is_table(v) for v in spec.vlm_parts):
                continue
            if objects and not any(object_part(v) for v in spec.vlm_parts):
                continue
            if (grep and not re.search(grep, q, re.IGNORECASE)) or (looked and looks(spec.vlm_parts) is None):
                continue
            if ruled or (spec.decidable and not rules_only):
                pool.append((str(row["id"]), q, spec))
    return random.Random(seed).sample(pool, min(n, len(pool)))


AXIS_PART = re.compile(r"locator '([xy])-axis (?:tick )?label'")
PANEL_PART = re.compile(r"(?i)locator '(?:in |inside |within |of )?(?:the )?(?:panel|row|subfigure) \(([a-h])\)'")
TOPMOST_PART = re.compile(TOPMOST)
LINE_PART = re.compile(r"locator '(?:(?:on|in) )?(?:the |a )?(first|second|third|fourth|fifth|last) line'")
EDGE_PART = re.compile(r"claim '(?:starts?|begins?|starting|beginning|ends?|ending) with'")
HEADER_PARTS = (
    re.compile(r"locator '(?:the |a )?(?:first |top )?header row'"),
    re.compile(r"locator '(?:a |the )?(?:table )?cell'"),
)


def drawn_part(part: str) -> bool:
    """True for a page-rule part this renderer draws: an axis's tick label, a panel named by its
    letter, a named box, one box of several strings, the Nth line of a box, a block that starts or
    ends with the string, a cell of a table's header row, the element above all other content (the
    engine-page rules, slices and bars, are not drawn here: their questions are left out of the sample)."""
    kinds = (AXIS_PART, PANEL_PART, TOPMOST_PART, NAMED_HOLDER, HOLDER, LINE_PART, EDGE_PART, *HEADER_PARTS)
    named = is_shape(part) or is_table(part) or TABLE_ROW.fullmatch(part) is not None
    named = named or object_part(part) or is_styled(part)  # bizgen_object_pages, _picture_pages, _style_pages
    return any(p.fullmatch(part) for p in kinds) or is_region(part) or is_row(part) or named


def _grid(parts: tuple[str, ...], block: str, texts: tuple[str, ...], moved: bool) -> str:
    """Three rows of three bordered boxes of one size, two filler lines in each, under the page
    title; ``block`` in the row the row part names (``grid_locators.parse_row``; ``moved``: the next
    row instead), in the box and at the line its region and the page's region parts name (left,
    centre or right box; above or below the filler). Every box is as tall as the block needs."""
    row_part = next(p for p in parts if is_row(p))
    ordinal, bounds = parse_row(row_part) or (1, None)
    x = region_area(tuple(p for p in parts if is_region(p)), (0.4, 0.4, 0.6, 0.6))
    x = (bounds or {}).get("x", (x[0], x[2]) if x else (0.4, 0.6))
    row = (ordinal - 1 if ordinal > 0 else 3 + ordinal) % 3
    row = (row + 1) % 3 if moved else row
    col = 0 if x[1] <= 0.5 else 2 if x[0] >= 0.5 else 1
    low = (bounds or {}).get("y", (0.0, 0.5))[0] >= 0.5
    n_lines = 3 + len(texts) + sum(len(t) * 9 // 250 for t in texts) + block.count("font-weight:700")
    box = f"border:2px solid #333;height:{16 + 18 * n_lines}px;padding:8px;box-sizing:border-box"
    cells = []
    for r in range(3):
        for c in range(3):
            filler = _line(f"Rack {r + 1}{c + 1}") + _line(f"Bins {3 * r + c}")
            inner = (filler + block if low else block + filler) if (r, c) == (row, col) else filler
            cells.append(f'<div style="{box}">{inner}</div>')
    small = "<style>.grid div{font-size:14px!important;line-height:18px}</style>"  # the block in type a box holds
    grid = "position:absolute;left:40px;top:100px;display:grid;grid-template-columns:repeat(3,290px);gap:20px 25px"
    title = _line(PAGE_TITLE, "position:absolute;left:40px;top:24px;font-size:40px;font-weight:700")
    return f'{small}{title}<div class="grid" style="{grid}">{"".join(cells)}</div>'


def region_area(parts: tuple[str, ...], area: tuple[float, float, float, float], moved: bool = False):
    """``area`` (x0, y0, x1, y1 fractions) narrowed to the region the question's region parts name
    (``region_locators.parse_region``): on each bounded axis, centred on the middle of the region's
    centre bounds, as wide as its box bounds allow; ``moved``: the mirror place on that axis (a
    "left" string drawn on the right, a "central" one near the low edge), where a person would say
    the string is not in the region. None when the question has no region part."""
    bounds: dict = {}
    for part in parts:
        for axis, b in (parse_region(m.group(1)) or {}).items() if (m := REGION.fullmatch(part)) else ():
            old = bounds.get(axis, (0.0, 1.0, 0.0, 1.0))
            bounds[axis] = (max(old[0], b[0]), min(old[1], b[1]), max(old[2], b[2]), min(old[3], b[3]))
    if not bounds:
        return None
    side = bounds.pop("page", None)  # a page of a spread: x is a share of that page
    if side is not None and moved:
        side = tuple(1.0 - v for v in side)  # the right strings on the other page
    frame = (0.0, 1.0) if side is None else (0.0, SEAM) if side[0] == 0.0 else (SEAM, 1.0)
    out = list(area)
    out[0], out[2] = frame[0] + max(0.0, out[0]) * (frame[1] - frame[0]), frame[0] + out[2] * (frame[1] - frame[0])
    for axis, (lo, hi, blo, bhi) in bounds.items():
        k = 0 if axis == "x" else 1
        c = (lo + hi) / 2
        half = min(c - blo, bhi - c, 0.25 if k else 0.5)
        if moved and side is None:
            c = 1 - c if abs(c - 0.5) > 0.05 else 0.12
            half = min(half, c, 1 - c)
        lo_k, hi_k = frame if k == 0 else (0.0, 1.0)
        out[k], out[k + 2] = lo_k + (c - half) * (hi_k - lo_k), lo_k + (c + half) * (hi_k - lo_k)
    return tuple(out)


SEAM = 0.42
"""Where a two-page spread's pages meet, as a share of the width (the left page the narrower)."""


def _spread(parts: tuple[str, ...]) -> str:
    """The right page of a two-page spread (a grey panel from ``SEAM`` to the right edge) when a
    region part names a page of a spread, else nothing."""
    if not any((b := parse_region(m.group(1))) and "page" in b for p in parts if (m := REGION.fullmatch(p))):
        return ""
    place = f"position:absolute;left:{SEAM * W:.0f}px;top:0;width:{(1 - SEAM) * W:.0f}px;height:{H}px"
    return f'<div style="{place};background:#e2e2e2"></div>'


def defect(texts: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """``texts`` with one letter of the first string changed or dropped (a digit when it has fewer
    than three letters)."""
    first = typo(texts[0], rng) or digit_change(texts[0], rng) or texts[0] + "x"
    return (first, *texts[1:])


def _line(text: str, css: str = "") -> str:
    """One element of text; a long string wraps within its block (smaller type past 60 characters)."""
    size = "font-size:16px;" if len(text) > 60 else ""
    return f'<div style="{size}{css}">{html.escape(text)}</div>'


def _strings(spec: TextSpec, texts: tuple[str, ...]) -> str:
    """The required strings as the spec's element and arrangement show them (module docstring)."""
    el = spec.element
    role = el.role if el is not None else "whole"
    style = {"bold": "font-weight:700;", "regular": "font-weight:400;"}.get(spec.weight or "", "")
    style += f"color:{CSS_COLOURS[spec.colour]};" if spec.colour else ""
    if spec.arrangement in ("left_to_right", "row", "reading_order"):
        inner = "".join(_line(t, style + "display:inline-block;margin-right:40px") for t in texts)
    else:
        inner = "".join(_line(t, style) for t in texts)
    if role == "title":
        return f'<div style="font-size:40px;font-weight:700">{inner}</div>'
    if role == "subtitle":
        return (
            _line(PAGE_TITLE, "font-size:40px;font-weight:700")
            + f'<div style="font-size:22px;color:#444">{inner}</div>'
        )
    if role == "heading":
        return f'<div style="font-size:26px;font-weight:700">{inner}</div>' + _line(FILLER, "font-size:16px")
    if role == "footer":
        return f'<div style="font-size:13px;color:#555">{inner}</div>'
    if role == "button":
        fill = "display:inline-block;background:#1f6f50;color:#fff;padding:12px 28px;border-radius:8px;font-size:20px"
        return f'<div style="{fill}">{inner}</div>'
    if role in ("bullet", "list_item", "card"):
        return _ordered(role, inner, el.ordinal or 1)
    return f'<div style="font-size:22px">{inner}</div>'


def _ordered(role: str, inner: str, ordinal: int) -> str:
    """Three bullets, items or cards (as many as ``ordinal`` needs) with the strings at position
    ``ordinal`` (negative: from the end)."""
    others = ["Plan reviewed", "Budget 12%", "Team of 8"] + [f"Item {i}" for i in range(4, ordinal + 1)]
    k = ordinal - 1 if ordinal > 0 else len(others) + ordinal
    cells = [html.escape(o) for o in others]
    if role == "card":
        box = "display:inline-block;vertical-align:top;border:2px solid #333;border-radius:6px;padding:18px;margin:8px"
        box += ";font-size:20px"
        cells[k] = inner
        return "".join(f'<div style="{box}">{c}</div>' for c in cells)
    mark = "&#8226; " if role == "bullet" else ""
    cells[k] = inner
    return "".join(f'<div style="font-size:20px;margin:6px 0">{mark}{c}</div>' for c in cells)


def _anchored(spec: TextSpec, block: str) -> str:
    """``block`` with the spec's quoted anchors (one level) placed in their relations."""
    for a in spec.anchors:
        anchor = _line(a.text, "font-size:22px;font-weight:700")
        row = "display:flex;gap:60px;align-items:center"
        if a.relation in ("below", "directly_below", "same_column", "context"):
            block = anchor + block
        elif a.relation in ("above", "directly_above"):
            block = block + anchor
        elif a.relation in ("right_of", "same_row"):
            block = f'<div style="{row}">{anchor}<div>{block}</div></div>'
        elif a.relation == "left_of":
            block = f'<div style="{row}"><div>{block}</div>{anchor}</div>'
        elif a.relation == "between":
            other = _line(a.other or "", "font-size:22px;font-weight:700")
            block = f'<div style="{row}">{anchor}<div>{block}</div>{other}</div>'
    for r in spec.role_anchors:
        if r.role == "title" and (spec.element is None or spec.element.role not in ("title", "subtitle")):
            block = _line(PAGE_TITLE, "font-size:40px;font-weight:700;margin-bottom:6px") + block
        elif r.role == "footer":
            block = block + _line("© 2025 Northwind Ltd.", "font-size:13px;color:#555;margin-top:6px")
    return block


def _area(region: str | None, role: str) -> tuple[float, float, float, float]:
    """The part of the page the block is laid out in, as fractions (x0, y0, x1, y1): the region's box,
    else where the role sits (the title at the top, a footer at the foot), else the body."""
    if region is not None:  # centred on the region's centre, as wide as the page allows (a band's text is long)
        x0, y0, x1, y1 = REGION_FRACTIONS[region]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        hw, hh = min(cx, 1 - cx), min(cy, 1 - cy, 0.25)
        if role == "footer":  # a footnote sits at the foot, on the region's side
            return cx - hw, 0.88, cx + hw, 1.0
        return cx - hw, cy - hh, cx + hw, cy + hh
    return {"title": (0, 0, 1, 0.2), "subtitle": (0, 0, 1, 0.35), "footer": (0, 0.85, 1, 1)}.get(
        role, (0, 0.15, 1, 0.75)
    )


def _inside(point: tuple[float, float], area: tuple[float, float, float, float]) -> bool:
    return area[0] <= point[0] <= area[2] and area[1] <= point[1] <= area[3]


def _panels(letter: str, block: str) -> str:
    """Bordered panels side by side, each opened by its label ("(a) Overview"), ``block`` in panel ``letter``."""
    letters = "abcdefgh"[: max(2, "abcdefgh".index(letter) + 1)]
    box = "border:2px solid #333;padding:14px;flex:1;min-height:260px;min-width:260px"
    cells = [
        f'<div style="{box}"><div style="font-size:18px;font-weight:700;margin-bottom:30px">({k}) Stage {k.upper()}'
        f"</div>{block if k == letter else _line('Input features', 'font-size:18px')}</div>"
        for k in letters
    ]
    return f'<div style="display:flex;flex-wrap:wrap;gap:24px">{"".join(cells)}</div>'


def _table(texts: tuple[str, ...]) -> str:
    """A table of three columns and three body rows whose header row holds the first string."""
    head = [html.escape(texts[0]), "Region", "Share"]
    body = [["North", "12", "0.4"], ["South", "18", "0.6"], ["East", "9", "0.3"]]
    cell = "padding:8px 28px;text-align:left;font-size:18px"

    def row(tag: str, cells: list[str]) -> str:
        return "<tr>" + "".join(f"<{tag} style='{cell}'>{c}</{tag}>" for c in cells) + "</tr>"

    rows = [row("th", head)] + [row("td", r) for r in body]
    return f"<table style='border-collapse:collapse'>{''.join(rows)}</table>"


def _boxes(name: str | None, block: str, second: bool = True) -> str:
    """Two bordered boxes side by side (one when not ``second``: the question places it): the first
    holds ``name`` (when given) over ``block``, the second another name over a filler line."""
    box = "border:2px solid #333;border-radius:8px;padding:16px;flex:1;min-width:300px"
    head = "font-size:20px;font-weight:700;margin-bottom:16px"
    first = (_line(name, head) if name else "") + block
    other = (_line("Other item", head) if name else "") + _line("Input features", "font-size:18px")
    cells = "".join(f'<div style="{box}">{c}</div>' for c in (first, other)[: 1 + second])
    return f'<div style="display:flex;flex-wrap:wrap;gap:40px">{cells}</div>'


def page_html(
    spec: TextSpec, texts: tuple[str, ...], parts: tuple[str, ...] = (), moved: bool = False, restyled: bool = False
) -> str:
    """The page of one question (module docstring): the strings' block centred in its area (wrapping
    inside it), the page title and a filler line where the block is not; a panel named by its letter
    draws the panels, with the block in that one; "above all other content" leaves out the page title;
    a region part ("in the left column") narrows the area to that region (``moved``: its mirror, ``region_area``)."""
    role = spec.element.role if spec.element is not None else "whole"
    edge = next((p for p in parts if EDGE_PART.fullmatch(p)), None)
    if edge is not None:  # the string opens (or closes) a longer block
        texts = ("As reported, " + texts[0],) if "end" in edge else (texts[0] + " as reported for the year",)
    boxed = any(PANEL_PART.fullmatch(p) for p in parts)  # "the bold label": bizgen_style_pages
    spec, wrap, unwrap = styled(spec, parts, restyled, boxed)
    block = wrap + _anchored(spec, _strings(spec, texts)) + unwrap
    nth = next((m.group(1) for p in parts if (m := LINE_PART.fullmatch(p))), None)
    if nth is not None:  # the Nth line of a bordered box (the others filler lines)
        fill = ["Team overview", "Updated weekly", "Owner: Finance", "Status: open"]
        k = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4}.get(nth, 2)
        block = "".join(_line(t, "font-size:20px") for t in fill[:k]) + block
        block = f'<div style="border:2px solid #333;border-radius:8px;padding:16px;min-width:300px">{block}</div>'
    panel = next((m.group(1).lower() for p in parts if (m := PANEL_PART.fullmatch(p))), None)
    topmost = any(TOPMOST_PART.fullmatch(p) for p in parts)
    named = next((m.group("name").strip() for p in parts if (m := NAMED_HOLDER.fullmatch(p))), None)
    x0, y0 = _area(spec.region, role)[:2] if spec.region else (0.06, 0.21)
    tabled = table_page(parts, texts, moved, (x0 * W + 20, max(90, y0 * H)))
    place = region_area(parts, _area(spec.region, role)) or (REGION_FRACTIONS[spec.region] if spec.region else None)
    row = object_page(parts, texts, moved, (W, H), place) or picture_page(parts, block, moved, (W, H), place)
    if row is not None:  # a row of objects with captions, under the page's title
        return _page(_line(PAGE_TITLE, "position:absolute;left:40px;top:24px;font-size:40px;font-weight:700") + row)
    if tabled is not None:  # the page's tables, under its title
        return _page(_line(PAGE_TITLE, "position:absolute;left:40px;top:24px;font-size:40px;font-weight:700") + tabled)
    if any(is_row(p) for p in parts):  # the whole page is the grid
        return _page(_grid(parts, block, texts, moved))
    if any(HEADER_PARTS[0].fullmatch(p) for p in parts):
        block = _table(texts)
    elif panel is not None:
        block, role = _panels(panel, block), "panels"
    elif named is not None or any(HOLDER.fullmatch(p) for p in parts):
        block, role = _boxes(named, block, spec.region is None), "panels"
    shaped = any(is_shape(p) for p in parts)
    x0, y0, x1, y1 = region_area(parts, _area(spec.region, role), moved and not shaped) or _area(spec.region, role)
    box = f"left:{x0 * W:.0f}px;top:{y0 * H:.0f}px;width:{(x1 - x0) * W:.0f}px;height:{(y1 - y0) * H:.0f}px"
    centred = "text-align:center;" if (x0 + x1) / 2 == 0.5 else ""  # a centred place: each line centred
    if shaped:  # the strings in the container, the anchors around it
        area, own = (x0, y0, x1, y1), _strings(spec, texts)
        body = shape_page(parts, own, texts, area, (W, H), moved, lambda b: _anchored(spec, b))
    else:
        body = None
    parts = [
        _spread(parts),
        body
        or f'<div style="position:absolute;{box};display:flex;align-items:center;justify-content:center">'
        f'<div style="{centred}max-width:{(x1 - x0) * W - 40:.0f}px">{block}</div></div>',
    ]
    has_title = role in ("title", "subtitle") or any(r.role == "title" for r in spec.role_anchors) or topmost
    if not has_title and not _inside((0.2, 0.06), (x0, y0, x1, y1)):
        parts.append(_line(PAGE_TITLE, "position:absolute;left:40px;top:24px;font-size:40px;font-weight:700"))
    spots = [(0.05, 0.85), (0.55, 0.85), (0.55, 0.1), (0.05, 0.5)]
    if role == "footer":  # nothing below the footer
        spots = spots[2:]
    fx, fy = next((p for p in spots if not _inside(p, (x0, y0, x1, y1))), spots[0])
    parts.append(_line(FILLER, f"position:absolute;left:{fx * W:.0f}px;top:{fy * H:.0f}px;font-size:16px"))
    return _page("".join(parts))


def _page(body: str) -> str:
    """The HTML page of ``body`` (W x H CSS pixels, white, DejaVu Sans)."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>body{margin:0;width:1000px;height:700px;"
        "position:relative;background:#fff;color:#111;font-family:'DejaVu Sans',sans-serif}</style></head>"
        f"<body>{body}</body></html>"
    )


def tick_chart(axis: str, text: str, rng: random.Random, asked: str | None = None) -> Image.Image:
    """A matplotlib bar chart with ``text`` as one of the tick labels of ``axis`` (x: a category,
    y: one of four evenly spaced ticks around the ``asked`` value, which a defect page replaces by
    ``text``), at a position drawn from ``rng``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(W / 100, H / 100), dpi=100)
    labels = ["North", "South", "East", "West"]
    k = rng.randrange(4)
    asked = asked or text
    number = re.fullmatch(r"\d+(?:\.(\d+))?", asked)
    if axis == "y" and number is not None:  # a value tick among its neighbours, in its format ("0.60 0.70 ...")
        places = len(number.group(1) or "")
        step = 10.0 ** -(places - 1) if places > 1 else 1.0
        ticks = [float(asked) + (i - k) * step for i in range(4)]
        ax.bar(labels, [ticks[0] + step * f for f in (1.2, 2.5, 1.8, 0.6)], color="#3a6ea5")
        ax.set_ylim(ticks[0] - step / 2, ticks[-1] + step / 2)
        ax.set_yticks(ticks, [text if i == k else f"{t:.{places}f}" for i, t in enumerate(ticks)])
    elif axis == "y":  # a category of a horizontal bar chart
        labels[k] = text
        ax.barh(range(4), [3, 5, 4, 2], color="#3a6ea5", tick_label=labels)
    else:
        labels[k] = text
        ax.bar(range(4), [3, 5, 4, 2], color="#3a6ea5", tick_label=labels)
    ax.tick_params(labelsize=14)
    ax.set_title(PAGE_TITLE, fontsize=20)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def chart_image(spec: TextSpec, texts: tuple[str, ...]) -> Image.Image:
    """A matplotlib bar chart whose axis title (``element.axis``) or legend entries are the strings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(W / 100, H / 100), dpi=100)
    xs = ["North", "South", "East"]
    el = spec.element
    if el.role == "legend_entry":
        labels = [*texts, "Other series"][: max(2, len(texts))]
        for k, lab in enumerate(labels):
            ax.bar([i + 0.35 * k for i in range(3)], [3 + k, 5 - k, 4], width=0.35, label=lab)
        ax.legend(fontsize=14)
    else:
        ax.bar(xs, [3, 5, 4], color="#3a6ea5")
        (ax.set_ylabel if el.axis == "y" else ax.set_xlabel)(" ".join(texts), fontsize=16)
    ax.set_title(PAGE_TITLE, fontsize=20)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return Image.open(buf).convert("RGB")


def render(
    spec: QuestionSpec, texts: tuple[str, ...], browser: Browser, rng: random.Random, moved: str = ""
) -> Image.Image:
    """The page of one question with ``texts`` as its required strings (``moved``: the variant, "moved":
    out of its region, "restyled": not as its look names it)."""
    axis = next((m.group(1) for p in spec.vlm_parts if (m := AXIS_PART.fullmatch(p))), None)
    if axis is not None:
        return tick_chart(axis, texts[0], rng, spec.text.texts[0])
    el = spec.text.element
    if el is not None and el.role in ("axis_title", "legend_entry"):
        return chart_image(spec.text, texts)
    return browser.render(page_html(spec.text, texts, spec.vlm_parts, moved == "moved", moved == "restyled"), W, H)[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data", type=Path, help="the official BizGenEval JSONL")
    p.add_argument("--exclude", type=Path, default=None, help="drop rows whose id is in this JSONL")
    p.add_argument("--half", choices=("dev", "report"), default="report")
    p.add_argument("--n", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="keep the pages (PNG) and verdicts.json here")
    p.add_argument(
        "--whole-reads",
        action="store_true",
        help="read every page whole (the OCR judge's incremental=False): the pages are unrelated documents",
    )
    p.add_argument("--rules-only", action="store_true", help="only questions decided through page locator rules")
    p.add_argument(
        "--regions", action="store_true", help="only questions with a region or grid-row part ('in the left column')"
    )
    p.add_argument(
        "--shapes",
        action="store_true",
        help="only questions with a container named by shape and colour, or a named table",
    )
    p.add_argument(
        "--objects",
        action="store_true",
        help="only questions with an object named by its ordinal or a picture by its side",
    )
    p.add_argument("--grep", default=None, metavar="REGEX", help="only questions this expression finds (any case)")
    p.add_argument("--styled", action="store_true", help="only questions naming an element by its look ('bold label')")
    args = p.parse_args(argv)
    filters = (args.rules_only, args.regions, args.shapes, args.objects, args.grep, args.styled)
    picked = sample(args.data, args.exclude, args.half, args.n, args.seed, *filters)
    rng = random.Random(args.seed)
    images, checks, meta = [], [], []
    with Browser(W, H) as browser:
        for k, (rid, q, spec) in enumerate(picked):
            variants = [("correct", spec.text.texts), ("defect", defect(spec.text.texts, rng))]
            whole = spec.text.element is not None and spec.text.element.whole
            if whole or (spec.vlm_parts and spec.text.reads_whole):  # "reads exactly": inside a longer line is no
                variants.append(("inside", tuple(f"Note: {t} (draft)" for t in spec.text.texts)))
            if any(is_region(v) or is_row(v) or is_shape(v) or is_table(v) or object_part(v) for v in spec.vlm_parts):
                variants.append(("moved", spec.text.texts))
            if looks(spec.vlm_parts) is not None:  # "the bold label": the strings, not bold
                variants.append(("restyled", spec.text.texts))
            for variant, texts in variants:
                images.append(render(spec, texts, browser, rng, variant))
                checks.append([Check(f"q{k}", q, spec=spec)])
                meta.append({"row": rid, "question": q, "variant": variant, "texts": list(texts)})
    judge = make_judge("ocr")
    if args.whole_reads:
        for j in judge.judges:
            j.incremental = False
    verdicts = judge.judge(images, [""] * len(images), checks)
    counts = {"yes": 0, "false_no": 0, "true_withheld": 0, "no": 0, "false_yes": 0, "false_withheld": 0}
    by_kind = {k: {"yes": 0, "no": 0, "withheld": 0} for k in ("correct", "defect", "inside", "moved", "restyled")}
    for m, (v,) in zip(meta, verdicts):
        m |= {"answer": v.answer, "reason": v.reason}
        truth = "yes" if m["variant"] == "correct" else "no"
        by_kind[m["variant"]][v.answer] += 1
        key = {("yes", "yes"): "yes", ("yes", "no"): "false_no", ("yes", "withheld"): "true_withheld"}
        key |= {("no", "no"): "no", ("no", "yes"): "false_yes", ("no", "withheld"): "false_withheld"}
        counts[key[(truth, v.answer)]] += 1
        if v.answer not in (truth, "withheld") or v.answer == "withheld":
            print(f"{m['variant']:<8} {v.answer:<9} {m['question'][:110]}\n{'':18}{v.reason[:160]}")
    n = len(picked)
    print(f"\n{args.half} half, {n} decided quoted-text questions (seed {args.seed}), judge=ocr:")
    print(f"  correct pages: yes {counts['yes']} / false no {counts['false_no']} / withheld {counts['true_withheld']}")
    print(f"  defect pages:  no {counts['no']} / false yes {counts['false_yes']} / withheld {counts['false_withheld']}")
    for kind in ("defect", "inside", "moved", "restyled"):
        c = by_kind[kind]
        print(f"    {kind:<7} no {c['no']} / false yes {c['yes']} / withheld {c['withheld']}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for k, (img, m) in enumerate(zip(images, meta)):
            img.save(args.out / f"{k:02d}-{m['variant']}.png")
        (args.out / "verdicts.json").write_text(json.dumps({"counts": counts, "pages": meta}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
