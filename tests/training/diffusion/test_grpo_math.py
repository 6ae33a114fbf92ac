"""GRPO math against hand-computed values."""

import math

import pytest
import torch

from training.diffusion.grpo_math import clipped_policy_loss, group_advantages, nonzero_group_mask, step_kl
from training.diffusion.state import ema_update


def test_group_advantages_per_group_std():
    r = torch.tensor([1.0, 3.0, 0.0, 0.0, 2.0, 4.0, 6.0, 8.0])
    adv = group_advantages(r, group_size=4, std_scope="group", eps=0.0)
    # group 1: mean 1, population std sqrt((0 + 4 + 1 + 1) / 4) = sqrt(1.5)
    s1 = math.sqrt(1.5)
    # group 2: mean 5, std sqrt((9 + 1 + 1 + 9) / 4) = sqrt(5)
    s2 = math.sqrt(5.0)
    expected = torch.tensor([0 / s1, 2 / s1, -1 / s1, -1 / s1, -3 / s2, -1 / s2, 1 / s2, 3 / s2], dtype=torch.float64)
    assert adv.dtype == torch.float64 and torch.allclose(adv, expected, atol=1e-12)


def test_group_advantages_global_std_and_clip():
    r = torch.tensor([0.0, 2.0, 10.0, 10.0])
    adv = group_advantages(r, group_size=2, std_scope="global", eps=0.0)
    std = r.std(unbiased=False).item()  # sqrt(mean(r^2) - mean^2) = sqrt(51 - 30.25)
    assert std == pytest.approx(math.sqrt(20.75))
    assert torch.allclose(adv, torch.tensor([-1 / std, 1 / std, 0.0, 0.0], dtype=torch.float64), atol=1e-12)
    clipped = group_advantages(torch.tensor([0.0, 1.0]), 2, std_scope="group", eps=0.0, clip=0.5)  # raw +-1
    assert torch.equal(clipped, torch.tensor([-0.5, 0.5], dtype=torch.float64))


def test_group_advantages_bad_input():
    with pytest.raises(ValueError, match="group_size must be >= 2"):
        group_advantages(torch.zeros(4), 1)
    with pytest.raises(ValueError, match="divisible"):
        group_advantages(torch.zeros(5), 2)
    with pytest.raises(ValueError, match="NaN"):
        group_advantages(torch.tensor([0.0, float("nan")]), 2)
    with pytest.raises(ValueError, match="std_scope"):
        group_advantages(torch.zeros(2), 2, std_scope="batch")


def test_nonzero_group_mask_drops_constant_groups():
    adv = group_advantages(torch.tensor([1.0, 1.0, 0.0, 1.0, 5.0, 5.0]), 2)
    assert nonzero_group_mask(adv, 2).tolist() == [False, False, True, True, False, False]


def test_clipped_policy_loss_hand_values():
    old = torch.zeros(4)
    new = torch.log(torch.tensor([1.5, 0.5, 1.5, 1.05]))
    adv = torch.tensor([1.0, 1.0, -1.0, 2.0])
    loss, ratio, clip_fraction = clipped_policy_loss(new, old, adv, clip_range=0.2)
    # per sample max(-A r, -A clip(r)): A=1,r=1.5 -> max(-1.5,-1.2) = -1.2; A=1,r=.5 -> max(-.5,-.8) = -.5
    # A=-1,r=1.5 -> max(1.5, 1.2) = 1.5; A=2,r=1.05 -> -2.1 (inside the clip range)
    assert loss.item() == pytest.approx((-1.2 - 0.5 + 1.5 - 2.1) / 4, abs=1e-6)
    assert torch.allclose(ratio, torch.tensor([1.5, 0.5, 1.5, 1.05]))
    assert clip_fraction.item() == pytest.approx(0.75)


def test_clipped_policy_loss_on_policy_ratio_one_and_gradient():
    logp = torch.tensor([-1.0, -2.0], requires_grad=True)
    adv = torch.tensor([1.0, -0.5])
    loss, ratio, clip_fraction = clipped_policy_loss(logp, logp.detach().clone(), adv, 1e-4)
    loss.backward()
    assert torch.equal(ratio, torch.ones(2)) and clip_fraction.item() == 0.0
    # d/dlogp of mean(-A exp(logp - old)) at ratio 1 = -A / n
    assert torch.allclose(logp.grad, torch.tensor([-0.5, 0.25]))


def test_step_kl_exact_form_is_the_gaussian_kl_of_the_step():
    g = torch.Generator().manual_seed(0)
    m1, m2 = torch.randn(2, 3, 4, generator=g), torch.randn(2, 3, 4, generator=g)
    std_t, dt = torch.tensor(0.3), torch.tensor(-0.2)
    kl = step_kl(m1, m2, std_t, dt, "exact")
    step = std_t * torch.sqrt(-dt)
    ref = torch.distributions.kl_divergence(torch.distributions.Normal(m1, step), torch.distributions.Normal(m2, step))
    assert torch.allclose(kl, ref.mean(dim=(1, 2)), atol=1e-5)
    assert torch.equal(step_kl(m1, m1, std_t, dt), torch.zeros(2))
    with pytest.raises(ValueError, match="form"):
        step_kl(m1, m2, std_t, dt, "kl")


def test_ema_update():
    ema, p = [torch.zeros(2)], [torch.ones(2)]
    ema_update(ema, p, 0.9)
    assert torch.allclose(ema[0], torch.full((2,), 0.1))
