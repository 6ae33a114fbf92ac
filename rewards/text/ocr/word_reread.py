"""One word's box read again on its own, enlarged: a second reader for m / rn in small type.

At 9-14 px an "m" and an "rn" differ by a pixel's gap, and the glyph check
(:mod:`rewards.text.ocr.lookalikes`) mostly cannot tell them. Tesseract reading the word alone,
enlarged, is one more opinion: it read the correctly drawn word back in 235 of 240 small drawings
(``benchmarks/lookalike_check.py``'s "Note: <word> today" lines, PIL and matplotlib, 10-14 px,
four faces, 2x / 3x / 4x), but it also read an "rn" drawing as the word with "m" in 74 of 240
("Terrns" -> "Terms": its recogniser expects words), so it never confirms alone: the comparison
at the ink's own size (:func:`rewards.text.ocr.lookalike_scale.confirms`) must confirm too
(``lookalikes.check_in_line``). Switching off tesseract's word lists changed no read there.
"""

from __future__ import annotations

import re

import numpy as np
from PIL import Image

from rewards.text.ocr import tesseract_engine

SCALES = (2, 3, 4)
"""The word is read at each of these enlargements and must read the same at every one."""
PSM = 8
"""Tesseract's page segmentation mode for a single word."""

_EDGE = re.compile(r"^\W+|\W+$")


def bare(text: str) -> str:
    """``text`` without the marks at its ends ("company." -> "company", "'Terms" -> "Terms")."""
    return _EDGE.sub("", text)


def read_word(image: Image.Image, box, scale: int, lang: str = "eng") -> str:
    """What tesseract reads in ``box`` (x0, y0, x1, y1 pixels of ``image``, an OCR word's ink box)
    with a margin of half the box's height (at least 2 px) around it, in grey levels, the margin
    painted the background's grey (``_alone``: a neighbour's ink read in it made "|department"),
    enlarged ``scale`` times (Lanczos), as one word (:data:`PSM`): its words joined by a space.

    Raises:
        tesseract_engine.EngineError (and the command's errors): tesseract failed.
    """
    x0, y0, x1, y1 = (int(v) for v in box)
    pad = max(2, (y1 - y0) // 2)
    left, top = max(0, x0 - pad), max(0, y0 - pad)
    crop = _alone(
        image.convert("L").crop((left, top, x1 + 1 + pad, y1 + 1 + pad)), x0 - left, y0 - top, x1 - left, y1 - top
    )
    crop = crop.resize((crop.width * scale, crop.height * scale), Image.LANCZOS)
    data = tesseract_engine.image_to_data(crop, lang, PSM)
    return " ".join(t for t in (str(t).strip() for t in data["text"]) if t)


def _alone(crop: Image.Image, x0: int, y0: int, x1: int, y1: int) -> Image.Image:
    """``crop`` (grey levels) with everything outside the box ``(x0, y0, x1, y1)`` (inclusive, in the
    crop's pixels) painted the median grey of the crop's outer ring (the background): the last
    glyph of the word before ("Legal" before "department") reached into the margin and was read as
    part of the word ("|department", "t department": the word itself was never confirmed)."""
    a = np.asarray(crop).copy()
    ring = np.concatenate([a[0], a[-1], a[1:-1, 0], a[1:-1, -1]])
    keep = np.zeros(a.shape, bool)
    keep[max(0, y0) : y1 + 1, max(0, x0) : x1 + 1] = True
    a[~keep] = int(np.median(ring))
    return Image.fromarray(a)


def reads_as(image: Image.Image, box, word: str, scales=SCALES) -> tuple[bool, list[str]]:
    """Whether ``box`` read alone (:func:`read_word`) at every factor of ``scales`` reads ``word``,
    both without the marks at their ends (:func:`bare`), case kept; and the reads. A tesseract
    failure is no confirmation."""
    reads = []
    for scale in scales:
        try:
            reads.append(read_word(image, box, scale))
        except (tesseract_engine.EngineError, RuntimeError, OSError):  # a failed read confirms nothing
            return False, reads
        if bare(reads[-1]) != bare(word):
            return False, reads
    return bool(bare(word)), reads
