"""Flow-Factory's pointwise reward model, loadable by dotted path.

Flow-Factory's reward registry imports a reward model class from its dotted path
(``paintkit.rewards.flow_factory.FlowFactoryPixelMIoU``) and builds it as
``cls(config=reward_args, accelerator=accelerator)``. Its ``RewardProcessor`` keeps only the
models that are instances of its ``PointwiseRewardModel`` / ``GroupwiseRewardModel``, so
when Flow-Factory is importable the class here subclasses its ``PointwiseRewardModel``
(resolved when this module is imported; :data:`FLOW_FACTORY_BASE` names the base found).
The processor passes every field of the sample (``prompt``, ``image``, ``condition_images``,
``height``, ...; ``use_tensor_inputs`` is set, so images come as float ``(3, H, W)``
tensors in [0, 1], generated at the trainer's square resolution, and the condition images
*resized* for the model). A problem with reference images has several condition images per
sample (a list, or stacked ``(num_conditions, 3, H, W)``): the source input first, then its
references (the ``images`` of its ``--format flow-factory`` line); only the input is read,
so the figures are those of the problem alone.

Flow-Factory's GRPO loop drops the dataset's other columns before the sample is made (the
edit adapters' ``inference`` takes no ``metadata``), so the problem is found from the
prompt: with ``dataset`` (the folder ``paintkit generate --format flow-factory`` wrote,
the one the trainer's ``dataset_dir`` names) each prompt is looked up in its JSONL lines and
the condition image tells apart problems that share an instruction
(:class:`~paintkit.rewards.prompt_index.PromptIndex`); targets come from the dataset's
images or, where absent, are regenerated from the problem key. A caller that has them may
instead give each sample's ``metadata`` dict (answer and input keys as in
:data:`~paintkit.rewards.metadata_images.ANSWER_KEYS`, or its ``problem_id`` with a benchmark folder
``root``), or ``answer_images=`` with full-size conditions. The result is a
:class:`RewardOutput` whose ``rewards`` is float32 ``(B,)`` on ``device``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paintkit.arguments import check_int
from paintkit.metrics.coerce import is_tensor, tensor_to_uint8_nhwc
from paintkit.metrics.device import canonical_device
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.old_names import deprecated_aliases
from paintkit.rewards.grouped_scoring import images_list, score_grouped
from paintkit.rewards.metadata_images import ANSWER_KEYS, INPUT_KEYS, find, resolve
from paintkit.rewards.problem_index import ProblemIndex
from paintkit.rewards.prompt_index import PromptIndex, is_dataset_folder
from paintkit.rewards.target_cache import DEFAULT_CACHE_BYTES, TargetCache, keys_of

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch, PathLike


@dataclass
class RewardOutput:
    """What a pointwise reward model returns: ``rewards`` float32 ``(B,)``; ``extra_info``
    a dict of per-batch tensors (here the batch mean, as a tensor: no device sync)."""

    rewards: torch.Tensor
    extra_info: dict[str, Any] = field(default_factory=dict)


def _flow_factory_base() -> type:
    """Flow-Factory's ``PointwiseRewardModel`` when Flow-Factory is importable, else
    ``object`` (the class then works alone, as for tests and other trainers)."""
    if importlib.util.find_spec("flow_factory") is None:
        return object
    try:
        module = importlib.import_module("flow_factory.rewards.abc")
    except ImportError:
        return object
    return getattr(module, "PointwiseRewardModel", object)


#: The base class the reward models here derive from: Flow-Factory's
#: ``PointwiseRewardModel`` when it is importable, else ``object``.
FLOW_FACTORY_BASE: type = _flow_factory_base()


def _option(config: Any, name: str, default: Any) -> Any:
    if config is None:
        return default
    if isinstance(config, dict):
        return config.get(name, default)
    value = getattr(config, name, None)
    if value is None:  # options beyond the trainer's own fields
        extra = getattr(config, "extra_kwargs", None) or getattr(config, "kwargs", None) or {}
        value = extra.get(name) if isinstance(extra, dict) else None
    return default if value is None else value


class FlowFactoryPixelMIoU(FLOW_FACTORY_BASE):  # type: ignore[misc, valid-type]
    """Pointwise reward: per image its PaintBench mIoU (or IoU_t) against its answer.

    Args:
        config: the trainer's reward arguments (an object or a dict); read for ``device``,
            ``fit``, ``tolerance``, ``dataset``, ``root`` and ``cache_bytes`` (as attributes
            or in its ``extra_kwargs``). A device string in its place is the device.
        dataset: the Flow-Factory dataset folder (``train.jsonl`` / ``test.jsonl``); a
            ``root`` holding those files counts as ``dataset`` too.
        accelerator: the trainer's accelerator; its ``device`` is used when the config
            names none (or names plain ``"cuda"``).
        device, fit, tolerance, root, cache_bytes: keyword overrides. ``fit`` defaults to
            ``"exact"``, as on every reward path (another size is an error naming the
            choices); Flow-Factory generates squares, stretching the canvas: ``"stretch"``.

    ``__call__(prompt=None, image=None, condition_images=None, metadata=None,
    answer_images=None, **kwargs)`` returns a :class:`RewardOutput`.
    """

    model_type = "pointwise"
    required_fields = ("image", "prompt", "condition_images")
    use_tensor_inputs = True  # the generated floats, quantized here (rounded), not by PIL

    def __init__(self, config: Any = None, accelerator: Any = None, *,
                 device: DeviceLike | None = None, fit: str | None = None,
                 tolerance: int | None = None, root: PathLike | None = None,
                 dataset: PathLike | None = None,
                 cache_bytes: int | None = None, cache_size: int | None = None) -> None:
        import torch  # heavy: loaded on first use

        if isinstance(config, str | torch.device):
            config, device = None, config if device is None else device
        self.config, self.accelerator = config, accelerator
        if device is None:
            device = _option(config, "device", None)
            if accelerator is not None and (device is None or str(device) == "cuda"):
                device = accelerator.device
        self.device = canonical_device(device if device is not None else "cpu")
        self.fit = check_fit(fit or _option(config, "fit", DEFAULT_FIT))
        cache_size = check_int(cache_size, "cache_size", 1, allow_none=True)
        self.tolerance = tolerance if tolerance is not None else _option(config, "tolerance", None)
        root = root if root is not None else _option(config, "root", None)
        dataset = dataset if dataset is not None else _option(config, "dataset", None)
        if dataset is None and is_dataset_folder(root):
            dataset, root = root, str(Path(root) / "images")  # type: ignore[arg-type]
        self.prompts = PromptIndex(dataset) if dataset is not None else None
        self.index = ProblemIndex(root) if root is not None else None
        self.root = root
        self.cache = TargetCache(self.device, cache_bytes or _option(
            config, "cache_bytes", DEFAULT_CACHE_BYTES), cache_size)

    def to(self, device: DeviceLike) -> FlowFactoryPixelMIoU:
        """Move scoring to ``device`` (prepared targets are dropped)."""
        self.device = canonical_device(device)
        self.cache = TargetCache(self.device, self.cache.max_bytes, self.cache.max_items)
        return self

    def eval(self) -> FlowFactoryPixelMIoU:
        return self

    def __call__(self, prompt: Any = None, image: ImageBatch | None = None,
                 condition_images: Sequence[Any] | None = None,
                 metadata: Sequence[Any] | None = None,
                 answer_images: Sequence[Any] | None = None, **kwargs: Any) -> RewardOutput:
        import torch  # heavy: loaded on first use

        if image is None:
            raise ValueError("image: the PaintBench reward scores generated images; got none")
        n = len(image)
        answers, inputs, metas = [], [], []
        prompts = [prompt] * n if isinstance(prompt, str) else prompt
        for k in range(n):
            meta = metadata[k] if metadata is not None and k < len(metadata) else None
            cond = condition_images[k] if condition_images is not None and \
                k < len(condition_images) else None
            text = prompts[k] if prompts is not None and k < len(prompts) else None
            answer, inp, meta = self._problem(k, meta, cond, answer_images, text)
            answers.append(answer)
            inputs.append(inp)
            metas.append(meta)
        keys = keys_of(answers, inputs, metas)
        outputs, invalid = images_list(image, self.device, "image")
        rewards = score_grouped(outputs, keys, answers, inputs, self.cache, self.fit,
                                self.tolerance, invalid)
        mean = rewards.mean() if n else torch.tensor(float("nan"), device=self.device)
        return RewardOutput(rewards, {"miou_mean": mean})

    def _problem(self, k: int, meta: Any, cond: Any, answer_images: Sequence[Any] | None,
                 prompt: Any = None) -> tuple[Any, Any, Any]:
        """``(answer, full-size input, metadata)`` of sample ``k``."""
        # The condition images are the line's images in order: the source input first, then
        # any reference images, which never change a score (only the input is read).
        if isinstance(cond, list | tuple) and cond:
            cond = cond[0]
        elif is_tensor(cond) and cond.ndim == 4:  # stacked: (num_conditions, 3, H, W)
            cond = cond[0]
        if isinstance(cond, dict):  # {"input": ..., "answer": ...}
            meta = {**cond, **(meta or {})}
        if isinstance(meta, dict):
            if any(meta.get(key) is not None for key in ANSWER_KEYS):
                answer = resolve(find(meta, ANSWER_KEYS, "answer", f"metadata[{k}]"), self.root)
                inp = resolve(find(meta, (*INPUT_KEYS, "image"), "input", f"metadata[{k}]"),
                              self.root)
                return answer, inp, meta
            if meta.get("problem_id") is not None and self.index is not None:
                inp, answer = self.index.paths(meta["problem_id"])
                return answer, inp, meta
        if self.prompts is not None and prompt is not None and answer_images is None:
            line = self.prompts.find(prompt, cond, f"sample {k}")
            answer, inp = self.prompts.target(line)
            return answer, inp, {"problem_id": line["problem_id"]}
        if answer_images is not None and cond is not None:
            answer, inp = _hwc(answer_images[k]), _hwc(cond)
            if hasattr(answer, "shape") and hasattr(inp, "shape") and \
                    tuple(answer.shape[:2]) != tuple(inp.shape[:2]):
                raise ValueError(
                    f"condition_images[{k}]: {inp.shape[1]}x{inp.shape[0]}, but its answer is "
                    f"{answer.shape[1]}x{answer.shape[0]}: the trainer resized the condition, "
                    f"so give the full-size input in metadata[{k}] (or its problem_id with root=)")
            return answer, inp, None
        raise ValueError(
            f"sample {k}: the PaintBench reward needs the answer and the full-size input; give "
            f"dataset= (the folder paintkit generate --format flow-factory wrote), or "
            f"metadata[{k}] with the answer and input (keys {', '.join(ANSWER_KEYS[:3])} / "
            f"{', '.join(INPUT_KEYS[:3])}), or its problem_id with root= (a benchmark folder), "
            f"or answer_images=[...] with full-size condition_images; got "
            f"{'metadata keys ' + str(sorted(meta)) if isinstance(meta, dict) else 'neither'}")


def _hwc(image: Any) -> Any:
    """Tensors from the trainer are usually ``(3, H, W)``: channels last for the metric."""
    return tensor_to_uint8_nhwc(image, "condition image")[0] if is_tensor(image) else image


__getattr__ = deprecated_aliases(__name__, {"PixelIoURewardModel": "FlowFactoryPixelMIoU"})
