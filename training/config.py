"""The trainer's config: ``GRPOConfig`` (every knob, documented), its checks, and its Hydra entry.

``conf/train.yaml`` takes the trainer's defaults from Hydra's ConfigStore (group ``trainer``,
option ``grpo``, stored when this module is imported) and sets only the fields that follow the
model preset or the top-level options. The entry holds the defaults as a plain mapping, not the
dataclass: a typed node would make OmegaConf convert values (``trainer.run_name=7`` to "7",
``trainer.cfg=1`` to true) and stop at the first bad one with its own message, where
``config_from_fields`` names every bad field in one line.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

from hydra.core.config_store import ConfigStore

from rewards.common.wandb_mode import MODES


@dataclass
class GRPOConfig:
    """Every knob of ``train``. Defaults follow Flow-GRPO's SD3.5 OCR config where one exists.

    Checked against yifan123/flow_grpo (commit 74db6919, ``scripts/train_sd3.py``,
    ``scripts/train_sd3_fast.py``, ``flow_grpo/diffusers_patch/sd3_sde_with_logprob.py``,
    ``flow_grpo/stat_tracking.py``, ``config/grpo.py:general_ocr_sd3``, ``config/base.py``).
    Matching the reference: the SDE step and its log-prob; the KL (``kl_form="flow_grpo"``,
    denominator 2 std_t^2); float64 advantages with constant groups dropped; global std; the
    first int(T * fraction) steps trained; the Flow-GRPO-Fast window drawn per sampling batch
    in ``sde_window_range`` (first half by default); samples permuted each inner epoch; the loss
    of each trained step divided by K * (minibatches accumulated); beta 0.04, clip_range 1e-4,
    adv_clip 5, noise_level 0.7, lr 3e-4, weight_decay 1e-4, LoRA r 32 / alpha 64, T 10 / 40.

    Remaining deviations from the reference:

    * ``group_size`` 8 (reference 24) and ``prompts_per_step`` 4: the reference fills 48 groups
      over 32 GPUs; set them to your hardware.
    * ``ema_decay`` 0 (EMA off). The reference SD3 configs set ``train.ema = True`` with
      ``EMAModuleWrapper(decay=0.9, update_step_interval=8)`` and a warm-up decay
      min((1 + n) / (10 + n), 0.9) (``flow_grpo/ema.py``); ours, when on, is a plain EMA with a
      constant decay after every optimizer step.
    * Dropped groups are not padded back: the reference re-adds random zero-advantage samples
      until the kept count divides ``num_batches_per_epoch`` (fixed tensor shapes); here a last
      partial minibatch runs as it is, and every rank runs as many minibatches
      (``minibatch_plan``).
    * A group is zeroed when its rewards are all equal (max == min), not only when float64
      arithmetic happens to make r - mean exactly 0; for G = 8 and rewards k/n (n <= 10) the
      two agree.
    * ``lr_scheduler``/``lr_warmup_steps``: the reference has a constant LR and no scheduler.
    * Groups are the G consecutive samples of one prompt on one rank (the reference tracker
      groups by prompt text after gathering, its sampler spreading a group over GPUs); the
      gathered rewards still set the global std, and prompts of one step are distinct.
    * The Flow-GRPO-Fast window is drawn per rollout chunk of ``batch_size`` images (whole
      groups) from the rank's rollout generator; the reference draws it per pipeline call
      from Python's ``random``.
    * MixGRPO (``window_schedule="mixgrpo"``, Tencent-Hunyuan/MixGRPO
      ``fastvideo/utils/grpo_states.py``, progressive strategy with overlap): the same windows
      while they fit in [0, T - 2); there the reference keeps sliding, cutting the window at
      T - 2 until it is empty, while ours stops once the window end reaches
      ``sde_window_range[1]`` (default T - 2) and keeps ``sde_window`` steps.
    """

    algorithm: str = "grpo"
    """the recipe: "grpo" (Flow-GRPO, ``training.grpo``), "nft" (DiffusionNFT, ``training.nft``)
    or "awm" (Advantage Weighted Matching, ``training.awm``); every other field is shared, and
    the fields prefixed ``nft_`` / ``awm_`` are read by that recipe only"""
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

    # --- DiffusionNFT (algorithm="nft", training.nft): fields nft_* ---
    nft_beta: float = 1.0
    """DiffusionNFT guidance strength beta (reference ``config.beta``: 1.0 in its base NFT config,
    0.1 in ``sd3_ocr``): v+ = beta v + (1 - beta) v_old, v- = (1 + beta) v_old - beta v; > 0.
    The KL weight is the shared ``beta`` (reference ``train.beta``, 1e-4 there) and the
    advantage clip the shared ``adv_clip`` (reference ``train.adv_clip_max``)"""
    nft_decay_type: int = 1
    """old (sampling) policy decay schedule (reference ``config.decay_type``): after each step's
    updates old = d * old + (1 - d) * current with d = ``training.nft_math.return_decay``(optimizer
    steps so far): 0: d = 0 (old = current); 1: d ramps 0.001 per optimizer step to 0.5 (reference
    default); 2: d = 0 for 75 optimizer steps, then ramps 0.0075 per step to 0.999 (``sd3_ocr``)"""
    nft_adv_mode: str = "all"
    """advantage -> optimality probability r (reference ``train.adv_mode``): "all",
    "positive_only", "negative_only", "one_only" or "binary" (``training.nft_math.optimality_probability``)"""
    nft_drop_constant_groups: bool = False
    """false (reference): every sample trains, a group of equal rewards at advantage 0, r = 0.5
    (it pulls the policy towards the old one); true: drop such groups as GRPO does"""

    # --- Advantage Weighted Matching (algorithm="awm", training.awm): fields awm_* ---
    awm_train_timesteps: int = 6
    """K: training timesteps per update minibatch, shared by its samples, each with fresh noise
    (reference ``train.train_timesteps``); the minibatch runs as one K * batch_size forward pass"""
    awm_timestep_sampler: str = "discrete_wo_init"
    """how the K training timesteps are drawn (reference ``time_type``, ``training.awm_math.draw_train_sigmas``):
    "discrete_wo_init" (strata of the sampling steps 1 .. int(T * timestep_fraction)), "discrete"
    (from step 0), "discrete_with_init" (step 0 + strata), "logit_normal" (stratified, shifted),
    "uniform" (stratified on [0.2, 1], shifted)"""
    awm_time_shift: float = 3.0
    """time shift of the continuous samplers, shift t / (1 + (shift - 1) t) (reference ``time_shift``)"""
    awm_weighting: str = "ghuber"
    """weighting of the per-sample flow-matching error e (``training.awm_math.matching_log_prob``):
    "Uniform" e, "t" e t, "t**2" e t^2, "huber" (sqrt(e + 1e-10) - 1e-5) t, "ghuber" ((e + 1e-10)^p - 1e-10^p) t / p
    (reference ``train.weighting``)"""
    awm_ghuber_power: float = 0.25
    """p of the "ghuber" weighting (reference ``train.ghuber_power``)"""
    awm_loss_type: str = "exp_first"
    """"exp_first": ratio exp(lp - lp_old) per timestep and sample; "sum_first": per sample, of the
    mean over timesteps (reference ``train.loss_type``); clipped at ``clip_range`` (1 in the reference)"""
    awm_advantage_max: float = 1.0
    """> 0: advantages rescaled to A * awm_advantage_max / adv_clip after the clip (reference
    ``train.advantage_max``); 0: only clipped"""
    awm_kl_weighting: str = "Uniform"
    """the KL to the LoRA-disabled base (weight ``beta``): "Uniform" mean (v - v_base)^2 or "ELBO"
    (divided by 2 std_t^2, std_t = 0.7 sqrt(t / (1 - min(t, 0.99)))) (reference ``train.kl_weight``)"""
    awm_ema_beta: float = 1.0
    """weight of the KL to the EMA reference (the LoRA's EMA ``awm_ema_decay``; 0 skips its pass)
    (reference ``train.ema_beta``)"""
    awm_ema_kl_weighting: str = "Uniform"
    """"Uniform" or "ELBO", as ``awm_kl_weighting``, for the EMA reference KL (reference ``train.kl_ema_weight``)"""
    awm_ema_decay: float = 0.3
    """decay of the EMA reference, updated once per AWM step: ref <- d ref + (1 - d) LoRA
    (reference ``train.kl_ema_decay``)"""
    awm_ema_decay_type: str = "linear"
    """"linear": d = min(awm_ema_decay, 0.001 n) after n optimizer steps (the reference's warm-up);
    "constant": d = awm_ema_decay (reference ``train.kl_ema_decay_type``)"""
    awm_sde_sigma_range: list[float] = field(default_factory=lambda: [0.3, 0.9])
    """[lo, hi]: rollout steps whose end sigma lies in it are SDE steps with ``noise_level``, the others
    ODE (the reference SA-Solver's band; its tau = 0.4 is noise_level = sqrt(2) 0.4 = 0.566 here);
    []: every step ODE (reference ``sde_frac = 0`` without SA-Solver)"""
    awm_train_cfg: bool = False
    """the matching loss and KLs on the guided velocity (needs ``cfg``); false: on the conditional
    velocity alone, whatever the sampler uses (reference ``train.cfg = False``)"""
    awm_drop_constant_groups: bool = False
    """drop groups whose rewards are all equal from the update; false (the reference): they stay,
    with advantage 0, and still feel the KL terms"""


ConfigStore.instance().store(group="trainer", name="grpo", node=asdict(GRPOConfig()))


def check_field_types(fields: dict, defaults: GRPOConfig) -> None:
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


def config_from_fields(fields: dict) -> GRPOConfig:
    """The ``GRPOConfig`` of the composed ``trainer`` node (a plain dict, interpolations resolved).

    Raises:
        ValueError: an unknown field, or a field of the wrong type (``check_field_types``); one line.
    """
    unknown = sorted(set(fields) - set(GRPOConfig.__dataclass_fields__))
    if unknown:  # this line is the CLI's (tests/cli/test_train_cli.py); training.grpo imports the class too
        raise ValueError(f"trainer: unknown field(s) {unknown}; training.grpo.GRPOConfig has no such field")
    check_field_types(fields, GRPOConfig())
    return GRPOConfig(**fields)


def _number_problems(cfg: GRPOConfig) -> list[str]:
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
    floats = [f for f, default in asdict(GRPOConfig()).items() if isinstance(default, float)]
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


def _step_problems(cfg: GRPOConfig) -> list[str]:
    """The group, the trained steps and the SDE window."""
    from training.timesteps import window_range

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


ALGORITHMS = ("grpo", "nft", "awm")
"""``trainer.algorithm`` values; each names its recipe module ``training.<algorithm>``."""


def _choice_problems(cfg: GRPOConfig) -> list[str]:
    from training.grpo_math import KL_FORMS

    problems = []
    if cfg.algorithm not in ALGORITHMS:
        problems.append(f"algorithm must be one of {list(ALGORITHMS)}, got {cfg.algorithm!r}")
    if cfg.kl_form not in KL_FORMS:
        problems.append(f"kl_form must be one of {list(KL_FORMS)}, got {cfg.kl_form!r}")
    if cfg.wandb_mode not in MODES:
        problems.append(f"wandb_mode must be 'auto', 'online', 'offline' or 'disabled', got {cfg.wandb_mode!r}")
    if cfg.adv_std not in ("group", "global"):
        problems.append(f"adv_std must be 'group' or 'global', got {cfg.adv_std!r}")
    if cfg.mixed_precision not in ("no", "bf16", "fp16"):
        problems.append(f"mixed_precision must be 'no', 'bf16' or 'fp16', got {cfg.mixed_precision!r}")
    name = str(cfg.run_name)
    if not name or name in (".", "..") or "/" in name or "\\" in name or name.startswith("."):
        # a run folder is one folder inside output_dir: "../../x" wrote outside it
        problems.append(f"run_name must be a plain folder name (no '/', not starting with '.'), got {cfg.run_name!r}")
    return problems


def _nft_problems(cfg: GRPOConfig) -> list[str]:
    """The DiffusionNFT fields, and the shared fields NFT reads differently (``training.nft``)."""
    from training.nft_math import ADV_MODES, DECAY_TYPES

    problems = []
    if not cfg.nft_beta > 0:
        problems.append(f"nft_beta must be > 0 (the NFT loss divides by it), got {cfg.nft_beta}")
    if cfg.nft_decay_type not in DECAY_TYPES:
        problems.append(f"nft_decay_type must be one of {sorted(DECAY_TYPES)}, got {cfg.nft_decay_type!r}")
    if cfg.nft_adv_mode not in ADV_MODES:
        problems.append(f"nft_adv_mode must be one of {list(ADV_MODES)}, got {cfg.nft_adv_mode!r}")
    if not cfg.adv_clip > 0:
        problems.append(f"adv_clip must be > 0 for nft (r = A / adv_clip / 2 + 0.5), got {cfg.adv_clip}")
    if cfg.cfg:
        problems.append(
            "algorithm=nft samples and trains without classifier-free guidance (DiffusionNFT uses guidance "
            "scale 1): set trainer.cfg=false"
        )
    if cfg.sde_window:
        problems.append(f"algorithm=nft samples by the ODE, no SDE window: set sde_window=0, got {cfg.sde_window}")
    return problems


def _awm_problems(cfg: GRPOConfig) -> list[str]:
    """The Advantage Weighted Matching fields, and the shared fields AWM reads differently (``training.awm``)."""
    from training.awm_math import EMA_DECAY_TYPES, KL_WEIGHTINGS, LOSS_TYPES, TIMESTEP_SAMPLERS, WEIGHTINGS

    problems = []
    for name, allowed in (
        ("awm_timestep_sampler", TIMESTEP_SAMPLERS),
        ("awm_weighting", WEIGHTINGS),
        ("awm_loss_type", LOSS_TYPES),
        ("awm_kl_weighting", KL_WEIGHTINGS),
        ("awm_ema_kl_weighting", KL_WEIGHTINGS),
        ("awm_ema_decay_type", EMA_DECAY_TYPES),
    ):
        if getattr(cfg, name) not in allowed:
            problems.append(f"{name} must be one of {list(allowed)}, got {getattr(cfg, name)!r}")
    if cfg.awm_train_timesteps < 1:
        problems.append(f"awm_train_timesteps must be >= 1, got {cfg.awm_train_timesteps}")
    if not 0 <= cfg.awm_ema_decay <= 1:
        problems.append(f"awm_ema_decay must be in [0, 1], got {cfg.awm_ema_decay}")
    if cfg.awm_ema_beta < 0 or cfg.beta < 0:
        problems.append(f"awm_ema_beta and beta must be >= 0, got {cfg.awm_ema_beta} and {cfg.beta}")
    if not cfg.awm_ghuber_power > 0 or not cfg.awm_time_shift > 0:
        problems.append(
            f"awm_ghuber_power and awm_time_shift must be > 0, got {cfg.awm_ghuber_power} and {cfg.awm_time_shift}"
        )
    band = cfg.awm_sde_sigma_range
    if band and (len(band) != 2 or not all(isinstance(v, (int, float)) for v in band) or band[0] > band[1]):
        problems.append(f"awm_sde_sigma_range must be [] or [lo, hi] with lo <= hi, got {band}")
    elif band and not cfg.noise_level > 0:
        problems.append(f"awm_sde_sigma_range {band} has SDE steps: noise_level must be > 0, got {cfg.noise_level}")
    if cfg.num_inner_epochs != 1:
        problems.append(
            f"algorithm=awm makes one pass per step: num_inner_epochs must be 1, got {cfg.num_inner_epochs}"
        )
    if cfg.awm_train_cfg and not cfg.cfg:
        problems.append("awm_train_cfg=true trains on the guided velocity: it needs cfg=true")
    if cfg.sde_window:
        problems.append(f"algorithm=awm picks SDE steps by awm_sde_sigma_range: set sde_window=0, got {cfg.sde_window}")
    return problems


def check_setup(
    cfg: GRPOConfig, reward_fns: dict, weights: dict, train_items: Sequence, val_items: Sequence | None = None
) -> None:
    """Fail at start, with one line, on a config the loop cannot run (``val_items`` is checked
    when given). Raises ValueError naming every problem, in a fixed order.

    The torch-side helpers (``window_range``, ``KL_FORMS``, ``list_checkpoints``) are imported
    inside the checks: ``training.cli`` imports this module before Hydra composes, and a
    composition error should come back without loading torch.
    """
    from training.checkpoint import list_checkpoints

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
    if cfg.algorithm == "nft":
        problems += _nft_problems(cfg)
    if cfg.algorithm == "awm":
        problems += _awm_problems(cfg)
    if cfg.batch_size >= 1 and (cfg.prompts_per_step * cfg.group_size) % cfg.batch_size:
        problems.append(
            f"prompts_per_step * group_size = {cfg.prompts_per_step * cfg.group_size} "
            f"must be divisible by batch_size={cfg.batch_size}"
        )
    if cfg.log_images_every < 0:
        problems.append(f"log_images_every must be >= 0 (0: once per epoch), got {cfg.log_images_every}")
    if not reward_fns:
        problems.append("no reward function configured")
    if set(reward_fns) != set(weights):
        problems.append(f"reward weights {sorted(weights)} do not match reward functions {sorted(reward_fns)}")
    if len(train_items) < cfg.prompts_per_step:
        problems.append(f"{len(train_items)} training prompts < prompts_per_step={cfg.prompts_per_step}")
    if problems:
        raise ValueError("bad trainer config: " + "; ".join(problems))
