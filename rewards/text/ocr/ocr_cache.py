"""Remembered page reads: one OCR read per image, and re-reads of only what an edit changed.

In a refine iteration the judge reads the image, the text editor reads the same image again,
the editor changes a few words and the judge reads the edited image. :class:`ReadMemo` keeps the
last few reads (pixels, settings, :class:`~rewards.text.ocr.ocr_read.PageRead`) of one process:

- the same pixels with the same settings are the remembered read (the judge's read is the
  editor's read);
- pixels that differ from a remembered page of the same size and settings only in a few rows
  are read incrementally (``rewards.text.ocr.reread.reread_page``: the changed rows grown to
  whole text lines, plus the fills and rotated columns they touch, are read again, every other
  line is kept); the remembered page that differs in the fewest rows is the base;
- anything else (a diffusers editor repaints every pixel; another page) is read whole.

The difference is taken from the pixels, never from what an editor says it changed. Verdicts of
incremental and whole reads are compared in ``tests/rewards/text/ocr/test_ocr_incremental.py`` and
``benchmarks/refine_speed.py``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

import numpy as np
from PIL import Image

from rewards.common.images import pixels_digest
from rewards.text.ocr.fills import forget_fills
from rewards.text.ocr.ocr_read import PageRead, ReadSettings, read_page
from rewards.text.ocr.reread import reread_page
from rewards.text.ocr.text_match import Line

MAX_READS = 8
"""Reads one :class:`ReadMemo` keeps (least recently used dropped first): about 3 MB each for a
1280x720 page; a refine item needs two (the image judged and the one edited from it)."""


class ReadMemo:
    """A bounded store of page reads, shared by everything in a process that reads pages.

    Args:
        max_reads: how many reads to keep (>= 1).

    Attributes:
        counts: reads served so far by kind: "same" (remembered), "incremental", "whole".
        seconds: seconds spent per kind (reading and comparing pixels).
        incremental: False: no page is read incrementally, whatever a caller asks
            (:func:`whole_reads_only`).
    """

    def __init__(self, max_reads: int = MAX_READS):
        if max_reads < 1:
            raise ValueError(f"ReadMemo: max_reads must be >= 1, got {max_reads}")
        self.max_reads = max_reads
        self._reads: OrderedDict[tuple[bytes, ReadSettings], tuple[np.ndarray, PageRead]] = OrderedDict()
        self._lock = threading.Lock()
        self.counts = {"same": 0, "incremental": 0, "whole": 0}
        self.seconds = {"same": 0.0, "incremental": 0.0, "whole": 0.0}
        self.incremental = True

    def clear(self) -> None:
        """Forget every read and zero the counts."""
        with self._lock:
            self._reads.clear()
            self.counts = dict.fromkeys(self.counts, 0)
            self.seconds = dict.fromkeys(self.seconds, 0.0)

    def lines(self, image: Image.Image, settings: ReadSettings, incremental: bool = True) -> list[Line]:
        """The OCR lines of ``image`` read with ``settings`` (``rewards.text.ocr.ocr_read.ocr_lines``).

        Args:
            image: any PIL image; converted to RGB.
            settings: the read's settings.
            incremental: read only the changed rows of a remembered page when the change is
                local; False: such a page is read whole (the same pixels are still one read).

        Raises:
            rewards.text.ocr.tesseract_lines.OCRError: tesseract failed (nothing is remembered).
        """
        start = time.perf_counter()
        rgb = image.convert("RGB")
        arr = np.asarray(rgb)
        key = (pixels_digest(arr), settings)
        with self._lock:
            found = self._reads.get(key)
            if found is not None:
                self._reads.move_to_end(key)
                bases = []
            else:
                bases = [(a, r) for (_, s), (a, r) in self._reads.items() if s == settings and a.shape == arr.shape]
        if found is not None:
            return self._done("same", start, list(found[1].lines))
        read, kind = None, "whole"
        if incremental and self.incremental and bases:
            changed, base = _nearest(arr, bases)
            read = reread_page(rgb, base, changed, settings)
            kind = "incremental" if read is not None else "whole"
        if read is None:
            read = read_page(rgb, settings)
        with self._lock:
            self._reads[key] = (arr, read)
            self._reads.move_to_end(key)
            while len(self._reads) > self.max_reads:
                self._reads.popitem(last=False)
        return self._done(kind, start, list(read.lines))

    def _done(self, kind: str, start: float, lines: list[Line]) -> list[Line]:
        with self._lock:
            self.counts[kind] += 1
            self.seconds[kind] += time.perf_counter() - start
        return lines


def _nearest(arr: np.ndarray, bases: list[tuple[np.ndarray, PageRead]]) -> tuple[np.ndarray, PageRead]:
    """(changed pixels, read) of the remembered page whose pixels differ from ``arr`` in the fewest rows."""
    best = None
    for a, r in bases:
        changed = (a != arr).any(axis=2)
        rows = int(changed.any(axis=1).sum())
        if best is None or rows < best[0]:
            best = (rows, changed, r)
    return best[1], best[2]


PAGE_READS = ReadMemo()
"""The process's shared memo of whole pages: the OCR judge and the text editor read pages through it."""

PART_READS = ReadMemo(max_reads=64)
"""The process's memo of small reads (a strip the judge reads again before a "no", the text
editor's mosaic of regions to look at harder): the same crop in the next iteration is not read
again. Apart from :data:`PAGE_READS`, so that dozens of strips never push a page out."""


def whole_reads_only() -> None:
    """Read every new page of this process whole (the same pixels stay one read). For
    rubricloop-judge and rubricloop-eval: their pages are separate documents, not edits of one
    another, so two pages of one size that differ in a few rows (a clean page and its corrupted
    twin) must not share a read; verdict identity of incremental reads is tested on refine runs."""
    PAGE_READS.incremental = False


def forget_reads() -> None:
    """Empty :data:`PAGE_READS`, :data:`PART_READS` and the remembered fills of ``find_fills``
    (tests that count tesseract calls, benchmarks that time reads), and allow incremental reads
    again (:func:`whole_reads_only` undone)."""
    PAGE_READS.clear()
    PAGE_READS.incremental = True
    PART_READS.clear()
    forget_fills()


def page_lines(
    image: Image.Image,
    lang: str = "eng",
    psm: int = 11,
    scale: float = 2.0,
    second_psm: int | None = 3,
    incremental: bool = True,
    memo: ReadMemo | None = None,
) -> list[Line]:
    """``ocr_lines`` of a whole page (fill and rotated passes on) through ``memo`` (default
    :data:`PAGE_READS`): see the module docstring. Raises OCRError."""
    return (memo or PAGE_READS).lines(image, ReadSettings(lang, psm, scale, second_psm), incremental)


def part_lines(image: Image.Image, settings: ReadSettings) -> list[Line]:
    """``ocr_lines`` of a small image (a strip, a mosaic of regions) through :data:`PART_READS`:
    the same pixels with the same settings are read once. Raises OCRError."""
    return PART_READS.lines(image, settings, incremental=False)
