"""Text-to-image generators for an item's first image: SD3, FLUX, Qwen-Image and Sana (diffusers).

The checkpoint is a ``rewards.models.base_model.BaseModel`` (``conf/model/<name>.yaml``, pulled in
by ``conf/generator/<name>.yaml``). It loads lazily on the first ``generate`` (``BaseModel.load``)
with ``<Pipeline>.from_pretrained(model.id)``, or, for a tiny model (``model.tiny``), builds a
random-weight pipeline in code (rewards.models.tiny_pipelines) so tests and CPU smoke runs
exercise the same calls without a model hub.
"""

from __future__ import annotations

import torch
from PIL import Image

from rewards.models.base_model import BaseModel
from rewards.models.pipelines import LazyPipeline

PIPELINES = {
    "sd3": "StableDiffusion3Pipeline",
    "flux": "FluxPipeline",
    "qwen_image": "QwenImagePipeline",
    "sana": "SanaPipeline",
}
"""pipeline name -> diffusers pipeline class (``rewards.models.pipelines.TINY_BUILDERS`` has its tiny twin)."""

PIPELINE_NAMES = {cls: name for name, cls in PIPELINES.items()}
"""diffusers pipeline class -> the generator's pipeline name (messages, ``name``, call arguments)."""


class DiffusersGenerator(LazyPipeline):
    """Generator (refine.interfaces) over a diffusers text-to-image pipeline.

    Args:
        model: the checkpoint (``conf/model/<name>.yaml``): its ``pipeline_class`` is
            StableDiffusion3Pipeline (``pipeline`` "sd3"), FluxPipeline ("flux"),
            QwenImagePipeline ("qwen_image") or SanaPipeline ("sana"); a tiny one is built in code.
        device: torch device, e.g. ``"cuda"``, ``"cuda:1"``, ``"cpu"``.
        num_inference_steps: denoising (ODE) steps.
        guidance_scale: CFG scale for sd3/sana; the distilled guidance embedding for flux;
            for qwen_image it is the true-CFG scale (``true_cfg_scale``, with a blank negative
            prompt), as Qwen-Image has no guidance embedding.
        height, width: output size in pixels (multiples of 16).
        max_sequence_length: text-encoder tokens for sd3/flux (T5), qwen_image and sana.
        enable_model_cpu_offload: keep components on the CPU until used (less GPU memory).

    Attributes ``pipeline``, ``model_id``, ``torch_dtype`` and ``tiny`` are the model's, as the
    loader and ``rubricloop-eval lora=...`` read them.

    Raises:
        ValueError: at construction, a model whose ``pipeline_class`` is not a generator's.
        RuntimeError: on the first ``generate``, when ``device`` is CUDA and none is available.
    """

    kind = "generator"
    PIPELINES = PIPELINES

    def __init__(
        self,
        model: BaseModel,
        device: str = "cuda",
        num_inference_steps: int = 28,
        guidance_scale: float = 4.5,
        height: int = 1024,
        width: int = 1024,
        max_sequence_length: int = 256,
        enable_model_cpu_offload: bool = False,
    ):
        if model.pipeline_class not in PIPELINE_NAMES:
            raise ValueError(
                f"generator model {model.id!r}: pipeline_class={model.pipeline_class!r} is not one of "
                f"{sorted(PIPELINE_NAMES)}"
            )
        pipeline, tiny = PIPELINE_NAMES[model.pipeline_class], model.tiny is not None
        super().__init__(pipeline, model.id, model.dtype, device, tiny, enable_model_cpu_offload)
        self.model = model
        self.num_inference_steps, self.guidance_scale = num_inference_steps, guidance_scale
        self.height, self.width, self.max_sequence_length = height, width, max_sequence_length

    def _load(self):
        """The pipeline, loaded (``BaseModel.load`` on ``device``) on the first call and kept."""
        if self._pipe is None:
            self._pipe = self.model.load(
                device=self.device,
                enable_model_cpu_offload=self.enable_model_cpu_offload,
                what=f"{self.kind}={self.pipeline}",
                fix=f"{self.kind}=tiny or device=cpu",
            )
        return self._pipe

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
