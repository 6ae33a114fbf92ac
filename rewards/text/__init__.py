"""The offline judge's reading and reasoning: OCR reading, languages, the question compiler,
grounding, text matching, text style and the keyword rules.

May import: ``rewards.common``, ``rewards.models``. Never imports a judge.
"""
