"""Diffusers instruction editors: tiny pipelines from the Hydra configs, seeds, sizes, errors."""

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_module
from hydra.utils import instantiate
from PIL import Image, ImageDraw

from refine.editors.diffusers import DiffusersEditor, fit_to_area


def editor_config(name: str):
    with initialize_config_module("conf", version_base="1.3"):
        return compose(config_name=f"editor/{name}").editor


def slide(width: int = 48, height: int = 40) -> Image.Image:
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((4, 4, width - 5, 12), fill=(20, 40, 160))
    draw.rectangle((8, 20, 16, height - 4), fill=(200, 30, 30))
    return image


def test_fit_to_area_keeps_aspect_and_snaps_to_16():
    # 800x450 at 512*512: scale sqrt(262144 / 360000) = 0.8533 -> 682.7 x 384.0 -> 688 x 384.
    assert fit_to_area(800, 450, 512 * 512) == (688, 384)
    # 48x40 at 32*32: scale 0.7303 -> 35.05 x 29.2 -> 32 x 32.
    assert fit_to_area(48, 40, 32 * 32) == (32, 32)
    # Never below one multiple.
    assert fit_to_area(1000, 10, 32 * 32) == (320, 16)


@pytest.mark.parametrize("name", ["tiny", "tiny_instruct_pix2pix", "tiny_qwen_image_edit"])
def test_tiny_editor_from_config_edits_at_input_size(name):
    editor = instantiate(editor_config(name))
    assert isinstance(editor, DiffusersEditor) and editor.tiny
    image = slide()
    first = editor.edit(image, "Make the title text read 'Q3 revenue'.", [], seed=0)
    repeat = editor.edit(image, "Make the title text read 'Q3 revenue'.", [], seed=0)
    reseeded = editor.edit(image, "Make the title text read 'Q3 revenue'.", [], seed=1)
    for edited in (first, repeat, reseeded):
        assert edited.mode == "RGB" and edited.size == (48, 40)
    a, b, c = (np.asarray(x).astype(int) for x in (first, repeat, reseeded))
    assert np.array_equal(a, b)
    assert np.abs(a - c).mean() > 1.0
    # The random-weight model does change the image.
    assert np.abs(a - np.asarray(image).astype(int)).mean() > 1.0


def test_cuda_requested_without_gpu_fails_with_one_clear_line(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    editor = instantiate(editor_config("flux_kontext"))
    with pytest.raises(RuntimeError) as error:
        editor.edit(slide(), "fix the title", [], seed=0)
    assert str(error.value) == (
        "editor=flux_kontext needs a GPU; device=cuda not available; use editor=tiny or device=cpu"
    )


@pytest.mark.parametrize(
    "name,pipeline,model_id,steps",
    [
        ("flux_kontext", "flux_kontext", "black-forest-labs/FLUX.1-Kontext-dev", 28),
        ("qwen_image_edit", "qwen_image_edit", "Qwen/Qwen-Image-Edit", 50),
        ("instruct_pix2pix", "instruct_pix2pix", "timbrooks/instruct-pix2pix", 20),
    ],
)
def test_real_editor_configs_instantiate_without_loading(name, pipeline, model_id, steps):
    editor = instantiate(editor_config(name))
    assert (editor.pipeline, editor.model_id, editor.num_inference_steps) == (pipeline, model_id, steps)
    assert editor.device == "cuda" and not editor.tiny and editor._pipe is None


def test_real_editor_guidance_values_follow_the_model_cards():
    assert instantiate(editor_config("flux_kontext")).guidance_scale == 2.5
    assert instantiate(editor_config("qwen_image_edit")).true_cfg_scale == 4.0
    ip2p = instantiate(editor_config("instruct_pix2pix"))
    assert (ip2p.guidance_scale, ip2p.image_guidance_scale, ip2p.max_area) == (7.5, 1.5, 512 * 512)


def test_bad_pipeline_or_dtype_is_rejected_at_construction():
    with pytest.raises(ValueError, match="editor pipeline='kontext' is not one of"):
        DiffusersEditor(pipeline="kontext", model_id="x")
    with pytest.raises(ValueError, match="torch_dtype='bf16' is not one of"):
        DiffusersEditor(pipeline="flux_kontext", model_id="x", torch_dtype="bf16")


def test_real_loading_path_reads_a_saved_pipeline(tmp_path):
    """The from_pretrained branch (what GPU users run) on a tiny FLUX-Kontext saved to disk:
    same weights, same seed -> the same edit as the in-code tiny pipeline."""
    from rewards.models.tiny_pipelines import tiny_flux_kontext_pipeline

    tiny_flux_kontext_pipeline(seed=0).save_pretrained(tmp_path / "kontext")
    settings = dict(pipeline="flux_kontext", device="cpu", num_inference_steps=2, max_area=32 * 32, auto_resize=False)
    loaded = DiffusersEditor(model_id=str(tmp_path / "kontext"), torch_dtype="float32", **settings)
    built = DiffusersEditor(model_id="tiny", tiny=True, **settings)
    a, b = loaded.edit(slide(), "fix the title", [], seed=3), built.edit(slide(), "fix the title", [], seed=3)
    assert type(loaded._pipe).__name__ == "FluxKontextPipeline"
    assert np.array_equal(np.asarray(a), np.asarray(b))
