"""Every leaf config under conf/ builds, every old preset name composes to its new one, and the debug presets.

A leaf config is a file of a config group, ``conf/<group>/<name>.yaml``. Every ``_target_`` in one
must resolve and take the keys it is given (``inspect.signature(target).bind``), and must point
into the package its group is named after. The offline ones (tiny models, CPU, lazy loaders) are
also built for real with ``hydra.utils.instantiate`` and their values checked; the ones whose
construction would download hub weights or need a GPU stop at binding, as no weights can be
downloaded here.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_module
from hydra.utils import get_object, instantiate
from omegaconf import OmegaConf

import conf

CONF = Path(conf.__file__).parent

GROUP_PACKAGES = {
    "editor": "refine.editors.",
    "generator": "refine.generators.",
    "judge": "rewards.judges.",
    "model": "rewards.models.",
    "rewards": "rewards.",
    "writer": "refine.writers.",
    "hydra": "hydra_plugins.",
}
"""config group -> the package its ``_target_``s point into."""

PULLED_IN = {("generator", "model"): "model"}
"""(config group, key) -> the group whose config that key pulls in (its defaults list): a
generator's ``model`` is a conf/model preset, so its target lives in that group's package."""

BASE_MODEL = "rewards.models.base_model.BaseModel"

ALIASES = {
    "generator/sd3": "generator/sd35_medium",
    "generator/flux": "generator/flux_dev",
    "generator/tiny": "generator/tiny_sd3",
    "editor/tiny": "editor/tiny_flux_kontext",
}
"""old preset name -> the name it now composes to (the names conf/model uses for the same checkpoint)."""

APPS_WITH_GROUP = {"generator": ["refine", "eval"], "editor": ["refine"]}
"""config group -> the apps (primary configs) that select it."""

DIFFUSERS_EDITOR = "refine.editors.diffusers.DiffusersEditor"
GENERATOR = "refine.generators.DiffusersGenerator"


def _generator(pipeline, model_id, device, tiny, steps, size):
    model_id = f"rewards.models.tiny_pipelines.tiny_{pipeline}_pipeline" if tiny else model_id
    return {
        "pipeline": pipeline,
        "model_id": model_id,
        "device": device,
        "tiny": tiny,
        "num_inference_steps": steps,
        "height": size,
        "width": size,
        "name": f"tiny_{pipeline}" if tiny else pipeline,
        "_pipe": None,
    }


def _editor(pipeline, model_id, device, tiny, steps, max_area):
    return {
        "pipeline": pipeline,
        "model_id": model_id,
        "device": device,
        "tiny": tiny,
        "num_inference_steps": steps,
        "max_area": max_area,
        "name": f"tiny_{pipeline}" if tiny else pipeline,
        "_pipe": None,
    }


ATTN = ("to_q", "to_k", "to_v", "to_out.0")
MMDIT = (*ATTN, "add_q_proj", "add_k_proj", "add_v_proj", "to_add_out")
SD35 = tuple(
    f"attn.{m}" for m in ("add_k_proj", "add_q_proj", "add_v_proj", "to_add_out", "to_k", "to_out.0", "to_q", "to_v")
)


def _model(id_or_builder, pipeline_class, lora_targets):
    """The values of a built conf/model preset; a ``tiny_*_pipeline`` first argument is a tiny one."""
    tiny = id_or_builder if id_or_builder.startswith("tiny_") else None
    model_id = f"rewards.models.tiny_pipelines.{tiny}" if tiny else id_or_builder
    dtype = "float32" if tiny else "bfloat16"
    return {
        "id": model_id,
        "pipeline_class": pipeline_class,
        "dtype": dtype,
        "lora_targets": lora_targets,
        "tiny": tiny,
    }


BUILT = {
    "editor/flux_kontext": (
        DIFFUSERS_EDITOR,
        _editor("flux_kontext", "black-forest-labs/FLUX.1-Kontext-dev", "cuda", False, 28, 1024 * 1024),
    ),
    "editor/instruct_pix2pix": (
        DIFFUSERS_EDITOR,
        _editor("instruct_pix2pix", "timbrooks/instruct-pix2pix", "cuda", False, 20, 512 * 512),
    ),
    "editor/qwen_image_edit": (
        DIFFUSERS_EDITOR,
        _editor("qwen_image_edit", "Qwen/Qwen-Image-Edit", "cuda", False, 50, 1024 * 1024),
    ),
    "editor/tiny_flux_kontext": (DIFFUSERS_EDITOR, _editor("flux_kontext", "tiny", "cpu", True, 2, 32 * 32)),
    "editor/tiny_instruct_pix2pix": (DIFFUSERS_EDITOR, _editor("instruct_pix2pix", "tiny", "cpu", True, 2, 32 * 32)),
    "editor/tiny_qwen_image_edit": (DIFFUSERS_EDITOR, _editor("qwen_image_edit", "tiny", "cpu", True, 2, 32 * 32)),
    "editor/text": (
        "TextEditor",
        {"min_similarity": 0.75, "max_chars": 2000, "max_layout_trials": 400, "look_harder": True},
    ),
    "generator/sd35_medium": (
        GENERATOR,
        _generator("sd3", "stabilityai/stable-diffusion-3.5-medium", "cuda", False, 40, 1024),
    ),
    "generator/flux_dev": (GENERATOR, _generator("flux", "black-forest-labs/FLUX.1-dev", "cuda", False, 28, 1024)),
    "generator/qwen_image": (GENERATOR, _generator("qwen_image", "Qwen/Qwen-Image", "cuda", False, 50, 1328)),
    "generator/sana": (
        GENERATOR,
        _generator("sana", "Efficient-Large-Model/Sana_1600M_1024px_diffusers", "cuda", False, 20, 1024),
    ),
    "generator/tiny_sd3": (GENERATOR, _generator("sd3", None, "cpu", True, 2, 32)),
    "generator/tiny_flux": (GENERATOR, _generator("flux", None, "cpu", True, 2, 32)),
    "generator/tiny_qwen_image": (GENERATOR, _generator("qwen_image", None, "cpu", True, 2, 32)),
    "generator/tiny_sana": (GENERATOR, _generator("sana", None, "cpu", True, 2, 32)),
    "generator/tiny_sd3_layout": (
        GENERATOR,
        _generator("sd3", "checkpoints/pretrained/tiny_layout_sd3", "cpu", False, 10, 32),
    ),
    "judge/ocr": ("rewards.judges.router.Router", {"judges": ["OCRJudge"], "cache": None}),
    "judge/ocr_vlm": ("rewards.judges.router.Router", {"judges": ["OCRJudge", "VLMJudge"], "cache": None}),
    "judge/vlm": ("rewards.judges.router.Router", {"judges": ["VLMJudge"], "cache": None}),
    "judge/tiny": ("rewards.judges.router.Router", {"judges": ["OCRJudge", "LocalVLMJudge"], "cache": None}),
    "judge/layout": ("rewards.judges.router.Router", {"judges": ["LayoutJudge"], "cache": None}),
    "writer/llm": ("refine.writers.llm.LLMInstructionWriter", {"name": "llm:Qwen/Qwen2.5-VL-7B-Instruct"}),
    "writer/template": ("refine.writers.template.TemplateWriter", {}),
    "writer/tiny": (
        "refine.writers.local_vlm.LocalVLMInstructionWriter",
        {"name": "local_vlm:tiny-qwen2.5-vl", "tiny": True, "device": "cpu", "model": None},
    ),
    "model/sd35_medium": (
        BASE_MODEL,
        _model("stabilityai/stable-diffusion-3.5-medium", "StableDiffusion3Pipeline", SD35),
    ),
    "model/flux_dev": (BASE_MODEL, _model("black-forest-labs/FLUX.1-dev", "FluxPipeline", MMDIT)),
    "model/qwen_image": (BASE_MODEL, _model("Qwen/Qwen-Image", "QwenImagePipeline", MMDIT)),
    "model/sana": (BASE_MODEL, _model("Efficient-Large-Model/Sana_1600M_1024px_diffusers", "SanaPipeline", ATTN)),
    "model/tiny_sd3": (BASE_MODEL, _model("tiny_sd3_pipeline", "StableDiffusion3Pipeline", ATTN)),
    "model/tiny_flux": (BASE_MODEL, _model("tiny_flux_pipeline", "FluxPipeline", ATTN)),
    "model/tiny_qwen_image": (BASE_MODEL, _model("tiny_qwen_image_pipeline", "QwenImagePipeline", MMDIT)),
    "model/tiny_sana": (BASE_MODEL, _model("tiny_sana_pipeline", "SanaPipeline", ATTN)),
    "model/tiny_sd3_layout": (  # the pretrained tiny layout generator, a local folder (training.diffusion.pretrain)
        BASE_MODEL,
        {**_model("checkpoints/pretrained/tiny_layout_sd3", "StableDiffusion3Pipeline", ATTN), "dtype": "float32"},
    ),
    "rewards/redness": ("rewards.toy_rewards.MeanRedness", {"weight": 1.0}),
    "rewards/rubric_ocr": ("rewards.reward_fns.RubricReward", {"weight": 1.0, "name": "rubric_pass_rate"}),
    "rewards/rubric_layout": ("rewards.reward_fns.RubricReward", {"weight": 1.0, "name": "rubric_pass_rate"}),
    "rewards/rubric_http": ("rewards.reward_fns.RubricReward", {"weight": 1.0, "name": "rubric_pass_rate"}),
    "rewards/layout_kind": ("rewards.reward_fns.LayoutKindReward", {"weight": 0.0, "name": "layout_kind"}),
}
"""Leaf configs built for real: name -> (its outermost target, or the class name where another
agent may move the class; the values the built object has)."""

BOUND = {
    "judge/ocr_local_vlm": {"model_id": "Qwen/Qwen2.5-VL-7B-Instruct", "torch_dtype": "bfloat16", "device": "cuda"},
    "writer/local_vlm": {"model_id": "Qwen/Qwen2.5-VL-7B-Instruct", "torch_dtype": "bfloat16", "device": "cuda"},
    "writer/trained": {"path": "???", "torch_dtype": None, "device": "cuda", "max_new_tokens": None},
    "rewards/pickscore": {
        "model": "yuvalkirstain/PickScore_v1",
        "processor": "laion/CLIP-ViT-H-14-laion2B-s32B-b79K",
        "device": "cuda",
        "tiny": None,
    },
}
"""Leaf configs that need hub weights or a GPU to build: name -> the arguments their
model-loading target is bound with (the last target in the file: the VLM)."""


def _leaf_names() -> list[str]:
    """Every ``conf/<group>/.../<name>.yaml`` as ``group/.../name``."""
    return sorted(p.relative_to(CONF).with_suffix("").as_posix() for p in CONF.rglob("*.yaml") if p.parent != CONF)


def _is_alias(name: str) -> bool:
    """A config whose only content is a defaults list (an old preset name pulling its new one)."""
    return set(yaml.safe_load((CONF / f"{name}.yaml").read_text()) or {}) == {"defaults"}


def _compose(config_name: str, overrides: tuple[str, ...] = ()):
    if config_name == "train":
        import training.recipes.grpo  # noqa: F401
    with initialize_config_module("conf", version_base="1.3"):
        return compose(config_name=config_name, overrides=list(overrides))


def _leaf_node(name: str) -> dict:
    """The composed node of leaf config ``name`` as plain containers (its group's package)."""
    return OmegaConf.to_container(OmegaConf.select(_compose(name), name.split("/")[0]), resolve=True)


def _target_nodes(node, path: tuple = ()):
    """``(path, mapping)`` of every mapping with a ``_target_`` in ``node``, outermost first."""
    if isinstance(node, dict):
        if "_target_" in node:
            yield path, node
        for key, value in node.items():
            yield from _target_nodes(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _target_nodes(value, path + (index,))


TARGETED = [n for n in _leaf_names() if any(_target_nodes(yaml.safe_load((CONF / f"{n}.yaml").read_text())))]
"""The leaf configs whose yaml names a ``_target_`` (aliases name none: they pull another file)."""


def _bind(node: dict) -> inspect.BoundArguments:
    """Resolve ``node["_target_"]`` and bind the node's keys to its signature (raises on a
    target that does not import, or a key it does not take)."""
    target = get_object(node["_target_"])
    return inspect.signature(target).bind(**{k: v for k, v in node.items() if not k.startswith("_")})


def _outermost(name: str, node: dict) -> list[dict]:
    """The nodes ``instantiate`` is given: the leaf itself, or, for conf/rewards, each reward's ``fn``."""
    if name.startswith("rewards/"):
        return [spec["fn"] for spec in node.values()]
    return [node]


def _check_built(name: str, built, node: dict, expected: dict) -> None:
    if name.startswith("rewards/"):
        assert node[next(iter(node))]["weight"] == expected["weight"]
        expected = {k: v for k, v in expected.items() if k != "weight"}
    if name.startswith("judge/"):
        assert [type(j).__name__ for j in built.judges] == expected["judges"]
        assert built.cache is expected["cache"]
        return
    for attribute, value in expected.items():
        assert getattr(built, attribute) == value, (name, attribute)


def test_the_walk_finds_every_targeted_config():
    assert set(TARGETED) == set(BUILT) | set(BOUND)
    assert not set(BUILT) & set(BOUND)
    aliases = {n for n in _leaf_names() if n.split("/")[0] in APPS_WITH_GROUP and _is_alias(n)}
    assert aliases == set(ALIASES)


@pytest.mark.parametrize("name", TARGETED)
def test_every_target_resolves_binds_and_lives_in_its_group_package(name):
    if name.startswith("hydra/launcher/"):
        pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
        node = yaml.safe_load((CONF / f"{name}.yaml").read_text())
    else:
        node = _leaf_node(name)
    found = list(_target_nodes(node))
    assert found, f"{name}: no _target_ after composition"
    group = name.split("/")[0]
    for path, target_node in found:
        target = target_node["_target_"]
        package = GROUP_PACKAGES[PULLED_IN.get((group, path[0]), group) if path else group]
        assert target.startswith(package), (name, path, target)
        _bind(target_node)
    if name in BOUND:
        arguments = _bind(found[-1][1]).arguments
        assert {k: arguments[k] for k in BOUND[name]} == BOUND[name]


@pytest.mark.parametrize("name", sorted(BUILT))
def test_offline_configs_build_with_their_values(name):
    target, expected = BUILT[name]
    node = _leaf_node(name)
    spec = _outermost(name, node)[0]
    if "." in target:
        assert spec["_target_"] == target
    else:  # conf/editor/text.yaml: another agent may move the class; its name stays
        assert spec["_target_"].rpartition(".")[2] == target
    built = instantiate(spec)
    if inspect.isclass(get_object(spec["_target_"])):
        assert isinstance(built, get_object(spec["_target_"]))
    _check_built(name, built, node, expected)


def test_rubric_ocr_rewards_build_both_reward_functions():
    node = _leaf_node("rewards/rubric_ocr")
    built = {name: instantiate(spec["fn"]) for name, spec in node.items()}
    assert {name: type(fn).__name__ for name, fn in built.items()} == {"rubric": "RubricReward", "ocr": "OCRTextReward"}
    assert (node["rubric"]["weight"], node["ocr"]["weight"]) == (1.0, 0.5)
    assert built["rubric"].score == "pass_rate" and [type(j).__name__ for j in built["rubric"].judge.judges] == [
        "OCRJudge"
    ]


def test_a_wrong_target_or_key_fails_the_checks():
    node = _leaf_node("generator/tiny_sd3")
    with pytest.raises(TypeError, match="hieght"):
        _bind({**node, "hieght": 32})
    with pytest.raises(ImportError):
        _bind({**node, "_target_": "refine.generators.DiffusersGenerater"})
    model = _leaf_node("model/sana")
    with pytest.raises(TypeError, match="dtpye"):
        _bind({**{k: v for k, v in model.items() if k != "dtype"}, "dtpye": "bfloat16"})


MODELS = [
    "sd35_medium",
    "flux_dev",
    "qwen_image",
    "sana",
    "tiny_sd3",
    "tiny_flux",
    "tiny_qwen_image",
    "tiny_sana",
    "tiny_sd3_layout",
]


def test_each_model_has_one_generator_and_one_rollout_preset():
    names = {group: {p.stem for p in (CONF / group).glob("*.yaml")} for group in ("model", "rollout", "generator")}
    assert names["model"] == names["rollout"] == set(MODELS)
    assert set(MODELS) <= names["generator"]


@pytest.mark.parametrize("name", MODELS)
def test_generator_and_train_read_the_one_model_preset(name):
    from refine.generators import PIPELINES
    from training.diffusion.rollout import FAMILIES

    generator, model = _leaf_node(f"generator/{name}"), _leaf_node(f"model/{name}")
    assert generator["model"] == model  # the generator pulls the preset in; it repeats none of its keys
    assert not {"model_id", "pipeline", "torch_dtype", "tiny"} & set(generator)
    train = _compose("train", (f"model={name}",))
    assert OmegaConf.to_container(train.model, resolve=True) == model
    trainer = OmegaConf.to_container(train.trainer, resolve=True)
    assert (trainer["lora_target_modules"], trainer["base_model"]) == (model["lora_targets"], model["id"])
    rollout = OmegaConf.to_container(train.rollout, resolve=True)
    assert rollout == _leaf_node(f"rollout/{name}")  # picked by the model's name
    assert instantiate(generator).pipeline in PIPELINES
    # the training family takes the rollout preset's family_kwargs
    inspect.signature(FAMILIES[model["pipeline_class"]]).bind(
        None, rollout["resolution"], rollout["resolution"], **rollout["family_kwargs"]
    )


@pytest.mark.parametrize("name", ["tiny_sd3", "tiny_flux", "tiny_qwen_image", "tiny_sana"])
def test_a_tiny_model_loads_its_builders_pipeline_through_the_one_loader(name, monkeypatch):
    from rewards.models import pipelines

    model = instantiate(_leaf_node(f"model/{name}"))
    calls = []
    real = pipelines.load_pipeline
    monkeypatch.setattr(pipelines, "load_pipeline", lambda *a, **k: calls.append((a, k)) or real(*a, **k))
    pipe = model.load()
    assert type(pipe).__name__ == model.pipeline_class and model.tiny == pipelines.TINY_BUILDERS[model.pipeline_class]
    assert len(calls) == 1 and calls[0][0][:2] == (model.id, model.pipeline_class) and calls[0][1]["tiny"] is True
    assert calls[0][1]["device"] is None  # training's call: the weights stay on the CPU for accelerate


@pytest.mark.parametrize("old,new", sorted(ALIASES.items()))
def test_old_preset_names_compose_to_the_new_ones(old, new):
    assert OmegaConf.to_yaml(_compose(old)) == OmegaConf.to_yaml(_compose(new))
    group = old.split("/")[0]
    for app in APPS_WITH_GROUP[group]:
        required = ("out=x",) if app == "eval" else ()
        by_old = _compose(app, (f"{group}={old.split('/')[1]}", *required))
        by_new = _compose(app, (f"{group}={new.split('/')[1]}", *required))
        assert OmegaConf.to_yaml(by_old) == OmegaConf.to_yaml(by_new)
        assert OmegaConf.select(by_old, group)["_target_"] in {GENERATOR, DIFFUSERS_EDITOR}


def test_without_debug_the_apps_keep_their_defaults():
    refine, train = _compose("refine"), _compose("train")
    assert (refine.limit, refine.iterations, refine.wandb.mode) == (None, 3, "auto")
    assert (train.trainer.num_steps, train.trainer.group_size, train.wandb.mode, train.data.n) == (
        1000,
        8,
        "auto",
        2000,
    )


def test_debug_smoke_trains_one_step_at_tiny_sizes():
    from training.recipes.grpo import GRPOConfig

    cfg = _compose("train", ("debug=smoke",))
    trainer = OmegaConf.to_container(cfg.trainer, resolve=True)
    assert (trainer["num_steps"], trainer["prompts_per_step"], trainer["group_size"], trainer["batch_size"]) == (
        1,
        2,
        2,
        4,
    )
    assert (trainer["train_sampling_steps"], trainer["eval_sampling_steps"], trainer["resolution"]) == (2, 2, 16)
    assert (trainer["wandb_mode"], trainer["run_name"], cfg.data.n) == ("disabled", "smoke", 40)
    assert round(cfg.data.n * cfg.data.val_fraction) >= trainer["num_eval_prompts"] == 2
    GRPOConfig(**trainer)
    # a model chosen on the command line is kept: debug=smoke shrinks the run, not the model
    assert _compose("train", ("debug=smoke", "model=flux_dev")).model.id == "black-forest-labs/FLUX.1-dev"


def test_debug_smoke_runs(tmp_path):
    from training.cli import run

    history = run(_compose("train", ("debug=smoke", f"trainer.output_dir={tmp_path}")))
    assert len(history["loss"]) == 1
    assert (tmp_path / "smoke" / "step_1").is_dir()


def test_debug_refine_eval_and_judge_smoke():
    refine = _compose("refine", ("debug=refine_smoke",))
    assert (refine.limit, refine.iterations, refine.wandb.mode) == (1, 1, "disabled")
    assert [j.get("tiny", False) for j in refine.judge.judges] == [False, True]
    assert refine.writer.tiny and refine.editor.tiny and refine.generator.model.tiny == "tiny_sd3_pipeline"
    assert (refine.editor.pipeline, refine.generator.model.pipeline_class) == (
        "flux_kontext",
        "StableDiffusion3Pipeline",
    )
    # a choice on the command line wins over the smoke preset's
    assert _compose("refine", ("debug=refine_smoke", "editor=text")).editor == _compose("refine").editor

    evaluation = _compose("eval", ("debug=eval_smoke", "out=x"))
    assert evaluation.generator == _compose("eval", ("generator=tiny_sd3", "out=x")).generator
    assert (evaluation.limit, evaluation.generator.model.tiny) == (1, "tiny_sd3_pipeline")
    assert evaluation.judge == _compose("eval", ("out=x",)).judge

    judge = _compose("judge_run", ("debug=judge_smoke", "data=a", "out=b"))
    assert judge.limit == 1 and [j.get("tiny", False) for j in judge.judge.judges] == [False, True]
