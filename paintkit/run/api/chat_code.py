"""Code-editing models over an OpenAI-compatible chat-completions endpoint.

``POST {base_url}/chat/completions`` with the instruction and the problem's input as code
(the input scene's SVG, or the chart's ``input_state`` as JSON), and for a multimodal model
the input image too (``options={"with_image": true}``), followed by the problem's reference
images in order. A problem with references needs ``with_image``: without it the request
would carry no image, so such a problem is refused with one line (the rest of the batch
runs) rather than sent without its references. The reply's code block is the output,
written as ``NNNN_output.svg`` / ``NNNN_output.json`` and rendered by ``paintkit eval``.
Any compatible server works by ``--api-base``: a hosted API, or a local vLLM or SGLang
server. Retries, pacing, timeouts and secrets are those of every API model
(:class:`~paintkit.run.api.base.ApiModel`).

What counts as the code (:func:`paintkit.code_outputs.extract_code`): a fenced block
tagged with the language (```` ```svg ````, ```` ```xml ```` or ```` ```json ````) first, else
the only untagged block,
else, for SVG, the ``<svg ...>...</svg>`` in the text. No code, several candidates with no
way to choose, or a reply the server cut off (``finish_reason == "length"``, an unclosed
fence) is that problem's one-line reason, retried by the next run.
"""

from __future__ import annotations

import base64
import json
import os
from typing import Any

import numpy as np

from paintkit.code_outputs import NoCode, extract_code
from paintkit.io.redact import redact_url_text
from paintkit.run.api.base import ApiModel, NotJSONAnswer, api_key
from paintkit.run.interface import EditRequest, EditResult, png_bytes
from paintkit.scene import Scene

KEY_VARIABLES = ("OPENAI_API_KEY",)

SYSTEM = {
    "svg": ("You edit SVG images. Apply the instruction to the SVG you are given and reply "
            "with the complete edited SVG in one ```svg code block. Keep every element you "
            "do not need to change as it is; use only paths, basic shapes, groups, "
            "transforms, fills and strokes."),
    "json": ("You edit charts given as a JSON chart state. Apply the instruction to the state "
             "you are given and reply with the complete edited state in one ```json code "
             "block, with the same keys and structure."),
}


def input_code(request: EditRequest) -> tuple[str, str]:
    """``(kind, code)`` of the problem's input: ``("json", state)`` for a chart,
    ``("svg", text)`` for a scene.

    Raises:
        ValueError: the problem is neither (no ``input_state`` and no ``scene``).
    """
    meta = request.metadata
    if "input_state" in meta:
        return "json", json.dumps(meta["input_state"], indent=1)
    if "scene" in meta:
        from paintkit.renderers.svg_scene import scene_svg  # skia, numba: scenes only

        pixels = np.asarray(request.image.convert("RGB"))
        return "svg", scene_svg(Scene.from_dict(meta["scene"]), pixels)
    raise ValueError("a code-editing model needs a scene or a chart state in the problem's "
                     "metadata; this problem has neither")


class ChatCodeEdit(ApiModel):
    """``model``: the server's model id; ``options``: ``with_image`` (send the input image
    too, for multimodal models) and extra arguments of ``chat.completions.create``
    (``temperature``, ``max_tokens``, ...)."""

    max_images = None  # with_image: every image goes as an image_url part (see refusal)

    def __init__(self, name: str, model: str, *, base_url: str | None = None,
                 key: str | None = None, options: dict | None = None, **limits: Any) -> None:
        super().__init__(**limits)
        try:
            import openai
        except ImportError:
            raise ValueError("code-editing models need the api extra: pip install "
                             "'paintkit[api]'") from None
        options = dict(options or {})
        self.with_image = bool(options.pop("with_image", False))
        self.name, self.model, self.options = name, model, options
        if key or base_url is None:  # a hosted API needs its key
            self.key = api_key(KEY_VARIABLES, key)
        else:  # a local server (vLLM, SGLang) takes any key unless it was started with one
            self.key = os.environ.get("OPENAI_API_KEY") or None
        self.client = openai.OpenAI(api_key=self.key or "EMPTY", base_url=base_url,
                                    max_retries=0, timeout=self.timeout)
        self.base_url = redact_url_text(str(self.client.base_url))

    def refusal(self, request: EditRequest) -> str | None:
        if self.with_image or not request.references:
            return None
        roles = ", ".join(ref.role for ref in request.references)
        return (f"{self.name} sends the input as code and no image, so this problem's "
                f"{len(request.references)} reference image(s) ({roles}) would be dropped: "
                "--option with_image=true sends every image with the code")

    def messages(self, request: EditRequest) -> tuple[str, list[dict]]:
        kind, code = input_code(request)
        text = (f"Instruction: {request.instruction}\n\nThe input "
                f"{'SVG' if kind == 'svg' else 'chart state'}:\n```{kind}\n{code}\n```")
        if self.with_image and request.references:
            text += "\n\nThe images, in order: the input" + "".join(
                f", reference {n} ({ref.role})" for n, ref in enumerate(request.references, 1))
        content: Any = text
        if self.with_image:  # the input image, then its references, in order
            content = [{"type": "text", "text": text}, *(
                {"type": "image_url", "image_url": {
                    "url": "data:image/png;base64," + base64.b64encode(png_bytes(image)).decode()}}
                for image in request.images)]
        return kind, [{"role": "system", "content": SYSTEM[kind]},
                      {"role": "user", "content": content}]

    def request(self, request: EditRequest) -> EditResult:
        kind, messages = self.messages(request)
        response = self.client.chat.completions.create(
            model=self.model, messages=messages, **self.options)  # type: ignore[arg-type]
        if isinstance(response, str | bytes):
            raise NotJSONAnswer.of(response)
        if not getattr(response, "choices", None):
            raise ValueError("the response holds no choices")
        choice = response.choices[0]
        text = choice.message.content or ""
        usage = getattr(response, "usage", None)
        flat = {k: v for k, v in (usage.model_dump() if usage is not None else {}).items()
                if isinstance(v, int | float) and not isinstance(v, bool)}
        try:
            code = extract_code(text, kind, finish_reason=choice.finish_reason)
        except NoCode as exc:
            return EditResult(error=str(exc), text=text or None, usage=flat)
        return EditResult(code=code, code_kind=kind, text=text, usage=flat)

    def describe(self) -> dict:
        import openai

        return {"name": self.name, "kind": "chat-code", "model": self.model,
                "base_url": self.base_url, "with_image": self.with_image,
                "options": self.options, **self.limits(), "concurrency": self.concurrency,
                "openai": openai.__version__}

    def close(self) -> None:
        self.client.close()
