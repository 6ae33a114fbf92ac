"""One denoising step of a rectified-flow model, as an ODE (Euler) or an SDE with a log-prob.

Shape legend used in this package: B = batch (prompts x group), G = group size (images per
prompt), T = denoising steps, C/H/W = latent channels/height/width; FLUX and Qwen-Image use
packed latents (B, N, D). Every function here works on any latent shape whose first dim is B.

Sigmas follow diffusers' FlowMatchEulerDiscreteScheduler: x_sigma = (1 - sigma) x_0 + sigma
eps, sigma = 1 is pure noise, sampling walks sigma down to 0, and the model predicts the
velocity v = eps - x_0.
"""

from __future__ import annotations

import math

import torch


def sde_std(sigma: torch.Tensor, sigma_next: torch.Tensor, noise_level: float) -> torch.Tensor:
    """The SDE's diffusion coefficient std_t = a * sqrt(sigma / (1 - sigma)).

    Flow-GRPO (arXiv 2505.05470, §4.1, Eq. 8-9). At sigma == 1 the formula diverges, so the
    denominator uses the next sigma instead (as the reference implementation does).

    Args:
        sigma: current sigma, float32 tensor broadcastable to the latents, values in (0, 1].
        sigma_next: next sigma, same shape, values in [0, sigma).
        noise_level: the noise level a (0.7 in Flow-GRPO).

    Returns:
        std_t, float32, same shape as ``sigma``.
    """
    safe = torch.where(sigma >= 1.0, sigma_next, sigma)
    return noise_level * torch.sqrt(sigma / (1.0 - safe))


def gaussian_log_prob(x: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    """log N(x; mean, std^2) per element, averaged over all non-batch dims.

    Args:
        x, mean: float32 (B, ...).
        std: float32, broadcastable to ``x``, > 0.

    Returns:
        float32 (B,): the mean per-element log-density (nats). Flow-GRPO averages rather than
        sums, which keeps the ratio exp(logp_new - logp_old) well scaled at any resolution.
    """
    per_element = -((x - mean) ** 2) / (2 * std**2) - torch.log(std) - 0.5 * math.log(2 * math.pi)
    return per_element.mean(dim=tuple(range(1, x.ndim)))


def _as_column(value: float | torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """A scalar or (B,) sigma as a float32 tensor broadcastable to ``like`` (B, ...)."""
    t = torch.as_tensor(value, dtype=torch.float32, device=like.device)
    if t.ndim == 1:
        t = t.view(-1, *([1] * (like.ndim - 1)))
    return t


def ode_step(velocity: torch.Tensor, sample: torch.Tensor, sigma, sigma_next) -> torch.Tensor:
    """Deterministic Euler step of the flow ODE: x_next = x + (sigma_next - sigma) * v.

    Args:
        velocity: model output v, (B, ...), any float dtype.
        sample: current latents x, (B, ...).
        sigma, sigma_next: floats or (B,) tensors.

    Returns:
        x_next, float32, same shape as ``sample``.
    """
    sample = sample.float()
    dt = _as_column(sigma_next, sample) - _as_column(sigma, sample)
    return sample + dt * velocity.float()


def sde_step(
    velocity: torch.Tensor,
    sample: torch.Tensor,
    sigma,
    sigma_next,
    noise_level: float,
    next_sample: torch.Tensor | None = None,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """One step of the marginal-preserving SDE, with the log-prob of the step taken.

    Flow-GRPO (arXiv 2505.05470, Eq. 9), with dt = sigma_next - sigma < 0 and std_t from
    ``sde_std``::

        mean   = x (1 + std_t^2 / (2 sigma) dt) + v (1 + std_t^2 (1 - sigma) / (2 sigma)) dt
        x_next = mean + std_t sqrt(-dt) eps,   eps ~ N(0, I)

    All math runs in float32 (bf16 overflows here).

    Args:
        velocity: model output v, (B, ...), any float dtype.
        sample: current latents x, (B, ...).
        sigma, sigma_next: floats or (B,) tensors with 0 <= sigma_next < sigma <= 1.
        noise_level: a in std_t; must be > 0.
        next_sample: when given, the step is not sampled: its log-prob under the new mean is
            returned (the update pass re-scores the rollout's own steps).
        generator: draws eps when ``next_sample`` is None.

    Returns:
        (next_sample float32 (B, ...), log_prob float32 (B,), mean float32 (B, ...),
        step_std float32 broadcastable to (B, ...)) where step_std = std_t * sqrt(-dt) is the
        standard deviation of x_next given x.

    Raises:
        ValueError: when noise_level <= 0 or sigma_next >= sigma.
    """
    if noise_level <= 0:
        raise ValueError(f"sde_step: noise_level must be > 0, got {noise_level}")
    sample, velocity = sample.float(), velocity.float()
    sigma_t = _as_column(sigma, sample)
    sigma_n = _as_column(sigma_next, sample)
    dt = sigma_n - sigma_t
    if (dt >= 0).any():
        raise ValueError(f"sde_step: sigma_next must be < sigma, got {sigma_next} >= {sigma}")
    std_t = sde_std(sigma_t, sigma_n, noise_level)
    mean = sample * (1 + std_t**2 / (2 * sigma_t) * dt) + velocity * (1 + std_t**2 * (1 - sigma_t) / (2 * sigma_t)) * dt
    step_std = std_t * torch.sqrt(-dt)
    if next_sample is None:
        noise_device = generator.device if generator is not None else sample.device
        eps = torch.randn(sample.shape, generator=generator, device=noise_device, dtype=torch.float32).to(sample.device)
        next_sample = mean + step_std * eps
    next_sample = next_sample.float().detach()
    return next_sample, gaussian_log_prob(next_sample, mean, step_std), mean, step_std


def noise_latents(x0: torch.Tensor, noise: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """The rectified-flow forward process x_t = (1 - t) x0 + t eps.

    The one noising function of the recipes that train on clean samples (DiffusionNFT, AWM).
    Source: NVlabs/DiffusionNFT train_nft_sd3.py lines 864-870 (``t = timesteps / 1000``,
    ``xt = (1 - t) * x0 + t * noise``);
    scxue/advantage_weighted_matching train_sd3_awm.py line 1232.

    Args:
        x0: float (b, ...) clean latents.
        noise: float (b, ...) standard normal noise eps, same shape as ``x0``.
        t: float (b,) noise levels in [0, 1] (t = sigma of the sampling schedule).

    Returns:
        (b, ...) x_t, in the promoted dtype of the inputs.

    Raises:
        ValueError: ``noise`` and ``x0`` differ in shape, or ``t`` is not (b,).
    """
    if noise.shape != x0.shape:
        raise ValueError(f"noise_latents: noise {tuple(noise.shape)} must match x0 {tuple(x0.shape)}")
    if t.shape != (x0.shape[0],):
        raise ValueError(f"noise_latents: t must be ({x0.shape[0]},), got {tuple(t.shape)}")
    te = t.to(x0.device).view(-1, *([1] * (x0.ndim - 1)))  # (b, 1, ..., 1)
    return (1 - te) * x0 + te * noise
