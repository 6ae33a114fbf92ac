"""Relations to an anchor named by its role (issue 31): "directly below the title", "above the
footer" (``rewards.text.questions.question_compiler.RoleAnchor``), measured on the page structure.

The anchor's elements are found by their role's finder (``rewards.text.page.elements.find_elements``);
an occurrence of a required string stands in the relation when ``satisfies_relation`` holds to one
of them (the anchor's height as the line height; its centre beyond the anchor's edge, so the
anchor itself never passes). The rule never
answers "no" by itself: a finder may take another element for the title, so an occurrence that
fails the relation, or a role not found, leaves the part unknown (``rewards.text.page.grounding``).

Boxes are ``(x0, y0, x1, y1)`` pixels of the judged image.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from rewards.text.ocr.text_match import Line, Match
from rewards.text.page.elements import find_elements
from rewards.text.page.page_lines import Element
from rewards.text.page.relations import satisfies_relation
from rewards.text.questions.question_compiler import ElementSpec, RoleAnchor


@dataclass
class ReadRoleAnchor:
    """One role anchor as found: the spec's anchor and its elements (None: the role not found)."""

    anchor: RoleAnchor
    found: list[Element] | None


def read_role_anchors(
    anchors: tuple[RoleAnchor, ...], lines: list[Line], image: Image.Image | None, size: tuple[int, int]
) -> list[ReadRoleAnchor]:
    """Each anchor with the elements of its role on the page (``find_elements``), once per page."""
    return [ReadRoleAnchor(a, find_elements(ElementSpec(a.role), lines, image, size)) for a in anchors]


def role_anchored(kept: list[Match], anchors: list[ReadRoleAnchor]) -> list[Match]:
    """The occurrences of ``kept`` that stand in every role anchor's relation to one of its
    elements; empty when one anchor's role is not found or keeps none
    (the caller leaves the part unknown, never "no")."""
    for a in anchors:
        if not a.found:
            return []
        kept = [
            m
            for m in kept
            if any(satisfies_relation(m.box, e.box, a.anchor.relation, max(1, e.box[3] - e.box[1])) for e in a.found)
        ]
    return kept
