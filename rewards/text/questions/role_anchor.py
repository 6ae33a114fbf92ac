"""Anchors named by their role (issue 31): a locator phrase relative to an unquoted element the page
structure finds by role ("directly below the title", "just above the main heading", "above the
footer") becomes a ``rewards.text.questions.question_compiler.RoleAnchor`` instead of a VLM part.

Only roles that name one element of a page are anchors: the title ("title", "headline", "main
heading", "slide title") and the footer. "below the heading" (which heading?) stays a VLM part.
"""

from __future__ import annotations

import re

_ROLE_ANCHOR = re.compile(
    r"^(?:(?:located|positioned|placed|centered|centred|set|sitting|situated|shown|appearing) )?"
    r"(?P<close>(?:directly|immediately|just|right) )?"
    r"(?P<side>below|beneath|under|underneath|above)\s+"
    r"(?:the )?(?:(?:main|large|slide|page|poster|chart|document|top) ){0,2}"
    r"(?P<role>title|headline|heading|footer|footnote)$"
)
"""The phrase of a role anchor: an optional placing participle, "directly" / "immediately" /
"just" (then the relation is the close one), below / beneath / under / above, the role noun."""


def role_anchor(phrase: str) -> tuple[str, str] | None:
    """(role, relation) of a locator phrase relative to an element named by its role, or None.

    "directly below the title" -> ("title", "directly_below"); "above the footer" -> ("footer",
    "above"); "directly beneath the main heading" -> ("title", "directly_below"): a heading said to
    be main is the title. A bare "heading" names no one element: None. "below the title" without
    "directly" is None too: it stays a locator, which ``rewards.text.page.locators`` resolves only
    with at most one block of larger type between (anything below the title passed here, and a
    wrong element below it was a false "yes" on the engine-drawn landing pages).
    """
    m = _ROLE_ANCHOR.match(phrase.lower().strip())
    if m is None:
        return None
    role = m.group("role")
    main = re.search(r"\b(?:main|large|slide|page|poster|chart|document)\b", phrase.lower())
    if role == "heading" and not main:
        return None
    role = "footer" if role in ("footer", "footnote") else "title"
    side = "above" if m.group("side") == "above" else "below"
    if role == "title" and side == "below" and not m.group("close"):
        return None  # "below the title": rewards.text.page.locators checks the blocks between
    return role, ("directly_" if m.group("close") else "") + side
