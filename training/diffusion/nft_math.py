"""DiffusionNFT math: forward noising, the advantage -> optimality-probability map, the positive
and implicit negative velocities, the adaptively weighted x0 loss, the velocity KL, and the
old-policy decay schedule with its weight update.

Pure functions on tensors. Shape legend: b samples of one minibatch, ``...`` the latent dims of
one sample (C, h, w for SD3; L, D for the packed latents of FLUX); b-vectors are (b,).

Source: DiffusionNFT (Zheng et al., arXiv 2509.16117), NVlabs/DiffusionNFT at commit
24af5554898d85e93efa492f42b5e9cdf4156e9b, ``scripts/train_nft_sd3.py`` (line numbers below are
of that file at that commit).
"""

from __future__ import annotations

import torch

ADV_MODES = ("all", "positive_only", "negative_only", "one_only", "binary")
"""``optimality_probability``'s advantage modes (the reference's ``config.train.adv_mode``)."""

DECAY_TYPES = {0: (0, 0.0, 0.0), 1: (0, 0.001, 0.5), 2: (75, 0.0075, 0.999)}
"""decay_type -> (flat, uprate, uphold) of ``return_decay`` (train_nft_sd3.py lines 169-189)."""


def _col(t: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """(b,) -> (b, 1, ..., 1) with ``like.ndim`` dims, on ``like``'s device."""
    return t.to(like.device).view(-1, *([1] * (like.ndim - 1)))


def _per_sample_mean(x: torch.Tensor) -> torch.Tensor:
    """(b, ...) -> (b,): mean over every dim but the first."""
    return x.mean(dim=tuple(range(1, x.ndim)))


def optimality_probability(advantages: torch.Tensor, adv_clip: float, mode: str = "all") -> torch.Tensor:
    """The optimality probability r in [0, 1] of each sample, from its advantage.

    A_c = clip(A, -adv_clip, adv_clip), then by ``mode``: "all" keeps A_c; "positive_only" clips
    it to [0, adv_clip]; "negative_only" to [-adv_clip, 0]; "one_only" maps it to 1 where
    A_c > 0, else 0; "binary" to sign(A_c). Then r = clamp((A_c / adv_clip) / 2 + 0.5, 0, 1).
    So zero advantage gives r = 0.5, and "one_only" / "binary" give r = 0.5 +- 0.5 / adv_clip
    (not 0 / 1), exactly as the reference.

    Source: train_nft_sd3.py lines 910-929.

    Args:
        advantages: float (b,) advantages A.
        adv_clip: adv_clip_max > 0.
        mode: one of ``ADV_MODES``.

    Returns:
        (b,) r, in ``advantages``' dtype.

    Raises:
        ValueError: unknown ``mode`` or ``adv_clip`` <= 0.
    """
    if mode not in ADV_MODES:
        raise ValueError(f"optimality_probability: mode must be one of {list(ADV_MODES)}, got {mode!r}")
    if not adv_clip > 0:
        raise ValueError(f"optimality_probability: adv_clip must be > 0, got {adv_clip}")
    a = advantages.clamp(-adv_clip, adv_clip)
    if mode == "positive_only":
        a = a.clamp(0, adv_clip)
    elif mode == "negative_only":
        a = a.clamp(-adv_clip, 0)
    elif mode == "one_only":
        a = torch.where(a > 0, torch.ones_like(a), torch.zeros_like(a))
    elif mode == "binary":
        a = torch.sign(a)
    return ((a / adv_clip) / 2.0 + 0.5).clamp(0, 1)


def nft_predictions(v_theta: torch.Tensor, v_old: torch.Tensor, beta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The positive and implicit negative velocities of DiffusionNFT.

    v+ = beta v_theta + (1 - beta) v_old and v- = (1 + beta) v_old - beta v_theta; ``v_old`` is
    detached (no gradient flows into the sampling policy).

    Source: train_nft_sd3.py lines 934-937.

    Args:
        v_theta: float (b, ...) velocity of the trained policy (with grad).
        v_old: float (b, ...) velocity of the old (sampling) policy at the same x_t and t.
        beta: the guidance strength beta (reference ``config.beta``; 1.0, 0.1 for OCR).

    Returns:
        (v_pos, v_neg), each (b, ...).
    """
    v_old = v_old.detach()
    return beta * v_theta + (1 - beta) * v_old, (1.0 + beta) * v_old - beta * v_theta


def adaptive_x0_loss(x0_pred: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
    """Adaptively weighted x0 regression: mean((x0_pred - x0)^2 / w) per sample, with
    w = max(mean |x0_pred - x0| per sample, 1e-5) computed in float64 and detached.

    Source: train_nft_sd3.py lines 940-957 (the same weighting for the positive and negative
    branch).

    Args:
        x0_pred: float (b, ...) predicted clean latents (with grad).
        x0: float (b, ...) the clean latents.

    Returns:
        float64 (b,) per-sample loss (the float64 weight promotes it, as in the reference).
    """
    with torch.no_grad():
        w = (x0_pred.double() - x0.double()).abs().mean(dim=tuple(range(1, x0.ndim)), keepdim=True).clip(min=1e-5)
    return _per_sample_mean((x0_pred - x0) ** 2 / w)


def nft_policy_loss(
    v_theta: torch.Tensor,
    v_old: torch.Tensor,
    x_t: torch.Tensor,
    x0: torch.Tensor,
    t: torch.Tensor,
    r: torch.Tensor,
    beta: float,
    adv_clip: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The DiffusionNFT policy loss of one trained timestep.

    x0+ = x_t - t v+, x0- = x_t - t v- (``nft_predictions``), each scored by
    ``adaptive_x0_loss``; per sample l = r l+ / beta + (1 - r) l- / beta; the loss is
    mean(l * adv_clip) (the reference scales by ``adv_clip_max``).

    Source: train_nft_sd3.py lines 934-960.

    Args:
        v_theta: float (b, ...) trained-policy velocity at (x_t, t) (with grad).
        v_old: float (b, ...) old-policy velocity at (x_t, t).
        x_t: float (b, ...) noised latents (``noise_latents``).
        x0: float (b, ...) clean latents.
        t: float (b,) noise levels.
        r: float (b,) optimality probabilities (``optimality_probability``).
        beta: guidance strength beta > 0.
        adv_clip: adv_clip_max, the loss scale.

    Returns:
        (loss float64 scalar, unweighted per-sample l float64 (b,)).

    Raises:
        ValueError: ``beta`` <= 0 (the loss divides by it).
    """
    if not beta > 0:
        raise ValueError(f"nft_policy_loss: beta must be > 0, got {beta}")
    v_pos, v_neg = nft_predictions(v_theta, v_old, beta)
    te = _col(t, x_t)
    positive = adaptive_x0_loss(x_t - te * v_pos, x0)  # (b,)
    negative = adaptive_x0_loss(x_t - te * v_neg, x0)  # (b,)
    r = r.to(positive.device)
    per_sample = r * positive / beta + (1.0 - r) * negative / beta
    return (per_sample * adv_clip).mean(), per_sample


def velocity_kl(v_theta: torch.Tensor, v_ref: torch.Tensor) -> torch.Tensor:
    """The KL surrogate to the reference model: mean((v_theta - v_ref)^2) per sample.

    The trainer adds ``train.beta`` times its batch mean to the loss. Source: train_nft_sd3.py
    lines 966-970.

    Args:
        v_theta: float (b, ...) trained-policy velocity.
        v_ref: float (b, ...) velocity with the LoRA disabled.

    Returns:
        (b,) in the promoted dtype.
    """
    return _per_sample_mean((v_theta - v_ref) ** 2)


def return_decay(step: int, decay_type: int) -> float:
    """The old-policy decay after ``step`` optimizer steps: 0 while step < flat, then
    min((step - flat) * uprate, uphold), with (flat, uprate, uphold) = ``DECAY_TYPES[decay_type]``
    (0: always 0, the old policy is the current one; 1: ramps 0.001 per step to 0.5;
    2: 0 for 75 steps, then 0.0075 per step to 0.999).

    Source: train_nft_sd3.py lines 169-189 (``return_decay``).

    Args:
        step: optimizer steps so far (>= 0; the reference's ``global_step``).
        decay_type: 0, 1 or 2.

    Returns:
        the decay in [0, 1).

    Raises:
        ValueError: unknown ``decay_type``.
    """
    if decay_type not in DECAY_TYPES:
        raise ValueError(f"return_decay: decay_type must be one of {sorted(DECAY_TYPES)}, got {decay_type!r}")
    flat, uprate, uphold = DECAY_TYPES[decay_type]
    if step < flat:
        return 0.0
    return min((step - flat) * uprate, uphold)
