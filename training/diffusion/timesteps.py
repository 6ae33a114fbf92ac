"""Which denoising steps a GRPO step samples with the SDE and trains on.

Three ways, each as in its reference implementation (step indices i in [0, T) index the
sampling sigmas; step i goes from sigmas[i] to sigmas[i + 1]):

* timestep subset (Flow-GRPO, ``scripts/train_sd3.py`` of yifan123/flow_grpo): every step is
  SDE, the first ``int(T * timestep_fraction)`` steps are trained (0.99 of T = 10 trains steps
  0-8: the last, nearly noise-free step never is).
* Flow-GRPO-Fast window (``sd3_pipeline_with_logprob_fast.py`` + ``scripts/train_sd3_fast.py``):
  a window of ``w`` consecutive SDE steps, ODE before and after, only the window trained; its
  start is drawn uniformly per sampling batch from ``[lo, hi - w]`` (``random.randint``, both
  ends included), ``[lo, hi)`` = ``sde_window_range``, by default ``(0, T // 2)``.
* MixGRPO sliding window (arXiv 2507.21802 §3.2; ``fastvideo/utils/grpo_states.py``,
  "progressive" strategy with overlap): the same ODE-SDE-ODE window, its start a function of
  the GRPO step n: ``lo + (n // shift_every) * stride``, stopped where the window reaches ``hi``
  (default ``(0, T - 2)``: MixGRPO's ``max_timesteps = sampling_steps - 2``).
"""

from __future__ import annotations

import torch


def subset_steps(num_steps: int, timestep_fraction: float) -> list[int]:
    """The trained steps of the timestep subset: ``range(int(T * fraction))`` (Flow-GRPO).

    Args:
        num_steps: T, sampling steps.
        timestep_fraction: in (0, 1]; ``int`` truncates exactly as the reference does.

    Raises:
        ValueError: the fraction trains no step (``int(T * fraction) == 0``).
    """
    k = int(num_steps * timestep_fraction)
    if k < 1:
        raise ValueError(
            f"timestep_fraction={timestep_fraction} of {num_steps} steps trains no step (int(T * fraction) = 0)"
        )
    return list(range(k))


def window_range(num_steps: int, sde_window_range: list[int] | tuple[int, ...], schedule: str) -> tuple[int, int]:
    """``[lo, hi)``, the steps a window may cover. Empty ``sde_window_range``: ``(0, T // 2)`` for
    the Flow-GRPO-Fast window (its SD3 configs), ``(0, T - 2)`` for MixGRPO (its
    ``max_timesteps``: a window never covers the last two steps)."""
    if sde_window_range:
        lo, hi = sde_window_range
        return int(lo), int(hi)
    return (0, num_steps // 2) if schedule == "fast" else (0, num_steps - 2)


def fast_window_start(lo: int, hi: int, size: int, generator: torch.Generator) -> int:
    """A uniform start in ``[lo, hi - size]`` (both included), drawn from ``generator``."""
    return int(torch.randint(lo, hi - size + 1, (1,), generator=generator).item())


def mixgrpo_window_start(grpo_step: int, lo: int, hi: int, size: int, shift_every: int, stride: int) -> int:
    """MixGRPO's start at GRPO step ``grpo_step`` (0-based): ``lo`` for the first
    ``shift_every`` steps, then ``stride`` later every ``shift_every`` steps, at most ``hi - size``."""
    return min(lo + (grpo_step // shift_every) * stride, hi - size)


def draw_steps(
    num_steps: int,
    *,
    sde_window: int,
    timestep_fraction: float,
    schedule: str = "fast",
    sde_window_range: list[int] | tuple[int, ...] = (),
    shift_every: int = 25,
    stride: int = 1,
    grpo_step: int = 0,
    generator: torch.Generator | None = None,
) -> tuple[list[int], list[int]]:
    """(SDE steps, trained steps) of one sampling batch, both ascending.

    ``sde_window == 0``: all T steps SDE, ``subset_steps`` trained. Otherwise a window of
    ``sde_window`` steps, SDE and trained, placed by ``schedule`` ("fast": drawn from
    ``generator``; "mixgrpo": from ``grpo_step``). Raises ValueError on an unknown schedule.
    """
    if sde_window <= 0:
        return list(range(num_steps)), subset_steps(num_steps, timestep_fraction)
    lo, hi = window_range(num_steps, sde_window_range, schedule)
    if schedule == "fast":
        start = fast_window_start(lo, hi, sde_window, generator)
    elif schedule == "mixgrpo":
        start = mixgrpo_window_start(grpo_step, lo, hi, sde_window, shift_every, stride)
    else:
        raise ValueError(f"window_schedule must be 'fast' or 'mixgrpo', got {schedule!r}")
    steps = list(range(start, start + sde_window))
    return steps, steps


def num_trained_steps(num_steps: int, sde_window: int, timestep_fraction: float) -> int:
    """K, the trained steps per sample (the window size, or ``int(T * fraction)``)."""
    return sde_window if sde_window > 0 else int(num_steps * timestep_fraction)
