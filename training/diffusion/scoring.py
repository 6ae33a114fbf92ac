"""Rewards as the loop uses them: each under its configured name (``NamedReward``), checked
once before step 1 (``check_rewards``), the held-out evaluation (``evaluate``), a step's rewards
gathered over ranks (``score_step``), and the reward-hacking logs: per-check-type pass rates
(``check_pass_rates``), per-kind reward means (``kind_reward_means``), and per image its rewards
and the questions of the rubric checks it failed (``failed_checks``, for the W&B sample table).
"""

from __future__ import annotations

import math
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Sequence

import torch
from accelerate import Accelerator
from accelerate.utils import gather_object
from PIL import Image

from rewards.image_stats import image_stats
from rewards.reward_fns import RewardFn, RubricReward, combine_rewards, tag_pass_rates
from training.diffusion.monitors import EVAL_IMAGES
from training.diffusion.rollout import to_pil
from training.diffusion.update import Policy


class NamedReward:
    """A reward function under the name it has in ``train``'s ``reward_fns`` (its config key).

    ``rewards.reward_fns.combine_rewards`` names a function by its ``name`` attribute, so
    wrapping makes its errors and ``rewards/<name>/...`` logs use the configured key. When
    ``fn`` is a ``RubricReward``, the verdicts of every call are kept in call order (one list
    per image) until ``take_verdicts``: with one reward thread the calls run in submission
    order, so after all chunks of a step are scored they line up with the step's images.
    """

    def __init__(self, name: str, fn: RewardFn):
        self.name, self.fn = name, fn
        self._verdicts: list = []

    @property
    def is_rubric(self) -> bool:
        return isinstance(self.fn, RubricReward)

    def __call__(self, prompts: list[str], images: list[Image.Image], **columns: Any) -> list:
        values = self.fn(prompts=prompts, images=images, **columns)
        if self.is_rubric:
            self._verdicts.extend(self.fn.last_verdicts)
        return values

    def take_verdicts(self) -> list:
        """The verdict lists collected since the last call (one per image), and forget them."""
        out, self._verdicts = self._verdicts, []
        return out


def check_rewards(
    named: Sequence[NamedReward], weights: Sequence[float], train_items: Sequence, resolution: int
) -> None:
    """Score two grey images (the first two training prompts) once, so a broken reward fails before step 1.

    Args:
        named: the reward functions, each under its configured name.
        weights: one per reward.
        train_items: objects with a ``.prompt``; the first two (or the first, twice) are used.
        resolution: side of the grey test images in pixels.

    Raises:
        ValueError: one line naming the reward: it returned a non-list, the wrong number of
            values, a non-number, NaN or inf (``rewards.reward_fns.combine_rewards``), or every
            reward returned None for a test image (no reward to train on: e.g. a judge that
            withholds everything because its server is down, or prompts without quoted text for
            an OCR reward).
    """
    items = [train_items[0], train_items[min(1, len(train_items) - 1)]]
    grey = [Image.new("RGB", (resolution, resolution), (128, 128, 128)) for _ in items]
    prompts = [it.prompt for it in items]
    where = f"reward check on 2 grey {resolution}x{resolution} images before step 1"
    try:
        _, per = combine_rewards(named, weights, prompts, grey, items=items)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    finally:
        for r in named:
            r.take_verdicts()  # test images: keep them out of the step-0 logs
    for i, item in enumerate(items):
        if all(math.isnan(v[i].item()) for v in per.values()):
            name = getattr(item, "id", None) or repr(item.prompt[:60])
            raise ValueError(
                f"{where}: every reward ({', '.join(per)}) returned None for training item {name}: "
                "no reward to train on"
            )


def take_rubric_verdicts(named: Sequence[NamedReward], items: Sequence) -> dict[str, list]:
    """Reward name -> the verdict lists its ``RubricReward`` collected since the last call (one
    per item of ``items``, same order), for every rubric reward; {} without one.

    Raises:
        RuntimeError: a reward collected another number of verdict lists than ``len(items)`` (a
            call outside the loop's bookkeeping: a bug, not bad input).
    """
    out = {}
    for r in named:
        if r.is_rubric:
            verdicts = r.take_verdicts()
            if len(verdicts) != len(items):
                raise RuntimeError(
                    f"reward {r.name!r}: {len(verdicts)} verdict lists collected for {len(items)} images"
                )
            out[r.name] = verdicts
    return out


def pass_rates(items: Sequence, verdicts: dict[str, list]) -> dict[str, float]:
    """``checks/<tag>/pass_rate`` in [0, 1] of ``take_rubric_verdicts``'s ``verdicts`` on ``items``
    (``rewards.reward_fns.tag_pass_rates``); with more than one rubric reward the keys are
    ``checks/<reward name>/<tag>/pass_rate``. Empty without one."""
    out = {}
    for name, vs in verdicts.items():
        prefix = "checks/" if len(verdicts) == 1 else f"checks/{name}/"
        out.update({f"{prefix}{tag}/pass_rate": rate for tag, rate in tag_pass_rates(items, vs).items()})
    return out


def failed_checks(items: Sequence, verdicts: dict[str, list]) -> list[list[str]]:
    """Per item, the questions of its rubric checks not answered "yes", in check order: the
    question for a "no", ``<question> (withheld)`` for a withheld or missing verdict; prefixed
    ``<reward name>: `` with more than one rubric reward. One (possibly empty) list per item;
    all empty without a rubric reward or for items without a rubric."""
    out: list[list[str]] = [[] for _ in items]
    for name, vs in verdicts.items():
        prefix = "" if len(verdicts) == 1 else f"{name}: "
        for i, (item, item_verdicts) in enumerate(zip(items, vs, strict=True)):
            by_id = {v.check_id: v for v in item_verdicts}
            rubric = getattr(item, "rubric", None)
            for check in getattr(rubric, "checks", ()):
                v = by_id.get(check.id)
                if v is None or v.answer != "yes":
                    withheld = "" if v is not None and v.answer == "no" else " (withheld)"
                    out[i].append(f"{prefix}{check.question}{withheld}")
    return out


def check_pass_rates(named: Sequence[NamedReward], items: Sequence) -> dict[str, float]:
    """``checks/<tag>/pass_rate`` in [0, 1] from the verdicts the rubric rewards collected on ``items``.

    The per-check-type (per-dimension) reward-hacking log: ``pass_rates`` over the verdicts
    since the last call (``take_rubric_verdicts``, one list per item, same order). With more
    than one ``RubricReward`` the keys are ``checks/<reward name>/<tag>/pass_rate``. Empty without one.

    Raises:
        RuntimeError: as ``take_rubric_verdicts``.
    """
    return pass_rates(items, take_rubric_verdicts(named, items))


def evaluate(
    policy: Policy, *, sigmas: torch.Tensor, items: Sequence, named: list[NamedReward], weights: list[float], seed: int
) -> dict[str, Any]:
    """ODE samples of ``items`` (one image each) from fixed noise, scored by the rewards.

    Args:
        policy: the policy to sample (swap EMA weights in beforehand to evaluate those).
        sigmas: float32 (T_eval + 1,) evaluation sigmas.
        items: validation items (``.prompt``), passed to the rewards as the ``items`` column.
        named, weights: the rewards and their weights (``rewards.reward_fns.combine_rewards``).
        seed: seed of the initial noise (the same images every evaluation for the same weights).

    Returns:
        ``eval/reward_mean``, ``eval/<reward name>`` (mean over images with a value),
        ``eval/checks/<tag>/pass_rate`` when a ``RubricReward`` is configured,
        ``eval/images/<stat>`` (``rewards.image_stats.image_stats`` of the validation images: fixed
        prompts and noise, so a drift between evaluations is the weights'), and per image
        (keys starting with "_", not logged as numbers): the PIL images under ``_images``, the
        prompts under ``_prompts``, the weighted total rewards under ``_rewards`` (floats), each
        reward's values under ``_per_reward`` (name -> floats, NaN for None) and the failed
        check questions under ``_failed`` (``failed_checks``).
    """
    prompts = [it.prompt for it in items]
    cond = policy.family.encode(prompts, policy.device)
    rollout = policy.rollout(cond, sigmas, [], torch.Generator().manual_seed(seed))
    images = to_pil(policy.family.decode(rollout.final))
    total, per = combine_rewards(named, weights, prompts, images, items=items)
    verdicts = take_rubric_verdicts(named, items)
    checks = {f"eval/{k}": v for k, v in pass_rates(items, verdicts).items()}
    return {
        "eval/reward_mean": total.mean().item(),
        **{f"eval/{n}": v.nanmean().item() for n, v in per.items()},
        **checks,
        **{f"{EVAL_IMAGES}{k}": v for k, v in image_stats(images).items()},
        "_images": images,
        "_prompts": prompts,
        "_rewards": total.tolist(),
        "_per_reward": {n: v.tolist() for n, v in per.items()},
        "_failed": failed_checks(items, verdicts),
    }


def kind_reward_means(rewards: torch.Tensor, kinds: Sequence[str | None]) -> dict[str, float]:
    """``rewards/kind/<kind>/mean``: mean total reward of the images of each item kind.

    The per-dimension reward-hacking log (slide, chart, poster: ``item.meta["kind"]`` of
    ``training.procedural.data``). Args: rewards float (N,); kinds: N kinds, None for an item without one
    (left out). Returns {} when no item has a kind.
    """
    out = {}
    for kind in sorted({k for k in kinds if k is not None}):
        mask = torch.tensor([k == kind for k in kinds], device=rewards.device)  # (N,)
        out[f"rewards/kind/{kind}/mean"] = rewards[mask].mean().item()
    return out


def item_kind(item) -> str | None:
    """``item.meta["kind"]`` (slide, chart, poster), None for an item without one."""
    meta = getattr(item, "meta", None)
    return meta.get("kind") if isinstance(meta, dict) else None


def nanstd(x: torch.Tensor) -> float:
    """Population std of the non-NaN entries of ``x`` (a reward's images with a value); NaN when none."""
    x = x[~torch.isnan(x)]
    return x.std(unbiased=False).item() if x.numel() else math.nan


class NoReward(ArithmeticError):
    """No reward function gave a value for any image of a step (every call failed: a judge server
    that went away, say); one line, and ``rubricloop-train`` exits 1 before that step's update."""


@dataclass
class StepRewards:
    """The rewards of one GRPO step, gathered over ranks, and the reward-hacking guards on them.

    Attributes:
        total: float32 (world * B,) weighted total reward of every image of every rank, rank order.
        per_reward: reward name -> (mean, population std) over the images it gave a value (every rank).
        kind_means: ``rewards/kind/<kind>/mean`` over every rank's images (``kind_reward_means``).
        pass_rates: ``checks/.../pass_rate`` of this rank's images (``check_pass_rates``).
        image_stats: ``rewards.image_stats.image_stats`` of this rank's images.
        sample_total: float32 (B,) weighted total reward of each of this rank's images, rollout order.
        sample_rewards: reward name -> float32 (B,) its value on each of this rank's images (NaN: None).
        failed: per image of this rank, the questions of the rubric checks it failed (``failed_checks``).
        gathered: reward name -> float32 (world * B,) its value on every rank's images, rank order
            (NaN: None); ``training.diffusion.reward_aggregation`` normalises each for "gdpo".
    """

    total: torch.Tensor
    per_reward: dict[str, tuple[float, float]]
    kind_means: dict[str, float]
    pass_rates: dict[str, float]
    image_stats: dict[str, float]
    sample_total: torch.Tensor = field(default_factory=lambda: torch.zeros(0))
    sample_rewards: dict[str, torch.Tensor] = field(default_factory=dict)
    failed: list[list[str]] = field(default_factory=list)
    gathered: dict[str, torch.Tensor] = field(default_factory=dict)


def score_step(
    futures: list[Future],
    items: Sequence,
    images: list[Image.Image],
    named: Sequence[NamedReward],
    accelerator: Accelerator,
) -> StepRewards:
    """Wait for the reward futures of this rank's chunks (in order: B images in all) and gather
    the rewards of every rank. Every rank must call it (collectives).

    Args:
        futures: ``rewards.reward_fns.AsyncRewarder.submit`` results, one per rollout chunk.
        items, images: this rank's B items and rollout images, in rollout order.
        named: the rewards (their verdicts since the last call are this step's).

    Raises:
        NoReward: no reward function gave a value (None for every image, on every rank): the
            step's totals would all be 0 (``combine_rewards``, as in trl) and train on nothing
            real, so the run stops before the update; the earlier checkpoints resume it.
    """
    results = [f.result() for f in futures]
    device = accelerator.device
    mine = torch.cat([t for t, _ in results]).float()  # (B,)
    total = accelerator.gather(mine.to(device))  # (world * B,)
    per_reward, sample_rewards, gathered = {}, {}, {}
    for r in named:
        sample_rewards[r.name] = torch.cat([p[r.name] for _, p in results]).float().cpu()  # (B,)
        values = accelerator.gather(sample_rewards[r.name].to(device))  # (world * B,)
        per_reward[r.name] = (values.nanmean().item(), nanstd(values))
        gathered[r.name] = values.cpu()
    if named and all(torch.isnan(v).all() for v in gathered.values()):
        raise NoReward(
            f"no reward for any of the {total.numel()} images of this step: every call of "
            f"{', '.join(r.name for r in named)} gave None (a judge server that stopped answering? "
            "see train.log); stopped before the update, continue with resume=true"
        )
    kinds = gather_object([item_kind(it) for it in items])
    verdicts = take_rubric_verdicts(named, items)
    return StepRewards(
        total,
        per_reward,
        kind_reward_means(total, kinds),
        pass_rates(items, verdicts),
        image_stats(images),
        sample_total=mine.detach().cpu(),
        sample_rewards=sample_rewards,
        failed=failed_checks(items, verdicts),
        gathered=gathered,
    )
