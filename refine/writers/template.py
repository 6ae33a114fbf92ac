"""The offline instruction writer: failed checks grouped per criterion into imperative edits."""

from __future__ import annotations

from typing import Sequence

from PIL import Image

from refine.interfaces import Failure, failures_by_criterion
from rewards.rubric import Check, Item

_WHERE = {"top": " at the top", "bottom": " at the bottom", "left": " on the left", "right": " on the right", None: ""}


def _where(region: str | None) -> str:
    """Where a string goes, in words: the halves by name, any other place name of
    ``rewards.text.ocr.text_match.REGION_FRACTIONS`` as "in the <place>" ("top_right" -> "in the top right")."""
    return _WHERE[region] if region in _WHERE else f" in the {region.replace('_', ' ')}"


def edit_for(check: Check) -> str:
    """One imperative edit for a failed check.

    A check with text expectations becomes ``Render the text "X" exactly[ at the top]``, one
    clause per expected string; any other check becomes ``Change the image so that the answer to
    "<question>" is yes``.
    """
    if check.expects:
        return "; ".join(f'Render the text "{e.text}" exactly{_where(e.region)}' for e in check.expects)
    return f'Change the image so that the answer to "{check.question}" is yes'


class TemplateWriter:
    """Writes one instruction line per criterion with failures (TechImage-Bench §5.1 groups the
    failed points of a criterion into one edit). Deterministic, no model."""

    name = "template"

    def write(self, image: Image.Image, item: Item, failures: Sequence[Failure]) -> str:
        lines = []
        for criterion, group in failures_by_criterion(item, failures):
            prefix = f"{criterion.name}: " if len(criterion.checks) > 1 else ""
            lines.append(prefix + ". ".join(edit_for(check) for check, _ in group) + ".")
        return "\n".join(lines)
