"""One description of a base diffusion model, read by refine's generators, rubricloop-eval and training.

``conf/model/<name>.yaml`` holds one :class:`BaseModel` per checkpoint (``_target_:
rewards.models.base_model.BaseModel``). ``conf/generator/<name>.yaml`` pulls it in as
``generator.model`` (its defaults list) and adds how refine and rubricloop-eval sample from it;
rubricloop-train reads it as ``model`` and takes how it samples from ``conf/rollout/<name>.yaml``.
A tiny model (random weights built in code: tests, CPU smoke runs) is the same schema with
``tiny`` naming its builder in ``rewards.models.tiny_pipelines``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rewards.models import pipelines
from rewards.models.devices import TORCH_DTYPES


@dataclass(frozen=True)
class BaseModel:
    """A diffusers text-to-image checkpoint and how to load it.

    Args:
        id: hub id or local folder for ``from_pretrained`` (e.g.
            ``"stabilityai/stable-diffusion-3.5-medium"``); for a tiny model, the builder's dotted
            path (the label its LoRA checkpoints record as ``base_model``).
        pipeline_class: the diffusers pipeline class name, e.g. ``"StableDiffusion3Pipeline"``.
        dtype: ``"bfloat16"`` | ``"float16"`` | ``"float32"``: the real weights' dtype (a tiny
            model is float32 whatever this says: the CPU has no fast bfloat16).
        lora_targets: the transformer modules a LoRA adapts (peft ``target_modules``).
        tiny: None for a real checkpoint; else the builder in ``rewards.models.tiny_pipelines``
            that makes the random-weight twin of ``pipeline_class`` (``pipelines.TINY_BUILDERS``).

    Raises:
        ValueError: one line naming the model and the field, e.g.
            ``model 'x': dtype='bf16' is not one of ['bfloat16', 'float16', 'float32']``.
    """

    id: str
    pipeline_class: str
    dtype: str = "bfloat16"
    lora_targets: Sequence[str] = ("to_q", "to_k", "to_v", "to_out.0")
    tiny: str | None = None

    def __post_init__(self):
        where = f"model {self.id!r}"
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"model: id={self.id!r} must be a non-empty hub id, folder or builder path")
        if not isinstance(self.pipeline_class, str) or not self.pipeline_class.endswith("Pipeline"):
            raise ValueError(f"{where}: pipeline_class={self.pipeline_class!r} is not a diffusers pipeline class name")
        if self.dtype not in TORCH_DTYPES:
            raise ValueError(f"{where}: dtype={self.dtype!r} is not one of {sorted(TORCH_DTYPES)}")
        targets = self.lora_targets
        if isinstance(targets, str) or not targets or not all(isinstance(t, str) and t for t in targets):
            raise ValueError(f"{where}: lora_targets={targets!r} must be a non-empty list of module names")
        object.__setattr__(self, "lora_targets", tuple(targets))  # a Hydra ListConfig becomes a tuple
        if self.tiny is not None and pipelines.TINY_BUILDERS.get(self.pipeline_class) != self.tiny:
            builders = sorted(set(pipelines.TINY_BUILDERS.values()))
            raise ValueError(
                f"{where}: tiny={self.tiny!r} is not the tiny builder of pipeline_class={self.pipeline_class!r} "
                f"(rewards.models.tiny_pipelines: {pipelines.TINY_BUILDERS.get(self.pipeline_class, builders)})"
            )

    def load(
        self,
        device: str | None = None,
        enable_model_cpu_offload: bool = False,
        scheduler_shift: float | None = None,
        what: str = "pipeline",
        fix: str = "device=cpu",
    ):
        """The pipeline: ``pipelines.load_pipeline`` with this model's id, class, dtype and tiny flag.

        Args:
            device, enable_model_cpu_offload, what, fix: as ``load_pipeline`` (device None: the
                weights stay on the CPU, for accelerate to place).
            scheduler_shift: replace the scheduler by flow-matching Euler with this shift
                (rubricloop-train on Sana); None keeps the checkpoint's.

        Raises:
            RuntimeError, ValueError, OSError: as ``load_pipeline``.
        """
        return pipelines.load_pipeline(
            self.id,
            self.pipeline_class,
            self.dtype,
            scheduler_shift=scheduler_shift,
            tiny=self.tiny is not None,
            device=device,
            enable_model_cpu_offload=enable_model_cpu_offload,
            what=what,
            fix=fix,
        )
