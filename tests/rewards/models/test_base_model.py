"""rewards.models.base_model.BaseModel: the one description of a checkpoint, its checks and its loader."""

import pytest

from rewards.models import pipelines
from rewards.models.base_model import BaseModel


@pytest.mark.parametrize(
    "fields,message",
    [
        (dict(id="", pipeline_class="FluxPipeline"), "model: id='' must be a non-empty hub id, folder or builder path"),
        (
            dict(id="x", pipeline_class="Flux"),
            "model 'x': pipeline_class='Flux' is not a diffusers pipeline class name",
        ),
        (
            dict(id="x", pipeline_class="FluxPipeline", dtype="bf16"),
            "model 'x': dtype='bf16' is not one of ['bfloat16', 'float16', 'float32']",
        ),
        (
            dict(id="x", pipeline_class="FluxPipeline", lora_targets="to_q"),
            "model 'x': lora_targets='to_q' must be a non-empty list of module names",
        ),
        (
            dict(id="x", pipeline_class="FluxPipeline", lora_targets=["to_q", ""]),
            "model 'x': lora_targets=['to_q', ''] must be a non-empty list of module names",
        ),
        (
            dict(id="x", pipeline_class="FluxPipeline", tiny="tiny_sd3_pipeline"),
            "model 'x': tiny='tiny_sd3_pipeline' is not the tiny builder of pipeline_class='FluxPipeline' "
            "(rewards.models.tiny_pipelines: tiny_flux_pipeline)",
        ),
    ],
)
def test_a_bad_field_fails_in_one_line_naming_it(fields, message):
    with pytest.raises(ValueError) as error:
        BaseModel(**fields)
    assert str(error.value) == message and "\n" not in message


def test_a_tiny_model_of_a_class_without_a_builder_lists_the_builders():
    with pytest.raises(
        ValueError, match=r"pipeline_class='StableDiffusionXLPipeline' \(rewards.models.tiny_pipelines: \["
    ):
        BaseModel("x", "StableDiffusionXLPipeline", tiny="tiny_sdxl_pipeline")


def test_lora_targets_become_a_tuple_and_the_model_is_hashable():
    model = BaseModel("x", "FluxPipeline", lora_targets=["to_q", "to_v"])
    assert model.lora_targets == ("to_q", "to_v") and hash(model) == hash(
        BaseModel("x", "FluxPipeline", "bfloat16", ("to_q", "to_v"))
    )


def test_load_passes_the_fields_to_the_one_loader(monkeypatch):
    calls = []
    monkeypatch.setattr(pipelines, "load_pipeline", lambda *a, **k: calls.append((a, k)) or "pipe")
    model = BaseModel("org/ckpt", "SanaPipeline", "float16")
    assert model.load(device="cuda:1", enable_model_cpu_offload=True, scheduler_shift=3.0, what="w", fix="f") == "pipe"
    assert calls == [
        (
            ("org/ckpt", "SanaPipeline", "float16"),
            dict(scheduler_shift=3.0, tiny=False, device="cuda:1", enable_model_cpu_offload=True, what="w", fix="f"),
        )
    ]


def test_a_tiny_model_builds_its_random_weight_pipeline():
    pipe = BaseModel("t", "StableDiffusion3Pipeline", "float32", tiny="tiny_sd3_pipeline").load(device="cpu")
    assert type(pipe).__name__ == "StableDiffusion3Pipeline" and pipe.transformer.dtype.is_floating_point
    assert next(pipe.transformer.parameters()).device.type == "cpu"
