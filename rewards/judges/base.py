"""The judge interface shared by the OCR judge, the VLM judges and the router."""

from __future__ import annotations

from typing import Protocol, Sequence

from PIL import Image

from rewards.rubric import Check, Verdict


class Judge(Protocol):
    """Answers binary checks about images, in batches.

    Attributes:
        name: recorded in every verdict the judge produces.
    """

    name: str

    def can_answer(self, check: Check) -> bool:
        """True when this judge can decide ``check`` (the router asks before routing)."""
        ...

    def judge(
        self,
        images: Sequence[Image.Image],
        prompts: Sequence[str],
        checks: Sequence[Sequence[Check]],
    ) -> list[list[Verdict]]:
        """Answer ``checks[i]`` about ``images[i]`` (generated from ``prompts[i]``).

        Returns one list per image, one verdict per check, in the order given. A check the judge
        could not decide (request failed, answer unparseable, refused) gets a ``withheld``
        verdict; a judge never raises for one bad image or answer.
        """
        ...
