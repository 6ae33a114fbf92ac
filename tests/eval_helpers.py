"""A fast deterministic judge for the eval pipeline tests (tesseract takes seconds per image).

``PixelJudge`` answers check k of an image "yes" iff ``(sum of the image's RGB bytes + k) % 3 == 0``
and withholds checks whose id ends in "9": the answers depend on the image (a LoRA that changes
the image changes them) and there are yes, no and withheld verdicts to score.
"""

from __future__ import annotations

import numpy as np

from rewards.rubric import Verdict


class PixelJudge:
    name = "pixel"

    def can_answer(self, check) -> bool:
        return True

    def judge(self, images, prompts, checks):
        out = []
        for image, cs in zip(images, checks):
            total = int(np.asarray(image, dtype=np.int64).sum())
            verdicts = []
            for k, c in enumerate(cs):
                if c.id.endswith("9"):
                    verdicts.append(Verdict(c.id, "withheld", self.name, "pixel judge withholds ids ending in 9"))
                else:
                    verdicts.append(
                        Verdict(c.id, "yes" if (total + k) % 3 == 0 else "no", self.name, f"sum {total} + {k}")
                    )
            out.append(verdicts)
        return out
