"""``rubricloop-train``: Hydra entry point of the GRPO trainer (config: ``conf/train.yaml``).

    rubricloop-train model=tiny_sd3 trainer.num_steps=2
    accelerate launch --config_file conf/accelerate/ddp.yaml -m training.cli model=sd35_medium

A bad config (group size 1, unknown model preset or trainer field, a reward returning the wrong
length or NaN, a training prompt leaking a held-out benchmark item) ends with one line on
stderr, ``rubricloop-train: <what is wrong>``, and exit status 2, before the pipeline is built
(``HYDRA_FULL_ERROR=1`` shows the traceback instead).
"""

from __future__ import annotations

import importlib.resources
import json
import os
import sys
from pathlib import Path

import hydra
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from rewards.common.one_line import error_line
from rewards.common.task import run_console_script, task_wrapper
from training.config import check_setup, config_from_fields  # importing it stores the trainer defaults for Hydra

BUNDLED_HELDOUT = "bundled"
"""``data.heldout`` entry naming the BizGenEval rows shipped in the package (``bundled_heldout``)."""


def bundled_heldout() -> Path:
    """The BizGenEval text items bundled with the package: ``refine/example/bizgeneval_text.jsonl``."""
    return Path(str(importlib.resources.files("refine.example") / "bizgeneval_text.jsonl"))


def heldout_paths(entries) -> list[Path]:
    """``data.heldout`` entries as files: ``"bundled"`` -> ``bundled_heldout()``, others are paths."""
    return [bundled_heldout() if str(e) == BUNDLED_HELDOUT else Path(str(e)) for e in entries]


def run(cfg: DictConfig) -> dict:
    """Build data, rewards and the pipeline from ``cfg`` and train. Returns ``train``'s history.

    Order: trainer fields -> rewards -> data -> leakage guard -> config and reward checks ->
    pipeline -> ``train``; everything that can be wrong in a config fails before the (large)
    pipeline is loaded.

    Raises:
        ValueError: an unknown or mistyped trainer field (``config_from_fields``), a bad config
            or reward (``check_setup``, ``check_rewards``), a leak
            (``rewards.leakage.LeakageError``), a bad held-out file (``rewards.rubric.RubricError``);
            one line each.
        hydra.errors.InstantiationException: a reward or pipeline ``_target_`` fails to build.
    """
    # Imported here so that composition errors (see ``main``) come back without loading torch.
    from rewards.leakage import check_leakage
    from training.checkpoint import write_run_record
    from training.data import make_dataset
    from training.grpo import train
    from training.scoring import NamedReward, check_rewards

    trainer = config_from_fields(OmegaConf.to_container(cfg.trainer, resolve=True))
    reward_fns = {name: instantiate(spec.fn) for name, spec in cfg.rewards.items()}
    weights = {name: spec.weight for name, spec in cfg.rewards.items()}
    bad = [
        f"rewards.{n}.weight must be a number, got {w!r}"
        for n, w in weights.items()
        if not isinstance(w, (int, float)) or isinstance(w, bool)
    ]
    if bad:
        raise ValueError("; ".join(bad))
    weights = {name: float(w) for name, w in weights.items()}
    train_items, val_items = make_dataset(cfg.data.n, cfg.data.seed, val_fraction=cfg.data.val_fraction)
    check_leakage(train_items, heldout_paths(cfg.data.heldout or []))
    write_run_record(
        Path(trainer.output_dir) / trainer.run_name,
        "training_data.jsonl",  # read by rubricloop-eval lora=...
        "".join(json.dumps({"id": it.id, "prompt": it.prompt}) + "\n" for it in train_items),
    )
    # ``train`` repeats these two checks for direct callers; here they run before the pipeline loads.
    check_setup(trainer, reward_fns, weights, train_items, val_items)
    check_rewards(
        [NamedReward(n, fn) for n, fn in reward_fns.items()], list(weights.values()), train_items, trainer.resolution
    )
    pipe = instantiate(cfg.model.pipeline)
    family_kwargs = OmegaConf.to_container(cfg.model.family_kwargs, resolve=True)
    return train(trainer, pipe, reward_fns, weights, train_items, val_items, family_kwargs)


_show_traceback = False
"""Set by ``main``: the user ran with HYDRA_FULL_ERROR=1 and gets tracebacks, not one line."""


def fail(err: Exception) -> int:
    """Print ``rubricloop-train: <one line>`` on stderr and return the exit status 2 (re-raise
    under ``_show_traceback``)."""
    if _show_traceback:
        raise err
    print(f"rubricloop-train: {error_line(err)}", file=sys.stderr)
    return 2


@hydra.main(version_base="1.3", config_path="pkg://conf", config_name="train")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    # Handled here, not in ``main``: an exception leaving this function makes Hydra print its
    # own "Error executing job ..." line first. SystemExit passes through Hydra untouched.
    run_dir = f"{cfg.trainer.output_dir}/{cfg.trainer.run_name}"
    try:
        history = run(cfg)
        from training.checkpoint import write_run_record

        write_run_record(run_dir, "history.json", json.dumps(history, default=float))
    except (ValueError, HydraException) as e:
        return fail(e)
    except KeyboardInterrupt:
        print(
            f"rubricloop-train: interrupted; checkpoints so far are in {run_dir}/ (continue with resume=true)",
            file=sys.stderr,
        )
        return 130
    print(
        f"rubricloop-train: {len(history['step'])} GRPO steps done; eval reward {history['eval_reward']} "
        f"at steps {history['eval_step']}; checkpoints in {run_dir}/"
    )
    return 0


def main() -> None:
    """Console script ``rubricloop-train``: bad configs end with one line on stderr, exit 2."""
    global _show_traceback
    # Hydra catches composition errors (unknown preset or key), prints a multi-line report and
    # exits 1, unless HYDRA_FULL_ERROR=1: then they reach the except below.
    _show_traceback = os.environ.get("HYDRA_FULL_ERROR") == "1"
    os.environ["HYDRA_FULL_ERROR"] = "1"
    try:
        run_console_script(_main)  # no config_name: composition errors get train's own line below
    except HydraException as e:
        raise SystemExit(fail(e)) from None


if __name__ == "__main__":
    main()
