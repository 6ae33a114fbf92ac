"""IGenBench Q-ACC and I-ACC.

Sources: IGenBench (text-to-infographic generation) §3 and §5.2; the official scorer
MisterBrookT/IGenBench ``igenbench/cli/score_cli.py`` (read at commit f4b253a, 2026-06-08).
Every question is answered binarily by a judge ("1" satisfied, anything else not).

- ``q_acc`` (the official code): satisfied judgments / judgments, pooled over all images.
  A question without a judgment (unjudged: our "withheld" or missing verdict) leaves the
  denominator; a judgment counts as satisfied only if ``str(answer) == "1"``. Also per question
  type (``question_type``, our ``Check.tag``) and per source (``"prompt"`` / ``"seed"``).
- ``q_acc_all_questions`` (the paper's wording, "ambiguity counts as not satisfied"):
  satisfied / all questions, unjudged ones counted as not satisfied.
- ``i_acc`` (the paper; the official code has none): images whose questions are all satisfied
  / images. An image with an unjudged question cannot be decided: it is *withheld* from I-ACC
  and counted in ``i_acc_withheld``; the paper-wording variant ``i_acc_all_images`` counts it
  as not satisfied.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Sequence

from rewards.scorers.coverage import Results, coverage


@dataclass(frozen=True)
class Judged:
    """One IGenBench question of one image.

    Attributes:
        image: the item id.
        source: ``"prompt"`` or ``"seed"`` ("" when unknown: left out of the per-source split,
            as the official code does).
        question_type: e.g. "Title", "Legend" ("" when unknown: left out of the per-type split).
        answers: the judge's answers as read (each judgment one entry; empty = unjudged).
    """

    image: str
    source: str
    question_type: str
    answers: tuple[Any, ...]


def _satisfied(answer: Any) -> bool:
    return str(answer) == "1"  # score_cli.py: correct = 1 if str(judgment.answer) == "1"


def _acc(pairs: list[tuple[int, int]]) -> dict[str, Any]:
    correct, total = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
    return {"correct": correct, "judged": total, "q_acc": correct / total if total else None}


def score_igenbench_questions(questions: Sequence[Judged]) -> dict[str, Any]:
    """Q-ACC (official: pooled over judgments) per type and source, and I-ACC, in [0, 1].

    Returns:
        ``{"q_acc", "correct", "judged", "unjudged", "q_acc_all_questions", "i_acc",
        "i_acc_all_images", "i_acc_withheld", "images", "questions", "by_type": {type:
        {"correct", "judged", "q_acc"}}, "by_source": {...}}``. Scores are None when their
        denominator is 0.
    """
    per_question = [(sum(_satisfied(a) for a in q.answers), len(q.answers)) for q in questions]
    by_type, by_source = defaultdict(list), defaultdict(list)
    images: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for q, pair in zip(questions, per_question):
        if q.question_type:
            by_type[q.question_type].append(pair)
        if q.source:
            by_source[q.source].append(pair)
        images[q.image].append(pair)
    pooled = _acc(per_question)
    satisfied_questions = sum(1 for c, n in per_question if n and c == n)
    decided = {img: all(n for _, n in ps) for img, ps in images.items()}
    perfect = {img: all(n and c == n for c, n in ps) for img, ps in images.items()}
    n_decided = sum(decided.values())
    return {
        **pooled,
        "unjudged": sum(1 for _, n in per_question if n == 0),
        "q_acc_all_questions": satisfied_questions / len(questions) if questions else None,
        "i_acc": sum(perfect[i] for i in images if decided[i]) / n_decided if n_decided else None,
        "i_acc_all_images": sum(perfect.values()) / len(images) if images else None,
        "i_acc_withheld": len(images) - n_decided,
        "images": len(images),
        "questions": len(questions),
        "by_type": {t: _acc(ps) for t, ps in sorted(by_type.items())},
        "by_source": {s: _acc(ps) for s, ps in sorted(by_source.items())},
    }


def score_igenbench(results: Results) -> dict[str, Any]:
    """:func:`score_igenbench_questions` over ``(item, verdicts)`` pairs, plus coverage.

    A "yes" verdict is a satisfied judgment, "no" an unsatisfied one, a withheld or missing
    verdict an unjudged question. The type is ``Check.tag``; the source is
    ``item.meta["question_sources"][check.id]`` when the item carries it (the IGenBench
    result reader sets it), else "".
    """
    questions = []
    for item, verdicts in results:
        sources = item.meta.get("question_sources", {})
        for check in item.rubric.checks:
            v = verdicts.get(check.id)
            answers = () if v is None or v.answer == "withheld" else ("1" if v.answer == "yes" else "0",)
            questions.append(Judged(item.id, sources.get(check.id, ""), check.tag, answers))
    return {**score_igenbench_questions(questions), "coverage": coverage(results)}
