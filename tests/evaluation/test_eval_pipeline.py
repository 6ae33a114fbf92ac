"""``rubricloop-eval`` generate -> judge -> score, judge-only, resume, LoRA + leakage, shard/merge, compare.

Runs in-process through Hydra's compose API with ``generator=tiny`` (random weights, 32 px) and a
fast deterministic test judge (tests/eval_helpers.py); the scores are checked against the
official formula applied to the result files the run wrote.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_module
from PIL import Image

from evaluation.cli import run
from evaluation.compare import compare, load_per_item
from evaluation.compare import main as compare_main
from evaluation.generate import resolution
from evaluation.merge import merge
from refine.cli import bundled_example
from rewards.common.shards import parse_shard, select_shard
from rewards.importers import load_items
from rewards.rubric import Item, Rubric
from rewards.scorers.bizgeneval_results import read_result_file

JUDGE = "judge._target_=eval_helpers.PixelJudge"
DATA = bundled_example()


@pytest.fixture(autouse=True)
def _helpers_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))
    monkeypatch.setenv("WANDB_MODE", "disabled")


def eval_run(*overrides: str) -> int:
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(
            config_name="eval", overrides=["~judge", "+judge={_target_: eval_helpers.PixelJudge}", *overrides]
        )
    return run(cfg)


def official_penalty(result_file: Path, alpha: float = 0.1) -> float:
    """BizGenEval summarize.py on one file, all questions: max(0, 1 - alpha * (questions not exactly True))."""
    meta = json.loads(result_file.read_text())["meta_info"]
    return max(0.0, 1 - alpha * sum(1 for e in meta.values() if e.get("result") is not True))


def test_resolution_follows_the_benchmark_aspect_ratio():
    def item(ar="", wh=""):
        return Item("1", "p", Rubric(()), meta={"aspect_ratio": ar, "reference_image_wh": wh})

    assert resolution(item(), 1024, 1024) == (1024, 1024)
    assert resolution(item("16:9"), 1024, 1024) == (768, 1360)  # sqrt(1024^2 * 9/16) = 768, * 16/9 = 1365.3 -> 1360
    assert resolution(item("16:9", "1000x1000"), 1024, 1024) == (1024, 1024)  # reference_image_wh wins
    assert resolution(item("2:3", "938x1330"), 512, 512, multiple=64) == (640, 448)  # 608.9 -> 640, 429.4 -> 448
    assert resolution(item("garbage"), 32, 32) == (32, 32)


def test_generate_judge_score_writes_official_files_tables_report_and_resumes(tmp_path, capsys):
    out = tmp_path / "base"
    sizes = ["generator.height=64", "generator.width=64"]
    assert eval_run(f"data={DATA}", "generator=tiny", *sizes, "limit=3", f"out={out}") == 0
    items, _ = load_items(DATA)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["total_items"] == 3 and scores["not_scored"]["missing"] == []
    for item in items[:3]:
        # official image and result names; sizes follow the row's aspect ratio at 64 x 64 pixels
        image = Image.open(out / "images" / f"{item.id}.png")
        assert image.size[::-1] == resolution(item, 64, 64)
        status, verdicts = read_result_file(out / "results", item)
        assert status == "ok" and len(verdicts) == len(item.rubric.checks)
    # 140 is 938x1330: h = sqrt(4096 * 1330 / 938) = 76.2 -> 80, w = 53.7 -> 48 (multiples of 16)
    assert Image.open(out / "images" / "140.png").size == (48, 80)
    per_item = {r["id"]: r["metrics"]["all"] for r in scores["per_item"]}
    assert per_item == {it.id: pytest.approx(official_penalty(out / "results" / f"{it.id}.json")) for it in items[:3]}
    # the share of questions answered True equals the "accuracy" the official judge stores in the file
    assert {r["id"]: r["metrics"]["accuracy"] for r in scores["per_item"]} == {
        it.id: pytest.approx(json.loads((out / "results" / f"{it.id}.json").read_text())["accuracy"])
        for it in items[:3]
    }
    assert scores["coverage"]["withheld"] == sum(1 for it in items[:3] for c in it.rubric.checks if c.id.endswith("9"))
    for name in ("summary_by_domain.csv", "summary_by_dimension.csv", "summary_by_domain.md", "report.html"):
        assert (out / name).is_file(), name
    # the report says failed and withheld apart (a withheld question is not a failure it saw)
    html = (out / "report.html").read_text()
    first = items[0]
    _, verdicts = read_result_file(out / "results", first)
    withheld = sum(v.answer == "withheld" for v in verdicts.values())
    failed = sum(v.answer == "no" for v in verdicts.values())
    assert f"{failed} of {len(first.rubric.checks)} questions failed, {withheld} withheld" in html
    # resume: the same command regenerates nothing and gives the same scores
    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "images").iterdir()}
    assert eval_run(f"data={DATA}", "generator=tiny", *sizes, "limit=3", f"out={out}") == 0
    assert {p.name: p.stat().st_mtime_ns for p in (out / "images").iterdir()} == stamps
    assert json.loads((out / "scores.json").read_text())["per_item"] == scores["per_item"]
    # other settings into the same folder are refused in one line
    capsys.readouterr()
    assert eval_run(f"data={DATA}", "generator=tiny", *sizes, "limit=3", "seed=5", f"out={out}") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other settings (seed" in err
    # GenExam's official files need global ratings no judge preset gives: refused up front
    assert eval_run("benchmark=genexam", f"data={DATA}", "generator=tiny", f"out={tmp_path / 'gx'}") == 2
    assert "need the judge's three global 0-2 ratings" in capsys.readouterr().err


def test_judge_existing_images_and_score_only(tmp_path):
    out = tmp_path / "judged"
    assert eval_run(f"data={DATA}", f"images={DATA.parent / 'images'}", "limit=2", f"out={out}", "report=false") == 0
    items, _ = load_items(DATA)
    for item in items[:2]:  # the images were copied, unchanged
        assert np.array_equal(
            np.asarray(Image.open(out / "images" / f"{item.id}.png")), np.asarray(Image.open(item.image).convert("RGB"))
        )
    rescored = tmp_path / "rescored"
    assert eval_run(f"data={DATA}", f"results={out / 'results'}", f"out={rescored}", "report=false") == 0
    a, b = (json.loads((p / "scores.json").read_text()) for p in (out, rescored))
    assert b["not_scored"]["missing"] == [it.id for it in items[2:]]
    assert b["per_item"] == a["per_item"]
    assert (out / "summary_by_domain.csv").read_bytes() == (rescored / "summary_by_domain.csv").read_bytes()


def make_lora_checkpoint(run_dir: Path) -> Path:
    """A LoRA on the tiny SD3 transformer with non-zero weights, saved as training/checkpoint.py saves it."""
    import torch
    from diffusers import StableDiffusion3Pipeline
    from peft import LoraConfig
    from peft.utils import get_peft_model_state_dict

    from rewards.models.tiny_pipelines import tiny_sd3_pipeline

    pipe = tiny_sd3_pipeline(seed=0)
    pipe.transformer.add_adapter(LoraConfig(r=4, lora_alpha=4, target_modules=["to_q", "to_k", "to_v", "to_out.0"]))
    torch.manual_seed(0)
    with torch.no_grad():
        for name, p in pipe.transformer.named_parameters():
            if "lora_" in name:
                p.normal_(0, 0.5)
    folder = run_dir / "step_1"
    StableDiffusion3Pipeline.save_lora_weights(
        folder, transformer_lora_layers=get_peft_model_state_dict(pipe.transformer), safe_serialization=True
    )
    return folder


def test_lora_changes_the_images_and_leakage_is_flagged(tmp_path, capsys):
    ckpt = make_lora_checkpoint(tmp_path / "ckpt" / "run1")
    items, _ = load_items(DATA)
    # the run's recorded training data holds one benchmark prompt, lightly rewritten
    (ckpt.parent / "training_data.jsonl").write_text(
        json.dumps({"id": "slide-1", "prompt": "A clean slide titled Q3"})
        + "\n"
        + json.dumps({"id": "copied", "prompt": items[1].prompt.upper() + "!"})
        + "\n"
    )
    base, lora = tmp_path / "base", tmp_path / "lora"
    assert eval_run(f"data={DATA}", "generator=tiny", "limit=2", f"out={base}", "report=false") == 0
    capsys.readouterr()
    assert eval_run(f"data={DATA}", "generator=tiny", "limit=2", f"lora={ckpt}", f"out={lora}", "report=false") == 0
    err = capsys.readouterr().err
    assert f"LEAKAGE: benchmark item {items[1].id} of" in err and "training prompt copied" in err
    assert f"benchmark item {items[0].id} " not in err
    a = np.asarray(Image.open(base / "images" / f"{items[0].id}.png"), dtype=int)
    b = np.asarray(Image.open(lora / "images" / f"{items[0].id}.png"), dtype=int)
    assert a.shape == b.shape and np.abs(a - b).mean() > 1.0  # same seed, the LoRA changed the image
    # a run that recorded no training data: a loud warning, not silence
    (ckpt.parent / "training_data.jsonl").unlink()
    assert (
        eval_run(f"data={DATA}", "generator=tiny", "limit=1", f"lora={ckpt}", f"out={tmp_path / 'l2'}", "report=false")
        == 0
    )
    assert "cannot check this LoRA's training data" in capsys.readouterr().err


@pytest.mark.slow
def test_multirun_shards_cover_every_item_once_and_merge_equals_one_run(tmp_path, capsys):
    """``rubricloop-eval -m shard=0/2,1/2`` with Hydra's basic launcher (as the shipped SLURM
    example launcher would spread it), then ``merge``."""
    import yaml

    assert parse_shard("1/3") == (1, 3) and parse_shard(None) is None
    with pytest.raises(ValueError, match="shard must be i/n"):
        parse_shard("3/3")
    assert [k for k, _ in select_shard(list("abcdefg"), "1/3")] == [1, 4]
    example = yaml.safe_load(
        (Path(__file__).parents[2] / "conf" / "hydra" / "launcher" / "slurm_example.yaml").read_text()
    )
    assert example["defaults"][0] == {"engine": "submitit_slurm"} and "timeout_min" in example
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    images = DATA.parent / "images"
    assert eval_run(f"data={DATA}", f"images={images}", "limit=5", f"out={single}", "report=false") == 0
    env = {
        "WANDB_MODE": "disabled",
        "PYTHONPATH": f"{Path(__file__).parents[2]}:{Path(__file__).parents[1]}",
        "PATH": "/usr/bin:/bin",
    }
    proc = subprocess.run(
        [
            str(Path(sys.executable).parent / "rubricloop-eval"),
            "-m",
            "~judge",
            "+judge={_target_: eval_helpers.PixelJudge}",
            f"data={DATA}",
            f"images={images}",
            "limit=5",
            f"out={sharded}",
            "report=false",
            "shard=0/2,1/2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sorted(p.name for p in sharded.iterdir() if p.is_dir()) == ["shard_0-of-2", "shard_1-of-2"]
    assert merge(sharded, report=False) == 0
    a, b = (json.loads((p / "scores.json").read_text()) for p in (single, sharded))
    assert sorted(a["per_item"], key=lambda r: r["id"]) == sorted(b["per_item"], key=lambda r: r["id"])
    assert b["shards"] == {"n": 2, "items_per_shard": {"0": 3, "1": 2}}
    assert (single / "summary_by_domain.csv").read_bytes() == (sharded / "summary_by_domain.csv").read_bytes()
    records = {
        p: sorted(json.dumps(json.loads(x), sort_keys=True) for x in (p / "verdicts.jsonl").open())
        for p in (single, sharded)
    }
    assert records[single] == records[sharded] and len(records[single]) > 5  # merge gathers the shards' verdict records
    # an item claimed by two shards is refused, naming it
    shard1 = sharded / "shard_1-of-2" / "shard.json"
    meta = json.loads(shard1.read_text())
    first = json.loads((sharded / "shard_0-of-2" / "shard.json").read_text())["items"][0]
    shard1.write_text(json.dumps({**meta, "items": meta["items"] + [first]}))
    capsys.readouterr()
    assert merge(sharded, report=False) == 1
    assert f"item {first} is in shards [0, 1]" in capsys.readouterr().err
    shutil.rmtree(sharded / "shard_1-of-2")
    assert merge(sharded, report=False) == 1
    assert "shard(s) 1/2 missing" in capsys.readouterr().err


def _scores(folder: Path, values: dict[str, float], groups: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    per_item = [{"id": i, "groups": {"domain": groups[i]}, "metrics": {"all": v}} for i, v in values.items()]
    (folder / "scores.json").write_text(json.dumps({"benchmark": "bizgeneval", "per_item": per_item}))
    return folder


def test_compare_paired_bootstrap_flags_intervals_containing_zero(tmp_path, capsys):
    ids = [str(i) for i in range(8)]
    groups = {i: "slides" if int(i) < 4 else "chart" for i in ids}
    base = _scores(tmp_path / "a", {i: 0.5 for i in ids}, groups)
    # slides: +0.25 on every item (CI is exactly [0.25, 0.25]); chart: +-0.5 alternately (mean 0)
    lora = _scores(tmp_path / "b", {i: 0.75 if int(i) < 4 else (1.0 if int(i) % 2 else 0.0) for i in ids}, groups)
    rows = compare(load_per_item(str(base))[1], load_per_item(str(lora))[1], n_boot=500, seed=0)
    by = {r["group"]: r for r in rows}
    assert by["domain=slides"]["delta"] == pytest.approx(0.25)
    assert (by["domain=slides"]["ci_low"], by["domain=slides"]["ci_high"]) == pytest.approx((0.25, 0.25))
    assert not by["domain=slides"]["contains_zero"]
    assert by["domain=chart"]["delta"] == pytest.approx(0.0) and by["domain=chart"]["contains_zero"]
    assert by["domain=chart"]["ci_low"] < 0 < by["domain=chart"]["ci_high"]
    assert by["all"]["delta"] == pytest.approx(0.125) and by["all"]["n"] == 8
    # seeded: the same call gives the same interval
    assert compare(load_per_item(str(base))[1], load_per_item(str(lora))[1], n_boot=500, seed=0) == rows
    assert compare_main([str(base), str(lora), "--n-boot", "200", "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    assert "| domain=slides | all | 4 | 0.5000 | 0.7500 | +0.2500 | +0.2500 | +0.2500 | * |" in printed
    assert (tmp_path / "cmp" / "compare.csv").is_file()


def test_compare_refine_iteration_zero_with_best(tmp_path):
    run_dir = tmp_path / "refine"
    run_dir.mkdir()
    items = [
        {"id": "a", "scores": [{"pass_rate": 0.2}, {"pass_rate": 0.6}], "best_iteration": 1, "error": None},
        {"id": "b", "scores": [{"pass_rate": 0.5}], "best_iteration": 0, "error": None},
        {"id": "c", "scores": [], "best_iteration": None, "error": "bad image"},
    ]
    (run_dir / "summary.json").write_text(json.dumps({"items": items, "iterations": 1}))
    label_a, a = load_per_item(f"{run_dir}:initial")
    label_b, b = load_per_item(f"{run_dir}:best")
    rows = compare(a, b, n_boot=100)
    assert label_a.endswith(":initial") and set(a) == {"a", "b"}
    assert rows[0]["delta"] == pytest.approx((0.4 + 0.0) / 2)


def test_refine_takes_shard_too(tmp_path):
    from refine.cli import run as refine_run

    outs = []
    with initialize_config_module(config_module="conf", version_base="1.3"):
        for spec in ("0/2", "1/2"):
            out = tmp_path / spec.replace("/", "-of-")
            cfg = compose(
                config_name="refine",
                overrides=[
                    "~judge",
                    "+judge={_target_: eval_helpers.PixelJudge}",
                    "iterations=0",
                    "limit=5",
                    f"shard={spec}",
                    f"out={out}",
                    "wandb.mode=disabled",
                ],
            )
            assert refine_run(cfg) == 0
            summary = out / f"shard_{out.name}" / "summary.json"  # a shard writes <out>/shard_i-of-n/, as eval's
            outs.append([it["id"] for it in json.loads(summary.read_text())["items"]])
    items, _ = load_items(DATA)
    ids = [it.id for it in items[:5]]
    assert outs == [ids[0::2], ids[1::2]]


def _noise_images(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True)
    rng = np.random.default_rng(1)
    for name in names:
        Image.fromarray(rng.integers(0, 255, (16, 24, 3), dtype=np.uint8)).save(folder / f"{name}.png")
    return folder


def test_judge_writes_official_techimage_and_igenbench_files(tmp_path):
    from rewards.scorers.igenbench_results import read_igenbench_results
    from rewards.scorers.techimage_results import score_results_file

    bench = [
        {"task_id": "general_rubric", "rubrics": [{"Clarity": ["Legible?", "Clean?"]}]},
        {"task_id": "bio_1", "detailed_description": "A cell", "rubrics": [{"Cell": ["Nucleus?", "Wall?", "Label?"]}]},
        {
            "task_id": "engineering_2",
            "detailed_description": "A gear",
            "rubrics": [{"Gear": ["Teeth?"]}, {"Axis": ["Axis?"]}],
        },
    ]
    (tmp_path / "ProImageBench.json").write_text(json.dumps(bench))
    images = _noise_images(tmp_path / "ti_images", ["bio_1", "engineering_2"])
    out = tmp_path / "ti"
    assert (
        eval_run(
            "benchmark=techimage",
            f"data={tmp_path / 'ProImageBench.json'}",
            f"images={images}",
            f"out={out}",
            "report=false",
        )
        == 0
    )
    entries = json.loads((out / "results" / "results.json").read_text())
    assert [e["task_id"] for e in entries] == ["bio_1", "bio_1_general", "engineering_2", "engineering_2_general"]
    assert all(v in (0, 1) for e in entries for c in e["rubrics"] for vs in c.values() for v in vs)
    scores = json.loads((out / "scores.json").read_text())
    official, _ = score_results_file(out / "results")
    assert scores["scores"]["all"]["Acc"] == official["all"]["Acc"] and set(scores["scores"]) == {
        "all",
        "bio",
        "engineering",
    }

    data = tmp_path / "igen"
    data.mkdir()
    for i in ("1", "2"):
        (data / f"{i}.json").write_text(
            json.dumps(
                {
                    "id": i,
                    "t2i_prompt": "A chart",
                    "evaluation": [
                        {
                            "source": "prompt",
                            "ground": "4",
                            "question": "How many bars?",
                            "question_type": "Data Marks",
                            "judgments": [],
                        },
                        {
                            "source": "seed",
                            "ground": "Q4",
                            "question": "Which is highest?",
                            "question_type": "Data Ordering",
                            "judgments": [],
                        },
                    ],
                }
            )
        )
    images = _noise_images(tmp_path / "ig_images", ["1", "2"])
    out = tmp_path / "ig"
    assert eval_run("benchmark=igenbench", f"data={data}", f"images={images}", f"out={out}", "report=false") == 0
    per_pair, errors = read_igenbench_results(out / "results")
    assert not errors and list(per_pair) == [("images:ig_images", "pixel")]
    scores = json.loads((out / "scores.json").read_text())
    judged = [q for q in per_pair[("images:ig_images", "pixel")]]
    assert scores["models"][0]["scores"]["judged"] == sum(len(q.answers) for q in judged) == 4


def test_a_resume_may_add_the_verdict_cache():
    """The verdict cache changes no verdict, so it is not part of what a resumed run must share."""
    from evaluation.cli import run_settings

    def settings(*overrides):
        with initialize_config_module(config_module="conf", version_base="1.3"):
            return run_settings(compose(config_name="eval", overrides=[f"data={DATA}", "generator=tiny", *overrides]))

    plain, cached = settings(), settings("judge.cache=/tmp/v.sqlite")
    assert plain == cached and "cache" not in plain["judge"]
    assert settings("judge=tiny")["judge"] != plain["judge"]  # another judge is still another setting
