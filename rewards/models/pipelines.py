"""The one diffusers pipeline loader, and the lazy holder that generators and editors build on.

``load_pipeline`` serves all three users: refine's generators and instruction editors (device
placement or CPU offload, ``tiny=True`` for the random-weight builders of
``rewards.models.tiny_pipelines``) and GRPO training (the weights stay on the CPU for accelerate to
place, Sana's scheduler swapped for flow-matching Euler). Generators and training reach it through
``rewards.models.base_model.BaseModel.load`` (``conf/model/*.yaml``).
"""

from __future__ import annotations

from rewards.models import devices

TINY_BUILDERS = {
    "StableDiffusion3Pipeline": "tiny_sd3_pipeline",
    "FluxPipeline": "tiny_flux_pipeline",
    "QwenImagePipeline": "tiny_qwen_image_pipeline",
    "SanaPipeline": "tiny_sana_pipeline",
    "FluxKontextPipeline": "tiny_flux_kontext_pipeline",
    "QwenImageEditPipeline": "tiny_qwen_image_edit_pipeline",
    "StableDiffusionInstructPix2PixPipeline": "tiny_instruct_pix2pix_pipeline",
}
"""diffusers pipeline class name -> its tiny random-weight builder in ``rewards.models.tiny_pipelines``
(imported only when a tiny pipeline is built: it loads every tiny model's code)."""


def load_pipeline(
    model_id: str,
    pipeline_class: str,
    torch_dtype: str = "bfloat16",
    scheduler_shift: float | None = None,
    tiny: bool = False,
    device: str | None = None,
    enable_model_cpu_offload: bool = False,
    what: str = "pipeline",
    fix: str = "device=cpu",
):
    """Load a diffusers pipeline (or, with ``tiny``, build its random-weight twin in code).

    1. ``device`` given: fail early if it is CUDA and none is available.
    2. Real checkpoint: ``diffusers.<pipeline_class>.from_pretrained(model_id, torch_dtype=...)``.
       Tiny: ``tiny_pipelines.<TINY_BUILDERS[pipeline_class]>(seed=0)``, float32 (``torch_dtype`` is ignored: the
       CPU has no fast bfloat16).
    3. ``scheduler_shift`` given: the scheduler becomes a ``FlowMatchEulerDiscreteScheduler`` with
       that shift (Sana ships a DPM-Solver scheduler; GRPO needs flow-matching sigmas).
    4. ``device`` given: ``enable_model_cpu_offload(device=device)`` (components move to the GPU
       one at a time) when asked, else ``.to(device)``. ``device=None`` leaves the weights on
       the CPU (training: accelerate places them).
    5. Progress bars off.

    Args:
        model_id: hub id or local folder, e.g. "stabilityai/stable-diffusion-3.5-medium";
            unused when ``tiny``.
        pipeline_class: a diffusers pipeline class name, e.g. "StableDiffusion3Pipeline".
        torch_dtype: "bfloat16" | "float16" | "float32" for the real weights.
        scheduler_shift: flow-matching shift of a replacement scheduler, or None to keep the
            checkpoint's scheduler.
        tiny: build a random-weight pipeline in code (tests, CPU smoke runs; no hub).
        device: torch device ("cuda", "cuda:1", "cpu"), or None for no placement.
        enable_model_cpu_offload: with ``device``: keep components on the CPU until used.
        what, fix: how the user selected this pipeline and what to change instead, for the
            device error (e.g. "generator=sd3", "generator=tiny or device=cpu").

    Returns:
        The ``diffusers.DiffusionPipeline``.

    Raises:
        RuntimeError: ``<what> needs a GPU; device=<device> not available; use <fix>``.
        ValueError: ``pipeline_class`` is not a diffusers pipeline (or has no tiny builder when
            ``tiny``), or ``torch_dtype`` is unknown.
        OSError: ``from_pretrained`` cannot find or read ``model_id``.
    """
    import diffusers

    if device is not None:
        devices.require_device(device, what, fix)
    if tiny:
        if pipeline_class not in TINY_BUILDERS:
            raise ValueError(f"pipeline_class={pipeline_class!r} has no tiny builder; one of {sorted(TINY_BUILDERS)}")
        from rewards.models import tiny_pipelines

        pipe = getattr(tiny_pipelines, TINY_BUILDERS[pipeline_class])(seed=0)
    else:
        if not isinstance(getattr(diffusers, pipeline_class, None), type):
            raise ValueError(f"pipeline_class={pipeline_class!r} is not a diffusers pipeline class")
        dtype = devices.torch_dtype(torch_dtype)
        pipe = getattr(diffusers, pipeline_class).from_pretrained(model_id, torch_dtype=dtype)
    if scheduler_shift is not None:
        pipe.scheduler = diffusers.FlowMatchEulerDiscreteScheduler(shift=scheduler_shift)
    if device is not None:
        if enable_model_cpu_offload and not tiny:
            pipe.enable_model_cpu_offload(device=device)
        else:
            pipe.to(device)
    pipe.set_progress_bar_config(disable=True)
    return pipe


class LazyPipeline:
    """A component holding one diffusers pipeline, chosen by name and loaded on first use.

    Subclasses set ``kind`` (their config group, for messages: "generator", "editor") and
    ``PIPELINES`` (pipeline name -> diffusers class name), and call ``_load()`` when they need
    the pipeline. The constructor checks the name and the dtype, so a typo fails before
    anything loads.

    Raises:
        ValueError: ``<kind> pipeline=<name> is not one of [...]``, or an unknown ``torch_dtype``.
    """

    kind = "pipeline"
    PIPELINES: dict[str, str] = {}

    def __init__(
        self,
        pipeline: str,
        model_id: str,
        torch_dtype: str,
        device: str,
        tiny: bool,
        enable_model_cpu_offload: bool,
    ):
        if pipeline not in self.PIPELINES:
            raise ValueError(f"{self.kind} pipeline={pipeline!r} is not one of {sorted(self.PIPELINES)}")
        devices.torch_dtype(torch_dtype)  # fail at construction on a typo
        self.name = f"tiny_{pipeline}" if tiny else pipeline
        self.pipeline, self.model_id, self.torch_dtype, self.device = pipeline, model_id, torch_dtype, device
        self.tiny, self.enable_model_cpu_offload = tiny, enable_model_cpu_offload
        self._pipe = None

    def _load(self):
        """The pipeline, loaded (``load_pipeline``) on the first call and kept."""
        if self._pipe is None:
            self._pipe = load_pipeline(
                self.model_id,
                self.PIPELINES[self.pipeline],
                self.torch_dtype,
                tiny=self.tiny,
                device=self.device,
                enable_model_cpu_offload=self.enable_model_cpu_offload,
                what=f"{self.kind}={self.pipeline}",
                fix=f"{self.kind}=tiny or device=cpu",
            )
        return self._pipe
