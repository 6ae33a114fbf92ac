"""The offline instruction writer: failed checks grouped per criterion into imperative edits."""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from refine.interfaces import Failure
from rewards.rubric import Check, Criterion, Item

_WHERE = {"top": " at the top", "bottom": " at the bottom", "left": " on the left", "right": " on the right", None: ""}


def edit_for(check: Check) -> str:
    """One imperative edit for a failed check.

    A check with text expectations becomes ``Render the text "X" exactly[ at the top]``, one
    clause per expected string; any other check becomes ``Change the image so that the answer to
    "<question>" is yes``.
    """
    if check.expects:
        return "; ".join(f'Render the text "{e.text}" exactly{_WHERE[e.region]}' for e in check.expects)
    return f'Change the image so that the answer to "{check.question}" is yes'


class TemplateWriter:
    """Writes one instruction line per criterion with failures (TechImage-Bench §5.1 groups the
    failed points of a criterion into one edit). Deterministic, no model."""

    name = "template"

    def write(self, image: Image.Image, item: Item, failures: Sequence[Failure]) -> str:
        by_criterion: dict[int, tuple[Criterion, list[str]]] = {}
        for check, _ in failures:
            criterion = item.rubric.criterion_of(check.id)
            by_criterion.setdefault(id(criterion), (criterion, []))[1].append(edit_for(check))
        lines = []
        for criterion, edits in by_criterion.values():
            prefix = f"{criterion.name}: " if len(criterion.checks) > 1 else ""
            lines.append(prefix + ". ".join(edits) + ".")
        return "\n".join(lines)
