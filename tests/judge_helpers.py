"""OCR lines drawn by hand and one question judged on them: the tester pages' judge tests share these."""

from __future__ import annotations

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question


def ocr_line(text: str, x: int, y: int, h: int, conf: float, gap: int) -> Line:
    """One OCR line: its words left to right from (x, y), ``h`` px tall, 0.55 h px per character,
    ``gap`` px apart, each read with confidence ``conf``."""
    words, cx = [], x
    for t in text.split():
        w = max(3, round(0.55 * h * len(t)))
        words.append(Word(t, (cx, y, cx + w, y + h), conf))
        cx += w + gap
    return Line(tuple(words))


def judge_question(question: str, lines: list[Line], size: tuple[int, int], image=None):
    """The offline judge's verdict on ``question`` over ``lines`` of a page of ``size`` (w, h) px."""
    chk = Check("1", question, spec=compile_question(question))
    return OCRJudge().judge_lines(lines, size, chk, image=image)
