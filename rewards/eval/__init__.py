"""The evaluation application: ``rubricloop-eval`` (cli, generate, score, merge, lora, compare,
tables), ``rubricloop-report`` (report + templates/), ``rubricloop-judge`` (judge_cli) and
``rubricloop-judge-bench`` (judge_bench, fidelity_set).

May import: every room of ``rewards``. Nothing outside ``rewards.eval`` imports it (tests and
scripts aside).
"""
