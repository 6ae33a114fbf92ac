"""A checkpoint's LoRA loads at the strength it was trained: rank, alpha, target modules and base
model are saved with it (diffusers' LoRA adapter metadata in the safetensors header, PEFT's
``adapter_config.json`` beside it), so ``pipe.load_lora_weights(dir)`` and ``rubricloop-eval
lora=...`` rebuild the trained alpha instead of diffusers' fallback alpha = rank.

Tiny SD3 (random weights, built in code), trained 2 steps with rank 2 and alpha 6 (scale 3)."""

import json
import os
import shutil
from pathlib import Path

import pytest
import torch
import transformers
from safetensors.torch import load_file, save_file

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()
torch.set_num_threads(1)

from grpo_helpers import TRAIN, VAL, redness  # noqa: E402

from rewards.models.tiny_pipelines import tiny_sd3_pipeline  # noqa: E402
from training.diffusion.checkpoint import ADAPTER_CONFIG_FILE, LORA_FILE, list_checkpoints, read_lora_metadata  # noqa: E402
from training.recipes.grpo import GRPOConfig, train  # noqa: E402

BASE = "rewards.models.tiny_pipelines.tiny_sd3_pipeline"
RANK, ALPHA = 2, 6
MODULES = ["to_k", "to_out.0", "to_q", "to_v"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """(the trained pipeline, its last checkpoint folder): 2 GRPO steps, LoRA r=2, alpha=6."""
    out = tmp_path_factory.mktemp("lora")
    cfg = GRPOConfig(
        output_dir=str(out),
        run_name="run",
        base_model=BASE,
        num_steps=2,
        prompts_per_step=2,
        group_size=2,
        batch_size=4,
        resolution=16,
        train_sampling_steps=2,
        eval_sampling_steps=2,
        cfg=False,
        beta=0.0,
        lr=0.05,
        lora_rank=RANK,
        lora_alpha=ALPHA,
        lora_target_modules=list(MODULES),
        num_eval_prompts=1,
        save_every=1,
        timestep_fraction=1.0,
    )
    pipe = tiny_sd3_pipeline(0)
    train(cfg, pipe, {"red": redness}, {"red": 1.0}, TRAIN, VAL, {"max_sequence_length": 16})
    folder = list_checkpoints(out / "run")[-1]
    assert folder.name == "step_2"
    return pipe, folder


def transformer_out(transformer) -> torch.Tensor:
    """The transformer's output on fixed inputs: float32 (1, 4, 16, 16)."""
    g = torch.Generator().manual_seed(0)
    kwargs = {
        "hidden_states": torch.randn(1, 4, 16, 16, generator=g),
        "encoder_hidden_states": torch.randn(1, 8, 32, generator=g),
        "pooled_projections": torch.randn(1, 32, generator=g),
        "timestep": torch.tensor([500.0]),
    }
    with torch.no_grad():
        return transformer(**kwargs, return_dict=False)[0]


def loaded_with_diffusers(folder: Path) -> torch.Tensor:
    """A FRESH tiny SD3 pipeline, the checkpoint loaded with diffusers' own ``load_lora_weights``: its output."""
    fresh = tiny_sd3_pipeline(0)
    fresh.load_lora_weights(str(folder))
    return transformer_out(fresh.transformer), fresh


def test_checkpoint_holds_rank_alpha_modules_and_base_model(trained):
    _, folder = trained
    meta = read_lora_metadata(folder)
    assert meta["base_model"] == BASE and meta["format"] == "pt"
    lora = meta["lora_adapter_metadata"]
    assert lora["transformer.r"] == RANK and lora["transformer.lora_alpha"] == ALPHA
    assert lora["transformer.target_modules"] == MODULES
    assert lora["transformer.base_model_name_or_path"] == BASE
    config = json.loads((folder / ADAPTER_CONFIG_FILE).read_text())
    assert (config["peft_type"], config["r"], config["lora_alpha"]) == ("LORA", RANK, ALPHA)
    assert (config["target_modules"], config["base_model_name_or_path"]) == (MODULES, BASE)


def test_diffusers_load_lora_weights_gives_the_trained_outputs(trained):
    """Fresh pipeline + ``load_lora_weights(step_2)`` == the trainer's LoRA'd transformer (~1e-5);
    the same weights without the metadata (what was saved before) load at alpha = rank: a third
    of the trained strength here, and a clearly different output."""
    pipe, folder = trained
    want = transformer_out(pipe.transformer)
    base = transformer_out(tiny_sd3_pipeline(0).transformer)
    lora_effect = (want - base).abs().max().item()
    assert lora_effect > 1e-3  # training moved the LoRA: the comparison below means something

    got, fresh = loaded_with_diffusers(folder)
    assert (got - want).abs().max().item() <= 1e-5
    (config,) = fresh.transformer.peft_config.values()
    assert (config.r, config.lora_alpha) == (RANK, ALPHA)

    # the same tensors, the header holding only {"format": "pt"}: diffusers falls back to alpha = rank
    bare = folder.parent / "bare"
    bare.mkdir()
    save_file(load_file(folder / LORA_FILE), bare / LORA_FILE, metadata={"format": "pt"})
    without, fresh = loaded_with_diffusers(bare)
    (config,) = fresh.transformer.peft_config.values()
    assert config.lora_alpha == RANK
    diff = (without - want).abs().max().item()
    print(
        f"max |output - trained|: with metadata {(got - want).abs().max().item():.2e}, without {diff:.2e}; "
        f"LoRA effect {lora_effect:.2e}, without metadata {(without - base).abs().max().item():.2e}"
    )
    assert diff > 0.1 * lora_effect
    # alpha = rank scales the LoRA by 1 instead of 3: its effect on the output shrinks accordingly
    assert (without - base).abs().max().item() < 0.7 * lora_effect


def test_rubricloop_eval_lora_loads_the_trained_strength(trained, tmp_path, monkeypatch):
    """``rubricloop-eval generator=tiny lora=<step_2>``: the generator's transformer after
    ``apply_lora`` gives the trainer's outputs (the eval generator is the same seed-0 tiny SD3)."""
    from hydra import compose, initialize_config_module

    from evaluation import lora as eval_lora
    from evaluation.cli import run

    pipe, folder = trained
    ckpt = tmp_path / "run" / "step_2"
    shutil.copytree(folder, ckpt)
    (ckpt.parent / "training_data.jsonl").write_text(json.dumps({"id": "t", "prompt": "a red square"}) + "\n")
    seen = []
    real_apply = eval_lora.apply_lora

    def spy(generator, checkpoint):
        real_apply(generator, checkpoint)
        seen.append(generator)

    monkeypatch.setattr(eval_lora, "apply_lora", spy)
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))  # tests/eval_helpers.py
    from refine.cli import bundled_example

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose(
            config_name="eval",
            overrides=[
                "~judge",
                "+judge={_target_: eval_helpers.PixelJudge}",
                f"data={bundled_example()}",
                "generator=tiny",
                "limit=1",
                f"lora={ckpt}",
                f"out={tmp_path / 'eval'}",
                "report=false",
            ],
        )
    assert run(cfg) == 0
    (generator,) = seen
    got = transformer_out(generator._load().transformer)
    assert (got - transformer_out(pipe.transformer)).abs().max().item() <= 1e-5
