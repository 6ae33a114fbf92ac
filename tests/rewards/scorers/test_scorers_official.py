"""Scorers on fixtures in each benchmark's official result format, against the official formulas.

The expected numbers were produced by running the official scorers, outside this repository,
on files with the same content (OpenGVLab/GenExam ``cal_score.py`` at 6f324dd, kodenii/
ProImage-Bench ``calc_metrics.py`` at 0c6bb8e); for IGenBench (MisterBrookT/IGenBench
``score_cli.py`` at f4b253a, which needs its own package to run) they are hand-computed with its
formula, written next to each number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rewards.importers import load_items
from rewards.rubric import RubricError
from rewards.scorers.genexam import score_genexam
from rewards.scorers.genexam_results import read_genexam_result
from rewards.scorers.igenbench import score_igenbench_questions
from rewards.scorers.igenbench_results import igenbench_item, read_igenbench_results, write_igenbench_result
from rewards.scorers.techimage_results import result_entries, score_entries, score_results_file, techimage_items

# ---------------------------------------------------------------- GenExam


def _ratings(s, r, l):
    return {"Spelling": {"score": s}, "Clarity and Readability": {"score": r}, "Logical Consistency": {"score": l}}


GENEXAM = [  # id, subject, weights, answers, (spelling, readability, logic)
    ("Physics_1", "Physics", [1 / 3, 1 / 3, 1 / 3], [1, 1, 1], (2, 2, 2)),
    ("Physics_2", "Physics", [0.1234567, 0.8765433], [1, 0], (2, 1, 2)),  # semantic rounds to 0.1235
    ("Physics_3", "Physics", [0.5, 0.5], [True, None], (1, 1, 1)),  # null answer: not correct
    ("Chemistry_1", "Chemistry", [0.25, 0.75], [0, 1], (0, 2, 1)),
    ("Math_1", "Math", [1.0], [1], (2, 2, 2)),
]


def genexam_files(tmp_path: Path) -> tuple[Path, Path]:
    rows, results = [], tmp_path / "eval_results"
    results.mkdir()
    for i, subject, weights, answers, ratings in GENEXAM:
        row = {
            "id": i,
            "subject": subject,
            "prompt": "draw",
            "scoring_points": [{"question": f"p{k}?", "score": w} for k, w in enumerate(weights)],
        }
        rows.append(row)
        (results / f"{i}.json").write_text(
            json.dumps({**row, "answers": [{"answer": a} for a in answers], "global_evaluation": _ratings(*ratings)})
        )
    data = tmp_path / "exam.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data, results


def test_genexam_equals_official_cal_score(tmp_path):
    data, results = genexam_files(tmp_path)
    items, _ = load_items(data)
    found = {it.id: read_genexam_result(results, it) for it in items}
    s = score_genexam([(it, found[it.id][0]) for it in items], {i: f[1] for i, f in found.items()})
    # cal_score.py on the same files: per item relaxed 1.0, 0.336, 0.5, 0.675, 1.0; semantic 1.0, 0.1235, 0.5, 0.75, 1.0
    assert [r["relaxed"] for r in s["items"]] == [1.0, 0.336, 0.5, 0.675, 1.0]
    assert [r["semantic"] for r in s["items"]] == [1.0, 0.1235, 0.5, 0.75, 1.0]
    # "Average strict score: 40.0%", relaxed 0.7022 (70.2%), semantic_correctness 0.6747, spelling 1.4,
    # readability 1.6, logical_consistency 1.6
    assert s["overall"] == pytest.approx(
        {
            "strict": 40.0,
            "relaxed": 70.22,
            "semantic": 67.47,
            "spelling": 1.4,
            "readability": 1.6,
            "logical_consistency": 1.6,
        }
    )
    # per subject as printed: Chemistry 0.0% / 67.5%, Math 100.0% / 100.0%, Physics 33.3% / 61.2%
    assert {k: (round(v["strict"], 1), round(v["relaxed"], 1)) for k, v in s["by_subject"].items()} == {
        "Chemistry": (0.0, 67.5),
        "Math": (100.0, 100.0),
        "Physics": (33.3, 61.2),
    }
    # the pre-2026-03-29 overall: mean of the three subject means
    assert s["overall_subject_mean"]["strict"] == pytest.approx((0 + 100 + 100 / 3) / 3)
    assert s["overall_subject_mean"]["relaxed"] == pytest.approx((67.5 + 100 + 61.2) / 3)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.pop("global_evaluation"), "field 'global_evaluation' is missing"),
        (lambda d: d["answers"][1].pop("answer"), r"answers\[1\] has no field 'answer'"),
    ],
)
def test_genexam_file_without_ratings_or_answer_is_an_error_naming_it(tmp_path, edit, message):
    data, results = genexam_files(tmp_path)
    items, _ = load_items(data)
    path = results / "Physics_1.json"
    d = json.loads(path.read_text())
    edit(d)
    path.write_text(json.dumps(d))
    with pytest.raises(RubricError, match=message) as e:
        read_genexam_result(results, items[0])
    assert str(path) in str(e.value) and "Physics_1" in str(e.value)


# ---------------------------------------------------------------- IGenBench


def _vis(item_id, entries):
    return {
        "id": item_id,
        "t2i_prompt": "A chart.",
        "chart_type": "bar",
        "reference_image_url": None,
        "generation": {},
        "evaluation": [
            {
                "source": src,
                "ground": "x",
                "question": f"q{k}?",
                "question_type": qt,
                "judgments": [{"gen_model": gm, "eval_model": "em", "analysis": "", "answer": a} for gm, a in js],
            }
            for k, (src, qt, js) in enumerate(entries)
        ],
    }


def igenbench_files(tmp_path: Path) -> Path:
    out = tmp_path / "outputs"
    files = {
        "1": _vis("1", [("prompt", "Title", [("A", "1"), ("B", "0")]), ("seed", "Legend", [("A", "1")])]),
        "2": _vis(
            "2",
            [
                ("prompt", "Title", [("A", "0")]),
                ("seed", "Axes", []),  # unjudged question
                ("seed", "Legend", [("A", 1)]),
            ],
        ),  # int 1: str(1) == "1"
        "3": _vis("3", [("prompt", "Title", [("A", True)]), ("prompt", "Axes", [("A", "yes")])]),  # neither is "1"
        "4": _vis("4", [("prompt", "Title", [])]),  # never judged by A
    }
    for i, data in files.items():
        (out / i).mkdir(parents=True)
        (out / i / f"{i}.json").write_text(json.dumps(data))
    (out / "5").mkdir()
    (out / "5" / "5.json").write_text("{not json")
    return out


def test_igenbench_reader_equals_score_cli(tmp_path):
    per_pair, errors = read_igenbench_results(igenbench_files(tmp_path))
    assert len(errors) == 1 and "5.json" in errors[0] and "not readable JSON" in errors[0]
    assert set(per_pair) == {("A", "em"), ("B", "em")}
    s = score_igenbench_questions(per_pair[("A", "em")])
    # score_cli.py for (A, em): judged 2 + 2 + 2 = 6 (item 2's Axes unjudged; item 4 not judged by A),
    # correct "1","1" + 1 -> 3 of 6
    assert (s["correct"], s["judged"], s["unjudged"], s["q_acc"]) == (3, 6, 1, 0.5)
    # by source: prompt: "1","0",True,"yes" -> 1/4; seed: "1", 1 -> 2/2
    assert s["by_source"] == {
        "prompt": {"correct": 1, "judged": 4, "q_acc": 0.25},
        "seed": {"correct": 2, "judged": 2, "q_acc": 1.0},
    }
    # by type: Title "1","0",True -> 1/3; Legend 2/2; Axes "yes" -> 0/1
    assert {t: v["q_acc"] for t, v in s["by_type"].items()} == {
        "Axes": 0.0,
        "Legend": 1.0,
        "Title": pytest.approx(1 / 3),
    }
    # the paper's Q-ACC counts the unjudged question as failed: 3 / 7
    assert s["q_acc_all_questions"] == pytest.approx(3 / 7)
    # I-ACC: item 1 all "1" -> perfect; item 2 has an unjudged question -> withheld; item 3 fails
    assert (s["images"], s["i_acc"], s["i_acc_withheld"], s["i_acc_all_images"]) == (3, 0.5, 1, pytest.approx(1 / 3))
    b = score_igenbench_questions(per_pair[("B", "em")])
    assert (b["correct"], b["judged"], b["unjudged"]) == (0, 1, 1)  # item 1 only: "0", Legend unjudged by B


def test_igenbench_files_the_official_scorer_skips_whole_are_not_counted(tmp_path):
    """VISItem.from_dict (igenbench/vis_item.py) iterates each question's "judgments" and the
    "evaluation" list: a null there (or a number) raises, and score_cli.py skips the whole file, the
    other questions' judgments included. Before this, a file with one null "judgments" had its
    other judgments counted (61 of 163 cells differed from the official scorer on such a set)."""
    out = igenbench_files(tmp_path)
    clean, clean_errors = read_igenbench_results(out)
    bad = _vis("6", [("prompt", "Title", [("A", "1")]), ("seed", "Legend", [("A", "1")])])
    bad["evaluation"][1]["judgments"] = None
    (out / "6").mkdir()
    (out / "6" / "6.json").write_text(json.dumps(bad))
    empty = {"id": "7", "t2i_prompt": "p", "evaluation": None}
    (out / "7").mkdir()
    (out / "7" / "7.json").write_text(json.dumps(empty))
    text = _vis("8", [("prompt", "Title", [("A", "1")]), ("seed", "Legend", [("A", "1")])])
    text["evaluation"][1]["judgments"] = "none"  # iterable: its characters are ignored, the file is read
    (out / "8").mkdir()
    (out / "8" / "8.json").write_text(json.dumps(text))
    per_pair, errors = read_igenbench_results(out)
    assert len(errors) == len(clean_errors) + 2
    assert any("6.json: question 2's 'judgments' is null" in e for e in errors)
    assert any("7.json: field 'evaluation' is null" in e for e in errors)
    s, before = score_igenbench_questions(per_pair[("A", "em")]), score_igenbench_questions(clean[("A", "em")])
    # item 6 adds nothing; item 8 adds its Title "1" (Legend unjudged): 3/6 -> 4/7
    assert (before["correct"], before["judged"]) == (3, 6)
    assert (s["correct"], s["judged"], s["unjudged"]) == (4, 7, before["unjudged"] + 1)


def test_igenbench_written_files_read_back(tmp_path):
    src = tmp_path / "1.json"
    src.write_text(json.dumps(_vis("1", [("prompt", "Title", []), ("seed", "Legend", []), ("seed", "Axes", [])])))
    item = igenbench_item(src)
    from rewards.rubric import Verdict

    verdicts = {"1": Verdict("1", "yes", "ocr"), "2": Verdict("2", "no", "ocr"), "3": Verdict("3", "withheld", "ocr")}
    path = write_igenbench_result(tmp_path / "out", item, verdicts, "tiny_sd3", "ocr", "images/1.png")
    assert path == tmp_path / "out" / "1" / "1.json"
    per_pair, errors = read_igenbench_results(tmp_path / "out")
    s = score_igenbench_questions(per_pair[("tiny_sd3", "ocr")])
    assert not errors and (s["correct"], s["judged"], s["unjudged"]) == (1, 2, 1)


# ---------------------------------------------------------------- TechImage / ProImage-Bench

TECHIMAGE = [
    {"task_id": "bio_1", "rubrics": [{"Cell": [1, 0, 1]}, {"Label": [1]}]},
    {"task_id": "bio_1_general", "rubrics": [{"Clarity": [1, 1]}, {"Style": [0, 0]}]},
    {"task_id": "engineering_7", "rubrics": [{"Gear": [1, None, 0]}, {"Axis": ["1", 1]}]},
    {"task_id": "engineering_7_general", "rubrics": [{"Clarity": [True, 0.5]}, "odd", {"Style": "x"}]},
    {"task_id": "general_3", "rubrics": [{"Chart": [0, 0, 0]}, {}]},
    {"task_id": "general_3_general", "rubrics": [{"Clarity": [1, 1]}]},
]


def test_techimage_results_file_equals_calc_metrics(tmp_path):
    (tmp_path / "results.json").write_text(json.dumps(TECHIMAGE))
    scores, errors = score_results_file(tmp_path)
    # python calc_metrics.py <mode> on the same file
    official = {
        "all": (0.5, 0.7083333333333334, 20, 10, 9, 3),
        "bio": (0.625, 0.6875, 8, 5, 4, 1),
        "engineering": (0.42857142857142855, 0.8333333333333334, 7, 3, 3, 1),
        "general": (0.4, 0.5625, 5, 2, 2, 1),
    }
    for mode, (acc, score, total, ones, criteria, tasks) in official.items():
        s = scores[mode]
        assert (s["rubric_total"], s["rubric_ones"], s["criteria_total"], s["base_task_total"]) == (
            total,
            ones,
            criteria,
            tasks,
        )
        assert s["Acc"] == pytest.approx(acc, abs=1e-15) and s["Score"] == pytest.approx(score, abs=1e-15)
    # the two entries calc_metrics.py skips silently are error lines naming the file and task
    assert len(errors) == 2 and all(
        str(tmp_path / "results.json") in e and "engineering_7_general" in e for e in errors
    )
    # {"results": [...]} and a single object are read as calc_metrics.py reads them
    (tmp_path / "results.json").write_text(json.dumps({"results": TECHIMAGE[:2]}))
    assert score_results_file(tmp_path)[0]["all"]["Score"] == pytest.approx(0.6875)


def test_techimage_dataset_rows_merge_general_and_write_official_entries(tmp_path):
    bench = [
        {"task_id": "general_rubric", "rubrics": [{"Clarity": ["Is text legible?", "No artifacts?"]}]},
        {
            "task_id": "bio_1",
            "detailed_description": "A cell",
            "image_path": "x.png",
            "rubrics": [{"Cell": ["Nucleus?", "Wall?"]}],
        },
        {"task_id": "bio_2", "rubrics": "bad"},
    ]
    path = tmp_path / "ProImageBench.json"
    path.write_text(json.dumps(bench))
    items, errors = techimage_items(path)
    assert [it.id for it in items] == ["bio_1"] and len(errors) == 1 and "bio_2" in errors[0]
    from rewards.rubric import Verdict

    ids = [c.id for c in items[0].rubric.checks]
    answers = ["yes", "no", "withheld", "yes"]
    entries = result_entries(items[0], {i: Verdict(i, a, "j") for i, a in zip(ids, answers)}, "x.png")
    assert [e["task_id"] for e in entries] == ["bio_1", "bio_1_general"]
    assert entries[0]["rubrics"] == [{"Cell": [1, 0]}] and entries[1]["rubrics"] == [{"Clarity": [None, 1]}]
    s, _ = score_entries(entries)
    # 4 points, 2 ones -> Acc 0.5; Cell one 0 -> 0.5, Clarity no 0 (null is unjudged) -> 1; Score 0.75
    assert (s["Acc"], s["Score"]) == (0.5, 0.75)


# ---------------------------------------------------------------- tables through rubricloop-eval's score step


def test_score_step_writes_each_papers_table(tmp_path):
    from evaluation.cli import score_and_write
    from rewards.rubric import Verdict
    from rewards.scorers.verdict_results import write_verdicts

    ig = score_and_write("igenbench", None, igenbench_files(tmp_path / "ig"), tmp_path / "o_ig", 0.1)
    assert (tmp_path / "o_ig" / "igenbench_scores.csv").read_text().splitlines() == [
        "Gen Model,Eval Model,Q-ACC,I-ACC",
        "A,em,0.50,0.50",
        "B,em,0.00,",
    ]  # B's one image has an unjudged question
    assert len(ig[1]) == 1 and "5.json" in ig[1][0]
    (tmp_path / "ti").mkdir()
    (tmp_path / "ti" / "results.json").write_text(json.dumps(TECHIMAGE))
    score_and_write("techimage", None, tmp_path / "ti", tmp_path / "o_ti", 0.1)
    # calc_metrics.py: bio 0.625 / 0.6875, engineering 0.4286 / 0.8333, general 0.4 / 0.5625, all 0.5 / 0.7083
    assert (tmp_path / "o_ti" / "techimage_scores.csv").read_text().splitlines()[
        1
    ] == "0.625,0.688,0.429,0.833,0.400,0.562,0.500,0.708"
    assert "| Bio (Acc) | Bio (Score) |" in (tmp_path / "o_ti" / "techimage_scores.md").read_text()
    # GenOlympiad-style rows: two gates, weighted hard checks; verdict files written by our judge step
    rows = [
        {
            "id": f"t{k}",
            "prompt": "p",
            "criteria": [
                {
                    "name": "all",
                    "checks": [
                        {"id": "g1", "question": "?", "gate": True},
                        {"id": "h1", "question": "?", "weight": 3},
                        {"id": "h2", "question": "?", "weight": 1},
                    ],
                }
            ],
        }
        for k in range(4)
    ]
    data = tmp_path / "olymp.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    items, _ = load_items(data)
    answers = [("yes", "yes", "no"), ("no", "yes", "yes"), ("yes", "withheld", "yes"), ("yes", "yes", "yes")]
    for item, (g, h1, h2) in zip(items, answers):
        write_verdicts(tmp_path / "ol", item, {c: Verdict(c, a, "j") for c, a in zip(("g1", "h1", "h2"), (g, h1, h2))})
    summary, errors = score_and_write("genolympiad", data, tmp_path / "ol", tmp_path / "o_ol", 0.1)
    # t0 relaxed 75 strict 0; t1 gate fails -> 0; t2 withheld; t3 100 / 100 -> strict 100/3, relaxed 175/3
    assert not errors and summary["withheld"] == 1
    assert (tmp_path / "o_ol" / "genolympiad_scores.csv").read_text().splitlines()[1] == "33.3,58.3,2,1,1"
