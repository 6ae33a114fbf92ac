"""What a run logs: one ``StepRecord`` per GRPO step, from which both the W&B row and the
history entry (``history.json``, written by ``rubricloop-train``) are derived.

The history keeps the names it always had; ``HISTORY_OF_ROW`` says which W&B key each of its
per-step lists copies. W&B runs on the main process only, in the mode
``rewards.common.wandb_mode.resolve_wandb_mode`` picks (None: no W&B run); its run id is kept
in ``<run>/wandb_run_id``, so a resume logs into the same W&B run.

What W&B gets besides the numbers: every ``log_images_every`` steps (0: once per epoch) the
rollout images as one grid ``samples`` (a row per prompt, the caption naming each row's prompt
and its images' total rewards) and the per-sample table ``samples_table`` (``SAMPLE_COLUMNS``:
step, prompt, image, total reward, each reward, the failed rubric check questions); at every
evaluation ``eval_images``, one image per validation prompt captioned with its prompt and
rewards; at the end of the run the final LoRA as an artifact of type "model" (``log_model``).
Rows are built from plain values (``Media``, ``SampleTable``, PIL images) and turned into W&B
objects by ``RunLog.log`` only.
"""

from __future__ import annotations

import logging
import math
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from accelerate import Accelerator
from PIL import Image

from rewards.common.one_line import one_line
from rewards.common.secrets import redact, register
from rewards.common.wandb_mode import resolve_wandb_mode
from training.diffusion.config import TrainerConfig
from training.diffusion.monitors import eval_image_stats
from training.diffusion.scoring import StepRewards
from training.run_dir import WANDB_ID_FILE, new_run_id, stored_run_id

logger = logging.getLogger(__name__)  # under "training": rubricloop-train writes it to <run>/train.log

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


SAMPLE_COLUMNS = ("step", "prompt", "image", "reward")
"""The first columns of the per-sample table; then ``reward/<name>`` per reward, then ``failed_checks``."""

CAPTION_PROMPT_CHARS = 200
"""A grid caption shows at most this many characters of each prompt (the table has them whole)."""


@dataclass
class Media:
    """An image with its caption; ``RunLog.log`` sends it as ``wandb.Image(image, caption=caption)``."""

    image: Image.Image
    caption: str = ""


@dataclass
class SampleTable:
    """A table of rows (cells: str, float, PIL image, ...); ``RunLog.log`` sends it as ``wandb.Table``
    (images as ``wandb.Image``)."""

    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)


def _short(text: str, limit: int = CAPTION_PROMPT_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters (an ellipsis marks a cut)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _fmt(value: float) -> str:
    """A reward as a caption shows it: 3 decimals, "none" for NaN (a reward that returned None)."""
    return "none" if math.isnan(value) else f"{value:.3f}"


def samples_media(images: list[Image.Image], prompts: Sequence[str], totals: Sequence[float], cols: int) -> Media:
    """The rollout images as one grid (``image_grid``: a row per prompt of ``cols`` = G images)
    captioned row by row: ``row <i>: <prompt> | rewards <total of each image, left to right>``.

    Args:
        images, prompts, totals: B each, rollout order (each prompt G times in a row).
        cols: G.
    """
    lines = []
    for r, first in enumerate(range(0, len(images), cols)):
        rewards = " ".join(_fmt(float(v)) for v in totals[first : first + cols])
        lines.append(f"row {r + 1}: {_short(prompts[first])} | rewards {rewards}")
    return Media(image_grid(images, cols), "\n".join(lines))


def reward_caption(prompt: str, total: float, per_reward: dict[str, float]) -> str:
    """``<prompt> | reward <total> (<name> <value>, ...)``: one image's caption."""
    each = ", ".join(f"{name} {_fmt(v)}" for name, v in per_reward.items())
    return f"{prompt} | reward {_fmt(total)}" + (f" ({each})" if each else "")


def sample_table(
    step: int,
    images: list[Image.Image],
    prompts: Sequence[str],
    totals: Sequence[float],
    per_reward: dict[str, Sequence[float]],
    failed: Sequence[Sequence[str]],
) -> SampleTable:
    """The per-sample table of one step: a row per image with ``SAMPLE_COLUMNS``, ``reward/<name>``
    per reward (None where the reward returned None) and ``failed_checks`` (the failed rubric
    check questions, one per line; "" when none or without a rubric reward).

    Args:
        step: the GRPO step.
        images, prompts, totals: B each, rollout order.
        per_reward: name -> B values (NaN: None).
        failed: B lists of questions (``training.diffusion.scoring.failed_checks``), or [] when not known.
    """
    columns = [*SAMPLE_COLUMNS, *(f"reward/{n}" for n in per_reward), "failed_checks"]
    rows = []
    for i, (image, prompt, total) in enumerate(zip(images, prompts, totals, strict=True)):
        each = [None if math.isnan(float(v[i])) else float(v[i]) for v in per_reward.values()]
        questions = "\n".join(failed[i]) if i < len(failed) else ""
        rows.append([step, prompt, image, float(total), *each, questions])
    return SampleTable(columns, rows)


def _artifact_name(run_name: str) -> str:
    """A W&B artifact name for the run's LoRA: ``<run_name>-lora``, characters W&B refuses as "-"."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", f"{run_name}-lora")


def image_grid(images: list[Image.Image], cols: int) -> Image.Image:
    """The images, equal sizes, pasted row by row into ``cols`` columns (a partial last row stays black)."""
    w, h = images[0].size
    grid = Image.new("RGB", (w * cols, h * math.ceil(len(images) / cols)))
    for i, im in enumerate(images):
        grid.paste(im, ((i % cols) * w, (i // cols) * h))
    return grid


def init_wandb(cfg: TrainerConfig, accelerator: Accelerator, run_dir: Path, resumed: bool = False):
    """The W&B run on the main process, or None (mode "disabled", or WANDB_MODE=disabled).

    A new run gets a fresh id, written to ``<run_dir>/wandb_run_id`` before ``wandb.init``; a
    resumed one (``resumed``: restored from a checkpoint) reuses the stored id with
    ``resume="allow"``, so the W&B run continues (one run across a kill and a resume; with no
    stored id, e.g. W&B was off before, it starts a new one and stores its id). W&B keeps the
    first value logged at a step: the steps a killed run logged after its last checkpoint, which
    the resume runs again, keep the killed run's values there (``history.json`` has the resumed ones).

    Raises:
        OSError: ``wandb_run_id`` cannot be written.
        ValueError: ``wandb.init`` failed (an invalid API key, no network in online mode): one
            line with W&B's reason (any API key redacted) and the offline/disabled options.
    """
    mode = resolve_wandb_mode(cfg.wandb_mode)
    if not accelerator.is_main_process or mode is None:
        return None
    import wandb

    from training.diffusion.checkpoint import write_run_record

    run_id = stored_run_id(run_dir) if resumed else None
    kwargs: dict[str, Any] = {"id": run_id, "resume": "allow"} if run_id else {}
    if run_id is None:
        kwargs["id"] = new_run_id()
        write_run_record(run_dir, WANDB_ID_FILE, kwargs["id"] + "\n")
    try:
        return wandb.init(
            project=cfg.wandb_project, name=cfg.run_name, config=asdict(cfg), mode=mode, dir=str(run_dir), **kwargs
        )
    except Exception as e:  # a bad API key, no network: W&B's own errors, many lines deep
        if os.environ.get("WANDB_API_KEY"):
            register(os.environ["WANDB_API_KEY"])
        reason = redact(one_line(f"{type(e).__name__}: {e}", limit=300))
        raise ValueError(
            f"W&B could not start in {mode} mode ({reason}); log into the run folder with wandb.mode=offline "
            "(wandb sync it later) or turn it off with wandb.mode=disabled"
        ) from None


@dataclass
class StepRecord:
    """What one GRPO step measured.

    Attributes:
        step: the GRPO step (0-based).
        rewards: the step's rewards and reward-hacking guards (``training.diffusion.scoring.score_step``).
        update: means over every trained step of every minibatch of loss, kl, approx_kl, ratio,
            clip_fraction (``training.diffusion.update.update_minibatch``), and of grad_norm over the
            optimizer steps; 0.0 for an empty list. A recipe without one of ``UPDATE_KEYS``
            leaves it out (logged as 0.0); its other keys are logged as ``train/<key>``.
        samples: the grid of this rank's rollout images (one row per prompt), captioned
            (``samples_media``), or None.
        lr: the learning rate after the step's optimizer steps.
        groups_kept: prompt groups with a non-zero advantage, summed over ranks.
        seconds: wall-clock seconds of the step, its evaluation included.
        table: the per-sample table of this rank's images (``sample_table``), or None.
    """

    step: int
    rewards: StepRewards
    update: dict[str, float]
    samples: Media | Image.Image | None
    lr: float
    groups_kept: float
    seconds: float
    table: SampleTable | None = None

    def wandb_row(self) -> dict[str, Any]:
        """The W&B keys of the step: rewards/<name>/mean|std, rewards/kind/<kind>/mean,
        checks/<tag>/pass_rate, images/<stat>, samples, samples_table, reward/mean|std,
        loss/policy, loss/kl, approx_kl, ratio_mean, clip_fraction, grad_norm, lr, groups_kept,
        s_per_step, train/<key>."""
        rewards, u = self.rewards, self.update
        row: dict[str, Any] = {}
        for name, (mean, std) in rewards.per_reward.items():
            row[f"rewards/{name}/mean"], row[f"rewards/{name}/std"] = mean, std
        row.update(rewards.kind_means)
        row.update(rewards.pass_rates)
        row.update({f"images/{k}": v for k, v in rewards.image_stats.items()})
        if self.samples is not None:
            row["samples"] = self.samples
        if self.table is not None:
            row["samples_table"] = self.table
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
    "eval_step", "eval_reward", "eval_rewards" (reward name -> its mean on the validation images,
    weight-0 gold judges included), "eval_checks" (``checks/<tag>/pass_rate`` of the validation
    images, when a rubric reward is configured), "eval_image_stats" (``rewards.image_stats`` of the
    validation images): one entry per evaluation}.
    """

    def __init__(
        self,
        cfg: TrainerConfig,
        accelerator: Accelerator,
        run_dir: Path,
        n_train: int,
        history: dict | None = None,
        resumed: bool | None = None,
    ):
        """``history``: a resumed run's history up to its checkpoint (continued), or None.
        ``resumed``: the run was restored from a checkpoint (its W&B run is continued,
        ``init_wandb``); None: whether ``history`` is given."""
        self.cfg, self.run_dir = cfg, Path(run_dir)
        self.tracker = init_wandb(cfg, accelerator, run_dir, history is not None if resumed is None else resumed)
        # log_images_every 0: once per epoch over the n_train prompts, P per rank per step
        epoch = math.ceil(n_train / (cfg.prompts_per_step * accelerator.num_processes))
        self.images_every = cfg.log_images_every or epoch
        keys = ("step", *HISTORY_OF_ROW, "image_stats", "check_pass_rates")
        keys += ("eval_step", "eval_reward", "eval_rewards", "eval_checks", "eval_image_stats")
        self.history: dict[str, list] = {k: list((history or {}).get(k, [])) for k in keys}

    def samples_due(self, step: int) -> bool:
        """Whether ``step`` logs a grid of its rollout images (``samples``)."""
        return step % self.images_every == 0

    def eval_row(self, step: int, ev: dict[str, Any]) -> dict[str, Any]:
        """Record ``training.diffusion.scoring.evaluate``'s result at ``step`` in the history; its W&B
        keys: eval/* and ``eval_images``, one ``Media`` per validation image captioned with its
        prompt and rewards (``reward_caption``; without ``_prompts`` in ``ev``, uncaptioned)."""
        self.history["eval_step"].append(step)
        self.history["eval_reward"].append(ev["eval/reward_mean"])
        self.history["eval_checks"].append({k[5:]: v for k, v in ev.items() if k.startswith("eval/checks/")})
        self.history["eval_rewards"].append({n: ev[f"eval/{n}"] for n in ev.get("_per_reward", {})})
        self.history["eval_image_stats"].append(eval_image_stats(ev))
        images = ev["_images"]
        prompts, totals = ev.get("_prompts"), ev.get("_rewards")
        per = ev.get("_per_reward", {})
        media = [
            Media(im, reward_caption(prompts[i], totals[i], {n: v[i] for n, v in per.items()}) if prompts else "")
            for i, im in enumerate(images)
        ]
        return {**{k: v for k, v in ev.items() if not k.startswith("_")}, "eval_images": media}

    def log_step(self, record: StepRecord, eval_row: dict[str, Any]) -> None:
        """Append the step to the history and log its row (after ``eval_row``'s keys) to W&B."""
        row = record.wandb_row()
        self.history["step"].append(record.step)
        for key, wandb_key in HISTORY_OF_ROW.items():
            self.history[key].append(row[wandb_key])
        self.history["image_stats"].append(record.rewards.image_stats)
        self.history["check_pass_rates"].append(record.rewards.pass_rates)
        if "eval/reward_mean" in eval_row:
            logger.info("step %d: held-out reward %.4f", record.step, eval_row["eval/reward_mean"])
        logger.info(
            "step %d: reward %.4f, loss %.4g, kl %.4g",
            record.step,
            row["reward/mean"],
            row["loss/policy"],
            row["loss/kl"],
        )
        self.log({**eval_row, **row}, record.step)

    def log(self, row: dict[str, Any], step: int) -> None:
        """Send ``row`` to W&B at ``step``: PIL images and ``Media`` as ``wandb.Image`` (with its
        caption), lists of them as lists, ``SampleTable`` as ``wandb.Table``; nothing without a run."""
        if self.tracker is None:
            return
        self.tracker.log({k: _to_wandb(v) for k, v in row.items()}, step=step)

    def log_model(self, folder: Path, step: int, metadata: dict[str, Any] | None = None) -> None:
        """Log the LoRA of checkpoint ``folder`` as a W&B artifact ``<run_name>-lora`` of type
        "model", aliases "latest" and ``step_<step>``: its ``pytorch_lora_weights.safetensors``
        (the LoRA metadata inside), ``adapter_config.json`` and ``checkpoint.json`` when
        present; the artifact's metadata: ``metadata`` (rank, alpha, target modules, base model,
        step ...). Nothing without a run, or when the tracker cannot log artifacts (a test's
        recorder) or the folder has no LoRA file.
        """
        from training.diffusion.checkpoint import ADAPTER_CONFIG_FILE, LORA_FILE, MANIFEST_FILE

        log_artifact = getattr(self.tracker, "log_artifact", None)
        if log_artifact is None or not (folder / LORA_FILE).is_file():
            return
        import wandb

        artifact = wandb.Artifact(_artifact_name(self.cfg.run_name), type="model", metadata=metadata or {})
        for name in (LORA_FILE, ADAPTER_CONFIG_FILE, MANIFEST_FILE):
            if (folder / name).is_file():
                artifact.add_file(str(folder / name), name=name)
        log_artifact(artifact, aliases=["latest", f"step_{step}"])

    def finish(self) -> None:
        """Finish the W&B run (nothing without one)."""
        if self.tracker is not None:
            self.tracker.finish()


def _to_wandb(value: Any) -> Any:
    """``value`` as W&B logs it (see ``RunLog.log``); other values unchanged."""
    import wandb

    if isinstance(value, Media):
        return wandb.Image(value.image, caption=value.caption or None)
    if isinstance(value, Image.Image):
        return wandb.Image(value)
    if isinstance(value, SampleTable):
        rows = [[_to_wandb(c) if isinstance(c, (Image.Image, Media)) else c for c in r] for r in value.rows]
        return wandb.Table(columns=list(value.columns), data=rows)
    if isinstance(value, list) and value and all(isinstance(v, (Media, Image.Image)) for v in value):
        return [_to_wandb(v) for v in value]
    return value
