"""Procedural training data (slides, charts, posters), its JSONL round trip, and the leakage guard."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from rewards.importers import load_items
from rewards.leakage import LeakageError, check_leakage, find_leaks, load_heldout, normalize_prompt
from rewards.reward_fns import quoted_target
from rewards.rubric import REGIONS, Item, Rubric, RubricError
from training.procedural.data import KINDS, make_dataset, read_jsonl, write_jsonl

# Held-out rows that ship in the repository, so a fresh clone runs these tests: 8 real
# BizGenEval text rows (the package's bundled held-out set) and the first 10 GenExam rows.
REPO = Path(__file__).resolve().parents[3]
BIZGENEVAL = REPO / "refine" / "example" / "bizgeneval_text.jsonl"
GENEXAM = REPO / "tests" / "fixtures" / "genexam" / "genexam_rows.jsonl"
HELDOUT = [BIZGENEVAL, GENEXAM]


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def first_row(path: Path) -> dict:
    return rows(path)[0]


def test_heldout_fixtures_are_real_benchmark_rows():
    """The fixtures hold whole benchmark prompts (8 BizGenEval, 10 GenExam), all readable."""
    assert [len(rows(p)) for p in HELDOUT] == [8, 10]
    assert len(load_heldout(HELDOUT)) == 18
    assert min(len(r["prompt"].split()) for r in rows(BIZGENEVAL)) > 400
    assert first_row(GENEXAM)["id"] == "Biology_97" and first_row(BIZGENEVAL)["id"] == 322


# ---------------------------------------------------------------- generation


def test_same_seed_same_data_other_seed_other_data():
    a = make_dataset(60, seed=3)
    b = make_dataset(60, seed=3)
    c = make_dataset(60, seed=4)
    assert a == b
    assert [it.prompt for it in a[0]] != [it.prompt for it in c[0]]


def test_sizes_split_and_kinds():
    train, val = make_dataset(50, seed=0, val_fraction=0.1)
    assert (len(train), len(val)) == (45, 5)
    items = train + val
    assert len({it.id for it in items}) == 50
    assert {it.prompt for it in train}.isdisjoint({it.prompt for it in val})
    assert [it.meta["kind"] for it in sorted(items, key=lambda it: it.id.split("-")[1])] == [
        KINDS[i % 3] for i in range(50)
    ]
    assert {it.meta["split"] for it in train} == {"train"} and {it.meta["split"] for it in val} == {"val"}
    assert all(it.source == "rubricloop" and it.image is None for it in items)

    charts, none = make_dataset(7, seed=1, kinds=("chart",), val_fraction=0.0)
    assert len(charts) == 7 and none == [] and {it.meta["kind"] for it in charts} == {"chart"}
    big_train, big_val = make_dataset(2000, seed=5, val_fraction=0.05)
    assert (len(big_train), len(big_val)) == (1900, 100)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, "n must be an integer >= 1"),
        ({"kinds": ("slide", "webpage")}, "kinds must be a non-empty subset"),
        ({"kinds": ()}, "kinds must be a non-empty subset"),
        ({"val_fraction": 1.0}, "val_fraction must be in"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"n": 10, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        make_dataset(**args)


def test_checks_are_machine_verifiable_and_match_the_prompt():
    train, val = make_dataset(90, seed=7)
    for item in train + val:
        checks = item.rubric.checks
        assert checks and all(c.expects for c in checks), item.id
        assert all(e.region in (None, *REGIONS) and e.text for c in checks for e in c.expects)
        assert len({c.id for c in checks}) == len(checks)
        # Every expected string is quoted in the prompt, or is a listed tick (``Q1 = 42``) or value.
        for c in checks:
            for e in c.expects:
                assert f'"{e.text}"' in item.prompt or f"= {e.text}" in item.prompt or f" {e.text} = " in item.prompt, (
                    item.id,
                    e.text,
                )
        # The first quoted text (the OCR reward's target) is the title, checked at the top.
        title = checks[0]
        assert title.tag == "title" and title.expects[0].region == "top"
        assert quoted_target(item.prompt) == title.expects[0].text
        spec = item.meta["spec"]
        if item.meta["kind"] == "slide":
            assert [c.expects[0].text for c in checks if c.id.startswith("bullet-")] == spec["bullets"]
            assert item.rubric.criterion_of("footer").name == "Footer"
        if item.meta["kind"] == "chart":
            values = [c.expects[0].text for c in checks if c.tag == "data_value"]
            assert values == [str(v) for series in spec["values"] for v in series]
            assert len(set(values)) == len(values)  # each value check is decided by its own number
            assert [c.expects[0] for c in checks if c.tag == "legend"] == [
                type(checks[0].expects[0])(s, "right") for s in spec["series"]
            ]
            assert next(c for c in checks if c.id == "y-label").expects[0].region == "left"
        if item.meta["kind"] == "poster":
            assert checks[-1].expects[0].text.startswith("Register at ") and checks[-1].expects[0].region == "bottom"


# ---------------------------------------------------------------- JSONL


def test_jsonl_round_trip_through_the_project_importer(tmp_path):
    train, val = make_dataset(30, seed=2)
    path = write_jsonl(train, tmp_path / "data" / "train.jsonl")
    items, errors = load_items(path)
    assert errors == []
    assert items == train
    assert read_jsonl(path) == train
    row = json.loads(path.read_text().splitlines()[0])
    assert set(row) == {"id", "prompt", "criteria", "meta"}
    assert set(row["criteria"][0]["checks"][0]) == {"id", "question", "tag", "expects"}


def test_edited_jsonl_with_a_bad_row_names_file_line_and_field(tmp_path):
    train, _ = make_dataset(3, seed=0, val_fraction=0.0)
    path = write_jsonl(train, tmp_path / "train.jsonl")
    lines = path.read_text().splitlines()
    row = json.loads(lines[1])
    row["criteria"][0]["checks"][0]["expects"][0]["region"] = "middle"
    lines[1] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RubricError) as e:
        read_jsonl(path)
    msg = str(e.value)
    assert f"{path}:2 (item {row['id']})" in msg and "field 'region'" in msg and "\n" not in msg


def test_write_jsonl_refuses_unserialisable_meta(tmp_path):
    item = Item("x-1", "p", Rubric(()), meta={"bad": object()})
    with pytest.raises(RubricError, match="item x-1: field 'meta'"):
        write_jsonl([item], tmp_path / "x.jsonl")


# ---------------------------------------------------------------- leakage guard


def test_generated_data_passes_the_leakage_guard():
    train, val = make_dataset(600, seed=0)
    check_leakage(train + val, HELDOUT)


def test_near_duplicate_of_a_bizgeneval_prompt_is_refused():
    train, _ = make_dataset(40, seed=0)
    source = first_row(BIZGENEVAL)
    words = source["prompt"].split()
    # A light rewrite: two words changed, upper-cased, punctuation dropped.
    words[3], words[10] = "wide", "horizontal"
    near = Item("chart-99999", " ".join(words).upper().replace(",", ""), Rubric(()))
    with pytest.raises(LeakageError) as e:
        check_leakage(train + [near], HELDOUT)
    msg = str(e.value)
    assert "\n" not in msg
    assert f"chart-99999 nearly duplicates {BIZGENEVAL} item {source['id']}" in msg
    assert [(lk.train_id, lk.heldout_id, lk.exact) for lk in e.value.leaks] == [
        ("chart-99999", str(source["id"]), False)
    ]
    # The score is rapidfuzz's token_set_ratio of the normalised prompts, computed independently here.
    want = fuzz.token_set_ratio(normalize_prompt(near.prompt), normalize_prompt(source["prompt"]))
    assert e.value.leaks[0].score == pytest.approx(want, abs=1e-3)
    assert 90 <= want < 100


@pytest.mark.parametrize("path", HELDOUT, ids=["bizgeneval", "genexam"])
def test_every_heldout_row_is_refused_when_lightly_rewritten(path):
    """Each held-out row, upper-cased with its first and last words replaced, is refused as
    a near (not exact) duplicate of that row and no other."""
    near = []
    for r in rows(path):
        words = r["prompt"].split()
        words[0], words[-1] = "Zorblax", "quux."  # words no benchmark prompt contains
        near.append(Item(f"slide-{r['id']}", " ".join(words).upper(), Rubric(())))
    with pytest.raises(LeakageError) as e:
        check_leakage(near, HELDOUT)
    assert [(lk.train_id, lk.heldout_id, lk.exact) for lk in e.value.leaks] == [
        (f"slide-{r['id']}", str(r["id"]), False) for r in rows(path)
    ]
    want = [
        fuzz.token_set_ratio(normalize_prompt(it.prompt), normalize_prompt(r["prompt"]))
        for it, r in zip(near, rows(path))
    ]
    assert [lk.score for lk in e.value.leaks] == pytest.approx(want, abs=1e-3)
    assert min(want) >= 90  # 100 where the replaced words also occur elsewhere in the prompt


def test_exact_and_truncated_copies_are_refused_and_short_subsets_are_not():
    genexam = first_row(GENEXAM)
    bizgen = first_row(BIZGENEVAL)
    words = bizgen["prompt"].split()
    exact = Item("slide-1", "  " + re.sub(r"[.,']", " ", genexam["prompt"]).lower(), Rubric(()))
    truncated = Item("slide-2", " ".join(words[: int(len(words) * 0.6)]), Rubric(()))
    # Eight words of a 100+ word prompt: token_set_ratio is 100 (a subset), but it is no copy.
    subset = Item("slide-3", " ".join(words[:8]), Rubric(()))
    assert fuzz.token_set_ratio(normalize_prompt(subset.prompt), normalize_prompt(bizgen["prompt"])) == 100
    leaks = find_leaks([exact, truncated, subset], load_heldout(HELDOUT))
    assert [(lk.train_id, lk.heldout_id, lk.exact) for lk in leaks] == [
        ("slide-1", str(genexam["id"]), True),
        ("slide-2", str(bizgen["id"]), False),
    ]
    assert leaks[0].heldout_file == str(GENEXAM) and leaks[0].score == 100.0


def test_bad_heldout_file_is_an_error(tmp_path):
    bad = tmp_path / "held.jsonl"
    bad.write_text('{"id": 1, "prompt": "x"}\n')
    with pytest.raises(
        RubricError, match=r"held-out file .*held.jsonl: 1 bad row\(s\); first: .*held.jsonl:1 \(item 1\)"
    ):
        check_leakage([], [bad])
    with pytest.raises(ValueError, match="threshold must be in"):
        find_leaks([], [], threshold=120)


def test_command_line_writes_both_splits(tmp_path):
    from training.procedural.data import main

    main(["--n", "12", "--seed", "4", "--kinds", "poster", "--val-fraction", "0.25", "--out", str(tmp_path)])
    train, val = make_dataset(12, 4, ("poster",), 0.25)
    assert read_jsonl(tmp_path / "train.jsonl") == train and len(train) == 9
    assert read_jsonl(tmp_path / "val.jsonl") == val and len(val) == 3
