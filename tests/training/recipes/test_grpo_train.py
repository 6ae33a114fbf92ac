"""GRPO trainer on tiny SD3 / FLUX built in code: first-update invariants, learning, resume,
LoRA export, bad configs, and the Hydra config. Rewards are programmatic (no judge, no OCR)."""

import os
import socket
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch
import transformers

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from grpo_helpers import TRAIN, VAL, redness, tiny_trainer  # noqa: E402

from rewards.models.tiny_pipelines import tiny_flux_pipeline, tiny_sd3_pipeline  # noqa: E402
from rewards.reward_fns import RubricReward  # noqa: E402
from rewards.rubric import Check, Item, Rubric, Verdict  # noqa: E402
from training.diffusion import logs, update  # noqa: E402
from training.diffusion.checkpoint import LORA_FILE, list_checkpoints  # noqa: E402
from training.diffusion.rollout import family_for, guided_velocity, sample, schedule_sigmas  # noqa: E402
from training.diffusion.sde import sde_step  # noqa: E402
from training.diffusion.update import minibatch_plan  # noqa: E402
from training.recipes.grpo import GRPOConfig, train  # noqa: E402

FAMILY = {"max_sequence_length": 16}


def tiny_cfg(tmp_path, **kw) -> GRPOConfig:
    return tiny_trainer(GRPOConfig, tmp_path, **kw)


@pytest.mark.parametrize("build", [tiny_sd3_pipeline, tiny_flux_pipeline])
def test_first_update_ratio_one_and_kl_zero(build, tmp_path, monkeypatch):
    """First inner update: ratio == 1 (old log-probs from the rollout) and KL == 0 (lora_B = 0)."""
    seen = []
    real_loss = update.clipped_policy_loss
    real_kl = update.step_kl

    def spy_loss(log_prob, old_log_prob, advantages, clip_range):
        assert not old_log_prob.requires_grad and log_prob.requires_grad
        out = real_loss(log_prob, old_log_prob, advantages, clip_range)
        seen.append(("ratio", out[1]))
        return out

    def spy_kl(mean, ref_mean, std_t, dt, form):
        out = real_kl(mean, ref_mean, std_t, dt, form)
        seen.append(("kl", out.detach()))
        seen.append(("std_t", (std_t.flatten(), form)))
        return out

    monkeypatch.setattr(update, "clipped_policy_loss", spy_loss)
    monkeypatch.setattr(update, "step_kl", spy_kl)
    cfg = tiny_cfg(tmp_path, num_steps=1, beta=0.04, cfg=build is tiny_sd3_pipeline, cfg_scale=3.0)
    history = train(cfg, build(0), {"red": redness}, {"red": 1.0}, TRAIN, VAL, FAMILY)
    ratios = torch.stack([v for k, v in seen if k == "ratio"])
    kls = torch.stack([v for k, v in seen if k == "kl"])
    assert ratios.shape == (4, 8) and kls.shape == (4, 8)  # 4 trained steps x 8 images
    assert torch.allclose(ratios, torch.ones_like(ratios), atol=1e-6, rtol=0)
    assert torch.equal(kls, torch.zeros_like(kls))
    assert history["ratio_mean"][0] == pytest.approx(1.0, abs=1e-6) and history["kl"][0] == 0.0
    # The KL's std is Flow-GRPO's std_dev_t = a sqrt(sigma / (1 - sigma)) (sigma_max at sigma = 1), no sqrt(-dt)
    pipe = build(0)
    sigmas = schedule_sigmas(pipe.scheduler, 4, family_for(pipe, 16, 16, **FAMILY).image_seq_len()).tolist()
    stds = [v for k, v in seen if k == "std_t"]
    for j, (std_t, form) in enumerate(stds):
        s, s_next = sigmas[j], sigmas[j + 1]
        want = 0.7 * (s / (1 - (s_next if s >= 1 else s))) ** 0.5
        assert form == "flow_grpo" and torch.allclose(std_t, torch.full((8,), want), rtol=1e-6), (j, std_t, want)


def test_rollout_log_probs_rescore_exactly():
    """Re-scoring the recorded steps with the same weights reproduces the rollout log-probs."""
    pipe = tiny_sd3_pipeline(0)
    family = family_for(pipe, 16, 16, **FAMILY)
    cond = family.encode(["a", "b"], "cpu")
    sigmas = schedule_sigmas(pipe.scheduler, 4, family.image_seq_len())
    r = sample(family, pipe.transformer, cond, sigmas, [1, 2], 0.7, torch.Generator().manual_seed(0))
    assert r.latents.shape == (2, 2, 4, 16, 16) and r.log_probs.shape == (2, 2)
    for j, t in enumerate(r.steps):
        with torch.no_grad():
            v = guided_velocity(family, pipe.transformer, r.latents[:, j], sigmas[t].item(), cond, None, 1.0)
        _, logp, _, _ = sde_step(
            v, r.latents[:, j], sigmas[t].item(), sigmas[t + 1].item(), 0.7, next_sample=r.next_latents[:, j]
        )
        assert torch.allclose(logp, r.log_probs[:, j], atol=1e-6)


def test_learning_red_reward_rises(tmp_path):
    """Mean reward over fixed evaluation seeds rises clearly above its step-0 value."""
    cfg = tiny_cfg(
        tmp_path, num_steps=16, eval_every=8, lora_target_modules=["to_q", "to_k", "to_v", "to_out.0", "proj_out"]
    )
    history = train(cfg, tiny_sd3_pipeline(0), {"red": redness}, {"red": 1.0}, TRAIN, VAL, FAMILY)
    print("eval curve", history["eval_step"], history["eval_reward"])
    assert history["eval_step"] == [0, 8, 16]
    start, mid, end = history["eval_reward"]
    assert end > start + 0.04 and mid > start, history["eval_reward"]


def test_resume_gives_the_same_next_step_loss_and_lora_loads(tmp_path):
    full = train(
        tiny_cfg(tmp_path / "a", num_steps=3, beta=0.04),
        tiny_sd3_pipeline(0),
        {"red": redness},
        {"red": 1.0},
        TRAIN,
        VAL,
        FAMILY,
    )
    cfg_b = tiny_cfg(tmp_path / "b", num_steps=2, beta=0.04, save_every=1, keep_last=2)
    train(cfg_b, tiny_sd3_pipeline(0), {"red": redness}, {"red": 1.0}, TRAIN, VAL, FAMILY)
    assert [p.name for p in list_checkpoints(tmp_path / "b" / "run")] == ["step_1", "step_2"]
    resumed = train(
        replace(cfg_b, num_steps=3, resume=True),
        tiny_sd3_pipeline(0),
        {"red": redness},
        {"red": 1.0},
        TRAIN,
        VAL,
        FAMILY,
    )
    assert resumed["step"] == [0, 1, 2]  # the checkpoint's history, continued
    assert resumed["loss"] == pytest.approx(full["loss"], abs=1e-7, rel=0)
    assert resumed["reward_mean"] == pytest.approx(full["reward_mean"], abs=1e-7, rel=0)
    assert full["loss"][2] != 0.0

    # the saved LoRA loads into a fresh pipeline and changes its output
    ckpt = list_checkpoints(tmp_path / "b" / "run")[-1]
    assert (ckpt / LORA_FILE).exists()
    fresh = tiny_sd3_pipeline(0)
    kwargs = dict(
        prompt="a slide", height=16, width=16, num_inference_steps=2, max_sequence_length=16, output_type="np"
    )
    before = fresh(**kwargs, generator=torch.Generator().manual_seed(0)).images
    fresh.load_lora_weights(ckpt)
    after = fresh(**kwargs, generator=torch.Generator().manual_seed(0)).images
    assert np.abs(after - before).max() > 1e-3


@pytest.mark.parametrize(
    "change, reward, message",
    [
        ({"group_size": 1}, redness, "group_size must be >= 2"),
        ({}, lambda prompts, images, **kw: [0.5], "reward function 'r' returned 1 values for 2 samples"),
        ({}, lambda prompts, images, **kw: [float("nan")] * len(images), "reward function 'r' returned nan"),
        ({}, lambda prompts, images, **kw: [None] * len(images), r"every reward \(r\) returned None"),
    ],
)
def test_bad_configs_fail_at_start(tmp_path, change, reward, message, monkeypatch):
    monkeypatch.setattr(update, "sample", lambda *a, **k: pytest.fail("sampling started"))
    with pytest.raises(ValueError, match=message):
        train(tiny_cfg(tmp_path, **change), tiny_sd3_pipeline(0), {"r": reward}, {"r": 1.0}, TRAIN, VAL, FAMILY)


def test_hydra_config_composes_and_unknown_preset_fails():
    from hydra import compose, initialize_config_module
    from hydra.errors import MissingConfigException

    with initialize_config_module(config_module="conf", version_base="1.3"):
        for preset, model_id in [
            ("sd35_medium", "stabilityai/stable-diffusion-3.5-medium"),
            ("tiny_flux", "rewards.models.tiny_pipelines.tiny_flux_pipeline"),
        ]:
            cfg = compose("train", overrides=[f"model={preset}"])
            assert (cfg.model._target_, cfg.model.id) == ("rewards.models.base_model.BaseModel", model_id)
            GRPOConfig(**{k: v for k, v in dict(cfg.trainer).items()})  # every field known
        with pytest.raises(MissingConfigException, match="model"):
            compose("train", overrides=["model=sd4_ultra"])


class TagJudge:
    """A programmatic judge: checks tagged "title" pass, "legend" fail, every other tag is withheld."""

    name = "tag"

    def can_answer(self, check):
        return True

    def judge(self, images, prompts, checks):
        answers = {"title": "yes", "legend": "no"}
        return [[Verdict(c.id, answers.get(c.tag, "withheld"), self.name) for c in cs] for cs in checks]


def _item(item_id, prompt, tags):
    checks = tuple(Check(f"{tag}-{i}", f"is the {tag} right?", tag=tag) for i, tag in enumerate(tags))
    return Item(item_id, prompt, Rubric.flat(list(checks)))


def _independent_image_stats(images):
    """dark fraction, colour entropy (bits, 16 levels per channel), edge density and light fraction, by hand."""
    dark, entropy, edges, light = [], [], [], []
    for im in images:
        rgb = np.asarray(im, dtype=np.float64) / 255.0  # (H, W, 3)
        y = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
        dark.append((y < 0.1).mean())
        light.append((y >= 0.85).mean())
        q = np.asarray(im, dtype=np.int64) // 16
        _, counts = np.unique(q.reshape(-1, 3), axis=0, return_counts=True)
        p = counts / counts.sum()
        entropy.append(-(p * np.log2(p)).sum())
        gx, gy = y[:-1, 1:] - y[:-1, :-1], y[1:, :-1] - y[:-1, :-1]
        edges.append((np.sqrt(gx**2 + gy**2) > 0.1).mean())
    return {
        "dark_fraction": np.mean(dark),
        "color_entropy_bits": np.mean(entropy),
        "edge_density": np.mean(edges),
        "light_fraction": np.mean(light),
    }


def test_reward_hacking_guards_are_logged(tmp_path, monkeypatch):
    """Per-check-type pass rates pool the verdicts of every rollout chunk; image statistics are
    those of the rollout images; both reach the W&B log and the history."""
    train_items = [
        _item("a", "a slide titled 'A'", ["title", "legend"]),
        _item("b", "a chart titled 'B'", ["title", "axis", "axis"]),
    ]
    val_items = [_item("v", "a poster titled 'V'", ["title", "legend", "legend", "axis"])]
    seen = []

    def spy(prompts, images, **columns):
        seen.append((list(prompts), list(images)))
        return [0.0] * len(images)

    class Recorder:
        def __init__(self):
            self.logs = []

        def log(self, row, step):
            self.logs.append((step, row))

        def finish(self):
            pass

    recorder = Recorder()
    monkeypatch.setattr(logs, "init_wandb", lambda *a: recorder)
    cfg = tiny_cfg(tmp_path, num_steps=1, prompts_per_step=2, group_size=4, batch_size=4, num_eval_prompts=1)
    rubric = RubricReward(TagJudge())
    history = train(
        cfg,
        tiny_sd3_pipeline(0),
        {"rubric": rubric, "spy": spy},
        {"rubric": 1.0, "spy": 0.0},
        train_items,
        val_items,
        FAMILY,
    )

    # 2 chunks of 4 images: item a (title yes, legend no) and item b (title yes, 2 axis withheld)
    assert history["check_pass_rates"] == [
        {"checks/title/pass_rate": 1.0, "checks/legend/pass_rate": 0.0, "checks/axis/pass_rate": 0.0}
    ]
    assert history["reward_mean"][0] == pytest.approx((4 * 1 / 2 + 4 * 1 / 3) / 8, abs=1e-6)
    rollout_images = [
        im
        for prompts, images in seen
        if prompts[0] in (train_items[0].prompt, train_items[1].prompt) and len(images) == 4
        for im in images
    ]
    assert len(rollout_images) == 8
    expected = _independent_image_stats(rollout_images)
    assert history["image_stats"][0] == pytest.approx(expected, abs=1e-9)
    assert 0 < expected["color_entropy_bits"] <= 8  # 256 pixels: at most log2(256) bits

    step, row = recorder.logs[0]
    assert step == 0
    assert row["checks/legend/pass_rate"] == 0.0 and row["checks/axis/pass_rate"] == 0.0
    assert row["images/dark_fraction"] == pytest.approx(expected["dark_fraction"], abs=1e-9)
    assert row["images/edge_density"] == pytest.approx(expected["edge_density"], abs=1e-9)
    assert row["rewards/rubric/mean"] == pytest.approx(5 / 12, abs=1e-6) and row["rewards/spy/mean"] == 0.0
    # step-0 evaluation of the validation item: 1 title yes, 2 legend no, 1 axis withheld
    assert row["eval/checks/title/pass_rate"] == 1.0 and row["eval/checks/legend/pass_rate"] == 0.0
    assert row["eval/rubric"] == pytest.approx(0.25, abs=1e-6)


def test_minibatch_plan_runs_as_many_minibatches_on_every_rank():
    """3 simulated ranks keep 6, 0 and 8 samples (batch 4): each runs 2 minibatches; the empty
    rank pads with sample 0 at weight 0; weights b / n_mean (hand-computed) make the
    rank-averaged loss the mean over every kept sample of the minibatch."""
    kept = [6, 0, 8]
    plans = [minibatch_plan(torch.arange(n), kept, 4) for n in kept]
    assert [len(p) for p in plans] == [2, 2, 2]
    # minibatch 0: 4 + 0 + 4 kept, n_mean = 8/3; minibatch 1: 2 + 0 + 4, n_mean = 2
    assert (
        [w for _, w in plans[0]] == [1.5, 1.0]
        and [w for _, w in plans[1]] == [0.0, 0.0]
        and [w for _, w in plans[2]] == [1.5, 2.0]
    )
    assert [i.tolist() for i, _ in plans[0]] == [[0, 1, 2, 3], [4, 5]] and [i.tolist() for i, _ in plans[1]] == [
        [0],
        [0],
    ]
    losses = [
        torch.rand(8, generator=torch.Generator().manual_seed(r)) for r in range(3)
    ]  # per-sample losses of each rank
    for m in range(2):
        rank_mean = (
            sum(w * losses[r][i].mean() for r, (i, w) in enumerate(p[m] for p in plans)) / 3
        )  # what DDP averages
        real = torch.cat([losses[r][i] for r, (i, w) in enumerate(p[m] for p in plans) if w > 0])
        assert rank_mean.item() == pytest.approx(real.mean().item(), abs=1e-6)
    # one process: the single-rank plan, weight exactly 1; nobody kept anything: no minibatch
    assert [(i.tolist(), w) for i, w in minibatch_plan(torch.tensor([2, 3, 6, 7, 8]), [5], 4)] == [
        ([2, 3, 6, 7], 1.0),
        ([8], 1.0),
    ]
    assert minibatch_plan(torch.arange(0), [0, 0], 4) == []


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker(out: Path, name: str) -> None:
    """One process of ``test_ddp_rank_without_kept_groups_does_not_hang`` (run by ``__main__``):
    a DDP rank (RANK set) or the one-process reference; saves its history and LoRA."""
    rank = int(os.environ.get("RANK", "0"))

    def reward(prompts, images, **columns):
        # rank 1 scores every image alike: all its groups have zero advantage and are dropped
        return [0.0] * len(images) if rank == 1 else redness(prompts, images)

    pipe = tiny_sd3_pipeline(0)
    # 2 inner epochs: the second one's loss is not 0 (the first, at ratio 1, is -mean(A) = 0); group std:
    # rank 0's advantages do not depend on rank 1's rewards
    cfg = tiny_cfg(
        out / name,
        num_steps=1,
        beta=0.04,
        num_eval_prompts=1,
        eval_sampling_steps=1,
        num_inner_epochs=2,
        adv_std="group",
    )
    history = train(cfg, pipe, {"red": reward}, {"red": 1.0}, TRAIN, VAL, FAMILY)
    lora = [p.detach().clone() for p in pipe.transformer.parameters() if p.requires_grad]
    torch.save({"history": history, "lora": lora}, out / f"{name}.pt")


@pytest.mark.slow
def test_ddp_rank_without_kept_groups_does_not_hang(tmp_path):
    """Two gloo DDP ranks on CPU; rank 1 drops all its groups, rank 0 keeps all 8 samples. Both
    finish (before the fix rank 0 waited forever in the gradient all-reduce), the replicas stay
    equal, and rank 0's loss and LoRA equal a one-process run on rank 0's data: weight 2 on
    rank 0 and 0 on rank 1, averaged over 2 ranks, is the one-process gradient exactly."""
    port, procs = _free_port(), []
    common = {**os.environ, "OMP_NUM_THREADS": "1", "WANDB_MODE": "disabled"}  # same threads: same float sums
    ddp = {
        "ACCELERATE_USE_CPU": "true",
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(port),
        "WORLD_SIZE": "2",
        "LOCAL_WORLD_SIZE": "2",
    }
    for name, env in [
        ("rank0", {**ddp, "RANK": "0", "LOCAL_RANK": "0"}),
        ("rank1", {**ddp, "RANK": "1", "LOCAL_RANK": "1"}),
        ("single", {}),
    ]:
        procs.append(
            subprocess.Popen(
                [sys.executable, __file__, "--worker", str(tmp_path), name],
                env={**common, **env, "PYTHONPATH": f"{Path(__file__).parents[3]}:{Path(__file__).parents[2]}"},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    try:
        outputs = [p.communicate(timeout=240)[0] for p in procs]
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        pytest.fail("DDP ranks hung")
    assert all(p.returncode == 0 for p in procs), [o[-2000:] for o in outputs]
    r0, r1, single = (torch.load(tmp_path / f"{name}.pt", weights_only=False) for name in ("rank0", "rank1", "single"))
    for a, b in zip(r0["lora"], r1["lora"], strict=True):
        assert torch.equal(a, b)
    assert r1["history"]["loss"] == [0.0] and r0["history"]["loss"][0] != 0.0
    assert r0["history"]["reward_mean"][0] == pytest.approx(
        single["history"]["reward_mean"][0] / 2, abs=1e-9
    )  # gathered with rank 1's zeros
    assert r0["history"]["loss"][0] == pytest.approx(single["history"]["loss"][0], abs=1e-9, rel=0)
    assert (
        max((a - b).abs().max().item() for a, b in zip(r0["lora"], single["lora"], strict=True)) <= 1e-6
    )  # two Adam steps at lr 3e-2 (updates ~1e-2)


def test_logs_approx_kl_kind_rewards_epoch_grid_and_final_ema_eval(tmp_path, monkeypatch):
    """approx_kl = mean 0.5 (logp - logp_old)^2 over the update's calls; rewards/kind/<kind>/mean
    from the rollout rewards; a sample grid once per epoch (4 prompts / 2 per step = steps 0, 2);
    the final evaluation uses the EMA weights (decay 1 keeps the initial LoRA: it equals the
    step-0 evaluation) and reaches the tracker at step num_steps."""
    train_items = [
        SimpleNamespace(prompt=f"a {kind} number {i}", meta={"kind": kind})
        for i, kind in enumerate(["slide", "chart", "slide", "chart"])
    ]
    kind_of = {it.prompt: it.meta["kind"] for it in train_items}
    diffs, calls = [], []
    real_loss = update.clipped_policy_loss

    def spy_loss(log_prob, old_log_prob, advantages, clip_range):
        diffs.append((log_prob.detach() - old_log_prob).double())
        return real_loss(log_prob, old_log_prob, advantages, clip_range)

    def reward(prompts, images, **columns):
        values = redness(prompts, images)
        calls.append((list(prompts), list(images), values))
        return values

    recorder = SimpleNamespace(rows={}, log=lambda row, step: recorder.rows.setdefault(step, row), finish=lambda: None)
    monkeypatch.setattr(update, "clipped_policy_loss", spy_loss)
    monkeypatch.setattr(logs, "init_wandb", lambda *a: recorder)
    cfg = tiny_cfg(
        tmp_path,
        num_steps=3,
        prompts_per_step=2,
        group_size=2,
        batch_size=4,
        train_sampling_steps=2,
        num_inner_epochs=2,
        ema_decay=1.0,
        num_eval_prompts=2,
    )
    history = train(cfg, tiny_sd3_pipeline(0), {"red": reward}, {"red": 1.0}, train_items, VAL, FAMILY)

    assert len(diffs) == 3 * 2 * 2  # 3 steps x 2 inner epochs (the second after an optimizer step) x 2 trained steps
    expected_kl = [np.mean([0.5 * (d**2).mean().item() for d in diffs[4 * s : 4 * s + 4]]) for s in range(3)]
    assert history["approx_kl"] == pytest.approx(expected_kl, rel=1e-5, abs=1e-15)
    assert min(expected_kl) > 0
    rollouts = [(p, im, v) for p, im, v in calls if len(p) == 4 and p[0] in kind_of]
    assert len(rollouts) == 3
    for step, (prompts, images, values) in enumerate(rollouts):
        row = recorder.rows[step]
        assert row["approx_kl"] == pytest.approx(expected_kl[step], rel=1e-5, abs=1e-15)
        for kind in ("slide", "chart"):
            mine = [v for p, v in zip(prompts, values) if kind_of[p] == kind]
            assert row.get(f"rewards/kind/{kind}/mean") == (pytest.approx(np.mean(mine), abs=1e-6) if mine else None)
        assert ("samples" in row) == (step in (0, 2))
        if step in (0, 2):  # 2 prompts x G = 2: a 2 x 2 grid of 16 px images, in rollout order
            grid = np.asarray(row["samples"].image)  # a wandb.Image of the PIL grid
            assert grid.shape == (32, 32, 3)
            assert np.array_equal(grid[16:, :16], np.asarray(images[2])) and np.array_equal(
                grid[:16, 16:], np.asarray(images[1])
            )
    assert history["eval_step"] == [0, 3]
    assert history["eval_reward"][1] == history["eval_reward"][0]
    assert recorder.rows[3]["eval/reward_mean"] == history["eval_reward"][1]
    state = torch.load(list_checkpoints(tmp_path / "run")[-1] / "training_state.pt", weights_only=False)
    assert (
        max((live - ema).abs().max().item() for live, ema in zip(state["live_lora"], state["ema"])) > 1e-4
    )  # training moved the live LoRA


def test_reward_threads_closed_when_a_step_fails(tmp_path):
    """A reward that turns NaN at step 1 stops training with its one-line error, and the
    reward thread is shut down (``AsyncRewarder.close`` in a finally)."""
    calls = []

    def flaky(prompts, images, **columns):
        calls.append(len(images))  # 1: reward check, 2: step-0 evaluation, 3: step-0 rollout, 4: step-1 rollout
        return [float("nan")] * len(images) if len(calls) == 4 else redness(prompts, images)

    before = {t for t in threading.enumerate() if t.name.startswith("reward")}
    with pytest.raises(ValueError, match="reward function 'r' returned nan"):
        train(
            tiny_cfg(tmp_path, num_steps=3, train_sampling_steps=2, num_eval_prompts=1),
            tiny_sd3_pipeline(0),
            {"r": flaky},
            {"r": 1.0},
            TRAIN,
            VAL,
            FAMILY,
        )
    assert len(calls) == 4
    assert not [t for t in threading.enumerate() if t.name.startswith("reward") and t not in before and t.is_alive()]


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _worker(Path(sys.argv[2]), sys.argv[3])
