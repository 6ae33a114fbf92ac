"""Benchmark scorers: lists of ``(Item, verdicts by check id)`` in, benchmark numbers out.

Each scorer applies its benchmark's policy for missing and withheld verdicts and reports
coverage (:func:`rewards.scorers.coverage.coverage`):

- :mod:`rewards.scorers.bizgeneval`: BizGenEval penalty score (per domain, dimension, subset).
- :mod:`rewards.scorers.techimage`: TechImage-Bench rubric accuracy and criterion score.
- :mod:`rewards.scorers.igenbench`: IGenBench Q-ACC and I-ACC.
- :mod:`rewards.scorers.genexam`: GenExam and GenOlympiad strict and relaxed scores.

Result-file interop with the official tools lives in :mod:`rewards.scorers.bizgeneval_results`
and :mod:`rewards.scorers.genexam_results`.
"""
