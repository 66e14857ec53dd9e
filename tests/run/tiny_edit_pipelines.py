"""Qwen-Image-Edit(-Plus), LongCat-Image-Edit and FLUX.2-dev pipelines built from tiny
random-weight configs and saved to a local folder (no hub download).

Their text encoders are vision-language models: Qwen2.5-VL (Qwen, LongCat) and Mistral 3
(FLUX.2-dev). transformers 5 refuses to build ``Qwen2VLProcessor`` and ``PixtralProcessor``
without torchvision (a video processor, a torchvision image backend), and torchvision's
PyPI wheels need a CUDA build of torch, which the CPU test machine does not have. So:

- the Qwen2.5-VL processor is transformers' ``PaddleOCRVLProcessor`` holding a
  ``Qwen2VLImageProcessor``: the same image path (pixel patches, ``image_grid_thw``, the
  image token repeated once per merged patch group), no video processor;
- FLUX.2-dev's ``tokenizer`` component is a tokenizer with a chat template: the pipeline
  only calls ``apply_chat_template`` on text messages, which a tokenizer does the same way.

Everything else (text encoders, transformers, VAEs, the pipelines' code) is the real class.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.tiny_pipelines import tiny_flux2_transformer_and_vae, write_qwen2_tokenizer

_VISION = ("<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>")


def _qwen_vl_parts(folder: Path):
    """(tokenizer, processor, Qwen2.5-VL text encoder) with tiny sizes."""
    from transformers import (
        AutoTokenizer,
        PaddleOCRVLProcessor,
        Qwen2_5_VLConfig,
        Qwen2_5_VLForConditionalGeneration,
        Qwen2VLImageProcessor,
    )

    write_qwen2_tokenizer(folder / "_qwen_vl_src", specials=_VISION, image_token="<|image_pad|>")
    tokenizer = AutoTokenizer.from_pretrained(folder / "_qwen_vl_src")
    # at most 112x112 pixels reach the vision tower: 16 patches of 28x28, 16 image tokens
    processor = PaddleOCRVLProcessor(
        image_processor=Qwen2VLImageProcessor(min_pixels=28 * 28, max_pixels=112 * 112),
        tokenizer=tokenizer, chat_template=tokenizer.chat_template)
    ids = tokenizer.convert_tokens_to_ids
    text_encoder = Qwen2_5_VLForConditionalGeneration(Qwen2_5_VLConfig(
        text_config={"vocab_size": len(tokenizer), "hidden_size": 16, "intermediate_size": 16,
                     "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 2,
                     "bos_token_id": None, "eos_token_id": ids("<|im_end|>"),
                     "pad_token_id": tokenizer.pad_token_id,
                     "rope_parameters": {"mrope_section": [1, 1, 2], "rope_type": "default",
                                         "rope_theta": 1000000.0}},
        vision_config={"depth": 2, "hidden_size": 16, "intermediate_size": 16, "num_heads": 2,
                       "out_hidden_size": 16},
        vision_start_token_id=ids("<|vision_start|>"), vision_end_token_id=ids("<|vision_end|>"),
        image_token_id=ids("<|image_pad|>"), video_token_id=ids("<|video_pad|>")))
    return tokenizer, processor, text_encoder


def tiny_qwen_image_edit(folder: Path, plus: bool) -> Path:
    """Save a random-weight QwenImageEditPlusPipeline (``plus``, Qwen-Image-Edit-2511) or
    QwenImageEditPipeline into ``folder``."""
    import torch
    from diffusers import (
        AutoencoderKLQwenImage,
        FlowMatchEulerDiscreteScheduler,
        QwenImageEditPipeline,
        QwenImageEditPlusPipeline,
        QwenImageTransformer2DModel,
    )

    torch.manual_seed(0)
    tokenizer, processor, text_encoder = _qwen_vl_parts(folder)
    # the real VAE's 8x downsampling (the pipelines encode the input at about 1024x1024)
    vae = AutoencoderKLQwenImage(
        base_dim=8, z_dim=4, dim_mult=[1, 2, 4, 4], num_res_blocks=1,
        temperal_downsample=[False, True, True], latents_mean=[0.0] * 4, latents_std=[1.0] * 4)
    transformer = QwenImageTransformer2DModel(
        patch_size=2, in_channels=16, out_channels=4, num_layers=1, attention_head_dim=16,
        num_attention_heads=2, joint_attention_dim=16, guidance_embeds=False,
        axes_dims_rope=(8, 4, 4))
    cls = QwenImageEditPlusPipeline if plus else QwenImageEditPipeline
    pipe = cls(scheduler=FlowMatchEulerDiscreteScheduler(), vae=vae, text_encoder=text_encoder,
               tokenizer=tokenizer, processor=processor, transformer=transformer)
    out = folder / ("tiny-qwen-image-edit-plus" if plus else "tiny-qwen-image-edit")
    pipe.save_pretrained(out)
    return out


def tiny_longcat_image_edit(folder: Path) -> Path:
    """Save a random-weight LongCatImageEditPipeline into ``folder``."""
    import torch
    from diffusers import (
        AutoencoderKL,
        FlowMatchEulerDiscreteScheduler,
        LongCatImageEditPipeline,
        LongCatImageTransformer2DModel,
    )

    torch.manual_seed(0)
    tokenizer, processor, text_encoder = _qwen_vl_parts(folder)
    # 16 latent channels (the pipeline's constant) and 8x downsampling, as the real VAE
    vae = AutoencoderKL(
        in_channels=3, out_channels=3, latent_channels=16, block_out_channels=(4, 4, 4, 4),
        down_block_types=("DownEncoderBlock2D",) * 4, up_block_types=("UpDecoderBlock2D",) * 4,
        layers_per_block=1, norm_num_groups=2, sample_size=32, shift_factor=0.0609,
        scaling_factor=1.5035, use_quant_conv=False, use_post_quant_conv=False)
    transformer = LongCatImageTransformer2DModel(
        patch_size=1, in_channels=64, num_layers=1, num_single_layers=1, attention_head_dim=16,
        num_attention_heads=2, joint_attention_dim=16, pooled_projection_dim=16,
        axes_dims_rope=[4, 6, 6])
    pipe = LongCatImageEditPipeline(
        scheduler=FlowMatchEulerDiscreteScheduler(), vae=vae, text_encoder=text_encoder,
        tokenizer=tokenizer, text_processor=processor, transformer=transformer)
    out = folder / "tiny-longcat-image-edit"
    pipe.save_pretrained(out)
    return out


_MISTRAL_TEMPLATE = (
    "{% for m in messages %}{% if m['role'] == 'system' %}[SYSTEM_PROMPT]{% else %}[INST]"
    "{% endif %}{% for c in m['content'] %}{% if c['type'] == 'text' %}{{ c['text'] }}"
    "{% else %}[IMG]{% endif %}{% endfor %}{% if m['role'] == 'system' %}[/SYSTEM_PROMPT]"
    "{% else %}[/INST]{% endif %}{% endfor %}")


def write_mistral_tokenizer(folder: Path) -> None:
    """One token per printable character plus Mistral's control tokens, with a chat
    template that reads FLUX.2's message format (a list of typed content parts)."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    specials = ["<unk>", "<s>", "</s>", "<pad>", "[IMG]", "[INST]", "[/INST]",
                "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]"]
    words = specials + [chr(c) for c in range(32, 127)]
    backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Split("", "isolated")
    backend.add_special_tokens(specials)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, bos_token="<s>",
                                        eos_token="</s>", unk_token="<unk>", pad_token="<pad>",
                                        model_max_length=512)
    tokenizer.chat_template = _MISTRAL_TEMPLATE
    tokenizer.save_pretrained(folder)


def tiny_flux2_dev(folder: Path) -> Path:
    """Save a random-weight Flux2Pipeline (FLUX.2-dev) into ``folder``: a Mistral 3 text
    encoder of 2 layers (run it with ``text_encoder_out_layers=(1, 2)``)."""
    import torch
    from diffusers import FlowMatchEulerDiscreteScheduler, Flux2Pipeline
    from transformers import AutoTokenizer, Mistral3Config, Mistral3ForConditionalGeneration

    torch.manual_seed(0)
    write_mistral_tokenizer(folder / "_mistral_src")
    tokenizer = AutoTokenizer.from_pretrained(folder / "_mistral_src")
    text_encoder = Mistral3ForConditionalGeneration(Mistral3Config(
        text_config={"model_type": "mistral", "vocab_size": len(tokenizer), "hidden_size": 16,
                     "intermediate_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
                     "num_key_value_heads": 1, "head_dim": 8, "max_position_embeddings": 512,
                     "pad_token_id": tokenizer.pad_token_id},
        vision_config={"model_type": "pixtral", "hidden_size": 16, "intermediate_size": 32,
                       "num_hidden_layers": 1, "num_attention_heads": 2, "head_dim": 8,
                       "patch_size": 16, "image_size": 64},
        image_token_index=tokenizer.convert_tokens_to_ids("[IMG]"), spatial_merge_size=1))
    transformer, vae = tiny_flux2_transformer_and_vae()
    pipe = Flux2Pipeline(scheduler=FlowMatchEulerDiscreteScheduler(), vae=vae,
                         text_encoder=text_encoder, tokenizer=tokenizer, transformer=transformer)
    out = folder / "tiny-flux2-dev"
    pipe.save_pretrained(out)
    return out
