"""The rubric data model: items, criteria, binary checks and their verdicts.

A rubric is a set of criteria, each a set of binary checks (TechImage-Bench §3.1). BizGenEval,
IGenBench and GenExam are the one-criterion-per-check special case; GenOlympiad adds easy
(gating) and hard (weighted) checks (GenOlympiad §3.3). A check may carry a machine-verifiable
text expectation, so that code (OCR), not a VLM, decides it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from rewards.text.ocr.text_match import REGION_FRACTIONS
from rewards.text.questions.question_compiler import QuestionSpec

REGIONS = tuple(REGION_FRACTIONS)
"""Place names a text expectation may carry (halves, quadrants, corners, bands, centre): see
``rewards.text.ocr.text_match.REGION_FRACTIONS`` and ``rewards.text.ocr.text_match.region_box``."""

ANSWERS = ("yes", "no", "withheld")


class RubricError(ValueError):
    """Bad rubric input. The message is one line and names the file:line or item and field."""


@dataclass(frozen=True)
class TextExpectation:
    """The check passes iff ``text`` is rendered in the image (in ``region`` when given).

    Attributes:
        text: the exact string required, as quoted by the rubric.
        region: one of ``REGIONS`` (see ``rewards.text.ocr.text_match.region_box``), or None for anywhere.
        anchor: a quoted string the text must stand in ``relation`` to ("directly below "MENU""),
            or None.
        relation: one of ``rewards.text.questions.question_compiler.RELATIONS`` ("below", "directly_below",
            "above", "directly_above", "right_of", "left_of", "same_row", "same_column"), or None.
    """

    text: str
    region: str | None = None
    anchor: str | None = None
    relation: str | None = None


@dataclass(frozen=True)
class Check:
    """One binary scoring point.

    Attributes:
        id: unique within its item. BizGenEval checks use the 1-based question index ("1".."20").
        question: the yes/no question a judge answers.
        difficulty: "easy", "hard", or None when the benchmark has no split.
        weight: the point's weight (GenExam / GenOlympiad relaxed scores); 1.0 otherwise.
        gate: True for GenOlympiad easy questions: any failed gate zeroes the task.
        tag: the dimension or question type (e.g. "text", "Legend").
        expects: machine-verifiable text expectations (one per required string of ``spec``, or
            given by the row); the text editor fixes these. Empty when no text part is known.
        spec: the compiled question (``rewards.text.questions.question_compiler.compile_question``): what code
            decides and what only a VLM can; None for rows that give only ``expects`` (then
            every expectation must hold, and nothing else is asked).
    """

    id: str
    question: str
    difficulty: str | None = None
    weight: float = 1.0
    gate: bool = False
    tag: str = ""
    expects: tuple[TextExpectation, ...] = ()
    spec: QuestionSpec | None = None

    @property
    def form(self) -> str:
        """The question form the compiler gave the check (``spec.form``, one of
        ``rewards.text.questions.question_compiler.FORMS``); "expects" for a row that gives text expectations
        directly, "none" otherwise."""
        if self.spec is not None:
            return self.spec.form
        return "expects" if self.expects else "none"


@dataclass(frozen=True)
class Criterion:
    """A named group of checks (TechImage-Bench §3.1: c_i = {p_i1, p_i2, ...})."""

    name: str
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Rubric:
    """A list of criteria. ``checks`` flattens them in order."""

    criteria: tuple[Criterion, ...]

    @property
    def checks(self) -> list[Check]:
        return [c for crit in self.criteria for c in crit.checks]

    def criterion_of(self, check_id: str) -> Criterion:
        for crit in self.criteria:
            if any(c.id == check_id for c in crit.checks):
                return crit
        raise KeyError(check_id)

    @staticmethod
    def flat(checks: list[Check]) -> "Rubric":
        """One criterion per check (BizGenEval, IGenBench, GenExam)."""
        return Rubric(tuple(Criterion(c.id, (c,)) for c in checks))

    def require_questions(self) -> None:
        """Refuse a check whose question is empty or blank (no judge can answer it).

        Raises:
            RubricError: "check '<id>': field 'question' is empty" (the caller adds file:line).
        """
        for c in self.checks:
            if not c.question.strip():
                raise RubricError(f"check {c.id!r}: field 'question' is empty")


@dataclass
class Item:
    """One benchmark or training item: a prompt, its rubric, and optionally a starting image.

    Attributes:
        id: the item's id as a string, unique within its file.
        prompt: the text-to-image prompt.
        rubric: the item's rubric.
        image: path of a starting image (resolved against the JSONL's folder), or None.
        source: "bizgeneval", "genexam" or "rubricloop".
        meta: benchmark fields kept for scoring (domain, dimension, subject, global ratings...).
    """

    id: str
    prompt: str
    rubric: Rubric
    image: Path | None = None
    source: str = "rubricloop"
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Verdict:
    """A judge's answer to one check.

    Attributes:
        check_id: the check answered.
        answer: "yes", "no" or "withheld". Withheld (no judge could answer, a judge failed or
            refused, the answer could not be parsed) is never counted as a pass.
        judge: name of the judge that produced it ("ocr", "vlm:<model>", "router").
        reason: a short human-readable reason.
        evidence: e.g. ``{"ocr_text": str, "box": [x0, y0, x1, y1]}`` (pixels), or None.
        p_yes: the judge's probability of "yes" in [0, 1], when it has one.
        call_failed: True when the verdict is withheld because the judge's call failed (a
            request failed after its retries, a model's forward pass, the OCR engine, an image
            the judge could not read), as opposed to a check the judge could not decide.
            Serialised (:meth:`to_dict`) only when True, so ordinary verdicts' files keep their
            bytes.
    """

    check_id: str
    answer: Literal["yes", "no", "withheld"]
    judge: str
    reason: str = ""
    evidence: dict[str, Any] | None = None
    p_yes: float | None = None
    call_failed: bool = False

    def __post_init__(self):
        if self.answer not in ANSWERS:
            raise ValueError(
                f"verdict for check {self.check_id!r}: answer must be one of {ANSWERS}, got {self.answer!r}"
            )

    @property
    def passed(self) -> bool:
        return self.answer == "yes"

    def to_dict(self) -> dict[str, Any]:
        """The fields as a dict (``dataclasses.asdict``), ``call_failed`` only when True."""
        d = asdict(self)
        if not self.call_failed:
            del d["call_failed"]
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Verdict":
        return Verdict(**d)


RECORD_FIELDS = (
    "item_id",
    "check",
    "question",
    "tag",
    "form",
    "answer",
    "p_yes",
    "judge",
    "reason",
    "evidence",
    "call_failed",
)
"""The fields of one verdict record (:func:`verdict_record`), in line order."""


def verdict_record(item: Item, check: Check, verdict: Verdict, **extra: Any) -> dict[str, Any]:
    """One line of a ``verdicts.jsonl``, the same record in ``rubricloop-judge``, ``rubricloop-refine``
    and ``rubricloop-eval`` (README: "Judge existing images").

    Fields (:data:`RECORD_FIELDS`): ``item_id``; ``check`` (the check id; BizGenEval: the 1-based
    question index); the check's ``question``, ``tag`` and ``form`` (the compiler's question form,
    ``Check.form``); the verdict's ``answer`` (yes / no / withheld), ``p_yes`` (the judge's
    probability of yes, None when it has none), ``judge``, ``reason``, ``evidence`` (None or a
    dict) and ``call_failed`` (True: withheld because the judge's call failed). ``extra``: fields
    a command adds after them (refine ``iteration``, judge and eval ``fingerprint``).
    """
    return {
        "item_id": item.id,
        "check": check.id,
        "question": check.question,
        "tag": check.tag,
        "form": check.form,
        "answer": verdict.answer,
        "p_yes": verdict.p_yes,
        "judge": verdict.judge,
        "reason": verdict.reason,
        "evidence": verdict.evidence,
        "call_failed": verdict.call_failed,
    } | extra


def record_check(record: dict[str, Any]) -> str:
    """The check id of a ``verdicts.jsonl`` line: ``check``, or ``check_id`` in the lines of
    refine runs made before the shared record.

    Raises:
        KeyError: the line has neither.
    """
    return str(record["check"] if "check" in record else record["check_id"])


def record_verdict(record: dict[str, Any]) -> Verdict:
    """The :class:`Verdict` a ``verdicts.jsonl`` line (:func:`verdict_record`, or an older refine
    line) records.

    Raises:
        KeyError, TypeError, ValueError: a line that is no verdict record (a torn last line).
    """
    return Verdict(
        record_check(record),
        record["answer"],
        record["judge"],
        record.get("reason", ""),
        record.get("evidence"),
        record.get("p_yes"),
        bool(record.get("call_failed", False)),
    )


def withheld(check: Check, judge: str, reason: str, *, call_failed: bool = False) -> Verdict:
    """A withheld verdict for ``check`` (the judge could not answer it); ``call_failed``: because
    the judge's call failed (see :class:`Verdict`)."""
    return Verdict(check.id, "withheld", judge, reason, call_failed=call_failed)
