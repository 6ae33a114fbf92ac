"""Tiny random-weight diffusers pipelines, built in memory (no model hub).

The tiny Qwen2.5-VL (judge, writer, Qwen-Image text encoder) lives in ``rewards.models.tiny_vlm``, the
bottom layer, so that rewards never imports refine.

Every builder is deterministic for a ``seed`` (weights are drawn inside ``torch.random.fork_rng``
so the caller's global RNG is untouched) and returns a pipeline on CPU in float32. The
tokenizers are built from in-memory vocabularies (byte- or character-level, no merges), so text
is tokenized one byte (or character) per token. Recipes and measured sizes: shared/notes/offline-models.md.

These exist for tests and CPU smoke runs of the real code paths (refine editors, generators,
GRPO training); the outputs are noise-like images. Real users load real checkpoints with
``<Pipeline>.from_pretrained(model_id)``.
"""

from __future__ import annotations

import torch
from diffusers import (
    AutoencoderDC,
    AutoencoderKL,
    AutoencoderKLQwenImage,
    EulerAncestralDiscreteScheduler,
    FlowMatchEulerDiscreteScheduler,
    FluxKontextPipeline,
    FluxPipeline,
    FluxTransformer2DModel,
    QwenImageEditPipeline,
    QwenImagePipeline,
    QwenImageTransformer2DModel,
    SanaPipeline,
    SanaTransformer2DModel,
    SD3Transformer2DModel,
    StableDiffusion3Pipeline,
    StableDiffusionInstructPix2PixPipeline,
    UNet2DConditionModel,
)
from tokenizers.pre_tokenizers import ByteLevel
from transformers import (
    CLIPTextConfig,
    CLIPTextModel,
    CLIPTextModelWithProjection,
    CLIPTokenizer,
    Gemma2Config,
    Gemma2Model,
    GemmaTokenizer,
    T5Config,
    T5EncoderModel,
    T5Tokenizer,
)

from rewards.models.tiny_vlm import tiny_qwen2_5_vl

CLIP_MAX_LENGTH = 77
"""CLIP's context length; the pipelines pad the CLIP prompt to this many tokens."""


# ---------------------------------------------------------------------------------------------
# Tokenizers (in-memory vocabularies)
# ---------------------------------------------------------------------------------------------


def tiny_clip_tokenizer() -> CLIPTokenizer:
    """CLIP tokenizer over the 256-symbol byte-level alphabet, each symbol also with ``</w>``,
    plus ``<|startoftext|>``/``<|endoftext|>``: 514 tokens, no merges (one token per byte).

    ``model_max_length`` is 77 as in real CLIP; without it max-length padding overflows.
    """
    alphabet = sorted(ByteLevel.alphabet())
    pieces = alphabet + [symbol + "</w>" for symbol in alphabet] + ["<|startoftext|>", "<|endoftext|>"]
    vocab = {piece: index for index, piece in enumerate(pieces)}
    return CLIPTokenizer(vocab=vocab, merges=[], model_max_length=CLIP_MAX_LENGTH)


def tiny_t5_tokenizer() -> T5Tokenizer:
    """T5 Unigram tokenizer: ``<pad>``=0, ``</s>``=1, ``<unk>``=2, ``▁``, then printable ASCII
    characters (99 pieces, no sentinel ``<extra_id_*>`` tokens)."""
    characters = [chr(code) for code in range(33, 127)]
    vocab = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0), ("▁", -2.0)]
    vocab += [(character, -3.0) for character in characters]
    vocab += [("▁" + character, -2.5) for character in characters if character.isalnum()]
    return T5Tokenizer(vocab=vocab, extra_ids=0)


def tiny_gemma_tokenizer() -> GemmaTokenizer:
    """Gemma tokenizer: ``<pad>``=0, ``<eos>``=1, ``<bos>``=2, ``<unk>``=3, ``<mask>``=4, ``▁``,
    printable ASCII, and the 256 byte-fallback tokens ``<0x00>``..``<0xFF>`` (355 tokens, no merges)."""
    pieces = ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>", "▁"]
    pieces += [chr(code) for code in range(33, 127)]
    pieces += [f"<0x{byte:02X}>" for byte in range(256)]
    vocab = {piece: index for index, piece in enumerate(pieces)}
    # Sana prepends a long "complex human instruction" (~1,000 characters) to each prompt.
    return GemmaTokenizer(vocab=vocab, merges=[], model_max_length=4096)


# ---------------------------------------------------------------------------------------------
# Text encoders and VAE
# ---------------------------------------------------------------------------------------------


def _clip_config(tokenizer: CLIPTokenizer, hidden_size: int, projection_dim: int) -> CLIPTextConfig:
    return CLIPTextConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=37,
        num_attention_heads=4,
        num_hidden_layers=2,
        max_position_embeddings=CLIP_MAX_LENGTH,
        projection_dim=projection_dim,
        hidden_act="gelu",
        layer_norm_eps=1e-5,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )


def _t5_encoder(tokenizer: T5Tokenizer, d_model: int) -> T5EncoderModel:
    config = T5Config(
        vocab_size=len(tokenizer),
        d_model=d_model,
        d_kv=8,
        d_ff=37,
        num_layers=2,
        num_heads=4,
        relative_attention_num_buckets=8,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id,
    )
    return T5EncoderModel(config)


def _tiny_vae(latent_channels: int) -> AutoencoderKL:
    # One block: vae_scale_factor = 2 ** (len(block_out_channels) - 1) = 1, so latents are H x W.
    return AutoencoderKL(
        sample_size=32,
        in_channels=3,
        out_channels=3,
        block_out_channels=(4,),
        layers_per_block=1,
        latent_channels=latent_channels,
        norm_num_groups=1,
        use_quant_conv=False,
        use_post_quant_conv=False,
        shift_factor=0.0609,
        scaling_factor=1.5035,
    )


def _finish(pipe):
    pipe.to("cpu")  # the components are built in float32; casting again only warns
    pipe.set_progress_bar_config(disable=True)
    for component in pipe.components.values():
        if isinstance(component, torch.nn.Module):
            component.eval()
    return pipe


# ---------------------------------------------------------------------------------------------
# Text-to-image pipelines
# ---------------------------------------------------------------------------------------------


def tiny_sd3_pipeline(seed: int = 0) -> StableDiffusion3Pipeline:
    """A StableDiffusion3Pipeline with random weights (89 k parameters in all).

    Transformer: SD3Transformer2DModel, patch_size=1, 1 joint layer, 4 heads of dim 8
    (inner dim 32), joint_attention_dim=32 (= T5 d_model = 2 x CLIP hidden 16),
    pooled_projection_dim=32 (= 2 x CLIP projection 16); 4 latent channels.
    Text encoders: two CLIPTextModelWithProjection (hidden 16) and a T5EncoderModel (d_model 32),
    byte-level in-memory tokenizers. VAE: AutoencoderKL with one 4-channel block
    (vae_scale_factor 1). Scheduler: FlowMatchEulerDiscreteScheduler (shift 3.0 as SD3.5).

    Works at any height/width multiple of 8 (tested at 32x32 and 64x64); 2 steps at 32x32 take
    ~0.04 s on CPU (after the first call). Pass ``max_sequence_length`` <= 77 to keep T5 short.
    Deterministic for ``seed``; returned on CPU in float32.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        transformer = SD3Transformer2DModel(
            sample_size=32,
            patch_size=1,
            in_channels=4,
            num_layers=1,
            attention_head_dim=8,
            num_attention_heads=4,
            caption_projection_dim=32,
            joint_attention_dim=32,
            pooled_projection_dim=32,
            out_channels=4,
        )
        tokenizer, tokenizer_2, tokenizer_3 = tiny_clip_tokenizer(), tiny_clip_tokenizer(), tiny_t5_tokenizer()
        text_encoder = CLIPTextModelWithProjection(_clip_config(tokenizer, hidden_size=16, projection_dim=16))
        text_encoder_2 = CLIPTextModelWithProjection(_clip_config(tokenizer_2, hidden_size=16, projection_dim=16))
        text_encoder_3 = _t5_encoder(tokenizer_3, d_model=32)
        vae = _tiny_vae(latent_channels=4)
    pipe = StableDiffusion3Pipeline(
        transformer=transformer,
        scheduler=FlowMatchEulerDiscreteScheduler(shift=3.0),
        vae=vae,
        text_encoder=text_encoder,
        tokenizer=tokenizer,
        text_encoder_2=text_encoder_2,
        tokenizer_2=tokenizer_2,
        text_encoder_3=text_encoder_3,
        tokenizer_3=tokenizer_3,
    )
    return _finish(pipe)


def _flux_parts(seed: int, guidance_embeds: bool) -> dict:
    """Components shared by the FLUX and FLUX-Kontext builders."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        transformer = FluxTransformer2DModel(
            patch_size=1,
            in_channels=4,  # 1 latent channel packed 2x2
            num_layers=1,
            num_single_layers=1,
            attention_head_dim=16,
            num_attention_heads=2,
            joint_attention_dim=32,
            pooled_projection_dim=32,
            guidance_embeds=guidance_embeds,
            axes_dims_rope=[4, 4, 8],
        )
        tokenizer, tokenizer_2 = tiny_clip_tokenizer(), tiny_t5_tokenizer()
        text_encoder = CLIPTextModel(_clip_config(tokenizer, hidden_size=32, projection_dim=32))
        text_encoder_2 = _t5_encoder(tokenizer_2, d_model=32)
        vae = _tiny_vae(latent_channels=1)
    return dict(
        transformer=transformer,
        scheduler=FlowMatchEulerDiscreteScheduler(
            use_dynamic_shifting=True, base_shift=0.5, max_shift=1.15, base_image_seq_len=256, max_image_seq_len=4096
        ),
        vae=vae,
        text_encoder=text_encoder,
        tokenizer=tokenizer,
        text_encoder_2=text_encoder_2,
        tokenizer_2=tokenizer_2,
    )


def tiny_flux_pipeline(seed: int = 0) -> FluxPipeline:
    """A FluxPipeline with random weights (131 k parameters in all).

    Transformer: FluxTransformer2DModel, patch_size=1, 1 double + 1 single block, 2 heads of 16,
    joint_attention_dim=32 (= T5 d_model), pooled_projection_dim=32 (= CLIP hidden),
    axes_dims_rope=[4, 4, 8], guidance_embeds=True (as FLUX.1-dev, so ``guidance_scale`` is
    used). Text encoders: CLIPTextModel (hidden 32) + T5EncoderModel (d_model 32), in-memory
    tokenizers. VAE: AutoencoderKL, one block, 1 latent channel (packed 2x2 into 4 tokens
    channels). Scheduler: FlowMatchEulerDiscreteScheduler with dynamic shifting as FLUX.1.

    Height and width must be multiples of 2 (vae_scale_factor 1, 2x2 packing); tested at
    32x32 and 64x64; 2 steps at 32x32 take ~0.02 s on CPU (after the first call). Pass
    ``max_sequence_length`` <= 77 to keep T5 short. Deterministic for ``seed``; CPU, float32.
    """
    return _finish(FluxPipeline(**_flux_parts(seed, guidance_embeds=True)))


def tiny_flux_kontext_pipeline(seed: int = 0) -> FluxKontextPipeline:
    """A FluxKontextPipeline (instruction image editing) with random weights (131 k parameters).

    The same components as ``tiny_flux_pipeline`` (guidance_embeds=True as FLUX.1-Kontext-dev).
    Kontext resizes the input image to a preferred ~1 MP resolution by default; at tiny sizes
    call it with ``_auto_resize=False`` and ``max_area=height*width`` (e.g. 32*32): 2 steps at
    32x32 take ~0.03 s on CPU. Height and width must be multiples of 2.
    Deterministic for ``seed``; CPU, float32.
    """
    return _finish(FluxKontextPipeline(**_flux_parts(seed, guidance_embeds=True)))


def _qwen_image_parts(seed: int) -> dict:
    """Transformer, VAE, text encoder and tokenizer shared by QwenImage and QwenImageEdit."""
    text_encoder, processor = tiny_qwen2_5_vl(seed)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        transformer = QwenImageTransformer2DModel(
            patch_size=2,
            in_channels=16,  # 4 latent channels packed 2x2
            out_channels=4,
            num_layers=2,
            attention_head_dim=16,
            num_attention_heads=3,
            joint_attention_dim=16,  # = Qwen2.5-VL text hidden size
            guidance_embeds=False,
            axes_dims_rope=(8, 4, 4),
        )
        # 4 channels at every level keep CPU conv3d cheap: QwenImageEdit always encodes its
        # input at ~1 MP, which is the bulk of a tiny edit's time.
        z_dim = 4
        vae = AutoencoderKLQwenImage(
            base_dim=4,
            z_dim=z_dim,
            dim_mult=[1, 1, 1, 1],
            num_res_blocks=0,  # the encoder then has no full-resolution res block (5x faster at 1 MP)
            temperal_downsample=[False, True, True],  # 3 spatial downsamples: vae_scale_factor 8
            latents_mean=[0.0] * z_dim,
            latents_std=[1.0] * z_dim,
        )
    return dict(
        transformer=transformer,
        vae=vae,
        scheduler=FlowMatchEulerDiscreteScheduler(
            use_dynamic_shifting=True, base_shift=0.5, max_shift=0.9, base_image_seq_len=256, max_image_seq_len=8192
        ),
        text_encoder=text_encoder,
        tokenizer=processor.tokenizer,
        processor=processor,
    )


def tiny_qwen_image_pipeline(seed: int = 0) -> QwenImagePipeline:
    """A QwenImagePipeline with random weights (241 k parameters in all).

    Transformer: QwenImageTransformer2DModel, patch_size=2, 2 layers, 3 heads of 16,
    joint_attention_dim=16, axes_dims_rope=(8, 4, 4). Text encoder: ``tiny_qwen2_5_vl`` (its
    byte-level tokenizer makes the prompt template longer than the real 34 dropped tokens, which
    the pipeline tolerates). VAE: AutoencoderKLQwenImage, z_dim 4, 4 levels of 4 channels, no encoder res blocks
    (vae_scale_factor 8, as the real one).
    Scheduler: FlowMatchEulerDiscreteScheduler with dynamic shifting.

    Height and width must be multiples of 16 (= 2 x vae_scale_factor); tested at 32x32 and
    64x64. Deterministic for ``seed``; CPU, float32.
    """
    parts = _qwen_image_parts(seed)
    del parts["processor"]
    return _finish(QwenImagePipeline(**parts))


def tiny_qwen_image_edit_pipeline(seed: int = 0) -> QwenImageEditPipeline:
    """A QwenImageEditPipeline with random weights (the ``tiny_qwen_image_pipeline`` components
    plus the tiny Qwen2.5-VL processor, which sees the input image).

    The pipeline always resizes the input image to ~1 MP (1024x1024 for a square) before the
    VAE and the VLM; output ``height``/``width`` may be small (multiples of 16). One 2-step edit
    takes ~0.8 s on 2 idle CPU cores, most of it the VAE encoding the 1 MP input (CPU conv3d).
    Deterministic for ``seed``; CPU, float32.
    """
    return _finish(QwenImageEditPipeline(**_qwen_image_parts(seed)))


def tiny_sana_pipeline(seed: int = 0) -> SanaPipeline:
    """A SanaPipeline with random weights (19 k parameters in all).

    Transformer: SanaTransformer2DModel, patch_size=1, 1 layer, 2 heads of 4 (linear attention),
    2 cross-attention heads of 4, caption_channels=8 (= Gemma2 hidden). Text encoder: Gemma2Model
    (1 layer, hidden 8) with ``tiny_gemma_tokenizer``. VAE: AutoencoderDC, 2 blocks of 8 channels,
    4 latent channels (spatial compression 2). Scheduler: FlowMatchEulerDiscreteScheduler
    (shift 3.0; the real checkpoints ship a flow DPM-Solver, which GRPO does not use).

    Call with ``use_resolution_binning=False`` at tiny sizes (binning snaps to the 1024 px
    aspect-ratio table); height and width must be multiples of 2; tested at 32x32 and 64x64.
    Deterministic for ``seed``; CPU, float32.
    """
    tokenizer = tiny_gemma_tokenizer()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        transformer = SanaTransformer2DModel(
            patch_size=1,
            in_channels=4,
            out_channels=4,
            num_layers=1,
            num_attention_heads=2,
            attention_head_dim=4,
            num_cross_attention_heads=2,
            cross_attention_head_dim=4,
            cross_attention_dim=8,
            caption_channels=8,
            sample_size=32,
        )
        vae = AutoencoderDC(
            in_channels=3,
            latent_channels=4,
            attention_head_dim=2,
            encoder_block_types=("ResBlock", "EfficientViTBlock"),
            decoder_block_types=("ResBlock", "EfficientViTBlock"),
            encoder_block_out_channels=(8, 8),
            decoder_block_out_channels=(8, 8),
            encoder_qkv_multiscales=((), (5,)),
            decoder_qkv_multiscales=((), (5,)),
            encoder_layers_per_block=(1, 1),
            decoder_layers_per_block=(1, 1),
            downsample_block_type="conv",
            upsample_block_type="interpolate",
            decoder_norm_types="rms_norm",
            decoder_act_fns="silu",
            scaling_factor=0.41407,
        )
        text_encoder = Gemma2Model(
            Gemma2Config(
                vocab_size=len(tokenizer),
                hidden_size=8,
                intermediate_size=64,
                head_dim=16,
                num_attention_heads=2,
                num_key_value_heads=2,
                num_hidden_layers=1,
                max_position_embeddings=8192,
                pad_token_id=tokenizer.pad_token_id,
                bos_token_id=tokenizer.bos_token_id,
                eos_token_id=tokenizer.eos_token_id,
            )
        )
    pipe = SanaPipeline(
        tokenizer=tokenizer,
        text_encoder=text_encoder,
        vae=vae,
        transformer=transformer,
        scheduler=FlowMatchEulerDiscreteScheduler(shift=3.0),
    )
    return _finish(pipe)


def tiny_instruct_pix2pix_pipeline(seed: int = 0) -> StableDiffusionInstructPix2PixPipeline:
    """A StableDiffusionInstructPix2PixPipeline with random weights (123 k parameters in all).

    UNet2DConditionModel with 8 input channels (4 noisy + 4 image latents), blocks (8, 16),
    cross_attention_dim=16 (= CLIP hidden); CLIPTextModel (hidden 16) with ``tiny_clip_tokenizer``;
    AutoencoderKL with blocks (8, 16) (vae_scale_factor 2); EulerAncestralDiscreteScheduler as
    timbrooks/instruct-pix2pix. No safety checker. The output has the input image's size, which
    must be a multiple of 4 (vae_scale_factor 2, then one UNet downsample); tested at 32x32,
    36x36 and 64x64; 2 steps at 32x32 take ~0.04 s on CPU.
    Deterministic for ``seed``; CPU, float32.
    """
    tokenizer = tiny_clip_tokenizer()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        unet = UNet2DConditionModel(
            block_out_channels=(8, 16),
            layers_per_block=1,
            norm_num_groups=4,
            sample_size=16,
            in_channels=8,
            out_channels=4,
            down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
            up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"),
            cross_attention_dim=16,
            attention_head_dim=4,
        )
        vae = AutoencoderKL(
            block_out_channels=(8, 16),
            in_channels=3,
            out_channels=3,
            down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
            up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"),
            latent_channels=4,
            norm_num_groups=4,
            sample_size=32,
        )
        text_encoder = CLIPTextModel(_clip_config(tokenizer, hidden_size=16, projection_dim=16))
    pipe = StableDiffusionInstructPix2PixPipeline(
        vae=vae,
        text_encoder=text_encoder,
        tokenizer=tokenizer,
        unet=unet,
        scheduler=EulerAncestralDiscreteScheduler(
            beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear", num_train_timesteps=1000
        ),
        safety_checker=None,
        feature_extractor=None,
        requires_safety_checker=False,
    )
    return _finish(pipe)
