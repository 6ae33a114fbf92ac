"""Laying out rows of text: greedy wrapping, and the rows of a rewritten block on its pitch."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from refine.editors.text.type_match import TypeStyle, render_coverage

SHRINK = (1.0, 0.97, 0.94, 0.91)
"""Size factors a rewrite, or a label in an empty badge, may use to fit its room (the original's
size first)."""
WIDEN = (1.0, 1.05, 1.1, 1.2)
"""Width factors a rewrite may use to fit its room."""
Placed = tuple[np.ndarray, tuple[int, int], tuple[int, int, int, int]]
"""One row laid out: (coverage float32 (h, w) in [0, 1], top-left origin (x, y), ink box), pixels."""


@dataclass
class Block:
    """What is rewritten: the matched words of each OCR line, their boxes and their type.

    Attributes:
        boxes: (x0, y0, x1, y1) pixels of the matched words of each line, top to bottom.
        style: the type of the longest line (``type_match.match_type``).
        bg: RGB background colour.
        align: "left" | "centre" | "right".
        left: ink left edge of the block (left-aligned), its centre x, or its right edge, pixels.
        width: ink width of the widest line, pixels.
        pitch: baseline-to-baseline distance, pixels.
        first_baseline: y of the first line's baseline, pixels.
        indent: extra left offset of the first line (words before the match on it), pixels.
        texts: the OCR text of each matched line (what its pixels show).
    """

    boxes: list[tuple[int, int, int, int]]
    style: TypeStyle
    bg: tuple[int, int, int]
    align: str
    left: float
    width: float
    pitch: float
    first_baseline: float
    indent: float
    texts: tuple[str, ...] = ()


def wrap(text: str, fnt, width: float, indent: float) -> list[str]:
    """Greedy word wrap of ``text`` to ``width`` pixels in font ``fnt``; the first line is
    ``indent`` px shorter."""
    rows, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}".strip()
        limit = width - (indent if not rows else 0.0)
        if cur and fnt.getlength(trial) > limit:
            rows.append(cur)
            cur = word
        else:
            cur = trial
    return rows + ([cur] if cur else [])


def set_rows(rows: list[str], fnt, blk: Block, shrink: float) -> list[Placed]:
    """Each of ``rows`` laid out in ``blk`` in font ``fnt`` (the block's size times ``shrink``):
    aligned as the block, the first on its baseline, the others at its pitch times ``shrink``."""
    out = []
    for i, row in enumerate(rows):
        alpha, (bx0, by0, bx1, by1) = render_coverage(row, fnt)
        base_y = blk.first_baseline + i * blk.pitch * (shrink if i else 1.0)
        if blk.align == "left":
            pen_x = blk.left + (blk.indent if i == 0 else 0.0) - bx0
        elif blk.align == "centre":
            pen_x = blk.left - (bx0 + bx1) / 2
        else:
            pen_x = blk.left - bx1
        ox, oy = int(round(pen_x + bx0)), int(round(base_y + by0))
        out.append((alpha, (ox, oy), (ox, oy, ox + alpha.shape[1], oy + alpha.shape[0])))
    return out
