"""The three pluggable parts of the refine loop besides the judge (see rewards.judges.base), and
what the loop reads from a structured editor."""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from PIL import Image

from rewards.rubric import Check, Criterion, Item, Verdict

Failure = tuple[Check, Verdict]
"""A failed check with the verdict that failed it (its evidence may hold an OCR box)."""


def failures_by_criterion(item: Item, failures: Sequence[Failure]) -> list[tuple[Criterion, list[Failure]]]:
    """``failures`` grouped by the criterion each check belongs to, criteria in rubric order,
    failures in the order given. Every writer edits per criterion (TechImage-Bench §5.1).

    Raises:
        ValueError: a failed check is not in ``item``'s rubric (names the item and the check).
    """
    groups: dict[int, list[Failure]] = {}  # id(criterion) -> its failures
    for check, verdict in failures:
        try:
            criterion = item.rubric.criterion_of(check.id)
        except KeyError:
            raise ValueError(f"item {item.id!r}: failed check {check.id!r} is not in its rubric") from None
        groups.setdefault(id(criterion), []).append((check, verdict))
    return [(c, groups[id(c)]) for c in item.rubric.criteria if id(c) in groups]


class Writer(Protocol):
    """Turns an item's failed checks into an edit instruction (TechImage-Bench §5.1)."""

    name: str

    def write(self, image: Image.Image, item: Item, failures: Sequence[Failure]) -> str:
        """Return the instruction text: imperative edits, one line per criterion with failures."""
        ...


class Editor(Protocol):
    """Edits an image to follow an instruction."""

    name: str

    def edit(self, image: Image.Image, instruction: str, failures: Sequence[Failure], seed: int) -> Image.Image:
        """Return the edited image (RGB). ``failures`` lets structured editors (the text editor)
        act on the checks directly; instruction editors use ``instruction`` only."""
        ...


@runtime_checkable
class StructuredEditor(Editor, Protocol):
    """An editor that acts on the failed checks directly and logs what it did (the text editor).

    The loop tells one apart with ``isinstance(editor, StructuredEditor)`` (it has every member
    below) and records ``last_actions`` after each edit in ``instructions.jsonl``
    (``editor_actions``), tallied by ``refine.editors.edit_log.tally_edits``.
    """

    last_actions: list[dict[str, Any]]
    """What the last ``edit`` did, one dict per expected string it handled: ``text``, ``check``,
    ``action`` ("replace", "place ...", "skip: <why not>", "fail: ..."), the boxes and pixels it
    changed (the text editor's docstring lists every key)."""


class Generator(Protocol):
    """Makes the first image of an item that has no starting image."""

    name: str

    def generate(self, prompt: str, seed: int) -> Image.Image:
        """Return an RGB image for ``prompt``; the same seed gives the same image."""
        ...
