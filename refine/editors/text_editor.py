"""The offline text editor: rewrites wrong text in place, or adds missing text in free space.

For every failed check with text expectations, each expected string that OCR does not find is
fixed in one of two ways:

1. **Replace.** The best near match among the OCR lines (rapidfuzz alignment over lines and
   windows of consecutive lines, snapped to whole words; ``similarity >= min_similarity``) is
   erased with its local background colour and the expected string is typeset in the same place,
   in the original text colour, with a font fitted to the box height (from the OCR'd text's ink
   height) and width. A match that spans several lines keeps the line breaks.
2. **Place.** With no near match, the string is typeset in the first free rectangle (flat
   background, no OCR text) of the check's region, else anywhere; wrapped when too wide.

Text and background colours come from two-means clustering of the box's luminance (the cluster
closest to the surrounding ring is background), not from the darkest/lightest pixel: a measured
trap of min/max was blanking light-on-dark titles.

Never touched: strings that already match, words of a found expectation, and words whose text
contains the expected string inside a longer one ("Female" is not rewritten to "Male").
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from refine.interfaces import Failure
from rewards.judges.ocr import ocr_lines
from rewards.rubric import TextExpectation
from rewards.text_match import Line, Match, contains, find_matches, in_region, normalize, union_box

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
"""Serif by default: tesseract reads DejaVu Sans "AI" as "Al" (I and l are the same bar)."""


def two_means_colours(pixels: np.ndarray, ring: np.ndarray) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(text colour, background colour) of a text box.

    Args:
        pixels: uint8 (N, 3) RGB pixels inside the box.
        ring: uint8 (M, 3) RGB pixels just outside the box (M >= 1).

    Returns:
        RGB tuples. The luminance (ITU-R BT.601 weights) of ``pixels`` is split by two-means; the
        background cluster is the one whose centre is nearer the ring's median luminance; the
        text colour is the median of the text cluster's half farthest from the background
        (the glyph cores, not the anti-aliased edges).
    """
    weights = np.array([0.299, 0.587, 0.114])
    lum = pixels.astype(np.float64) @ weights
    ring_lum = float(np.median(ring.astype(np.float64) @ weights))
    c0, c1 = float(lum.min()), float(lum.max())
    for _ in range(10):
        split = lum > (c0 + c1) / 2
        if split.all() or not split.any():
            break
        c0, c1 = float(lum[~split].mean()), float(lum[split].mean())
    bg_is_high = abs(c1 - ring_lum) < abs(c0 - ring_lum)
    text_mask = lum <= (c0 + c1) / 2 if bg_is_high else lum > (c0 + c1) / 2
    bg = tuple(int(v) for v in np.median(ring, axis=0))
    if not text_mask.any():
        return ((255, 255, 255) if ring_lum < 128 else (0, 0, 0)), bg
    text_px, text_lum = pixels[text_mask], lum[text_mask]
    dist = np.abs(text_lum - ring_lum)
    core = text_px[dist >= np.median(dist)]
    return tuple(int(v) for v in np.median(core, axis=0)), bg


class TextEditor:
    """Editor (refine.interfaces.Editor) that fixes text expectations directly in the pixels.

    Args:
        font: path of a TrueType font; None = DejaVu Serif if installed, else Pillow's default.
        min_similarity: least similarity (rapidfuzz OSA, in [0, 1]) for a near match to be
            rewritten in place; below it the string is placed in free space. At 0.6 the bundled
            example lost correct text ("encoder" rewritten to a missing "decoder", similarity 0.71);
            0.75 still accepts one wrong character in a 4-character string.
        lang, psm, scale, second_psm: tesseract settings (see ``rewards.judges.ocr.ocr_lines``).
        case_sensitive, lenient, max_lines: matching rules (see ``rewards.text_match``); use the
            judge's values so that "already matches" means the same for both.

    After each ``edit``, ``last_actions`` lists what was done: dicts with ``text``, ``action``
    ("replace", "place", "skip: ..."), ``box`` (pixels) and ``was`` (the OCR text replaced).
    """

    name = "text"

    def __init__(self, font: str | None = None, min_similarity: float = 0.75, lang: str = "eng", psm: int = 11,
                 scale: float = 2.0, case_sensitive: bool = True, lenient: bool = False, max_lines: int = 4,
                 second_psm: int | None = 3):
        if not 0.0 <= min_similarity <= 1.0:
            raise ValueError(f"TextEditor: min_similarity must be in [0, 1], got {min_similarity}")
        if font is not None and not Path(font).is_file():
            raise FileNotFoundError(f"TextEditor: font file {font} does not exist")
        self.font_path = font or (str(DEJAVU) if DEJAVU.is_file() else None)
        self.min_similarity = min_similarity
        self.lang, self.psm, self.scale, self.second_psm = lang, psm, scale, second_psm
        self.case_sensitive, self.lenient, self.max_lines = case_sensitive, lenient, max_lines
        self.last_actions: list[dict] = []

    def font(self, size: int) -> ImageFont.FreeTypeFont:
        """The editor's font at ``size`` pixels (>= 6)."""
        size = max(6, int(size))
        if self.font_path is None:
            return ImageFont.load_default(size)
        return ImageFont.truetype(self.font_path, size)

    def edit(self, image: Image.Image, instruction: str, failures: Sequence[Failure], seed: int) -> Image.Image:
        """Return a new RGB image with the failed text expectations fixed; ``instruction`` and
        ``seed`` are unused (the edit is deterministic). Failures without expectations are ignored.

        Raises:
            rewards.judges.ocr.OCRError: tesseract failed on ``image``.
        """
        out = image.convert("RGB")  # always a copy
        self.last_actions = []
        expects: list[TextExpectation] = []
        for check, _verdict in failures:
            for exp in check.expects:
                if exp not in expects:
                    expects.append(exp)
        if not expects:
            return out
        lines = ocr_lines(out, self.lang, self.psm, self.scale, self.second_psm)
        w, h = out.size
        matches = {exp: find_matches(exp.text, lines, w, h, exp.region, self.case_sensitive, self.lenient, self.max_lines)
                   for exp in expects}
        protected = {wd for ms in matches.values() for m in ms if m.similarity == 1.0 for wd in m.words}
        todo = [exp for exp in expects if not (matches[exp] and matches[exp][0].found)]
        busy = _busy_mask(out, lines)
        draw = ImageDraw.Draw(out)
        # Closest near matches first, so a good candidate is not taken by a weaker one.
        todo.sort(key=lambda e: -(matches[e][0].similarity if matches[e] else 0.0))
        written: list[str] = []
        for exp in todo:
            if any(contains(t, exp.text) for t in written):
                self.last_actions.append({"text": exp.text, "action": "skip: inside text just written", "box": None, "was": ""})
                continue
            written.append(exp.text)
            cand = self._candidate(exp, matches[exp], protected, w, h)
            if cand is not None:
                box = self._replace(out, draw, lines, cand, exp.text)
                protected.update(cand.words)
                self.last_actions.append({"text": exp.text, "action": "replace", "box": list(box), "was": cand.text})
                busy[box[1]:box[3], box[0]:box[2]] = True
            else:
                box = self._place(out, draw, busy, lines, exp)
                action = "place" if box else "skip: no free space"
                self.last_actions.append({"text": exp.text, "action": action, "box": list(box) if box else None, "was": ""})
        return out

    def _candidate(self, exp: TextExpectation, matches: list[Match], protected: set, w: int, h: int) -> Match | None:
        """The best near match that may be rewritten, or None."""
        target = normalize(exp.text, case_sensitive=False)
        for m in matches:
            if m.similarity < self.min_similarity:
                break
            if m.similarity == 1.0 or not in_region(m.box, exp.region, w, h) or protected.intersection(m.words):
                continue  # exact elsewhere (correct text), out of region, or someone else's words
            seen = normalize(m.text, case_sensitive=False)
            if target in seen and len(seen) > len(target):
                continue  # a longer word/phrase that contains the string: not a misspelling of it
            return m
        return None

    def _replace(self, img: Image.Image, draw: ImageDraw.ImageDraw, lines: list[Line], m: Match, text: str):
        """Erase the matched words line by line and typeset ``text`` split across the same lines."""
        arr = np.asarray(img)
        segments: dict[int, list[int]] = {}
        for li, wi in m.words:
            segments.setdefault(li, []).append(wi)
        seg_words = [[lines[li].words[wi] for wi in wis] for li, wis in segments.items()]
        parts = _split_words(text.split(), [sum(len(wd.text) for wd in ws) for ws in seg_words])
        boxes = []
        for words, part in zip(seg_words, parts):
            box = union_box(wd.box for wd in words)
            seen = " ".join(wd.text for wd in words)
            x0, y0, x1, y1 = box
            bh = max(1, y1 - y0)
            pad = max(2, round(0.2 * bh))
            ink, bg = two_means_colours(_crop(arr, box, 0), _ring(arr, box, pad + 2))
            draw.rectangle([x0 - pad, y0 - pad, x1 + pad, y1 + pad], fill=bg)
            if part:
                size = self._fit(seen, part, x1 - x0, bh)
                fnt = self.font(size)
                left, top, _, _ = fnt.getbbox(part)
                draw.text((x0 - left, y0 - top), part, font=fnt, fill=ink)
            boxes.append((x0 - pad, y0 - pad, x1 + pad, y1 + pad))
        return union_box(boxes)

    def _fit(self, seen: str, part: str, width: int, height: int) -> int:
        """Font size (pixels) whose ink height for ``seen`` equals ``height`` and whose width for
        ``part`` stays within ``width`` plus half an em (a dropped character needs a little room)."""
        ref = self.font(100)
        _, t, _, b = ref.getbbox(seen)
        size = 100 * height / max(1, b - t)
        length = ref.getlength(part) / 100
        if length * size > width + 0.5 * size:
            size = width / max(1e-6, length - 0.5)
        return max(6, int(size))

    def _place(self, img: Image.Image, draw: ImageDraw.ImageDraw, busy: np.ndarray, lines: list[Line], exp: TextExpectation):
        """Typeset ``exp.text`` in the first free rectangle of its region; returns the box or None."""
        w, h = img.size
        heights = sorted(ln.box[3] - ln.box[1] for ln in lines) or [16]
        start = int(np.clip(heights[len(heights) // 2] * 1.25, 12, 48))
        areas = [_region_box(exp.region, w, h)] + ([(0, 0, w, h)] if exp.region else [])
        for area in areas:
            for size in range(start, 11, -2):
                fnt = self.font(size)
                for n_lines in range(1, 5):
                    rows = _wrap_n(exp.text, fnt, n_lines)
                    line_h = round(size * 1.3)
                    tw = int(max(fnt.getlength(r) for r in rows)) + 1
                    th = line_h * len(rows)
                    spot = _free_spot(busy, area, tw + 16, th + 16)
                    if spot is None:
                        continue
                    x, y = spot[0] + 8, spot[1] + 8
                    arr = np.asarray(img)
                    bg = tuple(int(v) for v in np.median(_crop(arr, (x, y, x + tw, y + th), 0), axis=0))
                    lum = 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2]
                    ink = (25, 25, 25) if lum >= 128 else (250, 250, 250)
                    for k, row in enumerate(rows):
                        draw.text((x, y + k * line_h), row, font=fnt, fill=ink)
                    busy[y - 8:y + th + 8, x - 8:x + tw + 8] = True
                    return (x, y, x + tw, y + th)
        return None


def _split_words(words: list[str], weights: list[int]) -> list[str]:
    """Split ``words`` into len(weights) consecutive parts with character counts ~ ``weights``."""
    if len(weights) == 1:
        return [" ".join(words)]
    total, parts, k = sum(weights) or 1, [], 0
    chars = sum(len(wd) for wd in words) or 1
    for i, wgt in enumerate(weights):
        if i == len(weights) - 1:
            parts.append(" ".join(words[k:]))
            break
        goal, taken, acc = chars * wgt / total, [], 0
        while k < len(words) and (not taken or acc + len(words[k]) / 2 <= goal):
            acc += len(words[k])
            taken.append(words[k])
            k += 1
        parts.append(" ".join(taken))
    return parts


def _wrap_n(text: str, fnt: ImageFont.FreeTypeFont, n: int) -> list[str]:
    """``text`` wrapped into about ``n`` lines of similar pixel width."""
    words = text.split()
    if n <= 1 or len(words) < 2:
        return [text]
    goal = fnt.getlength(text) / n
    rows, cur = [], ""
    for word in words:
        trial = f"{cur} {word}".strip()
        if cur and fnt.getlength(trial) > goal * 1.1:
            rows.append(cur)
            cur = word
        else:
            cur = trial
    return rows + [cur]


def _crop(arr: np.ndarray, box, pad: int) -> np.ndarray:
    """Pixels (N, 3) of ``box`` grown by ``pad``, clipped to the image."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)
    patch = arr[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]
    return patch.reshape(-1, 3) if patch.size else arr[:1, :1].reshape(-1, 3)


def _ring(arr: np.ndarray, box, pad: int) -> np.ndarray:
    """Pixels (M, 3) in the band of width ``pad`` around ``box`` (clipped to the image)."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = max(0, box[0] - pad), max(0, box[1] - pad), min(w, box[2] + pad), min(h, box[3] + pad)
    mask = np.ones((y1 - y0, x1 - x0), dtype=bool)
    mask[max(0, box[1] - y0):box[3] - y0, max(0, box[0] - x0):box[2] - x0] = False
    ring = arr[y0:y1, x0:x1][mask]
    return ring if len(ring) else _crop(arr, box, 0)


def _busy_mask(img: Image.Image, lines: list[Line]) -> np.ndarray:
    """bool (H, W): True where something is drawn (an edge within 6 px, or an OCR word)."""
    gray = np.asarray(img.convert("L"), dtype=np.int16)
    edge = np.zeros(gray.shape, dtype=bool)
    edge[:, 1:] |= np.abs(np.diff(gray, axis=1)) > 12
    edge[1:, :] |= np.abs(np.diff(gray, axis=0)) > 12
    busy = edge.copy()
    for shift in (2, 4, 6):  # cheap dilation
        busy[shift:, :] |= edge[:-shift, :]
        busy[:-shift, :] |= edge[shift:, :]
        busy[:, shift:] |= edge[:, :-shift]
        busy[:, :-shift] |= edge[:, shift:]
    for line in lines:
        x0, y0, x1, y1 = line.box
        busy[max(0, y0 - 4):y1 + 4, max(0, x0 - 4):x1 + 4] = True
    return busy


def _region_box(region: str | None, w: int, h: int) -> tuple[int, int, int, int]:
    """The half of a w x h image named ``region`` (the whole image for None)."""
    return {"top": (0, 0, w, h // 2), "bottom": (0, h // 2, w, h), "left": (0, 0, w // 2, h),
            "right": (w // 2, 0, w, h)}.get(region, (0, 0, w, h))


def _free_spot(busy: np.ndarray, area, rw: int, rh: int, step: int = 4):
    """Top-left (x, y) of the first rw x rh rectangle inside ``area`` with no busy pixel, scanning
    rows top to bottom (step pixels), or None."""
    x0, y0, x1, y1 = area
    if x1 - x0 < rw or y1 - y0 < rh:
        return None
    ii = np.pad(busy[y0:y1, x0:x1].astype(np.int32).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    ys = np.arange(0, y1 - y0 - rh + 1, step)
    xs = np.arange(0, x1 - x0 - rw + 1, step)
    sums = ii[ys[:, None] + rh, xs[None, :] + rw] - ii[ys[:, None], xs[None, :] + rw] - ii[ys[:, None] + rh, xs[None, :]] + ii[ys[:, None], xs[None, :]]
    free = np.argwhere(sums == 0)
    if not len(free):
        return None
    r, c = free[0]
    return int(x0 + xs[c]), int(y0 + ys[r])
