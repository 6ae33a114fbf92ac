"""``training.diffusion.nft_math`` against the DiffusionNFT reference formulas on fixed seeded tensors.

Reference: NVlabs/DiffusionNFT at commit 24af5554898d85e93efa492f42b5e9cdf4156e9b,
``scripts/train_nft_sd3.py``. Each expected value below is the reference expression written
out here as that script computes it (line numbers of that file), not a call into the trainer.
No models: these tests take well under a second.
"""

import pytest
import torch

from training.diffusion.nft_math import (
    ADV_MODES,
    adaptive_x0_loss,
    nft_policy_loss,
    nft_predictions,
    optimality_probability,
    return_decay,
    velocity_kl,
)
from training.diffusion.sde import noise_latents
from training.diffusion.state import ema_update

ADV_CLIP = 5.0


def _tensors(seed, *shapes, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(s, generator=g, dtype=dtype) for s in shapes]


def reference_return_decay(step, decay_type):
    """train_nft_sd3.py lines 169-189, as written there."""
    if decay_type == 0:
        flat, uprate, uphold = 0, 0.0, 0.0
    elif decay_type == 1:
        flat, uprate, uphold = 0, 0.001, 0.5
    elif decay_type == 2:
        flat, uprate, uphold = 75, 0.0075, 0.999
    else:
        raise AssertionError
    if step < flat:
        return 0.0
    decay = (step - flat) * uprate
    return min(decay, uphold)


def reference_r(advantages, adv_clip_max, adv_mode):
    """train_nft_sd3.py lines 910-929."""
    advantages_clip = torch.clamp(advantages, -adv_clip_max, adv_clip_max)
    if adv_mode == "positive_only":
        advantages_clip = torch.clamp(advantages_clip, 0, adv_clip_max)
    elif adv_mode == "negative_only":
        advantages_clip = torch.clamp(advantages_clip, -adv_clip_max, 0)
    elif adv_mode == "one_only":
        advantages_clip = torch.where(
            advantages_clip > 0, torch.ones_like(advantages_clip), torch.zeros_like(advantages_clip)
        )
    elif adv_mode == "binary":
        advantages_clip = torch.sign(advantages_clip)
    normalized_advantages_clip = (advantages_clip / adv_clip_max) / 2.0 + 0.5
    return torch.clamp(normalized_advantages_clip, 0, 1)


def reference_loss(forward_prediction, old_prediction, ref_forward_prediction, xt, x0, t, r, beta, kl_beta, adv_clip):
    """train_nft_sd3.py lines 934-970: the policy loss with adaptive weighting, plus the KL."""
    t_expanded = t.view(-1, *([1] * (len(x0.shape) - 1)))
    positive_prediction = beta * forward_prediction + (1 - beta) * old_prediction.detach()
    implicit_negative_prediction = (1.0 + beta) * old_prediction.detach() - beta * forward_prediction
    x0_prediction = xt - t_expanded * positive_prediction
    with torch.no_grad():
        weight_factor = (
            torch.abs(x0_prediction.double() - x0.double())
            .mean(dim=tuple(range(1, x0.ndim)), keepdim=True)
            .clip(min=0.00001)
        )
    positive_loss = ((x0_prediction - x0) ** 2 / weight_factor).mean(dim=tuple(range(1, x0.ndim)))
    negative_x0_prediction = xt - t_expanded * implicit_negative_prediction
    with torch.no_grad():
        negative_weight_factor = (
            torch.abs(negative_x0_prediction.double() - x0.double())
            .mean(dim=tuple(range(1, x0.ndim)), keepdim=True)
            .clip(min=0.00001)
        )
    negative_loss = ((negative_x0_prediction - x0) ** 2 / negative_weight_factor).mean(dim=tuple(range(1, x0.ndim)))
    ori_policy_loss = r * positive_loss / beta + (1.0 - r) * negative_loss / beta
    policy_loss = (ori_policy_loss * adv_clip).mean()
    kl_div_loss = ((forward_prediction - ref_forward_prediction) ** 2).mean(dim=tuple(range(1, x0.ndim)))
    return policy_loss, ori_policy_loss, policy_loss + kl_beta * torch.mean(kl_div_loss)


def test_noising_equals_the_reference():
    """Lines 864-870: t = timesteps / 1000; xt = (1 - t) * x0 + t * noise."""
    x0, noise = _tensors(0, (3, 4, 5, 5), (3, 4, 5, 5))
    timesteps = torch.tensor([1000.0, 750.0, 62.5])  # scheduler.timesteps of 3 samples
    t = timesteps / 1000.0
    t_expanded = t.view(-1, *([1] * (len(x0.shape) - 1)))
    want = (1 - t_expanded) * x0 + t_expanded * noise
    got = noise_latents(x0, noise, t)
    assert torch.allclose(got, want, atol=1e-7, rtol=0)
    assert torch.equal(got[0], noise[0])  # t = 1: pure noise
    with pytest.raises(ValueError, match="t must be"):
        noise_latents(x0, noise, t[:2])


@pytest.mark.parametrize("mode", ADV_MODES)
def test_optimality_probability_equals_the_reference(mode):
    adv = torch.tensor([-7.0, -5.0, -2.5, -1e-3, 0.0, 1e-3, 0.7, 2.5, 5.0, 9.0])
    want = reference_r(adv, ADV_CLIP, mode)
    got = optimality_probability(adv, ADV_CLIP, mode)
    assert torch.allclose(got, want, atol=1e-7, rtol=0)
    assert got[4].item() == 0.5  # zero advantage: r = 1/2 in every mode


def test_optimality_probability_values_by_hand():
    adv = torch.tensor([-7.0, -2.5, 0.0, 2.5, 9.0])
    assert optimality_probability(adv, 5.0, "all").tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert optimality_probability(adv, 5.0, "positive_only").tolist() == [0.5, 0.5, 0.5, 0.75, 1.0]
    assert optimality_probability(adv, 5.0, "one_only").tolist() == pytest.approx([0.5, 0.5, 0.5, 0.6, 0.6])
    assert optimality_probability(adv, 5.0, "binary").tolist() == pytest.approx([0.4, 0.4, 0.5, 0.6, 0.6])
    with pytest.raises(ValueError, match="mode must be one of"):
        optimality_probability(adv, 5.0, "best")


@pytest.mark.parametrize("beta", [1.0, 0.1])
def test_predictions_equal_the_reference(beta):
    """Lines 934-937."""
    v, v_old = _tensors(1, (2, 4, 3, 3), (2, 4, 3, 3))
    pos, neg = nft_predictions(v, v_old, beta)
    assert torch.allclose(pos, beta * v + (1 - beta) * v_old, atol=1e-7, rtol=0)
    assert torch.allclose(neg, (1.0 + beta) * v_old - beta * v, atol=1e-7, rtol=0)
    # the two are mirror images about v_old: v+ + v- = 2 v_old
    assert torch.allclose(pos + neg, 2 * v_old, atol=1e-6, rtol=0)


@pytest.mark.parametrize("beta, kl_beta", [(1.0, 1e-4), (0.1, 1e-4), (0.1, 0.0)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_loss_and_gradient_equal_the_reference(beta, kl_beta, dtype):
    """Lines 934-970: the loss value (float64, as the reference's float64 weights make it) and
    its gradient in the trained velocity, with the KL term added as the recipe does."""
    x0, noise, v, v_old, v_ref = _tensors(2, *[(4, 4, 6, 6)] * 5, dtype=dtype)
    x0 = x0 * 0.5
    t = torch.tensor([0.9, 0.5, 0.2, 1e-3], dtype=dtype)
    xt = noise_latents(x0, noise, t)
    r = reference_r(torch.tensor([-6.0, -1.0, 0.0, 2.0], dtype=dtype), ADV_CLIP, "all")

    v_ours, v_theirs = v.clone().requires_grad_(True), v.clone().requires_grad_(True)
    loss, per_sample = nft_policy_loss(v_ours, v_old, xt, x0, t, r, beta, ADV_CLIP)
    total = loss + kl_beta * velocity_kl(v_ours, v_ref).mean()
    want_policy, want_per_sample, want_total = reference_loss(
        v_theirs, v_old, v_ref, xt, x0, t, r, beta, kl_beta, ADV_CLIP
    )
    assert loss.dtype == torch.float64 and per_sample.shape == (4,)
    atol = 1e-7 if dtype == torch.float32 else 1e-12
    assert torch.allclose(loss, want_policy, atol=atol, rtol=0)
    assert torch.allclose(per_sample, want_per_sample, atol=atol, rtol=0)
    assert torch.allclose(total, want_total, atol=atol, rtol=0)
    total.backward()
    want_total.backward()
    assert torch.allclose(v_ours.grad, v_theirs.grad, atol=atol, rtol=0)
    assert v_ours.grad.abs().max() > 0


def test_adaptive_weight_is_detached_and_clipped():
    """The weight carries no gradient: d/dx0_pred of mean((x0_pred - x0)^2 / w) = 2 (x0_pred - x0) / (w N)."""
    x0_pred, x0 = _tensors(3, (2, 3, 4, 4), (2, 3, 4, 4))
    x0_pred.requires_grad_(True)
    loss = adaptive_x0_loss(x0_pred, x0)
    loss.sum().backward()
    w = (x0_pred.detach().double() - x0.double()).abs().mean(dim=(1, 2, 3), keepdim=True)
    want = 2 * (x0_pred.detach().double() - x0.double()) / (w * 48)
    assert torch.allclose(x0_pred.grad.double(), want, atol=1e-7, rtol=0)
    # an exact prediction: the weight is clipped at 1e-5 and the loss is 0, not NaN
    exact = adaptive_x0_loss(x0.clone(), x0)
    assert torch.equal(exact, torch.zeros(2, dtype=torch.float64))
    # a constant error e: w = e above the clip (loss e^2 / e = e), w = 1e-5 below it (loss e^2 / 1e-5)
    x0d = x0.double()
    offsets = torch.tensor([1e-4, 1e-7], dtype=torch.float64).view(2, 1, 1, 1)
    got = adaptive_x0_loss(x0d + offsets, x0d)
    assert got.tolist() == pytest.approx([1e-4, 1e-14 / 1e-5], rel=1e-6)


def test_velocity_kl_equals_the_reference():
    """Lines 966-970: ((forward - ref) ** 2).mean(dim=(1, 2, 3)), then its mean times train.beta."""
    v, v_ref = _tensors(4, (3, 4, 5, 5), (3, 4, 5, 5))
    want = ((v - v_ref) ** 2).mean(dim=tuple(range(1, v.ndim)))
    assert torch.allclose(velocity_kl(v, v_ref), want, atol=1e-7, rtol=0)
    # packed FLUX latents (b, L, D): the mean runs over every non-batch dim
    v2, v2_ref = _tensors(5, (2, 16, 64), (2, 16, 64))
    assert torch.allclose(velocity_kl(v2, v2_ref), ((v2 - v2_ref) ** 2).mean(dim=(1, 2)), atol=1e-7, rtol=0)


@pytest.mark.parametrize("decay_type", [0, 1, 2])
def test_return_decay_equals_the_reference(decay_type):
    for step in range(0, 2001):
        assert return_decay(step, decay_type) == reference_return_decay(step, decay_type), step


def test_return_decay_values_by_hand():
    assert return_decay(100, 1) == pytest.approx(0.1) and return_decay(5000, 1) == 0.5
    assert return_decay(75, 2) == 0.0 and return_decay(76, 2) == pytest.approx(0.0075)
    assert return_decay(74, 2) == 0.0 and return_decay(300, 2) == 0.999
    assert return_decay(10**6, 0) == 0.0
    with pytest.raises(ValueError, match="decay_type"):
        return_decay(3, 3)


def test_old_weight_update_equals_the_reference():
    """Line 1039: tgt.copy_(tgt * decay + src * (1 - decay))."""
    old = _tensors(6, (4, 8), (8,))
    current = _tensors(7, (4, 8), (8,))
    decay = 0.37
    want = [tgt.detach() * decay + src.detach().clone() * (1.0 - decay) for src, tgt in zip(current, old)]
    kept = [c.clone() for c in current]
    ema_update(old, current, decay)
    for o, w, c, k in zip(old, want, current, kept):
        assert torch.allclose(o, w, atol=1e-7, rtol=0)
        assert torch.equal(c, k)  # the trained weights are untouched
    with pytest.raises(ValueError):
        ema_update(old, current[:1], decay)
