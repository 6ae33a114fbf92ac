"""The recipe registry (``training.recipes``): each recipe's config, yaml and checks are its own.

Every recipe module found in ``training/recipes/`` composes from its ``conf/trainer/<name>.yaml``
to exactly its dataclass's defaults; ``trainer.algorithm=<name>`` selects that yaml; a recipe's
checks run only for its own config.
"""

from __future__ import annotations

from dataclasses import asdict

import pytest
from hydra import compose, initialize_config_module
from omegaconf import OmegaConf

from training import recipes
from training.cli import select_trainer
from training.diffusion.config import TrainerConfig
from training.recipes import config_from_fields

# the fields the train.yaml sets from the model preset and the top-level options
FROM_TRAIN_YAML = {"resolution", "cfg", "cfg_scale", "lora_target_modules", "base_model", "wandb_project"}


def test_the_registry_finds_every_recipe_module():
    assert {"grpo", "nft", "awm"} <= set(recipes.names())
    for name in recipes.names():
        module = recipes.recipe(name)
        assert issubclass(module.CONFIG, TrainerConfig) and module.CONFIG().algorithm == name
    with pytest.raises(ValueError, match=r"algorithm must be one of \[.*'grpo'.*\], got 'ppo'"):
        recipes.recipe("ppo")


@pytest.mark.parametrize("name", recipes.names())
def test_each_trainer_yaml_holds_its_dataclass_defaults(name):
    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=[f"trainer={name}"])
    composed = OmegaConf.to_container(cfg.trainer, resolve=True)
    defaults = asdict(recipes.recipe(name).CONFIG())
    assert set(composed) == set(defaults)
    differing = {k for k in defaults if composed[k] != defaults[k]}
    assert differing <= FROM_TRAIN_YAML | {"resume", "wandb_mode"}, differing
    assert type(config_from_fields(composed)) is recipes.recipe(name).CONFIG


def test_trainer_algorithm_on_the_command_line_selects_the_recipe_yaml():
    assert select_trainer(["x", "trainer.algorithm=nft", "trainer.nft_beta=0.1"])[-1] == "trainer=nft"
    assert select_trainer(["x", "trainer=awm", "trainer.algorithm=awm"]) == [
        "x",
        "trainer=awm",
        "trainer.algorithm=awm",
    ]
    assert select_trainer(["x", "model=tiny_sd3"]) == ["x", "model=tiny_sd3"]
    with pytest.raises(SystemExit) as stop:
        select_trainer(["x", "trainer.algorithm=ppo"])
    assert stop.value.code == 2


def test_a_recipes_checks_are_its_own():
    nft, awm = recipes.recipe("nft").CONFIG, recipes.recipe("awm").CONFIG
    assert nft(nft_beta=0.0, cfg=False).recipe_problems() == [
        "nft_beta must be > 0 (the NFT loss divides by it), got 0.0"
    ]
    assert awm(awm_train_timesteps=0, cfg=False).recipe_problems() == ["awm_train_timesteps must be >= 1, got 0"]
    assert recipes.recipe("grpo").CONFIG(cfg=False).recipe_problems() == []
    # AWM makes one backward pass per minibatch; the others one per trained step
    assert awm(train_sampling_steps=10).backward_passes_per_minibatch() == 1
    assert nft(train_sampling_steps=10).backward_passes_per_minibatch() == 9  # int(10 * 0.99)
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['nft_beta'\]; training.recipes.awm.AWMConfig"):
        config_from_fields({"algorithm": "awm", "nft_beta": 1.0})
