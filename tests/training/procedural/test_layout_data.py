"""The layout task's data: deterministic, unique ids, every check answerable by the layout
judge, reachable as make_dataset(task="layout"), and clear of the leakage guard's held-out rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from rewards.judges.layout import LayoutJudge
from rewards.leakage import check_leakage
from training.procedural.data import TASKS, make_dataset
from training.procedural.layout_data import LAYOUT_KINDS, make_layout_dataset

REPO = Path(__file__).resolve().parents[3]
HELDOUT = [
    REPO / "refine" / "example" / "bizgeneval_text.jsonl",
    REPO / "tests" / "fixtures" / "genexam" / "genexam_rows.jsonl",
]


def test_deterministic_split_and_unique_ids():
    train, val = make_layout_dataset(200, 7, 0.1)
    again = make_layout_dataset(200, 7, 0.1)
    assert [(i.id, i.prompt, i.rubric) for i in train + val] == [
        (i.id, i.prompt, i.rubric) for i in again[0] + again[1]
    ]
    assert (len(train), len(val)) == (180, 20)
    items = train + val
    assert len({i.id for i in items}) == 200 and len({i.prompt for i in items}) == 200
    assert {i.meta["kind"] for i in items} == set(LAYOUT_KINDS)
    assert {i.meta["split"] for i in val} == {"val"} and {i.meta["split"] for i in train} == {"train"}
    assert [i.prompt for i in make_layout_dataset(200, 8, 0.1)[0]] != [i.prompt for i in train]


def test_every_check_is_answerable_by_the_layout_judge():
    train, val = make_layout_dataset(300, 0, 0.1)
    judge = LayoutJudge()
    counts = set()
    for item in train + val:
        checks = item.rubric.checks
        counts.add(len(checks))
        assert all(judge.can_answer(c) for c in checks), item.id
        assert len({c.id for c in checks}) == len(checks)
        if item.meta["kind"] == "slide":
            assert "dark title band across the top" in item.prompt and "light card on the left" in item.prompt
        else:
            assert "bars rising from left to right" in item.prompt
            assert ("title band" in item.prompt) == item.meta["spec"]["title_band"]
    assert counts == {5, 6, 8}  # slides 5; charts 6, or 8 with a title band


def test_make_dataset_dispatches_the_layout_task():
    assert "layout" in TASKS
    train, val = make_dataset(50, 3, val_fraction=0.2, task="layout")
    direct = make_layout_dataset(50, 3, 0.2)
    assert [i.prompt for i in train] == [i.prompt for i in direct[0]] and len(val) == 10
    only = make_dataset(10, 3, kinds=("chart",), val_fraction=0.0, task="layout")[0]
    assert {i.meta["kind"] for i in only} == {"chart"}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, "n must be an integer >= 1"),
        ({"val_fraction": 1.0}, r"val_fraction must be in \[0, 1\)"),
        ({"kinds": ("poster",)}, "kinds must be a non-empty subset"),
        ({"n": 5000}, "could not generate 5000 distinct"),
    ],
)
def test_bad_arguments_get_one_line_errors(kwargs, message):
    args = {"n": 10, "seed": 0, "val_fraction": 0.1, **kwargs}
    with pytest.raises(ValueError, match=message) as e:
        make_layout_dataset(**args)
    assert "\n" not in str(e.value)


def test_leakage_guard_passes_and_leaves_the_heldout_rows_untouched():
    before = [p.read_bytes() for p in HELDOUT]
    train, val = make_dataset(400, 0, val_fraction=0.1, task="layout")
    check_leakage(train, HELDOUT)  # raises LeakageError on a copy
    assert [p.read_bytes() for p in HELDOUT] == before
    assert not {i.prompt for i in train} & {i.prompt for i in val}
