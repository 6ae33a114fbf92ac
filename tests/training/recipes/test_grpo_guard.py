"""GRPO-Guard (``training.recipes.grpo_guard``) against its reference on fixed tensors, and a tiny run.

The expected numbers come from X-GenGroup/Flow-Factory at a0b2bc5 run outside this repo: its
``FlowMatchEulerDiscreteSDEScheduler.step`` (Flow-SDE, noise level 0.7) for the step means and
log-probs, and the "Reweighted ratio" lines of ``GRPOGuardTrainer.optimize`` for the ratio and the
clipped loss, on the inputs ``_inputs`` builds (seed 7; the minibatch shares one step, as there).
"""

from __future__ import annotations

import os

import pytest
import torch
import transformers

os.environ["WANDB_MODE"] = "disabled"
transformers.logging.set_verbosity_error()

from grpo_helpers import TRAIN, VAL, redness, tiny_trainer  # noqa: E402

from rewards.models.tiny_pipelines import tiny_sd3_pipeline  # noqa: E402
from training import recipes  # noqa: E402
from training.diffusion.grpo_math import clipped_policy_loss  # noqa: E402
from training.diffusion.sde import sde_step  # noqa: E402
from training.recipes.grpo_guard import GRPOGuardConfig, guard_log_ratio, train  # noqa: E402

# (sigma, sigma_next, clip_range) -> (ratio (3,), loss, per-sample sum of dloss/dv, of |dloss/dv|)
REFERENCE = {
    (0.75, 0.625, 1e-4): (
        [0.994460523, 1.00014651, 1.00144517],
        -0.363871187,
        [0.0046979324, 0.00379213667, 0.0],
        [0.0471202992, 0.0231379736, 0.0],
    ),
    (0.75, 0.625, 0.2): (
        [0.994460523, 1.00014651, 1.00144517],
        -0.364050508,
        [0.0046979324, 0.00379213667, -0.0014676404],
        [0.0471202992, 0.0231379736, 0.0172580201],
    ),
    (0.5, 0.25, 1e-4): (
        [0.988951802, 1.00029302, 1.00289249],
        -0.361077785,
        [0.00934381597, 0.00758538395, 0.0],
        [0.0937185436, 0.0462827161, 0.0],
    ),
    (0.5, 0.25, 0.2): (
        [0.988951802, 1.00029302, 1.00289249],
        -0.361450136,
        [0.00934381597, 0.00758538395, -0.00293952157],
        [0.0937185436, 0.0462827161, 0.0345659219],
    ),
}
PLAIN_RATIO = {0.75: [0.982008338, 0.997046351, 0.997198164], 0.5: [0.939015806, 0.981217742, 0.971614182]}
"""Flow-GRPO's exp(lp - lp_old) on the same step, from the same reference run."""


def _inputs():
    g = torch.Generator().manual_seed(7)
    x = torch.randn(3, 4, 2, 2, generator=g)
    v_old = torch.randn(3, 4, 2, 2, generator=g)
    v = v_old + 0.3 * torch.randn(3, 4, 2, 2, generator=g)
    eps = torch.randn(3, 4, 2, 2, generator=g)
    return x, v_old, v, eps, torch.tensor([1.5, -0.8, 0.4])


@pytest.mark.parametrize("sigma, sigma_next, clip_range", sorted(REFERENCE))
def test_guard_ratio_loss_and_gradient_equal_the_reference(sigma, sigma_next, clip_range):
    x, v_old, v, eps, adv = _inputs()
    s, s_next = torch.full((3,), sigma), torch.full((3,), sigma_next)
    _, _, old_mean, step_std = sde_step(v_old, x, s, s_next, 0.7, next_sample=x)
    x_next = old_mean + step_std * eps
    _, old_log_prob, _, _ = sde_step(v_old, x, s, s_next, 0.7, next_sample=x_next)
    v = v.clone().requires_grad_(True)
    _, log_prob, mean, step_std = sde_step(v, x, s, s_next, 0.7, next_sample=x_next)
    log_ratio = guard_log_ratio(log_prob, old_log_prob, mean, old_mean, step_std)
    loss, ratio, _ = clipped_policy_loss(log_ratio, torch.zeros(3), adv, clip_range)
    loss.backward()

    ratio_want, loss_want, grad_sum, grad_abs = REFERENCE[(sigma, sigma_next, clip_range)]
    assert ratio.tolist() == pytest.approx(ratio_want, abs=1e-6)
    assert loss.item() == pytest.approx(loss_want, abs=1e-6)
    assert v.grad.flatten(1).sum(1).tolist() == pytest.approx(grad_sum, abs=1e-7)
    assert v.grad.abs().flatten(1).sum(1).tolist() == pytest.approx(grad_abs, abs=1e-7)
    # the normalised log-ratio is mean((mu - mu_old) eps): free of the plain ratio's 1 / s scale and bias
    assert log_ratio.tolist() == pytest.approx(((mean - old_mean) * eps).flatten(1).mean(1).tolist(), abs=1e-6)
    plain = torch.exp(log_prob - old_log_prob)
    assert plain.tolist() == pytest.approx(PLAIN_RATIO[sigma], abs=1e-6)


def test_the_guard_is_a_recipe_of_its_own():
    assert "grpo_guard" in recipes.names() and recipes.recipe("grpo_guard").CONFIG is GRPOGuardConfig
    assert recipes.recipe("grpo_guard").TITLE == "GRPO-Guard"


def test_a_tiny_guard_run_starts_on_policy_and_moves_the_lora(tmp_path):
    """One minibatch per step: the first update's ratio is exactly 1 (mu = mu_old, lp = lp_old) and
    nothing is clipped; the LoRA moves and the losses are finite."""
    cfg = tiny_trainer(GRPOGuardConfig, tmp_path, run_name="guard", num_eval_prompts=2)
    pipe = tiny_sd3_pipeline(0)
    history = train(cfg, pipe, {"redness": redness}, {"redness": 1.0}, TRAIN, VAL, {"max_sequence_length": 16})
    assert history["ratio_mean"][0] == pytest.approx(1.0, abs=1e-6) and history["clip_fraction"][0] == 0.0
    assert all(torch.isfinite(torch.tensor(history["loss"]))) and len(history["loss"]) == 2
    lora_b = [p for n, p in pipe.transformer.named_parameters() if "lora_B" in n]
    assert any(p.abs().sum() > 0 for p in lora_b)


def test_kill_and_resume_equals_an_uninterrupted_run(tmp_path, monkeypatch):
    """Two minibatches per step (the second off-policy, so the guard's reweighted ratio is not 1)
    and a KL to the base: killed after step 2's checkpoint and resumed to step 3, the LoRA and the
    history equal the uninterrupted run's."""
    from dataclasses import replace

    from training.diffusion import loop
    from training.diffusion.checkpoint import list_checkpoints

    rewards, weights, family = {"redness": redness}, {"redness": 1.0}, {"max_sequence_length": 16}
    kw = dict(num_steps=3, batch_size=4, beta=0.01, num_eval_prompts=2)
    full_pipe = tiny_sd3_pipeline(0)
    full = train(tiny_trainer(GRPOGuardConfig, tmp_path / "a", **kw), full_pipe, rewards, weights, TRAIN, VAL, family)
    assert any(r != 1.0 for r in full["ratio_mean"])

    real_end_step = loop.end_step

    def killed_after_step_2(run, step, *args):
        real_end_step(run, step, *args)
        if step == 1:
            raise KeyboardInterrupt("killed")

    cfg_b = tiny_trainer(GRPOGuardConfig, tmp_path / "b", save_every=1, **kw)
    monkeypatch.setattr(loop, "end_step", killed_after_step_2)
    with pytest.raises(KeyboardInterrupt):
        train(cfg_b, tiny_sd3_pipeline(0), rewards, weights, TRAIN, VAL, family)
    monkeypatch.setattr(loop, "end_step", real_end_step)
    assert [p.name for p in list_checkpoints(tmp_path / "b" / "run")] == ["step_1", "step_2"]
    resumed_pipe = tiny_sd3_pipeline(0)
    resumed = train(replace(cfg_b, resume=True), resumed_pipe, rewards, weights, TRAIN, VAL, family)

    assert resumed["step"] == [0, 1, 2]
    for key in ("loss", "reward_mean", "ratio_mean"):
        assert resumed[key] == pytest.approx(full[key], abs=1e-9, rel=0), key
    lora = [
        [p.detach() for p in pipe.transformer.parameters() if p.requires_grad] for pipe in (resumed_pipe, full_pipe)
    ]
    for a, b in zip(*lora, strict=True):
        assert torch.allclose(a, b, atol=1e-6, rtol=0)
