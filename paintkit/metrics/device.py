"""Device identity the way torch resolves it: ``cpu:0`` is ``cpu``, an index of None is the
current device of that kind.

Trainers pass ``accelerator.device``: on a multi-process CPU run that is ``cpu:0``, while a
CPU tensor's ``.device`` is ``cpu`` (``tensor.to("cpu:0")`` gives ``cpu``); on GPUs it is
``cuda:N`` while a user may write ``"cuda"``. Comparing ``torch.device`` objects with
``==`` calls those different; :func:`same_device` does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike


def _current_index(kind: str) -> int | None:
    """The current device index of an accelerator kind, or None when that kind has no
    runtime here (then any index matches)."""
    import torch  # heavy: loaded on first use

    try:
        accelerator = torch.accelerator.current_accelerator()
        if accelerator is not None and accelerator.type == kind:
            return int(torch.accelerator.current_device_index())
        module = getattr(torch, kind, None)
        if module is not None and module.is_available() and hasattr(module, "current_device"):
            return int(module.current_device())
    except (RuntimeError, AttributeError, AssertionError):
        pass
    return None


def canonical_device(device: DeviceLike) -> torch.device:
    """``device`` as torch places tensors on it: ``cpu`` for any CPU index, ``cuda:N`` (the
    current one) for ``cuda``; an index torch cannot resolve here stays None."""
    import torch  # heavy: loaded on first use

    device = torch.device(device)
    if device.type == "cpu":
        return torch.device("cpu")
    if device.index is None:
        index = _current_index(device.type)
        if index is not None:
            return torch.device(device.type, index)
    return device


def same_device(actual: DeviceLike, wanted: DeviceLike) -> bool:
    """True if a tensor on ``actual`` is on ``wanted``: same kind and, after resolving an
    index of None to the current device, same index (``cpu`` and ``cpu:0`` are one)."""
    actual, wanted = canonical_device(actual), canonical_device(wanted)
    if actual.type != wanted.type:
        return False
    return actual.index is None or wanted.index is None or actual.index == wanted.index
