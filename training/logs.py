"""What a run logs: one ``StepRecord`` per GRPO step, from which both the W&B row and the
history entry (``history.json``, written by ``rubricloop-train``) are derived.

The history keeps the names it always had; ``HISTORY_OF_ROW`` says which W&B key each of its
per-step lists copies. W&B runs on the main process only, in the mode
``rewards.common.wandb_mode.resolve_wandb_mode`` picks (None: no W&B run).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from accelerate import Accelerator
from PIL import Image

from rewards.common.wandb_mode import resolve_wandb_mode
from training.config import GRPOConfig
from training.scoring import StepRewards

HISTORY_OF_ROW = {
    "loss": "loss/policy",
    "reward_mean": "reward/mean",
    "kl": "loss/kl",
    "approx_kl": "approx_kl",
    "ratio_mean": "ratio_mean",
    "clip_fraction": "clip_fraction",
}
"""history.json list -> the W&B key whose value it records each step."""


UPDATE_KEYS = ("loss", "kl", "approx_kl", "ratio", "clip_fraction", "grad_norm")
"""The update statistics every recipe logs under the keys above (0.0 where a recipe has none)."""


def image_grid(images: list[Image.Image], cols: int) -> Image.Image:
    """The images, equal sizes, pasted row by row into ``cols`` columns (a partial last row stays black)."""
    w, h = images[0].size
    grid = Image.new("RGB", (w * cols, h * math.ceil(len(images) / cols)))
    for i, im in enumerate(images):
        grid.paste(im, ((i % cols) * w, (i // cols) * h))
    return grid


def init_wandb(cfg: GRPOConfig, accelerator: Accelerator, run_dir: Path):
    """The W&B run on the main process, or None (mode "disabled", or WANDB_MODE=disabled)."""
    mode = resolve_wandb_mode(cfg.wandb_mode)
    if not accelerator.is_main_process or mode is None:
        return None
    import wandb

    return wandb.init(project=cfg.wandb_project, name=cfg.run_name, config=asdict(cfg), mode=mode, dir=str(run_dir))


@dataclass
class StepRecord:
    """What one GRPO step measured.

    Attributes:
        step: the GRPO step (0-based).
        rewards: the step's rewards and reward-hacking guards (``training.scoring.score_step``).
        update: means over every trained step of every minibatch of loss, kl, approx_kl, ratio,
            clip_fraction (``training.update.update_minibatch``), and of grad_norm over the
            optimizer steps; 0.0 for an empty list. A recipe without one of ``UPDATE_KEYS``
            leaves it out (logged as 0.0); its other keys are logged as ``train/<key>``.
        samples: the grid of this rank's rollout images (one row per prompt), or None.
        lr: the learning rate after the step's optimizer steps.
        groups_kept: prompt groups with a non-zero advantage, summed over ranks.
        seconds: wall-clock seconds of the step, its evaluation included.
    """

    step: int
    rewards: StepRewards
    update: dict[str, float]
    samples: Image.Image | None
    lr: float
    groups_kept: float
    seconds: float

    def wandb_row(self) -> dict[str, Any]:
        """The W&B keys of the step: rewards/<name>/mean|std, rewards/kind/<kind>/mean,
        checks/<tag>/pass_rate, images/<stat>, samples, reward/mean|std, loss/policy, loss/kl,
        approx_kl, ratio_mean, clip_fraction, grad_norm, lr, groups_kept, s_per_step."""
        rewards, u = self.rewards, self.update
        row: dict[str, Any] = {}
        for name, (mean, std) in rewards.per_reward.items():
            row[f"rewards/{name}/mean"], row[f"rewards/{name}/std"] = mean, std
        row.update(rewards.kind_means)
        row.update(rewards.pass_rates)
        row.update({f"images/{k}": v for k, v in rewards.image_stats.items()})
        if self.samples is not None:
            row["samples"] = self.samples
        row.update(
            {
                "reward/mean": rewards.total.mean().item(),
                "reward/std": rewards.total.std().item(),
                "loss/policy": u.get("loss", 0.0),
                "loss/kl": u.get("kl", 0.0),
                "approx_kl": u.get("approx_kl", 0.0),
                "ratio_mean": u.get("ratio", 0.0),
                "clip_fraction": u.get("clip_fraction", 0.0),
                "grad_norm": u.get("grad_norm", 0.0),
                "lr": self.lr,
                "groups_kept": self.groups_kept,
                "s_per_step": self.seconds,
            }
        )
        row.update({f"train/{k}": v for k, v in u.items() if k not in UPDATE_KEYS})  # a recipe's own statistics
        return row


class RunLog:
    """The run's history (``train``'s return value, saved as history.json) and its W&B run.

    ``history``: {"step", "loss", "reward_mean", "kl", "approx_kl", "ratio_mean",
    "clip_fraction": one float per step; "image_stats", "check_pass_rates": one dict per step;
    "eval_step", "eval_reward": one entry per evaluation}.
    """

    def __init__(
        self, cfg: GRPOConfig, accelerator: Accelerator, run_dir: Path, n_train: int, history: dict | None = None
    ):
        """``history``: a resumed run's history up to its checkpoint (continued), or None."""
        self.tracker = init_wandb(cfg, accelerator, run_dir)
        # log_images_every 0: once per epoch over the n_train prompts, P per rank per step
        epoch = math.ceil(n_train / (cfg.prompts_per_step * accelerator.num_processes))
        self.images_every = cfg.log_images_every or epoch
        keys = ("step", *HISTORY_OF_ROW, "image_stats", "check_pass_rates", "eval_step", "eval_reward")
        self.history: dict[str, list] = {k: list((history or {}).get(k, [])) for k in keys}

    def samples_due(self, step: int) -> bool:
        """Whether ``step`` logs a grid of its rollout images (``samples``)."""
        return step % self.images_every == 0

    def eval_row(self, step: int, ev: dict[str, Any]) -> dict[str, Any]:
        """Record ``training.scoring.evaluate``'s result at ``step`` in the history; its W&B
        keys (eval/*, the images as one grid ``eval_images``)."""
        self.history["eval_step"].append(step)
        self.history["eval_reward"].append(ev["eval/reward_mean"])
        return {**{k: v for k, v in ev.items() if k != "_images"}, "eval_images": image_grid(ev["_images"], 4)}

    def log_step(self, record: StepRecord, eval_row: dict[str, Any]) -> None:
        """Append the step to the history and log its row (after ``eval_row``'s keys) to W&B."""
        row = record.wandb_row()
        self.history["step"].append(record.step)
        for key, wandb_key in HISTORY_OF_ROW.items():
            self.history[key].append(row[wandb_key])
        self.history["image_stats"].append(record.rewards.image_stats)
        self.history["check_pass_rates"].append(record.rewards.pass_rates)
        self.log({**eval_row, **row}, record.step)

    def log(self, row: dict[str, Any], step: int) -> None:
        """Send ``row`` to W&B at ``step`` (PIL images as ``wandb.Image``); nothing without a run."""
        if self.tracker is None:
            return
        import wandb

        self.tracker.log({k: wandb.Image(v) if isinstance(v, Image.Image) else v for k, v in row.items()}, step=step)

    def finish(self) -> None:
        if self.tracker is not None:
            self.tracker.finish()
