"""The offline judge's reading and reasoning: OCR reading, languages, the question compiler
(``question_compiler``, its steps in ``question_quotes``, ``question_form``, ``question_place``,
``question_residue`` and ``question_style``), grounding, text matching, text style and the
keyword rules.

May import: ``rewards.common``, ``rewards.models``. Never imports a judge.
"""
