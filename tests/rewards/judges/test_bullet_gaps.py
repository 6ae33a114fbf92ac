"""The Nth bullet of a list whose empty bullet OCR did not read (adversarial dev poster-7: the
second bullet's text left out, its dot too small to be read): the gap it leaves makes the ordinal
unsure, so the judge withholds instead of reading the next bullet as the Nth ("no")."""

from rewards.judges.ocr import OCRJudge
from rewards.rubric import Check
from rewards.text.ocr.text_match import Line, Word
from rewards.text.questions.question_compiler import compile_question


def bullet(text: str, y: int, h: int = 13) -> Line:
    """A bullet line read by OCR: the mark "•" at x = 52, its words from x = 70."""
    words, x = [Word("•", (52, y + 3, 59, y + 10), 90.0)], 70
    for t in text.split():
        w = round(0.55 * h * len(t))
        words.append(Word(t, (x, y, x + w, y + h), 95.0))
        x += w + 6
    return Line(tuple(words))


def answer(question: str, lines: list[Line]) -> str:
    return OCRJudge().judge_lines(lines, (600, 800), Check("1", question, spec=compile_question(question))).answer


def test_a_gap_in_a_list_makes_its_nth_bullet_unsure_and_an_even_list_is_read():
    third = 'Does the third bullet read exactly "Three new regional offices opened"?'
    gapped = [
        bullet("Meet the artists after each show", 307),
        bullet("Three new regional offices opened", 371),  # one pitch (32 px) left empty above it
        bullet("Open data shared with every team", 403),
    ]
    assert answer(third, gapped) == "withheld"
    # counted up to the gap (the first) or back from the end (the last), the bullet is sure
    assert answer('Does the first bullet read exactly "Meet the artists after each show"?', gapped) == "yes"
    assert answer('Does the first bullet read exactly "Open data shared with every team"?', gapped) == "no"
    assert answer('Does the last bullet read exactly "Open data shared with every team"?', gapped) == "yes"
    even = [
        bullet("Meet the artists after each show", 307),
        bullet("Guided tours of the old harbor", 339),
        bullet("Three new regional offices opened", 371),
        bullet("Open data shared with every team", 403),
    ]
    assert answer(third, even) == "yes"
    assert answer('Does the third bullet read exactly "Guided tours of the old harbor"?', even) == "no"
