"""The trainer's math against the Flow-GRPO and MixGRPO reference formulas on fixed tensors.

Reference: yifan123/flow_grpo at 74db6919 (scripts/train_sd3.py, scripts/train_sd3_fast.py,
flow_grpo/stat_tracking.py, flow_grpo/diffusers_patch/sd3_sde_with_logprob.py) and MixGRPO
(fastvideo/utils/grpo_states.py). Each expected value below is the reference expression
written out here, not a call into the trainer. No models: these tests take well under a second.
"""

import math
from collections import Counter

import numpy as np
import pytest
import torch

from training.diffusion.grpo_math import group_advantages, nonzero_group_mask, step_kl
from training.diffusion.sde import sde_std, sde_step
from training.diffusion.timesteps import draw_steps, fast_window_start, mixgrpo_window_start, subset_steps, window_range


def reference_std_dev_t(sigma, sigmas, noise_level):
    """sd3_sde_with_logprob.py: sqrt(sigma / (1 - where(sigma == 1, sigma_max, sigma))) * noise_level,
    sigma_max = sigmas[1]."""
    return torch.sqrt(sigma / (1 - torch.where(sigma == 1, sigmas[1], sigma))) * noise_level


def test_kl_equals_the_reference_formula():
    """train_sd3.py: kl = ((mean - mean_ref) ** 2).mean(dim=(1, 2, 3), keepdim=True) / (2 * std_dev_t ** 2),
    then mean."""
    g = torch.Generator().manual_seed(0)
    sigmas = torch.tensor([1.0, 0.9, 0.6, 0.3, 0.0])
    idx = torch.tensor([0, 2, 3])  # one sample per step, sigma == 1 included
    sigma, sigma_next = sigmas[idx].view(-1, 1, 1, 1), sigmas[idx + 1].view(-1, 1, 1, 1)
    x, v, v_ref, x_next = (torch.randn(3, 4, 5, 5, generator=g) for _ in range(4))
    _, _, mean, _ = sde_step(v, x, sigmas[idx], sigmas[idx + 1], 0.7, next_sample=x_next)
    _, _, ref_mean, _ = sde_step(v_ref, x, sigmas[idx], sigmas[idx + 1], 0.7, next_sample=x_next)

    std_dev_t = reference_std_dev_t(sigma, sigmas, 0.7)
    want = (((mean - ref_mean) ** 2).mean(dim=(1, 2, 3), keepdim=True) / (2 * std_dev_t**2)).mean()
    ours = step_kl(mean, ref_mean, sde_std(sigma, sigma_next, 0.7), sigma_next - sigma)
    assert ours.mean().item() == pytest.approx(want.item(), rel=1e-6)
    # The exact per-step KL is larger by 1 / |dt| per sample (what the trainer used before: 23x at T = 10).
    exact = step_kl(mean, ref_mean, sde_std(sigma, sigma_next, 0.7), sigma_next - sigma, "exact")
    assert torch.allclose(exact, ours / (sigma - sigma_next).flatten(), rtol=1e-6)


@pytest.mark.parametrize("std_scope", ["global", "group"])
def test_advantages_equal_the_reference_tracker(std_scope):
    """PerPromptStatTracker.update in float64: (r - mean_group) / (std + 1e-4), std global
    (np.std of all rewards) or per group; then clipped to +-5 in the loss."""
    r = torch.tensor([0.1, 0.7, 0.2, 0.9, 0.5, 0.5, 0.5, 0.6, 0.0, 1.0, 1.0, 0.0], dtype=torch.float32)
    ours = group_advantages(r, 4, std_scope)
    rewards = r.numpy().astype(np.float64).reshape(3, 4)  # reference: torch .float(), then np.float64
    std = np.std(rewards) if std_scope == "global" else np.std(rewards, axis=1, keepdims=True)
    want = np.clip((rewards - rewards.mean(axis=1, keepdims=True)) / (std + 1e-4), -5, 5).reshape(-1)
    assert ours.dtype == torch.float64
    np.testing.assert_allclose(ours.numpy(), want, rtol=0, atol=1e-12)


def test_constant_groups_are_dropped_like_the_reference():
    """Every constant group of 8 rewards k/n (n <= 10: 65 distinct values) gets advantage
    exactly 0 and is dropped; in float32 arithmetic (the old code) 22 of them were kept."""
    values = sorted({k / n for n in range(1, 11) for k in range(n + 1)})
    assert len(values) == 33  # distinct k/n; the 65 counts (k, n) pairs
    pairs = [(k, n) for n in range(1, 11) for k in range(n + 1)]
    assert len(pairs) == 65
    rewards = torch.tensor([k / n for k, n in pairs for _ in range(8)], dtype=torch.float32)  # (65 * 8,)
    rewards = torch.cat([rewards, torch.tensor([0.0, 1.0] * 4)])  # one varied group, so the global std is > 0
    adv = group_advantages(rewards, 8)
    assert torch.equal(adv[: 65 * 8], torch.zeros(65 * 8, dtype=torch.float64))
    keep = nonzero_group_mask(adv, 8)
    assert keep.sum().item() == 8 and keep[-8:].all()
    # Flow-GRPO's tracker on the same float32 rewards: mask = advantages != 0 drops them too.
    tracked = rewards.numpy().astype(np.float64).reshape(-1, 8)
    ref_adv = (tracked - tracked.mean(axis=1, keepdims=True)) / (np.std(tracked) + 1e-4)
    assert int((np.abs(ref_adv).sum(axis=1) != 0).sum()) == 1
    # The old float32 computation kept some of them: what this test guards against.
    grouped = rewards.view(-1, 8)
    old = (grouped - grouped.mean(dim=1, keepdim=True)) / (rewards.std(unbiased=False) + 1e-4)
    assert (old[:65].abs().amax(dim=1) > 0).sum().item() > 0
    # [1/3] * 8 next to a varied group: only the varied group is kept.
    adv = group_advantages(torch.tensor([1 / 3] * 8 + [0.0, 1.0] * 4), 8)
    assert nonzero_group_mask(adv, 8).tolist() == [False] * 8 + [True] * 8


@pytest.mark.parametrize("num_steps", [4, 10, 40])
@pytest.mark.parametrize("fraction", [0.29, 0.5, 0.6, 0.99, 1.0])
def test_trained_steps_are_the_first_int_t_times_fraction(num_steps, fraction):
    """train_sd3.py: num_train_timesteps = int(num_steps * timestep_fraction); range(num_train_timesteps)."""
    assert subset_steps(num_steps, fraction) == list(range(int(num_steps * fraction)))
    sde, trained = draw_steps(num_steps, sde_window=0, timestep_fraction=fraction)
    assert sde == list(range(num_steps)) and trained == subset_steps(num_steps, fraction)


def test_trained_steps_hand_values():
    assert subset_steps(10, 0.99) == [0, 1, 2, 3, 4, 5, 6, 7, 8]  # the last step is never trained
    assert subset_steps(100, 0.29) == list(range(28))  # int(28.999999999999996), as the reference
    with pytest.raises(ValueError, match="trains no step"):
        subset_steps(10, 0.05)


def test_fast_window_start_is_uniform_in_its_range():
    """sd3_pipeline_with_logprob_fast.py: start = random.randint(range[0], range[1] - size), both
    ends included; default range (0, num_steps // 2) (config/grpo.py *_fast_nocfg)."""
    assert window_range(10, [], "fast") == (0, 5)
    g = torch.Generator().manual_seed(0)
    counts = Counter(fast_window_start(0, 5, 3, g) for _ in range(3000))
    assert set(counts) == {0, 1, 2}  # = range(lo, hi - size + 1)
    assert all(abs(c - 1000) < 120 for c in counts.values()), counts  # 3 sigma of Binomial(3000, 1/3) is 77
    counts = Counter(fast_window_start(2, 8, 2, g) for _ in range(500))
    assert set(counts) == set(range(2, 7))
    sde, trained = draw_steps(10, sde_window=3, timestep_fraction=1.0, generator=torch.Generator().manual_seed(1))
    assert sde == trained and len(sde) == 3 and sde == list(range(sde[0], sde[0] + 3)) and 0 <= sde[0] <= 2


def mixgrpo_reference_windows(num_iters, num_steps, size, iters_per_group, step):
    """grpo_states.py, "progressive" with prog_overlap: max_timesteps = sampling_steps - 2; window
    range(cur, min(cur + size, max)); after iters_per_group iterations cur += step, clipped at max."""
    max_timesteps, cur, in_group, out = num_steps - 2, 0, 0, []
    for _ in range(num_iters):
        out.append(list(range(cur, min(cur + size, max_timesteps))))
        in_group += 1
        if in_group >= iters_per_group:
            in_group, cur = 0, cur + step
        cur = min(cur, max_timesteps)
    return out


def test_mixgrpo_schedule_equals_the_reference_while_the_window_fits():
    T, w, tau, s = 10, 3, 2, 1
    ref = mixgrpo_reference_windows(20, T, w, tau, s)
    lo, hi = window_range(T, [], "mixgrpo")
    assert (lo, hi) == (0, T - 2)
    ours = [list(range(st, st + w)) for st in (mixgrpo_window_start(n, lo, hi, w, tau, s) for n in range(20))]
    full = [n for n, win in enumerate(ref) if len(win) == w]
    assert full == list(range(12))  # starts 0..5, two GRPO steps each
    assert [ours[n] for n in full] == [ref[n] for n in full]
    # afterwards the reference cuts the window ([6, 7], [7], [], ...); ours stays at the last full one
    assert ref[12] == [6, 7] and ref[16] == [] and all(win == [5, 6, 7] for win in ours[12:])
    sde, trained = draw_steps(
        T, sde_window=w, timestep_fraction=1.0, schedule="mixgrpo", shift_every=tau, stride=s, grpo_step=7
    )
    assert sde == trained == [3, 4, 5]
    assert mixgrpo_window_start(9, 1, 10, 2, 3, 2) == 1 + (9 // 3) * 2 == 7


def test_sde_std_equals_the_reference_std_dev_t():
    sigmas = torch.tensor([1.0, 0.95, 0.7, 0.2, 0.0])
    s = sigmas[:4]
    assert torch.allclose(sde_std(s, sigmas[1:], 0.7), reference_std_dev_t(s, sigmas, 0.7), rtol=0, atol=0)
    assert math.isfinite(sde_std(s, sigmas[1:], 0.7).max().item())
