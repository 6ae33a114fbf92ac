"""GRPO for the text policies in front of the image models, with trl's ``GRPOTrainer``.

``rubricloop-train task=prompt_rewriter`` trains an instruct LLM that rewrites document prompts;
``task=instruction_writer`` trains a VLM that writes the edit instruction from the image and its
failed checks (``rewards.models.text_policy``). Both are LoRA fine-tunes (peft) whose reward is a
rubric score (``training.text.rewards``), handed to trl through ``training.text.trl_reward.TrlReward``.
trl does the sampling, the group-relative advantages, the clipped loss, checkpoints, resume and
W&B logging (its completions table and ``rewards/<name>/mean``); this module builds what it
needs and adds a held-out evaluation before and after training.

:func:`train_text_policy`, top to bottom:

1. the policy (base model, LoRA settings) and the items (train / held out);
2. the scorer (guards, generator or editor, judge) and, for the instruction writer, each item's
   start image and failures (built before the run folder by ``training.text.cli.build_reward``);
3. trl's datasets and ``GRPOConfig``;
4. held-out reward of the untrained policy (greedy, and sampled: :func:`evaluate`);
5. ``GRPOTrainer.train``, resumed from the newest whole ``checkpoint-<n>`` when asked;
6. held-out reward of the trained policy; ``<run>/final/`` = the LoRA +
   ``rubricloop_policy.json``; the history.

Memory and speed on the CPU, measured with the tiny models: see the README.
"""

from __future__ import annotations

import json
import logging
import math
import resource
import time
import warnings
from pathlib import Path
from typing import Any, Sequence

import torch
from omegaconf import DictConfig

from rewards.models.text_policy import TASK_KINDS, load_base_policy, policy_meta, write_policy_meta
from rewards.rubric import Item
from training.text.trl_reward import Scored, TrlReward

logger = logging.getLogger(__name__)

FINAL = "final"
"""``<run>/final/``: the trained policy (LoRA + ``rubricloop_policy.json``)."""


# ------------------------------------------------------------------------------ checkpoints
def whole_checkpoints(run_dir: Path) -> list[Path]:
    """trl's ``checkpoint-<n>`` folders in ``run_dir`` whose ``trainer_state.json`` (written last
    by ``transformers.Trainer._save_checkpoint``) reads back, oldest first. A checkpoint killed
    while being written has none and is skipped."""
    found = []
    for path in run_dir.glob("checkpoint-*"):
        step = path.name.removeprefix("checkpoint-")
        try:
            json.loads((path / "trainer_state.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if step.isdigit():
            found.append((int(step), path))
    return [p for _, p in sorted(found)]


def torn_checkpoints(run_dir: Path) -> list[Path]:
    """``checkpoint-<n>`` folders that are not whole (:func:`whole_checkpoints`)."""
    whole = set(whole_checkpoints(run_dir))
    return sorted(p for p in run_dir.glob("checkpoint-*") if p not in whole)


# ------------------------------------------------------------------------------ held-out evaluation
def _model_inputs(processing: Any, rows: Sequence[dict], kind: str):
    """The padded model inputs of ``rows`` with the generation prompt: chat template, then the
    tokenizer (an LM) or the processor with the rows' images (a VLM: image part first)."""
    if kind == "vlm":
        messages = [
            [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": r["prompt"][0]["content"]}]}]
            for r in rows
        ]
        texts = [processing.apply_chat_template(m, tokenize=False, add_generation_prompt=True) for m in messages]
        return processing(text=texts, images=[r["image"] for r in rows], return_tensors="pt", padding=True)
    texts = [processing.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True) for r in rows]
    return processing(texts, return_tensors="pt", padding=True, add_special_tokens=False)


def policy_texts(
    model: Any,
    processing: Any,
    rows: Sequence[dict],
    kind: str,
    max_new_tokens: int,
    samples: int = 0,
    temperature: float = 1.0,
    seed: int = 0,
    batch: int = 8,
) -> list[str]:
    """The policy's completions (decoded, stripped) of each dataset row: ``row["prompt"]`` (chat
    messages) and, for a VLM, ``row["image"]`` (the image goes before the text, as trl's
    ``prepare_multimodal_messages`` and ``refine.writers.local_vlm`` place it).

    ``samples=0``: one greedy completion per row (what the rewriter and the writer do at use).
    ``samples=k``: k sampled completions per row at ``temperature`` (what GRPO optimises), drawn
    with a generator seeded by ``seed`` (the global RNG is left as it was), row-major: rows x k.
    """
    tokenizer = processing.tokenizer if kind == "vlm" else processing
    out: list[str] = []
    was_training = model.training
    model.eval()
    sampling = {"do_sample": True, "temperature": temperature, "num_return_sequences": samples, "top_k": 0}
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            inputs = _model_inputs(processing, chunk, kind)
            inputs = inputs.to(model.device)
            how = sampling if samples else {"do_sample": False}
            with torch.no_grad():
                ids = model.generate(**inputs, max_new_tokens=max_new_tokens, **how)  # (B * max(1, k), L + new)
            new = ids[:, inputs["input_ids"].shape[1] :]
            out += [t.strip() for t in tokenizer.batch_decode(new, skip_special_tokens=True)]
    model.train(was_training)
    return out


def fmt(value: float | None) -> str:
    """A held-out reward for a line: 4 decimals, or "n/a" (None: nothing to average)."""
    return "n/a" if value is None else f"{value:.4f}"


def _mean(values: Sequence[float | None]) -> float | None:
    """The mean of the values that are not None or NaN; None when there are none."""
    kept = [v for v in values if v is not None and not math.isnan(v)]
    return sum(kept) / len(kept) if kept else None


def evaluate(
    model, processing, rows, kind, max_new_tokens, reward: TrlReward, items: dict[str, Item], samples: int, temperature
) -> dict:
    """The held-out evaluation: ``reward`` (mean greedy reward over the rows with one),
    ``sampled_reward`` (mean over ``samples`` sampled completions per row at the training
    temperature, a fixed seed: the expected reward GRPO raises; None when ``samples`` is 0; either
    mean is None when no completion got a reward),
    ``refused`` (share of refused greedy completions), ``n`` (rows) and ``examples`` (the first 3
    greedy ones: item, completion, reward, problem)."""
    chosen = [items[r["item_id"]] for r in rows]
    texts = policy_texts(model, processing, rows, kind, max_new_tokens)
    scored: Scored = reward.scorer(chosen, texts)
    sampled = None
    if samples:
        drawn = policy_texts(model, processing, rows, kind, max_new_tokens, samples, temperature)
        sampled = _mean(reward.scorer([it for it in chosen for _ in range(samples)], drawn).rewards)
    return {
        "reward": _mean(scored.rewards),
        "sampled_reward": sampled,
        "samples": samples,
        "refused": sum(p is not None for p in scored.problems) / max(1, len(rows)),
        "n": len(rows),
        "examples": [
            {"item": it.id, "completion": t, "reward": r, "problem": p}
            for it, t, r, p in list(zip(chosen, texts, scored.rewards, scored.problems))[:3]
        ],
    }


# ------------------------------------------------------------------------------ trl pieces
def trl_args(trainer: DictConfig, run_dir: Path, device: str, report_to: list[str]):
    """trl's ``GRPOConfig`` from ``cfg.trainer`` (names mapped in ``conf/train_text.yaml``)."""
    from trl import GRPOConfig

    # transformers deprecates the name trl still passes and asks for it every step: one line per step otherwise
    warnings.filterwarnings("ignore", message=".*gradient_checkpointing.*", category=FutureWarning)
    on_cuda = device.startswith("cuda")
    return GRPOConfig(
        output_dir=str(run_dir),
        run_name=str(trainer.run_name),
        max_steps=int(trainer.num_steps),
        learning_rate=float(trainer.lr),
        lr_scheduler_type=str(trainer.lr_scheduler),
        warmup_steps=int(trainer.warmup_steps),
        weight_decay=float(trainer.weight_decay),
        max_grad_norm=float(trainer.max_grad_norm),
        num_generations=int(trainer.num_generations),
        per_device_train_batch_size=int(trainer.prompts_per_step) * int(trainer.num_generations),
        gradient_accumulation_steps=1,
        max_completion_length=int(trainer.max_completion_length),
        temperature=float(trainer.temperature),
        beta=float(trainer.beta),
        epsilon=float(trainer.clip_range),
        loss_type=str(trainer.loss_type),
        scale_rewards=str(trainer.scale_rewards),
        seed=int(trainer.seed),
        data_seed=int(trainer.seed),
        logging_steps=1,
        save_strategy="steps",
        save_steps=int(trainer.save_every),
        save_total_limit=int(trainer.keep_last),
        eval_strategy="no",
        report_to=report_to,
        log_completions=bool(report_to),
        num_completions_to_print=0,
        use_cpu=not on_cuda,
        bf16=on_cuda and str(trainer.bf16) != "false" and torch.cuda.is_bf16_supported(),
        fp16=False,
        gradient_checkpointing=bool(trainer.gradient_checkpointing),
        disable_tqdm=False,
        dataloader_num_workers=0,
        remove_unused_columns=False,
    )


def _grpo_trainer_class():
    """trl's ``GRPOTrainer`` with the completions table's ``prompt`` and ``completion`` columns as
    plain text. trl logs them as chat messages; with an image part (the instruction writer) W&B
    cannot type the column and ``wandb.Table`` raises, and as text the table is readable."""
    from trl import GRPOTrainer

    from training.text.trl_reward import completion_text

    class RubricGRPOTrainer(GRPOTrainer):
        def log(self, logs, *args, **kwargs):
            for column in ("prompt", "completion"):
                kept = getattr(self, "_logs", {}).get(column)
                if kept:
                    texts = [completion_text(m) for m in kept]
                    kept.clear()
                    kept.extend(texts)
            return super().log(logs, *args, **kwargs)

    return RubricGRPOTrainer


def peft_config(trainer: DictConfig):
    """peft ``LoraConfig`` from ``trainer.lora_rank``, ``lora_alpha``, ``lora_target_modules``."""
    from peft import LoraConfig

    return LoraConfig(
        r=int(trainer.lora_rank),
        lora_alpha=float(trainer.lora_alpha),
        lora_dropout=0.0,
        target_modules=list(trainer.lora_target_modules),
        task_type="CAUSAL_LM",
    )


def _callbacks(meta: dict, history_steps: list[dict]):
    """A ``TrainerCallback`` that writes ``rubricloop_policy.json`` into every checkpoint (so each
    ``checkpoint-<n>`` loads as a policy) and records s/step and peak memory per step."""
    from transformers import TrainerCallback

    class PolicyCheckpoints(TrainerCallback):
        def __init__(self):
            self.t0 = time.perf_counter()

        def on_step_begin(self, args, state, control, **kwargs):
            self.t0 = time.perf_counter()

        def on_step_end(self, args, state, control, **kwargs):
            history_steps.append(
                {
                    "step": state.global_step,
                    "seconds": time.perf_counter() - self.t0,
                    "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                }
            )

        def on_save(self, args, state, control, **kwargs):
            folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            if folder.is_dir():
                write_policy_meta(folder, meta)

    return [PolicyCheckpoints()]


def _quiet_progress(trainer) -> None:
    """Keep transformers' progress bar but not its printing of every step's log dict (trl logs
    about 30 numbers per step; they go to W&B and ``history.json``)."""
    from transformers.trainer_callback import ProgressCallback

    class ProgressBar(ProgressCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            pass

    if trainer.pop_callback(ProgressCallback) is not None:
        trainer.add_callback(ProgressBar())


# ------------------------------------------------------------------------------ the recipe
def _load_policy(cfg: DictConfig) -> tuple[str, str, object, object, dict]:
    """Step 1: the base policy on its device, with the meta every checkpoint carries.

    Returns:
        ``(kind, device, model, processing, meta)``.
    """
    task, trainer_cfg, policy = cfg.task_name, cfg.trainer, cfg.policy
    kind = TASK_KINDS[task]
    device = str(trainer_cfg.device)
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    model, processing = load_base_policy(kind, policy.model_id, bool(policy.tiny), policy.torch_dtype, device)
    meta = policy_meta(
        task,
        policy.model_id,
        bool(policy.tiny),
        str(policy.torch_dtype),
        int(trainer_cfg.max_completion_length),
        max_chars=cfg.guards.max_chars,
        keep_quoted=bool(cfg.guards.keep_quoted),
    )
    return kind, device, model, processing, meta


def _resume_checkpoint(run_dir: Path, resume: bool) -> str | None:
    """The newest whole checkpoint to continue from (None: start afresh); warns of each torn one."""
    if not resume:
        return None
    whole = whole_checkpoints(run_dir)
    for torn in torn_checkpoints(run_dir):
        logger.warning("skipping %s: not whole (killed while being written)", torn)
    return str(whole[-1]) if whole else None


def _eval_before(run_dir: Path, checkpoint: str | None, run_eval) -> dict:
    """Step 4: the held-out evaluation before training; a resumed run reuses the one in its
    ``history.json``. ``run_eval()`` evaluates the untrained policy."""
    history_file = run_dir / "history.json"
    before = None
    if checkpoint and history_file.is_file():
        before = json.loads(history_file.read_text(encoding="utf-8")).get("eval_before")
    if before is None:
        before = run_eval()
    line = (
        f"held-out reward before training {fmt(before['reward'])} greedy, "
        f"{fmt(before['sampled_reward'])} sampled ({before['n']} items)"
    )
    print(f"rubricloop-train: {line}")
    logger.info(line)
    return before


def _history(cfg: DictConfig, trainer, steps: list[dict], train_s: float, checkpoint, before, after, final) -> dict:
    """The run's history (``train_text_policy``'s return value) from the trainer and the step timings."""
    trained_steps = [s for s in steps if s["step"] > 0]
    return {
        "task": cfg.task_name,
        "num_steps": int(cfg.trainer.num_steps),
        "log_history": trainer.state.log_history,
        "step_seconds": [s["seconds"] for s in trained_steps],
        "peak_rss_mib": max((s["peak_rss_mib"] for s in trained_steps), default=None),
        "train_seconds": train_s,
        "resumed_from": checkpoint,
        "steps_this_run": len(trained_steps),
        "eval_before": before,
        "eval_after": after,
        "final": str(final),
    }


def _wandb_summary(before: dict, after: dict, report_to: list[str]) -> None:
    """Put the before/after held-out rewards in the W&B run's summary and finish the run."""
    if "wandb" not in report_to:
        return
    import wandb

    if wandb.run is not None:
        summary = {
            "eval/greedy_reward_before": before["reward"],
            "eval/greedy_reward": after["reward"],
            "eval/sampled_reward_before": before["sampled_reward"],
            "eval/sampled_reward": after["sampled_reward"],
        }
        wandb.run.summary.update(summary)
        wandb.finish()


def train_text_policy(
    cfg: DictConfig,
    run_dir: Path,
    train_rows: list[dict],
    val_rows: list[dict],
    items: dict[str, Item],
    reward: TrlReward,
    resume: bool,
    report_to: list[str],
) -> dict:
    """Train the ``cfg.task_name`` policy with trl's GRPOTrainer (module docstring, steps 1, 3-6;
    ``training.text.cli`` did step 2: data, scorer, checks, run folder).

    Args:
        cfg: the composed ``conf/train_text.yaml``.
        run_dir: the run folder (trl's ``output_dir``: its ``checkpoint-<n>``; ``final/``).
        train_rows, val_rows: dataset rows (``prompt`` messages, ``item_id``, ``image`` for the
            instruction writer).
        items: every row's item by id.
        reward: the reward function trl calls.
        resume: continue from the newest whole checkpoint.
        report_to: ``["wandb"]`` or ``[]``.

    Returns:
        the history: per-step trl logs (``log_history``), step seconds and peak memory, the
        greedy held-out evaluation before (``eval_before``) and after (``eval_after``).
    """
    from datasets import Dataset

    # 1. the policy
    trainer_cfg = cfg.trainer
    kind, device, model, processing, meta = _load_policy(cfg)
    max_new = int(trainer_cfg.max_completion_length)
    eval_how = (int(trainer_cfg.eval_samples), float(trainer_cfg.temperature))

    # 3. trl's datasets and config
    args = trl_args(trainer_cfg, run_dir, device, report_to)
    steps: list[dict] = []
    trainer = _grpo_trainer_class()(
        model=model,
        reward_funcs=[reward],
        args=args,
        train_dataset=Dataset.from_list(train_rows),
        processing_class=processing,
        peft_config=peft_config(trainer_cfg),
        callbacks=_callbacks(meta, steps),
    )
    _quiet_progress(trainer)

    def held_out() -> dict:
        return evaluate(trainer.model, processing, val_rows, kind, max_new, reward, items, *eval_how)

    # 4. the untrained policy on the held-out rows (LoRA B starts at zero: this is the base model)
    checkpoint = _resume_checkpoint(run_dir, resume)
    before = _eval_before(run_dir, checkpoint, held_out)

    # 5. train
    t0 = time.perf_counter()
    trainer.train(resume_from_checkpoint=checkpoint)
    train_s = time.perf_counter() - t0

    # 6. the trained policy on the held-out rows, saved
    after = held_out()
    final = run_dir / FINAL
    trainer.save_model(str(final))
    write_policy_meta(final, meta)
    logger.info(
        "held-out reward after training %s greedy, %s sampled; policy saved in %s",
        fmt(after["reward"]),
        fmt(after["sampled_reward"]),
        final,
    )
    history = _history(cfg, trainer, steps, train_s, checkpoint, before, after, final)
    _wandb_summary(before, after, report_to)
    return history
