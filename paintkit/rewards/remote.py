"""The PaintBench reward from a ``paintkit serve`` service, in each trainer's own convention.

- :func:`verl_pixel_miou` (also named ``compute_score``, the name verl-omni's config looks
  up by default): verl-omni's HTTP reward function (``async def``, the parameters and
  return of ``verl_omni/utils/reward_score/http_scorer_client.py``): set the reward's
  ``path`` to this module and ``ground_truth`` is the problem key;
- :func:`flow_grpo_pixel_miou`: flow_grpo's ``factory(device) -> fn(images, prompts, metadata)``, as
  :func:`paintkit.rewards.flow_grpo.flow_grpo_pixel_miou` plus ``server_url``;
- :class:`FlowFactoryPixelMIoU`: Flow-Factory's pointwise model, as
  :class:`paintkit.rewards.flow_factory.FlowFactoryPixelMIoU` plus ``server_url``.

Samples name their problem by ``problem_id`` (metadata key ``problem_id``); images travel
lossless (raw uint8, or PNG). All reuse connections, retry 408/429/5xx and connection
errors with backoff (honouring ``Retry-After``) and raise on failure: never a silent 0.
See docs/serve.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from paintkit.metrics.fit import DEFAULT_FIT
from paintkit.old_names import deprecated_aliases
from paintkit.rewards.client import DEFAULT_TIMEOUT, RewardClient
from paintkit.rewards.flow_factory import FLOW_FACTORY_BASE, RewardOutput, _option
from paintkit.rewards.prompt_index import PromptIndex

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch, ImageLike


class RemoteFlowGrpoReward(Protocol):
    """What :func:`flow_grpo_pixel_miou` returns: flow_grpo's ``fn(images, prompts, metadata) ->
    (scores, info)``, with its service client as ``fn.client``."""

    client: RewardClient

    def __call__(self, images: ImageBatch, prompts: Sequence[str] | None,
                 metadata: Sequence[dict[str, Any]] | None
                 ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]: ...


_clients: dict[tuple[str, tuple[tuple[str, Any], ...]], RewardClient] = {}
_clients_lock = threading.Lock()


def shared_client(server_url: str, **settings: Any) -> RewardClient:
    """One :class:`RewardClient` per (url, settings) in this process (connections reused)."""
    key = (server_url, tuple(sorted(settings.items())))
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = RewardClient(server_url, **settings)
        return client


async def verl_pixel_miou(solution_image: ImageLike, ground_truth: str, server_url: str,
                          max_retries: int = 2, retry_backoff: float = 0.5, **kwargs: Any
                          ) -> dict[str, float]:
    """verl-omni's reward: score one generated image on a paintkit reward service.

    Args:
        solution_image: uint8 ``(C, H, W)`` or ``(1, C, H, W)`` tensor, as verl-omni passes
            it (float in [0, 1], arrays and PIL images are accepted too).
        ground_truth: the problem key (``problem_id``), e.g.
            ``"paintbench-translation-baseline-amount-000000"``.
        server_url: the service, e.g. ``"http://10.0.0.5:8000"``.
        max_retries, retry_backoff: retries after the first attempt, first wait in seconds
            (doubling; a ``Retry-After`` header wins).
        kwargs: ``fit`` (default ``"exact"``, as on every reward path; ``"cover"`` maps a
            letterboxed output back, see :mod:`paintkit.metrics.fit`), ``tolerance``,
            ``token``, ``encoding``
            (``"raw"``/``"png"``), ``timeout`` (seconds an attempt may take in all, default
            120); verl-omni's own (``data_source``, ``extra_info``, ...)
            are ignored.

    Returns:
        ``{"score": reward}`` (a float; the float32 value the in-process reward gives).

    Raises:
        ValueError: arguments out of range, or the service refused the item (unknown key,
            wrong size): never scored as 0.
        RemoteRewardError: the service failed or could not be reached after the retries.
    """
    if max_retries < 0:
        raise ValueError(f"max_retries must be non-negative, got {max_retries}")
    if retry_backoff < 0:
        raise ValueError(f"retry_backoff must be non-negative, got {retry_backoff}")
    if not isinstance(ground_truth, str):
        raise ValueError(f"ground_truth: expected the problem key (a string, the problem's "
                         f"problem_id), got {type(ground_truth).__name__}")
    client = shared_client(server_url, max_retries=max_retries, retry_backoff=retry_backoff,
                           fit=kwargs.get("fit", DEFAULT_FIT), token=kwargs.get("token"),
                           encoding=kwargs.get("encoding", "raw"),
                           timeout=kwargs.get("timeout", DEFAULT_TIMEOUT))
    score = await client.ascore_one(solution_image, ground_truth, tolerance=kwargs.get("tolerance"))
    return {"score": score}


def _problem_ids(metadata: Sequence[Any] | None, n: int, where: str = "metadata") -> list[str]:
    if metadata is None or len(metadata) != n:
        raise ValueError(f"{where}: expected one dict per image ({n}) carrying its problem_id, "
                         f"got {None if metadata is None else len(metadata)}")
    ids = []
    for k, meta in enumerate(metadata):
        pid = meta.get("problem_id") if isinstance(meta, dict) else None
        if not isinstance(pid, str):
            got = f"keys {sorted(meta)}" if isinstance(meta, dict) else type(meta).__name__
            raise ValueError(f"{where}[{k}]: the remote reward names each problem by its "
                             f"problem_id (a string); got {got}")
        ids.append(pid)
    return ids


def _batch(images: Any) -> list[Any]:
    """A batch tensor ``(B, C, H, W)`` or a list of images, as a list of single images."""
    return list(images) if not hasattr(images, "ndim") or images.ndim == 4 else [images]


#: The environment variable naming the service :func:`flow_grpo_pixel_miou` scores on when it is not
#: given ``server_url`` (flow_grpo builds each reward as ``factory(device)``).
URL_ENV = "PAINTKIT_REWARD_URL"


def flow_grpo_pixel_miou(device: DeviceLike = "cpu", *, server_url: str | None = None,
               fit: str = DEFAULT_FIT,
               tolerance: int | None = None, token: str | None = None, max_retries: int = 2,
               retry_backoff: float = 0.5, encoding: str = "raw",
               timeout: float = DEFAULT_TIMEOUT, **unused: Any) -> RemoteFlowGrpoReward:
    """flow_grpo's reward function, scored on a service: ``fn(images, prompts, metadata) ->
    (scores, info)`` as :func:`paintkit.rewards.flow_grpo.flow_grpo_pixel_miou` (``scores`` float32
    ``(B,)`` on ``device``; ``info["miou_mean"]`` a 0-d tensor). Each metadata dict carries
    the sample's ``problem_id``; ``timeout``: seconds an attempt may take in all. Safe from
    flow_grpo's executor threads (one connection pool, shared).

    ``server_url`` defaults to ``$PAINTKIT_REWARD_URL`` (read when the reward is built), so
    that flow_grpo's ``multi_score``, which builds each reward as ``factory(device)``, takes
    the factory itself: one line in its ``score_functions``::

        "paintbench": paintkit.rewards.remote.flow_grpo_pixel_miou,  # PAINTKIT_REWARD_URL=http://host:8000
    """
    import torch  # heavy: loaded on first use

    server_url = server_url if server_url is not None else os.environ.get(URL_ENV)
    if not server_url:
        raise ValueError(f"server_url: the remote reward needs the service's URL: pass "
                         f"server_url=..., or set {URL_ENV}=http://HOST:PORT (flow_grpo "
                         f"builds the reward as factory(device))")
    client = shared_client(server_url, fit=fit, token=token, max_retries=max_retries,
                           retry_backoff=retry_backoff, encoding=encoding, timeout=timeout)
    device = torch.device(device)

    def fn(images: ImageBatch, prompts: Sequence[str] | None,
           metadata: Sequence[dict[str, Any]] | None
           ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        ids = _problem_ids(metadata, len(images))
        scores = torch.from_numpy(client.score(_batch(images), ids, tolerance=tolerance)).to(device)
        mean = scores.mean() if len(scores) else torch.tensor(float("nan"), device=device)
        return scores, {"miou_mean": mean}

    reward = cast(RemoteFlowGrpoReward, fn)  # the function itself, with its client attached
    reward.client = client
    return reward


#: The name verl-omni's reward config looks up by default: the same function as
#: :func:`verl_pixel_miou`.
compute_score = verl_pixel_miou


class FlowFactoryPixelMIoU(FLOW_FACTORY_BASE):  # type: ignore[misc, valid-type]
    """Flow-Factory's pointwise reward model, scored on a service (a Flow-Factory
    ``PointwiseRewardModel`` when Flow-Factory is importable).

    Built as ``cls(config=reward_args, accelerator=accelerator)`` like
    :class:`paintkit.rewards.flow_factory.FlowFactoryPixelMIoU`; ``server_url`` (and ``fit``,
    ``tolerance``, ``token``) come from the config (attributes or ``extra_kwargs``) or as
    keywords. ``__call__(prompt=None, image=None, condition_images=None, metadata=None,
    **kwargs)`` returns a ``RewardOutput`` with float32 ``rewards`` ``(B,)`` on ``device``;
    each ``metadata[k]`` carries the sample's ``problem_id``, or, as Flow-Factory's GRPO loop
    passes no metadata, ``dataset`` (config or keyword: the folder ``paintkit generate
    --format flow-factory`` wrote) maps each prompt to it
    (:class:`~paintkit.rewards.prompt_index.PromptIndex`).
    """

    model_type = "pointwise"
    required_fields = ("image", "prompt", "condition_images")
    use_tensor_inputs = True

    def __init__(self, config: Any = None, accelerator: Any = None, *,
                 server_url: str | None = None, device: DeviceLike | None = None,
                 fit: str | None = None, tolerance: int | None = None,
                 token: str | None = None, dataset: Any = None) -> None:
        import torch  # heavy: loaded on first use

        self.config, self.accelerator = config, accelerator
        dataset = dataset if dataset is not None else _option(config, "dataset", None)
        self.prompts = PromptIndex(dataset) if dataset is not None else None
        server_url = server_url or _option(config, "server_url", None)
        if not server_url:
            raise ValueError("server_url: the remote reward needs the service's URL (config "
                             "server_url or server_url=...)")
        if device is None:
            device = _option(config, "device", None)
            if accelerator is not None and (device is None or str(device) == "cuda"):
                device = accelerator.device
        self.device = torch.device(device if device is not None else "cpu")
        self.tolerance = tolerance if tolerance is not None else _option(config, "tolerance", None)
        self.client = shared_client(server_url, fit=fit or _option(config, "fit", DEFAULT_FIT),
                                    token=token or _option(config, "token", None))

    def to(self, device: DeviceLike) -> FlowFactoryPixelMIoU:
        import torch  # heavy: loaded on first use

        self.device = torch.device(device)
        return self

    def eval(self) -> FlowFactoryPixelMIoU:
        return self

    def __call__(self, prompt: Any = None, image: ImageBatch | None = None,
                 condition_images: Any = None, metadata: Sequence[Any] | None = None,
                 **kwargs: Any) -> RewardOutput:
        import torch  # heavy: loaded on first use

        if image is None:
            raise ValueError("image: the PaintBench reward scores generated images; got none")
        if metadata is None and self.prompts is not None:
            prompts = [prompt] * len(image) if isinstance(prompt, str) else prompt
            conds = condition_images if condition_images is not None else [None] * len(image)
            ids = [self.prompts.find(prompts[k], conds[k], f"sample {k}")["problem_id"]
                   for k in range(len(image))]
        else:
            ids = _problem_ids(metadata, len(image))
        rewards = torch.from_numpy(self.client.score(_batch(image), ids,
                                                     tolerance=self.tolerance)).to(self.device)
        mean = rewards.mean() if len(ids) else torch.tensor(float("nan"), device=self.device)
        return RewardOutput(rewards, {"miou_mean": mean})


__getattr__ = deprecated_aliases(__name__, {"PixelIoURewardModel": "FlowFactoryPixelMIoU",
                                            "pixel_miou": "flow_grpo_pixel_miou"})
