"""The offline OCR judge: decides checks that carry text expectations, with tesseract.

Engine: Debian tesseract 5 through pytesseract's ``image_to_data`` (word boxes), words grouped
into lines by tesseract's (block, paragraph, line) numbers. Measured on rendered documents
(see /work/shared/notes/offline-models.md): upsampling 2x makes light-on-dark titles readable
(at 1x tesseract 5.3 dropped half of a white-on-navy title) for ~1.3x the time. Two passes,
sparse text (psm 11) then automatic layout (psm 3), each catch lines the other misses.
"""

from __future__ import annotations

from typing import Sequence

import pytesseract
from PIL import Image

from rewards.grounding import decide_text
from rewards.question_compiler import Anchor, TextSpec
from rewards.rubric import Check, TextExpectation, Verdict, withheld
from rewards.text_match import Line, Match, Word, find_matches


MAX_OCR_SIDE = 8000
"""Pixels: ``scale`` never enlarges an image's longer side beyond this."""


class OCRError(RuntimeError):
    """The OCR engine failed on one image (not installed, crashed, bad image)."""


def ocr_lines(image: Image.Image, lang: str = "eng", psm: int = 11, scale: float = 2.0, second_psm: int | None = 3) -> list[Line]:
    """Read the text lines of ``image`` with tesseract.

    Args:
        image: any PIL image; converted to RGB.
        lang: tesseract language code(s), e.g. "eng" or "eng+deu".
        psm: tesseract page segmentation mode (11 = sparse text, 3 = automatic page layout).
        scale: upsampling factor applied before OCR (Lanczos), lowered so the longer side stays
            within ``MAX_OCR_SIDE`` (never below 1); boxes are mapped back.
        second_psm: a second pass in this mode (None: none) whose lines that overlap no line of
            the first pass are added: with psm 11 tesseract 5.3 read nothing of a lone white
            title on a navy band, which psm 3 reads; psm 3 alone garbled short isolated lines.

    Returns:
        Lines in tesseract's reading order, split at column gaps (``split_columns``); word boxes
        ``(x0, y0, x1, y1)`` in pixels of ``image`` (not of the upsampled copy).

    Raises:
        OCRError: tesseract is missing or failed; the message is one line.
    """
    rgb = image.convert("RGB")
    # Upsampling helps small text only; tesseract refuses sides over 32767 px, so large images
    # are never enlarged past MAX_OCR_SIDE.
    scale = min(scale, max(1.0, MAX_OCR_SIDE / max(rgb.size)))
    if scale != 1.0:
        rgb = rgb.resize((max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale))), Image.Resampling.LANCZOS)
    lines = _read(rgb, lang, psm, scale)
    if second_psm is not None and second_psm != psm:
        boxes = [ln.box for ln in lines]
        lines += [ln for ln in _read(rgb, lang, second_psm, scale) if not any(_overlap(ln.box, b) for b in boxes)]
    return lines


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _read(rgb: Image.Image, lang: str, psm: int, scale: float) -> list[Line]:
    try:
        data = pytesseract.image_to_data(rgb, lang=lang, config=f"--psm {psm}", output_type=pytesseract.Output.DICT)
    except (pytesseract.TesseractError, pytesseract.TesseractNotFoundError, OSError, RuntimeError) as e:
        raise OCRError(f"tesseract failed: {' '.join(str(e).split())[:200]}") from None
    grouped: dict[tuple[int, int, int], list[Word]] = {}
    for i, text in enumerate(data["text"]):
        text = (text or "").strip()
        if not text or float(data["conf"][i]) < 0:
            continue
        x, y, w, h = (data[k][i] for k in ("left", "top", "width", "height"))
        box = (int(x / scale), int(y / scale), int(round((x + w) / scale)), int(round((y + h) / scale)))
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        grouped.setdefault(key, []).append(Word(text, box))
    return [piece for words in grouped.values() for piece in split_columns(words)]


def split_columns(words: list[Word], gap: float = 1.5) -> list[Line]:
    """Split one engine line where two neighbouring words are more than ``gap`` x the line's
    median word height apart: tesseract joins text of two columns at the same height into one
    line, which would break matching of a string that wraps inside its column."""
    words = sorted(words, key=lambda wd: wd.box[0])
    heights = sorted(wd.box[3] - wd.box[1] for wd in words)
    limit = gap * max(1, heights[len(heights) // 2])
    pieces, cur = [], [words[0]]
    for prev, wd in zip(words, words[1:]):
        if wd.box[0] - prev.box[2] > limit:
            pieces.append(Line(tuple(cur)))
            cur = []
        cur.append(wd)
    return pieces + [Line(tuple(cur))]


def expectation_evidence(exp: TextExpectation, best: Match | None) -> dict:
    """The evidence record of one expectation: text, region, found, ocr_text, box, similarity."""
    return {
        "text": exp.text,
        "region": exp.region,
        "found": bool(best and best.found),
        "ocr_text": best.text if best else "",
        "box": list(best.box) if best else None,
        "similarity": round(best.similarity, 4) if best else 0.0,
    }


class OCRJudge:
    """Decides the text part of a check from OCR words and boxes (``rewards.grounding``).

    A check's text part is its compiled spec (``Check.spec.text``: strings, lines, order, count,
    place, relations to quoted anchors, enclosing box) or, for rows that give only expectations,
    every expectation read in its region. Answers: "no" when the text part fails (it is a
    necessary condition, whatever else the question asks); "yes" when it holds and the spec has
    no part only a VLM can decide; otherwise withheld. The reason names the rule that decided,
    which parts were checked and which were not.

    Normalisation and matching follow :mod:`rewards.text_match`: whitespace collapsed, Unicode
    NFKC, typographic quotes/dashes folded to ASCII, case kept unless ``case_sensitive=False``,
    ``lenient`` forgives a leading bullet and trailing punctuation (BizGenEval's lenient
    variant); a string that wraps is matched contiguously across consecutive OCR lines joined by
    one space; the match must not start or end inside a word; with a region, the centre of the
    matched words' box must lie in that half of the image.

    Args:
        lang: tesseract language code(s).
        psm: tesseract page segmentation mode; 11 (sparse text) reads the short isolated lines of
            slides and posters that 3 (automatic layout) garbled on the bundled example.
        case_sensitive: compare case exactly (BizGenEval asks for an exact character match).
        lenient: forgive a leading bullet and trailing punctuation.
        scale: upsampling factor before OCR.
        second_psm: page segmentation mode of a second pass that adds missed lines (None: off).
        max_lines: how many consecutive lines a wrapped string may span.

    Evidence per verdict: ``{"expects": [{"text", "region", "found", "ocr_text", "box",
    "similarity", "rule"}], "anchors": [{"text", "relation", "found", "boxes"}], "enclosing_box",
    "rule", "checked", "not_checked", "ocr_text", "box"}`` where ``rule`` is the rule that decided
    (``rewards.grounding``: read, region, anchor, box, count, arrangement, all), the top-level
    ``ocr_text``/``box`` are those of the first string that failed (else the first), boxes ``[x0, y0, x1, y1]`` in pixels and
    similarity in [0, 1] = rapidfuzz ``OSA.normalized_similarity`` of the normalised expected
    string and the best-matching OCR text (1 - optimal string alignment distance / longer
    length; see ``rewards.text_match.Match``), rounded to 4 decimals; 0.0 when nothing matched.
    """

    name = "ocr"

    def __init__(self, lang: str = "eng", psm: int = 11, case_sensitive: bool = True, lenient: bool = False,
                 scale: float = 2.0, max_lines: int = 4, second_psm: int | None = 3):
        if scale <= 0:
            raise ValueError(f"OCRJudge: scale must be > 0, got {scale}")
        self.lang, self.psm, self.scale, self.second_psm = lang, psm, scale, second_psm
        self.case_sensitive, self.lenient, self.max_lines = case_sensitive, lenient, max_lines

    def can_answer(self, check: Check) -> bool:
        return bool(self.text_specs(check))

    @staticmethod
    def text_specs(check: Check) -> list[TextSpec]:
        """The text parts code decides for ``check``: its compiled spec's, or one per expectation."""
        if check.spec is not None:
            return [check.spec.text] if check.spec.text is not None else []
        return [TextSpec((e.text,), region=e.region, anchors=(Anchor(e.anchor, e.relation),) if e.anchor and e.relation else ())
                for e in check.expects]

    def read(self, image: Image.Image) -> list[Line]:
        """The OCR lines of ``image`` with this judge's settings. Raises OCRError."""
        return ocr_lines(image, self.lang, self.psm, self.scale, self.second_psm)

    def match(self, exp: TextExpectation, lines: list[Line], width: int, height: int) -> list[Match]:
        """Candidate matches of one expectation, best first (see ``text_match.find_matches``)."""
        return find_matches(exp.text, lines, width, height, exp.region, self.case_sensitive, self.lenient, self.max_lines)

    def judge_lines(self, lines: list[Line], size: tuple[int, int], check: Check, image: Image.Image | None = None) -> Verdict:
        """The verdict on ``check`` given the OCR ``lines`` of an image of ``size`` (w, h) pixels;
        ``image`` (optional) lets the judge look for an enclosing box."""
        specs = self.text_specs(check)
        if not specs:
            note = f" ({check.spec.note})" if check.spec is not None and check.spec.note else ""
            return withheld(check, self.name, f"no text expectation: only a VLM can decide this check{note}")
        decisions = [decide_text(s, lines, image, size, self.case_sensitive, self.lenient, self.max_lines) for s in specs]
        records = [dict(r, region=s.region) for s, d in zip(specs, decisions) for r in d.records]
        failed = next((d for d in decisions if d.holds is False), None)
        unknown = next((d for d in decisions if d.holds is None), None)
        head = next((r for r in records if not r["found"]), records[0])
        checked = "; ".join(_describe(s) for s in specs)
        not_checked = list(check.spec.vlm_parts) if check.spec is not None else []
        if unknown is not None:
            not_checked.append("enclosing box")
        decided = failed or unknown or decisions[0]
        evidence = {"expects": records, "anchors": [a for d in decisions for a in d.anchors],
                    "enclosing_box": next((list(d.enclosing_box) for d in decisions if d.enclosing_box), None),
                    "rule": decided.rule, "checked": checked, "not_checked": not_checked,
                    "ocr_text": head["ocr_text"], "box": head["box"]}
        if failed is not None:
            return Verdict(check.id, "no", self.name, f"{failed.detail} (checked: {checked})", evidence)
        if not_checked:
            reason = f"text part holds (checked: {checked}); only a VLM can decide: {', '.join(not_checked)}"
            return Verdict(check.id, "withheld", self.name, reason, evidence)
        return Verdict(check.id, "yes", self.name, f"{decided.detail} (checked: {checked})", evidence)

    def judge(self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]) -> list[list[Verdict]]:
        """One verdict per check per image; each image is OCR'd once. An OCR failure on one image
        withholds that image's checks (reason names the failure); the others go on.

        Raises:
            ValueError: ``images`` and ``checks`` differ in length.
        """
        if len(images) != len(checks):
            raise ValueError(f"OCRJudge.judge: {len(images)} images but {len(checks)} check lists")
        cache: dict[int, list[Line] | OCRError] = {}
        out = []
        for image, image_checks in zip(images, checks):
            if not any(self.can_answer(c) for c in image_checks):
                out.append([self.judge_lines([], image.size, c) for c in image_checks])
                continue
            if id(image) not in cache:
                try:
                    cache[id(image)] = self.read(image)
                except OCRError as e:
                    cache[id(image)] = e
            lines = cache[id(image)]
            if isinstance(lines, OCRError):
                out.append([withheld(c, self.name, f"OCR failed: {lines}") for c in image_checks])
            else:
                out.append([self.judge_lines(lines, image.size, c, image) for c in image_checks])
        return out


def _describe(spec: TextSpec) -> str:
    """The parts of ``spec`` code checks, in words (for verdict reasons)."""
    parts = ["strings " + ", ".join(repr(t) for t in spec.texts) if len(spec.texts) > 1 else f"string {spec.texts[0]!r}"]
    if spec.arrangement != "all":
        parts.append(spec.arrangement.replace("_", " "))
    if spec.count is not None:
        parts.append(f"count {spec.count}")
    if spec.region:
        parts.append(f"place {spec.region}")
    parts += [f"{a.relation.replace('_', ' ')} {a.text!r}" for a in spec.anchors]
    if spec.in_box:
        parts.append("inside a box")
    return ", ".join(parts)
