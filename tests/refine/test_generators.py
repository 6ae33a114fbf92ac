"""Diffusers text-to-image generators: tiny pipelines from the Hydra configs, seeds, sizes, errors."""

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_module
from hydra.utils import instantiate

from refine.generators import DiffusersGenerator
from rewards.models.base_model import BaseModel

TINY_FLUX = BaseModel("tiny", "FluxPipeline", "float32", tiny="tiny_flux_pipeline")


def generator_config(name: str):
    with initialize_config_module("conf", version_base="1.3"):
        return compose(config_name=f"generator/{name}").generator


@pytest.mark.parametrize(
    "name,pipeline", [("tiny", "sd3"), ("tiny_flux", "flux"), ("tiny_qwen_image", "qwen_image"), ("tiny_sana", "sana")]
)
def test_tiny_generator_from_config_is_seeded(name, pipeline):
    generator = instantiate(generator_config(name))
    assert isinstance(generator, DiffusersGenerator) and generator.pipeline == pipeline
    assert generator.name == f"tiny_{pipeline}"
    prompt = "A slide titled 'Q3 revenue' with a bar chart of four regions."
    first, repeat, reseeded = (generator.generate(prompt, seed) for seed in (7, 7, 8))
    for image in (first, repeat, reseeded):
        assert image.mode == "RGB" and image.size == (32, 32)
    a, b, c = (np.asarray(x).astype(int) for x in (first, repeat, reseeded))
    assert np.array_equal(a, b)
    assert np.abs(a - c).mean() > 1.0


def test_generator_size_comes_from_config():
    generator = DiffusersGenerator(TINY_FLUX, device="cpu", num_inference_steps=2, height=32, width=64)
    assert generator.generate("a poster", seed=0).size == (64, 32)


def test_cuda_requested_without_gpu_fails_with_one_clear_line(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    generator = instantiate(generator_config("sd3"))
    with pytest.raises(RuntimeError) as error:
        generator.generate("a slide", seed=0)
    assert str(error.value) == "generator=sd3 needs a GPU; device=cuda not available; use generator=tiny or device=cpu"


@pytest.mark.parametrize(
    "name,model_id",
    [
        ("sd3", "stabilityai/stable-diffusion-3.5-medium"),
        ("flux", "black-forest-labs/FLUX.1-dev"),
        ("qwen_image", "Qwen/Qwen-Image"),
        ("sana", "Efficient-Large-Model/Sana_1600M_1024px_diffusers"),
    ],
)
def test_real_generator_configs_instantiate_without_loading(name, model_id):
    generator = instantiate(generator_config(name))
    assert (generator.pipeline, generator.model_id, generator.device) == (name, model_id, "cuda")
    assert generator.torch_dtype == "bfloat16" and not generator.tiny and generator._pipe is None


def test_a_model_no_generator_runs_is_rejected():
    with pytest.raises(
        ValueError, match="generator model 'x': pipeline_class='StableDiffusionXLPipeline' is not one of"
    ):
        DiffusersGenerator(BaseModel("x", "StableDiffusionXLPipeline"))


def test_real_loading_path_reads_a_saved_pipeline(tmp_path):
    """The from_pretrained branch (what GPU users run) on a tiny SD3 saved to disk: same weights,
    same seed -> the same image as the in-code tiny pipeline."""
    from rewards.models.tiny_pipelines import tiny_sd3_pipeline

    tiny_sd3_pipeline(seed=0).save_pretrained(tmp_path / "sd3")
    settings = dict(device="cpu", num_inference_steps=2, height=32, width=32, max_sequence_length=77)
    loaded = DiffusersGenerator(BaseModel(str(tmp_path / "sd3"), "StableDiffusion3Pipeline", "float32"), **settings)
    built = DiffusersGenerator(BaseModel("tiny", "StableDiffusion3Pipeline", tiny="tiny_sd3_pipeline"), **settings)
    a, b = loaded.generate("a slide", seed=3), built.generate("a slide", seed=3)
    assert type(loaded._pipe).__name__ == "StableDiffusion3Pipeline"
    assert np.array_equal(np.asarray(a), np.asarray(b))
