"""Answers and inputs prepared once, reused for many outputs (models, training steps).

A :class:`Reference` validates the answer/input pairs once and caches what the kernels
need per device: for the torch path the answers' and inputs' L*a*b* and the edit mask;
the Numba path reads the raw uint8 pixels (it converts answer and input rows only when
they change from the previous row, so precomputed Lab would only add memory traffic).
"""

from __future__ import annotations

import numpy as np

from paintkit.metrics.coerce import as_images


class Reference:
    """Prepared ``(answers, inputs)`` of a batch of problems.

    Build with :func:`prepare_reference`. ``batch`` is either a pair of uint8 ``(B, H, W, 3)``
    tensors/arrays (one canvas size) or per-problem lists of uint8 ``(H, W, 3)`` arrays.
    """

    def __init__(self, answers, inputs):
        self.answers = answers
        self.inputs = inputs
        self._torch_cache: dict = {}

    def __len__(self) -> int:
        return len(self.answers)

    @property
    def is_batch(self) -> bool:
        return not isinstance(self.answers, list)

    def answer_size(self, k: int) -> tuple[int, int]:
        shape = self.answers[k].shape
        return int(shape[1]), int(shape[0])

    def numpy_pair(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Problem ``k`` as two uint8 ``(H, W, 3)`` NumPy arrays."""
        a, i = self.answers[k], self.inputs[k]
        if not isinstance(a, np.ndarray):
            a, i = a.cpu().numpy(), i.cpu().numpy()
        return a, i

    def numpy_batch(self) -> tuple[np.ndarray, np.ndarray]:
        """The whole batch as C-contiguous uint8 ``(B, H, W, 3)`` arrays (batch form only)."""
        a, i = self.answers, self.inputs
        if not isinstance(a, np.ndarray):
            a, i = a.cpu().numpy(), i.cpu().numpy()
        return np.ascontiguousarray(a), np.ascontiguousarray(i)

    def torch_batch(self, device):
        """``(answers, inputs, lab_answers, lab_inputs, edit_mask)`` on ``device``, cached."""
        import torch

        from paintkit.kernels.tolerance_counts import edit_mask_torch, srgb_to_lab

        device = torch.device(device)
        cached = self._torch_cache.get(device)
        if cached is None:
            a, i = self.answers, self.inputs
            if isinstance(a, np.ndarray):
                a, i = torch.from_numpy(a), torch.from_numpy(i)
            a, i = a.to(device), i.to(device)
            cached = (a, i, srgb_to_lab(a), srgb_to_lab(i), edit_mask_torch(a, i))
            self._torch_cache[device] = cached
        return cached

    def torch_problem(self, k: int, device):
        """Problem ``k`` as ``(answers, inputs, lab_a, lab_i, edit)`` batches of one."""
        import torch

        from paintkit.kernels.tolerance_counts import edit_mask_torch, srgb_to_lab

        if self.is_batch:
            a, i, la, li, e = self.torch_batch(device)
            return a[k:k + 1], i[k:k + 1], la[k:k + 1], li[k:k + 1], e[k:k + 1]
        key = (torch.device(device), k)
        cached = self._torch_cache.get(key)
        if cached is None:
            a, i = self.numpy_pair(k)
            a = torch.from_numpy(a)[None].to(device)
            i = torch.from_numpy(i)[None].to(device)
            cached = (a, i, srgb_to_lab(a), srgb_to_lab(i), edit_mask_torch(a, i))
            self._torch_cache[key] = cached
        return cached


def prepare_reference(answers, inputs) -> Reference:
    """Validate and prepare answers and inputs for :func:`paintkit.metrics.score`.

    Args:
        answers, inputs: batches in any form :func:`paintkit.metrics.score` accepts; each
            answer must have the size of its input.

    Raises:
        ValueError: the batches disagree in length or in a problem's size.
    """
    if isinstance(answers, Reference):
        return answers
    if inputs is None:
        raise ValueError("inputs: required unless answers is a prepared Reference")
    a = as_images(answers, "answers")
    i = as_images(inputs, "inputs")
    if len(a) != len(i):
        raise ValueError(f"answers, inputs: expected the same batch size, got {len(a)} and "
                         f"{len(i)}")
    if isinstance(a, list) != isinstance(i, list):
        a, i = _as_list(a), _as_list(i)
    if isinstance(a, list):
        for k, (x, y) in enumerate(zip(a, i, strict=True)):
            if x.shape != y.shape:
                raise ValueError(f"answers[{k}], inputs[{k}]: expected one size, got (H, W, 3) "
                                 f"{x.shape} and {y.shape}")
    else:
        if tuple(a.shape) != tuple(i.shape):
            raise ValueError(f"answers, inputs: expected one shape (B, H, W, 3), got "
                             f"{tuple(a.shape)} and {tuple(i.shape)}")
        if type(a) is not type(i):  # tensor + array: keep tensors
            import torch

            a = a if not isinstance(a, np.ndarray) else torch.from_numpy(a).to(i.device)
            i = i if not isinstance(i, np.ndarray) else torch.from_numpy(i).to(a.device)
        if not isinstance(a, np.ndarray) and a.device != i.device:
            raise ValueError(f"answers, inputs: expected tensors on one device, got {a.device} "
                             f"and {i.device}")
    return Reference(a, i)


def _as_list(batch) -> list[np.ndarray]:
    if isinstance(batch, list):
        return batch
    return [b.cpu().numpy() if not isinstance(b, np.ndarray) else b for b in batch]
