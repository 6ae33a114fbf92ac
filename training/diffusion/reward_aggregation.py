"""How several rewards become one advantage per image: ``trainer.reward_aggregation``.

* ``"sum"`` (the default): the weighted sum of the rewards per image (what the rewarder's total
  already is, ``rewards.reward_fns.combine_rewards``), then group-relative advantages
  (``training.diffusion.grpo_math.group_advantages``).
* ``"gdpo"``: each reward normalised within its group first, then the weighted sum, then a
  batch normalisation (``gdpo_advantages``), so that one high-variance reward cannot drown the
  others. Source: X-GenGroup/Flow-Factory at a0b2bc5a2b4fbf9125429b3fb70c0c5d7631047c,
  ``src/flow_factory/advantage/advantage_processor.py`` ``AdvantageProcessor.compute_gdpo`` (and
  ``_global_mean_std``): population std, floored at 1e-6.

Shape legend: N = world * B images (gathered), G images per prompt, consecutive.
"""

from __future__ import annotations

import torch

AGGREGATIONS = ("sum", "gdpo")
"""``trainer.reward_aggregation`` values."""

STD_FLOOR = 1e-6
"""Flow-Factory's floor on every std of ``gdpo`` (``max(np.std(...), 1e-6)``)."""


def gdpo_advantages(
    rewards: dict[str, torch.Tensor], weights: dict[str, float], group_size: int, clip: float
) -> torch.Tensor:
    """GDPO advantages, float64 (N,).

    For each reward k and group g: n_k = (r_k - mean_g(r_k)) / max(std_g(r_k), 1e-6); then
    c = sum_k w_k n_k; A = (c - mean(c)) / max(std(c), 1e-6) over the whole batch; clipped to
    +-clip (our ``adv_clip``, as Flow-Factory's trainers clip at the loss). Stds are population
    stds. A reward that gave no value (NaN, a ``None`` reward) is normalised over the group's
    values it did give, and adds 0 for that image (Flow-Factory has no missing values). A group
    whose every reward is constant gets c = 0 and, unlike Flow-Factory (where the batch
    normalisation gives it -mean(c) / std(c)), advantage 0, so that it is dropped as in our
    ``"sum"`` (``nonzero_group_mask``).

    Args:
        rewards: name -> float (N,) the reward's value per image (NaN: none), gathered over ranks.
        weights: name -> weight w_k (every name of ``rewards``).
        group_size: G >= 2, N divisible by it.
        clip: > 0.

    Raises:
        ValueError: names without a weight, no rewards, or a length not divisible by G.
    """
    if not rewards or set(rewards) - set(weights):
        raise ValueError(f"gdpo_advantages: rewards {sorted(rewards)} need weights, got {sorted(weights)}")
    n = next(iter(rewards.values())).numel()
    if group_size < 2 or n % group_size:
        raise ValueError(f"gdpo_advantages: {n} rewards do not split into groups of {group_size}")
    combined = torch.zeros(n // group_size, group_size, dtype=torch.float64)
    for name, values in rewards.items():
        r = values.detach().double().cpu().view(-1, group_size)  # (P, G)
        seen = ~torch.isnan(r)
        count = seen.sum(dim=1, keepdim=True).clamp(min=1)
        mean = torch.where(seen, r, 0.0).sum(dim=1, keepdim=True) / count  # (P, 1)
        var = torch.where(seen, (r - mean) ** 2, 0.0).sum(dim=1, keepdim=True) / count
        normalised = torch.where(seen, (r - mean) / var.sqrt().clamp(min=STD_FLOOR), 0.0)  # (P, G)
        combined += float(weights[name]) * normalised
    c = combined.reshape(-1)  # (N,)
    adv = ((c - c.mean()) / c.std(unbiased=False).clamp(min=STD_FLOOR)).view(-1, group_size)  # (P, G)
    constant = combined.amax(dim=1, keepdim=True) == combined.amin(dim=1, keepdim=True)  # (P, 1)
    return torch.where(constant, 0.0, adv).reshape(-1).clamp(-clip, clip)
