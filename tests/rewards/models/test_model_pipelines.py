"""The one diffusers loader (rewards.models.pipelines): tiny or saved checkpoints, scheduler shift, errors."""

import pytest
import torch
from diffusers import FlowMatchEulerDiscreteScheduler

from rewards.models.pipelines import TINY_BUILDERS, load_pipeline
from rewards.models.tiny_pipelines import tiny_sd3_pipeline


def same_weights(a: torch.nn.Module, b: torch.nn.Module) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


def test_every_tiny_builder_exists():
    from rewards.models import tiny_pipelines

    for pipeline_class, builder in TINY_BUILDERS.items():
        assert callable(getattr(tiny_pipelines, builder)), pipeline_class


def test_a_saved_checkpoint_loads_like_the_training_presets(tmp_path):
    """conf/model/sana.yaml's keys (model_id, pipeline_class, torch_dtype, scheduler_shift), no device:
    the weights stay on the CPU in the asked dtype, the scheduler becomes flow-matching Euler."""
    tiny_sd3_pipeline(seed=0).save_pretrained(tmp_path / "sd3")
    pipe = load_pipeline(str(tmp_path / "sd3"), "StableDiffusion3Pipeline", "bfloat16", scheduler_shift=2.5)
    assert type(pipe).__name__ == "StableDiffusion3Pipeline"
    assert pipe.transformer.dtype == torch.bfloat16 and pipe.transformer.device.type == "cpu"
    assert isinstance(pipe.scheduler, FlowMatchEulerDiscreteScheduler) and pipe.scheduler.config.shift == 2.5
    assert pipe._progress_bar_config == {"disable": True}
    built = load_pipeline("unused", "StableDiffusion3Pipeline", tiny=True, device="cpu")
    assert same_weights(built.transformer, tiny_sd3_pipeline(seed=0).transformer)
    assert built.transformer.dtype == torch.float32 and built._progress_bar_config == {"disable": True}


def test_errors_name_what_is_wrong(monkeypatch):
    with pytest.raises(ValueError, match="pipeline_class='SD4Pipeline' is not a diffusers pipeline class"):
        load_pipeline("x", "SD4Pipeline")
    with pytest.raises(ValueError, match="pipeline_class='StableDiffusionPipeline' has no tiny builder"):
        load_pipeline("x", "StableDiffusionPipeline", tiny=True)
    with pytest.raises(ValueError, match="torch_dtype='bf16' is not one of"):
        load_pipeline("x", "FluxPipeline", "bf16")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(RuntimeError) as error:
        load_pipeline("x", "FluxPipeline", device="cuda", what="editor=x", fix="editor=tiny or device=cpu")
    assert str(error.value) == "editor=x needs a GPU; device=cuda not available; use editor=tiny or device=cpu"
