"""The one adapter between our rewards and trl's reward-function contract.

trl's ``GRPOTrainer`` (trl 1.16, ``GRPOTrainer._calculate_rewards``) calls each reward function as
``fn(prompts=..., completions=..., completion_ids=..., trainer_state=..., log_extra=...,
log_metric=..., **columns)``, where ``columns`` holds every dataset column but ``prompt``, one value
per completion, and expects one ``float | None`` per completion back (None becomes NaN and is left
out of that completion's weighted sum). Our rewards instead score *items*: a rubric
(``rewards.rubric.Item``, which cannot be a dataset column) against a text the policy wrote.

:class:`TrlReward` bridges the two: the dataset carries an ``item_id`` column, the adapter looks
the items up, turns conversational completions (``[{"role": "assistant", "content": ...}]``) into
text, calls a :class:`TextScorer`, logs why a completion was refused (``guard/<reason>`` counts
through ``log_metric``, a ``problem`` column in trl's completions table through ``log_extra``), and
returns the rewards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from rewards.rubric import Item


@dataclass
class Scored:
    """What a :class:`TextScorer` returns for N texts: ``rewards`` (N floats or None: no reward),
    ``problems`` (N: why a text was refused and got the refusal reward, or None), and ``columns``
    (extra per-text values for trl's completions table, each a list of N)."""

    rewards: list[float | None]
    problems: list[str | None]
    columns: dict[str, list] = field(default_factory=dict)


class TextScorer(Protocol):
    """Scores texts a policy wrote for items: ``scorer(items, texts) -> Scored``."""

    name: str

    def __call__(self, items: Sequence[Item], texts: Sequence[str]) -> Scored: ...


def completion_text(completion: Any) -> str:
    """The text of one trl completion: a string as is; a conversational completion (a list of
    message dicts) -> the content of its messages, joined (a list of content parts -> their
    ``text`` parts)."""
    if isinstance(completion, str):
        return completion
    parts = []
    for message in completion:
        content = message.get("content", "") if isinstance(message, dict) else str(message)
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        parts.append(str(content))
    return "".join(parts)


PROBLEM_KINDS = {
    "dropped the quoted string": "dropped_quote",
    "rewrite of": "over_cap",
    "empty rewrite": "empty",
    "empty instruction": "empty",
    "leaks held-out item": "leak",
}
"""Refusal reasons (``rewards.rewriting.rewrite_problem``, ``training.text.rewards``) by their
opening words -> the metric name they are counted under (``guard/<reward>/<kind>``)."""


def problem_kind(problem: str) -> str:
    """The metric name of a refusal reason: :data:`PROBLEM_KINDS` by its opening words
    ("dropped the quoted string ..." -> "dropped_quote"), else its first two words, lower case,
    joined by ``_``."""
    text = problem.lower().strip()
    for opening, kind in PROBLEM_KINDS.items():
        if text.startswith(opening):
            return kind
    words = [w for w in text.replace(":", " ").split() if w.isalpha()][:2]
    return "_".join(words) or "refused"


class TrlReward:
    """A reward function in trl's contract over a :class:`TextScorer` and the items by id.

    Args:
        scorer: scores ``(items, texts)``.
        items: item id -> ``Item``, every id the dataset's ``item_id`` column holds.
        on_scored: called after each batch with ``(items, texts, scored)`` (the run's own logs).

    ``__name__`` is the scorer's ``name``: trl logs ``rewards/<name>/mean`` and ``/std`` under it.

    Call: ``reward(prompts, completions, item_id, log_extra=None, log_metric=None, **kwargs) ->
    list[float | None]``, one per completion.

    Raises:
        ValueError: no ``item_id`` column, an id not in ``items``, or the scorer returned the wrong
            number of rewards (one line naming the reward).
    """

    def __init__(
        self,
        scorer: TextScorer,
        items: Mapping[str, Item],
        on_scored: Callable[[Sequence[Item], Sequence[str], Scored], None] | None = None,
    ):
        self.scorer, self.items, self.on_scored = scorer, dict(items), on_scored
        self.__name__ = scorer.name

    def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        item_id: Sequence[str] | None = None,
        log_extra: Callable[[str, list], None] | None = None,
        log_metric: Callable[[str, float], None] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        if item_id is None:
            raise ValueError(f"reward {self.__name__!r} needs the dataset column 'item_id' (one per completion)")
        unknown = [i for i in item_id if i not in self.items]
        if unknown:
            raise ValueError(f"reward {self.__name__!r}: item_id {unknown[0]!r} is not one of the run's items")
        if len(item_id) != len(completions):
            raise ValueError(f"reward {self.__name__!r}: {len(completions)} completions, {len(item_id)} item ids")
        items = [self.items[i] for i in item_id]
        texts = [completion_text(c) for c in completions]
        scored = self.scorer(items, texts)
        if not len(scored.rewards) == len(scored.problems) == len(texts):
            raise ValueError(
                f"reward {self.__name__!r} returned {len(scored.rewards)} rewards and {len(scored.problems)} problems"
                f" for {len(texts)} completions"
            )
        if log_metric is not None:
            log_metric(f"guard/{self.__name__}/refused", sum(p is not None for p in scored.problems) / len(texts))
            kinds: dict[str, int] = {}
            for p in scored.problems:
                if p is not None:
                    kinds[problem_kind(p)] = kinds.get(problem_kind(p), 0) + 1
            for kind, n in sorted(kinds.items()):
                log_metric(f"guard/{self.__name__}/{kind}", n / len(texts))
        if log_extra is not None:
            log_extra("problem", [p or "" for p in scored.problems])
            for name, values in scored.columns.items():
                log_extra(name, list(values))
        if self.on_scored is not None:
            self.on_scored(items, texts, scored)
        return list(scored.rewards)
