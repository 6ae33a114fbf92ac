"""GRPO math for flow models: group advantages, the clipped policy loss, the step KL, EMA.

Pure functions on tensors, shape legend as in ``training.sde`` (B = prompts x G images).
Source: Flow-GRPO (arXiv 2505.05470, §4.1-4.2, Eq. 4-6) and DeepSeekMath GRPO.
"""

from __future__ import annotations

import torch


def group_advantages(
    rewards: torch.Tensor,
    group_size: int,
    std_scope: str = "group",
    eps: float = 1e-4,
    clip: float = 5.0,
) -> torch.Tensor:
    """Group-relative advantages A = (r - mean_group) / (std + eps), clipped to [-clip, clip].

    Flow-GRPO Eq. 4 (std over the group) or its "global std" variant (std over the whole
    gathered batch, which stops tiny reward gaps inside a group being blown up).

    Args:
        rewards: float (P * G,) where each run of ``group_size`` consecutive entries holds the
            G images of one prompt. Gather across ranks *before* calling this.
        group_size: G >= 2.
        std_scope: "group" or "global".
        eps: added to the std (1e-4 in Flow-GRPO).
        clip: advantages are clipped to +-clip (5 in Flow-GRPO).

    Returns:
        float32 (P * G,) advantages.

    Raises:
        ValueError: bad group size, a length not divisible by G, an unknown std_scope, or
            non-finite rewards.
    """
    if group_size < 2:
        raise ValueError(f"group_advantages: group_size must be >= 2, got {group_size}")
    if rewards.ndim != 1 or rewards.numel() % group_size:
        raise ValueError(f"group_advantages: rewards must be 1-D with a length divisible by {group_size}, got {tuple(rewards.shape)}")
    if not torch.isfinite(rewards).all():
        raise ValueError("group_advantages: rewards contain NaN or inf")
    grouped = rewards.float().view(-1, group_size)  # (P, G)
    centered = grouped - grouped.mean(dim=1, keepdim=True)  # (P, G)
    if std_scope == "group":
        std = grouped.std(dim=1, unbiased=False, keepdim=True)  # (P, 1)
    elif std_scope == "global":
        std = rewards.float().std(unbiased=False)
    else:
        raise ValueError(f"group_advantages: std_scope must be 'group' or 'global', got {std_scope!r}")
    return (centered / (std + eps)).clamp(-clip, clip).reshape(-1)  # (P * G,)


def nonzero_group_mask(advantages: torch.Tensor, group_size: int) -> torch.Tensor:
    """Which samples belong to a group with at least one non-zero advantage.

    A group whose images all got the same reward carries no learning signal (Flow-GRPO drops
    it). Args: advantages (P * G,). Returns: bool (P * G,).
    """
    grouped = advantages.view(-1, group_size)  # (P, G)
    keep = (grouped != 0).any(dim=1, keepdim=True)  # (P, 1)
    return keep.expand_as(grouped).reshape(-1)


def clipped_policy_loss(
    log_prob: torch.Tensor, old_log_prob: torch.Tensor, advantages: torch.Tensor, clip_range: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """PPO-style clipped surrogate loss of one denoising step (Flow-GRPO Eq. 5).

    ratio = exp(logp - logp_old); loss = mean(max(-A ratio, -A clip(ratio, 1 - eps, 1 + eps))).

    Args:
        log_prob: float32 (B,) log-probs of the rollout's steps under the current policy (grad).
        old_log_prob: float32 (B,) log-probs recorded during the rollout (no grad). They must
            come from the rollout, never be recomputed in the update pass.
        advantages: float32 (B,).
        clip_range: eps (1e-4 in Flow-GRPO, 1e-5 in its fast configs).

    Returns:
        (loss scalar, ratio (B,) detached, clip_fraction scalar: the share of samples whose
        ratio lies outside [1 - eps, 1 + eps]).
    """
    ratio = torch.exp(log_prob - old_log_prob.detach())
    unclipped = -advantages * ratio
    clipped = -advantages * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    loss = torch.maximum(unclipped, clipped).mean()
    clip_fraction = ((ratio - 1.0).abs() > clip_range).float().mean()
    return loss, ratio.detach(), clip_fraction.detach()


def step_kl(mean: torch.Tensor, ref_mean: torch.Tensor, step_std: torch.Tensor) -> torch.Tensor:
    """KL(N(mean, s^2 I) || N(ref_mean, s^2 I)) per element, averaged over non-batch dims.

    Closed form for equal-variance Gaussians: ||mean - ref_mean||^2 / (2 s^2) (Flow-GRPO Eq. 6,
    with s = std_t sqrt(-dt), the step's own standard deviation; averaged like the log-prob).

    Args:
        mean: float32 (B, ...) policy step mean (grad).
        ref_mean: float32 (B, ...) reference step mean (LoRA disabled, no grad).
        step_std: float32 broadcastable to (B, ...).

    Returns:
        float32 (B,), >= 0.
    """
    kl = (mean - ref_mean.detach()) ** 2 / (2 * step_std**2)
    return kl.mean(dim=tuple(range(1, kl.ndim)))


@torch.no_grad()
def ema_update(ema_params: list[torch.Tensor], params: list[torch.Tensor], decay: float) -> None:
    """In place: ema <- decay * ema + (1 - decay) * param, for each pair (same shapes)."""
    for e, p in zip(ema_params, params, strict=True):
        e.mul_(decay).add_(p.detach().to(e.dtype), alpha=1.0 - decay)
