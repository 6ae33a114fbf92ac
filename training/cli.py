"""``rubricloop-train``: Hydra entry point of the GRPO trainer (config: ``conf/train.yaml``).

    rubricloop-train model=tiny_sd3 trainer.num_steps=2
    accelerate launch --config_file conf/accelerate/ddp.yaml -m training.cli model=sd35_medium

A bad config (group size 1, unknown model preset or trainer field, a reward returning the wrong
length or NaN, a training prompt leaking a held-out benchmark item) ends with one line on
stderr, ``rubricloop-train: <what is wrong>``, and exit status 2, before the pipeline is built
(``HYDRA_FULL_ERROR=1`` shows the traceback instead). So does a run folder that cannot be
written, one another live rubricloop-train holds (``<run>/.lock``), and a ``resume=true`` whose
settings differ from the ones the run's ``run.json`` records (``run_settings``); nothing is
written before these checks pass. A checkpoint that cannot be written (disk full) ends with one
line and exit status 1, the earlier checkpoints intact.

Rerunning the command of a finished run (its last checkpoint is ``step_<num_steps>`` and its
``history.json`` holds the final evaluation) prints one line, ``rubricloop-train: <run> already
finished ...`` naming where its results are, and exits 0 without loading the pipeline or
writing anything, with or without ``resume=true``; with other settings it is refused in one
line (``check_run_settings``), and with more ``trainer.num_steps`` and ``resume=true`` it goes
on. An unfinished run (killed, or interrupted) is continued only with ``resume=true``: without
it the rerun is refused in one line that says so (``check_setup``), so that a command meant to
start a new run never silently continues an old one.

The run folder ``<trainer.output_dir>/<trainer.run_name>/`` holds ``step_<n>/`` checkpoints,
``training_data.jsonl`` (the leakage guard's record of the prompts trained on), ``run.json``
(the settings a resume must share), ``history.json``, ``wandb_run_id`` (the W&B run a resume
continues), ``wandb/`` (offline W&B runs), ``train.log`` and the composed config in ``.hydra/``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from rewards.common.debug_preset import exit_on_foreign_preset
from rewards.common.task import task_wrapper
from training import recipes
from training.console import RunAlreadyDone, console_main, run_guarded
from training.diffusion.config import check_setup
from training.recipes import config_from_fields
from training.run_dir import BUNDLED_HELDOUT, bundled_heldout, differing_keys, heldout_paths  # noqa: F401 (re-exported)
from training.run_dir import claim_run_dir as _claim_run_dir
from training.run_dir import is_main_process as _is_main_process

RESULT_NEUTRAL = (
    "run_name",
    "output_dir",
    "num_steps",
    "resume",
    "save_every",
    "keep_last",
    "eval_every",
    "log_images_every",
    "gradient_checkpointing",
    "wandb_project",
    "wandb_mode",
    "base_model",
)
"""Trainer fields a resume may change: where the run goes, how long it runs (more steps continue
it), how often it saves, evaluates and logs, recomputing activations (same math), and the base
model's label in the LoRA metadata (the model itself is the ``model`` setting). Every other
trainer field is part of the run's settings (``run_settings``)."""


def run_settings(cfg: DictConfig) -> dict:
    """What a run's result depends on, recorded in ``<run>/run.json``: the trainer fields but
    ``RESULT_NEUTRAL``, the data (``task``, ``n``, ``seed``, ``val_fraction``), the model and
    rollout presets, the rewards and the number of processes (``WORLD_SIZE``: each rank draws its own prompts and
    noise). A resume must have the same (``check_run_settings``)."""
    trainer = OmegaConf.to_container(cfg.trainer, resolve=True)
    settings = {
        "trainer": {k: v for k, v in trainer.items() if k not in RESULT_NEUTRAL},
        "data": {k: cfg.data[k] for k in ("task", "n", "seed", "val_fraction")},
        "model": OmegaConf.to_container(cfg.model, resolve=True),
        "rollout": OmegaConf.to_container(cfg.rollout, resolve=True),
        "rewards": OmegaConf.to_container(cfg.rewards, resolve=True),
        "world_size": int(os.environ.get("WORLD_SIZE", "1")),
    }
    return json.loads(json.dumps(settings))  # as run.json gives them back (tuples as lists)


def base_model(cfg: DictConfig) -> Any:
    """``cfg.model`` (conf/model) built as a ``rewards.models.base_model.BaseModel``; no weights load.

    Raises:
        ValueError: a bad model field, in one line naming it (``rewards.common.components``).
    """
    from rewards.common.components import build_component

    return build_component(cfg, "model")


def load_base_model(cfg: DictConfig, model: Any = None) -> tuple[Any, dict]:
    """The pipeline of ``model`` (default: :func:`base_model` of ``cfg``), weights on the CPU for
    accelerate to place, its scheduler shifted as ``cfg.rollout`` (conf/rollout) says, and that
    preset's family arguments.

    Raises:
        ValueError, OSError: as :func:`base_model` and ``load_pipeline``.
    """
    from training.diffusion.pretrain import build_when_named

    model = base_model(cfg) if model is None else model
    build_when_named(model.id)  # conf/model/tiny_sd3_layout.yaml: built here on first use
    pipe = model.load(scheduler_shift=cfg.rollout.scheduler_shift)
    return pipe, OmegaConf.to_container(cfg.rollout.family_kwargs, resolve=True)


def check_run_settings(run_dir: Path, settings: dict) -> None:
    """Refuse to continue a run (it holds checkpoints) with other ``settings`` than its
    ``run.json`` records; a run without checkpoints starts afresh and takes the new ones.

    Raises:
        rewards.common.run_folder.SettingsError: one line naming the settings that differ.
    """
    from rewards.common.run_folder import check_settings
    from training.diffusion.checkpoint import list_checkpoints

    def refusal(before: dict) -> str:
        return (
            f"{run_dir} holds a run made with another {', '.join(differing_keys(before, settings))} "
            f"(see {run_dir / 'run.json'}); use those settings to resume, or a new trainer.run_name"
        )

    if list_checkpoints(run_dir):
        check_settings(run_dir / "run.json", settings, refusal, new_run="use another trainer.run_name")


def finished_history(run_dir: Path, num_steps: int) -> dict | None:
    """The history of the run in ``run_dir`` when it finished ``num_steps`` steps, else None.

    Finished: its newest checkpoint folder is ``step_<num_steps>`` and whole (its files match
    its ``checkpoint.json``, written last: ``training.diffusion.checkpoint.is_whole``), and ``history.json``
    (written after the final evaluation) records step ``num_steps - 1`` last and the final
    evaluation at step ``num_steps``. Reads only; a torn last checkpoint or an unreadable or
    partial ``history.json`` is "not finished" (a resume redoes what is missing).
    """
    from training.diffusion.checkpoint import is_whole, list_checkpoints

    checkpoints = list_checkpoints(run_dir)
    if not checkpoints or checkpoints[-1].name != f"step_{num_steps}":
        return None
    try:
        history = json.loads((run_dir / "history.json").read_text(encoding="utf-8"))
        done = history["step"][-1] == num_steps - 1 and history["eval_step"][-1] == num_steps
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        from training.console import say_unreadable_history

        if not isinstance(e, IndexError):  # an empty list is a partial history, not a corrupt one
            say_unreadable_history(run_dir / "history.json", e)  # not silently rebuilt
        return None
    return history if done and is_whole(checkpoints[-1]) else None


def _done_line(run_dir: Path, num_steps: int, history: dict) -> str:
    """The one line of a rerun of a finished run: its final eval reward and where its results are."""
    return (
        f"{run_dir} already finished its {num_steps} steps (final eval reward {history['eval_reward'][-1]:.4g} "
        f"at step {num_steps}); nothing to do: history in {run_dir / 'history.json'}, "
        f"LoRA in {run_dir / f'step_{num_steps}'}/ (more steps: raise trainer.num_steps with resume=true)"
    )


def check_already_done(cfg: DictConfig, run_dir: Path, num_steps: int) -> None:
    """Raise ``RunAlreadyDone`` when ``run_dir`` holds this run, finished (``finished_history``)
    with the same settings; nothing is written. Checked under the run folder's lock (a live run
    there is refused as usual).

    Raises:
        RunAlreadyDone: the run is finished with these settings.
        rewards.common.run_folder.SettingsError: it is finished with other settings (one line,
            ``check_run_settings``).
        ValueError: the folder is held by another live command (``_claim_run_dir``).
    """
    if finished_history(run_dir, num_steps) is None:
        return
    lock, _ = _claim_run_dir(run_dir)
    with lock:
        check_run_settings(run_dir, run_settings(cfg))
        history = finished_history(run_dir, num_steps)  # again, under the lock
    if history is not None:
        raise RunAlreadyDone(_done_line(run_dir, num_steps, history), history)


def run(cfg: DictConfig) -> dict:
    """Build data, rewards and the pipeline from ``cfg`` and train. Returns ``train``'s history.

    Order: trainer fields -> a finished run with these settings (``check_already_done``) ->
    rewards -> data -> leakage guard -> config and reward checks -> the
    run folder (created, locked, settings checked against its ``run.json`` on a resume) ->
    ``training_data.jsonl``, ``run.json``, ``.hydra/`` and ``train.log`` -> pipeline -> ``train``
    -> ``history.json``. Every refusal comes before the first file is written, and everything
    that can be wrong in a config fails before the (large) pipeline is loaded.

    Raises:
        RunAlreadyDone: the run folder holds this run, finished; nothing was done.
        ValueError: an unknown or mistyped trainer field (``config_from_fields``), a bad config
            or reward (``check_setup``, ``check_rewards``), a leak
            (``rewards.leakage.LeakageError``), a bad held-out file (``rewards.rubric.RubricError``),
            an unwritable or busy run folder, a resume with other settings
            (``rewards.common.run_folder.SettingsError``); one line each.
        hydra.errors.InstantiationException: a reward or pipeline ``_target_`` fails to build.
        training.diffusion.checkpoint.CheckpointWriteError: a checkpoint could not be written (disk full).
    """
    # Imported here so that composition errors (see ``main``) come back without loading torch.
    from rewards.common.run_folder import discard, run_files, write_json
    from rewards.leakage import check_leakage
    from training.diffusion.checkpoint import write_run_record
    from training.diffusion.scoring import NamedReward, check_rewards
    from training.procedural.data import make_dataset

    trainer = config_from_fields(OmegaConf.to_container(cfg.trainer, resolve=True))
    check_already_done(cfg, Path(trainer.output_dir) / trainer.run_name, trainer.num_steps)
    reward_fns = {name: instantiate(spec.fn) for name, spec in cfg.rewards.items()}
    model = base_model(cfg)  # a bad model field fails here, before anything is written
    weights = {name: spec.weight for name, spec in cfg.rewards.items()}
    bad = [
        f"rewards.{n}.weight must be a number, got {w!r}"
        for n, w in weights.items()
        if not isinstance(w, (int, float)) or isinstance(w, bool)
    ]
    if bad:
        raise ValueError("; ".join(bad))
    weights = {name: float(w) for name, w in weights.items()}
    train_items, val_items = make_dataset(
        cfg.data.n, cfg.data.seed, val_fraction=cfg.data.val_fraction, task=cfg.data.task
    )
    check_leakage(train_items, heldout_paths(cfg.data.heldout or []))
    # ``train`` repeats these two checks for direct callers; here they run before the pipeline loads.
    check_setup(trainer, reward_fns, weights, train_items, val_items)
    check_rewards(
        [NamedReward(n, fn) for n, fn in reward_fns.items()], list(weights.values()), train_items, trainer.resolution
    )
    run_dir, settings, main = Path(trainer.output_dir) / trainer.run_name, run_settings(cfg), _is_main_process()
    lock, created = _claim_run_dir(run_dir)
    with lock:
        try:
            check_run_settings(run_dir, settings)
        except ValueError:
            discard(run_dir, created)
            raise
        if main:  # the records of what this run trains on, kept by rubricloop-eval's leakage check
            write_run_record(
                run_dir,
                "training_data.jsonl",  # read by rubricloop-eval lora=...
                "".join(json.dumps({"id": it.id, "prompt": it.prompt}) + "\n" for it in train_items),
            )
            write_json(run_dir / "run.json", settings)
        # wandb makes its media temp folder when first imported; imported under run_files it would
        # land in <run>/.tmp, which run_files empties at the end, and the next run in this process
        # (a notebook, a sweep) would fail to log its sample images
        import wandb  # noqa: F401

        files = run_files(cfg, run_dir, "train.log", logger=logging.getLogger("training")) if main else None
        with files or contextlib.nullcontext():
            train = recipes.recipe(trainer.algorithm).train
            pipe, family_kwargs = load_base_model(cfg, model)
            history = train(trainer, pipe, reward_fns, weights, train_items, val_items, family_kwargs)
        if main:
            write_run_record(run_dir, "history.json", json.dumps(history, default=float))
    return history


@hydra.main(version_base="1.3", config_path="pkg://conf", config_name="train")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    # Handled here, not in ``main``: an exception leaving this function makes Hydra print its
    # own "Error executing job ..." line first. SystemExit passes through Hydra untouched.
    run_dir = f"{cfg.trainer.output_dir}/{cfg.trainer.run_name}"
    history, status = run_guarded(lambda: run(cfg), run_dir)
    if status is not None:
        return status
    print(closing_line(history, recipes.recipe(cfg.trainer.algorithm).TITLE, run_dir))  # run() built this recipe
    return 0


def closing_line(history: dict[str, list], name: str, run_dir: str) -> str:
    """The last line of a finished run: steps done, the eval rewards (4 significant digits, not the
    float32 values' full repr) at their steps, and where the checkpoints are."""
    rewards = ", ".join(f"{r:.4g}" for r in history["eval_reward"])
    return (
        f"rubricloop-train: {len(history['step'])} {name} steps done; eval reward [{rewards}] "
        f"at steps {history['eval_step']}; checkpoints in {run_dir}/"
    )


def main() -> None:
    """Console script ``rubricloop-train``: bad configs end with one line on stderr, exit 2.
    ``task=prompt_rewriter`` and ``task=instruction_writer`` go to ``training.text.cli`` (trl)."""
    tasks = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("task=")]
    task = tasks[0] if tasks else "image"
    if len(tasks) > 1 or task not in ("image", "prompt_rewriter", "instruction_writer"):
        what = f"given {len(tasks)} times" if len(tasks) > 1 else f"got {task!r}"
        choices = "image, prompt_rewriter, instruction_writer"
        print(f"rubricloop-train: task must be one of {choices}; {what}", file=sys.stderr)
        raise SystemExit(2)
    # another app's debug preset (or any, for the text tasks, which have none): one line, exit 2
    app = "rubricloop-train" if task == "image" else f"rubricloop-train task={task}"
    exit_on_foreign_preset(app, prefix="rubricloop-train: ")
    if task != "image":  # the text policies: conf/train_text.yaml
        from training.text import cli as text_cli

        return text_cli.main()
    sys.argv = [a for a in sys.argv if not a.startswith("task=")]  # conf/task/ is the text tasks' group
    sys.argv = select_trainer(sys.argv)
    console_main(_main, "train")


def select_trainer(argv: list[str]) -> list[str]:
    """``trainer.algorithm=<name>`` also selects that recipe's config group option
    ``trainer=<name>`` (``conf/trainer/<name>.yaml``: its fields, so that ``trainer.nft_beta=...``
    can be set), unless ``trainer=`` is given. A name that is no recipe ends with one line, exit 2.
    Returns the arguments to compose with."""
    names = [a.split("=", 1)[1] for a in argv[1:] if a.startswith("trainer.algorithm=")]
    if not names or any(a.startswith("trainer=") for a in argv[1:]):
        return argv
    if names[-1] not in recipes.names():
        print(
            f"rubricloop-train: trainer.algorithm must be one of {recipes.names()}, got {names[-1]!r}", file=sys.stderr
        )
        raise SystemExit(2)
    return [*argv, f"trainer={names[-1]}"]


if __name__ == "__main__":
    main()
