"""``rubricloop-train task=prompt_rewriter | task=instruction_writer`` (config: ``conf/train_text.yaml``).

``rubricloop-train`` hands every command with ``task=<one of these>`` here (``training.cli.main``);
the recipe is ``training.text.grpo``. As for image training: a bad option ends with one line,
``rubricloop-train: <what is wrong>``, and exit status 2 before any model loads; the run folder
``<trainer.output_dir>/<trainer.run_name>/`` is locked, holds ``run.json`` (the settings a resume
must share), ``train.log``, ``.hydra/``, trl's ``checkpoint-<n>/`` (each a loadable policy),
``final/`` (the trained policy), ``history.json`` and ``wandb_run_id``; an unfinished run continues
only with ``resume=true``, from its newest whole checkpoint; the command of a finished run, run
again, prints ``... already finished ...`` and exits 0.
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from rewards.common.one_line import error_line
from rewards.common.options import bool_problems
from rewards.common.task import task_wrapper
from training.console import RunAlreadyDone, console_main, run_guarded

TASKS = ("prompt_rewriter", "instruction_writer")
RESULT_NEUTRAL = ("output_dir", "run_name", "num_steps", "save_every", "keep_last", "device")
"""Trainer fields a resume may change (where, how long, how often it saves, which device)."""
POLICY_KINDS = {
    "prompt_rewriter": ("lm", "policy=qwen2_5_instruct | tiny_lm"),
    "instruction_writer": ("vlm", "policy=qwen2_5_vl | tiny_vlm"),
}


LOSS_TYPES = ("grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo", "luspo", "vespo")
"""trl 1.16's ``GRPOConfig.loss_type`` values (trl only checks it inside the first loss)."""
SCALE_REWARDS = ("group", "batch", "none")
DTYPES = ("float32", "bfloat16", "float16")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _policy_problems(cfg: DictConfig) -> list[str]:
    """The ``policy.*`` option errors: a policy of the task's kind, a known dtype."""
    problems = []
    task = cfg.task_name
    kind, fix = POLICY_KINDS[task]
    if cfg.policy.get("kind") != kind:
        got = cfg.policy.get("kind")
        problems.append(f"task={task} needs a {kind.upper()} policy ({fix}), got policy.kind={got!r}")
    if cfg.policy.get("torch_dtype") not in DTYPES:
        problems.append(f"policy.torch_dtype must be one of {', '.join(DTYPES)}, got {cfg.policy.get('torch_dtype')!r}")
    return problems


def _trainer_problems(t: DictConfig) -> list[str]:
    """The ``trainer.*`` option errors: counts, rates, trl's choices, the device and run name."""
    problems = []
    positive = ("num_steps", "prompts_per_step", "max_completion_length", "lora_rank", "save_every", "keep_last")
    for key in positive:
        if not _is_int(t[key]) or t[key] < 1:
            problems.append(f"trainer.{key} must be an integer >= 1, got {t[key]!r}")
    for key in ("eval_samples", "warmup_steps", "seed"):
        if not _is_int(t[key]) or t[key] < 0:
            problems.append(f"trainer.{key} must be an integer >= 0, got {t[key]!r}")
    if not _is_int(t.num_generations) or t.num_generations < 2:
        problems.append(f"trainer.num_generations must be an integer >= 2 (a group), got {t.num_generations!r}")
    for key in ("lr", "temperature", "lora_alpha", "max_grad_norm", "clip_range"):
        if not _is_number(t[key]) or t[key] <= 0:
            problems.append(f"trainer.{key} must be a finite number > 0, got {t[key]!r}")
    for key in ("beta", "weight_decay"):
        if not _is_number(t[key]) or t[key] < 0:
            problems.append(f"trainer.{key} must be a finite number >= 0, got {t[key]!r}")
    from transformers.trainer_utils import SchedulerType

    schedulers = [s.value for s in SchedulerType]
    if t.lr_scheduler not in schedulers:
        problems.append(f"trainer.lr_scheduler must be one of {', '.join(schedulers)}, got {t.lr_scheduler!r}")
    if t.loss_type not in LOSS_TYPES:
        problems.append(f"trainer.loss_type must be one of {', '.join(LOSS_TYPES)}, got {t.loss_type!r}")
    if t.scale_rewards not in SCALE_REWARDS:
        problems.append(f"trainer.scale_rewards must be one of {', '.join(SCALE_REWARDS)}, got {t.scale_rewards!r}")
    problems += bool_problems({"gradient_checkpointing": t.gradient_checkpointing}, prefix="trainer.")
    if str(t.bf16) not in ("auto", "false", "False"):
        problems.append(f"trainer.bf16 must be auto or false, got {t.bf16!r}")
    lora_modules = t.lora_target_modules
    if not lora_modules or any(not isinstance(m, str) or not m for m in lora_modules):
        problems.append(f"trainer.lora_target_modules must be a list of module names, got {lora_modules!r}")
    device = str(t.device)
    if device not in ("auto", "cpu") and not device.startswith("cuda"):
        problems.append(f"trainer.device must be auto, cpu or cuda[:n], got {t.device!r}")
    elif device.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            problems.append(f"trainer.device={device} but no CUDA device is available; use trainer.device=cpu or auto")
    run_name = str(t.run_name)
    if not run_name or "/" in run_name or "\\" in run_name or run_name in (".", ".."):
        problems.append(f"trainer.run_name must be a folder name (no /), got {t.run_name!r}")
    return problems


def _data_problems(cfg: DictConfig) -> list[str]:
    """The ``data.*`` option errors: item count, held-out fraction, seed, held-out files."""
    problems = []
    if not _is_int(cfg.data.n) or cfg.data.n < 2:
        problems.append(f"data.n must be an integer >= 2, got {cfg.data.n!r}")
    if not _is_number(cfg.data.val_fraction) or not 0.0 < cfg.data.val_fraction < 1.0:
        problems.append(f"data.val_fraction must be a number in (0, 1), got {cfg.data.val_fraction!r}")
    if not _is_int(cfg.data.seed):
        problems.append(f"data.seed must be an integer, got {cfg.data.seed!r}")
    from training.run_dir import BUNDLED_HELDOUT

    for entry in cfg.data.heldout or []:
        if str(entry) != BUNDLED_HELDOUT and not Path(str(entry)).is_file():
            problems.append(f"data.heldout: {entry} is not a file (a held-out benchmark JSONL, or 'bundled')")
    return problems


def _reward_problems(cfg: DictConfig) -> list[str]:
    """The ``reward.*``, ``guards.*`` and ``wandb.mode`` option errors."""
    problems = []
    if cfg.reward.kind not in ("rubric", "quote_coverage"):
        problems.append(f"reward.kind must be rubric or quote_coverage, got {cfg.reward.kind!r}")
    elif cfg.reward.kind == "quote_coverage" and cfg.task_name != "prompt_rewriter":
        problems.append(
            "reward.kind=quote_coverage scores prompt rewrites; task=instruction_writer needs reward.kind=rubric"
        )
    from rewards.reward_fns import RUBRIC_SCORES

    if cfg.reward.score not in RUBRIC_SCORES:
        problems.append(f"reward.score must be one of {', '.join(RUBRIC_SCORES)}, got {cfg.reward.score!r}")
    if not _is_int(cfg.reward.seed):
        problems.append(f"reward.seed must be an integer, got {cfg.reward.seed!r}")
    if not _is_int(cfg.reward.target_chars) or cfg.reward.target_chars < 1:
        problems.append(f"reward.target_chars must be an integer >= 1, got {cfg.reward.target_chars!r}")
    if not _is_number(cfg.reward.length_weight) or not 0 <= cfg.reward.length_weight <= 1:
        problems.append(f"reward.length_weight must be a number in [0, 1], got {cfg.reward.length_weight!r}")
    cap = cfg.guards.max_chars
    if cap is not None and (not _is_int(cap) or cap < 1):
        problems.append(f"guards.max_chars must be an integer >= 1 or null, got {cap!r}")
    problems += bool_problems({"keep_quoted": cfg.guards.keep_quoted}, prefix="guards.")
    from rewards.common.wandb_mode import MODES

    if cfg.wandb.mode not in MODES:
        problems.append(f"wandb.mode must be one of {', '.join(MODES)}, got {cfg.wandb.mode!r}")
    return problems


def _trl_problems(t: DictConfig) -> list[str]:
    """trl's own checks of its config (``GRPOConfig``), on values that passed ours."""
    from training.text.grpo import trl_args

    device = str(t.device)
    try:
        trl_args(t, Path(str(t.output_dir)) / str(t.run_name), "cpu" if device == "auto" else device, [])
    except (ValueError, TypeError) as e:
        return [f"trainer: trl refuses the settings ({error_line(e)})"]
    return []


def option_problems(cfg: DictConfig) -> list[str]:
    """Every option error of ``cfg``, one phrase each, naming the option (empty: fine). Checked
    before any file is written or model loaded; trl's own ``GRPOConfig`` checks run last
    (:func:`training.text.grpo.trl_args` on the checked values)."""
    problems = [*_policy_problems(cfg), *_trainer_problems(cfg.trainer), *_data_problems(cfg), *_reward_problems(cfg)]
    if not problems:
        problems = _trl_problems(cfg.trainer)
    return problems


def run_settings(cfg: DictConfig) -> dict:
    """What the run's result depends on (``<run>/run.json``): the task, policy, reward, guards,
    data, the trainer fields but ``RESULT_NEUTRAL``, and the generator, judge and editor the
    reward uses."""
    c = OmegaConf.to_container(cfg, resolve=True)
    settings = {
        "task": c["task_name"],
        "policy": c["policy"],
        "reward": c["reward"],
        "guards": c["guards"],
        "data": c["data"],
        "trainer": {k: v for k, v in c["trainer"].items() if k not in RESULT_NEUTRAL},
        "judge": c["judge"],
    }
    if c["reward"]["kind"] == "rubric":
        settings["generator"] = c["generator"]
        if c["task_name"] == "instruction_writer":
            settings["editor"] = c["editor"]
    return json.loads(json.dumps(settings))


def finished(run_dir: Path, num_steps: int) -> dict | None:
    """The history of the run in ``run_dir`` when it finished ``num_steps`` steps (``final/`` holds
    the policy and ``history.json`` says so), else None."""
    from rewards.models.text_policy import POLICY_FILE

    try:
        history = json.loads((run_dir / "history.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        from training.console import say_unreadable_history

        say_unreadable_history(run_dir / "history.json", e)  # not silently rebuilt
        return None
    done = isinstance(history, dict) and history.get("num_steps") == num_steps and "eval_after" in history
    return history if done and (run_dir / "final" / POLICY_FILE).is_file() else None


def build_reward(cfg: DictConfig, train_items, val_items, heldout):
    """The scorer and its ``TrlReward``, the dataset rows (train, held out), and items by id.

    Raises:
        ValueError: the instruction writer with an editor that ignores instructions (one line).
    """
    from training.text.data import rewriter_rows, writer_rows
    from training.text.rewards import InstructionScorer, QuoteCoverage, RewriteScorer, item_seed, start_state
    from training.text.trl_reward import TrlReward

    items = {it.id: it for it in [*train_items, *val_items]}
    r = cfg.reward
    if cfg.task_name == "prompt_rewriter":
        if r.kind == "quote_coverage":
            scorer = QuoteCoverage(int(r.target_chars), float(r.length_weight))
        else:
            scorer = RewriteScorer(
                instantiate(cfg.generator),
                instantiate(cfg.judge),
                r.score,
                cfg.guards.max_chars,
                bool(cfg.guards.keep_quoted),
                heldout,
                int(r.seed),
            )
        return TrlReward(scorer, items), rewriter_rows(train_items), rewriter_rows(val_items), items

    from refine.interfaces import StructuredEditor
    from rewards.common.images import open_image
    from rewards.reward_fns import RubricReward

    editor = instantiate(cfg.editor)
    if isinstance(editor, StructuredEditor):
        raise ValueError(
            f"editor {editor.name!r} acts on the failed checks and ignores instructions, so no instruction "
            "could earn a reward; the instruction writer needs an instruction-following editor "
            "(editor=flux_kontext | qwen_image_edit | instruct_pix2pix, or their tiny_ twins)"
        )
    generator, judge = instantiate(cfg.generator), instantiate(cfg.judge)
    rubric = RubricReward(judge, r.score)
    starts = {}
    for it in items.values():
        image = open_image(it.image) if it.image else generator.generate(it.prompt, item_seed(int(r.seed), it.id))
        starts[it.id] = start_state(it, image.convert("RGB"), rubric)
    scorer = InstructionScorer(editor, judge, starts, r.score, int(r.seed))
    train_rows, val_rows = writer_rows(train_items, starts), writer_rows(val_items, starts)
    if not train_rows or not val_rows:
        raise ValueError(
            f"no item fails a check on its start image ({len(train_rows)} training, {len(val_rows)} held out "
            "with a failed check): the instruction writer has nothing to fix; check the judge or the start images"
        )
    return TrlReward(scorer, items), train_rows, val_rows, items


def init_wandb(cfg: DictConfig, run_dir: Path, resuming: bool) -> list[str]:
    """Start the W&B run trl's callback will log into (``report_to=["wandb"]``), or return ``[]``
    (W&B off). A resume continues the run whose id ``<run>/wandb_run_id`` holds."""
    from rewards.common.secrets import redact
    from rewards.common.wandb_mode import resolve_wandb_mode
    from training.run_dir import WANDB_ID_FILE, new_run_id, stored_run_id, write_run_record

    mode = resolve_wandb_mode(cfg.wandb.mode)
    if mode is None:
        return []
    import wandb

    run_id = stored_run_id(run_dir) if resuming else None
    if run_id is None:
        run_id = new_run_id()
        write_run_record(run_dir, WANDB_ID_FILE, run_id + "\n")
    try:
        wandb.init(
            project=cfg.wandb.project,
            name=cfg.trainer.run_name,
            id=run_id,
            resume="allow",
            mode=mode,
            dir=str(run_dir),
            config=OmegaConf.to_container(cfg, resolve=True),
        )
    except Exception as e:  # W&B's own errors are many lines deep
        reason = redact(error_line(e))
        raise ValueError(
            f"W&B could not start in {mode} mode ({reason}); use wandb.mode=offline or wandb.mode=disabled"
        ) from None
    return ["wandb"]


def check_enough(n: int, per_step: int) -> None:
    """Refuse ``n`` training items for ``per_step`` prompts per step: trl would train no step.

    Raises:
        ValueError: one line, when ``n < per_step``.
    """
    if n < per_step:
        raise ValueError(
            f"{n} training item(s) to learn from, fewer than trainer.prompts_per_step={per_step}: trl "
            "would train no step; lower trainer.prompts_per_step or give more items (data.n, data.file)"
        )


def _refuse_finished(cfg: DictConfig, run_dir: Path, history: dict | None, settings: dict, refusal) -> None:
    """Step 1b: a finished run (``history`` not None) with these settings raises ``RunAlreadyDone``;
    with other settings, ``ValueError``; an unfinished or new run passes."""
    from rewards.common.run_folder import check_settings
    from training.text.grpo import fmt

    if history is None:
        return
    check_settings(run_dir / "run.json", settings, refusal, new_run="use another trainer.run_name")
    raise RunAlreadyDone(
        f"{run_dir} already finished its {cfg.trainer.num_steps} steps (held-out reward "
        f"{fmt(history['eval_before']['reward'])} -> {fmt(history['eval_after']['reward'])} greedy); "
        "nothing to do: "
        f"policy in {run_dir / 'final'}/, history in {run_dir / 'history.json'}"
    )


def _data_and_reward(cfg: DictConfig):
    """Step 2: the items (checked for leaks into the held-out benchmarks), the reward and the rows.

    Returns:
        ``(train_items, reward, train_rows, val_rows, items)``.
    """
    from rewards.leakage import check_leakage, load_heldout
    from training.run_dir import heldout_paths
    from training.text.data import load_text_items

    train_items, val_items = load_text_items(
        cfg.data.file, int(cfg.data.n), int(cfg.data.seed), float(cfg.data.val_fraction)
    )
    paths = heldout_paths(cfg.data.heldout or [])
    check_leakage([*train_items, *val_items], paths)
    heldout = load_heldout(paths)
    per_step = int(cfg.trainer.prompts_per_step)
    check_enough(len(train_items), per_step)  # before any model loads
    reward, train_rows, val_rows, items = build_reward(cfg, train_items, val_items, heldout)
    check_enough(len(train_rows), per_step)  # the writer's rows: only the items that fail a check
    return train_items, reward, train_rows, val_rows, items


def _check_unfinished(cfg: DictConfig, run_dir: Path, whole: list[Path], has_checkpoints: bool, settings, refusal):
    """Step 3 (the run folder claimed): an unfinished run (``has_checkpoints``; ``whole``: its whole
    checkpoints, oldest first) continues only with ``resume=true``, the same settings and no
    checkpoint past ``trainer.num_steps``.

    Raises:
        ValueError: one line, when it may not continue.
    """
    from rewards.common.run_folder import check_settings

    if has_checkpoints:
        check_settings(run_dir / "run.json", settings, refusal, new_run="use another trainer.run_name")
    if has_checkpoints and not cfg.resume:
        raise ValueError(
            f"{run_dir} holds an unfinished run; continue it with resume=true, or use a new trainer.run_name"
        )
    newest = int(whole[-1].name.removeprefix("checkpoint-")) if whole else 0
    if newest > cfg.trainer.num_steps:
        raise ValueError(
            f"{run_dir} holds {whole[-1].name}, past trainer.num_steps={cfg.trainer.num_steps}; "
            f"raise trainer.num_steps to at least {newest}, or use a new trainer.run_name"
        )


def run(cfg: DictConfig) -> dict:
    """Check, build and train (module docstring). Returns the history.

    Raises:
        RunAlreadyDone: this run is finished; nothing was done.
        ValueError: an option error, a leak, a bad data file, a busy or unwritable run folder, a
            resume with other settings; one line each, before any file is written.
    """
    from rewards.common.run_folder import discard, run_files, write_json
    from training.run_dir import claim_run_dir, differing_keys, write_run_record
    from training.text.grpo import torn_checkpoints, train_text_policy, whole_checkpoints

    # 1. the options, and a run already finished
    problems = option_problems(cfg)
    if problems:
        raise ValueError("bad option: " + "; ".join(problems))
    run_dir = Path(cfg.trainer.output_dir) / cfg.trainer.run_name
    history = finished(run_dir, cfg.trainer.num_steps)
    settings = run_settings(cfg)

    def refusal(before: dict) -> str:
        return (
            f"{run_dir} holds a run made with another {', '.join(differing_keys(before, settings))} "
            f"(see {run_dir / 'run.json'}); use those settings to resume, or a new trainer.run_name"
        )

    _refuse_finished(cfg, run_dir, history, settings, refusal)
    # 2. the data and the reward
    train_items, reward, train_rows, val_rows, items = _data_and_reward(cfg)

    # wandb (which trl imports even with W&B off) makes its media temp folder when first imported;
    # imported under run_files it would land in <run>/.tmp, which run_files empties at the end, and
    # the next run in this process would lose its tables
    import wandb  # noqa: F401

    # 3. the run folder, 4. train
    lock, created = claim_run_dir(run_dir)
    with lock:
        whole = whole_checkpoints(run_dir)
        has_checkpoints = bool(whole or torn_checkpoints(run_dir))
        try:
            _check_unfinished(cfg, run_dir, whole, has_checkpoints, settings, refusal)
            report_to = init_wandb(cfg, run_dir, resuming=bool(cfg.resume and has_checkpoints))
        except ValueError:
            discard(run_dir, created)
            raise
        write_run_record(
            run_dir,
            "training_data.jsonl",
            "".join(json.dumps({"id": it.id, "prompt": it.prompt}) + "\n" for it in train_items),
        )
        write_json(run_dir / "run.json", settings)
        with run_files(cfg, run_dir, "train.log", logger=logging.getLogger("training")):
            history = train_text_policy(cfg, run_dir, train_rows, val_rows, items, reward, bool(cfg.resume), report_to)
        write_run_record(run_dir, "history.json", json.dumps(history, default=str))
    return history


@hydra.main(version_base="1.3", config_path="pkg://conf", config_name="train_text")
@task_wrapper
def _main(cfg: DictConfig) -> int:
    from training.text.grpo import fmt

    run_dir = f"{cfg.trainer.output_dir}/{cfg.trainer.run_name}"
    history, status = run_guarded(lambda: run(cfg), run_dir)
    if status is not None:
        return status
    steps = history["step_seconds"]
    speed = f", {sum(steps) / len(steps):.2f} s/step, peak {history['peak_rss_mib']:.0f} MiB" if steps else ""
    before, after = history["eval_before"], history["eval_after"]

    sampled = ""
    if after["samples"]:
        sampled = f", {fmt(before['sampled_reward'])} -> {fmt(after['sampled_reward'])} sampled"
    print(
        f"rubricloop-train: {cfg.task_name} trained to step {cfg.trainer.num_steps} "
        f"({history['steps_this_run']} steps this run{speed}); held-out reward {fmt(before['reward'])} -> "
        f"{fmt(after['reward'])} greedy{sampled} ({after['n']} items); policy in {run_dir}/final/"
    )
    return 0


def main() -> None:
    """``rubricloop-train task=...``: bad configs end with one line on stderr, exit 2."""
    console_main(_main, "train_text")
