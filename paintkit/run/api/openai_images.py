"""OpenAI-compatible image edits (GPT-Image) through the official ``openai`` client.

``POST {base_url}/images/edits`` with the input PNG and the instruction (a problem with
reference images sends every image, the input first, as the form's ``image[]`` files, in
order: the multi-image form of the endpoint, up to :data:`MAX_IMAGES`); the answer's
``b64_json`` image is the output, its ``usage`` (input / output tokens) goes to the run's
totals. ``base_url`` (``--api-base`` or ``OPENAI_BASE_URL``) points it at any compatible
server. The client's own retries are off: :class:`~paintkit.run.api.base.ApiModel` retries.
"""

from __future__ import annotations

from typing import Any

from paintkit.io.redact import redact_url_text
from paintkit.run.api.base import ApiModel, NotJSONAnswer, api_key, decode_b64
from paintkit.run.interface import EditRequest, EditResult, png_bytes

KEY_VARIABLES = ("OPENAI_API_KEY",)
#: The most images one images/edits request takes (GPT-Image models: 16).
MAX_IMAGES = 16


def _flat_usage(usage: Any) -> dict:
    if usage is None:
        return {}
    data = usage.model_dump() if hasattr(usage, "model_dump") else dict(usage)
    flat = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, number in value.items():
                if isinstance(number, int | float):
                    flat[f"{key}.{sub}"] = number
        elif isinstance(value, int | float):
            flat[key] = value
    return flat


class OpenAIImageEdit(ApiModel):
    """``model``: the provider's model id (``gpt-image-2``); ``options``: extra arguments of
    ``images.edit`` (``quality``, ``size``, ``input_fidelity``, ...)."""

    max_images = MAX_IMAGES

    def __init__(self, name: str, model: str, *, base_url: str | None = None,
                 key: str | None = None, options: dict | None = None, **limits: Any) -> None:
        super().__init__(**limits)
        try:
            import openai
        except ImportError:
            raise ValueError("OpenAI models need the api extra: pip install 'paintkit[api]'") \
                from None
        self.name, self.model, self.options = name, model, dict(options or {})
        self.key = api_key(KEY_VARIABLES, key)
        self.client = openai.OpenAI(api_key=self.key, base_url=base_url,
                                    max_retries=0, timeout=self.timeout)
        self.base_url = redact_url_text(str(self.client.base_url))

    def request(self, request: EditRequest) -> EditResult:
        image: Any = ("input.png", png_bytes(request.image), "image/png")
        if request.references:  # a list: the client sends the files as image[], in order
            image = [image, *((f"reference_{n}.png", png_bytes(ref.image), "image/png")
                              for n, ref in enumerate(request.references, 1))]
        response = self.client.images.edit(
            model=self.model, image=image, prompt=request.instruction, n=1, **self.options)
        if isinstance(response, str | bytes):  # the client hands back a body it cannot parse
            raise NotJSONAnswer.of(response)
        if not response.data:
            raise ValueError("the response holds no image")
        item = response.data[0]
        if not item.b64_json:
            raise ValueError("the response's image has no b64_json data")
        return EditResult(image=decode_b64(item.b64_json),
                          text=getattr(item, "revised_prompt", None) or None,
                          usage=_flat_usage(getattr(response, "usage", None)))

    def describe(self) -> dict:
        import openai

        return {"name": self.name, "kind": "openai-images", "model": self.model,
                "base_url": self.base_url, "options": self.options, **self.limits(),
                "concurrency": self.concurrency, "openai": openai.__version__}

    def close(self) -> None:
        self.client.close()
