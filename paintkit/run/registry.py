"""The models ``paintkit run`` knows by name, and :func:`build_model` for any model name.

A name is one of the built-in names (:func:`builtin_rows`: diffusers pipelines with the
paper's settings, provider APIs), ``diffusers:<repo or path>`` (any diffusers pipeline),
or ``module:function`` / ``module:factory()`` (a Python callable,
:mod:`paintkit.run.callable_model`). BAGEL and HunyuanImage-3.0 need code outside PyPI: they
are listed with the recipe in docs/run.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paintkit.run.api.chat_code import ChatCodeEdit
from paintkit.run.api.gemini_images import GeminiImageEdit
from paintkit.run.api.openai_images import OpenAIImageEdit
from paintkit.run.callable_model import CallableModel
from paintkit.run.diffusion import PIPELINES, DiffusersModel
from paintkit.run.interface import EditModel


@dataclass(frozen=True)
class ApiSpec:
    provider: str  # "openai", "gemini" or "chat" (code edits over chat completions)
    model: str
    note: str = ""


APIS: dict[str, ApiSpec] = {
    "gpt-image-2": ApiSpec("openai", "gpt-image-2", "OpenAI images.edit; OPENAI_API_KEY"),
    "gpt-image-1": ApiSpec("openai", "gpt-image-1", "OpenAI images.edit; OPENAI_API_KEY"),
    "nano-banana-2": ApiSpec("gemini", "gemini-3.1-flash-image-preview",
                             "Gemini generate_content; GEMINI_API_KEY"),
    "nano-banana-1": ApiSpec("gemini", "gemini-2.5-flash-image",
                             "Gemini generate_content; GEMINI_API_KEY"),
    "chat-code": ApiSpec("chat", "gpt-5", "edits the input SVG or chart state over any "
                         "OpenAI-compatible chat/completions (--api-base for vLLM or SGLang, "
                         "--api-model); writes NNNN_output.svg / .json"),
}

#: Models run through the callable interface with code from their own repositories.
RECIPES: dict[str, str] = {
    "bagel": "BAGEL-7B-MoT: clone its repository, wrap its inferencer in a "
             "module:factory() (docs/run.md#bagel)",
    "hunyuanimage-3": "HunyuanImage-3.0: trust_remote_code model, wrap generate_image() in a "
                      "module:factory() (docs/run.md#hunyuanimage-30)",
}


def builtin_rows() -> list[tuple[str, str, str]]:
    """``(name, kind, what)`` for ``paintkit run --list``."""
    rows = []
    for name, spec in PIPELINES.items():
        settings = ", ".join(f"{k}={v}" for k, v in spec.call.items())
        rows.append((name, "diffusers", f"{spec.repo} ({spec.pipeline}; {settings}; "
                                        f"{spec.dtype}; {spec.note})"))
    for name, api in APIS.items():
        rows.append((name, f"api:{api.provider}", f"{api.model} ({api.note})"))
    for name, text in RECIPES.items():
        rows.append((name, "recipe", text))
    rows.append(("diffusers:<repo or path>", "diffusers", "any pipeline; class from model_index.json"))
    rows.append(("module:function", "callable", "batch of (PIL image, instruction) -> images"))
    return rows


def parse_value(text: str) -> Any:
    """``--option`` values: int, float, true/false/none, a JSON list or object, else the
    string."""
    if text[:1] in "[{" and text:
        import json

        try:
            return json.loads(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def build_model(name: str, *, weights: str | None = None, revision: str | None = None,
                dtype: str | None = None, device: str | None = None, offload: str | None = None,
                batch_size: int | None = None, concurrency: int | None = None,
                steps: int | None = None, guidance: float | None = None,
                api_model: str | None = None, api_base: str | None = None,
                rpm: float | None = None, retries: int = 5, retry_delay: float = 1.0,
                timeout: float = 300.0, options: dict | None = None) -> EditModel:
    """The :class:`~paintkit.run.interface.EditModel` for ``name`` (see the module docstring).

    ``steps`` / ``guidance`` override ``num_inference_steps`` / the text guidance scale of a
    diffusers pipeline (``guidance_scale``, or ``true_cfg_scale`` for Qwen-Image-Edit);
    ``options`` go to the pipeline call, the API request or the callable.

    Raises:
        ValueError: an unknown name, a recipe-only model, a missing extra or API key.
    """
    options = dict(options or {})
    if name in RECIPES:
        raise ValueError(f"model {name!r} is not built in: {RECIPES[name]}")
    if name in PIPELINES or name.startswith("diffusers:"):
        call = dict(options)
        if steps is not None:
            call["num_inference_steps"] = steps
        if guidance is not None:
            spec = PIPELINES.get(name)
            call["true_cfg_scale" if spec and "true_cfg_scale" in spec.call
                 else "guidance_scale"] = guidance
        return DiffusersModel(name, weights=weights, revision=revision, dtype=dtype,
                              device=device, offload=offload, batch_size=batch_size or 1,
                              call=call)
    if name in APIS:
        api = APIS[name]
        limits: dict[str, Any] = {"rpm": rpm, "retries": retries, "base_delay": retry_delay,
                                  "timeout": timeout, "concurrency": concurrency}
        if api.provider == "chat":
            return ChatCodeEdit(name, api_model or api.model, base_url=api_base,
                                options=options, **limits)
        if api.provider == "openai":
            return OpenAIImageEdit(name, api_model or api.model, base_url=api_base,
                                   options=options, **limits)
        return GeminiImageEdit(name, api_model or api.model, base_url=api_base,
                               options=options, **limits)
    if ":" in name:
        return CallableModel(name, batch_size=batch_size or 1, options=options)
    raise ValueError(f"model {name!r}: unknown; 'paintkit run --list' shows the built-in "
                     "models, or give diffusers:<repo or path> or module:function")
