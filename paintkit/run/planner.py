"""``--planner MODEL``: a step-by-step plan from a chat model, given to the editor.

Reasoning-trace augmentation: an OpenAI-compatible chat model (``POST
{base_url}/chat/completions``) sees the input image and the instruction and writes a plan;
the editor gets the instruction followed by the plan, and the plan is saved as
``NNNN_plan.txt`` beside the output. Retries and pacing are the API editors' own.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from paintkit.io.redact import redact_url_text
from paintkit.run.api.base import api_key, classify
from paintkit.run.api.limits import RateLimiter, RetryPolicy, call_with_deadline
from paintkit.run.interface import png_bytes

SYSTEM_PROMPT = (
    "You plan image edits. Given an image and an editing instruction, identify the shapes "
    "the instruction refers to (their colour, position and size in pixels), then write a "
    "numbered, step-by-step plan of the exact edit: what changes, where, and what must stay "
    "the same. Do not draw; answer with the plan only.")

PLAN_HEADER = "Step-by-step plan:"


@dataclass
class Plan:
    text: str
    usage: dict = field(default_factory=dict)


class Planner:
    """``model``: the chat model id; ``base_url`` / ``key``: an OpenAI-compatible server
    (default ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``, or ``PAINTKIT_PLANNER_API_KEY``)."""

    def __init__(self, model: str, *, base_url: str | None = None, key: str | None = None,
                 rpm: float | None = None, retries: int = 5, timeout: float = 300.0,
                 system_prompt: str = SYSTEM_PROMPT) -> None:
        try:
            import openai
        except ImportError:
            raise ValueError("--planner needs the api extra: pip install 'paintkit[api]'") \
                from None
        self.model, self.system_prompt, self.timeout = model, system_prompt, timeout
        self._config = {"model": model, "base_url": base_url, "key": key, "rpm": rpm,
                        "retries": retries, "timeout": timeout, "system_prompt": system_prompt}
        self.key = api_key(("PAINTKIT_PLANNER_API_KEY", "OPENAI_API_KEY"), key)
        self.client = openai.OpenAI(
            api_key=self.key,
            base_url=base_url, max_retries=0, timeout=timeout)
        self.limiter, self.policy = RateLimiter(rpm), RetryPolicy(retries)

    def plan(self, image: Image.Image, instruction: str) -> Plan:
        url = "data:image/png;base64," + base64.b64encode(png_bytes(image)).decode("ascii")
        messages: list[Any] = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": url}},
                {"type": "text", "text": f"Instruction: {instruction}"}]},
        ]
        response, _ = self.policy.call(
            lambda: call_with_deadline(
                lambda: self.client.chat.completions.create(model=self.model, messages=messages),
                self.timeout),
            classify, self.limiter)
        text = (response.choices[0].message.content or "").strip() if response.choices else ""
        if not text:
            raise ValueError("the planner returned an empty plan")
        reported = getattr(response, "usage", None)
        usage = reported.model_dump() if reported else {}
        return Plan(text, {k: v for k, v in usage.items() if isinstance(v, int)})

    @staticmethod
    def augment(instruction: str, plan: Plan) -> str:
        """The editor's prompt: the instruction, then the plan."""
        return f"{instruction}\n\n{PLAN_HEADER}\n{plan.text}"

    def __getstate__(self) -> dict:
        # Ray ships the planner to its workers: send the settings, rebuild the client there
        # (a key not given explicitly is read from the worker's environment).
        return self._config

    def __setstate__(self, config: dict) -> None:
        self.__init__(**config)  # type: ignore[misc]

    def secrets(self) -> tuple[str, ...]:
        return (self.key,)

    def describe(self) -> dict:
        return {"model": self.model, "base_url": redact_url_text(str(self.client.base_url)),
                "system_prompt": self.system_prompt}
