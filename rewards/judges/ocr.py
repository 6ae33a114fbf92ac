"""The offline OCR judge: decides checks that carry text expectations, with tesseract.

Reading (``ocr_lines``, ``OCRError``) lives in :mod:`rewards.text.ocr.ocr_read`: two whole-page
tesseract passes at 2x plus a pass over coloured fills (badges, buttons, bands) and small text,
each binarised and inverted on its own. Pages are read through ``rewards.text.ocr.ocr_cache`` (the
same pixels once per process; an edited page only where it changed, unless ``incremental=False``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import numpy as np
from PIL import Image

from rewards.common.options import require_bools
from rewards.judges.ocr_doubt import MIN_CONF, _lookalike_spelling, _spacing_or_marks, doubt_no
from rewards.rubric import Check, TextExpectation, Verdict, withheld
from rewards.text.ocr.bar_glyphs import bars_as_i
from rewards.text.ocr.lookalikes import lookalike_doubt, read_as_expected
from rewards.text.ocr.ocr_cache import page_lines, part_lines
from rewards.text.ocr.ocr_langs import check_ocr_options, tesseract_lang
from rewards.text.ocr.ocr_read import ReadSettings
from rewards.text.ocr.strip_boxes import own_rows
from rewards.text.ocr.tesseract_lines import OCRError
from rewards.text.ocr.text_match import Line, Match, Word, find_matches, normalize_expected, union_box
from rewards.text.ocr.unreadable import unreadable_reason
from rewards.text.page.elements import describe_element
from rewards.text.page.grounding import decide_text
from rewards.text.page.locators import grouped_bar, locates_element, resolve_locators
from rewards.text.page.positional_reads import ElementRead, element_read
from rewards.text.page.unlabelled_column import without_column
from rewards.text.questions.question_compiler import Anchor, TextSpec


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
    """Decides the text part of a check from OCR words and boxes (``rewards.text.page.grounding``).

    A check's text part is its compiled spec (``Check.spec.text``: strings, lines, order, count,
    place, relations to quoted anchors, the element it is about, enclosing box, style) or, for
    rows that give only expectations, every expectation read in its region. Answers: "no" when
    the text part fails (it is a necessary condition, whatever else the question asks); "yes"
    when it holds and the spec has no part only a VLM can decide (``vlm_parts``: an unrepresented
    locator among them) and nothing was left unknown (an element not found on the page, a box,
    a style); otherwise withheld. The reason names the rule that decided, which parts were
    checked (the element and the represented locators among them) and which only a VLM can
    decide.

    Normalisation and matching follow :mod:`rewards.text.ocr.text_match`: whitespace collapsed, Unicode
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
        max_lines: how many consecutive lines a wrapped string may span (more while the lines
            joined are shorter than the string: a long paragraph in a narrow column).
        incremental: a page that differs from one read before (in this process) only in a few
            rows is read again only there (``rewards.text.ocr.ocr_cache``); False: every new image is
            read whole. Either way the same pixels are read once (the editor reads through the
            same memo).
        vlm_follows: a VLM judge follows this one in the router (``judge=ocr_vlm``): a string
            not read is not refuted while the question has a part only a VLM can check, nor when
            nothing close to it was read; the VLM decides (``rewards.judges.ocr_doubt``).

    A "no" needs the same certainty as a "yes" (``rewards.judges.ocr_doubt.doubt_no``): a failed
    text part whose failure was not seen clearly (an anchor not read, a near miss read with low
    tesseract confidence, an element the tree cannot locate as the question says) is withheld,
    the reason starting "OCR does not refute:" and ``evidence["doubt"]`` saying why.

    Raises:
        ValueError: one line naming the option, when the judge is built (not once per item):
            ``psm``/``second_psm`` not a mode that reads text (1, 3..13; ``tesseract --help-psm``), a
            ``lang`` code (``"eng+chi_sim"``: each part) that ``tesseract --list-langs`` does
            not list (skipped when tesseract itself is missing) or ``osd``, ``scale`` <= 0,
            ``max_lines`` < 1 (``rewards.text.ocr.ocr_langs.check_ocr_options``).

    Evidence per verdict: ``{"expects": [{"text", "region", "found", "ocr_text", "box",
    "similarity", "rule", "element"}], "anchors": [{"text", "relation", "found", "boxes"}],
    "elements": [{"role", "box", "text"}] (the candidates found for the element), "enclosing_box",
    "rule", "checked", "not_checked", "reread", "ocr_text", "box"}`` where ``rule`` is the rule
    that decided (``rewards.text.page.grounding``: read, region, anchor, element, box, style, count, arrangement, all),
    ``reread`` the strips read again before a "no" (``reread_strip``), the top-level
    ``ocr_text``/``box`` are those of the first string that failed (else the first), boxes
    ``[x0, y0, x1, y1]`` in pixels and similarity in [0, 1] = rapidfuzz ``OSA.normalized_similarity``
    of the normalised expected string and the best-matching OCR text (1 - optimal string alignment distance / longer
    length; see ``rewards.text.ocr.text_match.Match``), rounded to 4 decimals; 0.0 when nothing matched.
    """

    name = "ocr"

    def __init__(
        self,
        lang: str = "eng",
        psm: int = 11,
        case_sensitive: bool = True,
        lenient: bool = False,
        scale: float = 2.0,
        max_lines: int = 4,
        second_psm: int | None = 3,
        incremental: bool = True,
        vlm_follows: bool = False,
    ):
        _check_options(lang, psm, second_psm, scale, max_lines)
        require_bools("OCRJudge", case_sensitive=case_sensitive, lenient=lenient, incremental=incremental)
        self.vlm_follows = bool(vlm_follows)
        self.lang, self.psm, self.scale, self.second_psm = lang, psm, scale, second_psm
        self.incremental = incremental
        self.case_sensitive, self.lenient, self.max_lines = case_sensitive, lenient, max_lines
        # part of the verdict cache's identity (rewards.judges.cache.judge_identity): a "yes" cached before
        # the look-alike check (rewards.text.ocr.lookalikes) is not served
        self.lookalike_check = 1

    def can_answer(self, check: Check) -> bool:
        return bool(self.text_specs(check))

    @staticmethod
    def text_specs(check: Check) -> list[TextSpec]:
        """The text parts code decides for ``check``: its compiled spec's, or one per expectation."""
        if check.spec is not None:
            return [check.spec.text] if check.spec.text is not None else []
        return [
            TextSpec(
                (e.text,), region=e.region, anchors=(Anchor(e.anchor, e.relation),) if e.anchor and e.relation else ()
            )
            for e in check.expects
        ]

    def read(self, image: Image.Image, lang: str | None = None) -> list[Line]:
        """The OCR lines of ``image`` with this judge's settings, in ``lang`` when given (else
        ``self.lang``), through the process's memo of page reads (``rewards.text.ocr.ocr_cache``).
        Raises OCRError."""
        return page_lines(image, lang or self.lang, self.psm, self.scale, self.second_psm, self.incremental)

    def expected_texts(self, check: Check) -> list[str]:
        """Every string the check's text parts quote (required strings and anchors)."""
        return [t for s in self.text_specs(check) for t in (*s.texts, *(a.text for a in s.anchors))]

    def match(self, exp: TextExpectation, lines: list[Line], width: int, height: int) -> list[Match]:
        """Candidate matches of one expectation, best first (see ``text_match.find_matches``)."""
        return find_matches(
            exp.text, lines, width, height, exp.region, self.case_sensitive, self.lenient, self.max_lines
        )

    def judge_lines(
        self, lines: list[Line], size: tuple[int, int], check: Check, image: Image.Image | None = None
    ) -> Verdict:
        """The verdict on ``check`` given the OCR ``lines`` of an image of ``size`` (w, h) pixels.

        ``image`` (optional) lets the judge look for an enclosing box, and look again before it
        answers "no" because a string was not read: the strip around the best near match is
        re-read on its own (``reread_strip``) and the check decided on the lines read there.
        """
        specs = self.text_specs(check)
        if not specs:
            note = f" ({check.spec.note})" if check.spec is not None and check.spec.note else ""
            return withheld(check, self.name, f"no text expectation: only a VLM can decide this check{note}")
        if image is not None:  # "Ql" read for the row label "Q1": the ink decides (look-alikes)
            lines = bars_as_i(
                image, read_as_expected(image, lines, self.expected_texts(check)), self.expected_texts(check)
            )
        page = lines  # the page's read, before strips are read again (an element's own line stays whole)
        decisions = [
            decide_text(s, lines, image, size, self.case_sensitive, self.lenient, self.max_lines) for s in specs
        ]
        reread = []
        if image is not None and any(d.holds is False and d.rule in ("read", "element") for d in decisions):
            lines, reread = self._look_again(image, lines, decisions)
            decisions = [
                decide_text(s, lines, image, size, self.case_sensitive, self.lenient, self.max_lines) for s in specs
            ]
        records = [dict(r, region=s.region) for s, d in zip(specs, decisions) for r in d.records]
        failed = next((d for d in decisions if d.holds is False), None)
        unknown = next((d for d in decisions if d.holds is None), None)
        head = next((r for r in records if not r["found"]), records[0])
        checked = "; ".join(_describe(s) for s in specs)
        not_checked = list(check.spec.vlm_parts) if check.spec is not None else []
        if unknown is not None:
            not_checked += [u for u in unknown.unknown or ["enclosing box"] if u not in not_checked]
        decided = failed or unknown or decisions[0]
        evidence = {
            "expects": records,
            "anchors": [a for d in decisions for a in d.anchors],
            "elements": [e for d in decisions for e in d.elements],
            "enclosing_box": next((list(d.enclosing_box) for d in decisions if d.enclosing_box), None),
            "rule": decided.rule,
            "checked": checked,
            "not_checked": not_checked,
            "reread": reread,
            "ocr_text": head["ocr_text"],
            "box": head["box"],
        }
        off = failed or unknown  # the element's role found another line (or none), a group taken for a string
        if off is not None and off.rule in ("element", "anchor") and image is not None:
            moved = self._relocated(check, off.rule, not_checked, lines, size, image)
            if moved is not None:
                return moved
        if failed is not None:
            match = (self.case_sensitive, self.lenient, self.max_lines)
            el = specs[0].element if len(specs) == 1 else None
            where = {"image": image, "role": el and el.role, "ordinal": el and el.ordinal}
            where["locators"] = specs[0].locators if len(specs) == 1 else ()
            doubt = doubt_no(failed, not_checked, lines, size, self.vlm_follows, *match, **where)
            if doubt is not None and (refuted := self._refuted(check, not_checked, page, image, evidence, checked)):
                return refuted
            if doubt is not None:
                evidence["doubt"] = doubt
                reason = f"OCR does not refute: {doubt} ({failed.detail}; checked: {checked})"
                return Verdict(check.id, "withheld", self.name, reason, evidence)
            vlm = f"; only a VLM can decide: {', '.join(not_checked)}" if not_checked else ""
            return Verdict(check.id, "no", self.name, f"{failed.detail} (checked: {checked}{vlm})", evidence)
        if not_checked and unknown is None and len(specs) == 1 and image is not None:
            checked, not_checked = self._shown(specs[0], lines, image, checked, not_checked, evidence)
        if not_checked and (refuted := self._refuted(check, not_checked, page, image, evidence, checked)):
            return refuted
        if not_checked:
            reason = f"text part holds (checked: {checked}); only a VLM can decide: {', '.join(not_checked)}"
            return Verdict(check.id, "withheld", self.name, reason, evidence)
        doubt = lookalike_doubt(image, lines, records) if image is not None else None  # O/0, l/1, S/5, B/8, rn/m
        if doubt is not None:
            return Verdict(
                check.id, "withheld", self.name, f"{doubt[0]} (checked: {checked})", evidence | {"lookalikes": doubt[1]}
            )
        return Verdict(check.id, "yes", self.name, f"{decided.detail} (checked: {checked})", evidence)

    def _look_again(self, image: Image.Image, lines: list[Line], decisions) -> tuple[list[Line], list]:
        """``lines`` with the strips of the failed strings' near misses read again
        (``reread_strip``), and the strips read."""
        reread = []
        # a hostile check quoting thousands of strings would re-read for minutes (0.16 s each)
        for text, box, ocr_text, in_element, grow_y in _near_misses(decisions, lines)[:MAX_REREADS]:
            again, strip = self.reread_strip(image, lines, text, box, ocr_text, grow_y=grow_y)
            reread.append(list(strip))
            # an element's strip may hold other lines (a subtitle under a title): its read
            # replaces them only when it reads the string where the element stands (the strip of
            # a list's first item, read "Customer churn ..." of the second and dropped the first
            # item's line, which made the second the first); a string's strip, when it
            # reads the string no worse than the page did (a wrapped paragraph read as one
            # line by the strip's psm 7 is garbage, and took the page's good lines with it)
            if self._reads_in(text, again, box if in_element else strip, image.size) or (
                not in_element and self._near(text, again, image.size) >= self._near(text, lines, image.size)
            ):
                lines = again
        return lines, reread

    def _shown(self, spec, lines, image, checked: str, not_checked: list[str], evidence: dict) -> tuple[str, list]:
        """The locators the compiler left to a VLM that the page structure shows
        (``rewards.text.page.locators.resolve_locators``) moved from ``not_checked`` to ``checked``
        (and ``evidence["shown"]``); returns the new (checked, not_checked)."""
        shown, left = resolve_locators(
            not_checked, spec, lines, image, image.size, self.case_sensitive, self.lenient, self.max_lines
        )
        if shown:
            checked += "; shown on the page: " + ", ".join(shown)
            evidence.update(shown=shown, checked=checked, not_checked=left)
        return checked, left

    def _refuted(self, check: Check, parts: list[str], lines, image, evidence: dict, checked: str) -> Verdict | None:
        """A "no" when the element a VLM part pins by position (``positional_reads.element_read``:
        the Nth tick label, a bar's value, a slice's percentage) reads, for sure, other text than
        the quoted string (``_reads_otherwise``), or is not drawn (its slot found empty:
        ``ElementRead.empty``); None otherwise (the verdict stays as it was)."""
        if image is None or check.spec is None or check.spec.text is None:
            return None
        texts = check.spec.text.texts
        if (grouped := grouped_bar(check.spec.text, parts)) is not None:  # the group taken for a string
            texts, parts = grouped[0].texts, grouped[1]
        contexts = tuple(a.text for a in check.spec.text.anchors if a.relation == "context")
        read = element_read(parts, texts, lines, image, image.size, contexts)
        if read is None or not (read.empty or self._reads_otherwise(read, lines, image)):
            return None
        left = [p for p in parts if p != read.part]
        vlm = f"; only a VLM can decide: {', '.join(left)}" if left else ""
        evidence.update(rule="element", element_read=read.as_dict(), ocr_text=read.text, box=[int(v) for v in read.box])
        said = f"{read.what} reads {read.text!r}, not {read.expected!r}"
        if read.empty:
            said = f"{read.what} is not there (its slot holds no ink), so it does not read {read.expected!r}"
        reason = f"{said} (checked: {checked}; read on the page: {read.part}{vlm})"
        return Verdict(check.id, "no", self.name, reason, evidence)

    def _reads_otherwise(self, read: ElementRead, lines: list[Line], image: Image.Image) -> bool:
        """True when ``read`` (an element found for sure) reads other text than its quoted string,
        seen clearly: words read with confidence ``MIN_CONF`` or more; not the string but for case,
        look-alike glyphs (O/0, l/1, rn/m: ``ocr_doubt._lookalike_spelling``), spaces ("4pm" for a
        tick label "4 pm": ``ocr_doubt._spacing_or_marks``) or a whole word more or less (the rest may
        be unread, or another line joined); and the strip around it, read
        again on its own at 3x and at 2x (``reread_strip``), reads the string at neither."""
        got = normalize_expected(read.text, self.case_sensitive, self.lenient)
        want = normalize_expected(read.expected, self.case_sensitive, self.lenient)
        if not got or read.conf < MIN_CONF or got.lower() == want.lower():
            return False
        if _lookalike_spelling(read.text, read.expected) or _spacing_or_marks(read.text, read.expected):
            return False
        if _word_part(got, want) or _word_part(want, got):
            return False
        for scale in (3.0, 2.0):
            again, strip = self.reread_strip(image, lines, read.expected, read.box, read.text, scales=(scale,))
            if self._reads_in(read.expected, again, strip, image.size):
                return False
        return True

    def _relocated(self, check: Check, rule: str, parts: list[str], lines, size, image) -> Verdict | None:
        """The "yes" of ``check`` asked again as its locator says, or None.

        - rule "element": a locator that pins its element by position ("the header of the third
          column", ``rewards.text.page.locators.locates_element``) names it more exactly than the
          compiler's role ("header": a heading); when the string is that element, the role's
          finder having picked another line (the page title) is no "no";
        - rule "anchor": "the value label above the '2024' bar in the 'Tea' group": the compiler
          took the group for a required string and the series for an anchor
          (``locators.grouped_bar``); the value is asked alone, with the group's bar as its locator,
          and its "no" stands when the value over that bar reads otherwise
          (``positional_reads.group_value``);
        - rule "anchor": a table cell asked by a column label the page does not show, its row
          holding one cell (``unlabelled_column.without_column``): asked of that cell.
        """
        spec = check.spec
        if rule == "element" and locates_element(parts):
            text, vlm, said = (
                replace(spec.text, element=None),
                spec.vlm_parts,
                "the element is the one its locator names",
            )
            said += f" (not {describe_element(spec.text.element)})" if spec.text.element is not None else ""
        elif rule == "anchor" and (grouped := grouped_bar(spec.text, list(spec.vlm_parts))) is not None:
            (text, vlm), said = grouped, "the group and its bar are the value's locator"
        elif rule == "anchor" and (text := without_column(spec.text, lines, image, size)) is not None:
            vlm, said = spec.vlm_parts, f"the page shows no column {spec.text.element.column!r}; its row has one cell"
        else:
            return None
        v = self.judge_lines(lines, size, replace(check, spec=replace(spec, text=text, vlm_parts=tuple(vlm))), image)
        # a "no" there is the element its locator pins read otherwise (``_refuted``: the group's bar's value)
        pinned = v.answer == "no" and isinstance(v.evidence, dict) and "element_read" in v.evidence
        return replace(v, reason=f"{said}; {v.reason}") if v.answer == "yes" or pinned else None

    def reread_strip(
        self,
        image: Image.Image,
        lines: list[Line],
        expected: str,
        box,
        matched: str,
        scales: tuple[float, ...] = (3.0, 2.0),
        grow_y: int | None = None,
    ) -> tuple[list[Line], tuple[int, int, int, int]]:
        """Read again, on its own, the strip of ``image`` around a near match of ``expected``.

        The strip is the near match's box grown by one line height up and down and, sideways, by
        the width the missing characters would take (the matched text's mean character width
        times the length difference, plus 4 characters); it is read as one text line (psm 7) with
        no fill pass, in the languages of ``expected``'s scripts (``ocr_langs.tesseract_lang``),
        once per factor of ``scales``. Page passes drop words next to a misread (tesseract 5.3 read
        "2021 for the board" of "Prepared June 2021 for the board" in small serif type on the
        fidelity set; the strip alone reads it all).

        A strip read is believed for a "yes" only when every scale reads ``expected`` in it: at 3x
        alone tesseract's language model read the clearly printed "Ablation Tablc" of the bundled
        example's item 381 as "Ablation Table" (the page at 2x, and the strip at 1x and 2x, read
        "Tablc"), a false "yes" that hid the error from the editor. When the scales disagree, the
        first read that misses ``expected`` is used.

        Returns:
            (lines, strip): ``lines`` with those whose centre lies in the strip and that a line
            of the strip's read overlaps (``_covers``) replaced by the strip's lines (boxes in
            pixels of ``image``), and the strip's box. On an OCR error the lines are returned
            unchanged.
        """
        x0, y0, x1, y1 = box
        char_w = (x1 - x0) / max(1, len(matched))
        grow_x = char_w * (max(0, len(expected) - len(matched)) + 4)
        grow_y = y1 - y0 if grow_y is None else grow_y
        strip = (
            max(0, int(x0 - grow_x)),
            max(0, y0 - grow_y),
            min(image.width, int(x1 + grow_x + 1)),
            min(image.height, y1 + grow_y),
        )
        dx, dy = strip[0], strip[1]
        gray = np.asarray(image.convert("L"))
        at = lambda b: own_rows(gray, (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy), (y0, y1))  # noqa: E731
        reads = []
        for scale in scales:
            try:
                # in the language of the string's own script ("红色" is re-read with chi_sim), as the page was
                settings = ReadSettings(tesseract_lang([expected], self.lang), 7, scale, None, fills=False)
                found = part_lines(image.crop(strip), settings)  # the same strip next iteration: not read again
            except OCRError:
                return lines, strip
            moved = [
                Line(
                    tuple(
                        Word(w.text, at(w.box), w.conf)  # the near miss's own rows (strip_boxes)
                        for w in ln.words
                    )
                )
                for ln in found
            ]
            reads.append(moved)
            best = find_matches(
                expected, moved, image.width, image.height, None, self.case_sensitive, self.lenient, self.max_lines
            )
            if not (best and best[0].found):
                break
        inside = lambda b: strip[0] <= (b[0] + b[2]) / 2 <= strip[2] and strip[1] <= (b[1] + b[3]) / 2 <= strip[3]  # noqa: E731
        new = reads[-1]
        # a page line in the strip that no line of the strip's read covers (the line above a
        # near miss, "100% Occupied" over "9.3kKSKUs") was not read again: it stays
        kept = [ln for ln in lines if ln.angle or not inside(ln.box) or not any(_covers(n.box, ln.box) for n in new)]
        return kept + new, strip

    def _near(self, text: str, lines: list[Line], size: tuple[int, int]) -> float:
        """The similarity of the best match of ``text`` in ``lines`` (0.0: none)."""
        ms = find_matches(text, lines, *size, None, self.case_sensitive, self.lenient, self.max_lines)
        return ms[0].similarity if ms else 0.0

    def _reads_in(self, text: str, lines: list[Line], strip, size: tuple[int, int]) -> bool:
        """True when ``text`` occurs exactly in ``lines`` with its centre in ``strip``."""
        ms = find_matches(text, lines, *size, None, self.case_sensitive, self.lenient, self.max_lines)
        return any(m.found and _in_strip(m.box, strip) for m in ms)

    def judge(
        self, images: Sequence[Image.Image], prompts: Sequence[str], checks: Sequence[Sequence[Check]]
    ) -> list[list[Verdict]]:
        """One verdict per check per image; each image is OCR'd once. An OCR failure on one image
        withholds that image's checks (reason names the failure); the others go on.

        Raises:
            ValueError: ``images`` and ``checks`` differ in length.
        """
        if len(images) != len(checks):
            raise ValueError(f"OCRJudge.judge: {len(images)} images but {len(checks)} check lists")
        cache: dict[tuple[int, str], list[Line] | OCRError] = {}
        out = []
        for image, image_checks in zip(images, checks):
            if not any(self.can_answer(c) for c in image_checks):
                out.append([self.judge_lines([], image.size, c) for c in image_checks])
                continue
            # Read in the languages of the scripts the checks quote (eng + chi_sim for "红色").
            lang = tesseract_lang([t for c in image_checks for t in self.expected_texts(c)], self.lang)
            key = (id(image), lang)
            if key not in cache:
                try:
                    cache[key] = self.read(image, lang)
                except OCRError as e:
                    cache[key] = e
            lines = cache[key]
            if isinstance(lines, OCRError):
                out.append([withheld(c, self.name, f"OCR failed: {lines}", call_failed=True) for c in image_checks])
            else:
                out.append([self._unreadable(c) or self.judge_lines(lines, image.size, c, image) for c in image_checks])
        return out

    def _unreadable(self, check: Check) -> Verdict | None:
        """Withheld when the check quotes characters OCR cannot read here (IPA, a script whose
        tesseract model is not installed): a garbled read would otherwise answer "no"."""
        reason = unreadable_reason(self.expected_texts(check))  # names the script, quotes the string as given
        return None if reason is None else withheld(check, self.name, reason)


def _check_options(lang, psm, second_psm, scale, max_lines) -> None:
    """Raise ValueError (one line naming the option) for an OCR option that would fail or read
    nothing on every image (``rewards.text.ocr.ocr_langs.check_ocr_options``), or a bad scale or max_lines."""
    check_ocr_options("OCRJudge", lang, psm, second_psm)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
        raise ValueError(f"OCRJudge: scale must be a number > 0, got {scale!r}")
    if isinstance(max_lines, bool) or not isinstance(max_lines, int) or max_lines < 1:
        raise ValueError(f"OCRJudge: max_lines must be an integer >= 1, got {max_lines!r}")


def _describe(spec: TextSpec) -> str:
    """The parts of ``spec`` code checks, in words (for verdict reasons)."""
    parts = [
        "strings " + ", ".join(repr(t) for t in spec.texts) if len(spec.texts) > 1 else f"string {spec.texts[0]!r}"
    ]
    if spec.arrangement != "all":
        parts.append(spec.arrangement.replace("_", " "))
    if spec.count is not None:
        parts.append(f"count {spec.count}")
    if spec.region:
        parts.append(f"place {spec.region}")
    parts += [
        f"{a.relation.replace('_', ' ')} {a.text!r}" + (f" and {a.other!r}" if a.other else "") for a in spec.anchors
    ]
    if spec.in_box:
        parts.append("inside a box")
    parts += [f"weight {spec.weight}"] * bool(spec.weight) + [f"colour {spec.colour}"] * bool(spec.colour)
    if spec.element is not None:
        el = spec.element
        said = f" ({el.phrase!r})" if el.phrase else ""
        parts.append(f"{'is' if el.whole else 'in'} {describe_element(el)}{said}")
    parts += [f"locator {p!r}" for p in spec.locators if not (spec.element and p == spec.element.phrase)]
    return ", ".join(parts)


def _word_part(part: str, whole: str) -> bool:
    """True when ``part`` stands in ``whole`` as whole words ("Total" in "Total 200")."""
    return re.search(rf"(?<!\S){re.escape(part)}(?!\S)", whole) is not None


def _covers(read, line) -> bool:
    """True when a strip's read line ``read`` overlaps page line ``line`` across and over half
    the height of the lower of the two (it read the line again)."""
    dy = min(read[3], line[3]) - max(read[1], line[1])
    return min(read[2], line[2]) > max(read[0], line[0]) and dy > min(read[3] - read[1], line[3] - line[1]) / 2


def _in_strip(box, strip) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return strip[0] <= cx <= strip[2] and strip[1] <= cy <= strip[3]


def _flat(box) -> bool:
    """True for a box wider than tall (a strip is read as one horizontal line)."""
    return box[2] - box[0] >= box[3] - box[1]


MAX_REREADS = 16
"""At most this many strips of one check are read again before a "no" (``reread_strip``); the
near misses after them keep their page read, so the check can only stay "no", never turn "yes"."""


def _near_misses(decisions, lines: list[Line]) -> list[tuple[str, tuple, str, bool, int | None]]:
    """(expected string, box, OCR text, of an element, rows grown up and down: None for a line
    height) of each string worth a second look before a "no": a string not read whose best match
    is a near miss (similarity >= 0.3), the place of a table cell asked by its row and column
    (``_cell_place``; a quarter of its height, the next rows are other cells; as an element's, its
    read is kept only where it reads the string in the cell: a heatmap's "93" read worse in its
    strip left unread ink there, and a wrong "39" was withheld), a string with nothing close read
    whose element is found (the row of ``lines`` it stands on, ``_row_of``: a table's 12 px grey
    footer read as eight fragments, "To", "clubs", "motec", ..., the best match of its sentence the
    subtitle), and a string read elsewhere whose element reads something else (the element's box
    and text)."""
    out = []
    for d in decisions:
        for r in d.records:
            if r["rule"] == "read" and (cell := _cell_place(d.anchors)) is not None:
                out.append((r["text"], *cell, True, (cell[0][3] - cell[0][1]) // 4))
            if r["rule"] == "read" and r["box"] and r["similarity"] >= 0.3:
                out.append((r["text"], r["box"], r["ocr_text"], False, None))
            elif r["rule"] == "read" and d.elements and _flat(d.elements[0]["box"]):
                out.append((r["text"], *_row_of(d.elements[0]["box"], lines), False, None))
            elif r["rule"] == "element" and r.get("element") and _flat(r["element"]["box"]):
                out.append((r["text"], r["element"]["box"], r["element"]["text"], True, None))
    return out


def _row_of(box, lines: list[Line]) -> tuple[tuple, str]:
    """(box, text) of the horizontal lines whose middles lie in the rows of ``box``, left to right."""
    row = sorted(
        (ln for ln in lines if not ln.angle and box[1] <= (ln.box[1] + ln.box[3]) / 2 <= box[3]),
        key=lambda ln: ln.box[0],
    )
    if not row:
        return tuple(box), ""
    return union_box(ln.box for ln in row), " ".join(ln.text for ln in row)


def _cell_place(anchors: list[dict]) -> tuple[tuple, str] | None:
    """(box, column label) of the place a table cell asked by its row and column labels stands
    (both read): the row label's rows, the column label's columns; None otherwise. Its value may be
    read there in part by the page passes (a right-aligned price in monospaced type, "3.90" read
    "90", its "3." dropped at confidence 96: a ninth tester's receipt) while its best match is
    another row's value ("3.96"): the cell's own strip is read again too."""
    rel = {a["relation"]: a for a in anchors if a["found"] and a.get("boxes")}
    if len(anchors) != 2 or set(rel) != {"same_row", "context"}:
        return None
    row, col = rel["same_row"]["boxes"][0], rel["context"]["boxes"][0]
    if col[0] <= row[2]:
        return None
    return (col[0], row[1], col[2], row[3]), rel["context"]["text"]
