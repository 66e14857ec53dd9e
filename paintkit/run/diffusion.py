"""diffusers image-editing pipelines as :class:`~paintkit.run.interface.EditModel`.

:data:`PIPELINES` holds the built-in editors with their published defaults (inference
steps and guidance scales of the PaintBench paper's runs); every value can be overridden.
``diffusers:<repo or path>`` loads any pipeline, its class picked from the model's
``model_index.json`` by ``DiffusionPipeline.from_pretrained``.

A problem with reference images goes to the pipelines that read a list of images as the
images of one edit (:data:`MULTI_IMAGE_PIPELINES`) as ``image=[input, *references]``, in
order; every other pipeline takes one image and refuses such a problem with one line (that
problem's failure; the rest of the batch runs) rather than dropping a reference.

Weights are loaded the way diffusers loads them (``from_pretrained``: the hub cache, or a
local folder with ``--weights``); paintkit downloads nothing itself. diffusers, transformers
and accelerate are imported only when a pipeline is built (``pip install 'paintkit[run]'``).
"""

from __future__ import annotations

import inspect
import sys
import time
import warnings
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from paintkit.run.interface import EditModel, EditRequest, EditResult, too_many_images
from paintkit.run.load_errors import (
    cpu_estimate,
    load_failure,
    offline_without_copy,
    quiet_loading,
)

if TYPE_CHECKING:
    import torch
    from PIL import Image


@dataclass(frozen=True)
class PipelineSpec:
    """A built-in diffusers editor. ``call``: the defaults passed to the pipeline's
    ``__call__`` (steps, guidance); ``batched``: several problems per forward pass (a list
    of images and a list of prompts); pipelines that read a list of images as reference
    images of one edit run the problems of a batch one by one."""

    repo: str
    pipeline: str
    call: dict = field(default_factory=dict)
    batched: bool = True
    dtype: str = "bfloat16"
    note: str = ""


PIPELINES: dict[str, PipelineSpec] = {
    "instruct-pix2pix": PipelineSpec(
        "timbrooks/instruct-pix2pix", "StableDiffusionInstructPix2PixPipeline",
        {"num_inference_steps": 100, "guidance_scale": 7.5, "image_guidance_scale": 1.5},
        dtype="float16", note="~1B, ~4 GB GPU memory in fp16"),
    "flux.1-kontext-dev": PipelineSpec(
        "black-forest-labs/FLUX.1-Kontext-dev", "FluxKontextPipeline",
        {"num_inference_steps": 28, "guidance_scale": 3.5}, note="12B"),
    "flux.2-dev": PipelineSpec(
        "black-forest-labs/FLUX.2-dev", "Flux2Pipeline",
        {"num_inference_steps": 50, "guidance_scale": 4.0}, batched=False, note="32B"),
    "flux.2-klein-9b": PipelineSpec(
        "black-forest-labs/FLUX.2-klein-9B", "Flux2KleinPipeline",
        {"num_inference_steps": 50, "guidance_scale": 4.0}, batched=False, note="9B"),
    # Qwen's true CFG runs only with a negative prompt (without one the pipelines warn and
    # ignore true_cfg_scale); " " is the one of Qwen's own examples
    "qwen-image-edit-2511": PipelineSpec(
        "Qwen/Qwen-Image-Edit-2511", "QwenImageEditPlusPipeline",
        {"num_inference_steps": 50, "true_cfg_scale": 4.0, "negative_prompt": " "},
        batched=False, note="20B"),
    "qwen-image-edit": PipelineSpec(
        "Qwen/Qwen-Image-Edit", "QwenImageEditPipeline",
        {"num_inference_steps": 50, "true_cfg_scale": 4.0, "negative_prompt": " "},
        batched=False, note="20B"),
    "longcat-image-edit": PipelineSpec(
        "meituan-longcat/LongCat-Image-Edit", "LongCatImageEditPipeline",
        {"num_inference_steps": 50, "guidance_scale": 4.0}, batched=False, note="6B"),
}

DTYPES = ("float32", "float16", "bfloat16")

#: Pipelines whose ``image`` may be a list: the images of one edit (Qwen's "Picture 1",
#: "Picture 2", ...; FLUX.2's reference images), not a batch of problems. A problem's input
#: and its references go to them as one list, so they run the problems of a batch one by
#: one; diffusers' other edit pipelines read a list as a batch and take one image per edit.
MULTI_IMAGE_PIPELINES = frozenset({
    "QwenImageEditPlusPipeline", "Flux2Pipeline", "Flux2KleinPipeline", "Flux2KleinKVPipeline"})

# pipelines whose published weights hold a transformers processor that needs torchvision
# (transformers 5: Qwen2VLProcessor's video processor, PixtralProcessor)
VISION_PROCESSOR_PIPELINES = frozenset({
    "QwenImageEditPipeline", "QwenImageEditPlusPipeline", "LongCatImageEditPipeline",
    "Flux2Pipeline"})


def _has_torchvision() -> bool:
    try:
        from transformers.utils import is_torchvision_available
    except ImportError:
        return True  # nothing to say
    return bool(is_torchvision_available())


def _import_diffusers() -> ModuleType:
    try:
        import diffusers
        import torch  # noqa: F401 - diffusers imports without it, its pipelines do not
    except ImportError as exc:
        raise ValueError(f"diffusers models need the run extra ({exc.name or exc} is not "
                         "installed): pip install 'paintkit[run]'") from None
    return diffusers


def default_device() -> str:
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def resolved_revision(repo: str, revision: str | None) -> str | None:
    """The commit of a hub model as loaded from the local cache (the snapshot folder's
    name), ``revision`` when it cannot be resolved, None for a local folder."""
    from pathlib import Path

    if Path(repo).exists():
        return revision
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(repo, revision=revision, local_files_only=True)).name
    except Exception:  # noqa: BLE001 - no cache entry, offline: keep what was asked for
        return revision


class DiffusersModel(EditModel):
    """A diffusers pipeline behind :meth:`edit_batch`.

    Args:
        name: a key of :data:`PIPELINES` or ``diffusers:<repo or path>``.
        weights: a local folder (or another repo id) to load instead of the default repo.
        revision: the hub revision (branch, tag or commit) to load.
        dtype: ``float32`` / ``float16`` / ``bfloat16`` (default: the spec's; float32 on CPU).
        device: ``cuda``, ``cuda:1``, ``cpu``, ``mps`` (default: the best available).
        offload: ``"model"`` or ``"sequential"`` CPU offload (accelerate) for GPUs with
            less memory than the model needs.
        batch_size: problems per forward pass (run one by one where the pipeline reads a
            list of images as references).
        call: overrides of the pipeline's call arguments (``num_inference_steps``,
            ``guidance_scale``, ...); unknown names are refused.
    """

    def __init__(self, name: str, *, weights: str | None = None, revision: str | None = None,
                 dtype: str | None = None, device: str | None = None, offload: str | None = None,
                 batch_size: int = 1, call: dict | None = None, pipeline: Any = None) -> None:
        self.name = name
        if name.startswith("diffusers:"):
            spec = PipelineSpec(name[len("diffusers:"):], "DiffusionPipeline", {})
        elif name in PIPELINES:
            spec = PIPELINES[name]
        else:
            raise ValueError(f"model {name!r}: not a built-in diffusers model; expected one of "
                             f"{', '.join(PIPELINES)} or diffusers:<repo or path>")
        unavailable = None if pipeline is not None else \
            offline_without_copy(weights or spec.repo, revision)
        if unavailable:  # known before torch and diffusers take seconds to import
            raise ValueError(f"model {name!r}: {unavailable}")
        diffusers = _import_diffusers()
        import torch

        self.device = device or default_device()
        if dtype is None:
            dtype = "float32" if self.device == "cpu" else spec.dtype
        if dtype not in DTYPES:
            raise ValueError(f"dtype: expected one of {', '.join(DTYPES)}, got {dtype!r}")
        if offload not in (None, "model", "sequential"):
            raise ValueError(f"offload: expected 'model' or 'sequential', got {offload!r}")
        self.repo, self.revision, self.dtype, self.offload = weights or spec.repo, revision, \
            dtype, offload
        self.batch_size = batch_size
        if pipeline is None:
            with quiet_loading():  # importing the pipeline imports transformers' processors
                cls = getattr(diffusers, spec.pipeline, None)
            if cls is None:
                raise ValueError(f"model {name!r}: this diffusers ({diffusers.__version__}) has "
                                 f"no {spec.pipeline}; upgrade diffusers")
            try:
                with warnings.catch_warnings(), quiet_loading():
                    warnings.simplefilter("ignore", FutureWarning)  # torch_dtype -> dtype
                    pipeline = cls.from_pretrained(self.repo, revision=revision,
                                                   torch_dtype=getattr(torch, dtype))
            except Exception as exc:
                if spec.pipeline in VISION_PROCESSOR_PIPELINES and not _has_torchvision():
                    raise ValueError(
                        f"model {name!r}: loading {spec.pipeline} failed ({exc}); its text "
                        "encoder's processor (transformers' Qwen2-VL or Pixtral processor) "
                        "needs torchvision: pip install torchvision (the build that matches "
                        "your torch)") from exc
                raise ValueError(f"model {name!r}: {load_failure(exc, self.repo, revision)}") \
                    from exc
        self.pipeline = pipeline
        if offload == "model":
            pipeline.enable_model_cpu_offload(device=self.device)
        elif offload == "sequential":
            pipeline.enable_sequential_cpu_offload(device=self.device)
        else:
            pipeline.to(self.device)
        if hasattr(pipeline, "set_progress_bar_config"):
            pipeline.set_progress_bar_config(disable=True)
        accepted = inspect.signature(type(pipeline).__call__).parameters
        self.call = {k: v for k, v in spec.call.items() if k in accepted}
        for key, value in (call or {}).items():
            if key not in accepted:
                raise ValueError(f"{type(pipeline).__name__} takes no argument {key!r}")
            self.call[key] = tuple(value) if isinstance(value, list) else value
        self.batched = spec.batched and type(pipeline).__name__ not in MULTI_IMAGE_PIPELINES
        self.max_images = None if type(pipeline).__name__ in MULTI_IMAGE_PIPELINES else 1
        self._sizes = "height" in accepted and "width" in accepted
        self._timed = False
        self._max_area = "max_area" in accepted

    def refusal(self, request: EditRequest) -> str | None:
        return too_many_images(type(self.pipeline).__name__, request, self.max_images,
                               "run a pipeline that takes several (qwen-image-edit-2511, "
                               "flux.2-dev, flux.2-klein-9b)")

    def _generators(self, requests: list[EditRequest]) -> list[torch.Generator]:
        import torch

        device = "cpu" if self.offload else self.device
        return [torch.Generator(device).manual_seed(r.seed) for r in requests]

    def _call(self, requests: list[EditRequest]) -> list[Any]:
        kwargs = dict(self.call)
        size = requests[0].image.size
        if self._sizes and all(r.image.size == size for r in requests):
            kwargs.setdefault("width", size[0])
            kwargs.setdefault("height", size[1])
            if self._max_area:  # Kontext rescales to max_area (1024^2) unless told the input's
                kwargs.setdefault("max_area", size[0] * size[1])
        images: list[Image.Image] | Image.Image = [r.image for r in requests]
        prompts: list[str] | str = [r.instruction for r in requests]
        if len(requests) == 1 and not self.batched:  # one edit: its input and references
            request = requests[0]
            images = list(request.images) if request.references else request.image
            prompts = request.instruction
        out = self.pipeline(image=images, prompt=prompts, generator=self._generators(requests),
                            **kwargs)
        return out.images

    def edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        if self.device != "cpu" or self._timed:
            return self._edit_batch(requests)
        self._timed = True  # the first batch on the CPU: estimate the whole run from it
        start = time.perf_counter()
        results = self._edit_batch(requests)
        left = None if self.expected_problems is None else \
            self.expected_problems - len(requests)
        line = cpu_estimate(self.name, time.perf_counter() - start, len(requests), left)
        if line is not None:
            print(f"paintkit run: warning: {line}", file=sys.stderr, flush=True)
        return results

    def _edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        groups: list[list[EditRequest]] = []
        if self.batched:  # one forward pass per input size (a batch shares one shape)
            by_size: dict = {}
            for r in requests:
                by_size.setdefault(r.image.size, []).append(r)
            groups = list(by_size.values())
        else:
            groups = [[r] for r in requests]
        produced = {}
        for group in groups:
            for request, image in zip(group, self._call(group), strict=True):
                produced[id(request)] = image
        return [EditResult(image=produced[id(r)]) for r in requests]

    def describe(self) -> dict:
        import diffusers

        return {"name": self.name, "kind": "diffusers", "repo": self.repo,
                "revision": resolved_revision(self.repo, self.revision),
                "pipeline": type(self.pipeline).__name__, "dtype": self.dtype,
                "device": self.device, "offload": self.offload, "call": self.call,
                "diffusers": diffusers.__version__}
