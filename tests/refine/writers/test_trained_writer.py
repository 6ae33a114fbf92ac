"""``writer=trained writer.path=<folder>``: an instruction writer trained by
``rubricloop-train task=instruction_writer`` plugs back into refine.

The policy folder is built here the way training saves it: a LoRA on the tiny Qwen2.5-VL
(``load_base_policy("vlm", None, True, ...)``, seed 0) with seeded nonzero B matrices, so the
adapter changes the output, saved by peft, plus ``rubricloop_policy.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_module
from PIL import Image
from refine_rows import FAST_EDIT, FAST_OCR
from safetensors.torch import load_file, save_file

from refine.cli import bundled_example, run
from refine.writers.local_vlm import LocalVLMInstructionWriter, writer_prompt
from rewards.importers import load_run_items
from rewards.models.qwen_vl import fit_image
from rewards.models.text_policy import POLICY_FILE, load_base_policy, policy_digest, policy_meta, write_policy_meta
from rewards.rubric import Verdict

SCRIPT = Path(sys.executable).with_name("rubricloop-refine")
MAX_NEW_TOKENS = 16


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """``(folder, peft_model, processor)``: a saved instruction_writer policy and the in-memory
    model it was saved from."""
    from peft import LoraConfig, get_peft_model

    folder = tmp_path_factory.mktemp("policy") / "final"
    folder.mkdir()
    model, processor = load_base_policy("vlm", None, True, "float32", "cpu")
    # q_proj/v_proj: the text model's attention only (the vision tower's is a fused `qkv`)
    peft_model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]))
    generator = torch.Generator().manual_seed(0)
    b_weights = [(n, p) for n, p in peft_model.named_parameters() if "lora_B" in n]
    assert len(b_weights) == 4  # 2 layers x (q, v) of the language model
    with torch.no_grad():
        for _, p in b_weights:  # peft starts B at zero (adapter = identity); training would move it
            p.copy_(torch.randn(p.shape, generator=generator))
    peft_model.save_pretrained(folder)
    write_policy_meta(folder, policy_meta("instruction_writer", None, True, "float32", max_new_tokens=MAX_NEW_TOKENS))
    return folder, peft_model.eval(), processor


@pytest.fixture(scope="module")
def item_and_failures():
    """The bundled example's first item, its start image and three failed checks of it."""
    [item], errors = load_run_items(bundled_example(), limit=1)
    assert not errors
    checks = item.rubric.checks[:3]
    failures = [(c, Verdict(c.id, "no", "ocr", "not found")) for c in checks]
    return item, Image.open(item.image).convert("RGB"), failures


def inputs_for(processor, image, item, failures):
    """What ``LocalVLMInstructionWriter.write`` feeds the model, built here independently."""
    content = [{"type": "image"}, {"type": "text", "text": writer_prompt(item, failures)}]
    text = processor.apply_chat_template(
        [{"role": "user", "content": content}], tokenize=False, add_generation_prompt=True
    )
    return processor(text=[text], images=[fit_image(image, 768)], return_tensors="pt")


def test_trained_writer_generates_with_the_lora(trained, item_and_failures):
    folder, peft_model, processor = trained
    item, image, failures = item_and_failures
    writer = LocalVLMInstructionWriter(path=str(folder), device="cpu")
    # the base model, dtype and budget come from rubricloop_policy.json
    assert writer.name == f"trained:{folder}"
    assert (writer.tiny, writer.torch_dtype, writer.max_new_tokens) == (True, "float32", MAX_NEW_TOKENS)
    assert writer.model is None  # loads on the first write

    inputs = inputs_for(processor, image, item, failures)
    with torch.no_grad():
        out = peft_model.generate(**inputs, do_sample=False, max_new_tokens=MAX_NEW_TOKENS)
    new_tokens = out[0, inputs["input_ids"].shape[1] :]
    assert len(new_tokens) == MAX_NEW_TOKENS  # the tiny model never emits <|im_end|> here
    expected = processor.tokenizer.decode(new_tokens, skip_special_tokens=True).strip()
    assert expected  # real generated text, not the writer's fallback
    instruction = writer.write(image, item, failures)
    assert instruction == expected
    assert not instruction.startswith("Fix: ")

    from peft import PeftModel

    assert isinstance(writer.model, PeftModel)
    base = LocalVLMInstructionWriter(tiny=True, torch_dtype="float32", device="cpu", max_new_tokens=MAX_NEW_TOKENS)
    assert base.name == "local_vlm:tiny-qwen2.5-vl"
    base.load()
    with torch.no_grad():
        trained_logits = writer.model(**inputs).logits
        base_logits = base.model(**inputs).logits
        saved_logits = peft_model(**inputs).logits
    assert trained_logits.shape == base_logits.shape == (1, inputs["input_ids"].shape[1], 270)
    torch.testing.assert_close(trained_logits, saved_logits)  # the saved LoRA, loaded back
    assert (trained_logits - base_logits).abs().max() > 0.1  # ... and it is applied
    assert base.write(image, item, failures) != instruction
    assert writer.write(image, item, []) == ""


@pytest.mark.parametrize("bad", [0, -1, "abc", 2.5, True])
def test_a_bad_generation_budget_is_refused_at_construction(trained, bad):
    folder, _, _ = trained
    with pytest.raises(ValueError, match="writer.max_new_tokens must be an integer >= 1"):
        LocalVLMInstructionWriter(path=str(folder), device="cpu", max_new_tokens=bad)


def test_overrides_and_conflicts(trained):
    folder, _, _ = trained
    writer = LocalVLMInstructionWriter(path=folder, torch_dtype="bfloat16", device="cpu", max_new_tokens=4)
    assert (writer.torch_dtype, writer.max_new_tokens, writer.path) == ("bfloat16", 4, str(folder))
    with pytest.raises(ValueError, match=r"^writer\.path: .*trained on the tiny model, not model_id='Qwen/x'"):
        LocalVLMInstructionWriter(path=folder, model_id="Qwen/x", device="cpu")
    with pytest.raises(ValueError, match=r"^writer\.path: empty"):
        LocalVLMInstructionWriter(path="", device="cpu")


def refine_cfg(tmp_path, *overrides):
    with initialize_config_module("conf", version_base="1.3"):
        return compose(
            "refine",
            overrides=[
                f"out={tmp_path / 'out'}",
                "limit=1",
                "iterations=1",
                "wandb.mode=disabled",
                *FAST_OCR,  # the writer is under test, not the reading: one tesseract pass at 1x
                *overrides,
            ],
        )


def test_refine_cli_runs_the_trained_writer(tmp_path, trained, item_and_failures, capsys):
    """The bundled example (data=null), its first item, one edit: the OCR judge fails checks of
    the start image, the trained writer writes the instruction, a tiny editor applies it."""
    folder, _, _ = trained
    item, _, _ = item_and_failures
    cfg = refine_cfg(
        tmp_path, "writer=trained", f"writer.path={folder}", "writer.device=cpu", "editor=tiny_flux_kontext"
    )
    assert cfg.writer.path == str(folder) and cfg.writer.torch_dtype is None
    assert run(cfg) == 0
    assert "warning: editor" not in capsys.readouterr().err  # an instruction editor uses what it writes
    out = tmp_path / "out"
    [result] = json.loads((out / "summary.json").read_text())["items"]
    assert result["id"] == item.id and result["error"] is None
    [line] = [json.loads(x) for x in next(out.glob("*/instructions.jsonl")).read_text().splitlines()]
    assert line["iteration"] == 1 and line["writer"] == f"trained:{folder}"
    assert line["failed_checks"] and line["instruction"].strip()
    assert not line["instruction"].startswith("Fix: ")  # the model's text, not the fallback
    settings = json.loads((out / "run.json").read_text())
    assert json.dumps(str(folder)) in json.dumps(settings)  # the policy folder is part of the run's settings
    assert settings["writer_weights"] == policy_digest(folder)


def test_refine_refuses_a_rerun_after_the_writer_weights_changed(tmp_path, trained, capsys):
    """Retrained into the same folder: the rerun of the same command would mix instructions of two
    policies in one summary; it is refused in one line before any item is judged."""
    folder, _, _ = trained
    mine = tmp_path / "final"
    shutil.copytree(folder, mine)
    args = ("writer=trained", f"writer.path={mine}", "writer.device=cpu", *FAST_EDIT)  # the default editor=text
    assert run(refine_cfg(tmp_path, *args)) == 0
    warned = [x for x in capsys.readouterr().err.splitlines() if x.startswith("warning: editor")]
    assert len(warned) == 1 and "ignores the instructions" in warned[0] and f"trained:{mine}" in warned[0]
    weights = mine / "adapter_model.safetensors"
    tensors = load_file(weights)
    save_file({k: v + 1.0 if "lora_B" in k else v for k, v in tensors.items()}, weights)
    capsys.readouterr()
    assert run(refine_cfg(tmp_path, *args)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "writer_weights" in err[0], err


def bad_folders(tmp_path, trained) -> dict[str, tuple[Path, str]]:
    """name -> (folder, what the error says after ``<folder>: ``)."""
    folder, _, _ = trained
    no_meta = tmp_path / "no_meta"
    shutil.copytree(folder, no_meta)
    (no_meta / POLICY_FILE).unlink()
    rewriter = tmp_path / "rewriter"
    shutil.copytree(folder, rewriter)
    write_policy_meta(rewriter, policy_meta("prompt_rewriter", None, True, "float32", max_new_tokens=8))
    empty = tmp_path / "empty"
    empty.mkdir()
    return {
        "missing": (tmp_path / "does_not_exist", "not a folder"),
        "no_policy_file": (no_meta, f"no {POLICY_FILE}"),
        "no_lora": (empty, "no adapter_config.json"),
        "prompt_rewriter": (rewriter, "a policy trained for task=prompt_rewriter, not task=instruction_writer"),
    }


@pytest.mark.parametrize("case", ["missing", "no_policy_file", "no_lora", "prompt_rewriter"])
def test_a_folder_that_is_not_a_trained_writer_is_one_line_exit_2(tmp_path, trained, capsys, case):
    folder, reason = bad_folders(tmp_path, trained)[case]
    cfg = refine_cfg(tmp_path, "writer=trained", f"writer.path={folder}", "writer.device=cpu")
    assert run(cfg) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: writer.path: {folder}: {reason}")
    assert not (tmp_path / "out").exists()  # nothing left behind


def test_writer_trained_without_path_is_one_line(tmp_path, capsys):
    assert run(refine_cfg(tmp_path, "writer=trained", "writer.device=cpu")) == 2
    assert capsys.readouterr().err == "error: missing required option(s): writer.path=...\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_console_script_exit_2_in_one_line(tmp_path, trained):
    folder = bad_folders(tmp_path, trained)["prompt_rewriter"][0]
    env = {**os.environ, "WANDB_MODE": "disabled"}
    for args, line in [
        (["writer=trained"], "error: missing required option(s): writer.path=..."),
        (
            ["writer=trained", f"writer.path={folder}", "writer.device=cpu"],
            f"error: writer.path: {folder}: a policy trained for task=prompt_rewriter, not task=instruction_writer",
        ),
    ]:
        proc = subprocess.run(
            [str(SCRIPT), f"out={tmp_path / 'out'}", *args], capture_output=True, text=True, env=env, timeout=300
        )
        assert (proc.returncode, proc.stderr.splitlines(), proc.stdout) == (2, [line], "")
