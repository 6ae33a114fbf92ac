"""Advantage Weighted Matching (AWM) math: training timesteps, the weighted flow-matching
error, the advantage-weighted matching loss, the velocity KL and the two EMA rules.

Pure functions on tensors. Source: scxue/advantage_weighted_matching at commit
be5137232e33a21b449ed65a533211d0deb97ed8 (arXiv 2509.25050), file
``advantage_weighted_matching/scripts/train_sd3_awm.py`` (called "the script" below, line
numbers of that commit), ``flow_grpo/ema.py``, ``flow_grpo/diffusers_patch/sa_solver.py`` and
``flow_grpo/diffusers_patch/sd3_pipeline_with_logprob.py``; hyperparameters from
``config/dgx_awm.py`` (``ocr_sd3_no_cfg_1node``).

Shape legend: b samples of one update minibatch, K training timesteps per minibatch (the
reference's ``train.train_timesteps``), N = K * b rows laid out timestep-major: row k * b + j
is sample j at timestep k (the script's ``torch.repeat_interleave(t, repeats=B)`` for the
timesteps and ``torch.cat([x] * K)`` for latents, noise and conditioning). Sigmas follow
diffusers' flow matching: x_sigma = (1 - sigma) x_0 + sigma eps, velocity target eps - x_0.
"""

from __future__ import annotations

import math

import torch

TIMESTEP_SAMPLERS = ("logit_normal", "uniform", "discrete", "discrete_with_init", "discrete_wo_init")
"""The script's ``config.time_type`` values (lines 1138-1207)."""
WEIGHTINGS = ("Uniform", "t", "t**2", "huber", "ghuber")
"""``compute_log_prob_awm``'s ``weighting`` values (lines 240-251)."""
LOSS_TYPES = ("exp_first", "sum_first")
"""The script's ``config.train.loss_type`` values (lines 1301-1329)."""
KL_WEIGHTINGS = ("Uniform", "ELBO")
"""``config.train.kl_weight`` / ``kl_ema_weight`` values (lines 1334-1348)."""
EMA_DECAY_TYPES = ("constant", "linear")
"""``config.train.kl_ema_decay_type`` values (lines 1410-1413)."""


def shift_sigma(t: torch.Tensor, shift: float) -> torch.Tensor:
    """SD3's time shift shift * t / (1 + (shift - 1) * t), elementwise (script lines 272, 1156, 1169).

    Args:
        t: float tensor of any shape, values in [0, 1].
        shift: the shift (the script's ``config.time_shift``, 3.0).

    Returns:
        same shape and dtype as ``t``.
    """
    return shift * t / (1 + (shift - 1) * t)


def logit_normal_shifted(
    shape: tuple[int, ...], m: float = 0.0, s: float = 1.0, shift: float = 3.0, generator: torch.Generator | None = None
) -> torch.Tensor:
    """Shifted logit-normal times: shift_sigma(sigmoid(m + s z), shift), z ~ N(0, 1).

    The script's ``logit_normal_shifted_sampler`` (lines 254-274; defined there, its training
    loop inlines the stratified version, ``stratified_logit_normal``).

    Args:
        shape: output shape.
        m, s: location and scale of the normal.
        shift: the time shift.
        generator: CPU generator for z (None: torch's global one).

    Returns:
        float32 ``shape``, values in [0, 1].
    """
    u = torch.randn(shape, generator=generator) * s + m
    return shift_sigma(torch.sigmoid(u), shift)


def stratified_logit_normal(
    num_t: int, batch: int, shift: float, generator: torch.Generator | None = None
) -> torch.Tensor:
    """``time_type='logit_normal'`` (script lines 1138-1160): K stratified logit-normal times
    shared by the minibatch: u_k = Phi^-1((k + U_k) / K), shuffled, t = shift_sigma(sigmoid(u)),
    each repeated b times, clamped below at 0.01. The script clamps the uniform to
    [1e-7, 1 - 1e-7] on line 1147 and overwrites that on line 1148 with the unclamped one; the
    unclamped one is used here too (U_0 = 0 gives t = 0, then 0.01).

    Random draws, in order: ``rand(K)``, ``randperm(K)``.

    Args:
        num_t: K.
        batch: b.
        shift: the time shift (``config.time_shift``).
        generator: CPU generator.

    Returns:
        float32 (K * b,) sigmas, timestep-major.
    """
    base = (torch.arange(num_t) + torch.rand(num_t, generator=generator)) / num_t  # (K,)
    u = torch.distributions.Normal(0.0, 1.0).icdf(base)  # (K,)
    u = u[torch.randperm(num_t, generator=generator)]
    t = shift_sigma(torch.sigmoid(u), shift)
    return torch.repeat_interleave(t, repeats=batch).clamp(min=0.01)


def stratified_uniform(
    num_t: int,
    batch: int,
    shift: float,
    generator: torch.Generator | None = None,
    lower: float = 0.2,
    upper: float = 1.0,
) -> torch.Tensor:
    """``time_type='uniform'`` (script lines 1162-1170): per sample, K times stratified over
    [lower, upper] (stratum k: lower + (k + U_kj) / K (upper - lower)), the strata shuffled
    independently per sample, then time-shifted. Every row has its own time.

    Random draws, in order: ``rand(K, b)``, ``rand(K, b)`` (argsort: the shuffle).

    Args:
        num_t: K.
        batch: b.
        shift: the time shift.
        generator: CPU generator.
        lower, upper: the range (0.2 and 1.0, hard-coded in the script).

    Returns:
        float32 (K * b,) sigmas, timestep-major.
    """
    rand_u = torch.rand(num_t, batch, generator=generator)  # (K, b)
    normalized = (torch.arange(num_t).unsqueeze(1) + rand_u) / num_t
    matrix = lower + normalized * (upper - lower)
    order = torch.rand(matrix.shape, generator=generator).argsort(dim=0)
    t = torch.gather(matrix, 0, order).flatten()
    return shift_sigma(t, shift)


def discrete_step_indices(
    kind: str, num_t: int, num_steps: int, timestep_fraction: float, generator: torch.Generator | None = None
) -> torch.Tensor:
    """K sampling-step indices, one per stratum of [start, int(T * fraction)] (script lines
    1172-1205), shared by the minibatch:

    * ``discrete``: boundaries linspace(0, int(T f), K + 1) truncated to integers, index
      lower_k + floor(U_k (upper_k - lower_k));
    * ``discrete_wo_init``: the same from 1 (the pure-noise step 0 never trained);
    * ``discrete_with_init``: step 0, then K - 1 strata of [1, int(T f)].

    Random draws: ``rand(K)`` (``rand(K - 1)`` for discrete_with_init when K > 1).

    Args:
        kind: one of the three above.
        num_t: K >= 1.
        num_steps: T, sampling steps.
        timestep_fraction: f in (0, 1].
        generator: CPU generator.

    Returns:
        int64 (K,) indices into the sampling sigmas (T + 1,); the sigma is ``sigmas[index]``
        (the script divides the scheduler's timesteps, 1000 sigma, by 1000).

    Raises:
        ValueError: unknown kind.
    """
    top = int(num_steps * timestep_fraction)
    if kind in ("discrete", "discrete_wo_init"):
        start, n = (0 if kind == "discrete" else 1), num_t
    elif kind == "discrete_with_init":
        start, n = 1, num_t - 1
    else:
        raise ValueError(
            f"discrete_step_indices: kind must be discrete, discrete_with_init or discrete_wo_init, got {kind!r}"
        )
    if n > 0:
        bounds = torch.linspace(start, top, steps=n + 1)
        lower, upper = bounds[:-1].long(), bounds[1:].long()
        idx = lower + (torch.rand(n, generator=generator) * (upper - lower)).long()
    else:
        idx = torch.zeros(0, dtype=torch.long)
    if kind == "discrete_with_init":
        idx = torch.cat([torch.zeros(1, dtype=torch.long), idx])
    return idx


def draw_train_sigmas(
    kind: str,
    num_t: int,
    batch: int,
    sigmas: torch.Tensor,
    timestep_fraction: float,
    shift: float,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """The training sigmas of one minibatch under ``config.time_type`` = ``kind`` (script lines 1138-1207).

    Args:
        kind: one of ``TIMESTEP_SAMPLERS``.
        num_t: K.
        batch: b.
        sigmas: float32 (T + 1,) sampling sigmas (the discrete kinds pick from them).
        timestep_fraction: the discrete kinds' f.
        shift: the continuous kinds' time shift.
        generator: CPU generator.

    Returns:
        float32 (K * b,) sigmas, timestep-major.

    Raises:
        ValueError: unknown kind.
    """
    if kind == "logit_normal":
        return stratified_logit_normal(num_t, batch, shift, generator)
    if kind == "uniform":
        return stratified_uniform(num_t, batch, shift, generator)
    if kind in ("discrete", "discrete_with_init", "discrete_wo_init"):
        idx = discrete_step_indices(kind, num_t, len(sigmas) - 1, timestep_fraction, generator)
        return torch.repeat_interleave(sigmas.float()[idx], repeats=batch)
    raise ValueError(f"draw_train_sigmas: time type must be one of {TIMESTEP_SAMPLERS}, got {kind!r}")


def matching_log_prob(
    velocity: torch.Tensor,
    noise: torch.Tensor,
    clean: torch.Tensor,
    sigma: torch.Tensor,
    weighting: str = "Uniform",
    ghuber_power: float = 0.25,
) -> torch.Tensor:
    """AWM's log-probability surrogate: minus the weighted flow-matching error of each row.

    ``compute_log_prob_awm`` (script lines 234-251), in float64 like the script: with
    e = mean over non-batch dims of (v - (eps - x_0))^2 and t = sigma,

    * ``Uniform``: -e;  ``t``: -e t;  ``t**2``: -e t^2;
    * ``huber``: -(sqrt(e + 1e-10) - 1e-5) t;
    * ``ghuber``: -((e + 1e-10)^p - (1e-10)^p) t / p, p = ``ghuber_power``.

    Args:
        velocity: model output v, float (N, ...), with grad.
        noise: eps, float (N, ...).
        clean: x_0, float (N, ...).
        sigma: float (N,) the rows' sigmas.
        weighting: one of ``WEIGHTINGS``.
        ghuber_power: p (0.25 in the SD3 configs).

    Returns:
        float64 (N,), <= 0 up to the huber offsets.

    Raises:
        ValueError: unknown weighting.
    """
    t = sigma.view(-1)  # its own dtype, as the script (a float32 t**2 rounds before the float64 product)
    err = (velocity.double() - (noise.double() - clean.double())) ** 2
    log_prob = -err.mean(dim=tuple(range(1, err.ndim)))  # (N,)
    if weighting == "Uniform":
        return log_prob
    if weighting == "t":
        return log_prob * t
    if weighting == "t**2":
        return log_prob * t**2
    if weighting == "huber":
        return -(torch.sqrt(-log_prob + 1e-10) - 1e-5) * t
    if weighting == "ghuber":
        floor = torch.tensor(1e-10, dtype=log_prob.dtype) ** ghuber_power
        return -(torch.pow(-log_prob + 1e-10, ghuber_power) - floor) * t / ghuber_power
    raise ValueError(f"matching_log_prob: weighting must be one of {WEIGHTINGS}, got {weighting!r}")


def scale_advantages(advantages: torch.Tensor, adv_clip: float, advantage_max: float) -> torch.Tensor:
    """clamp(A, -adv_clip, adv_clip) * advantage_max / adv_clip (script lines 1293-1299); with
    ``advantage_max`` <= 0 (the script's None) only the clamp.

    Args:
        advantages: float (b,).
        adv_clip: the script's ``adv_clip_max`` (5), > 0.
        advantage_max: the script's ``advantage_max`` (1 in its AWM configs).

    Returns:
        same shape and dtype, in [-advantage_max, advantage_max] when advantage_max > 0.
    """
    a = advantages.clamp(-adv_clip, adv_clip)
    return a / adv_clip * advantage_max if advantage_max > 0 else a


def awm_policy_loss(
    log_prob: torch.Tensor,
    old_log_prob: torch.Tensor,
    advantages: torch.Tensor,
    clip_range: float,
    loss_type: str = "exp_first",
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The advantage-weighted matching loss, a PPO-clipped surrogate on ``matching_log_prob``
    (script lines 1301-1329, clip fraction 1356-1362):

    * ``exp_first``: ratio_kj = exp(lp_kj - old_kj) per timestep and sample, A repeated over k;
    * ``sum_first``: ratio_j = exp(mean_k lp_kj - mean_k old_kj) per sample;

    loss = mean(max(-A ratio, -A clamp(ratio, 1 - eps, 1 + eps))). On-policy (``old`` =
    ``log_prob.detach()``) the ratio is exactly 1 and the gradient is -A grad(lp): the
    advantage-weighted flow-matching loss.

    Args:
        log_prob: float64 (K, b) surrogate log-probs (grad).
        old_log_prob: float64 (K, b), detached here.
        advantages: float (b,) (already ``scale_advantages``'d).
        clip_range: eps (1 in the AWM configs).
        loss_type: one of ``LOSS_TYPES``.

    Returns:
        (loss float64 scalar, ratio detached ((K * b,) for exp_first, (b,) for sum_first),
        clip_fraction float32 scalar: share of ratios with |ratio - 1| > eps).

    Raises:
        ValueError: unknown loss_type.
    """
    adv = advantages.to(log_prob.dtype)
    if loss_type == "sum_first":
        ratio = torch.exp(log_prob.mean(dim=0) - old_log_prob.mean(dim=0).detach())  # (b,)
    elif loss_type == "exp_first":
        ratio = torch.exp(log_prob.reshape(-1) - old_log_prob.reshape(-1).detach())  # (K * b,)
        adv = adv.unsqueeze(0).repeat(log_prob.shape[0], 1).view(-1)
    else:
        raise ValueError(f"awm_policy_loss: loss_type must be one of {LOSS_TYPES}, got {loss_type!r}")
    unclipped = -adv * ratio
    clipped = -adv * torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    loss = torch.mean(torch.maximum(unclipped, clipped))
    clip_fraction = ((ratio - 1.0).abs() > clip_range).float().mean()
    return loss, ratio.detach(), clip_fraction.detach()


def awm_std(sigma: torch.Tensor) -> torch.Tensor:
    """The ELBO KL's std_dev_t = 0.7 sqrt(sigma / (1 - clamp(sigma, 0, 0.99))) (script line 236).

    Args:
        sigma: float (N,).

    Returns:
        same shape and dtype.
    """
    return torch.sqrt(sigma / (1 - torch.clamp(sigma, 0, 0.99))) * 0.7


def velocity_kl(
    velocity: torch.Tensor, ref_velocity: torch.Tensor, sigma: torch.Tensor, num_t: int, weighting: str = "Uniform"
) -> torch.Tensor:
    """The KL penalty between two velocity fields at the same inputs (script lines 1330-1349):
    d_kj = mean over non-batch dims of (v - v_ref)^2, divided by 2 std_dev_t^2 for ``ELBO``
    (``awm_std``), averaged over k then j. The same form serves the KL to the base model
    (``train.beta``) and to the EMA reference (``train.ema_beta``).

    Args:
        velocity: float (N, ...) the policy's velocity (grad), N = K * b timestep-major.
        ref_velocity: float (N, ...) the reference's velocity (detached here).
        sigma: float (N,) the rows' sigmas (``ELBO`` only).
        num_t: K.
        weighting: one of ``KL_WEIGHTINGS``.

    Returns:
        float64 scalar >= 0.

    Raises:
        ValueError: unknown weighting.
    """
    v, v_ref = velocity.double(), ref_velocity.double().detach()
    d = ((v - v_ref) ** 2).mean(dim=tuple(range(1, v.ndim)))  # (N,)
    if weighting == "ELBO":
        d = d / (2 * awm_std(sigma.double().view(-1)) ** 2)
    elif weighting != "Uniform":
        raise ValueError(f"velocity_kl: weighting must be one of {KL_WEIGHTINGS}, got {weighting!r}")
    return d.view(num_t, -1).mean(dim=0).mean()


def ema_ref_decay(optimizer_steps: int, decay: float, decay_type: str = "linear", slope: float = 0.001) -> float:
    """The EMA reference's decay after ``optimizer_steps`` optimizer steps (script lines
    1410-1413): ``constant``: decay; ``linear``: min(decay, slope * n), the warm-up (slope
    0.001 hard-coded in the script, so 0.3 is reached at n = 300).

    Args:
        optimizer_steps: n, optimizer steps taken so far, this one included (the script's
            ``global_step`` after its increment).
        decay: the script's ``kl_ema_decay`` (0.3).
        decay_type: one of ``EMA_DECAY_TYPES``.
        slope: the linear warm-up slope.

    Returns:
        the decay, in [0, decay].

    Raises:
        ValueError: unknown decay_type.
    """
    if decay_type == "constant":
        return float(decay)
    if decay_type == "linear":
        return float(min(decay, slope * optimizer_steps))
    raise ValueError(f"ema_ref_decay: decay_type must be one of {EMA_DECAY_TYPES}, got {decay_type!r}")


def eval_ema_decay(optimization_step: int, decay: float) -> float:
    """The evaluation EMA's decay with its warm-up, min((1 + n) / (10 + n), decay)
    (``flow_grpo/ema.py`` ``EMAModuleWrapper.get_current_decay``, lines 33-37; the script calls
    ``ema.step(params, global_step)`` once per epoch, after the optimizer step, line 1392).

    Args:
        optimization_step: n (the script's ``global_step``).
        decay: ``train.ema_decay`` (0.99 in the AWM configs).

    Returns:
        the decay for this update.
    """
    return float(min((1 + optimization_step) / (10 + optimization_step), decay))


def sde_steps_in_band(sigmas: torch.Tensor, lower: float, upper: float) -> list[int]:
    """The sampling steps the reference's SA-Solver takes with noise: step i (sigma_i ->
    sigma_{i+1}) is stochastic when lower <= t_{i+1} <= upper, t the solver's times, i.e. the
    sigmas with t_0 = 1 - 1e-3 and t_{T-1} = t_{T-2} / 2 (``sd3_pipeline_with_logprob.py``
    lines 272-274 and 296: ``stochasticity_control_function = noise_level if 0.3 <= t <= 0.9
    else 0``, evaluated at the step's end time, ``sa_solver.py`` lines 515-526; the last step,
    to t = 0, is always deterministic).

    Args:
        sigmas: float (T + 1,) sampling sigmas, decreasing to 0.
        lower, upper: the band (0.3, 0.9 in the reference).

    Returns:
        the stochastic step indices, ascending, each in [0, T - 1).
    """
    t = sigmas.float().clone()
    if len(t) >= 3:
        t[-2] = t[-3] / 2
    t[0] = 1 - 1e-3
    last = len(t) - 2  # the final step to 0: denoise_to_zero with tau = 0
    return [i for i in range(len(t) - 1) if i < last and lower <= float(t[i + 1]) <= upper]


def sa_tau_to_noise_level(tau: float) -> float:
    """The Flow-GRPO SDE noise level a whose diffusion equals the SA-Solver's tau: a = sqrt(2) tau.

    The SA-Solver SDE's diffusion is tau g(t) with g(t)^2 = 2 sigma / (1 - sigma) for
    x_sigma = (1 - sigma) x_0 + sigma eps (``sa_solver.py`` lines 253-285: noise
    sigma_t sqrt(1 - exp(-2 tau^2 h))); Flow-GRPO's is a sqrt(sigma / (1 - sigma))
    (``training.diffusion.sde.sde_std``). Our Euler SDE with a = sqrt(2) tau injects the same noise per
    unit time as the reference's sampler (tau = 0.4 -> a = 0.566).

    Args:
        tau: SA-Solver's stochasticity (``sample.noise_level``).

    Returns:
        a.
    """
    return math.sqrt(2.0) * tau
