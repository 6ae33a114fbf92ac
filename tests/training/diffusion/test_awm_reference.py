"""``training.diffusion.awm_math`` against the reference formulas, on fixed seeded tensors.

Reference: scxue/advantage_weighted_matching at commit be5137232e33a21b449ed65a533211d0deb97ed8,
``advantage_weighted_matching/scripts/train_sd3_awm.py`` ("the script", line numbers of that
commit), ``flow_grpo/ema.py``, ``flow_grpo/diffusers_patch/sd3_pipeline_with_logprob.py`` and
``flow_grpo/diffusers_patch/sa_solver.py``. Each ``_ref_*`` below is the reference code written
out inline as the script computes it (its global-RNG draws replaced by the same draws, in the
same order, from a seeded generator), then compared to ours at a tight tolerance.
"""

import math

import pytest
import torch

from training.diffusion import awm_math as m
from training.diffusion.state import ema_update


def _gen(seed=0):
    return torch.Generator().manual_seed(seed)


# ---- timestep samplers -------------------------------------------------------------------------


def test_logit_normal_shifted_sampler():
    # script lines 254-274
    def _ref(shape, mu, s, shift, g):
        u_standard = torch.randn(shape, generator=g)
        u = u_standard * s + mu
        t = torch.sigmoid(u)
        t = shift * t / (1 + (shift - 1) * t)
        return t

    ours = m.logit_normal_shifted((5, 7), 0.1, 1.3, 3.0, _gen(3))
    assert torch.equal(ours, _ref((5, 7), 0.1, 1.3, 3.0, _gen(3)))
    assert ours.shape == (5, 7) and 0 < ours.min() and ours.max() < 1


@pytest.mark.parametrize("T, B, shift", [(6, 3, 3.0), (4, 5, 1.0), (1, 2, 3.0)])
def test_stratified_logit_normal(T, B, shift):
    # script lines 1141-1160 (time_type == 'logit_normal')
    def _ref(g):
        base_uniform_vector = (torch.arange(T) + torch.rand(T, generator=g)) / T
        normal_dist = torch.distributions.Normal(loc=0.0, scale=1.0)
        u_standard_vector = normal_dist.icdf(torch.clamp(base_uniform_vector, 1e-7, 1 - 1e-7))
        u_standard_vector = normal_dist.icdf(base_uniform_vector)
        u_standard_shuffled = u_standard_vector[torch.randperm(T, generator=g)]
        mu, s = 0.0, 1.0
        u = u_standard_shuffled * s + mu
        t_vector = torch.sigmoid(u)
        t_vector_shifted = shift * t_vector / (1 + (shift - 1) * t_vector)
        timesteps = torch.repeat_interleave(t_vector_shifted, repeats=B)
        timesteps = torch.clamp(timesteps, min=0.01)
        return timesteps.view(-1, 1, 1, 1)

    for seed in range(5):
        ours = m.stratified_logit_normal(T, B, shift, _gen(seed))
        ref = _ref(_gen(seed))
        assert ours.shape == (T * B,)
        assert torch.equal(ours, ref.view(-1))
        # one time per stratum, shared by the b samples of a timestep (rows timestep-major)
        assert torch.equal(ours.view(T, B), ours.view(T, B)[:, :1].expand(T, B))


def test_stratified_uniform():
    T, B, shift = 6, 3, 3.0

    # script lines 1163-1170 (time_type == 'uniform')
    def _ref(g):
        global_lower, global_upper = 0.20, 1.0
        rand_u = torch.rand(T, B, generator=g)
        normalized_matrix = (torch.arange(T).unsqueeze(1) + rand_u) / T
        matrix = global_lower + normalized_matrix * (global_upper - global_lower)
        timesteps = torch.gather(matrix, 0, torch.rand(matrix.shape, generator=g).argsort(dim=0)).flatten()
        timesteps = shift * timesteps / (1 + (shift - 1) * timesteps)
        return timesteps.view(-1, 1, 1, 1)

    for seed in range(5):
        ours = m.stratified_uniform(T, B, shift, _gen(seed))
        assert torch.equal(ours, _ref(_gen(seed)).view(-1))
    # each sample (column) gets one time from each stratum: unshifted, they sort into the strata
    unshifted = m.stratified_uniform(T, B, 1.0, _gen(9)).view(T, B)
    strata = ((unshifted.sort(dim=0).values - 0.2) / 0.8 * T).floor()
    assert torch.equal(strata, torch.arange(T, dtype=strata.dtype).unsqueeze(1).expand(T, B))


def _scheduler_sigmas(T):
    from diffusers import FlowMatchEulerDiscreteScheduler

    from training.diffusion.rollout import schedule_sigmas

    scheduler = FlowMatchEulerDiscreteScheduler(shift=3.0)
    sigmas = schedule_sigmas(scheduler, T, 1024)
    return sigmas, scheduler.timesteps.float()  # (T + 1,), (T,) = 1000 sigma


@pytest.mark.parametrize("kind", ["discrete", "discrete_with_init", "discrete_wo_init"])
@pytest.mark.parametrize("T, K, frac", [(14, 6, 0.9), (10, 3, 1.0), (14, 1, 0.9)])
def test_discrete_samplers(kind, T, K, frac):
    sigmas, timesteps_row = _scheduler_sigmas(T)
    B = 3

    # script lines 1172-1205; sample["timesteps"][0] is the scheduler's timesteps (line 909)
    def _ref(g):
        if kind == "discrete":
            boundaries = torch.linspace(0, int(T * frac), steps=K + 1)
            lower_bounds = boundaries[:-1].long()
            upper_bounds = boundaries[1:].long()
            rand_u = torch.rand(K, generator=g)
            t_indices = lower_bounds + (rand_u * (upper_bounds - lower_bounds)).long()
        elif kind == "discrete_with_init":
            init_index = torch.tensor([0], dtype=torch.long)
            num_remaining = K - 1
            if num_remaining > 0:
                max_step_idx = int(T * frac)
                boundaries = torch.linspace(1, max_step_idx, steps=num_remaining + 1)
                lower_bounds = boundaries[:-1].long()
                upper_bounds = boundaries[1:].long()
                rand_u = torch.rand(num_remaining, generator=g)
                remaining_indices = lower_bounds + (rand_u * (upper_bounds - lower_bounds)).long()
                t_indices = torch.cat([init_index, remaining_indices])
            else:
                t_indices = init_index
        else:
            boundaries = torch.linspace(1, int(T * frac), steps=K + 1)
            lower_bounds = boundaries[:-1].long()
            upper_bounds = boundaries[1:].long()
            rand_u = torch.rand(K, generator=g)
            t_indices = lower_bounds + (rand_u * (upper_bounds - lower_bounds)).long()
        train_totalindex = torch.repeat_interleave(t_indices, repeats=B)
        return t_indices, timesteps_row[train_totalindex].view(-1, 1, 1, 1) / 1000

    for seed in range(6):
        ref_idx, ref_t = _ref(_gen(seed))
        assert torch.equal(m.discrete_step_indices(kind, K, T, frac, _gen(seed)), ref_idx)
        ours = m.draw_train_sigmas(kind, K, B, sigmas, frac, 3.0, _gen(seed))
        assert ours.shape == (K * B,)
        # ours reads sigmas[i]; the script divides the float32 timesteps 1000 sigma by 1000
        assert torch.allclose(ours, ref_t.view(-1), atol=2e-7, rtol=0)
    if kind == "discrete_wo_init":  # the pure-noise step 0 is never trained
        draws = torch.cat([m.discrete_step_indices(kind, K, T, frac, _gen(s)) for s in range(50)])
        assert draws.min() >= 1 and draws.max() < int(T * frac)


def test_unknown_sampler_raises():
    with pytest.raises(ValueError, match="time type must be one of"):
        m.draw_train_sigmas("cosine", 2, 2, torch.linspace(1, 0, 5), 1.0, 3.0, _gen())


# ---- the weighted flow-matching error --------------------------------------------------------


def _ref_log_prob(noise_pred, timestep, clean_latents, random_noise, weighting, ghuber_power):
    # script lines 234-251 (compute_log_prob_awm after the transformer call); timestep (N, 1, 1, 1)
    model_output = noise_pred.double()
    log_prob = -((model_output - (random_noise.double() - clean_latents.double())) ** 2)
    log_prob = log_prob.mean(dim=tuple(range(1, log_prob.ndim)))
    if weighting == "t":
        log_prob = log_prob * timestep.view(-1)
    elif weighting == "t**2":
        log_prob = log_prob * timestep.view(-1) ** 2
    elif weighting == "Uniform":
        log_prob = log_prob
    elif weighting == "huber":
        log_prob = -(torch.sqrt(-log_prob + 1e-10) - 1e-5) * timestep.view(-1)
    elif weighting == "ghuber":
        log_prob = (
            -(
                torch.pow(-log_prob + 1e-10, ghuber_power)
                - torch.pow(torch.tensor(1e-10, dtype=log_prob.dtype), ghuber_power)
            )
            * timestep.view(-1)
            / ghuber_power
        )
    return log_prob


@pytest.mark.parametrize("weighting", ["Uniform", "t", "t**2", "huber", "ghuber"])
@pytest.mark.parametrize("power", [0.25, 0.5])
def test_matching_log_prob(weighting, power):
    g = _gen(1)
    N = 12
    v, noise, clean = (torch.randn(N, 4, 8, 8, generator=g) for _ in range(3))
    sigma = torch.rand(N, generator=g) * 0.98 + 0.01
    ours = m.matching_log_prob(v, noise, clean, sigma, weighting, power)
    ref = _ref_log_prob(v, sigma.view(-1, 1, 1, 1), clean, noise, weighting, power)
    assert ours.dtype == torch.float64 and ours.shape == (N,)
    assert torch.allclose(ours, ref, rtol=1e-12, atol=0)
    assert (ours < 0).all()
    # a perfect prediction is the maximum (0 for Uniform; ghuber offsets make it exactly 0 too)
    best = m.matching_log_prob(noise - clean, noise, clean, sigma, weighting, power)
    assert (best > ours).all()
    assert best.abs().max() < 1e-4


def test_matching_log_prob_gradient_is_the_flow_matching_gradient():
    """Uniform: d(-lp)/dv = 2 (v - (eps - x_0)) / D, the flow-matching MSE's gradient."""
    g = _gen(2)
    v = torch.randn(3, 2, 4, 4, generator=g, requires_grad=True)
    noise, clean = torch.randn(3, 2, 4, 4, generator=g), torch.randn(3, 2, 4, 4, generator=g)
    (-m.matching_log_prob(v, noise, clean, torch.full((3,), 0.5)).sum()).backward()
    assert torch.allclose(v.grad, 2 * (v.detach() - (noise - clean)) / 32, atol=1e-7)
    with pytest.raises(ValueError, match="weighting must be one of"):
        m.matching_log_prob(v, noise, clean, torch.full((3,), 0.5), "cosine")


# ---- advantages and the loss -----------------------------------------------------------------


def test_scale_advantages():
    a = torch.tensor([-7.0, -5.0, -1.0, 0.0, 2.5, 6.0], dtype=torch.float64)
    adv_clip_max, advantage_max = 5.0, 1.0
    # script lines 1293-1299
    ref = torch.clamp(a, -adv_clip_max, adv_clip_max)
    ref = ref / adv_clip_max * advantage_max
    assert torch.equal(m.scale_advantages(a, 5.0, 1.0), ref)
    assert torch.equal(m.scale_advantages(a, 5.0, 0.0), torch.clamp(a, -5.0, 5.0))  # advantage_max None


def _ref_policy_loss(log_probs_kb, old_log_probs_kb, advantages_b, clip_range, loss_type, K):
    # script lines 1301-1329 and 1356-1362 (sample['log_probs'] is (K, b))
    advantages = advantages_b
    if loss_type == "sum_first":
        sum_log_probs = log_probs_kb.mean(dim=0)
        sum_old_log_probs = old_log_probs_kb.mean(dim=0)
        ratio = torch.exp(sum_log_probs - sum_old_log_probs.detach())
    else:
        log_probs = log_probs_kb.view(-1)
        old_log_probs = old_log_probs_kb.view(-1)
        ratio = torch.exp(log_probs - old_log_probs.detach())
    if loss_type == "exp_first":
        advantages = advantages.unsqueeze(0).repeat(K, 1).view(-1)
    unclipped_loss = -advantages * ratio
    clipped_loss = -advantages * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    policy_loss = torch.mean(torch.maximum(unclipped_loss, clipped_loss))
    clipfrac = torch.mean((torch.abs(ratio - 1.0) > clip_range).float())
    return policy_loss, clipfrac


@pytest.mark.parametrize("loss_type", ["exp_first", "sum_first"])
@pytest.mark.parametrize("clip_range", [1.0, 0.05])
def test_awm_policy_loss_off_policy(loss_type, clip_range):
    """Ratios away from 1 (old log-probs from other weights): value, clip fraction and gradient."""
    g = _gen(4)
    K, b = 6, 3
    lp = (-torch.rand(K, b, generator=g, dtype=torch.float64)).requires_grad_(True)
    old = lp.detach() + 0.1 * torch.randn(K, b, generator=g, dtype=torch.float64)
    adv = torch.randn(b, generator=g, dtype=torch.float64)
    loss, ratio, clipfrac = m.awm_policy_loss(lp, old, adv, clip_range, loss_type)
    (grad,) = torch.autograd.grad(loss, lp)
    lp_ref = lp.detach().clone().requires_grad_(True)
    ref_loss, ref_clipfrac = _ref_policy_loss(lp_ref, old, adv, clip_range, loss_type, K)
    (ref_grad,) = torch.autograd.grad(ref_loss, lp_ref)
    assert torch.allclose(loss, ref_loss, rtol=1e-12, atol=0)
    assert torch.allclose(grad, ref_grad, rtol=1e-12, atol=0)
    assert clipfrac == ref_clipfrac
    assert ratio.shape == ((K * b,) if loss_type == "exp_first" else (b,))
    if clip_range == 0.05:
        assert 0 < clipfrac < 1  # the clip is exercised


def test_awm_policy_loss_on_policy_is_advantage_weighted_matching():
    """old = lp.detach(): ratio 1, loss -mean(A), gradient -A / (K b) per entry (exp_first)."""
    g = _gen(5)
    K, b = 4, 3
    lp = (-torch.rand(K, b, generator=g, dtype=torch.float64)).requires_grad_(True)
    adv = torch.tensor([1.0, -0.5, 0.0], dtype=torch.float64)
    loss, ratio, clipfrac = m.awm_policy_loss(lp, lp.detach(), adv, 1.0, "exp_first")
    (grad,) = torch.autograd.grad(loss, lp)
    assert torch.equal(ratio, torch.ones(K * b, dtype=torch.float64)) and clipfrac == 0
    assert loss.item() == pytest.approx(-adv.mean().item(), abs=1e-15)
    assert torch.allclose(grad, (-adv / (K * b)).expand(K, b), rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="loss_type must be one of"):
        m.awm_policy_loss(lp, lp.detach(), adv, 1.0, "mean_first")


# ---- the KL terms ----------------------------------------------------------------------------


@pytest.mark.parametrize("kl_weight", ["Uniform", "ELBO"])
def test_velocity_kl(kl_weight):
    g = _gen(6)
    K, b = 6, 3
    v, v_ref = torch.randn(K * b, 4, 8, 8, generator=g), torch.randn(K * b, 4, 8, 8, generator=g)
    sigma = torch.rand(K * b, generator=g)
    sigma[0] = 0.999  # above the 0.99 clamp

    # script line 236 (std_dev_t of compute_log_prob_awm, timestep (N, 1, 1, 1)) and lines 1287-1349
    timestep = sigma.view(-1, 1, 1, 1)
    std_dev_t = torch.sqrt(timestep / (1 - torch.clamp(timestep, 0, 0.99))) * 0.7
    model_output = v.double().reshape(K, b, *v.shape[1:])
    model_output_ref = v_ref.double().reshape(K, b, *v.shape[1:])
    std_dev_t = std_dev_t.reshape(K, b, *std_dev_t.shape[1:])
    if kl_weight == "ELBO":
        kl_loss = ((model_output - model_output_ref) ** 2).mean(dim=(2, 3, 4), keepdim=True) / (2 * std_dev_t**2)
    else:
        kl_loss = ((model_output - model_output_ref) ** 2).mean(dim=(2, 3, 4), keepdim=True)
    kl_loss = kl_loss.mean(dim=0).mean()

    ours = m.velocity_kl(v, v_ref, sigma, K, kl_weight)
    assert ours.dtype == torch.float64 and ours.ndim == 0
    assert torch.allclose(ours, kl_loss, rtol=1e-6, atol=0)  # std_dev_t is float32 in the script
    assert m.velocity_kl(v, v, sigma, K, kl_weight) == 0
    with pytest.raises(ValueError, match="weighting must be one of"):
        m.velocity_kl(v, v_ref, sigma, K, "exact")


# ---- the EMA rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("decay_type, kl_ema_decay", [("linear", 0.3), ("constant", 0.3), ("linear", 0.002)])
def test_ema_reference_rule_over_steps(decay_type, kl_ema_decay):
    g = _gen(7)
    params = [torch.randn(4, 3, generator=g), torch.randn(5, generator=g)]
    ours = [p.clone() for p in params]  # the EMA adapter starts as a copy of the LoRA (lines 655-658)
    ref = [p.clone() for p in params]
    for global_step in range(1, 6):
        params = [p + 0.1 * torch.randn(p.shape, generator=g) for p in params]  # an optimizer step
        # script lines 1409-1419
        if decay_type == "constant":
            decay = kl_ema_decay
        elif decay_type == "linear":
            decay = min(kl_ema_decay, 0.001 * global_step)
        for src_param, tgt_param in zip(params, ref, strict=True):
            tgt_param.data.copy_(tgt_param.detach().data * decay + src_param.detach().clone().data * (1.0 - decay))
        d = m.ema_ref_decay(global_step, kl_ema_decay, decay_type)
        assert d == decay
        ema_update(ours, params, d)
        for a, b in zip(ours, ref):
            assert torch.allclose(a, b, rtol=0, atol=1e-7)
    assert m.ema_ref_decay(1, 0.3, "linear") == pytest.approx(0.001)
    assert m.ema_ref_decay(300, 0.3, "linear") == pytest.approx(0.3) and m.ema_ref_decay(1000, 0.3, "linear") == 0.3
    with pytest.raises(ValueError, match="decay_type must be one of"):
        m.ema_ref_decay(1, 0.3, "cosine")


def test_eval_ema_rule_over_steps():
    g = _gen(8)
    params = [torch.randn(4, 3, generator=g)]
    ours = [p.clone() for p in params]
    ema_parameters = [p.clone().detach() for p in params]
    decay_cfg = 0.99
    for optimization_step in range(1, 8):
        params = [p + 0.1 * torch.randn(p.shape, generator=g) for p in params]
        # flow_grpo/ema.py lines 33-49 (update_step_interval = 1)
        one_minus_decay = 1 - min((1 + optimization_step) / (10 + optimization_step), decay_cfg)
        for ema_parameter, parameter in zip(ema_parameters, params, strict=True):
            ema_parameter.add_(one_minus_decay * (parameter - ema_parameter))
        ema_update(ours, params, m.eval_ema_decay(optimization_step, decay_cfg))
        # the one shared EMA writes d e + (1 - d) p, the reference e + (1 - d)(p - e): equal up to
        # float32 rounding (values up to ~3 here, where one ulp is 2.4e-7)
        assert torch.allclose(ours[0], ema_parameters[0], rtol=0, atol=5e-7)
    assert m.eval_ema_decay(1, 0.99) == pytest.approx(2 / 11) and m.eval_ema_decay(10_000, 0.99) == 0.99


# ---- the sampler -----------------------------------------------------------------------------


@pytest.mark.parametrize("T", [4, 10, 14, 40])
def test_sde_steps_follow_sa_solver_band(T):
    sigmas, _ = _scheduler_sigmas(T)
    # sd3_pipeline_with_logprob.py lines 272-274, 296; sa_solver.py lines 457-545: step `step`
    # (1-based) ends at t[step] and uses tau(t[step]); the last step (denoise_to_zero) tau = 0
    t = sigmas.float().clone()
    t[-2] = t[-3] / 2
    t[0] = 1 - 1e-3
    noise_level = 0.4
    tau = lambda x: noise_level if 0.3 <= x <= 0.9 else 0  # noqa: E731
    steps = t.shape[0] - 1
    stochastic = [step - 1 for step in range(1, steps) if tau(float(t[step])) > 0]
    assert m.sde_steps_in_band(sigmas, 0.3, 0.9) == stochastic
    if T == 14:
        assert stochastic == [3, 4, 5, 6, 7, 8, 9, 10]


def test_sa_tau_matches_flow_grpo_noise_per_unit_time():
    """SA-Solver's step noise variance sigma_t^2 (1 - exp(-2 tau^2 h)), h = lambda_t - lambda_s,
    lambda = log((1 - sigma) / sigma) (sa_solver.py lines 374-379), equals Flow-GRPO's
    (a sqrt(s / (1 - s)))^2 (s - t) with a = sqrt(2) tau, to first order in the step."""
    tau = 0.4
    a = m.sa_tau_to_noise_level(tau)
    for s in (0.35, 0.6, 0.85):
        t = s - 1e-5
        lam = lambda x: math.log((1 - x) / x)  # noqa: E731
        h = lam(t) - lam(s)
        sa_var = t**2 * (1 - math.exp(-2 * tau**2 * h))
        ours_var = a**2 * s / (1 - s) * (s - t)
        assert sa_var == pytest.approx(ours_var, rel=1e-3)
    assert a == pytest.approx(0.565685, abs=1e-6)
