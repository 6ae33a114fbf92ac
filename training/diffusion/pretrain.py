"""The tiny layout generator: a StableDiffusion3Pipeline pretrained here, on CPU, on the pages
of the layout task, so that rubric RL starts from a model that can draw.

``ensure_pretrained()`` returns the pipeline folder (``save_pretrained`` / ``from_pretrained``),
building it when it is missing or was built with other settings:

1. **Pages**: ``settings.pages`` pages of the layout task's *training* items
   (``make_layout_dataset(400, seed 0)``, the split ``data.task=layout`` trains on; the 40
   validation prompts are never drawn), drawn by :func:`training.procedural.layout_pages.render_layout_page`
   at ``settings.size`` px, each element as the prompt asks with probability ``settings.follow``.
2. **VAE**: the tiny SD3's ``AutoencoderKL`` class, one block (vae_scale_factor 1: latents are
   4 x H x W), trained to reconstruct the pages (MSE on the posterior mean, plus a small pull of
   the latents towards 0); ``shift_factor`` and ``scaling_factor`` are then set to the latents'
   mean and 1 / std, as the SD3 VAE's are.
3. **Transformer**: ``SD3Transformer2DModel`` (patch 4: 8 x 8 tokens at 32 px; ``settings.layers``
   joint layers of ``settings.heads`` heads of 16), trained by rectified-flow matching
   (Liu et al. 2022; SD3, Esser et al. 2024, eq. 1-3): x_s = (1 - s) x_0 + s e, target
   v = e - x_0, with s = shift t / (1 + (shift - 1) t), t ~ U(0, 1), the scheduler's shift
   3.0 (the sigmas it samples at). The prompt is dropped (the empty prompt's encoding) with
   probability ``settings.drop_prompt``, so classifier-free guidance works. The text encoders
   are the tiny SD3's random ones, frozen: a prompt is a fixed random code, which the
   transformer learns to read only in part.

The folder holds ``pretrain.json`` (the settings and their hash, the seconds each stage took, the
final losses); a folder whose hash differs is rebuilt. ``python -m training.diffusion.pretrain``
builds it and saves a grid of samples (``--grid``). Seeded: the same settings give the same
weights on the same torch build.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from filelock import FileLock

DEFAULT_DIR = Path("checkpoints/pretrained/tiny_layout_sd3")
"""Where ``ensure_pretrained`` builds the generator (relative to the working directory; git-ignored)."""


@dataclass(frozen=True)
class PretrainSettings:
    """Everything the generator is built from (its hash names the build)."""

    seed: int = 0
    size: int = 32  # page side, px
    follow: float = 0.5  # probability each prompted element is drawn as asked
    pages: int = 2400
    vae_steps: int = 250
    vae_lr: float = 3e-3
    steps: int = 800
    batch: int = 32
    lr: float = 2e-3
    ema: float = 0.99  # decay of the weights' moving average, which is what is saved
    layers: int = 2
    heads: int = 4  # of 16 dims
    patch: int = 4
    drop_prompt: float = 0.1
    max_sequence_length: int = 16
    version: int = 2  # bump when the code changes what a setting builds (2: three bars, gaps >= 1/8 of the page)

    def digest(self) -> str:
        """sha256 of the settings (JSON, sorted keys), first 12 hex digits."""
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:12]


def render_pages(settings: PretrainSettings) -> tuple[torch.Tensor, list[str]]:
    """(pages float32 (N, 3, size, size) in [-1, 1], their N prompts) of the training items."""
    from training.procedural.layout_data import make_layout_dataset
    from training.procedural.layout_pages import render_layout_page

    train_items, _ = make_layout_dataset(400, 0, val_fraction=0.1)
    rng = random.Random(settings.seed)
    pages, prompts = [], []
    for i in range(settings.pages):
        item = train_items[i % len(train_items)]
        image = render_layout_page(item, rng, settings.size, settings.follow)
        pages.append(np.asarray(image, dtype=np.float32) / 127.5 - 1.0)
        prompts.append(item.prompt)
    return torch.from_numpy(np.stack(pages)).permute(0, 3, 1, 2).contiguous(), prompts


def build_pipeline(settings: PretrainSettings):
    """The tiny SD3 (``rewards.models.tiny_pipelines.tiny_sd3_pipeline``) with a larger
    transformer and a one-block VAE without attention, both untrained (seeded)."""
    from diffusers import AutoencoderKL, SD3Transformer2DModel, StableDiffusion3Pipeline

    from rewards.models.tiny_pipelines import tiny_sd3_pipeline

    base = tiny_sd3_pipeline(settings.seed)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(settings.seed)
        transformer = SD3Transformer2DModel(
            sample_size=settings.size,
            patch_size=settings.patch,
            in_channels=4,
            num_layers=settings.layers,
            attention_head_dim=16,
            num_attention_heads=settings.heads,
            caption_projection_dim=16 * settings.heads,
            joint_attention_dim=32,  # T5 d_model = 2 x CLIP hidden 16
            pooled_projection_dim=32,
            out_channels=4,
            pos_embed_max_size=settings.size // settings.patch,
        )
        vae = AutoencoderKL(
            sample_size=settings.size,
            in_channels=3,
            out_channels=3,
            block_out_channels=(8,),
            layers_per_block=1,
            latent_channels=4,
            norm_num_groups=4,
            use_quant_conv=False,
            use_post_quant_conv=False,
            mid_block_add_attention=False,
        )
    pipe = StableDiffusion3Pipeline(**{**base.components, "transformer": transformer, "vae": vae})
    pipe.set_progress_bar_config(disable=True)
    return pipe


def train_vae(vae, pages: torch.Tensor, settings: PretrainSettings) -> float:
    """Fit the VAE to reconstruct ``pages`` (MSE of decode(posterior mean) + 1e-3 mean z^2);
    then set shift_factor = mean(z), scaling_factor = 1 / std(z). Returns the last MSE."""
    generator = torch.Generator().manual_seed(settings.seed)
    optimizer = torch.optim.Adam(vae.parameters(), lr=settings.vae_lr)
    vae.train()
    mse = float("nan")
    for _ in range(settings.vae_steps):
        batch = pages[torch.randint(len(pages), (16,), generator=generator)]
        z = vae.encode(batch).latent_dist.mean
        loss = torch.nn.functional.mse_loss(vae.decode(z).sample, batch)
        mse = loss.item()
        optimizer.zero_grad()
        (loss + 1e-3 * z.pow(2).mean()).backward()
        optimizer.step()
    vae.eval()
    with torch.no_grad():
        z = torch.cat([vae.encode(pages[i : i + 256]).latent_dist.mean for i in range(0, len(pages), 256)])
    vae.register_to_config(shift_factor=float(z.mean()), scaling_factor=float(1.0 / z.std()))
    return mse


@torch.no_grad()
def encode_prompts(pipe, prompts: list[str], max_sequence_length: int) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """prompt -> (embeds (L, 32), pooled (32,)) for every distinct prompt and the empty one."""
    from training.diffusion.rollout import _truncation_quiet

    distinct = sorted(set(prompts)) + [""]
    with _truncation_quiet():
        embeds, _, pooled, _ = pipe.encode_prompt(
            distinct, distinct, distinct, do_classifier_free_guidance=False, max_sequence_length=max_sequence_length
        )
    return {p: (embeds[i], pooled[i]) for i, p in enumerate(distinct)}


def train_transformer(pipe, latents: torch.Tensor, prompts: list[str], settings: PretrainSettings) -> float:
    """Rectified-flow matching of ``pipe.transformer`` on ``latents`` (N, 4, H, W) (scaled), AdamW
    with a one-cycle schedule; the transformer ends with the moving average of its weights
    (decay ``settings.ema``). Returns the mean loss of the last 50 steps."""
    codes = encode_prompts(pipe, prompts, settings.max_sequence_length)
    shift = pipe.scheduler.config.shift
    transformer = pipe.transformer
    generator = torch.Generator().manual_seed(settings.seed + 1)
    optimizer = torch.optim.AdamW(transformer.parameters(), lr=settings.lr, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, settings.lr, total_steps=settings.steps, pct_start=0.1)
    transformer.train()
    ema = [p.detach().clone() for p in transformer.parameters()]
    losses = []
    for _ in range(settings.steps):
        index = torch.randint(len(latents), (settings.batch,), generator=generator)
        x0 = latents[index]
        drop = torch.rand(settings.batch, generator=generator) < settings.drop_prompt
        chosen = ["" if d else prompts[i] for i, d in zip(index.tolist(), drop.tolist())]
        embeds = torch.stack([codes[p][0] for p in chosen])
        pooled = torch.stack([codes[p][1] for p in chosen])
        t = torch.rand(settings.batch, generator=generator)
        sigma = shift * t / (1 + (shift - 1) * t)
        noise = torch.randn(x0.shape, generator=generator)
        s = sigma.view(-1, 1, 1, 1)
        v = transformer(
            hidden_states=(1 - s) * x0 + s * noise,
            timestep=1000.0 * sigma,
            encoder_hidden_states=embeds,
            pooled_projections=pooled,
            return_dict=False,
        )[0]
        loss = torch.nn.functional.mse_loss(v, noise - x0)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(transformer.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        with torch.no_grad():
            for average, p in zip(ema, transformer.parameters()):
                average.lerp_(p, 1.0 - settings.ema)
        losses.append(loss.item())
    with torch.no_grad():
        for average, p in zip(ema, transformer.parameters()):
            p.copy_(average)
    transformer.eval()
    return float(np.mean(losses[-50:]))


def pretrain(settings: PretrainSettings, out: Path) -> dict:
    """Build the generator into ``out`` (a new folder): pages, VAE, transformer, save_pretrained.

    Returns the record written to ``out/pretrain.json``.
    """
    torch.manual_seed(settings.seed)
    t0 = time.perf_counter()
    pages, prompts = render_pages(settings)
    pipe = build_pipeline(settings)
    t1 = time.perf_counter()
    vae_mse = train_vae(pipe.vae, pages, settings)
    with torch.no_grad():
        vae = pipe.vae
        z = torch.cat([vae.encode(pages[i : i + 256]).latent_dist.mean for i in range(0, len(pages), 256)])
        latents = (z - vae.config.shift_factor) * vae.config.scaling_factor
    t2 = time.perf_counter()
    flow_loss = train_transformer(pipe, latents, prompts, settings)
    t3 = time.perf_counter()
    pipe.save_pretrained(out)
    record = {
        "settings": asdict(settings),
        "digest": settings.digest(),
        "seconds": {"pages": round(t1 - t0, 1), "vae": round(t2 - t1, 1), "transformer": round(t3 - t2, 1)},
        "vae_mse": round(vae_mse, 5),
        "flow_loss": round(flow_loss, 4),
        "torch": torch.__version__,
    }
    (out / "pretrain.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def ensure_pretrained(path: str | Path = DEFAULT_DIR, settings: PretrainSettings | None = None, quiet=False) -> Path:
    """The generator's folder at ``path``, built first (a few minutes on one CPU core) when it is
    missing or its ``pretrain.json`` records other settings. Built in a temporary folder beside
    it and renamed into place, so a half-built folder is never read. Processes that ask for the same
    folder at once (pytest-xdist workers, ranks of one machine) wait on a lock file beside it
    (``.NAME.lock``) and the first one builds it for all.

    Raises:
        OSError: ``path``'s parent cannot be written.
    """
    settings = settings or PretrainSettings()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(path.parent / f".{path.name}.lock"):
        return _build_unless_built(path, settings, quiet)


def _build_unless_built(path: Path, settings: PretrainSettings, quiet: bool) -> Path:
    record = path / "pretrain.json"
    weights = [
        path / "transformer" / "diffusion_pytorch_model.safetensors",
        path / "vae" / "diffusion_pytorch_model.safetensors",
    ]
    if record.is_file() and json.loads(record.read_text()).get("digest") == settings.digest():
        if all(w.is_file() for w in weights):
            return path
        print(f"{path}: weights missing; building it again", file=sys.stderr)  # a damaged cache
    if not quiet:
        print(
            f"building the tiny layout generator in {path} (settings {settings.digest()}; "
            "python -m training.diffusion.pretrain; a few minutes on one CPU core, once) ...",
            file=sys.stderr,
            flush=True,
        )
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with tempfile.TemporaryDirectory(dir=path.parent, prefix=f".{path.name}-") as tmp:
            done = pretrain(settings, Path(tmp) / "pipe")
            if path.exists():
                shutil.rmtree(path)
            (Path(tmp) / "pipe").rename(path)
    finally:
        torch.set_num_threads(threads)
    if not quiet:
        print(f"built in {sum(done['seconds'].values()):.0f} s: {path}", file=sys.stderr, flush=True)
    return path


def build_when_named(model_id: str) -> None:
    """Build the generator (``ensure_pretrained``) when ``model_id`` names :data:`DEFAULT_DIR`
    (``conf/model/tiny_sd3_layout.yaml``), so that the first ``rubricloop-train`` on it builds it;
    any other id is left alone."""
    if Path(model_id).resolve() == DEFAULT_DIR.resolve():
        ensure_pretrained(DEFAULT_DIR)


def load_pretrained(path: str | Path = DEFAULT_DIR, settings: PretrainSettings | None = None):
    """``StableDiffusion3Pipeline.from_pretrained`` of :func:`ensure_pretrained`, on CPU, float32."""
    from diffusers import StableDiffusion3Pipeline

    pipe = StableDiffusion3Pipeline.from_pretrained(ensure_pretrained(path, settings))
    pipe.set_progress_bar_config(disable=True)
    return pipe


def sample_grid(pipe, prompts: list[str], steps: int = 10, cfg_scale: float = 1.0, seed: int = 0, columns: int = 8):
    """A PIL grid of one sample per prompt (``pipe`` called as a user would), 2 px apart."""
    from PIL import Image

    from training.diffusion.rollout import _truncation_quiet

    generator = torch.Generator().manual_seed(seed)
    size = pipe.transformer.config.sample_size
    with _truncation_quiet():
        images = pipe(
            prompts,
            height=size,
            width=size,
            num_inference_steps=steps,
            guidance_scale=cfg_scale,
            max_sequence_length=16,
            generator=generator,
        ).images
    rows = (len(images) + columns - 1) // columns
    grid = Image.new("RGB", (columns * (size + 2), rows * (size + 2)), "black")
    for i, image in enumerate(images):
        grid.paste(image, ((i % columns) * (size + 2), (i // columns) * (size + 2)))
    return grid


def main(argv: list[str] | None = None) -> None:
    """``python -m training.diffusion.pretrain [--out DIR] [--grid PNG]``: build (if needed) and sample."""
    parser = argparse.ArgumentParser(description="Build the tiny layout generator (CPU, a few minutes, once).")
    parser.add_argument("--out", default=str(DEFAULT_DIR))
    parser.add_argument("--grid", default=None, help="save a grid of samples of the validation prompts here")
    parser.add_argument("--cfg-scale", type=float, default=1.0)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args(argv)
    pipe = load_pretrained(args.out)
    print(json.dumps(json.loads((Path(args.out) / "pretrain.json").read_text())))
    if args.grid:
        from training.procedural.layout_data import make_layout_dataset

        _, val_items = make_layout_dataset(400, 0, val_fraction=0.1)
        grid = sample_grid(pipe, [it.prompt for it in val_items], args.steps, args.cfg_scale)
        grid.resize((grid.width * 3, grid.height * 3), 0).save(args.grid)
        print(f"samples of the {len(val_items)} validation prompts: {args.grid}")


if __name__ == "__main__":
    main()
