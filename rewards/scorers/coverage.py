"""How many checks a judge actually answered: the coverage every scorer reports."""

from __future__ import annotations

from typing import Sequence

from rewards.rubric import Item
from rewards.scorers.item_scores import Verdicts

Results = Sequence[tuple[Item, Verdicts]]
"""What every scorer takes: one ``(item, verdicts by check id)`` pair per scored image."""


def coverage(results: Results) -> dict[str, float | int]:
    """Count answered, withheld and missing verdicts over all checks of all items.

    Returns:
        ``{"items", "checks", "answered", "withheld", "missing", "coverage"}``: counts, and
        ``coverage = answered / checks`` in [0, 1] (0.0 when there are no checks). A verdict
        for an id that is not one of the item's checks is ignored.
    """
    checks = answered = withheld = 0
    for item, verdicts in results:
        for check in item.rubric.checks:
            checks += 1
            v = verdicts.get(check.id)
            if v is None:
                continue
            if v.answer == "withheld":
                withheld += 1
            else:
                answered += 1
    return {
        "items": len(results),
        "checks": checks,
        "answered": answered,
        "withheld": withheld,
        "missing": checks - answered - withheld,
        "coverage": answered / checks if checks else 0.0,
    }
