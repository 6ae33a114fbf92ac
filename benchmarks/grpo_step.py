"""Seconds per GRPO step and peak memory: full trajectory vs timestep subset vs SDE window.

One GRPO step = SDE rollout of G images (T steps, no grad) + the update of every minibatch by
``training.diffusion.update.update_minibatch`` (the trainer's own function: policy forward and backward on
every trained step, plus the LoRA-disabled reference forward for the KL) + one AdamW step.
Rewards are random (speed and memory do not depend on them). CFG, its scale, FLUX guidance and
the LoRA target modules come from the model preset (``conf/model/<preset>.yaml``): SD3.5-M
samples with CFG at scale 4.5 (two forward passes per step), FLUX.1-dev is guidance-distilled
(no CFG). Ratios are relative to the full trajectory.

    python benchmarks/grpo_step.py --scale tiny                       # CPU, tiny SD3 (preset tiny_sd3)
    python benchmarks/grpo_step.py --scale real --model sd35_medium   # GPU: real SD3.5-M transformer
    python benchmarks/grpo_step.py --scale real --model flux_dev      # GPU: real FLUX.1-dev transformer

``--scale real`` builds the transformer from ``training/diffusion/model_configs/*.json`` with random
bf16 weights and random text embeddings of the real shapes (SD3.5-M: 333 x 4096 tokens + 2048
pooled; FLUX.1-dev: 512 x 4096 + 768 pooled), 512 px, G = 8, LoRA r = 32, T = 10 steps,
gradient checkpointing on. Needs a GPU with ~40+ GiB.

Each mode runs in a fresh subprocess, so its peak memory is its own: on CUDA
``torch.cuda.max_memory_allocated`` over the timed steps (after a warm-up step and
``reset_peak_memory_stats``); on CPU the process's peak RSS (``ru_maxrss``, which includes the
imports and the model, so only differences between modes mean much).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import torch
from accelerate import Accelerator
from omegaconf import OmegaConf
from peft import LoraConfig

from training.diffusion.rollout import FluxFamily, SD3Family, schedule_sigmas
from training.diffusion.timesteps import subset_steps
from training.diffusion.update import Minibatch, Policy, minibatch_plan, update_minibatch

ROOT = Path(__file__).resolve().parent.parent
REAL = {  # model -> (config file, family, text tokens, VAE scale factor)
    "sd35_medium": ("sd35_medium_transformer.json", SD3Family, 333, 8),
    "flux_dev": ("flux_dev_transformer.json", FluxFamily, 512, 8),
}
MODES = {  # key -> (label, T -> (SDE steps, trained steps))
    "full": ("full trajectory", lambda T: (list(range(T)), list(range(T)))),
    "subset": ("timestep subset (50%)", lambda T: (list(range(T)), subset_steps(T, 0.5))),
    "window": ("SDE window (2 steps)", lambda T: ([2, 3], [2, 3])),
}


def build(scale: str, model: str, device: str, group_size: int, accelerator: Accelerator) -> tuple[Policy, dict]:
    """The LoRA policy (CFG, guidance and LoRA targets from the model preset) and random
    conditioning for one group (each tensor (G, ...))."""
    preset = OmegaConf.load(ROOT / "conf" / "model" / f"{'tiny_sd3' if scale == 'tiny' else model}.yaml")
    if scale == "tiny":
        from rewards.models.tiny_pipelines import tiny_sd3_pipeline

        pipe = tiny_sd3_pipeline(0)
        transformer, family_cls, tokens, res, dtype, rank = pipe.transformer, SD3Family, 16, 32, torch.float32, 4
    else:
        from diffusers import FluxPipeline, FluxTransformer2DModel, SD3Transformer2DModel

        name, family_cls, tokens, vae_scale = REAL[model]
        config = json.loads((ROOT / "training" / "diffusion" / "model_configs" / name).read_text())
        cls = SD3Transformer2DModel if family_cls is SD3Family else FluxTransformer2DModel
        with torch.device(device):  # random init on the GPU: fast, and no 48 GB fp32 copy in host RAM
            transformer = cls.from_config(config).to(torch.bfloat16)
        res, dtype, rank = 512, torch.bfloat16, 32
        pipe = SimpleNamespace(
            transformer=transformer,
            vae_scale_factor=vae_scale,
            _prepare_latent_image_ids=FluxPipeline._prepare_latent_image_ids,
        )
    transformer.requires_grad_(False)
    transformer.add_adapter(
        LoraConfig(
            r=rank, lora_alpha=rank, init_lora_weights="gaussian", target_modules=list(preset.lora_target_modules)
        )
    )
    for p in transformer.parameters():
        if p.requires_grad:
            p.data = p.data.float()
    if scale == "real":
        transformer.enable_gradient_checkpointing()
    guidance = preset.family_kwargs.get("guidance")
    family = family_cls(pipe, res, res) if guidance is None else family_cls(pipe, res, res, guidance=guidance)
    c = transformer.config
    g = torch.Generator().manual_seed(0)

    def random_cond(n: int) -> dict:
        return {
            "encoder_hidden_states": torch.randn(n, tokens, c.joint_attention_dim, generator=g).to(device, dtype),
            "pooled_projections": torch.randn(n, c.pooled_projection_dim, generator=g).to(device, dtype),
        }

    cond = random_cond(group_size)
    uncond = random_cond(1) if preset.cfg else None
    policy = Policy(
        family, transformer, transformer, dtype, device, uncond, float(preset.cfg_scale), 0.7, accelerator.autocast
    )
    return policy, cond


def grpo_step(
    policy: Policy,
    accelerator: Accelerator,
    optimizer,
    cond: dict,
    sigmas,
    sde_steps: list[int],
    train_steps: list[int],
    batch: int,
) -> float:
    """One GRPO step as the trainer runs it; returns its summed loss (so no work is skipped)."""
    r = policy.rollout(cond, sigmas, sde_steps, torch.Generator().manual_seed(0))
    group = r.final.shape[0]
    advantages = torch.randn(group, generator=torch.Generator().manual_seed(1)).to(r.final.device)  # (G,)
    keep_idx = [sde_steps.index(t) for t in train_steps]
    plan = minibatch_plan(torch.arange(group, device=r.final.device), [group], batch)
    total = 0.0
    for idx, weight in plan:
        mb = Minibatch(
            r.latents[idx][:, keep_idx],
            r.next_latents[idx][:, keep_idx],
            r.log_probs[idx][:, keep_idx],
            advantages[idx],
            {k: v[idx] for k, v in cond.items()},
            torch.tensor(train_steps).expand(len(idx), -1),
            weight,
        )
        stats = update_minibatch(
            mb, policy, accelerator=accelerator, sigmas=sigmas, clip_range=1e-4, beta=0.04, grad_accum=len(plan)
        )
        total += sum(stats["loss"])
    optimizer.step()
    optimizer.zero_grad()
    return total


def run_mode(args: argparse.Namespace) -> dict:
    """Time ``args.mode`` in this process: one warm-up step, then ``args.repeats`` timed steps."""
    device = "cuda" if args.scale == "real" else "cpu"
    accelerator = Accelerator(cpu=device == "cpu", mixed_precision="no" if args.scale == "tiny" else "bf16")
    policy, cond = build(args.scale, args.model, device, args.group_size, accelerator)
    optimizer = torch.optim.AdamW([p for p in policy.model.parameters() if p.requires_grad], lr=1e-6)
    from diffusers import FlowMatchEulerDiscreteScheduler

    sigmas = schedule_sigmas(FlowMatchEulerDiscreteScheduler(shift=3.0), args.steps, policy.family.image_seq_len())
    sde_steps, train_steps = MODES[args.mode][1](args.steps)
    step = lambda: grpo_step(policy, accelerator, optimizer, cond, sigmas, sde_steps, train_steps, args.batch_size)  # noqa: E731
    step()  # warm-up
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    for _ in range(args.repeats):
        step()
    if device == "cuda":
        torch.cuda.synchronize()
    seconds = (time.perf_counter() - t0) / args.repeats
    peak = (
        torch.cuda.max_memory_allocated() / 2**30
        if device == "cuda"
        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    )
    return {"mode": args.mode, "s_per_step": seconds, "peak_gib": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["tiny", "real"], default="tiny")
    parser.add_argument("--model", choices=sorted(REAL), default="sd35_medium")
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=4, help="images per update minibatch")
    parser.add_argument("--steps", type=int, default=10, help="T, sampling steps")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--mode", choices=sorted(MODES), help="internal: run one mode in this process, print JSON")
    args = parser.parse_args()
    if args.mode is not None:
        print(json.dumps(run_mode(args)))
        return
    model = args.model if args.scale == "real" else "tiny_sd3"
    print(
        f"scale={args.scale} model={model} G={args.group_size} b={args.batch_size} T={args.steps} "
        f"device={'cuda' if args.scale == 'real' else 'cpu'}"
    )
    results = {}
    for key, (label, _) in MODES.items():  # a fresh process per mode: peak memory is that mode's alone
        proc = subprocess.run([sys.executable, __file__, *sys.argv[1:], "--mode", key], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(
                f"grpo_step: mode {key!r} failed (exit {proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}"
            )
        results[label] = json.loads(proc.stdout.strip().splitlines()[-1])
    base = results["full trajectory"]
    mem = "peak GiB (CUDA allocated)" if args.scale == "real" else "peak RSS GiB (own process)"
    print(f"{'mode':<24}{'s/step':>10}{'x full':>9}{mem:>30}{'x full':>9}")
    for name, r in results.items():
        print(
            f"{name:<24}{r['s_per_step']:>10.3f}{r['s_per_step'] / base['s_per_step']:>9.2f}"
            f"{r['peak_gib']:>30.3f}{r['peak_gib'] / base['peak_gib']:>9.2f}"
        )


if __name__ == "__main__":
    main()
