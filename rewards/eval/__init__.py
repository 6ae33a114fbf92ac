"""The synthetic judge sets (adversarial and fidelity documents) that ``rubricloop-judge-bench``
renders; the evaluation application itself is the top-level ``evaluation`` package.

May import: every room of ``rewards`` below it. Only ``evaluation`` and tests import it.
"""
