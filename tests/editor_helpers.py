"""Helpers shared by the text editor's tests (``tests/refine/editors/``)."""

from __future__ import annotations

from rewards.importers import expectations_of
from rewards.rubric import Check, Verdict
from rewards.text.questions.question_compiler import compile_question


def failed(question: str):
    """The question compiled as check "q1" and handed to the editor as failed (an OCR "no")."""
    spec = compile_question(question)
    chk = Check("q1", question, expects=expectations_of(spec), spec=spec)
    return [(chk, Verdict("q1", "no", "ocr", ""))]
