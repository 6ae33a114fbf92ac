"""Text-to-image generators for an item's first image: SD3, FLUX, Qwen-Image and Sana (diffusers).

Each loads lazily on the first ``generate`` (``rewards.models.pipelines.load_pipeline``) with
``<Pipeline>.from_pretrained(model_id)``, or, with ``tiny=True``, builds a random-weight pipeline
in code (rewards.models.tiny_pipelines) so tests and CPU smoke runs exercise the same calls
without a model hub.
"""

from __future__ import annotations

import torch
from PIL import Image

from rewards.models.pipelines import LazyPipeline

PIPELINES = {
    "sd3": "StableDiffusion3Pipeline",
    "flux": "FluxPipeline",
    "qwen_image": "QwenImagePipeline",
    "sana": "SanaPipeline",
}
"""pipeline name -> diffusers pipeline class (``rewards.models.pipelines.TINY_BUILDERS`` has its tiny twin)."""


class DiffusersGenerator(LazyPipeline):
    """Generator (refine.interfaces) over a diffusers text-to-image pipeline.

    Args:
        pipeline: ``"sd3"`` (StableDiffusion3Pipeline), ``"flux"`` (FluxPipeline),
            ``"qwen_image"`` (QwenImagePipeline) or ``"sana"`` (SanaPipeline).
        model_id: hub id or local folder for ``from_pretrained``; unused when ``tiny``.
        torch_dtype: ``"bfloat16"`` | ``"float16"`` | ``"float32"`` for the real checkpoint.
        device: torch device, e.g. ``"cuda"``, ``"cuda:1"``, ``"cpu"``.
        num_inference_steps: denoising (ODE) steps.
        guidance_scale: CFG scale for sd3/sana; the distilled guidance embedding for flux;
            for qwen_image it is the true-CFG scale (``true_cfg_scale``, with a blank negative
            prompt), as Qwen-Image has no guidance embedding.
        height, width: output size in pixels (multiples of 16).
        max_sequence_length: text-encoder tokens for sd3/flux (T5), qwen_image and sana.
        tiny: build a random-weight pipeline in code (tests, CPU smoke runs).
        enable_model_cpu_offload: keep components on the CPU until used (less GPU memory).

    Raises:
        ValueError: at construction, an unknown ``pipeline`` or ``torch_dtype``.
        RuntimeError: on the first ``generate``, when ``device`` is CUDA and none is available.
    """

    kind = "generator"
    PIPELINES = PIPELINES

    def __init__(
        self,
        pipeline: str,
        model_id: str,
        torch_dtype: str = "bfloat16",
        device: str = "cuda",
        num_inference_steps: int = 28,
        guidance_scale: float = 4.5,
        height: int = 1024,
        width: int = 1024,
        max_sequence_length: int = 256,
        tiny: bool = False,
        enable_model_cpu_offload: bool = False,
    ):
        super().__init__(pipeline, model_id, torch_dtype, device, tiny, enable_model_cpu_offload)
        self.num_inference_steps, self.guidance_scale = num_inference_steps, guidance_scale
        self.height, self.width, self.max_sequence_length = height, width, max_sequence_length

    def _call_kwargs(self) -> dict:
        """The pipeline-specific ``__call__`` arguments (diffusers 0.42 signatures)."""
        if self.pipeline == "qwen_image":
            return dict(true_cfg_scale=self.guidance_scale, negative_prompt=" ")
        if self.pipeline == "sana":
            # Binning snaps the size to Sana's 1024 px aspect-ratio table, then resizes back.
            return dict(guidance_scale=self.guidance_scale, use_resolution_binning=not self.tiny)
        return dict(guidance_scale=self.guidance_scale)

    def generate(self, prompt: str, seed: int) -> Image.Image:
        """Return an RGB ``width`` x ``height`` image for ``prompt``; the same seed gives the same image.

        The initial noise comes from a CPU ``torch.Generator`` seeded with ``seed``, so a seed
        gives the same latents on any device.
        """
        pipe = self._load()
        generator = torch.Generator("cpu").manual_seed(seed)
        with torch.inference_mode():
            image = pipe(
                prompt=prompt,
                height=self.height,
                width=self.width,
                num_inference_steps=self.num_inference_steps,
                max_sequence_length=self.max_sequence_length,
                generator=generator,
                **self._call_kwargs(),
            ).images[0]
        return image.convert("RGB")
