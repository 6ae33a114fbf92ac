"""The layout task's pages (training.procedural.layout_pages), the tiny generator's training data:
drawn as asked, the layout judge passes their strict checks; drawn against the prompt, it fails
them; the same seed gives the same pixels."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rewards.judges.layout import LayoutJudge, bar_runs, luminance, page_kind
from rewards.rubric import Check
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


@pytest.mark.parametrize("follow", [1.0, 0.0])
def test_every_chart_reads_as_a_chart_and_every_slide_as_a_slide(follow):
    """The kind judge (``page_kind``: the layout_kind gold reward's) reads each drawn page as its
    kind, whatever its bars do; a slide never passes the bars check, and the gaps between a chart's
    bars are at least an eighth of the page (4 px at 32 px: the tiny generator's patch)."""
    train, _ = make_layout_dataset(400, 0, val_fraction=0.1)
    judge, rng, kinds, gaps = LayoutJudge(), random.Random(7), [], []
    for item in train[:120]:
        lum = luminance(render_layout_page(item, rng, 32, follow))
        kinds.append((item.meta["kind"], page_kind(lum)))
        bars = bar_runs(lum)[1]
        if item.meta["kind"] == "chart":
            assert len(bars) == 3, (item.id, bars)
            gaps += [b[0] - a[1] for a, b in zip(bars, bars[1:])]
        else:
            assert judge.judge_one(lum, Check("b", "Do the bars rise from left to right?")).answer == "no"
    assert all(asked == read for asked, read in kinds), [k for k in kinds if k[0] != k[1]]
    assert 40 < len(gaps) / 2 < 80 and min(gaps) >= 4, sorted(gaps)[:5]
