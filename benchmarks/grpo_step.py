"""Seconds per GRPO step and peak memory: full trajectory vs timestep subset vs SDE window.

One GRPO step = SDE rollout of G images (T steps, no grad) + the update (policy forward and
backward on every trained step, plus the LoRA-disabled reference forward for the KL). Rewards
are random (speed and memory do not depend on them). Ratios are relative to the full trajectory.

    python benchmarks/grpo_step.py --scale tiny                       # CPU, tiny SD3, seconds
    python benchmarks/grpo_step.py --scale real --model sd35_medium   # GPU: real SD3.5-M transformer
    python benchmarks/grpo_step.py --scale real --model flux_dev      # GPU: real FLUX.1-dev transformer

``--scale real`` builds the transformer from ``training/model_configs/*.json`` with random
bf16 weights and random text embeddings of the real shapes (SD3.5-M: 333 x 4096 tokens + 2048
pooled; FLUX.1-dev: 512 x 4096 + 768 pooled), 512 px, G = 8, LoRA r = 32, T = 10 steps,
gradient checkpointing on. Not run here (needs a GPU with ~40+ GiB).
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path
from types import SimpleNamespace

import torch
from peft import LoraConfig

from training.grpo import lora_disabled
from training.grpo_math import clipped_policy_loss, step_kl
from training.rollout import FluxFamily, SD3Family, guided_velocity, sample, schedule_sigmas
from training.sde import sde_step

CONFIGS = Path(__file__).resolve().parent.parent / "training" / "model_configs"
REAL = {  # model -> (config file, family, text tokens, VAE scale factor)
    "sd35_medium": ("sd35_medium_transformer.json", SD3Family, 333, 8),
    "flux_dev": ("flux_dev_transformer.json", FluxFamily, 512, 8),
}


def build(scale: str, model: str, device: str):
    """Transformer with a LoRA, family adapter, and random conditioning for one group."""
    if scale == "tiny":
        from refine.tiny_pipelines import tiny_sd3_pipeline

        pipe = tiny_sd3_pipeline(0)
        transformer, family_cls, tokens, vae_scale, res, dtype, rank = pipe.transformer, SD3Family, 16, 1, 32, torch.float32, 4
    else:
        from diffusers import FluxPipeline, FluxTransformer2DModel, SD3Transformer2DModel

        name, family_cls, tokens, vae_scale = REAL[model]
        config = json.loads((CONFIGS / name).read_text())
        cls = SD3Transformer2DModel if family_cls is SD3Family else FluxTransformer2DModel
        transformer = cls.from_config(config).to(device, torch.bfloat16)
        res, dtype, rank = 512, torch.bfloat16, 32
        pipe = SimpleNamespace(transformer=transformer, vae_scale_factor=vae_scale, _prepare_latent_image_ids=FluxPipeline._prepare_latent_image_ids, scheduler=None)
    transformer.requires_grad_(False)
    transformer.add_adapter(LoraConfig(r=rank, lora_alpha=rank, init_lora_weights="gaussian", target_modules=["to_q", "to_k", "to_v", "to_out.0"]))
    for p in transformer.parameters():
        if p.requires_grad:
            p.data = p.data.float()
    if scale == "real":
        transformer.enable_gradient_checkpointing()
    family = family_cls(pipe, res, res) if family_cls is SD3Family else family_cls(pipe, res, res, guidance=3.5)
    c = transformer.config
    return transformer, family, tokens, c.joint_attention_dim, c.pooled_projection_dim, dtype


def grpo_step(transformer, family, cond, sigmas, sde_steps, train_steps, batch: int, dtype, device) -> float:
    """One timed GRPO step; returns its loss (so the work cannot be skipped)."""
    autocast = lambda: torch.autocast(device_type=device, dtype=dtype, enabled=dtype != torch.float32)  # noqa: E731
    r = sample(family, transformer, cond, sigmas, sde_steps, 0.7, torch.Generator().manual_seed(0), autocast=autocast)
    advantages = torch.randn(r.final.shape[0], device=device)
    optimizer = torch.optim.SGD([p for p in transformer.parameters() if p.requires_grad], lr=0.0)
    total = 0.0
    for start in range(0, r.final.shape[0], batch):
        idx = slice(start, start + batch)
        mb = {k: v[idx] for k, v in cond.items()}
        for t in train_steps:
            j = sde_steps.index(t)
            s, s_next = sigmas[t].item(), sigmas[t + 1].item()
            x = r.latents[idx, j]
            with autocast():
                v = guided_velocity(family, transformer, x.to(dtype), s, mb, None, 1.0)
            _, logp, mean, std = sde_step(v, x, s, s_next, 0.7, next_sample=r.next_latents[idx, j])
            with torch.no_grad(), lora_disabled(transformer), autocast():
                v_ref = guided_velocity(family, transformer, x.to(dtype), s, mb, None, 1.0)
            _, _, ref_mean, _ = sde_step(v_ref, x, s, s_next, 0.7, next_sample=r.next_latents[idx, j])
            loss = clipped_policy_loss(logp, r.log_probs[idx, j], advantages[idx], 1e-4)[0] + 0.04 * step_kl(mean, ref_mean, std).mean()
            loss.backward()
            total += loss.item()
    optimizer.step()
    optimizer.zero_grad()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=["tiny", "real"], default="tiny")
    parser.add_argument("--model", choices=sorted(REAL), default="sd35_medium")
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=4, help="images per update minibatch")
    parser.add_argument("--steps", type=int, default=10, help="T, sampling steps")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    device = "cuda" if args.scale == "real" else "cpu"
    transformer, family, tokens, text_dim, pooled_dim, dtype = build(args.scale, args.model, device)
    g = torch.Generator().manual_seed(0)
    cond = {
        "encoder_hidden_states": torch.randn(args.group_size, tokens, text_dim, generator=g).to(device, dtype),
        "pooled_projections": torch.randn(args.group_size, pooled_dim, generator=g).to(device, dtype),
    }
    from diffusers import FlowMatchEulerDiscreteScheduler

    scheduler = FlowMatchEulerDiscreteScheduler(shift=3.0)
    sigmas = schedule_sigmas(scheduler, args.steps, family.image_seq_len())
    T = args.steps
    modes = {
        "full trajectory": (list(range(T)), list(range(T))),
        "timestep subset (50%)": (list(range(T)), list(range(0, T, 2))),
        "SDE window (2 steps)": ([2, 3], [2, 3]),
    }
    print(f"scale={args.scale} model={args.model if args.scale == 'real' else 'tiny_sd3'} G={args.group_size} T={T} device={device}")
    results = {}
    for name, (sde_steps, train_steps) in modes.items():
        grpo_step(transformer, family, cond, sigmas, sde_steps, train_steps, args.batch_size, dtype, device)  # warm-up
        if device == "cuda":
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        for _ in range(args.repeats):
            grpo_step(transformer, family, cond, sigmas, sde_steps, train_steps, args.batch_size, dtype, device)
        if device == "cuda":
            torch.cuda.synchronize()
        seconds = (time.perf_counter() - t0) / args.repeats
        peak = torch.cuda.max_memory_allocated() / 2**30 if device == "cuda" else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        results[name] = (seconds, peak)
    base_s, base_m = results["full trajectory"]
    mem = "peak GiB (CUDA)" if device == "cuda" else "peak RSS GiB (process, cumulative)"
    print(f"{'mode':<24}{'s/step':>10}{'x full':>9}{mem:>38}{'x full':>9}")
    for name, (s, m) in results.items():
        print(f"{name:<24}{s:>10.3f}{s / base_s:>9.2f}{m:>38.3f}{m / base_m:>9.2f}")


if __name__ == "__main__":
    main()
