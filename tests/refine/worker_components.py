"""Components for the worker tests (tests/refine/test_refine_workers.py), built by name in worker
processes (``_target_: worker_components.MarkJudge``): fast, deterministic, and one that dies.

A worker process imports this module from ``tests/refine/``, which pytest put on ``sys.path``
(a "spawn" child starts with its parent's ``sys.path``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from PIL import Image

from rewards.rubric import Verdict

MARK = (255, 0, 0)


class MarkJudge:
    """Answers "yes" to every check of an image whose top-left pixel is :data:`MARK`, else "no"."""

    name = "mark"

    def can_answer(self, check) -> bool:
        return True

    def judge(self, images, prompts, checks):
        answers = ["yes" if im.convert("RGB").getpixel((0, 0)) == MARK else "no" for im in images]
        return [[Verdict(c.id, a, self.name, f"pixel (0, 0) {a}") for c in cs] for a, cs in zip(answers, checks)]


class MarkEditor:
    """Paints the top-left pixel :data:`MARK`. The item with index ``die_index`` (the loop seeds an
    item's edits with ``seed + 1000 * index + k``, seed 0 here) ends its process with
    ``os._exit(9)`` (a killed worker) when ``die_once`` names a file that does not exist yet, and
    creates it first: the next run refines that item."""

    name = "mark"

    def __init__(self, die_index: int | None = None, die_once: str | None = None, sleep_s: float = 0.0):
        self.die_index, self.die_once, self.sleep_s = die_index, die_once, sleep_s

    def edit(self, image: Image.Image, instruction: str, failures, seed: int) -> Image.Image:
        time.sleep(self.sleep_s)  # a slow editor: a test can act while every worker is busy
        if self.die_index == seed // 1000 and self.die_once and not Path(self.die_once).exists():
            Path(self.die_once).touch()
            os._exit(9)
        edited = image.convert("RGB").copy()
        edited.putpixel((0, 0), MARK)
        return edited
