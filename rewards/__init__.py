"""The rubric core: data model, importers, page reading, judges, scorers and reward functions.

Rooms, lowest first; a room imports only the standard library, third-party packages and the
rooms below it (``tests/test_import_rules.py`` walks every module with ``ast`` and fails on an
arrow up):

1. ``rewards.common``: images, files (what kind a path is, from ``stat``), one-line errors,
   shards, run-folder plumbing, W&B mode, the console-script wrapper.
2. ``rewards.models``: device helpers, tiny random-weight builders, pipeline and VLM loaders,
   the OpenAI-compatible chat client.
3. ``rewards.text``: what the offline judge reads and reasons with, in three rooms, lowest first:
   ``rewards.text.ocr`` (OCR reading, languages, text matching), ``rewards.text.questions`` (the
   question compiler, keyword rules) and ``rewards.text.page`` (the page's elements, text style,
   grounding). Never a judge.
4. The core modules at the top of ``rewards``: ``rubric``, ``importers``, ``image_stats``,
   ``leakage``, ``toy_rewards``, ``preference`` (the CLIP preference reward), ``fingerprint`` (what a
   finished item's result was made from).
5. ``rewards.judges`` and ``rewards.scorers``: side by side, neither imports the other.
6. ``rewards.reward_fns``: rewards for training, from judges and per-item scores.

The synthetic documents the judges are measured on (the adversarial and fidelity sets, the
bundled example's pages) are the top-level ``documents`` package, ranked between the core modules
and the judges: it imports ``rewards.common``, ``rewards.text`` and the core modules, never a judge.

``rewards`` never imports ``refine``, ``training`` or the evaluation application (the top-level
``evaluation`` package: ``rubricloop-eval``, ``-judge``, ``-report``, ``-judge-bench``).
"""
