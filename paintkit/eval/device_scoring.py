"""Scoring a problem's outputs on a torch device: what a Ray scoring actor does with a GPU.

:func:`actor_device` picks the device of one actor: ``"cpu"`` unless Ray assigned the actor
a GPU (``ray.get_gpu_ids()``, i.e. ``map_batches(..., num_gpus=...)``) or ``"cuda"`` was
asked for. On the CPU the actor scores as ``paintkit eval`` does (Numba, no torch); on a GPU
it scores through :func:`paintkit.metrics.tolerance_statistics`: the problem's answer and
input are prepared once on the device (:func:`paintkit.metrics.prepare_targets`) and every
model's output is counted against them in one call (``samples_per_problem`` = the models).
The counts are exact integers on every device, so the rows are the CPU path's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paintkit.metrics.coerce import MissingImage

#: What ``device=`` accepts (besides ``"cuda:N"``).
DEVICES = ("auto", "cpu", "cuda")


def _ray_gpu_ids() -> list:
    """The GPU ids Ray assigned to this worker (empty outside Ray or without GPUs)."""
    try:
        import ray
    except ImportError:
        return []
    return list(ray.get_gpu_ids()) if ray.is_initialized() else []


def _cuda_available() -> bool:
    try:
        import torch  # heavy: only when a GPU is in play
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def check_device(device: str) -> str:
    """``device`` if it is ``auto``, ``cpu``, ``cuda`` or ``cuda:N``; else a one-line ``ValueError``."""
    if isinstance(device, str) and (device in DEVICES or (
            device.startswith("cuda:") and device[5:].isdigit())):
        return device
    raise ValueError(f"device: expected auto, cpu, cuda or cuda:N, got {device!r}")


def actor_device(device: str = "auto", gpu_ids: list | None = None,
                 cuda_available: bool | None = None) -> str:
    """The device a scoring actor uses: ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.

    ``device="auto"``: ``"cuda"`` when Ray gave this actor a GPU (``gpu_ids``, default
    ``ray.get_gpu_ids()``; Ray then makes it the actor's ``cuda:0``), else ``"cpu"``.
    ``"cpu"`` always scores on the CPU; ``"cuda"`` / ``"cuda:N"`` need a GPU torch can use
    (``cuda_available``, default ``torch.cuda.is_available()``).

    Raises:
        ValueError: an unknown ``device``, or a GPU asked for (by Ray or by ``device``) that
            torch cannot use here.
    """
    check_device(device)
    if device == "cpu":
        return "cpu"
    ids = _ray_gpu_ids() if gpu_ids is None else list(gpu_ids)
    if device == "auto" and not ids:
        return "cpu"
    available = _cuda_available() if cuda_available is None else cuda_available
    if not available:
        asked = (f"Ray gave this scoring actor GPU {', '.join(map(str, ids))}" if ids
                 else f"device={device!r}")
        raise ValueError(f"{asked} but torch cannot use CUDA on this worker; install a CUDA "
                         "build of torch there, or score with device='cpu' / num_gpus=0")
    return "cuda" if device == "auto" else device


class DeviceScorer:
    """``scorer(outputs, answer, inp, delta_e, return_bins)`` on a torch ``device``: a
    ``(ProblemScore, bins)`` per output, the bins (uint8 ``(H, W)`` NumPy, or None) only
    with ``return_bins``. ``answer`` and ``inp``: uint8 ``(H, W, 3)``; ``outputs``: uint8
    ``(h, w, 3)`` arrays of any size or :class:`~paintkit.metrics.coerce.MissingImage`.

    On ``"cpu"`` it runs the torch kernels (``backend="torch"``), which is how the GPU
    path is checked on machines without one; on CUDA the backend is ``"auto"`` (the fused
    CUDA kernel where Numba's CUDA target works, else torch).
    """

    def __init__(self, device: str):
        import torch  # heavy: only for an actor that scores on a device

        self.device = torch.device(device)
        self.backend = "torch" if self.device.type == "cpu" else "auto"

    def __call__(self, outputs: list, answer: np.ndarray, inp: np.ndarray,
                 delta_e: str = "cie76", return_bins: bool = False) -> list[tuple[Any, Any]]:
        import torch

        from paintkit.metrics.batch_scoring import tolerance_statistics  # torch (the device path)
        from paintkit.metrics.targets import prepare_targets  # torch (the device path)

        if not outputs:
            return []
        outs = [MissingImage(f"empty image (shape {o.shape})")
                if not isinstance(o, MissingImage) and o.size == 0 else o for o in outputs]
        answers = torch.from_numpy(np.ascontiguousarray(answer)).to(self.device)[None]
        inputs = torch.from_numpy(np.ascontiguousarray(inp)).to(self.device)[None]
        targets = prepare_targets(answers, inputs, device=self.device)
        stats = tolerance_statistics(outs, targets, backend=self.backend,
                                     return_bins=return_bins, samples_per_problem=len(outs),
                                     delta_e=delta_e)
        bins = stats.bins if return_bins else [None] * len(outs)
        return [(score, None if b is None else b.cpu().numpy())
                for score, b in zip(stats.scores(), bins, strict=True)]


def scorer_for(device: str):
    """The scorer of an actor on ``device`` (from :func:`actor_device`): None for the CPU
    (``paintkit eval``'s own Numba scoring), else a :class:`DeviceScorer`."""
    return None if device == "cpu" else DeviceScorer(device)
