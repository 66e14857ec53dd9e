"""Answers and inputs prepared once, reused for many outputs (models, training steps).

:class:`Targets` (built by :func:`prepare_targets`) validates the answer/input pairs once
and caches what the kernels need per device: for the torch path the answers' and inputs'
L*a*b* and the edit mask, grouped by canvas size (:class:`TargetGroup`), on the device the
outputs live on; the Numba path reads the raw uint8 pixels (it converts answer and input
rows only when they change from the previous row, so precomputed Lab would only add memory
traffic).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.kernels.color.lab_table import srgb_to_lab_exact
from paintkit.metrics.coerce import as_images, tensor_of
from paintkit.metrics.counts import edit_mask_torch, fused_cuda_available
from paintkit.metrics.device import canonical_device

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch


class Targets:
    """Prepared ``(answers, inputs)`` of a batch of problems: what outputs are scored against.

    Build with :func:`prepare_targets`. ``batch`` is either a pair of uint8 ``(B, H, W, 3)``
    tensors/arrays (one canvas size) or per-problem lists of uint8 ``(H, W, 3)`` arrays.
    """

    def __init__(self, answers: Any, inputs: Any) -> None:
        self.answers = answers
        self.inputs = inputs
        self._torch_cache: dict[Any, list[TargetGroup]] = {}

    def __len__(self) -> int:
        return len(self.answers)

    @property
    def is_batch(self) -> bool:
        return not isinstance(self.answers, list)

    def answer_size(self, k: int) -> tuple[int, int]:
        shape = self.answers[k].shape
        return int(shape[1]), int(shape[0])

    def numpy_pair(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Problem ``k`` as two uint8 ``(H, W, 3)`` NumPy arrays (for the CPU Numba path)."""
        return tuple(x if isinstance(x, np.ndarray) else x.cpu().numpy()  # type: ignore[return-value]
                     for x in (self.answers[k], self.inputs[k]))

    def numpy_batch(self) -> tuple[np.ndarray, np.ndarray]:
        """The whole batch as C-contiguous uint8 ``(B, H, W, 3)`` arrays (batch form only)."""
        a, i = self.answers, self.inputs
        if not isinstance(a, np.ndarray):
            a, i = a.cpu().numpy(), i.cpu().numpy()
        return np.ascontiguousarray(a), np.ascontiguousarray(i)

    def torch_groups(self, device: DeviceLike) -> list[TargetGroup]:
        """The problems grouped by canvas size, prepared on ``device`` once and cached.

        One group for a batch; for a list (mixed sizes, e.g. PaintBench's three canvas
        shapes) one per size, in order of first appearance. Tensors already on ``device``
        are not copied to the host; others move to ``device`` once, here.
        """
        import torch  # heavy: loaded on first use

        device = canonical_device(device)  # "cpu:0" and "cpu" share one prepared copy
        cached = self._torch_cache.get(device)
        if cached is not None:
            return cached
        if self.is_batch:
            by_size = {self.answer_size(0) if len(self) else (0, 0): list(range(len(self)))}
        else:
            by_size = {}
            for k in range(len(self)):
                by_size.setdefault(self.answer_size(k), []).append(k)
        groups = []
        for size, positions in by_size.items():
            if self.is_batch:
                a, i = (_on(x, device) for x in (self.answers, self.inputs))
            else:
                a = torch.stack([_on(self.answers[k], device) for k in positions])
                i = torch.stack([_on(self.inputs[k], device) for k in positions])
            groups.append(TargetGroup.build(positions, size, a, i))
        if not _fused_counts_on(device):  # the torch kernel reads Lab and the edit mask
            for group in groups:
                group.derive()
        self._torch_cache[device] = groups
        return groups

    def torch_batch(self, device: DeviceLike) -> tuple[torch.Tensor, ...]:
        """``(answers, inputs, lab_answers, lab_inputs, edit_mask)`` on ``device`` (batch form)."""
        g = self.torch_groups(device)[0]
        return g.answers, g.inputs, g.lab_answers, g.lab_inputs, g.edit


def _fused_counts_on(device: torch.device) -> bool:
    """Whether CIE76 counts on ``device`` run in the fused CUDA kernel (uint8 pixels only)."""
    if device.type != "cuda":
        return False
    return fused_cuda_available()  # numba.cuda, imported on first ask


def _on(image: Any, device: torch.device) -> torch.Tensor:
    image = tensor_of(image) if isinstance(image, np.ndarray) else image
    return image if image.device == device else image.to(device)


@dataclass
class TargetGroup:
    """Prepared problems of one canvas size, on one device.

    Attributes:
        positions: the problems' positions in the batch (Python ints).
        index: the same positions, int64 ``(G,)`` on the device.
        size: ``(W, H)``.
        answers, inputs: uint8 ``(G, H, W, 3)``.
        lab_answers, lab_inputs: float32 ``(G, H, W, 3)`` reference L*a*b* (exact: looked
            up in :func:`~paintkit.kernels.color.lab_table.lab_table`), computed on first use: the
            fused CUDA kernel reads the uint8 pixels and never asks for them.
        edit: bool ``(G, H, W)``, the edit region (also on first use).
    """

    positions: list[int]
    index: torch.Tensor
    size: tuple[int, int]
    answers: torch.Tensor
    inputs: torch.Tensor
    _derived: dict[str, torch.Tensor] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, positions: list[int], size: tuple[int, int], answers: torch.Tensor,
              inputs: torch.Tensor) -> TargetGroup:
        import torch  # heavy: loaded on first use

        index = torch.arange(len(positions), device=answers.device) if \
            positions == list(range(len(positions))) else \
            torch.tensor(positions, dtype=torch.int64, device=answers.device)
        return cls(positions, index, size, answers, inputs)

    def _get(self, name: str, make: Callable[[], torch.Tensor]) -> torch.Tensor:
        value = self._derived.get(name)
        if value is None:
            value = self._derived[name] = make()
        return value

    @property
    def lab_answers(self) -> torch.Tensor:
        return self._get("lab_answers", lambda: srgb_to_lab_exact(self.answers))

    @property
    def lab_inputs(self) -> torch.Tensor:
        return self._get("lab_inputs", lambda: srgb_to_lab_exact(self.inputs))

    @property
    def edit(self) -> torch.Tensor:
        return self._get("edit", lambda: edit_mask_torch(self.answers, self.inputs))

    def derive(self) -> None:
        """Compute the Lab and edit mask now (the torch kernel's inputs)."""
        _ = self.lab_answers, self.lab_inputs, self.edit

    def nbytes(self) -> int:
        """Bytes this group holds on its device now (what was derived so far included)."""
        held = [self.answers, self.inputs, *self._derived.values()]
        return sum(int(t.numel() * t.element_size()) for t in held)


def prepare_targets(answers: ImageBatch | Targets, inputs: ImageBatch | None = None, *,
                    device: DeviceLike | None = None) -> Targets:
    """Validate and prepare answers and inputs for :func:`paintkit.metrics.score`.

    Build it once per batch of problems and reuse it for every step and every sample (GRPO
    scores G outputs per problem against one prepared target: no copies of the target).

    Args:
        answers, inputs: batches in any form :func:`paintkit.metrics.score` accepts; each
            answer must have the size of its input. Lists of tensors of mixed sizes are
            kept on their device and grouped by size.
        device: also convert the answers and inputs to L*a*b* and the edit mask on this
            device now (otherwise on first use for each device the outputs are on).

    Raises:
        ValueError: the batches disagree in length or in a problem's size.
    """
    if isinstance(answers, Targets):
        if device is not None:
            answers.torch_groups(device)
        return answers
    if inputs is None:
        raise ValueError("inputs: required unless answers are prepared Targets")
    a: Any = as_images(answers, "answers")
    i: Any = as_images(inputs, "inputs")
    if len(a) != len(i):
        raise ValueError(f"answers, inputs: expected the same batch size, got {len(a)} and "
                         f"{len(i)}")
    if isinstance(a, list) != isinstance(i, list):
        a, i = _as_list(a), _as_list(i)
    if isinstance(a, list):
        for k, (x, y) in enumerate(zip(a, i, strict=True)):
            if tuple(x.shape) != tuple(y.shape):
                raise ValueError(f"answers[{k}], inputs[{k}]: expected one size, got (H, W, 3) "
                                 f"{x.shape} and {y.shape}")
    else:
        if tuple(a.shape) != tuple(i.shape):
            raise ValueError(f"answers, inputs: expected one shape (B, H, W, 3), got "
                             f"{tuple(a.shape)} and {tuple(i.shape)}")
        if type(a) is not type(i):  # tensor + array: keep tensors

            a = a if not isinstance(a, np.ndarray) else tensor_of(a).to(i.device)
            i = i if not isinstance(i, np.ndarray) else tensor_of(i).to(a.device)
        if not isinstance(a, np.ndarray) and a.device != i.device:
            raise ValueError(f"answers, inputs: expected tensors on one device, got {a.device} "
                             f"and {i.device}")
    targets = Targets(a, i)
    if device is not None:
        targets.torch_groups(device)
    return targets




def _as_list(batch: Any) -> list[np.ndarray]:
    if isinstance(batch, list):
        return batch
    return list(batch)
