"""ServImage scorer: the paper's settlement formulas on tasks and labels written here in the
official schema (mllmagent-jpg/ServImage @ 4772db7), every expected number computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hydra import compose, initialize_config_module

from evaluation.cli import run
from rewards.rubric import RubricError
from rewards.scorers.servimage import (
    Submission,
    Task,
    competition,
    contribution_ratio,
    cost_savings,
    score_model,
    task_value,
)
from rewards.scorers.servimage_results import (
    label_models,
    read_labels,
    read_tasks,
    score_servimage_folder,
    select_models,
)

# Price(t), Q(t): p1 Portrait $20 Q1 editing; pr1 Product $300 Q2 creation;
# d1 Digital $100 Q4 editing; d2 Digital $80 Q1 creation. B = $500.
TASKS = [
    Task("portrait-001", "Portrait", 20.0, 1, True),
    Task("product-001", "Product", 300.0, 2, False),
    Task("digital-001", "Digital", 100.0, 4, True),
    Task("digital-002", "Digital", 80.0, 1, False),
]
SUBMISSIONS = [
    Submission("portrait-001", {0: 1}),  # $20, success
    Submission("product-001", {0: 1, 1: 0}),  # $300 / 2 * 1 = $150
    Submission("digital-001", {0: 1, 1: 1, 2: 1, 3: 1}),  # $100, success
    # digital-002: nothing handed in, $0
]


def test_value_is_price_over_q_per_accepted_deliverable():
    assert task_value(300.0, 2, [1, 0]) == 150.0
    assert task_value(300.0, 2, [1, 1]) == 300.0
    assert task_value(300.0, 2, []) == 0.0
    assert task_value(90.0, 3, [0, 1]) == 30.0  # the third deliverable was not handed in
    with pytest.raises(ValueError, match="Q"):
        task_value(300.0, 0, [])
    with pytest.raises(ValueError, match="0 or 1"):
        task_value(300.0, 2, [2])
    with pytest.raises(ValueError, match="3 deliverables .* Q\\(t\\)=2"):
        task_value(300.0, 2, [1, 1, 1])


def test_model_totals_rates_and_splits():
    s = score_model(TASKS, SUBMISSIONS, api_cost=10.0)
    assert s["budget"] == 500.0 and s["earned"] == 270.0  # 20 + 150 + 100 + 0
    assert s["share"] == pytest.approx(0.54)
    assert (s["deliverables"], s["handed_in"], s["accepted"]) == (8, 7, 6)
    assert s["acceptance_rate"] == 0.75 and s["acceptance_rate_handed_in"] == pytest.approx(6 / 7)
    assert (s["successes"], s["success_rate"]) == (2, 0.5)
    assert s["tasks_with_results"] == 3
    cats = s["by_category"]
    assert (cats["Portrait"]["earned"], cats["Portrait"]["share"]) == (20.0, 1.0)
    assert (cats["Product"]["earned"], cats["Product"]["share"]) == (150.0, 0.5)
    assert cats["Digital"]["earned"] == 100.0 and cats["Digital"]["share"] == pytest.approx(100 / 180)
    assert cats["Digital"]["acceptance_rate"] == 0.8  # 4 of Q = 4 + 1
    editing, creation = s["by_mode"]["editing"], s["by_mode"]["creation"]
    assert (editing["budget"], editing["earned"], editing["acceptance_rate"]) == (120.0, 120.0, 1.0)
    assert (creation["budget"], creation["earned"]) == (380.0, 150.0)
    assert creation["acceptance_rate"] == pytest.approx(1 / 3) and creation["success_rate"] == 0.0
    # S_c = 1 - 10/500 - (300 + 80)/500 = 0.22; R_c = (20 + 100) / (10 + 300 + 80)
    assert s["cost_savings"] == pytest.approx(0.22)
    assert s["contribution_ratio"] == pytest.approx(120 / 390)
    assert [r["value"] for r in s["per_task"]] == [20.0, 150.0, 100.0, 0.0]
    assert score_model(TASKS, SUBMISSIONS)["cost_savings"] is None


def test_cost_formulas_edge_cases():
    assert cost_savings([100.0, 50.0], [1, 1], 0.0) == 1.0  # every task done, no API spend
    assert cost_savings([100.0, 50.0], [0, 0], 15.0) == pytest.approx(-0.1)  # 1 - 0.1 - 1
    assert contribution_ratio([100.0, 50.0], [1, 1], 0.0) is None  # nothing spent
    assert contribution_ratio([100.0, 50.0], [1, 0], 25.0) == 100.0 / 75.0
    assert cost_savings([], [], 5.0) is None


def test_model_refuses_inconsistent_submissions():
    with pytest.raises(ValueError, match="not a task"):
        score_model(TASKS, [Submission("video-001", {0: 1})])
    with pytest.raises(ValueError, match="two submissions"):
        score_model(TASKS, [Submission("portrait-001", {0: 1}), Submission("portrait-001", {0: 0})])
    with pytest.raises(ValueError, match="outside"):
        score_model(TASKS, [Submission("product-001", {2: 1})])


def test_competition_winner_takes_all_with_score_tie_break():
    tasks = [
        Task("t1", "Product", 100.0, 2, False),
        Task("t2", "Digital", 50.0, 1, False),
        Task("t3", "Digital", 40.0, 1, True),
        Task("t4", "Portrait", 30.0, 1, True),
    ]
    subs = {
        "A": [
            Submission("t1", {0: 1, 1: 1}, 20.0),
            Submission("t2", {0: 1}, 1.0),
            Submission("t3", {0: 0}, 15.0),
            Submission("t4", {0: 1}, None),
        ],
        "B": [
            Submission("t1", {0: 1, 1: 1}, 25.0),  # same count as A, higher summed score: B takes $100
            Submission("t2", {0: 0}, 14.0),  # fewer accepted: A takes $50 despite a lower score
            Submission("t3", {0: 0}, 15.0),  # nobody accepted: unpaid
            Submission("t4", {0: 1}, 12.0),  # A has no scores: the tie stands, $15 each
        ],
        "C": [],
    }
    c = competition(tasks, subs)
    assert c["models"]["A"]["earned"] == 65.0 and c["models"]["B"]["earned"] == 115.0
    assert c["models"]["C"]["earned"] == 0.0
    assert (c["models"]["A"]["wins"], c["models"]["A"]["shared_wins"]) == (1, 1)
    assert (c["models"]["B"]["wins"], c["models"]["B"]["shared_wins"]) == (1, 1)
    assert c["models"]["B"]["share"] == pytest.approx(115 / 220)
    assert (c["budget"], c["paid"], c["paid_tasks"], c["unpaid_tasks"]) == (220.0, 180.0, 3, 1)
    # t1's tie broken by the scores; t4's split because A has none ($30 split, $15 each)
    assert (c["ties_broken"], c["split_ties"], c["split_unscored"], c["split_budget"]) == (1, 1, 1, 30.0)
    assert c["models"]["A"]["shared_earned"] == 15.0 and c["models"]["B"]["shared_earned"] == 15.0
    assert c["winners"] == {"t1": ["B"], "t2": ["A"], "t3": [], "t4": ["A", "B"]}


def test_competition_counts_ties_equal_scores_split_and_unscored_ties():
    tasks = [Task("t1", "Product", 90.0, 1, False), Task("t2", "Digital", 60.0, 1, False)]
    subs = {
        "A": [Submission("t1", {0: 1}, 12.0), Submission("t2", {0: 1})],
        "B": [Submission("t1", {0: 1}, 12.0), Submission("t2", {0: 1})],
        "C": [Submission("t1", {0: 1}, 12.0), Submission("t2", {0: 0})],
    }
    c = competition(tasks, subs)
    # t1: a three-way tie on equal scores ($30 each); t2: A and B tie without scores ($30 each)
    assert (c["ties_broken"], c["split_ties"], c["split_unscored"], c["split_budget"]) == (0, 2, 1, 150.0)
    assert [c["models"][m]["earned"] for m in "ABC"] == [60.0, 60.0, 30.0]
    assert [c["models"][m]["shared_wins"] for m in "ABC"] == [2, 2, 1]
    assert all(c["models"][m]["wins"] == 0 for m in "ABC")


def _task(task_id, category, price, quantity):
    """One task in the official ``ServImage_Bench/C-*/<Category>.json`` schema."""
    original = {"task_name_original": "t", "requirements_original": "r", "output_quantity": quantity}
    if price is not None:
        original["price_usd"] = price
    return {"task_id": task_id, "task_category": category, "subcategory": "x", "original_task_data": original}


def _bench(root: Path) -> Path:
    bench = root / "ServImage_Bench"
    files = {
        "Portrait": [_task("portrait-001", "C-Portrait", 20, 1), _task("portrait-002", "C-Portrait", None, 1)],
        "Product": [_task("product-001", "C-Product", 300, 2), _task("product-002", "C-Product", 10, 0)],
        "Digital": [
            _task("digital-001", "C-Digital", 100, 4),
            _task("digital-002", "C-Digital", 80, 1),
            _task("digital-003", "C-Video", 5, 1),
        ],
    }
    for cat, tasks in files.items():
        (bench / f"C-{cat}").mkdir(parents=True)
        (bench / f"C-{cat}" / f"{cat}.json").write_text(json.dumps(tasks, ensure_ascii=False))
    # client images: portrait-001 has an input photo (inputs/task_1), digital-001 a reference (refs/task_001)
    # (a reference is no source image: digital-001 is creation; every Portrait task is editing)
    for sub in ("C-Portrait/inputs/task_1", "C-Digital/refs/task_001", "C-Digital/refs/task_002"):
        (bench / sub).mkdir(parents=True)
    (bench / "C-Portrait/inputs/task_1/1.png").write_bytes(b"\x89PNG")
    (bench / "C-Digital/refs/task_001/1.jpg").write_bytes(b"\xff\xd8")
    (bench / "C-Digital/refs/task_002/notes.txt").write_text("no image")  # not an image: digital-002 is creation
    return bench


def _row(model, task_id, category, idx, label, **extra):
    return {
        "model": model,
        "task_id": task_id,
        "category": category,
        "notes": "",
        "subtask_idx": idx,
        "subtask_name": f"subtask_{idx + 1}",
        "label": label,
        **extra,
    }


def _labels(root: Path) -> Path:
    results = root / "main_result"
    results.mkdir()
    m1 = [
        _row("m1", "portrait-001", "C-Portrait", 0, 1),
        _row("m1", "product-001", "C-Product", 0, 1),
        _row("m1", "product-001", "C-Product", 1, 0),
        *(_row("m1", "digital-001", "C-Digital", i, 1) for i in range(4)),
        _row("m1", "digital-002", "C-Digital", 0, 2),  # row 8: label not 0/1
        _row("m1", "digital-001", "C-Digital", 4, 1),  # row 9: more deliverables than Q = 4
        _row("m1", "product-001", "C-Video", 0, 1),  # row 10: unknown category
        _row("m1", "portrait-002", "C-Portrait", 0, 1),  # row 11: its task has no price
        _row("m1", "product-999", "C-Product", 0, 1),  # row 12: no such task
    ]
    m2 = [
        _row("m2", "product-001", "C-Product", 0, True, brf=4, veq=4, cns=4),
        _row("m2", "product-001", "C-Product", 1, False, brf=4, veq=3, cns=3),
        _row("m2", "digital-002", "C-Digital", 0, 1, brf=3, veq=3, cns=3),
    ]
    for name, rows in (("m1", m1), ("m2", m2)):
        lines = [json.dumps(r, ensure_ascii=False) for r in rows]
        (results / f"{name}_annotations.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return results


def test_reads_the_official_layout_and_reports_each_bad_task(tmp_path):
    tasks, errors, bad = read_tasks(_bench(tmp_path))
    assert [(t.task_id, t.category, t.price, t.quantity, t.editing) for t in tasks] == [
        ("digital-001", "Digital", 100.0, 4, False),
        ("digital-002", "Digital", 80.0, 1, False),
        ("portrait-001", "Portrait", 20.0, 1, True),
        ("product-001", "Product", 300.0, 2, False),
    ]
    assert bad == ["digital-003", "portrait-002", "product-002"]
    assert len(errors) == 3
    digital, portrait, product = errors
    assert "Digital.json task 3 (digital-003): field 'task_category' is \"C-Video\"" in digital
    assert "Portrait.json task 2 (portrait-002): field 'original_task_data.price_usd' is missing" in portrait
    assert "Product.json task 2 (product-002): field 'original_task_data.output_quantity' is 0" in product
    assert all(e.endswith("; task not scored") and "\n" not in e for e in errors)


def test_bad_rows_are_named_and_the_others_scored(tmp_path):
    tasks, _, bad = read_tasks(_bench(tmp_path))
    subs, handed_in, errors, bad_rows = read_labels(_labels(tmp_path), tasks, bad)
    m1_file = tmp_path / "main_result" / "m1_annotations.jsonl"
    assert bad_rows == [f"{m1_file}:{n}" for n in (8, 9, 10, 11, 12)]
    assert errors[0] == f"{m1_file} row 8 (task digital-002): field 'label' is 2, not 0 or 1; not scored"
    assert "row 9 (task digital-001): field 'subtask_idx' is 4: more deliverables than" in errors[1]
    assert "Q(t)=4" in errors[1]
    assert "row 10 (task product-001): field 'category' is \"C-Video\", not one of" in errors[2]
    assert "row 11 (task portrait-002): its task is not scored" in errors[3]
    assert "row 12 (task product-999): field 'task_id' names no task of the data" in errors[4]
    assert handed_in == {"m1": 7, "m2": 3}
    m2 = {s.task_id: s for s in subs["m2"]}
    assert m2["product-001"].accepted == {0: 1, 1: 0} and m2["product-001"].concept_score == 22.0  # 12 + 10
    assert "digital-002" not in {s.task_id for s in subs["m1"]}  # its only row was bad


def test_folder_scores_match_the_hand_computed_ones(tmp_path):
    bench, results = _bench(tmp_path), _labels(tmp_path)
    (results / "api_costs.json").write_text(json.dumps({"m1": 10.0, "m2": {"per_image": 0.5}, "m3": "cheap"}))
    summary, errors = score_servimage_folder(bench, results)
    assert len(errors) == 3 + 5 + 1 and "api_costs.json (model m3)" in errors[-1]
    assert summary["budget"] == 500.0 and summary["tasks"] == 4 and summary["editing_tasks"] == 1
    m1, m2 = (m["scores"] for m in summary["models"])
    assert m1["earned"] == 270.0 and m1["share"] == pytest.approx(0.54)  # as test_model_totals_rates_and_splits
    assert m1["cost_savings"] == pytest.approx(0.22)
    # m2: product-001 1 of 2 ($150), digital-002 ($80): $230; Cost_API = 0.5 * 3 images
    assert m2["earned"] == 230.0 and m2["acceptance_rate"] == 2 / 8 and m2["api_cost"] == 1.5
    # S_c = 1 - 1.5/500 - (20 + 300 + 100)/500; R_c = 80 / (1.5 + 420)
    assert m2["cost_savings"] == pytest.approx(1 - 1.5 / 500 - 420 / 500)
    assert m2["contribution_ratio"] == pytest.approx(80 / 421.5)
    # competition: portrait-001 m1 ($20), product-001 1 vs 1 accepted, m1 has no scores: split ($150 each),
    # digital-001 m1 ($100), digital-002 m2 ($80)
    comp = summary["competition"]["models"]
    assert comp["m1"]["earned"] == 270.0 and comp["m2"]["earned"] == 230.0
    assert (summary["competition"]["split_ties"], summary["competition"]["split_unscored"]) == (1, 1)
    assert comp["m1"]["shared_earned"] == comp["m2"]["shared_earned"] == 150.0
    assert summary["model_selection"] == {"available": ["m1", "m2"], "scored": ["m1", "m2"], "excluded": []}
    ids = {r["id"] for r in summary["per_item"]}
    assert len(ids) == 8 and "m2/digital-002" in ids


def test_rubricloop_eval_scores_a_servimage_result_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WANDB_MODE", "disabled")
    bench, results = _bench(tmp_path), _labels(tmp_path)
    (results / "m2_annotations.jsonl").unlink()
    out = tmp_path / "summary"
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=["benchmark=servimage", f"data={bench}", f"results={results}", f"out={out}", "report=false"],
        )
    assert run(cfg) == 1  # bad tasks and rows: exit 1, the rest scored and written
    err = capsys.readouterr().err
    assert err.count("error: ") == 8 and "row 8 (task digital-002): field 'label' is 2" in err
    scores = json.loads((out / "scores.json").read_text())
    assert scores["models"][0]["scores"]["earned"] == 270.0 and scores["competition"] is None
    assert {r["id"] for r in scores["per_item"]} == {"portrait-001", "product-001", "digital-001", "digital-002"}
    table = (out / "servimage_revenue.csv").read_text().splitlines()
    assert (
        table[0]
        == "Model,Revenue ($k),Share (%),Portrait ($k),Portrait (%),Product ($k),Product (%),Digital ($k),Digital (%)"
    )
    assert table[1] == "m1,0.27,54.0,0.02,100.0,0.15,50.0,0.10,55.6"
    rates = (out / "servimage_rates.csv").read_text().splitlines()[1]
    # editing: portrait-001 ($20, 1 of Q 1); creation: product-001 (1 of 2, $150), digital-001 (4 of 4,
    # $100), digital-002 (bad row: 0 of 1): acceptance 5/7, $250 of B $480
    assert rates == "m1,75.0,50.0,71.4,100.0,0.25,52.1,0.02,100.0,3/4"


def test_rubricloop_eval_refuses_to_judge_servimage(tmp_path, capsys):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=["benchmark=servimage", f"data={tmp_path}", f"images={tmp_path}", f"out={tmp_path / 'o'}"],
        )
    assert run(cfg) == 2
    assert "benchmark=servimage: its results are human payment labels" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_editing_is_a_portrait_task_or_a_source_image_in_inputs(tmp_path):
    bench = tmp_path / "ServImage_Bench"
    tasks = {
        "Portrait": [_task("portrait-001", "C-Portrait", 10, 1)],  # no image published: editing (Portrait)
        "Product": [
            _task("product-001", "C-Product", 20, 1),  # inputs/task_001/1.webp: editing
            _task("product-002", "C-Product", 30, 1),  # refs/task_2 only: creation
            _task("product-003", "C-Product", 40, 1),  # inputs/task_3 without an image: creation
        ],
    }
    for cat, rows in tasks.items():
        (bench / f"C-{cat}").mkdir(parents=True)
        (bench / f"C-{cat}" / f"{cat}.json").write_text(json.dumps(rows))
    for sub, name in (("inputs/task_001", "1.webp"), ("refs/task_2", "1.png"), ("inputs/task_3", "readme.txt")):
        (bench / "C-Product" / sub).mkdir(parents=True)
        (bench / "C-Product" / sub / name).write_bytes(b"x")
    got, errors, _ = read_tasks(bench)
    assert errors == []
    assert {t.task_id: t.editing for t in got} == {
        "portrait-001": True,
        "product-001": True,
        "product-002": False,
        "product-003": False,
    }
    results = tmp_path / "main_result"
    results.mkdir()
    rows = [_row("m", t, f"C-{t.split('-')[0].title()}", 0, 1) for t in ("portrait-001", "product-001", "product-002")]
    (results / "m_annotations.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    summary, _ = score_servimage_folder(bench, results)
    assert summary["editing_tasks"] == 2 and "Portrait task or an image in" in summary["editing_rule"]
    modes = summary["models"][0]["scores"]["by_mode"]
    assert (modes["editing"]["budget"], modes["editing"]["earned"]) == (30.0, 30.0)
    assert (modes["creation"]["budget"], modes["creation"]["earned"]) == (70.0, 30.0)


def test_model_selection_scores_only_the_chosen_label_files(tmp_path):
    bench, results = _bench(tmp_path), _labels(tmp_path)
    m3 = [_row("m3", "digital-002", "C-Digital", 0, 1), _row("m3", "portrait-001", "C-Portrait", 0, 7)]
    (results / "m3_annotations.jsonl").write_text("\n".join(json.dumps(r) for r in m3) + "\n")
    assert label_models(results) == ["m1", "m2", "m3"]
    summary, errors = score_servimage_folder(bench, results, exclude=["m1", "m3"])
    assert [m["model"] for m in summary["models"]] == ["m2"] and summary["competition"] is None
    assert summary["not_scored"]["bad_row"] == []  # m1's and m3's bad rows are not read
    assert len(errors) == 3 and all(e.endswith("task not scored") for e in errors)  # the data's 3 bad tasks
    assert summary["model_selection"] == {"available": ["m1", "m2", "m3"], "scored": ["m2"], "excluded": ["m1", "m3"]}
    assert [r["id"] for r in summary["per_item"]][:2] == ["digital-001", "digital-002"]  # one model: bare ids
    summary, errors = score_servimage_folder(bench, results, models=["m2", "m3"])
    comp = summary["competition"]
    # digital-002: m2 and m3 both accepted, m3 has no scores: split ($40 each); product-001: m2 alone, the
    # winner takes Price(t) ($300)
    assert comp["models"]["m3"]["earned"] == 40.0 and comp["models"]["m2"]["earned"] == 340.0
    assert comp["split_ties"] == 1 and len(errors) == 3 + 1 and "m3_annotations.jsonl row 2" in errors[-1]
    with pytest.raises(RubricError, match=r"servimage.exclude: no label rows for m9 \(the results have: m1, m2, m3\)"):
        select_models(["m1", "m2", "m3"], exclude=["m9"])
    with pytest.raises(RubricError, match="both name m2"):
        select_models(["m1", "m2"], models=["m2"], exclude=["m2"])
    with pytest.raises(RubricError, match="leave no model"):
        select_models(["m1"], exclude=["m1"])


def _eval_cfg(overrides):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return compose(config_name="eval", overrides=overrides)


def test_rubricloop_eval_servimage_models_and_exclude(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("WANDB_MODE", "disabled")
    bench, results = _bench(tmp_path), _labels(tmp_path)
    base = ["benchmark=servimage", f"data={bench}", f"results={results}", "report=false"]
    out = tmp_path / "m2_only"
    assert run(_eval_cfg([*base, f"out={out}", "servimage.exclude=[m1]"])) == 1  # the 3 bad tasks
    assert capsys.readouterr().err.count("error: ") == 3  # m1's 5 bad rows are not read
    scores = json.loads((out / "scores.json").read_text())
    assert [m["model"] for m in scores["models"]] == ["m2"] and scores["models"][0]["scores"]["earned"] == 230.0
    out = tmp_path / "both"
    assert run(_eval_cfg([*base, f"out={out}", "servimage.models=[m1,m2]"])) == 1
    assert "servimage competition (2 models): 1 of 4 paid tasks were ties split equally (1 without" in (
        capsys.readouterr().out
    )
    table = (out / "servimage_competition.csv").read_text().splitlines()
    assert table[0] == "Model,Revenue ($k),Share (%),Wins,Shared wins,From split ties ($k)"
    assert table[1:] == ["m1,0.27,54.0,2,1,0.15", "m2,0.23,46.0,1,1,0.15"]
    capsys.readouterr()
    assert run(_eval_cfg([*base, f"out={tmp_path / 'x'}", "servimage.models=[m1,m7]"])) == 2
    assert "error: servimage.models: no label rows for m7" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
    assert run(_eval_cfg([*base, f"out={tmp_path / 'y'}", "servimage.exclude=m1"])) == 2
    assert "servimage.exclude must be a list of model names" in capsys.readouterr().err
    other = ["benchmark=genolympiad", f"data={bench}", f"results={results}", f"out={tmp_path / 'z'}"]
    assert run(_eval_cfg([*other, "servimage.models=[m1]"])) == 2
    assert "servimage.models=... selects ServImage label files; it needs benchmark=servimage" in (
        capsys.readouterr().err
    )


def test_a_task_id_that_is_not_a_string_is_named_as_such():
    """A number where the official files have a string: "must be a string", not "missing"."""
    from rewards.scorers.servimage_results import _row_problem

    assert _row_problem(_row("m1", 3, "C-Portrait", 0, 1), None, False) == "field 'task_id' must be a string, got 3"
    row = _row("m1", "x", "C-Portrait", 0, 1)
    del row["task_id"]
    assert _row_problem(row, None, False) == "field 'task_id' is missing"
