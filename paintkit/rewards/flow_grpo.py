"""flow_grpo style reward: ``flow_grpo_pixel_miou(device)`` -> ``fn(images, prompts, metadata)``.

flow_grpo builds each reward of its ``multi_score`` table as ``factory(device)`` (when the
factory has a ``device`` parameter) and calls it with the decoded images of a batch
(float ``(B, 3, R, R)`` in [0, 1] on the GPU: it always generates squares at
``config.resolution``, the input image having been resized to that square), the prompts and
the per-sample metadata lines of the prompt dataset, from a pool of 8 threads. It expects
``(scores, info)``.

The metadata of an editing dataset carries the input under ``"image"``, a path relative to
the dataset folder; the answer goes beside it (``"answer"``, also a relative path, or any
of :data:`~paintkit.rewards.metadata_images.ANSWER_KEYS`). Relative paths are resolved against
``root`` (default: the ``PAINTKIT_REWARD_ROOT`` environment variable, else the working
directory). Samples of one problem (GRPO's G samples per prompt) share one prepared
target, cached across steps and threads.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from paintkit.io.images import ImageDecodeError
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.old_names import deprecated_aliases
from paintkit.rewards.grouped_scoring import images_list, score_grouped
from paintkit.rewards.metadata_images import ANSWER_KEYS, INPUT_KEYS, find, resolve
from paintkit.rewards.target_cache import DEFAULT_CACHE_BYTES, TargetCache, keys_of

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch, PathLike


class FlowGrpoReward(Protocol):
    """What :func:`flow_grpo_pixel_miou` returns: flow_grpo's ``fn(images, prompts, metadata) ->
    (scores, info)``, with its prepared-problem cache as ``fn.cache``."""

    cache: TargetCache

    def __call__(self, images: ImageBatch, prompts: Sequence[str] | None,
                 metadata: Sequence[dict[str, Any]] | None
                 ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]: ...


#: Where flow_grpo's metadata lines carry the input: ``"image"`` besides the usual keys.
FLOW_GRPO_INPUT_KEYS = (*INPUT_KEYS, "image")
#: The environment variable naming the dataset folder relative paths are resolved against.
ROOT_ENV = "PAINTKIT_REWARD_ROOT"


def flow_grpo_pixel_miou(device: DeviceLike = "cpu", *, root: PathLike | None = None, fit: str = DEFAULT_FIT,
               tolerance: int | None = None, cache_bytes: int = DEFAULT_CACHE_BYTES,
               cache_size: int | None = None) -> FlowGrpoReward:
    """A flow_grpo reward function scoring edits with the PaintBench mIoU.

    Args:
        device: where scoring runs (the images' device: images elsewhere are refused).
        root: the dataset folder relative paths in the metadata are resolved against
            (default: ``$PAINTKIT_REWARD_ROOT``, else the working directory).
        fit: how outputs of another size map onto the answer. Default ``"exact"`` (another
            size is an error naming the choices), as on every reward path; flow_grpo resizes
            the input to a ``config.resolution`` square without keeping its aspect ratio, so
            a run at another resolution than the problems' passes ``"stretch"`` (each axis
            mapped back on its own; see :mod:`paintkit.metrics.fit`).
        tolerance: None for the mIoU, or an integer 0..10 for IoU_t.
        cache_bytes: device memory the prepared problems kept between calls may take
            (default 1 GiB; a 1024x1024 problem takes 6 MiB on the CPU and with the fused
            CUDA kernel, 31 MiB where the torch kernel counts).
        cache_size: also at most this many problems (None: bytes only).

    Returns:
        ``fn(images, prompts, metadata) -> (scores, info)``: ``images`` float ``(B, 3, H, W)``
        in [0, 1] (or uint8, or a list of per-sample images), ``metadata`` a list of B dicts
        each carrying the answer and the input (``"image"``); ``scores`` float32 ``(B,)`` on
        ``device``; ``info`` ``{"miou_mean": 0-d tensor}`` (a tensor: reading it is the
        caller's choice, no device sync here).

    Registration in flow_grpo's ``multi_score`` (one line in its ``score_functions``)::

        "paintbench": paintkit.rewards.flow_grpo_pixel_miou,   # root from $PAINTKIT_REWARD_ROOT

    Example (``flow_grpo_pixel_miou("cuda")`` on a GPU):
        >>> import torch
        >>> from paintkit.sources import generate
        >>> problem = generate("translation", seed=0, condition="baseline", mode="amount")
        >>> fn = flow_grpo_pixel_miou("cpu")
        >>> images = torch.from_numpy(problem.answer).permute(2, 0, 1)[None].float() / 255
        >>> scores, info = fn(images, [problem.instruction],
        ...                   [{"answer": problem.answer, "image": problem.input}])
        >>> scores.tolist(), float(info["miou_mean"])
        ([1.0], 1.0)
    """
    import torch  # heavy: loaded on first use

    check_fit(fit)
    cache = TargetCache(torch.device(device), cache_bytes, cache_size)
    base = root

    def fn(images: ImageBatch, prompts: Sequence[str] | None,
           metadata: Sequence[dict[str, Any]] | None
           ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        if metadata is None or len(metadata) != len(images):
            raise ValueError(f"metadata: expected one dict per image ({len(images)}) carrying "
                             f"the answer and input, got {None if metadata is None else len(metadata)}")
        folder = base if base is not None else os.environ.get(ROOT_ENV)
        answers = [_found(find(m, ANSWER_KEYS, "answer", f"metadata[{k}]"), folder, base,
                          f"metadata[{k}] answer") for k, m in enumerate(metadata)]
        inputs = [_found(find(m, FLOW_GRPO_INPUT_KEYS, "input", f"metadata[{k}]"), folder, base,
                         f"metadata[{k}] input") for k, m in enumerate(metadata)]
        keys = keys_of(answers, inputs, metadata)
        outputs, invalid = images_list(images, cache.device)
        scores = score_grouped(outputs, keys, answers, inputs, cache, fit, tolerance, invalid)
        mean = scores.mean() if len(scores) else torch.tensor(float("nan"), device=scores.device)
        return scores, {"miou_mean": mean}

    reward = cast(FlowGrpoReward, fn)  # the function itself, with its cache attached
    reward.cache = cache
    return reward


def _found(image: Any, folder: PathLike | None, root: PathLike | None, where: str) -> Any:
    """``image`` resolved against ``folder``; a relative path that names no file there is a
    :class:`~paintkit.io.images.ImageDecodeError` (a ``ValueError``, as any image that cannot
    be read) saying where it was looked for and how to point there."""
    resolved = resolve(image, folder)
    if isinstance(image, str | os.PathLike) and not os.path.isabs(os.fspath(image)) and \
            not os.path.exists(resolved):
        if root is not None:
            there = f"under root={os.fspath(root)!r}"
        elif folder is not None:
            there = f"under ${ROOT_ENV}={os.fspath(folder)!r}"
        else:
            there = (f"in the working directory {os.getcwd()!r} (no root= given, "
                     f"${ROOT_ENV} unset)")
        raise ImageDecodeError(f"{where}: {os.fspath(image)}: no such file {there}; relative "
                                f"paths are read from the dataset folder: pass "
                                f"flow_grpo_pixel_miou(root=DATASET_FOLDER) or set {ROOT_ENV}")
    return resolved


__getattr__ = deprecated_aliases(__name__, {"pixel_miou": "flow_grpo_pixel_miou"})
