"""The evaluation application: ``rubricloop-eval`` (cli, generate, score, merge, lora, compare,
tables), ``rubricloop-report`` (report + templates/), ``rubricloop-judge`` (judge_cli) and
``rubricloop-judge-bench`` (judge_bench, on ``documents.fidelity``).

The application on top of the house: it may import every room of ``rewards``, ``documents`` and
``refine`` (``conf/eval.yaml`` builds refine's generators for the start images); nothing in ``rewards``,
``refine`` or ``training`` imports it (tests and scripts aside).
"""
