"""diffusers pipelines built from tiny random-weight configs, saved to a local folder.

No hub download: every component is constructed here, and the CLIP tokenizer gets a
vocabulary written by the test (one token per byte symbol, with and without the end-of-word
mark, and no merges), so any instruction tokenizes.
"""

from __future__ import annotations

import json
from pathlib import Path


def _byte_symbols() -> list[str]:
    # the byte -> unicode table of byte-level BPE (GPT-2 / CLIP)
    visible = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = list(visible), 0
    for b in range(256):
        if b not in visible:
            visible.append(b)
            chars.append(256 + extra)
            extra += 1
    return [chr(c) for c in chars]


def write_clip_tokenizer(folder: Path) -> None:
    from transformers import CLIPTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    symbols = _byte_symbols()
    vocab = {s: i for i, s in enumerate(symbols)}
    vocab.update({s + "</w>": len(symbols) + i for i, s in enumerate(symbols)})
    vocab["<|startoftext|>"] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    CLIPTokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"),
                  model_max_length=77).save_pretrained(folder)


def tiny_instruct_pix2pix(folder: Path) -> Path:
    """Save a random-weight StableDiffusionInstructPix2PixPipeline into ``folder``."""
    import torch
    from diffusers import (
        AutoencoderKL,
        EulerAncestralDiscreteScheduler,
        StableDiffusionInstructPix2PixPipeline,
        UNet2DConditionModel,
    )
    from transformers import CLIPTextConfig, CLIPTextModel, CLIPTokenizer

    torch.manual_seed(0)
    tokenizer_dir = folder / "_tokenizer_src"
    write_clip_tokenizer(tokenizer_dir)
    tokenizer = CLIPTokenizer.from_pretrained(tokenizer_dir)
    text_encoder = CLIPTextModel(CLIPTextConfig(
        vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_attention_heads=2,
        num_hidden_layers=1, max_position_embeddings=77, bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id))
    unet = UNet2DConditionModel(
        sample_size=8, in_channels=8, out_channels=4, layers_per_block=1,
        block_out_channels=(8, 16), norm_num_groups=4, cross_attention_dim=16,
        attention_head_dim=2,
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"))
    vae = AutoencoderKL(
        in_channels=3, out_channels=3, latent_channels=4, block_out_channels=(8,),
        norm_num_groups=4, layers_per_block=1, down_block_types=("DownEncoderBlock2D",),
        up_block_types=("UpDecoderBlock2D",), sample_size=16)
    pipe = StableDiffusionInstructPix2PixPipeline(
        vae=vae, text_encoder=text_encoder, tokenizer=tokenizer, unet=unet,
        scheduler=EulerAncestralDiscreteScheduler(), safety_checker=None,
        feature_extractor=None, requires_safety_checker=False)
    out = folder / "tiny-instruct-pix2pix"
    pipe.save_pretrained(out)
    return out


def write_t5_tokenizer(folder: Path) -> None:
    """A T5 tokenizer with one token per printable character (a unigram model)."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
    from transformers import T5TokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    words = ["<pad>", "</s>", "<unk>"] + [chr(c) for c in range(33, 127)]
    tokenizer = Tokenizer(models.Unigram([(w, -1.0) for w in words], unk_id=2))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Split("", "isolated")
    T5TokenizerFast(tokenizer_object=tokenizer, eos_token="</s>", pad_token="<pad>",
                    unk_token="<unk>", extra_ids=0, model_max_length=512).save_pretrained(folder)


def tiny_flux_kontext(folder: Path) -> Path:
    """Save a random-weight FluxKontextPipeline into ``folder``."""
    import torch
    from diffusers import (
        AutoencoderKL,
        FlowMatchEulerDiscreteScheduler,
        FluxKontextPipeline,
        FluxTransformer2DModel,
    )
    from transformers import (
        AutoTokenizer,
        CLIPTextConfig,
        CLIPTextModel,
        CLIPTokenizer,
        T5Config,
        T5EncoderModel,
    )

    torch.manual_seed(0)
    write_clip_tokenizer(folder / "_clip_src")
    write_t5_tokenizer(folder / "_t5_src")
    tokenizer = CLIPTokenizer.from_pretrained(folder / "_clip_src")
    tokenizer_2 = AutoTokenizer.from_pretrained(folder / "_t5_src")
    text_encoder = CLIPTextModel(CLIPTextConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=37, num_attention_heads=4,
        num_hidden_layers=1, projection_dim=32, max_position_embeddings=77,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id))
    text_encoder_2 = T5EncoderModel(T5Config(
        vocab_size=len(tokenizer_2), d_model=32, d_kv=8, d_ff=37, num_layers=1, num_heads=4,
        pad_token_id=0, eos_token_id=1, decoder_start_token_id=0))
    transformer = FluxTransformer2DModel(
        patch_size=1, in_channels=4, num_layers=1, num_single_layers=1, attention_head_dim=16,
        num_attention_heads=2, joint_attention_dim=32, pooled_projection_dim=32,
        axes_dims_rope=[4, 4, 8])
    vae = AutoencoderKL(
        sample_size=32, in_channels=3, out_channels=3, block_out_channels=(4,),
        layers_per_block=1, latent_channels=1, norm_num_groups=1, use_quant_conv=False,
        use_post_quant_conv=False, shift_factor=0.0609, scaling_factor=1.5035)
    pipe = FluxKontextPipeline(
        scheduler=FlowMatchEulerDiscreteScheduler(), vae=vae, text_encoder=text_encoder,
        tokenizer=tokenizer, text_encoder_2=text_encoder_2, tokenizer_2=tokenizer_2,
        transformer=transformer)
    out = folder / "tiny-flux-kontext"
    pipe.save_pretrained(out)
    return out


_CHAT_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
                  "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def write_qwen2_tokenizer(folder: Path, specials: tuple[str, ...] = (),
                          image_token: str | None = None) -> None:
    """A byte-level BPE Qwen2 tokenizer (one token per byte symbol, no merges) with a chat
    template; ``specials``: more special tokens (Qwen2-VL's vision markers), ``image_token``:
    the one a processor expands per image patch group."""
    from transformers import Qwen2TokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    symbols = _byte_symbols()
    vocab = {s: i for i, s in enumerate(symbols)}
    # the vocabulary goes in as a dict: transformers 5 reads no vocab_file argument here
    extra = {"extra_special_tokens": {"image_token": image_token}} if image_token else {}
    tokenizer = Qwen2TokenizerFast(vocab=vocab, merges=[], unk_token="<|endoftext|>",
                                   pad_token="<|endoftext|>", model_max_length=1024, **extra)
    tokenizer.add_special_tokens({"additional_special_tokens": [
        "<|im_start|>", "<|im_end|>", *specials]})
    tokenizer.chat_template = _CHAT_TEMPLATE
    tokenizer.save_pretrained(folder)


def tiny_flux2_transformer_and_vae():
    """The random-weight FLUX.2 transformer and VAE every tiny FLUX.2 pipeline shares
    (joint attention width 32: the text encoder's 2 layers x 16)."""
    from diffusers import AutoencoderKLFlux2, Flux2Transformer2DModel

    transformer = Flux2Transformer2DModel(
        patch_size=1, in_channels=4, num_layers=1, num_single_layers=1, attention_head_dim=16,
        num_attention_heads=2, joint_attention_dim=32, timestep_guidance_channels=32,
        axes_dims_rope=(4, 4, 4, 4))
    vae = AutoencoderKLFlux2(
        in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D",),
        up_block_types=("UpDecoderBlock2D",), block_out_channels=(4,), layers_per_block=1,
        latent_channels=1, norm_num_groups=1, sample_size=32, use_quant_conv=False,
        use_post_quant_conv=False)
    return transformer, vae


def tiny_flux2_klein(folder: Path) -> Path:
    """Save a random-weight Flux2KleinPipeline into ``folder`` (a 2-layer Qwen3 text
    encoder: run it with ``text_encoder_out_layers=(1, 2)``)."""
    import torch
    from diffusers import FlowMatchEulerDiscreteScheduler, Flux2KleinPipeline
    from transformers import AutoTokenizer, Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(0)
    write_qwen2_tokenizer(folder / "_qwen_src")
    tokenizer = AutoTokenizer.from_pretrained(folder / "_qwen_src")
    text_encoder = Qwen3ForCausalLM(Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=1, head_dim=8, max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id))
    transformer, vae = tiny_flux2_transformer_and_vae()
    pipe = Flux2KleinPipeline(scheduler=FlowMatchEulerDiscreteScheduler(), vae=vae,
                              text_encoder=text_encoder, tokenizer=tokenizer,
                              transformer=transformer)
    out = folder / "tiny-flux2-klein"
    pipe.save_pretrained(out)
    return out
