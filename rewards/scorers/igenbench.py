"""IGenBench Q-ACC and I-ACC.

Source: IGenBench (text-to-infographic generation), §3 evaluation and §5.2 tables: every
question is answered binarily, ambiguity counts as not satisfied (so a withheld or missing
verdict is not satisfied);

    Q-ACC = satisfied questions / all questions       (pooled over all images)
    I-ACC = images with every question satisfied / images

Per question type (``Check.tag``: Title, Chart Type, ..., Data Encoding) Q-ACC is pooled the
same way.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rewards.scorers.coverage import Results, coverage


def score_igenbench(results: Results) -> dict[str, Any]:
    """Q-ACC and I-ACC in [0, 1], and Q-ACC per question type.

    Returns:
        ``{"q_acc", "i_acc", "by_type": {tag: {"count", "q_acc"}}, "images", "questions",
        "coverage"}``; ``q_acc`` is None without questions, ``i_acc`` None without images.
        An image with no questions counts as fully correct for I-ACC.
    """
    satisfied = questions = perfect = 0
    by_type = defaultdict(lambda: [0, 0])  # tag -> [satisfied, questions]
    for item, verdicts in results:
        ok = [c.id in verdicts and verdicts[c.id].answer == "yes" for c in item.rubric.checks]
        satisfied += sum(ok)
        questions += len(ok)
        perfect += all(ok)
        for check, passed in zip(item.rubric.checks, ok):
            by_type[check.tag][0] += passed
            by_type[check.tag][1] += 1
    return {
        "q_acc": satisfied / questions if questions else None,
        "i_acc": perfect / len(results) if results else None,
        "by_type": {t: {"count": n, "q_acc": s / n} for t, (s, n) in sorted(by_type.items())},
        "images": len(results),
        "questions": questions,
        "coverage": coverage(results),
    }
