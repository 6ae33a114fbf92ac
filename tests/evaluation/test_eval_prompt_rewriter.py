"""``rubricloop-eval ... prompt_rewriter=<folder>``: a trained prompt rewriter in front of the generator.

The policy folder is built the way ``rubricloop-train task=prompt_rewriter`` writes it (peft LoRA
on the tiny random-weight Qwen2 LM + ``rubricloop_policy.json``), with non-zero LoRA B weights so
the adapter changes what the model writes. Eval runs in-process with ``generator=tiny_sd3`` at
32 px and the deterministic pixel judge (tests/eval_helpers.py).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_module
from PIL import Image

import refine.generators
import rewards.rewriting
from evaluation.cli import run
from evaluation.generate import GENERATED_KEY, REWRITES, generation_key, item_seed, read_rewrites
from rewards.importers import load_items
from rewards.models.text_policy import load_base_policy, policy_meta, write_policy_meta
from rewards.rewriting import PromptRewriter, rewrite_messages

PIXEL = ["~judge", "+judge={_target_: eval_helpers.PixelJudge}"]
GEN = ["generator=tiny_sd3", "generator.height=32", "generator.width=32"]


@pytest.fixture(autouse=True)
def _helpers_importable(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))
    monkeypatch.setenv("WANDB_MODE", "disabled")


def eval_run(*overrides: str) -> int:
    with initialize_config_module(config_module="conf", version_base="1.3"):
        return run(compose(config_name="eval", overrides=["report=false", *PIXEL, *overrides]))


def make_rewriter(folder: Path, seed: int = 0, task: str = "prompt_rewriter"):
    """A trained-policy folder as training writes it; returns the peft model (eval mode) and tokenizer."""
    from peft import LoraConfig, get_peft_model

    model, tokenizer = load_base_policy("lm", None, True, "float32", "cpu")
    config = LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0, target_modules=["q_proj", "v_proj", "lm_head"])
    peft_model = get_peft_model(model, config)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in peft_model.named_parameters():
            if "lora_B" in name:
                p.copy_(torch.randn(p.shape, generator=gen) * 0.5)
    peft_model.save_pretrained(str(folder))
    write_policy_meta(folder, policy_meta(task, None, True, "float32", max_new_tokens=16, max_chars=400))
    return peft_model.eval(), tokenizer


def greedy(model, tokenizer, prompts: list[str]) -> list[str]:
    """Greedy generation of the rewrite request, written out here rather than through PromptRewriter."""
    texts = [
        tokenizer.apply_chat_template(rewrite_messages(p), tokenize=False, add_generation_prompt=True) for p in prompts
    ]
    inputs = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    with torch.no_grad():
        out = model.generate(**inputs, do_sample=False, max_new_tokens=16)
    return [t.strip() for t in tokenizer.batch_decode(out[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)]


QUOTES = {1: "Report 1", 2: "Quarterly sales up", 3: "Coffee 3$"}
PROMPTS = {
    1: 'a slide titled "Report 1"',
    2: 'a poster in green and white reading "Quarterly sales up" above a rising line chart',
    3: 'a cafe menu board with the line "Coffee 3$"',
}


def write_data(path: Path, n: int = 3) -> Path:
    rows = [
        {
            "id": i,
            "domain": "slides",
            "dimension": "text",
            "prompt": PROMPTS[i],
            "questions": [f"Does the slide show the word Report{k}?" for k in range(1, 4)],
            "easy_qidxs": [1],
            "hard_qidxs": [2, 3],
        }
        for i in range(1, n + 1)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def rewriter(tmp_path_factory):
    """(folder, its peft model, tokenizer): checkpoints/pr1/final with the run's training_data.jsonl."""
    folder = tmp_path_factory.mktemp("ckpt") / "pr1" / "final"
    folder.mkdir(parents=True)
    model, tokenizer = make_rewriter(folder)
    return folder, model, tokenizer


def test_the_rewriter_is_the_peft_model_greedy(rewriter):
    folder, model, tokenizer = rewriter
    prompts = ['a slide titled "Q3"', "a poster about safety"]
    expected = greedy(model, tokenizer, prompts)
    with model.disable_adapter():
        base = greedy(model, tokenizer, prompts)
    assert expected != base  # the LoRA changes what the model writes
    rw = PromptRewriter(folder)
    assert (rw.max_new_tokens, rw.max_chars) == (16, 400)
    assert rw.generate(prompts) == expected
    first = rw.rewrite(prompts[:1])[0]
    assert "Q3" not in expected[0]  # random weights: the quoted string is lost
    assert first == rewards.rewriting.Rewrite(prompts[0], expected[0], prompts[0], 'dropped the quoted string "Q3"')


def test_eval_records_refused_rewrites_and_renders_the_original(rewriter, tmp_path, capsys):
    folder, model, tokenizer = rewriter
    data = write_data(tmp_path / "data.jsonl")
    items, _ = load_items(data)
    (folder.parent / "training_data.jsonl").write_text(json.dumps({"id": "t9", "prompt": items[1].prompt}) + "\n")
    out, base = tmp_path / "rw", tmp_path / "base"
    assert eval_run(f"data={data}", *GEN, f"prompt_rewriter={folder}", f"out={out}") == 0
    captured = capsys.readouterr()
    assert "prompt_rewriter: 3 of 3 rewrites refused (dropped a quoted string, over the cap, empty); " in captured.out
    assert f"LEAKAGE: benchmark item {items[1].id} of" in captured.err and "training prompt t9" in captured.err
    assert f"benchmark item {items[0].id} " not in captured.err
    lines = [json.loads(x) for x in (out / REWRITES).read_text().splitlines()]
    texts = greedy(model, tokenizer, [it.prompt for it in items])
    assert lines == [
        {
            "id": it.id,
            "original": it.prompt,
            "rewrite": text,
            "prompt": it.prompt,
            "problem": f'dropped the quoted string "{QUOTES[int(it.id)]}"',
        }
        for it, text in zip(items, texts)
    ]
    scores = json.loads((out / "scores.json").read_text())
    assert scores["total_items"] == 3 and scores["not_scored"]["missing"] == []
    assert scores["prompt_rewriter"] == {
        "path": str(folder.resolve()),
        "rewritten": 3,
        "refused": 3,
        "refused_items": {it.id: f'dropped the quoted string "{QUOTES[int(it.id)]}"' for it in items},
    }
    run_json = json.loads((out / "run.json").read_text())
    assert run_json["prompt_rewriter"] == str(folder.resolve()) and len(run_json["prompt_rewriter_weights"]) == 64
    # the original prompt was rendered: the same images (and scores) as a run without the rewriter
    assert eval_run(f"data={data}", *GEN, f"out={base}") == 0
    for it in items:
        name = f"slides_text_{it.id}.png"
        assert (out / "images" / name).read_bytes() == (base / "images" / name).read_bytes()
    assert json.loads((base / "scores.json").read_text())["per_item"] == scores["per_item"]
    assert "prompt_rewriter" not in json.loads((base / "scores.json").read_text())


def test_a_kept_rewrite_is_rendered_and_the_judge_sees_the_original(rewriter, tmp_path, monkeypatch, capsys):
    folder = rewriter[0]
    data = write_data(tmp_path / "data.jsonl", n=2)
    items, _ = load_items(data)
    wording = {"text": "centered, bold"}

    def keeps_quotes(self, prompts):
        calls.append(list(prompts))
        return [f"{p}, {wording['text']}" for p in prompts]

    rendered, calls = [], []
    original_generate = refine.generators.DiffusersGenerator.generate

    def recording(self, prompt, seed):
        rendered.append((prompt, seed))
        return original_generate(self, prompt, seed)

    monkeypatch.setattr(rewards.rewriting.PromptRewriter, "generate", keeps_quotes)
    monkeypatch.setattr(refine.generators.DiffusersGenerator, "generate", recording)
    out = tmp_path / "out"
    args = [f"data={data}", *GEN, f"prompt_rewriter={folder}", f"out={out}"]
    assert eval_run(*args) == 0
    assert "prompt_rewriter: 0 of 2 rewrites refused" in capsys.readouterr().out
    assert rendered == [(f"{it.prompt}, centered, bold", item_seed(0, k)) for k, it in enumerate(items)]
    assert calls == [[it.prompt] for it in items]  # one item at a time: a shard rewrites as the whole run
    recorded = read_rewrites(out / REWRITES)
    assert {k: (r["prompt"], r["problem"]) for k, r in recorded.items()} == {
        it.id: (f"{it.prompt}, centered, bold", None) for it in items
    }
    for k, it in enumerate(items):
        with Image.open(out / "images" / f"slides_text_{it.id}.png") as im:
            key = im.info[GENERATED_KEY]
        assert key == generation_key(it, item_seed(0, k), (32, 32), f"{it.prompt}, centered, bold")
        assert key != generation_key(it, item_seed(0, k), (32, 32))  # not the image of the original prompt
        result = json.loads((out / "results" / f"slides_text_{it.id}.json").read_text())
        assert result["prompt"] == it.prompt  # the judge judged against the original prompt and rubric
    assert json.loads((out / "scores.json").read_text())["prompt_rewriter"]["refused"] == 0
    # resume: the recorded rewrites are reused, nothing is rewritten or generated again
    stamps = {p.name: p.stat().st_mtime_ns for p in (out / "images").iterdir()}
    rendered.clear(), calls.clear()
    assert eval_run(*args) == 0
    assert rendered == [] and calls == []
    assert {p.name: p.stat().st_mtime_ns for p in (out / "images").iterdir()} == stamps
    # another rewrite of the same prompt (its record gone): the old image is not reused
    (out / REWRITES).unlink()
    wording["text"] = "on a blue page"
    assert eval_run(*args) == 0
    assert calls == [[it.prompt] for it in items]
    assert rendered == [(f"{it.prompt}, on a blue page", item_seed(0, k)) for k, it in enumerate(items)]
    assert len((out / REWRITES).read_text().splitlines()) == 2


def test_a_resume_with_another_rewriter_is_refused_in_one_line(tmp_path, capsys):
    folder = tmp_path / "pr1" / "final"
    folder.mkdir(parents=True)
    make_rewriter(folder, seed=0)
    data = write_data(tmp_path / "data.jsonl", n=1)
    out = tmp_path / "out"
    args = [f"data={data}", *GEN, f"out={out}"]
    assert eval_run(*args, f"prompt_rewriter={folder}") == 0
    recorded = json.loads((out / "run.json").read_text())["prompt_rewriter_weights"]
    make_rewriter(folder, seed=1)  # retrained in place: other weights at the same path
    capsys.readouterr()
    assert eval_run(*args, f"prompt_rewriter={folder}") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {out} was made with another prompt_rewriter (its weights changed: ")
    assert f"records sha256 {recorded[:12]}, prompt_rewriter={folder} now has " in err
    # another folder, or none at all: other settings
    other = tmp_path / "pr2" / "final"
    shutil.copytree(folder, other)
    assert eval_run(*args, f"prompt_rewriter={other}") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other settings (prompt_rewriter: " in err
    assert eval_run(*args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"other settings (prompt_rewriter: '{folder.resolve()}' there, None now)" in err


def test_a_folder_that_is_not_a_prompt_rewriter_is_an_option_error(rewriter, tmp_path, capsys):
    data = write_data(tmp_path / "data.jsonl", n=1)
    empty = tmp_path / "empty"
    empty.mkdir()
    writer = tmp_path / "writer"
    shutil.copytree(rewriter[0], writer)
    write_policy_meta(writer, policy_meta("instruction_writer", None, True, "float32", max_new_tokens=16))
    no_meta = tmp_path / "no_meta"
    shutil.copytree(rewriter[0], no_meta)
    (no_meta / "rubricloop_policy.json").unlink()
    expected = {
        tmp_path / "missing": f"{tmp_path / 'missing'}: not a folder (a trained policy is <run>/final/ from "
        "rubricloop-train task=prompt_rewriter)",
        empty: f"{empty}: no adapter_config.json (not a LoRA saved by rubricloop-train task=prompt_rewriter)",
        no_meta: f"{no_meta}: no rubricloop_policy.json (not saved by rubricloop-train task=prompt_rewriter)",
        writer: f"{writer}: a policy trained for task=instruction_writer, not task=prompt_rewriter",
    }
    for k, (folder, why) in enumerate(expected.items()):
        out = tmp_path / f"out{k}"
        assert eval_run(f"data={data}", *GEN, f"prompt_rewriter={folder}", f"out={out}") == 2
        assert capsys.readouterr().err == f"error: prompt_rewriter={why}\n"
        assert not out.exists()
    # judge-only or score-only runs render nothing: no place for a rewriter
    images = tmp_path / "imgs"
    images.mkdir()
    assert eval_run(f"data={data}", f"images={images}", f"prompt_rewriter={rewriter[0]}", f"out={tmp_path / 'j'}") == 2
    assert capsys.readouterr().err == ("error: prompt_rewriter=... needs a generator (generator=sd3 | flux | ...)\n")
    # a generator and images=: the images are judged as they are, so the rewriter would do nothing
    args = [f"data={data}", f"images={images}", *GEN, f"prompt_rewriter={rewriter[0]}", f"out={tmp_path / 'g'}"]
    assert eval_run(*args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "prompt_rewriter=... changes generated images, but images=" in err
    assert not (tmp_path / "g").exists()
