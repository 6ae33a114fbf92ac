"""GRPO trainer options on tiny models built in code: Sana and Qwen-Image rollouts and steps,
the SDE window, the timestep subset, global advantage std, gradient accumulation, EMA with
resume, bf16 autocast and gradient checkpointing. Rewards are programmatic (no judge, no OCR);
every test asserts a value computed independently of the trainer."""

import math
import os
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
import torch
import transformers
from hydra import compose, initialize_config_module
from safetensors.torch import load_file

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from grpo_helpers import TRAIN, VAL, redness, tiny_trainer  # noqa: E402

from rewards.models.tiny_pipelines import tiny_sd3_pipeline  # noqa: E402
from training.diffusion import logs, update
from training.diffusion import state as run_state  # noqa: E402
from training.diffusion.checkpoint import LORA_FILE, STATE_FILE, list_checkpoints  # noqa: E402
from training.diffusion.config import check_setup  # noqa: E402
from training.diffusion.rollout import family_for, sample, schedule_sigmas  # noqa: E402
from training.recipes import grpo  # noqa: E402
from training.recipes.grpo import GRPOConfig, train  # noqa: E402

SD3_FAMILY = {"max_sequence_length": 16}
B = 8  # prompts_per_step 2 x group_size 4


def tiny_cfg(tmp_path, **kw) -> GRPOConfig:
    """Tiny SD3 settings: 16 px, T = 4, B = 8 in one minibatch, no CFG, no KL, no eval/save midway."""
    return tiny_trainer(GRPOConfig, tmp_path, **{"num_steps": 1, "eval_sampling_steps": 2, "num_eval_prompts": 2, **kw})


def run(cfg, pipe=None, reward=redness, family_kwargs=SD3_FAMILY):
    return train(cfg, pipe or tiny_sd3_pipeline(0), {"r": reward}, {"r": 1.0}, TRAIN, VAL, family_kwargs)


def spy(monkeypatch, module, name):
    """Wrap ``<module>.<name>`` (the name as the trainer module that calls it sees it); returns
    the list of (args, kwargs, result) of every call."""
    calls, real = [], getattr(module, name)

    def wrapper(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append((args, kwargs, out))
        return out

    monkeypatch.setattr(module, name, wrapper)
    return calls


def lora_params(transformer) -> list[torch.Tensor]:
    """The trainable LoRA weights, in the order ``train`` keeps them (requires_grad parameters)."""
    return [p.detach().clone() for p in transformer.parameters() if p.requires_grad]


def rollout_calls(calls):
    """The ``sample`` calls of training rollouts (evaluation samples pass sde_steps=[])."""
    return [c for c in calls if c[0][4]]


def load_preset(name: str):
    """The Hydra presets ``conf/model/<name>.yaml`` and ``conf/rollout/<name>.yaml``, loaded as
    rubricloop-train loads them: (pipeline, resolution, cfg, cfg_scale, family_kwargs, targets)."""
    from training.cli import load_base_model

    with initialize_config_module(config_module="conf", version_base="1.3"):
        cfg = compose("train", overrides=[f"model={name}"])
    pipe, family_kwargs = load_base_model(cfg)
    r = cfg.rollout
    return pipe, r.resolution, r.cfg, r.cfg_scale, family_kwargs, list(cfg.model.lora_targets)


def flow_grpo_log_prob(v, x, x_next, sigma, sigma_next, a):
    """Flow-GRPO Eq. 9 step density, written out here with torch.distributions (mean over dims)."""
    std_t = a * math.sqrt(sigma / (1 - (sigma_next if sigma >= 1 else sigma)))
    dt = sigma_next - sigma
    mean = x * (1 + std_t**2 / (2 * sigma) * dt) + v * (1 + std_t**2 * (1 - sigma) / (2 * sigma)) * dt
    logp = torch.distributions.Normal(mean.double(), std_t * math.sqrt(-dt)).log_prob(x_next.double())
    return logp.flatten(1).mean(1)


# ---------------------------------------------------------------- Sana and Qwen-Image


@pytest.mark.parametrize("preset", ["tiny_sana", "tiny_qwen_image"])
def test_rollout_log_probs_equal_a_gaussian_density(preset):
    """Every recorded SDE step of a CFG rollout has the log-density of N(mean, step_std^2) with
    the mean recomputed from two transformer calls and Eq. 9, not through ``training.diffusion.sde``."""
    pipe, res, cfg, cfg_scale, family_kwargs, _ = load_preset(preset)
    assert cfg  # both presets use CFG, so the unconditional pass is exercised
    family = family_for(pipe, res, res, **family_kwargs)
    # Prompts of different lengths: Qwen-Image then returns a padding mask, "" has none.
    cond = family.encode(["a slide titled 'Q3'", "a bar chart of revenue by region"], "cpu")
    uncond = {k: v.expand(2, *v.shape[1:]) for k, v in family.encode([""], "cpu").items()}
    sigmas = schedule_sigmas(pipe.scheduler, 3, family.image_seq_len())
    r = sample(
        family, pipe.transformer, cond, sigmas, [0, 1, 2], 0.7, torch.Generator().manual_seed(0), uncond, cfg_scale
    )
    assert r.log_probs.shape == (2, 3) and r.log_probs.dtype == torch.float32
    assert torch.isfinite(r.log_probs).all()
    assert torch.equal(r.latents[:, 1:], r.next_latents[:, :-1]) and torch.equal(r.final, r.next_latents[:, -1])
    for j in range(3):
        s, s_next, x = sigmas[j].item(), sigmas[j + 1].item(), r.latents[:, j]
        with torch.no_grad():
            v_c = family.velocity(pipe.transformer, x, s, cond)
            v_u = family.velocity(pipe.transformer, x, s, uncond)
        v = v_u + cfg_scale * (v_c - v_u)
        want = flow_grpo_log_prob(v, x, r.next_latents[:, j], s, s_next, 0.7)
        assert torch.allclose(r.log_probs[:, j].double(), want, atol=1e-5, rtol=0), (j, r.log_probs[:, j], want)


@pytest.mark.parametrize("preset", ["tiny_sana", "tiny_qwen_image"])
def test_one_grpo_step_first_update_ratio_one_kl_zero(preset, tmp_path, monkeypatch):
    pipe, res, cfg, cfg_scale, family_kwargs, targets = load_preset(preset)
    losses, kls = spy(monkeypatch, update, "clipped_policy_loss"), spy(monkeypatch, update, "step_kl")
    c = tiny_cfg(
        tmp_path,
        resolution=res,
        cfg=cfg,
        cfg_scale=cfg_scale,
        beta=0.04,
        train_sampling_steps=2,
        lora_target_modules=targets,
    )
    history = run(c, pipe, family_kwargs=family_kwargs)
    ratios = torch.stack([out[1] for _, _, out in losses])  # (K, B)
    kl = torch.stack([out.detach() for _, _, out in kls])  # (K, B)
    assert ratios.shape == (2, B) and kl.shape == (2, B)
    assert torch.allclose(ratios, torch.ones_like(ratios), atol=1e-6, rtol=0)
    assert torch.equal(kl, torch.zeros_like(kl))
    assert history["kl"] == [0.0] and math.isfinite(history["loss"][0])
    assert (list_checkpoints(tmp_path / "run")[-1] / LORA_FILE).exists()


# ---------------------------------------------------------------- which steps are trained


@pytest.mark.parametrize("window_range, starts", [([], {0, 1}), ([1, 4], {1, 2})])
def test_sde_window_is_drawn_per_sampling_batch_inside_its_range(window_range, starts, tmp_path, monkeypatch):
    """Flow-GRPO-Fast: each sampling batch (here 2 per GRPO step) draws its own window start in
    [lo, hi - w] (default range [0, T // 2)); only the window is SDE and trained, each sample
    re-scored at its own batch's sigmas even after the minibatches are shuffled."""
    samples, steps = spy(monkeypatch, update, "sample"), spy(monkeypatch, update, "sde_step")
    w = 1 if not window_range else 2
    run(tiny_cfg(tmp_path, num_steps=3, batch_size=4, sde_window=w, sde_window_range=window_range))
    rollouts = rollout_calls(samples)
    assert len(rollouts) == 3 * 2  # two chunks of 4 per GRPO step
    drawn = set()
    for args, _, r in rollouts:
        window = args[4]
        assert window == list(range(window[0], window[0] + w)) and window[0] in starts
        assert r.steps == window and r.log_probs.shape == (4, w) and r.latents.shape == (4, w, 4, 16, 16)
        drawn.add(window[0])
    assert drawn == starts  # both allowed starts occur in 6 draws (seeded)
    sigmas = schedule_sigmas(tiny_sd3_pipeline(0).scheduler, 4, 256)
    scored = [c[0][2] for c in steps if c[1].get("next_sample") is not None]  # (b,) sigmas of each update call
    assert len(scored) == 3 * 2 * w  # 2 minibatches of 4 x w trained steps per GRPO step
    for g in range(3):  # per GRPO step: the multiset of (sample, step) sigmas equals the rollouts' windows
        want = sorted(sigmas[t].item() for args, _, _ in rollouts[2 * g : 2 * g + 2] for t in args[4] for _ in range(4))
        got = sorted(x for call in scored[2 * w * g : 2 * w * (g + 1)] for x in call.tolist())
        assert got == pytest.approx(want, abs=0)


def test_mixgrpo_window_slides_with_the_grpo_step(tmp_path, monkeypatch):
    """MixGRPO: a window of 1 step starting at 0, moved by stride 1 every 2 GRPO steps, stopped
    at hi - w = 2 - 1 = 1 (default range [0, T - 2)): steps 0, 0, 1, 1, 1 over 5 GRPO steps."""
    samples = spy(monkeypatch, update, "sample")
    run(tiny_cfg(tmp_path, num_steps=5, sde_window=1, window_schedule="mixgrpo", window_shift_every=2, window_stride=1))
    assert [args[4] for args, _, _ in rollout_calls(samples)] == [[0], [0], [1], [1], [1]]


def test_ode_steps_outside_the_window_are_deterministic_euler():
    """Outside the window the trajectory is x + (sigma_next - sigma) v, with no noise drawn."""
    pipe = tiny_sd3_pipeline(0)
    family = family_for(pipe, 16, 16, **SD3_FAMILY)
    cond = family.encode(["a", "b"], "cpu")
    sigmas = schedule_sigmas(pipe.scheduler, 4, family.image_seq_len())
    r = sample(family, pipe.transformer, cond, sigmas, [1, 2], 0.7, torch.Generator().manual_seed(5))
    assert r.log_probs.shape == (2, 2) and r.steps == [1, 2]

    def euler(x, i):
        with torch.no_grad():
            v = pipe.transformer(
                hidden_states=x, timestep=torch.full((2,), sigmas[i].item() * 1000), return_dict=False, **cond
            )[0]
        return x + (sigmas[i + 1] - sigmas[i]) * v

    x0 = torch.randn(2, 4, 16, 16, generator=torch.Generator().manual_seed(5))
    assert torch.allclose(r.latents[:, 0], euler(x0, 0), atol=1e-6)  # step 0 is ODE
    assert torch.allclose(r.final, euler(r.next_latents[:, 1], 3), atol=1e-6)  # step 3 is ODE
    # The SDE steps do draw noise: their outputs are not the Euler step.
    assert not torch.allclose(r.next_latents[:, 0], euler(r.latents[:, 0], 1), atol=1e-3)


@pytest.mark.parametrize("fraction, trained", [(0.6, [0, 1]), (0.99, [0, 1, 2]), (1.0, [0, 1, 2, 3])])
def test_timestep_fraction_trains_the_first_steps(fraction, trained, tmp_path, monkeypatch):
    """All 4 steps are SDE; the first int(4 * fraction) are trained (Flow-GRPO train_sd3.py:
    0.6 -> 2, 0.99 -> 3: the last step is not), each with the rollout's own old log-probs."""
    samples, losses, steps = (
        spy(monkeypatch, update, "sample"),
        spy(monkeypatch, update, "clipped_policy_loss"),
        spy(monkeypatch, update, "sde_step"),
    )
    run(tiny_cfg(tmp_path, timestep_fraction=fraction))
    [(args, _, r)] = rollout_calls(samples)
    assert args[4] == [0, 1, 2, 3] and r.log_probs.shape == (B, 4)
    assert trained == list(range(int(4 * fraction)))
    sigmas = schedule_sigmas(tiny_sd3_pipeline(0).scheduler, 4, 256)
    scored = [c[0][2] for c in steps if c[1].get("next_sample") is not None]
    assert [call.tolist() for call in scored] == [[sigmas[t].item()] * B for t in trained]
    # Each trained step's old log-probs are the rollout's own column for that step (shuffled rows).
    for (loss_args, _, _), col in zip(losses, trained, strict=True):
        assert sorted(loss_args[1].tolist()) == sorted(r.log_probs[:, col].tolist())


# ---------------------------------------------------------------- advantages, accumulation


@pytest.mark.parametrize("adv_std", ["global", "group"])
def test_advantages_match_the_reference_tracker_and_minibatches_are_shuffled(adv_std, tmp_path, monkeypatch):
    """Advantages of each sample equal Flow-GRPO's PerPromptStatTracker formula (float64 numpy,
    flow_grpo/stat_tracking.py; global std = np.std of all rewards); each of 2 inner epochs
    runs the 8 samples as 2 minibatches of 4 in a fresh permutation (train_sd3.py: randperm per
    inner epoch), so one prompt's group is no longer one minibatch."""
    seen = []

    def reward(prompts, images, **columns):
        values = redness(prompts, images)
        if len(images) == 4 and prompts[0].startswith("a slide"):  # the two rollout chunks
            seen.extend(values)
        return values

    plans = spy(monkeypatch, grpo, "minibatch_plan")
    losses = spy(monkeypatch, update, "clipped_policy_loss")
    run(tiny_cfg(tmp_path, adv_std=adv_std, batch_size=4, num_inner_epochs=2, train_sampling_steps=2), reward=reward)
    # float32 rewards (combine_rewards; the reference also takes .float()), then float64 like the tracker
    r = np.asarray(seen, dtype=np.float32).astype(np.float64).reshape(2, 4)  # (P, G)
    std = np.std(r) if adv_std == "global" else np.std(r, axis=1, keepdims=True)
    want = ((r - r.mean(axis=1, keepdims=True)) / (std + 1e-4)).clip(-5, 5).reshape(-1)  # (B,)
    assert len(plans) == 2
    orders = [torch.cat([idx for idx, _ in plan]).tolist() for _, _, plan in plans]
    assert all(sorted(o) == list(range(8)) for o in orders)
    assert orders[0] != orders[1] and orders[0] != list(range(8))  # permuted, and again each inner epoch
    used = [args[2].double() for args, _, _ in losses]  # 2 epochs x 2 minibatches x 2 trained steps
    for e, order in enumerate(orders):
        for m in range(2):
            for k in range(2):
                assert torch.allclose(
                    used[4 * e + 2 * m + k], torch.from_numpy(want[order[4 * m : 4 * m + 4]]), atol=1e-6, rtol=0
                )


@pytest.mark.parametrize("grad_accum, optimizer_steps", [(1, 2), (2, 1)])
def test_grad_accum_sets_optimizer_steps(grad_accum, optimizer_steps, tmp_path, monkeypatch):
    """One GRPO step of 2 minibatches of 4: 2 optimizer steps, or 1 when the 2 accumulate."""
    losses = spy(monkeypatch, update, "clipped_policy_loss")
    run(tiny_cfg(tmp_path, batch_size=4, grad_accum=grad_accum, train_sampling_steps=2))
    assert len(losses) == 2 * 2  # minibatches x trained steps
    state = torch.load(list_checkpoints(tmp_path / "run")[-1] / STATE_FILE, weights_only=False)
    assert {float(s["step"]) for s in state["optimizer"]["state"].values()} == {optimizer_steps}
    assert state["lr_scheduler"]["last_epoch"] == optimizer_steps


def test_partial_accumulation_group_and_lr_schedule_length(tmp_path, monkeypatch):
    """3 minibatches with grad_accum 2: the first two share an optimizer step (each loss / 2),
    the last is alone (/ 1, not / 2); the linear LR schedule counts ceil(3 / 2) = 2 updates per
    GRPO step, so after step 0 of 2 the LR is half the base (floor division gave 0)."""
    calls = spy(monkeypatch, grpo, "update_minibatch")
    rows = []
    monkeypatch.setattr(
        logs, "init_wandb", lambda *a: SimpleNamespace(log=lambda row, step: rows.append(row), finish=lambda: None)
    )
    run(
        tiny_cfg(
            tmp_path,
            num_steps=2,
            prompts_per_step=3,
            batch_size=4,
            grad_accum=2,
            lr_scheduler="linear",
            train_sampling_steps=1,
            timestep_fraction=1.0,
        )
    )
    assert [kw["grad_accum"] for _, kw, _ in calls] == [2, 2, 1] * 2
    state = torch.load(list_checkpoints(tmp_path / "run")[-1] / STATE_FILE, weights_only=False)
    assert state["lr_scheduler"]["last_epoch"] == 4  # 2 optimizer steps per GRPO step
    train_rows = [r for r in rows if "lr" in r]
    assert train_rows[0]["lr"] == pytest.approx(3e-2 * (1 - 2 / 4)) and train_rows[1]["lr"] == 0.0


def test_constant_groups_are_dropped_and_counted(tmp_path, monkeypatch):
    """A prompt whose 4 images all score 1/3 is dropped (advantages exactly 0): groups_kept
    counts only the others, and no update sees its samples."""
    drawn, rows = [], []

    def reward(prompts, images, **columns):
        if len(images) == B:
            drawn.extend(prompts[::4])
        return [1 / 3 if int(p[-1]) % 2 == 0 else v for p, v in zip(prompts, redness(prompts, images))]

    monkeypatch.setattr(
        logs, "init_wandb", lambda *a: SimpleNamespace(log=lambda row, step: rows.append(row), finish=lambda: None)
    )
    plans = spy(monkeypatch, grpo, "minibatch_plan")
    run(tiny_cfg(tmp_path, num_steps=3), reward=reward)
    for step in range(3):
        prompts = drawn[2 * step : 2 * step + 2]
        varied = [g for g, p in enumerate(prompts) if int(p[-1]) % 2 == 1]
        assert [r for r in rows if "groups_kept" in r][step]["groups_kept"] == len(varied)
        kept = sorted(plans[step][0][0].tolist()) if varied else []  # the kept sample indices (B_kept,)
        assert kept == [4 * g + i for g in varied for i in range(4)]
    assert any(int(p[-1]) % 2 == 0 for p in drawn) and any(int(p[-1]) % 2 == 1 for p in drawn)


def test_wandb_mode_option(tmp_path, monkeypatch):
    """trainer.wandb_mode: "disabled" starts no run even without WANDB_MODE; "offline" and
    "auto" (no WANDB_API_KEY) start an offline run in the run folder."""
    import wandb
    from accelerate import Accelerator

    inits = []
    monkeypatch.setattr(wandb, "init", lambda **kw: inits.append(kw) or "run")
    monkeypatch.delenv("WANDB_MODE", raising=False)
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    acc = Accelerator(cpu=True)
    assert logs.init_wandb(tiny_cfg(tmp_path, wandb_mode="disabled"), acc, tmp_path) is None
    for mode in ("offline", "auto"):
        assert logs.init_wandb(tiny_cfg(tmp_path, wandb_mode=mode), acc, tmp_path) == "run"
    assert [kw["mode"] for kw in inits] == ["offline", "offline"] and inits[0]["dir"] == str(tmp_path)
    with pytest.raises(ValueError, match="wandb_mode must be"):
        check_setup(tiny_cfg(tmp_path, wandb_mode="sometimes"), {"r": redness}, {"r": 1.0}, TRAIN)


# ---------------------------------------------------------------- EMA, save and resume


def test_ema_is_saved_and_resumed_exactly(tmp_path, monkeypatch):
    decay = 0.5
    cfg = tiny_cfg(tmp_path, num_steps=2, ema_decay=decay, save_every=1, keep_last=3)
    pipe = tiny_sd3_pipeline(0)
    run(cfg, pipe)
    s1, s2 = (torch.load(p / STATE_FILE, weights_only=False) for p in list_checkpoints(tmp_path / "run"))
    # EMA recurrence over one optimizer step per GRPO step: ema_2 = d ema_1 + (1 - d) live_2.
    for e1, e2, live in zip(s1["ema"], s2["ema"], s2["live_lora"], strict=True):
        assert torch.allclose(e2, decay * e1 + (1 - decay) * live, atol=1e-7)
    assert any(not torch.equal(e, p) for e, p in zip(s2["ema"], s2["live_lora"]))

    # Resume: the first rollout uses the saved live weights, the first EMA update starts from the saved EMA.
    emas, live_at_rollout, pipe = [], [], tiny_sd3_pipeline(0)
    real_ema_update = run_state.ema_update
    monkeypatch.setattr(
        run_state,
        "ema_update",
        lambda ema, params, d: (emas.append([e.clone() for e in ema]), real_ema_update(ema, params, d)),
    )
    real_sample = update.sample
    monkeypatch.setattr(
        update,
        "sample",
        lambda *a, **k: (live_at_rollout.append(lora_params(pipe.transformer)) if a[4] else None, real_sample(*a, **k))[
            1
        ],
    )
    history = run(replace(cfg, num_steps=3, resume=True), pipe)
    assert history["step"] == [0, 1, 2]  # the checkpoint's history, continued
    assert all(torch.equal(a, b) for a, b in zip(live_at_rollout[0], s2["live_lora"], strict=True))
    assert all(torch.equal(a, b) for a, b in zip(emas[0], s2["ema"], strict=True))
    s3 = torch.load(list_checkpoints(tmp_path / "run")[-1] / STATE_FILE, weights_only=False)
    for e2, e3, live in zip(s2["ema"], s3["ema"], s3["live_lora"], strict=True):
        assert torch.allclose(e3, decay * e2 + (1 - decay) * live, atol=1e-7)


def test_saved_lora_file_is_the_ema(tmp_path):
    """The checkpoint's diffusers LoRA (what users load) holds the EMA weights, not the live ones."""
    pipe = tiny_sd3_pipeline(0)
    run(tiny_cfg(tmp_path, ema_decay=0.5), pipe)
    folder = list_checkpoints(tmp_path / "run")[-1]
    state, saved = torch.load(folder / STATE_FILE, weights_only=False), load_file(folder / LORA_FILE)
    names = [n for n, p in pipe.transformer.named_parameters() if p.requires_grad]  # peft names, "default" adapter
    assert any(not torch.equal(e, p) for e, p in zip(state["ema"], state["live_lora"]))
    for name, e in zip(names, state["ema"], strict=True):
        assert torch.equal(saved["transformer." + name.replace(".default", "")], e), name


# ---------------------------------------------------------------- precision and memory options


@pytest.fixture
def fresh_accelerate_state():
    """accelerate keeps one process-wide state whose mixed precision cannot change once set, so
    a bf16 run after an fp32 one in the same process needs it reset (a real run is one process)."""
    from accelerate.state import AcceleratorState

    AcceleratorState._reset_state(reset_partial_state=True)
    yield
    AcceleratorState._reset_state(reset_partial_state=True)


def test_bf16_autocast_keeps_log_probs_fp32(tmp_path, monkeypatch, fresh_accelerate_state):
    samples, losses = spy(monkeypatch, update, "sample"), spy(monkeypatch, update, "clipped_policy_loss")
    pipe = tiny_sd3_pipeline(0)
    out_dtypes = []
    # accelerate casts the transformer's outputs back to fp32, so watch a layer inside it.
    pipe.transformer.proj_out.register_forward_hook(lambda module, args, out: out_dtypes.append(out.dtype))
    history = run(tiny_cfg(tmp_path, mixed_precision="bf16", beta=0.04), pipe)
    # every transformer call ran under bf16 autocast: eval 2 + rollout 4 + update 4 + reference 4 + final eval 2
    assert out_dtypes == [torch.bfloat16] * 16
    r = rollout_calls(samples)[0][2]
    assert r.log_probs.dtype == torch.float32 and r.latents.dtype == torch.float32
    assert torch.isfinite(r.log_probs).all()
    for args, _, (loss, ratio, _) in losses:
        assert args[0].dtype == torch.float32 and torch.isfinite(args[0]).all()
        # The update recomputes the same bf16 velocities, so the first ratio is still 1.
        assert torch.allclose(ratio, torch.ones_like(ratio), atol=1e-6, rtol=0)
    assert history["kl"] == [0.0]


def test_gradient_checkpointing_changes_memory_not_math(tmp_path, monkeypatch):
    """Two GRPO steps with and without checkpointing give the same losses (the second step sees
    the first step's update), and checkpointing really recomputes the transformer blocks."""
    plain_pipe = tiny_sd3_pipeline(0)
    plain = run(tiny_cfg(tmp_path / "plain", num_steps=2, train_sampling_steps=2), plain_pipe)
    calls = []
    real_checkpoint = torch.utils.checkpoint.checkpoint
    monkeypatch.setattr(
        torch.utils.checkpoint, "checkpoint", lambda *a, **k: (calls.append(1), real_checkpoint(*a, **k))[1]
    )
    pipe = tiny_sd3_pipeline(0)
    ckpt = run(tiny_cfg(tmp_path / "ckpt", num_steps=2, train_sampling_steps=2, gradient_checkpointing=True), pipe)
    assert pipe.transformer.gradient_checkpointing
    # 1 joint block x 2 trained steps x 2 GRPO steps, in the update pass only (rollouts run without grad)
    assert len(calls) == 4
    assert ckpt["loss"] == pytest.approx(plain["loss"], abs=1e-7, rel=0)
    assert ckpt["reward_mean"] == pytest.approx(plain["reward_mean"], abs=1e-7, rel=0)
    # The loss of a single-minibatch step is -mean(A) * ratio = ~0 by construction, so the updates
    # themselves are compared: both runs moved the zero-initialised LoRA B matrices, identically.
    lora_b = lambda p: {n: w.detach() for n, w in p.transformer.named_parameters() if "lora_B" in n}
    b_plain, b_ckpt = lora_b(plain_pipe), lora_b(pipe)
    assert b_plain.keys() == b_ckpt.keys() and b_plain
    assert max(w.abs().max().item() for w in b_plain.values()) > 1e-4
    for n in b_plain:
        torch.testing.assert_close(b_ckpt[n], b_plain[n], atol=1e-6, rtol=0)
