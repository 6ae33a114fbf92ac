"""SDE / ODE step math against independent computations."""

import math

import pytest
import torch
from torch.distributions import Normal

from training.diffusion.sde import gaussian_log_prob, ode_step, sde_std, sde_step


def test_sde_std_hand_values():
    # a * sqrt(s / (1 - s)): s = 0.5 -> 0.7 * 1 ; s = 1 uses the next sigma 0.8 -> 0.7 * sqrt(1 / 0.2)
    s = torch.tensor([0.5, 1.0])
    s_next = torch.tensor([0.3, 0.8])
    assert torch.allclose(sde_std(s, s_next, 0.7), torch.tensor([0.7, 0.7 * math.sqrt(5.0)]))


def test_sde_step_log_prob_equals_normal_log_density():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(3, 4, 5, 5, generator=g)
    v = torch.randn(3, 4, 5, 5, generator=g)
    sigma, sigma_next, a = 0.6, 0.45, 0.7
    x_next, log_prob, mean, step_std = sde_step(v, x, sigma, sigma_next, a, generator=g)

    # independent: mean and std from the Flow-GRPO formula, density from torch.distributions
    std_t = a * math.sqrt(sigma / (1 - sigma))
    dt = sigma_next - sigma
    expected_mean = x * (1 + std_t**2 / (2 * sigma) * dt) + v * (1 + std_t**2 * (1 - sigma) / (2 * sigma)) * dt
    expected_std = std_t * math.sqrt(-dt)
    expected = Normal(expected_mean, expected_std).log_prob(x_next).mean(dim=(1, 2, 3))
    assert torch.allclose(mean, expected_mean, atol=1e-6)
    assert torch.allclose(step_std, torch.tensor(expected_std), atol=1e-7)
    assert torch.allclose(log_prob, expected, atol=1e-5)
    # the sampled step really has that spread: standardised residuals ~ N(0, 1)
    z = (x_next - expected_mean) / expected_std
    assert abs(z.mean().item()) < 0.2 and abs(z.std().item() - 1) < 0.15


def test_sde_step_rescoring_a_given_sample_and_per_sample_sigmas():
    g = torch.Generator().manual_seed(1)
    x, v, target = (torch.randn(2, 16, 4, generator=g) for _ in range(3))  # packed FLUX-like latents
    sigma = torch.tensor([1.0, 0.5])
    sigma_next = torch.tensor([0.9, 0.25])
    out, log_prob, mean, step_std = sde_step(v, x, sigma, sigma_next, 0.5, next_sample=target)
    assert torch.equal(out, target)
    for i in range(2):
        s, sn = sigma[i].item(), sigma_next[i].item()
        std_t = 0.5 * math.sqrt(s / (1 - (sn if s == 1 else s)))
        m = x[i] * (1 + std_t**2 / (2 * s) * (sn - s)) + v[i] * (1 + std_t**2 * (1 - s) / (2 * s)) * (sn - s)
        ref = Normal(m, std_t * math.sqrt(s - sn)).log_prob(target[i]).mean()
        assert torch.allclose(log_prob[i], ref, atol=1e-5)


def test_gaussian_log_prob_hand_value():
    # x = mean + 2 std -> -2 - log(std) - log(2 pi) / 2 per element
    x = torch.full((1, 3), 5.0)
    lp = gaussian_log_prob(x, torch.full((1, 3), 1.0), torch.tensor(2.0))
    assert lp.item() == pytest.approx(-2.0 - math.log(2.0) - 0.5 * math.log(2 * math.pi), abs=1e-6)


def test_ode_step_is_euler():
    x = torch.ones(2, 3)
    v = torch.full((2, 3), 2.0)
    assert torch.allclose(ode_step(v, x, 0.75, 0.5), torch.full((2, 3), 0.5))  # 1 + (0.5 - 0.75) * 2


def test_sde_step_bf16_inputs_compute_in_fp32():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(2, 8, generator=g).bfloat16()
    v = torch.randn(2, 8, generator=g).bfloat16()
    out, log_prob, mean, _ = sde_step(v, x, 0.02, 0.0, 0.7, generator=g)
    assert out.dtype == log_prob.dtype == mean.dtype == torch.float32
    assert torch.isfinite(log_prob).all()


def test_sde_step_rejects_bad_input():
    x = torch.zeros(1, 2)
    with pytest.raises(ValueError, match="noise_level"):
        sde_step(x, x, 0.5, 0.4, 0.0)
    with pytest.raises(ValueError, match="sigma_next must be < sigma"):
        sde_step(x, x, 0.4, 0.5, 0.7)
