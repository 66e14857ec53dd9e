"""Google Gemini image models (Nano-Banana) through the official ``google-genai`` client.

``models.generate_content`` with the input image and the instruction, asking for text and
image (a problem with reference images sends every image as an inline image part of the
one user content, the input first, in order, then the instruction); the first image part
is the output, the text parts (the model's reasoning or reply) are saved as
``NNNN_reasoning.txt``, ``usage_metadata`` (prompt, output and thinking tokens) goes to the
run's totals. The client's own retries are off (one attempt):
:class:`~paintkit.run.api.base.ApiModel` retries.
"""

from __future__ import annotations

import json
from typing import Any

from paintkit.io.redact import redact_url_text
from paintkit.run.api.base import ApiModel, NotJSONAnswer, api_key
from paintkit.run.interface import EditRequest, EditResult, png_bytes

KEY_VARIABLES = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
_USAGE = ("prompt_token_count", "candidates_token_count", "thoughts_token_count",
          "total_token_count")


class GeminiImageEdit(ApiModel):
    """``model``: the provider's model id (``gemini-2.5-flash-image`` is Nano-Banana);
    ``options``: extra fields of ``GenerateContentConfig``."""

    max_images = None  # every image goes as a part; the provider says when it takes fewer

    def __init__(self, name: str, model: str, *, base_url: str | None = None,
                 key: str | None = None, options: dict | None = None, **limits: Any) -> None:
        super().__init__(**limits)
        try:
            from google import genai
            from google.genai import types
        except ImportError:
            raise ValueError("Gemini models need the api extra: pip install 'paintkit[api]'") \
                from None
        self.types = types
        self.name, self.model, self.options = name, model, dict(options or {})
        self.base_url = redact_url_text(base_url) if base_url else base_url
        http = types.HttpOptions(base_url=base_url, timeout=int(self.timeout * 1000),
                                 retry_options=types.HttpRetryOptions(attempts=1))
        self.key = api_key(KEY_VARIABLES, key)
        self.client = genai.Client(api_key=self.key, http_options=http)

    def request(self, request: EditRequest) -> EditResult:
        types = self.types
        config = types.GenerateContentConfig(response_modalities=["TEXT", "IMAGE"],
                                             **self.options)
        parts: list[Any] = [types.Part.from_bytes(data=png_bytes(image), mime_type="image/png")
                            for image in request.images]
        try:
            response = self.client.models.generate_content(
                model=self.model, contents=[*parts, request.instruction], config=config)
        except json.JSONDecodeError as exc:  # the client parses the body and fails
            raise NotJSONAnswer.of(exc.doc) from None
        image, texts = None, []
        for candidate in response.candidates or []:
            for part in (candidate.content.parts if candidate.content else None) or []:
                if part.inline_data is not None and part.inline_data.data and image is None:
                    image = part.inline_data.data
                elif part.text:
                    texts.append(part.text)
        usage = {}
        meta = response.usage_metadata
        for key in _USAGE:
            value = getattr(meta, key, None) if meta is not None else None
            if isinstance(value, int):
                usage[key] = value
        if image is None:
            reason = getattr(response.candidates[0], "finish_reason", None) \
                if response.candidates else None
            raise ValueError("the response holds no image"
                             + (f" (finish reason {reason})" if reason else "")
                             + (f"; text: {' '.join(texts)[:200]}" if texts else ""))
        return EditResult(image=image, text="\n".join(texts) or None, usage=usage)

    def close(self) -> None:
        close = getattr(self.client, "close", None)
        if close is not None:
            close()

    def describe(self) -> dict:
        from google.genai import version

        return {"name": self.name, "kind": "gemini-images", "model": self.model,
                "base_url": self.base_url, "options": self.options, **self.limits(),
                "concurrency": self.concurrency, "google-genai": version.__version__}
