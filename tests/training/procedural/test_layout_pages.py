"""The layout task's pages (training.procedural.layout_pages), the tiny generator's training data:
drawn as asked, the layout judge passes their strict checks; drawn against the prompt, it fails
them; the same seed gives the same pixels."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rewards.judges.layout import LayoutJudge
from training.procedural.layout_data import make_layout_dataset
from training.procedural.layout_pages import render_layout_page

STRICT = ("band", "card", "bars")


def _strict_rates(follow: float, n: int = 120) -> dict[str, float]:
    train, _ = make_layout_dataset(400, 0, val_fraction=0.1)
    judge, rng = LayoutJudge(), random.Random(3)
    passed: dict[str, list[bool]] = {tag: [] for tag in STRICT}
    for item in train[:n]:
        checks = [c for c in item.rubric.checks if c.tag in STRICT]
        verdicts = judge.judge([render_layout_page(item, rng, 32, follow)], [item.prompt], [checks])[0]
        for check, verdict in zip(checks, verdicts):
            passed[check.tag].append(verdict.answer == "yes")
    return {tag: sum(v) / len(v) for tag, v in passed.items()}


def test_pages_drawn_as_asked_pass_the_strict_checks():
    assert _strict_rates(1.0) == {"band": 1.0, "card": 1.0, "bars": 1.0}


def test_pages_drawn_against_the_prompt_fail_them():
    assert _strict_rates(0.0) == {"band": 0.0, "card": 0.0, "bars": 0.0}


def test_the_same_seed_draws_the_same_page_and_bad_arguments_fail():
    item = make_layout_dataset(10, 0, val_fraction=0.1)[0][0]
    one, two = (np.asarray(render_layout_page(item, random.Random(5), 32, 0.5)) for _ in range(2))
    assert one.shape == (32, 32, 3) and (one == two).all()
    with pytest.raises(ValueError, match="size must be >= 16"):
        render_layout_page(item, random.Random(0), 8)
    with pytest.raises(ValueError, match="follow must be in"):
        render_layout_page(item, random.Random(0), 32, 1.5)
