"""Rollouts of flow-matching pipelines with per-step log-probs (Flow-GRPO §4.1).

A *family* wraps one diffusers pipeline type and knows four things: how to encode prompts into
transformer kwargs, how to draw initial latents, how to call its transformer for a velocity,
and how to decode latents into images. The sampler (``sample``) is family-agnostic: it walks
the FlowMatchEulerDiscreteScheduler sigmas with ``training.diffusion.sde`` steps and records what the
GRPO update needs. Shape legend in ``training.diffusion.sde``; Cond is a dict of tensors batched on dim 0.

Families: SD3 / SD3.5 (StableDiffusion3Pipeline), FLUX.1 (FluxPipeline), Sana (SanaPipeline,
with a FlowMatchEulerDiscreteScheduler) and Qwen-Image (QwenImagePipeline).
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

import numpy as np
import torch
from PIL import Image

from training.diffusion.sde import ode_step, sde_step

Cond = dict[str, torch.Tensor]


@contextmanager
def _truncation_quiet():
    """Encoding with diffusers' prompt-truncation warnings off: each family cuts prompts to its
    text encoders' lengths (CLIP 77 tokens, ``max_sequence_length`` for T5/Gemma/Qwen) by
    design, and the warning repeats for every batch of every GRPO step."""
    from diffusers.utils import logging as diffusers_logging
    from transformers.utils import logging as transformers_logging

    levels = diffusers_logging.get_verbosity(), transformers_logging.get_verbosity()
    diffusers_logging.set_verbosity_error()
    transformers_logging.set_verbosity_error()  # "Token indices sequence length is longer than ..."
    try:
        yield
    finally:
        diffusers_logging.set_verbosity(levels[0])
        transformers_logging.set_verbosity(levels[1])


def _to_unit_images(decoded: torch.Tensor) -> torch.Tensor:
    """VAE output in [-1, 1] (B, 3, H, W) -> float32 [0, 1]."""
    return (decoded.float() / 2 + 0.5).clamp(0, 1)


def _timesteps(sigma, batch: int, device, scale: float = 1.0) -> torch.Tensor:
    """The transformer's timestep input (batch,) = scale * sigma, from a float or a (batch,) tensor
    (samples of one update minibatch may sit at different steps: Flow-GRPO-Fast windows)."""
    # float64 product, then float32: a float sigma and the same value as a tensor give the same timestep
    return (torch.as_tensor(sigma, device=device).double() * scale).float().expand(batch).clone()


class SD3Family:
    """StableDiffusion3Pipeline (SD3, SD3.5). Latents (B, C, H/f, W/f); timestep = 1000 sigma."""

    def __init__(self, pipe, height: int, width: int, max_sequence_length: int = 256):
        self.pipe, self.height, self.width, self.max_sequence_length = pipe, height, width, max_sequence_length
        self.channels = pipe.transformer.config.in_channels
        self.scale = pipe.vae_scale_factor

    def encode(self, prompts: list[str], device) -> Cond:
        with _truncation_quiet():
            embeds, _, pooled, _ = self.pipe.encode_prompt(
                prompts,
                prompts,
                prompts,
                device=device,
                do_classifier_free_guidance=False,
                max_sequence_length=self.max_sequence_length,
            )
        return {"encoder_hidden_states": embeds, "pooled_projections": pooled}

    def latent_shape(self, batch: int) -> tuple[int, ...]:
        return (batch, self.channels, self.height // self.scale, self.width // self.scale)

    def image_seq_len(self) -> int:
        return (self.height // self.scale) * (self.width // self.scale)

    def velocity(self, transformer, latents: torch.Tensor, sigma: "float | torch.Tensor", cond: Cond) -> torch.Tensor:
        timestep = _timesteps(sigma, latents.shape[0], latents.device, 1000.0)
        return transformer(hidden_states=latents, timestep=timestep, return_dict=False, **cond)[0]

    @torch.no_grad()
    def decode(self, latents: torch.Tensor) -> torch.Tensor:
        vae = self.pipe.vae
        latents = latents.to(vae.dtype) / vae.config.scaling_factor + vae.config.shift_factor
        return _to_unit_images(vae.decode(latents, return_dict=False)[0])


class FluxFamily:
    """FluxPipeline (FLUX.1). Packed latents (B, H/2f * W/2f, 4C); timestep = sigma;
    FLUX.1-dev's distilled guidance enters as the ``guidance`` embedding, not as CFG."""

    def __init__(self, pipe, height: int, width: int, max_sequence_length: int = 512, guidance: float = 3.5):
        self.pipe, self.height, self.width, self.max_sequence_length = pipe, height, width, max_sequence_length
        self.channels = pipe.transformer.config.in_channels  # already 4 x VAE channels
        self.scale = pipe.vae_scale_factor
        self.guidance = guidance if pipe.transformer.config.guidance_embeds else None
        h, w = 2 * (height // (self.scale * 2)), 2 * (width // (self.scale * 2))
        self.img_ids = pipe._prepare_latent_image_ids(1, h // 2, w // 2, "cpu", torch.float32)  # (N, 3)

    def encode(self, prompts: list[str], device) -> Cond:
        with _truncation_quiet():
            embeds, pooled, _ = self.pipe.encode_prompt(
                prompts, prompts, device=device, max_sequence_length=self.max_sequence_length
            )
        return {"encoder_hidden_states": embeds, "pooled_projections": pooled}

    def latent_shape(self, batch: int) -> tuple[int, ...]:
        return (batch, self.image_seq_len(), self.channels)

    def image_seq_len(self) -> int:
        return (self.height // (self.scale * 2)) * (self.width // (self.scale * 2))

    def velocity(self, transformer, latents: torch.Tensor, sigma: "float | torch.Tensor", cond: Cond) -> torch.Tensor:
        b, device = latents.shape[0], latents.device
        guidance = None if self.guidance is None else torch.full((b,), self.guidance, device=device)
        txt_ids = torch.zeros(cond["encoder_hidden_states"].shape[1], 3, device=device)
        return transformer(
            hidden_states=latents,
            timestep=_timesteps(sigma, b, device),
            guidance=guidance,
            txt_ids=txt_ids,
            img_ids=self.img_ids.to(device),
            return_dict=False,
            **cond,
        )[0]

    @torch.no_grad()
    def decode(self, latents: torch.Tensor) -> torch.Tensor:
        vae = self.pipe.vae
        latents = self.pipe._unpack_latents(latents, self.height, self.width, self.scale)  # (B, C, H/f, W/f)
        latents = latents.to(vae.dtype) / vae.config.scaling_factor + vae.config.shift_factor
        return _to_unit_images(vae.decode(latents, return_dict=False)[0])


class SanaFamily:
    """SanaPipeline. Latents (B, C, H/32, W/32); timestep = 1000 sigma x timestep_scale."""

    def __init__(self, pipe, height: int, width: int, max_sequence_length: int = 300):
        self.pipe, self.height, self.width, self.max_sequence_length = pipe, height, width, max_sequence_length
        self.channels = pipe.transformer.config.in_channels
        self.scale = pipe.vae_scale_factor
        self.timestep_scale = pipe.transformer.config.timestep_scale

    def encode(self, prompts: list[str], device) -> Cond:
        with _truncation_quiet():
            embeds, mask, _, _ = self.pipe.encode_prompt(
                prompts, do_classifier_free_guidance=False, device=device, max_sequence_length=self.max_sequence_length
            )
        return {"encoder_hidden_states": embeds, "encoder_attention_mask": mask}

    def latent_shape(self, batch: int) -> tuple[int, ...]:
        return (batch, self.channels, self.height // self.scale, self.width // self.scale)

    def image_seq_len(self) -> int:
        return (self.height // self.scale) * (self.width // self.scale)

    def velocity(self, transformer, latents: torch.Tensor, sigma: "float | torch.Tensor", cond: Cond) -> torch.Tensor:
        timestep = _timesteps(sigma, latents.shape[0], latents.device, 1000.0 * self.timestep_scale)
        return transformer(latents, timestep=timestep, return_dict=False, **cond)[0]

    @torch.no_grad()
    def decode(self, latents: torch.Tensor) -> torch.Tensor:
        vae = self.pipe.vae
        return _to_unit_images(vae.decode(latents.to(vae.dtype) / vae.config.scaling_factor, return_dict=False)[0])


class QwenImageFamily:
    """QwenImagePipeline. Packed latents (B, H/2f * W/2f, 4C); timestep = sigma."""

    def __init__(self, pipe, height: int, width: int, max_sequence_length: int = 1024):
        self.pipe, self.height, self.width, self.max_sequence_length = pipe, height, width, max_sequence_length
        self.channels = pipe.transformer.config.in_channels
        self.scale = pipe.vae_scale_factor

    def encode(self, prompts: list[str], device) -> Cond:
        with _truncation_quiet():
            embeds, mask = self.pipe.encode_prompt(prompts, device=device, max_sequence_length=self.max_sequence_length)
        # The pipeline returns mask None when no token is padding; the transformer reads a
        # missing mask the same way, and a Cond holds tensors only.
        return (
            {"encoder_hidden_states": embeds}
            if mask is None
            else {"encoder_hidden_states": embeds, "encoder_hidden_states_mask": mask}
        )

    def latent_shape(self, batch: int) -> tuple[int, ...]:
        return (batch, self.image_seq_len(), self.channels)

    def image_seq_len(self) -> int:
        return (self.height // (self.scale * 2)) * (self.width // (self.scale * 2))

    def velocity(self, transformer, latents: torch.Tensor, sigma: "float | torch.Tensor", cond: Cond) -> torch.Tensor:
        b = latents.shape[0]
        img_shapes = [[(1, self.height // self.scale // 2, self.width // self.scale // 2)]] * b
        return transformer(
            hidden_states=latents,
            timestep=_timesteps(sigma, b, latents.device),
            img_shapes=img_shapes,
            return_dict=False,
            **cond,
        )[0]

    @torch.no_grad()
    def decode(self, latents: torch.Tensor) -> torch.Tensor:
        vae = self.pipe.vae
        latents = self.pipe._unpack_latents(latents, self.height, self.width, self.scale).to(
            vae.dtype
        )  # (B, C, 1, h, w)
        shape = (1, vae.config.z_dim, 1, 1, 1)
        mean = torch.tensor(vae.config.latents_mean).view(shape).to(latents)
        std = torch.tensor(vae.config.latents_std).view(shape).to(latents)
        return _to_unit_images(vae.decode(latents * std + mean, return_dict=False)[0][:, :, 0])


FAMILIES = {
    "StableDiffusion3Pipeline": SD3Family,
    "FluxPipeline": FluxFamily,
    "SanaPipeline": SanaFamily,
    "QwenImagePipeline": QwenImageFamily,
}


def family_for(pipe, height: int, width: int, **kwargs):
    """The family adapter for ``pipe``. Raises ValueError for an unsupported pipeline class."""
    name = type(pipe).__name__
    if name not in FAMILIES:
        raise ValueError(f"GRPO rollouts support {sorted(FAMILIES)}, got pipeline class {name}")
    return FAMILIES[name](pipe, height, width, **kwargs)


def schedule_sigmas(scheduler, num_steps: int, image_seq_len: int) -> torch.Tensor:
    """The sampling sigmas of a FlowMatchEulerDiscreteScheduler for ``num_steps`` steps.

    Mirrors the pipelines: a fixed ``shift`` (SD3) or, with ``use_dynamic_shifting`` (FLUX,
    Qwen-Image), a shift mu interpolated from the image token count (FLUX ``calculate_shift``).

    Returns:
        float32 (T + 1,), decreasing from <= 1 to 0.
    """
    if scheduler.config.get("use_dynamic_shifting", False):
        c = scheduler.config
        slope = (c.max_shift - c.base_shift) / (c.max_image_seq_len - c.base_image_seq_len)
        mu = c.base_shift + slope * (image_seq_len - c.base_image_seq_len)
        scheduler.set_timesteps(sigmas=np.linspace(1.0, 1.0 / num_steps, num_steps), mu=mu, device="cpu")
    else:
        scheduler.set_timesteps(num_steps, device="cpu")
    return scheduler.sigmas.detach().float().cpu().clone()


def guided_velocity(
    family, transformer, latents, sigma: "float | torch.Tensor", cond: Cond, uncond: Cond | None, cfg_scale: float
):
    """v = v_u + s (v_c - v_u) when ``uncond`` is given (CFG), else v_c. Two forward passes, so
    that conditionings of different token lengths (Qwen-Image) need no padding."""
    v = family.velocity(transformer, latents, sigma, cond)
    if uncond is None:
        return v
    v_uncond = family.velocity(transformer, latents, sigma, uncond)
    return v_uncond + cfg_scale * (v - v_uncond)


@dataclass
class Rollout:
    """What one batch of SDE rollouts leaves for the GRPO update.

    Attributes:
        latents: float32 (B, K, ...) latents before each of the K recorded (SDE) steps.
        next_latents: float32 (B, K, ...) latents after them.
        log_probs: float32 (B, K) log-probs of those steps under the sampling policy.
        steps: the K recorded step indices into ``sigmas`` (ascending).
        final: float32 (B, ...) final latents (sigma = 0).
    """

    latents: torch.Tensor
    next_latents: torch.Tensor
    log_probs: torch.Tensor
    steps: list[int]
    final: torch.Tensor


@torch.no_grad()
def sample(
    family,
    transformer,
    cond: Cond,
    sigmas: torch.Tensor,
    sde_steps: list[int],
    noise_level: float,
    generator: torch.Generator,
    uncond: Cond | None = None,
    cfg_scale: float = 1.0,
    autocast=None,
) -> Rollout:
    """Sample B latents, SDE at ``sde_steps`` (log-probs recorded) and ODE elsewhere.

    Args:
        family: a family adapter (``family_for``).
        transformer: the (LoRA) transformer to sample with.
        cond: conditioning of the B samples from ``family.encode`` (each tensor (B, ...)).
        sigmas: float32 (T + 1,) from ``schedule_sigmas``.
        sde_steps: indices in [0, T) sampled with the SDE; [] gives plain ODE (evaluation).
        noise_level: SDE noise level a.
        generator: draws the initial noise and the SDE noise (CPU generator).
        uncond: the unconditional (negative-prompt) conditioning for classifier-free guidance,
            from the same ``family.encode`` (e.g. of ``[negative_prompt]``), each tensor (B, ...)
            (expand a (1, ...) encoding to B rows); its token length, and whether it carries a
            padding mask (Qwen-Image), may differ from ``cond``'s: the two are separate forward
            passes (``guided_velocity``).
            None: no CFG, one forward pass per step and ``cfg_scale`` is ignored.
        cfg_scale: CFG scale s in v = v_u + s (v_c - v_u) (classifier-free guidance, Ho &
            Salimans 2022, with s = 1 + w); used only with ``uncond``.
        autocast: a context-manager factory for mixed precision (None: fp32).

    Returns:
        a ``Rollout`` with K = len(sde_steps).
    """
    batch = next(iter(cond.values())).shape[0]
    device = next(iter(cond.values())).device
    x = torch.randn(family.latent_shape(batch), generator=generator, dtype=torch.float32).to(device)
    record = set(sde_steps)
    before, after, log_probs = [], [], []
    for i in range(len(sigmas) - 1):
        s, s_next = sigmas[i].item(), sigmas[i + 1].item()
        with autocast() if autocast else nullcontext():
            v = guided_velocity(family, transformer, x.to(transformer.dtype), s, cond, uncond, cfg_scale)
        if i in record:
            x_next, logp, _, _ = sde_step(v, x, s, s_next, noise_level, generator=generator)
            before.append(x)
            after.append(x_next)
            log_probs.append(logp)
        else:
            x_next = ode_step(v, x, s, s_next)
        x = x_next
    stack = lambda xs, empty: torch.stack(xs, dim=1) if xs else empty  # noqa: E731
    empty = x.new_zeros((batch, 0, *x.shape[1:]))
    return Rollout(
        latents=stack(before, empty),  # (B, K, ...)
        next_latents=stack(after, empty),  # (B, K, ...)
        log_probs=stack(log_probs, x.new_zeros((batch, 0))),  # (B, K)
        steps=sorted(record),
        final=x,
    )


def to_pil(images: torch.Tensor) -> list[Image.Image]:
    """float [0, 1] (B, 3, H, W) -> B RGB PIL images."""
    arrays = (images.permute(0, 2, 3, 1).cpu().numpy() * 255).round().astype(np.uint8)  # (B, H, W, 3)
    return [Image.fromarray(a) for a in arrays]
