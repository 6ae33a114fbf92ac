"""Benchmark scorers: lists of ``(Item, verdicts by check id)`` in, benchmark numbers out.

Each scorer applies its benchmark's policy for missing and withheld verdicts and reports
coverage (:func:`rewards.scorers.coverage.coverage`):

- :mod:`rewards.scorers.bizgeneval`: BizGenEval penalty score (per domain, dimension, subset).
- :mod:`rewards.scorers.techimage`: TechImage-Bench rubric accuracy and criterion score.
- :mod:`rewards.scorers.igenbench`: IGenBench Q-ACC and I-ACC.
- :mod:`rewards.scorers.genexam`: GenExam and GenOlympiad strict and relaxed scores.
- :mod:`rewards.scorers.servimage`: ServImage earnings on paid tasks (tasks and payment labels
  in, not verdicts; files read by :mod:`rewards.scorers.servimage_results`).

Result-file interop with the official tools (read and written in their formats):
:mod:`rewards.scorers.bizgeneval_results`, :mod:`rewards.scorers.genexam_results`,
:mod:`rewards.scorers.igenbench_results` (VISItem files), :mod:`rewards.scorers.techimage_results`
(ProImage-Bench ``results.json``), and :mod:`rewards.scorers.verdict_results` (our per-item
verdicts, for GenOlympiad-style rubric rows). Per-item scores: :mod:`rewards.scorers.item_scores`.

May import: ``rewards.common``, ``rewards.text`` and the core modules (``rewards.rubric``,
``rewards.importers``). Never a judge or ``rewards.reward_fns``.
"""
