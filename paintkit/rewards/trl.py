"""trl style reward: ``reward(prompts, completions, **dataset_columns) -> list[float]``.

trl's ``GRPOTrainer`` and ``RLOOTrainer`` call each plain reward function once per batch as
``func(prompts=..., completions=..., completion_ids=..., **columns)``: ``completions`` are
the decoded texts (a string per sample, or for conversational datasets a list holding one
``{"role": "assistant", "content": ...}`` message), ``columns`` every dataset column except
``prompt`` as one list per column (each prompt's row repeated for its G generations), plus
``trainer_state``, ``log_extra`` and ``log_metric``. The result is one float per sample
(None becomes NaN). Vision-language datasets carry the input image in an ``image`` column
(or ``images``, a list per row).

A trl policy writes text, so the edited image is made from it: ``render(text, input_image,
row)`` (e.g. an edit program, SVG, or an operation name executed on the input), or an image
part in the completion message (``{"type": "image", "image": ...}``), or the completion
itself when it is already an image. Each sample's problem comes from its row: the answer
and input image columns (:data:`~paintkit.rewards.metadata_images.ANSWER_KEYS`, with the input also
from ``image`` / ``images``), or its ``problem_id`` (or a verl-style ``reward_model``
``{"ground_truth": <problem_id>}``) looked up in a benchmark folder (``root``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from paintkit.metrics.coerce import as_images
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.old_names import deprecated_aliases
from paintkit.rewards.grouped_scoring import images_list, score_grouped
from paintkit.rewards.metadata_images import ANSWER_KEYS, INPUT_KEYS, find, resolve
from paintkit.rewards.problem_index import ProblemIndex
from paintkit.rewards.target_cache import DEFAULT_CACHE_BYTES, TargetCache, keys_of

if TYPE_CHECKING:
    from paintkit.types import DeviceLike, ImageLike, PathLike


class TrlReward(Protocol):
    """What :func:`trl_pixel_miou` returns: trl's ``fn(prompts, completions, **columns)
    -> list[float]``, named ``__name__``, with its prepared-problem cache as ``fn.cache``."""

    __name__: str
    cache: TargetCache

    def __call__(self, prompts: Sequence[Any] | None = None,
                 completions: Sequence[Any] | None = None, **columns: Any) -> list[float]: ...


#: Columns trl adds to every call that are not dataset columns.
TRL_EXTRAS = ("trainer_state", "log_extra", "log_metric", "environments", "completion_ids")


def _image_part(completion: Any) -> Any:
    """The image in a completion, if it holds one: the completion itself (an array, a PIL
    image, a tensor) or an ``{"type": "image"}`` part of its message content."""
    if hasattr(completion, "shape") or hasattr(completion, "mode"):
        return completion
    messages = completion if isinstance(completion, list) else [completion]
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        for part in content if isinstance(content, list) else ():
            if isinstance(part, dict) and part.get("type") == "image" and part.get("image") is not None:
                return part["image"]
    return None


def completion_text(completion: Any) -> str:
    """The text of a completion: the string, or the assistant message's text content."""
    if isinstance(completion, str):
        return completion
    messages = completion if isinstance(completion, list) else [completion]
    texts = []
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [p.get("text", "") for p in content
                      if isinstance(p, dict) and p.get("type") == "text"]
    return "".join(texts)


def _input_of(row: dict[str, Any], k: int) -> Any:
    for key in INPUT_KEYS:
        if row.get(key) is not None:
            return row[key]
    if row.get("image") is not None:
        return row["image"]
    images = row.get("images")
    if isinstance(images, list | tuple) and images:
        return images[0]
    raise ValueError(f"sample {k}: no input image; expected a column among "
                     f"{', '.join(INPUT_KEYS)}, image or images, got columns {sorted(row)}")


def _problem_id(row: dict[str, Any]) -> Any:
    if row.get("problem_id") is not None:
        return row["problem_id"]
    model = row.get("reward_model")
    if isinstance(model, dict) and isinstance(model.get("ground_truth"), str):
        return model["ground_truth"]
    return None


def trl_pixel_miou(render: Callable[[str, Any, dict[str, Any]], ImageLike | None] | None = None,
                      *, root: PathLike | None = None, device: DeviceLike = "cpu",
                      fit: str = DEFAULT_FIT, tolerance: int | None = None,
                      cache_bytes: int = DEFAULT_CACHE_BYTES, cache_size: int | None = None,
                      name: str = "paintbench_miou") -> TrlReward:
    """A trl reward function scoring each completion's edited image with the PaintBench mIoU.

    Args:
        render: ``render(text, input_image, row) -> image`` (uint8 ``(H, W, 3)`` array, PIL
            image, float tensor in [0, 1], or None for "no image": scores 0). ``input_image``
            is the row's full-size input as uint8 ``(H, W, 3)``; ``row`` the sample's dataset
            columns. Not needed when completions carry images.
        root: a benchmark folder written by ``paintkit generate``, for rows that name their
            problem by ``problem_id`` (or ``reward_model["ground_truth"]``) instead of
            carrying the answer image.
        device: where scoring runs; rendered host images move there once.
        fit: outputs of another size than the answer (default ``"exact"``: an error naming
            the choices, as on every reward path; see :mod:`paintkit.metrics.fit`).
        tolerance: None for the mIoU, or an integer 0..10 for IoU_t.
        cache_bytes, cache_size: bound on the prepared problems kept between calls (the G
            samples of a prompt and later steps reuse them).
        name: the function's ``__name__``; trl logs rewards under it.

    Returns:
        ``fn(prompts=None, completions=..., **columns) -> list[float]`` (one Python float per
        completion: trl builds its tensor from the list, so the scores cross to the host
        once per call, a ``(B,)`` float32 copy).
    """
    check_fit(fit)
    index = ProblemIndex(root) if root is not None else None
    cache = TargetCache(device, cache_bytes, cache_size)

    def fn(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
           **columns: Any) -> list[float]:
        if completions is None:
            raise ValueError("completions: trl passes the generated completions; got none")
        n = len(completions)
        data = {key: value for key, value in columns.items() if key not in TRL_EXTRAS}
        for key, value in data.items():
            if not isinstance(value, list | tuple) or len(value) != n:
                raise ValueError(f"column {key!r}: expected one value per completion ({n}), "
                                 f"got {type(value).__name__} of length "
                                 f"{len(value) if hasattr(value, '__len__') else '?'}")
        rows = [{key: value[k] for key, value in data.items()} for k in range(n)]
        answers, inputs, metas = [], [], []
        for k, row in enumerate(rows):
            answer, inp = _problem(row, k, index)
            answers.append(answer)
            inputs.append(inp)
            pid = _problem_id(row)
            metas.append({"problem_id": pid} if pid is not None else None)
        outputs, present = [], []
        for k, (completion, row) in enumerate(zip(completions, rows, strict=True)):
            image = _image_part(completion)
            if image is None:
                if render is None:
                    raise ValueError(
                        f"completions[{k}]: a text completion and no render=; trl policies "
                        f"write text, so give trl_pixel_miou(render=...) to turn it into the "
                        f"edited image (or put an image part in the completion)")
                inp = as_images([inputs[k]], f"sample {k} input")[0]
                image = render(completion_text(completion), inp, row)
            if image is not None:
                outputs.append(image)
                present.append(k)
        scores = [0.0] * n  # no image: the model produced nothing, as the metric scores it
        if present:
            def sub(seq: Sequence[Any]) -> list[Any]:
                return [seq[k] for k in present]

            images, invalid = images_list(outputs, cache.device, "completions")
            values = score_grouped(images, keys_of(sub(answers), sub(inputs), sub(metas)),
                                   sub(answers), sub(inputs), cache, fit, tolerance, invalid)
            for k, value in zip(present, values.tolist(), strict=True):
                scores[k] = value
        return scores

    fn.__name__ = fn.__qualname__ = name
    reward = cast(TrlReward, fn)  # the function itself, with its cache attached
    reward.cache = cache
    return reward


def _problem(row: dict[str, Any], k: int, index: ProblemIndex | None) -> tuple[Any, Any]:
    """``(answer, input)`` of one sample from its columns."""
    if any(row.get(key) is not None for key in ANSWER_KEYS):
        answer = resolve(find(row, ANSWER_KEYS, "answer", f"sample {k}"))
        return answer, resolve(_input_of(row, k))
    pid = _problem_id(row)
    if pid is not None and index is not None:
        inp, answer = index.paths(pid)
        return answer, inp
    raise ValueError(
        f"sample {k}: the PaintBench reward needs each sample's answer and input; give answer "
        f"and input image columns (one of {', '.join(ANSWER_KEYS[:3])}; input from "
        f"{', '.join(INPUT_KEYS[:2])}, image or images), or a problem_id column with "
        f"root= (a benchmark folder); got columns {sorted(row)}"
        + ("" if pid is None else f" and problem_id {pid!r} but no root="))


__all__ = ["completion_text", "trl_pixel_miou"]


__getattr__ = deprecated_aliases(__name__, {"pixel_miou_reward": "trl_pixel_miou"})
