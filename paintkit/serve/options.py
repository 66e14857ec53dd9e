"""The settings of one reward service (``paintkit serve`` flags, Ray Serve arguments)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from paintkit.arguments import check_int
from paintkit.rewards.client import TOKEN_ENV


@dataclass(frozen=True)
class ServeOptions:
    """What a reward service does.

    Args:
        benchmarks: a benchmark folder written by ``paintkit generate``; problems are read
            from it by ``problem_id`` (None: every problem is regenerated from its key).
        device: where scoring runs: ``"auto"`` (CUDA when present, else CPU), ``"cpu"``,
            ``"cuda"``, ``"cuda:1"``...
        cache_mb: device memory the prepared problems may take (MiB; a 1024x1024 problem
            takes 6 MiB on the CPU and with the fused CUDA kernel, 31 MiB where the torch
            kernel counts).
        max_batch: most images scored in one batch (items of concurrent requests gathered).
        max_wait_ms: how long the first image of a batch waits for others (None: 0 on the
            CPU, where an image costs the same alone or in a batch, so waiting would only
            leave a core idle; 5 on CUDA, where a batch fills the device).
        max_items: most items in one ``POST /v1/score`` request; a batch with more is
            answered 413 before any item is decoded or any problem read.
        max_mb: largest request body (MiB); a larger one is answered 413 unread.
        max_pixels: largest image (W * H) accepted, checked from the PNG header or the raw
            shape before anything is decoded.
        token: bearer token every scoring request must carry (None: ``$PAINTKIT_SERVE_TOKEN``
            if set, else no token).
        body_timeout_s: a client that sends nothing for this long mid-body is answered 408.
        decode_threads: threads that parse, decode and look up problems off the event loop.
        score_threads: batches scored at once (0: one per CPU core on the CPU, each batch's
            kernels on one core under load, a batch alone on the idle threads' cores too;
            1 on CUDA, where the kernels use the whole device).
        prompts: a Flow-Factory dataset folder (``paintkit generate --format flow-factory``):
            a ``POST /compute`` request naming no problem id has each image's problem found
            from its prompt and condition image, as Flow-Factory's own remote client sends.
    """

    benchmarks: str | None = None
    device: str = "auto"
    cache_mb: int = 1024
    max_batch: int = 32
    max_wait_ms: float | None = None
    max_items: int = 1024
    max_mb: int = 64
    max_pixels: int = 4096 * 4096
    token: str | None = None
    body_timeout_s: float = 30.0
    decode_threads: int = 4
    score_threads: int = 0
    prompts: str | None = None

    def __post_init__(self) -> None:
        for name, low in (("cache_mb", 0), ("max_batch", 1), ("max_items", 1), ("max_mb", 1),
                          ("max_pixels", 1), ("decode_threads", 1), ("score_threads", 0)):
            check_int(getattr(self, name), name, low)
        for name in ("max_wait_ms", "body_timeout_s"):
            value = getattr(self, name)
            if value is None and name == "max_wait_ms":
                continue
            if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a number >= 0, got {value!r}")
        if self.benchmarks is not None and not os.path.isdir(self.benchmarks):
            raise ValueError(f"benchmarks: {self.benchmarks} is not a folder (a benchmark tree "
                             f"written by paintkit generate)")
        if self.prompts is not None and not os.path.isdir(self.prompts):
            raise ValueError(f"prompts: {self.prompts} is not a folder (a dataset written by "
                             f"paintkit generate --format flow-factory)")
        if self.token is None and os.environ.get(TOKEN_ENV):
            object.__setattr__(self, "token", os.environ[TOKEN_ENV])
        if self.token is not None and (not isinstance(self.token, str) or not self.token):
            raise ValueError("token must be a non-empty string")

    def __repr__(self) -> str:  # never print the token
        token = None if self.token is None else "***"
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k != "token")
        return f"ServeOptions({fields}, token={token})"

    def batch_wait_ms(self, device) -> float:
        """``max_wait_ms`` on ``device`` (a ``torch.device``), its default resolved."""
        if self.max_wait_ms is not None:
            return float(self.max_wait_ms)
        return 0.0 if device.type == "cpu" else 5.0

    def torch_device(self):
        """The scoring device (``auto`` resolved)."""
        import torch  # heavy: loaded on first use

        if self.device == "auto":
            return torch.device("cuda" if torch.cuda.is_available() else "cpu")
        return torch.device(self.device)
