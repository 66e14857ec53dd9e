"""A batch of outputs scored: the update step's batch face (:func:`tolerance_statistics`,
outputs -> a :class:`BatchToleranceStatistics` of per-tolerance counts) and the functional
:func:`score`."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from paintkit.arguments import check_int
from paintkit.kernels import numba_lock
from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.kernels.normalize import normalize_output_numba
from paintkit.metrics._torch_batches import fused_cuda_batch, fused_cuda_rewards, torch_statistics
from paintkit.metrics.coerce import MissingImage, as_images, float_range_error, is_tensor
from paintkit.metrics.counts import FUSED_FORMULAS, fused_cuda_available, numpy_histograms
from paintkit.metrics.result import ProblemScore, problem_scores
from paintkit.metrics.statistics import ToleranceStatistics
from paintkit.metrics.targets import Targets, prepare_targets
from paintkit.old_names import deprecated_aliases

if TYPE_CHECKING:
    import torch

    from paintkit.types import ImageBatch

BACKENDS = ("auto", "numba", "torch")
#: Float outputs are turned into uint8 and counted this many bytes of uint8 pixels at a
#: time: a fresh uint8 copy of a whole batch (200 MB for 64 outputs of 1024²) is page-faulted
#: and zeroed by the kernel on every call, which cost more than converting and counting it;
#: a chunk's memory is reused by the next chunk.
FLOAT_CHUNK_BYTES = 32 << 20


@dataclass
class BatchToleranceStatistics:
    """What the update step returns for a batch.

    Attributes:
        stats: the per-problem counts (on the outputs' device).
        output_sizes: ``(W, H)`` of each output as given, None when missing.
        answer_sizes: ``(W, H)`` of each answer.
        errors: why an output is missing, else None.
        bins: with ``return_bins``, per problem ``ceil(ΔE(O, A))`` clipped to 11 as uint8
            ``(H, W)`` (NumPy or tensor), None for missing outputs.
        delta_e: the ΔE formula the counts use.
    """

    stats: ToleranceStatistics
    output_sizes: list[tuple[int, int] | None]
    answer_sizes: list[tuple[int, int]]
    errors: list[str | None]
    bins: list[Any] | None = None
    delta_e: str = "cie76"

    def scores(self) -> list[ProblemScore]:
        return problem_scores(self.stats, self.output_sizes, self.answer_sizes, self.errors,
                              self.delta_e)


def _device_of(outputs: Any, reference: Targets) -> torch.device:
    import torch  # heavy: loaded on first use

    candidates = [outputs] if not isinstance(outputs, list) else outputs
    candidates = list(candidates) + [reference.answers] + (
        list(reference.answers) if isinstance(reference.answers, list) else [])
    for candidate in candidates:
        if isinstance(candidate, torch.Tensor):
            return candidate.device
    return torch.device("cpu")


def _choose_backend(backend: str, device: torch.device) -> str:
    """``"numba"`` (Numba kernels: on the CPU, or on CUDA the fused CUDA kernel) or
    ``"torch"`` (torch kernels on the tensors' device)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {BACKENDS}, got {backend!r}")
    if device.type == "cpu":
        return "numba" if backend == "auto" else backend
    if device.type == "cuda" and backend != "torch" and fused_cuda_available():
        return "numba"
    if backend == "numba":
        raise ValueError(f"backend: 'numba' runs on CPU tensors and on CUDA tensors where "
                         f"Numba's CUDA target works (numba-cuda and a driver), got tensors on "
                         f"{device}; use backend='torch'")
    return "torch"


def _numpy(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x.detach().cpu().numpy()


def _size(image: Any) -> tuple[int, int]:
    return int(image.shape[-2]), int(image.shape[-3])


def tolerance_statistics(
    outputs: ImageBatch, answers: ImageBatch | Targets, inputs: ImageBatch | None = None, *,
    backend: str = "auto", return_bins: bool = False, samples_per_problem: int = 1,
    delta_e: str = "cie76",
) -> BatchToleranceStatistics:
    """The update step: a batch of outputs -> per-problem counts for t = 0..10.

    Args:
        outputs: model outputs (tensor/array batch, or a list of tensors, arrays, PIL
            images, paths or None); each is normalised to its answer's size (docs/metric-definition.md §2).
            Undecodable or absent outputs are scored as missing (docs/metric-definition.md §8).
        answers: answer images in the same forms, or a :class:`Targets` (then
            ``inputs`` is omitted).
        inputs: input images.
        backend: ``"numba"`` (CPU), ``"torch"`` (the outputs' device) or ``"auto"``
            (Numba for CPU data, torch otherwise).
        return_bins: keep per-pixel ΔE bins (for diff images).
        samples_per_problem: ``G`` outputs per problem (GRPO), problem-major: outputs
            ``k * G .. k * G + G - 1`` belong to problem ``k``. The prepared target is read
            G times, never copied.
        delta_e: the colour difference: ``"cie76"`` (the benchmark's, docs/metric-definition.md §4, exact
            counts), ``"cie94"`` or ``"ciede2000"`` (opt-in; the formula in float64, see
            ``docs/neighbour-metrics.md`` for what "right" means for them).

    The torch path keeps everything on the outputs' device: problems are grouped by canvas
    size and each group runs as one sub-batch; the result rows are in input order.
    """
    check_delta_e(delta_e)  # before any work: a typo fails fast
    samples_per_problem = check_int(samples_per_problem, "samples_per_problem", 1)
    reference = prepare_targets(answers, inputs)
    fused = _fused_cuda_statistics(outputs, reference, backend, samples_per_problem,
                                   return_bins, delta_e)
    if fused is not None:
        return fused
    chunk = None if return_bins else _float_chunk(outputs, reference, backend,
                                                   samples_per_problem)
    if chunk is not None:
        chunked = _numba_float_chunks(outputs, reference, samples_per_problem, chunk, delta_e)
        if chunked is not None:
            return chunked
    outs = as_images(outputs, "outputs", allow_missing=True, numba=backend != "torch")
    if len(outs) != len(reference) * samples_per_problem:
        raise ValueError(f"outputs: expected a batch of {len(reference) * samples_per_problem} "
                         f"({len(reference)} problems x {samples_per_problem} samples), got "
                         f"{len(outs)}")
    device = _device_of(outs, reference)
    backend = _choose_backend(backend, device)
    if backend == "torch" or device.type != "cpu":
        hist, has_output, output_sizes, answer_sizes, errors, bins = torch_statistics(
            outs, reference, device, samples_per_problem, return_bins, delta_e,
            fused=backend == "numba")
    else:
        hist, has_output, output_sizes, answer_sizes, errors, bins = _numba_statistics(
            outs, reference, samples_per_problem, return_bins, delta_e)
    stats = ToleranceStatistics.from_histograms(hist, has_output)
    return BatchToleranceStatistics(stats, output_sizes, answer_sizes, errors, bins, delta_e)


def fused_cuda_counts(outputs: ImageBatch, reference: Targets, backend: str, samples: int,
                      return_bins: bool = False, delta_e: str = "cie76"
                      ) -> tuple[torch.Tensor, torch.Tensor, Any] | None:
    """``(hist, outside, is_float)`` of a CUDA batch tensor counted in one launch of the
    fused Numba CUDA kernel, or None when the general path applies (see
    :func:`~paintkit.metrics._torch_batches.fused_cuda_batch`)."""
    if return_bins or not _fused_cuda_applies(outputs, backend, delta_e):
        return None
    return fused_cuda_batch(outputs, reference, samples, delta_e)


def fused_cuda_reward(outputs: ImageBatch, reference: Targets, backend: str, samples: int,
                      tolerance: int | None, delta_e: str = "cie76") -> torch.Tensor | None:
    """float32 ``(N,)`` rewards of a CUDA batch tensor, counted and computed in one launch of
    the fused Numba CUDA kernel, or None when the general path applies (see
    :func:`~paintkit.metrics._torch_batches.fused_cuda_arrays`)."""
    if not _fused_cuda_applies(outputs, backend, delta_e):
        return None
    return fused_cuda_rewards(outputs, reference, samples, tolerance, delta_e)


def _fused_cuda_applies(outputs: ImageBatch, backend: str, delta_e: str
                        ) -> TypeGuard[torch.Tensor]:
    """A batch tensor on CUDA (any ΔE formula) whose backend resolves to the Numba kernels."""
    return delta_e in FUSED_FORMULAS and is_tensor(outputs) and outputs.device.type == "cuda" \
        and len(outputs.shape) == 4 and _choose_backend(backend, outputs.device) == "numba"


def _fused_cuda_statistics(outputs: Any, reference: Targets, backend: str, samples: int,
                           return_bins: bool, delta_e: str) -> BatchToleranceStatistics | None:
    """:func:`fused_cuda_counts` as the update step's statistics, or None."""
    counted = fused_cuda_counts(outputs, reference, backend, samples, return_bins, delta_e)
    if counted is None:
        return None
    import torch  # heavy: already loaded when outputs is a tensor

    hist, outside, is_float = counted
    n = len(hist)
    size = reference.answer_size(0)
    if is_float:  # the kernel's range check, read back (reward keeps it on the device)
        count = int(outside.sum())
        if count:
            raise float_range_error("outputs", count, "torch.float32", (n, *size[::-1], 3))
    stats = ToleranceStatistics.from_histograms(
        hist, torch.ones(n, dtype=torch.bool, device=hist.device))
    return BatchToleranceStatistics(stats, [size] * n, [size] * n, [None] * n, None, delta_e)


def _float_chunk(outputs: Any, reference: Targets, backend: str, samples: int) -> int | None:
    """Outputs per chunk when a float CPU batch tensor is converted and counted chunk by
    chunk (Numba backend, one answer size), else None."""
    if backend == "torch" or not is_tensor(outputs):
        return None
    import torch  # heavy: already loaded when outputs is a tensor

    if outputs.device.type != "cpu" or outputs.dtype != torch.float32 \
            or outputs.ndim != 4 or not reference.is_batch \
            or len(outputs) != len(reference) * samples or not outputs[0].numel():
        return None
    chunk = max(1, FLOAT_CHUNK_BYTES // outputs[0].numel())
    return chunk if chunk < len(outputs) else None


def _numba_float_chunks(outputs: Any, reference: Targets, samples: int, chunk: int,
                        delta_e: str) -> BatchToleranceStatistics | None:
    """:func:`tolerance_statistics` of a float CPU batch, ``chunk`` outputs at a time (see
    :data:`FLOAT_CHUNK_BYTES`); None when the batch needs the general path (an output of
    another size than the answers, or values the conversion refuses: the general path
    raises the same error as ever)."""
    import torch  # heavy: loaded on first use

    histograms = numpy_histograms(delta_e)
    answers, inputs = reference.numpy_batch()
    size = reference.answer_size(0)
    n, hists = len(outputs), []
    if chunk >= samples:  # whole groups per chunk: their problems are a slice, not copied
        chunk -= chunk % samples
    with numba_lock():  # several threads scoring at once (a no-op under Numba's TBB layer)
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            try:
                outs = as_images(outputs[start:stop], "outputs", allow_missing=True)
            except ValueError:
                return None
            if isinstance(outs, list) or _size(outs[0]) != size:
                return None
            problems: slice | np.ndarray = slice(start // samples, stop // samples)
            per = samples
            if chunk % samples:  # a group larger than a chunk: its problem repeated per output
                problems, per = np.arange(start, stop) // samples, 1
            hists.append(histograms(np.ascontiguousarray(_numpy(outs)), answers[problems],
                                    inputs[problems], samples_per_problem=per))
            del outs  # this chunk's memory is the next chunk's
    stats = ToleranceStatistics.from_histograms(torch.from_numpy(np.concatenate(hists)),
                                                torch.ones(n, dtype=torch.bool))
    sizes = [size] * n
    return BatchToleranceStatistics(stats, list(sizes), sizes, [None] * n, None, delta_e)


def _numba_statistics(outs: Any, reference: Targets, samples: int, return_bins: bool,
                      delta_e: str = "cie76") -> tuple[Any, ...]:
    with numba_lock():  # several threads scoring at once (a no-op under Numba's TBB layer)
        return _numba_statistics_locked(outs, reference, samples, return_bins, delta_e)


def _numba_statistics_locked(outs: Any, reference: Targets, samples: int, return_bins: bool,
                             delta_e: str) -> tuple[Any, ...]:
    import torch  # heavy: loaded on first use

    tolerance_histograms_numba = numpy_histograms(delta_e)

    n = len(outs)
    answer_sizes = [reference.answer_size(k // samples) for k in range(n)]
    whole_batch = not isinstance(outs, list) and reference.is_batch and n > 0 \
        and _size(outs[0]) == answer_sizes[0]
    if whole_batch:
        a, i = reference.numpy_batch()  # each problem read by its G samples, not repeated
        result = tolerance_histograms_numba(
            np.ascontiguousarray(_numpy(outs)), a, i, return_bins=return_bins,
            samples_per_problem=samples)
        hist, bins = result if return_bins else (result, None)
        bins = list(bins) if bins is not None else None
        return (torch.as_tensor(hist), torch.ones(n, dtype=torch.bool), list(answer_sizes),
                answer_sizes, [None] * n, bins)
    hists, bins, output_sizes, errors, present = [], [], [], [], []
    for k in range(n):
        out = outs[k]
        missing = isinstance(out, MissingImage)
        present.append(not missing)
        errors.append(out.error if missing else None)
        output_sizes.append(None if missing else _size(out))
        a, i = reference.numpy_pair(k // samples)
        o = a if missing else normalize_output_numba(_numpy(out), answer_sizes[k])
        res = tolerance_histograms_numba(
            np.ascontiguousarray(o)[None], a[None], i[None], return_bins=return_bins)
        h, b = res if return_bins else (res, None)
        hists.append(h)
        bins.append(None if missing or b is None else b[0])
    # NumPy histograms are joined before touching torch: alternating Numba and torch
    # OpenMP pools per problem costs milliseconds of spin-waiting on small machines.
    hist = torch.from_numpy(np.concatenate(hists)) if hists else \
        torch.zeros((0, 3, 12), dtype=torch.int64)
    return (hist, torch.tensor(present, dtype=torch.bool), output_sizes, answer_sizes, errors,
            bins if return_bins else None)


#: What :func:`score` does with an output path that does not exist.
MISSING_POLICIES = ("error", "zero")


def check_output_paths(outputs: Any, missing: str = "error") -> None:
    """``FileNotFoundError`` for the first output given as a path that does not exist, unless
    ``missing == "zero"`` (absent outputs are expected and score 0, as in ``paintkit eval``).

    ``None`` is always an explicit "no output", and a file that exists but does not decode
    is the model's broken output: both score 0 under either policy.
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing: expected one of {', '.join(map(repr, MISSING_POLICIES))}, "
                         f"got {missing!r}")
    if missing == "zero":
        return
    items = outputs if isinstance(outputs, list | tuple) else [outputs]
    for k, item in enumerate(items):
        if isinstance(item, str) and item.lstrip().startswith("<"):
            continue  # an SVG document, not a path
        if isinstance(item, str | os.PathLike) and not os.path.exists(item):
            where = f"outputs[{k}]" if isinstance(outputs, list | tuple) else "outputs"
            raise FileNotFoundError(
                errno.ENOENT, f"{where}: no such file; pass missing='zero' to score outputs "
                "that are absent as 0 (as paintkit eval does)", os.fspath(item))


def score(outputs: ImageBatch, answers: ImageBatch | Targets, inputs: ImageBatch | None = None,
          *, backend: str = "auto", samples_per_problem: int = 1, delta_e: str = "cie76",
          missing: str = "error") -> list[ProblemScore]:
    """Score model outputs against answers (docs/metric-definition.md): one :class:`ProblemScore` per problem.

    Args:
        outputs: ``(B, 3, H, W)`` / ``(B, H, W, 3)`` uint8 or float-in-[0, 1] tensor or
            array, or a list of per-problem images (tensors, arrays, PIL images, paths,
            None for missing). Outputs of another size or mode are normalised (docs/metric-definition.md §2).
        answers: the answer images, same forms; or a prepared :class:`Targets`.
        inputs: the input images (omit when ``answers`` is a Targets).
        backend: ``"auto"`` (Numba on CPU, torch elsewhere), ``"numba"`` or ``"torch"``.
        samples_per_problem: G outputs per problem, problem-major (see
            :func:`tolerance_statistics`).
        delta_e: ``"cie76"`` (default, the benchmark's metric), ``"cie94"`` or
            ``"ciede2000"``; the results then carry that name (``to_schema()`` writes
            ``<formula>_threshold`` / ``<formula>_mean`` blocks).
        missing: ``"error"`` (default): an output path that does not exist raises
            ``FileNotFoundError`` (a mistyped path is not a score of 0); ``"zero"``: it
            scores 0 with ``has_output=False``, as absent outputs do in ``paintkit eval``.
            ``None`` and undecodable files always score 0.

    Returns:
        Per problem: counts, edit/preservation accuracy and IoU per tolerance t = 0..10,
        ``miou``, ``over_edit_ratio``; ``to_schema()`` gives the docs/file-layout.md ``output`` dict.

    Raises:
        ValueError: batches of different lengths, an answer and input of different sizes,
            unsupported dtype/shape, NaN or out-of-range floats.
        FileNotFoundError: an output path that does not exist (unless ``missing="zero"``).

    Example:
        >>> import numpy as np
        >>> inp = np.zeros((1, 8, 8, 3), np.uint8); ans = inp.copy(); ans[0, :4] = 255
        >>> round(score(ans, ans, inp)[0].miou, 3)
        1.0
    """
    check_output_paths(outputs, missing)
    return tolerance_statistics(outputs, answers, inputs, backend=backend,
                                samples_per_problem=samples_per_problem,
                                delta_e=delta_e).scores()


__getattr__ = deprecated_aliases(__name__, {"BatchStatistics": "BatchToleranceStatistics"})
