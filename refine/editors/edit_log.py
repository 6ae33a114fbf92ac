"""Per-item accounting of what a structured editor did to each expected string.

The text editor reports one action per expected string per edit (``TextEditor.last_actions``);
the refine loop folds them into the item's ``edits`` record with :func:`tally_edits`.
"""

from __future__ import annotations

from typing import Any

CATEGORIES = ("added", "rewritten", "left_alone")


def category(action: str) -> str:
    """ "added" for a placed string ("place", "place (in its empty badge)", ...), "rewritten" for a
    replaced one, else "left_alone" (skipped: already on the page, no free space, over a bound)."""
    if action == "place" or action.startswith("place ("):
        return "added"
    if action.startswith("replace"):
        return "rewritten"
    return "left_alone"


def tally_edits(edits: dict[str, Any], actions: list[dict]) -> None:
    """Fold one edit's ``actions`` into ``edits`` (in place): ``edits["strings"]`` maps each
    string (its first 80 characters) to its category; a string once added or rewritten keeps
    that category in later iterations. ``edits[c]`` for c in ``CATEGORIES`` counts distinct
    strings."""
    strings = edits.setdefault("strings", {})
    for act in actions:
        key, cat = act["text"][:80], category(act["action"])
        if strings.get(key) in (None, "left_alone"):
            strings[key] = cat
    for cat in CATEGORIES:
        edits[cat] = sum(1 for v in strings.values() if v == cat)
