"""Instruction editors over diffusers: FLUX.1-Kontext, Qwen-Image-Edit and InstructPix2Pix.

They see only the instruction text (the writer's output), not the failed checks. The pipeline
loads lazily on the first ``edit`` (``rewards.models.pipelines.load_pipeline``) with
``<Pipeline>.from_pretrained(model_id)``, or, with ``tiny=True``, is built with random weights in
code (rewards.models.tiny_pipelines).
"""

from __future__ import annotations

import math
from typing import Sequence

import torch
from PIL import Image

from refine.interfaces import Failure
from rewards.models.pipelines import LazyPipeline

PIPELINES = {
    "flux_kontext": "FluxKontextPipeline",
    "qwen_image_edit": "QwenImageEditPipeline",
    "instruct_pix2pix": "StableDiffusionInstructPix2PixPipeline",
}
"""pipeline name -> diffusers pipeline class (``rewards.models.pipelines.TINY_BUILDERS`` has its tiny twin)."""

SIZE_MULTIPLE = 16
"""Working sizes are snapped to multiples of 16 pixels (vae_scale_factor 8 x 2x2 latent packing)."""


def fit_to_area(width: int, height: int, max_area: int, multiple: int = SIZE_MULTIPLE) -> tuple[int, int]:
    """The (width, height) in pixels with the aspect ratio of ``width`` x ``height`` and area about
    ``max_area`` pixels, each side rounded to a multiple of ``multiple`` (at least ``multiple``).

    Example: ``fit_to_area(800, 450, 512 * 512)`` -> ``(688, 384)``.
    """
    scale = math.sqrt(max_area / (width * height))
    fitted_width = max(multiple, round(width * scale / multiple) * multiple)
    fitted_height = max(multiple, round(height * scale / multiple) * multiple)
    return fitted_width, fitted_height


class DiffusersEditor(LazyPipeline):
    """Editor (refine.interfaces) over a diffusers instruction-editing pipeline.

    The input image is edited at a working size of about ``max_area`` pixels with its aspect
    ratio (``fit_to_area``) and the result is resized back to the input size.

    Args:
        pipeline: ``"flux_kontext"`` (FluxKontextPipeline), ``"qwen_image_edit"``
            (QwenImageEditPipeline) or ``"instruct_pix2pix"`` (StableDiffusionInstructPix2PixPipeline).
        model_id: hub id or local folder for ``from_pretrained``; unused when ``tiny``.
        torch_dtype: ``"bfloat16"`` | ``"float16"`` | ``"float32"`` for the real checkpoint.
        device: torch device, e.g. ``"cuda"``, ``"cuda:1"``, ``"cpu"``.
        num_inference_steps: denoising steps.
        guidance_scale: flux_kontext: distilled guidance (2.5 for Kontext-dev); instruct_pix2pix:
            text CFG (7.5); unused by qwen_image_edit.
        image_guidance_scale: instruct_pix2pix only: image CFG (1.5).
        true_cfg_scale: qwen_image_edit only: true CFG against a blank negative prompt (4.0).
        max_area: working area in pixels (1024*1024 for Kontext and Qwen-Image-Edit, 512*512 for
            InstructPix2Pix). Qwen-Image-Edit still encodes its input at ~1 MP internally.
        auto_resize: flux_kontext only: let the pipeline snap the input to Kontext's preferred
            resolutions (true for the real model; false for tiny sizes).
        max_sequence_length: text tokens (T5 for Kontext, Qwen2.5-VL for Qwen-Image-Edit).
        tiny: build a random-weight pipeline in code (tests, CPU smoke runs).
        enable_model_cpu_offload: keep components on the CPU until used (less GPU memory).

    Raises:
        ValueError: at construction, an unknown ``pipeline`` or ``torch_dtype``.
        RuntimeError: on the first ``edit``, when ``device`` is CUDA and none is available.
    """

    kind = "editor"
    PIPELINES = PIPELINES

    def __init__(
        self,
        pipeline: str,
        model_id: str,
        torch_dtype: str = "bfloat16",
        device: str = "cuda",
        num_inference_steps: int = 28,
        guidance_scale: float = 2.5,
        image_guidance_scale: float = 1.5,
        true_cfg_scale: float = 4.0,
        max_area: int = 1024 * 1024,
        auto_resize: bool = True,
        max_sequence_length: int = 512,
        tiny: bool = False,
        enable_model_cpu_offload: bool = False,
    ):
        super().__init__(pipeline, model_id, torch_dtype, device, tiny, enable_model_cpu_offload)
        self.num_inference_steps, self.guidance_scale = num_inference_steps, guidance_scale
        self.image_guidance_scale, self.true_cfg_scale = image_guidance_scale, true_cfg_scale
        self.max_area, self.auto_resize, self.max_sequence_length = max_area, auto_resize, max_sequence_length

    def _call_kwargs(self, width: int, height: int) -> dict:
        """The pipeline-specific ``__call__`` arguments (diffusers 0.42 signatures)."""
        if self.pipeline == "flux_kontext":
            return dict(
                height=height,
                width=width,
                guidance_scale=self.guidance_scale,
                max_area=self.max_area,
                _auto_resize=self.auto_resize,
                max_sequence_length=self.max_sequence_length,
            )
        if self.pipeline == "qwen_image_edit":
            return dict(
                height=height,
                width=width,
                true_cfg_scale=self.true_cfg_scale,
                negative_prompt=" ",
                max_sequence_length=self.max_sequence_length,
            )
        # InstructPix2Pix edits at the size of the image it is given.
        return dict(guidance_scale=self.guidance_scale, image_guidance_scale=self.image_guidance_scale)

    def edit(self, image: Image.Image, instruction: str, failures: Sequence[Failure], seed: int) -> Image.Image:
        """Return ``image`` edited to follow ``instruction``: RGB, the same size as ``image``.

        ``failures`` is unused (instruction editors act on the text only). The noise comes from
        a CPU ``torch.Generator`` seeded with ``seed``: the same seed gives the same edit.
        """
        pipe = self._load()
        source = image.convert("RGB")
        width, height = fit_to_area(source.width, source.height, self.max_area)
        working = source.resize((width, height), Image.Resampling.LANCZOS)
        generator = torch.Generator("cpu").manual_seed(seed)
        with torch.inference_mode():
            edited = pipe(
                image=working,
                prompt=instruction,
                num_inference_steps=self.num_inference_steps,
                generator=generator,
                **self._call_kwargs(width, height),
            ).images[0]
        return edited.convert("RGB").resize(source.size, Image.Resampling.LANCZOS)
