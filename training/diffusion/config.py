"""The trainer's shared config: ``TrainerConfig`` (the knobs every image recipe shares, documented),
and the shared checks.

Each recipe (``training.recipes.<name>``) has its own ``CONFIG``, a subclass with its fields and
checks, and its own ``conf/trainer/<name>.yaml`` (``defaults: [shared]`` + its fields):
``conf/trainer/shared.yaml`` holds these defaults (tests/training/recipes/test_recipes.py checks each
yaml against its dataclass). ``training.recipes.config_from_fields`` builds the recipe's config
from the composed node as a plain mapping, not a typed node: a typed node would make OmegaConf convert values
(``trainer.run_name=7`` to "7", ``trainer.cfg=1`` to true) and stop at the first bad one with its
own message, where ``config_from_fields`` names every bad field in one line.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

from rewards.common.wandb_mode import MODES
from training.diffusion.monitors import SIGNALS, bound_problems


@dataclass
class TrainerConfig:
    """The knobs every image recipe shares; each recipe's ``CONFIG`` (``training.recipes``) extends
    it with its own fields and checks. Defaults follow Flow-GRPO's SD3.5 OCR config where one
    exists; the deviations from each reference are in the recipe's config docstring
    (``training.recipes.grpo.GRPOConfig`` for these shared fields).
    """

    algorithm: str = ""
    """the recipe, ``training.recipes.<algorithm>`` (``training.recipes.names()``: "grpo" Flow-GRPO,
    "nft" DiffusionNFT, "awm" Advantage Weighted Matching, ...); each recipe's config sets its own name"""
    base_model: str = ""
    """the base model's id or path, recorded in the saved LoRA's metadata (set by the model preset)"""
    run_name: str = "grpo"
    """checkpoints go to <output_dir>/<run_name>/step_<n>/"""
    output_dir: str = "checkpoints"
    """folder holding one subfolder per run"""
    seed: int = 0
    """seeds python, numpy, torch, the rollout noise and the prompt order"""
    num_steps: int = 1000
    """GRPO steps (sample -> reward -> update)"""
    prompts_per_step: int = 4
    """P: prompts sampled per step on each rank"""
    group_size: int = 8
    """G: images per prompt (>= 2; 24 in Flow-GRPO)"""
    batch_size: int = 8
    """images per rollout chunk and per update minibatch"""
    resolution: int = 512
    """image height and width in pixels"""
    train_sampling_steps: int = 10
    """T: denoising steps of training rollouts (denoising reduction)"""
    eval_sampling_steps: int = 40
    """ODE steps of evaluation samples"""
    noise_level: float = 0.7
    """SDE noise level a"""
    timestep_fraction: float = 0.99
    """sde_window == 0: every step is SDE and the first int(T * fraction) steps are trained
    (reference ``train.timestep_fraction``; 0.99 of T = 10 trains steps 0-8)"""
    sde_window: int = 0
    """> 0: SDE only inside a window of this many steps, ODE outside, only those trained
    (Flow-GRPO-Fast ``sample.sde_window_size``; 3 in its SD3 fast configs)"""
    sde_window_range: list[int] = field(default_factory=list)
    """[lo, hi): the steps a window may cover; [] = [0, T // 2] for "fast" (reference
    ``sde_window_range = (0, num_steps // 2)``), [0, T - 2] for MixGRPO (its ``max_timesteps``)"""
    window_schedule: str = "fast"
    """"fast": a uniform window start in [lo, hi - sde_window] per sampling batch
    (Flow-GRPO-Fast); "mixgrpo": the start slides from lo by window_stride every
    window_shift_every GRPO steps (MixGRPO progressive schedule)"""
    window_shift_every: int = 25
    """MixGRPO shift interval tau, in GRPO steps"""
    window_stride: int = 1
    """MixGRPO stride s, in denoising steps"""
    cfg: bool = True
    """classifier-free guidance (CFG): every rollout and update velocity is the guided
    v_uncond + cfg_scale * (v_cond - v_uncond), the unconditional pass on ``negative_prompt``;
    false for guidance-distilled models (FLUX.1-dev). Set by the rollout preset (``rollout.cfg``)"""
    cfg_scale: float = 4.5
    """CFG scale s"""
    negative_prompt: str = ""
    """the unconditional prompt for CFG"""
    adv_std: str = "global"
    """advantage std over the whole gathered batch ("global", reference ``sample.global_std =
    True``) or over each prompt's group ("group")"""
    reward_aggregation: str = "sum"
    """how several rewards make one advantage (``training.diffusion.reward_aggregation``): "sum"
    (their weighted sum, then group-relative advantages per ``adv_std``) or "gdpo" (each reward
    normalised within its group, then the weighted sum, batch-normalised; Flow-Factory's GDPO)"""
    adv_clip: float = 5.0
    """advantages are clipped to +-adv_clip"""
    clip_range: float = 1e-4
    """PPO ratio clip eps"""
    beta: float = 0.04
    """weight of the KL to the LoRA-disabled reference (0 skips the reference pass)"""
    kl_form: str = "flow_grpo"
    """"flow_grpo": KL denominator 2 std_t^2 as in the reference, so its beta carries over;
    "exact": 2 (std_t sqrt(-dt))^2, the true per-step Gaussian KL (1 / |dt| larger)"""
    num_inner_epochs: int = 1
    """update passes over each step's samples"""
    lr: float = 3e-4
    """AdamW learning rate"""
    lr_scheduler: str = "constant"
    """diffusers.optimization.get_scheduler name"""
    lr_warmup_steps: int = 0
    """LR warm-up, in optimizer steps"""
    weight_decay: float = 1e-4
    """AdamW weight decay"""
    grad_accum: int = 1
    """minibatches per optimizer step (a last, smaller group is averaged over its own count)"""
    max_grad_norm: float = 1.0
    """gradient clipping norm"""
    lora_rank: int = 32
    """LoRA rank r"""
    lora_alpha: int = 64
    """LoRA alpha"""
    lora_target_modules: list[str] = field(default_factory=lambda: ["to_q", "to_k", "to_v", "to_out.0"])
    """transformer modules that get a LoRA"""
    hacking_bounds: dict = field(default_factory=lambda: dict.fromkeys(SIGNALS))
    """signal -> null or [lo, hi]: past its bound the run stops in one line before that step's checkpoint
    (``training.diffusion.monitors``): "dark_fraction", "color_entropy_bits", "edge_density",
    "light_fraction" (the step's rollouts, ``rewards.image_stats``), the same as "eval_<stat>" (each
    evaluation's validation images), "gold" (``eval/<gold_reward>`` at each evaluation)"""
    gold_reward: str = ""
    """the held-out gold judge: a configured reward (give it weight 0 to keep it out of the training
    signal) whose evaluation value the "gold" bound watches; "" for none"""
    ema_decay: float = 0.0
    """> 0: keep an EMA of the LoRA weights, used for evaluation and checkpoints"""
    gradient_checkpointing: bool = False
    """recompute transformer activations in the backward pass"""
    mixed_precision: str = "no"
    """"no", "bf16" or "fp16" autocast (SDE and log-prob math always run in fp32)"""
    log_images_every: int = 0
    """> 0: log a grid of rollout samples every this many steps; 0: once per epoch (one pass over
    the training prompts at prompts_per_step * world prompts per step)"""
    eval_every: int = 10
    """held-out evaluation every this many steps (and at the end)"""
    eval_seed: int = 1234
    """fixed noise seed of evaluation samples"""
    num_eval_prompts: int = 8
    """validation prompts per evaluation"""
    save_every: int = 50
    """checkpoint every this many steps (and at the end)"""
    keep_last: int = 3
    """checkpoints kept"""
    resume: bool = False
    """continue from the run's latest checkpoint"""
    wandb_project: str = "rubricloop"
    """W&B project"""
    wandb_mode: str = "auto"
    """"auto" (online when WANDB_API_KEY is set, else offline into the run folder), "online",
    "offline" or "disabled" (the environment's WANDB_MODE=disabled also turns it off)"""

    def recipe_problems(self) -> list[str]:
        """The recipe's own checks (its fields, and shared fields it reads differently): one
        message per problem, [] when fine. ``check_setup`` adds them after the shared checks."""
        return []

    def backward_passes_per_minibatch(self) -> int:
        """Backward passes the recipe makes per update minibatch (DeepSpeed's
        gradient_accumulation_steps is this times ``grad_accum``): one per trained denoising step
        (``training.diffusion.timesteps.num_trained_steps``) unless the recipe says otherwise."""
        from training.diffusion.timesteps import num_trained_steps

        return num_trained_steps(self.train_sampling_steps, self.sde_window, self.timestep_fraction)


def check_field_types(fields: dict, defaults: TrainerConfig) -> None:
    """Each trainer field must have its default's type (an int is fine where a float is expected).

    Raises:
        ValueError: ``trainer.lr must be float, got 'abc'`` (every bad field, one line).
    """
    bad = []
    for name, value in fields.items():
        default = getattr(defaults, name)
        want = (int, float) if isinstance(default, float) else type(default)
        if not isinstance(value, want) or isinstance(value, bool) and not isinstance(default, bool):
            bad.append(f"trainer.{name} must be {type(default).__name__}, got {value!r}")
    if bad:
        raise ValueError("; ".join(bad))


def _number_problems(cfg: TrainerConfig) -> list[str]:
    counts = (
        "num_steps",
        "prompts_per_step",
        "batch_size",
        "train_sampling_steps",
        "eval_sampling_steps",
        "num_inner_epochs",
        "grad_accum",
        "eval_every",
        "save_every",
        "keep_last",
    )
    problems = [f"{name} must be >= 1, got {getattr(cfg, name)}" for name in counts if getattr(cfg, name) < 1]
    if cfg.num_eval_prompts < 0:
        problems.append(f"num_eval_prompts must be >= 0, got {cfg.num_eval_prompts}")
    floats = [f for f, default in asdict(type(cfg)()).items() if isinstance(default, float)]
    problems += [
        f"{f} must be a finite number, got {getattr(cfg, f)}" for f in floats if not math.isfinite(getattr(cfg, f))
    ]
    for name in ("lr", "max_grad_norm"):
        value = getattr(cfg, name)
        if math.isfinite(value) and value <= 0:
            problems.append(f"{name} must be > 0, got {value}")
    if math.isfinite(cfg.weight_decay) and cfg.weight_decay < 0:
        problems.append(f"weight_decay must be >= 0, got {cfg.weight_decay}")
    return problems


def _step_problems(cfg: TrainerConfig) -> list[str]:
    """The group, the trained steps and the SDE window."""
    from training.diffusion.timesteps import window_range

    problems = []
    if cfg.group_size < 2:
        problems.append(f"group_size must be >= 2 (GRPO compares images of one prompt), got {cfg.group_size}")
    if cfg.sde_window < 0 or cfg.sde_window > cfg.train_sampling_steps:
        problems.append(
            f"sde_window must be in [0, train_sampling_steps={cfg.train_sampling_steps}], got {cfg.sde_window}"
        )
    if not 0 < cfg.timestep_fraction <= 1:
        problems.append(f"timestep_fraction must be in (0, 1], got {cfg.timestep_fraction}")
    elif (
        cfg.sde_window == 0
        and cfg.train_sampling_steps >= 1
        and int(cfg.train_sampling_steps * cfg.timestep_fraction) < 1
    ):
        problems.append(
            f"timestep_fraction={cfg.timestep_fraction} of train_sampling_steps={cfg.train_sampling_steps} "
            "trains no step (int(T * fraction) = 0)"
        )
    if cfg.window_schedule not in ("fast", "mixgrpo"):
        problems.append(f"window_schedule must be 'fast' or 'mixgrpo', got {cfg.window_schedule!r}")
    elif cfg.sde_window > 0:
        if cfg.sde_window_range and (
            len(cfg.sde_window_range) != 2 or not all(isinstance(v, int) for v in cfg.sde_window_range)
        ):
            problems.append(f"sde_window_range must be [] or two integers [lo, hi], got {cfg.sde_window_range}")
        else:
            lo, hi = window_range(cfg.train_sampling_steps, cfg.sde_window_range, cfg.window_schedule)
            if not 0 <= lo <= hi - cfg.sde_window or hi > cfg.train_sampling_steps:
                problems.append(
                    f"the window of sde_window={cfg.sde_window} steps must fit in sde_window_range [{lo}, {hi}) within "
                    f"[0, train_sampling_steps={cfg.train_sampling_steps}]"
                )
    if cfg.window_shift_every < 1 or cfg.window_stride < 0:
        problems.append(
            "window_shift_every must be >= 1 and window_stride >= 0, "
            f"got {cfg.window_shift_every} and {cfg.window_stride}"
        )
    return problems


def _choice_problems(cfg: TrainerConfig) -> list[str]:
    from training.diffusion.grpo_math import KL_FORMS
    from training.diffusion.reward_aggregation import AGGREGATIONS

    problems = []
    if not cfg.algorithm:  # the recipes' configs name themselves (training.recipes.config_from_fields)
        problems.append("algorithm is empty: use a recipe's config (training.recipes), not TrainerConfig itself")
    if cfg.kl_form not in KL_FORMS:
        problems.append(f"kl_form must be one of {list(KL_FORMS)}, got {cfg.kl_form!r}")
    if cfg.wandb_mode not in MODES:
        problems.append(f"wandb_mode must be 'auto', 'online', 'offline' or 'disabled', got {cfg.wandb_mode!r}")
    if cfg.reward_aggregation not in AGGREGATIONS:
        problems.append(f"reward_aggregation must be one of {list(AGGREGATIONS)}, got {cfg.reward_aggregation!r}")
    if cfg.adv_std not in ("group", "global"):
        problems.append(f"adv_std must be 'group' or 'global', got {cfg.adv_std!r}")
    if cfg.mixed_precision not in ("no", "bf16", "fp16"):
        problems.append(f"mixed_precision must be 'no', 'bf16' or 'fp16', got {cfg.mixed_precision!r}")
    name = str(cfg.run_name)
    if not name or name in (".", "..") or "/" in name or "\\" in name or name.startswith("."):
        # a run folder is one folder inside output_dir: "../../x" wrote outside it
        problems.append(f"run_name must be a plain folder name (no '/', not starting with '.'), got {cfg.run_name!r}")
    return problems


def check_setup(
    cfg: TrainerConfig, reward_fns: dict, weights: dict, train_items: Sequence, val_items: Sequence | None = None
) -> None:
    """Fail at start, with one line, on a config the loop cannot run (``val_items`` is checked
    when given). Raises ValueError naming every problem, in a fixed order.

    The torch-side helpers (``window_range``, ``KL_FORMS``, ``list_checkpoints``) are imported
    inside the checks: ``training.cli`` imports this module before Hydra composes, and a
    composition error should come back without loading torch.
    """
    from training.diffusion.checkpoint import list_checkpoints

    problems = _number_problems(cfg)
    checkpoints = list_checkpoints(Path(cfg.output_dir) / cfg.run_name)
    if not cfg.resume and checkpoints:
        problems.append(
            f"{Path(cfg.output_dir) / cfg.run_name} already holds checkpoints: continue it with resume=true, "
            "or start a new run with another trainer.run_name"
        )
    elif cfg.resume and checkpoints and int(checkpoints[-1].name.removeprefix("step_")) > cfg.num_steps:
        problems.append(
            f"num_steps={cfg.num_steps} is below the run's last checkpoint {checkpoints[-1]}: "
            "a resume may add steps, not remove them"
        )
    if val_items is not None and not val_items and cfg.num_eval_prompts > 0:
        problems.append(
            "the validation split is empty (data.n * data.val_fraction rounds to 0): raise data.n or data.val_fraction"
        )
    problems += _step_problems(cfg) + _choice_problems(cfg)
    problems += cfg.recipe_problems()
    if cfg.batch_size >= 1 and (cfg.prompts_per_step * cfg.group_size) % cfg.batch_size:
        problems.append(
            f"prompts_per_step * group_size = {cfg.prompts_per_step * cfg.group_size} "
            f"must be divisible by batch_size={cfg.batch_size}"
        )
    if cfg.log_images_every < 0:
        problems.append(f"log_images_every must be >= 0 (0: once per epoch), got {cfg.log_images_every}")
    if not reward_fns:
        problems.append("no reward function configured")
    problems += bound_problems(cfg.hacking_bounds, cfg.gold_reward, reward_fns)
    if set(reward_fns) != set(weights):
        problems.append(f"reward weights {sorted(weights)} do not match reward functions {sorted(reward_fns)}")
    if len(train_items) < cfg.prompts_per_step:
        problems.append(f"{len(train_items)} training prompts < prompts_per_step={cfg.prompts_per_step}")
    if problems:
        raise ValueError("bad trainer config: " + "; ".join(problems))
