"""GRPO math for flow models: group advantages, the clipped policy loss, the step KL, EMA.

Pure functions on tensors, shape legend as in ``training.diffusion.sde`` (B = prompts x G images).
Source: Flow-GRPO (arXiv 2505.05470, §4.1-4.2, Eq. 4-6) and DeepSeekMath GRPO.
"""

from __future__ import annotations

import torch


def group_advantages(
    rewards: torch.Tensor,
    group_size: int,
    std_scope: str = "global",
    eps: float = 1e-4,
    clip: float = 5.0,
) -> torch.Tensor:
    """Group-relative advantages A = (r - mean_group) / (std + eps), clipped to [-clip, clip].

    Flow-GRPO Eq. 4 (std over the group) or its "global std" variant (std over the whole
    gathered batch, ``sample.global_std = True`` in the reference SD3 configs), computed in
    float64 like the reference tracker (``flow_grpo/stat_tracking.py``, PerPromptStatTracker).
    A group whose rewards are all equal gets advantages of exactly 0 (in float32 the mean of
    eight copies of 1/3 rounds away from 1/3 and leaves |A| up to 6e-4), so
    ``nonzero_group_mask`` drops it as the reference does.

    Args:
        rewards: float (P * G,) where each run of ``group_size`` consecutive entries holds the
            G images of one prompt. Gather across ranks *before* calling this.
        group_size: G >= 2.
        std_scope: "global" (reference SD3 default) or "group".
        eps: added to the std (1e-4 in Flow-GRPO).
        clip: advantages are clipped to +-clip (``adv_clip_max`` = 5 in Flow-GRPO).

    Returns:
        float64 (P * G,) advantages.

    Raises:
        ValueError: bad group size, a length not divisible by G, an unknown std_scope, or
            non-finite rewards.
    """
    if group_size < 2:
        raise ValueError(f"group_advantages: group_size must be >= 2, got {group_size}")
    if rewards.ndim != 1 or rewards.numel() % group_size:
        raise ValueError(
            f"group_advantages: rewards must be 1-D with a length divisible by {group_size}, got {tuple(rewards.shape)}"
        )
    if not torch.isfinite(rewards).all():
        raise ValueError("group_advantages: rewards contain NaN or inf")
    r = rewards.double()
    grouped = r.view(-1, group_size)  # (P, G)
    centered = grouped - grouped.mean(dim=1, keepdim=True)  # (P, G)
    if std_scope == "group":
        std = grouped.std(dim=1, unbiased=False, keepdim=True)  # (P, 1)
    elif std_scope == "global":
        std = r.std(unbiased=False)
    else:
        raise ValueError(f"group_advantages: std_scope must be 'group' or 'global', got {std_scope!r}")
    constant = grouped.amax(dim=1, keepdim=True) == grouped.amin(dim=1, keepdim=True)  # (P, 1)
    centered = torch.where(constant, torch.zeros_like(centered), centered)
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


KL_FORMS = ("flow_grpo", "exact")


def step_kl(
    mean: torch.Tensor, ref_mean: torch.Tensor, std_t: torch.Tensor, dt: torch.Tensor, form: str = "flow_grpo"
) -> torch.Tensor:
    """The KL penalty of one denoising step to the reference policy, averaged over non-batch dims.

    Both forms are ||mean - ref_mean||^2 / (2 s^2) per element (Flow-GRPO Eq. 6, the closed-form
    KL of two equal-variance Gaussians), with

    * ``"flow_grpo"`` (default): s = std_t, the SDE's diffusion coefficient, exactly as the
      reference computes it (``scripts/train_sd3.py``: ``(prev_sample_mean -
      prev_sample_mean_ref) ** 2 ... / (2 * std_dev_t ** 2)``), so a beta copied from a
      Flow-GRPO config means the same thing here;
    * ``"exact"``: s = std_t sqrt(-dt), the step's own standard deviation, which is the true
      per-step KL; it is larger by 1 / |dt| (about 23x at T = 10), so beta must shrink to match.

    Args:
        mean: float32 (B, ...) policy step mean (grad).
        ref_mean: float32 (B, ...) reference step mean (LoRA disabled, no grad).
        std_t: float32 broadcastable to (B, ...): ``training.diffusion.sde.sde_std`` of the step.
        dt: float32 broadcastable to (B, ...): sigma_next - sigma (< 0).
        form: "flow_grpo" or "exact".

    Returns:
        float32 (B,), >= 0.

    Raises:
        ValueError: unknown form.
    """
    if form == "flow_grpo":
        var = std_t**2
    elif form == "exact":
        var = std_t**2 * (-dt)
    else:
        raise ValueError(f"step_kl: form must be one of {KL_FORMS}, got {form!r}")
    kl = (mean - ref_mean.detach()) ** 2 / (2 * var)
    return kl.mean(dim=tuple(range(1, kl.ndim)))
