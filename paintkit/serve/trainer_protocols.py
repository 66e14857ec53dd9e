"""The reward-service wire formats trainers already speak, answered by ``paintkit serve``.

- Flow-Factory's remote reward (``reward_server/example_server.py``): ``POST /compute`` with
  JSON ``{"prompt": [...], "image": [base64 PNG, ...], "condition_images": [[...], ...],
  "extra": {...}}`` -> ``{"rewards": [...]}``. The problem of each image comes from
  ``extra``: ``problem_id`` (a list, one per image; a string for a single image) or
  ``metadata`` (a list of dicts carrying ``problem_id``); ``extra.fit`` and
  ``extra.tolerance`` as on ``/v1/score``. The answer adds ``iou`` (per image the 11
  per-tolerance IoUs). An image that cannot be scored fails the request (422 naming the
  sample): Flow-Factory's client raises, never a reward of 0.
- UniRL's reward service (``reward_service/schemas.py``): ``POST /score`` with
  ``{"requests": [{"history": [{"text", "image_b64"}, ...], "required_rewards": [...],
  "metadata": {...}}]}`` -> ``{"results": [{reward: {sub_metric: float}}], "errors":
  [{reward: message}]}``; the scored image is the last turn's (an edit request's history is
  ``[(instruction, source), (instruction, edited)]``), the problem is
  ``metadata["problem_id"]``. Rewards ``paintbench`` (sub-metrics ``score`` = ``miou`` and
  ``iou_0`` .. ``iou_10``) and ``GET /rewards``. An unknown reward name is a 400, as UniRL's
  own server answers; a request that cannot be scored is listed in ``errors``.

Images must be PNG: a JPEG (UniRL's client default) is refused and named as lossy, in
``errors`` or the 422. Pickle bodies are refused by the guard, as on every path.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from paintkit.io.images import ImageDecodeError, decode_rgb_bytes
from paintkit.metrics.version import METRIC_VERSION
from paintkit.rewards.prompt_index import PromptIndex
from paintkit.serve.images import ImageRefused, from_base64

REWARD_NAME = "paintbench"
FITS = ("exact", "cover", "stretch")
JPEG_MAGIC = b"\xff\xd8\xff"


class Refused(ValueError):
    """A request (or one item of it) that is not scored: one line saying why."""


def one_line(exc: BaseException) -> str:
    """``exc`` as one line (its type named unless it is a ``ValueError``)."""
    text = " ".join(str(exc).split())
    return text if isinstance(exc, ValueError) else f"{type(exc).__name__}: {text}"


def _error(status: int, message: str) -> JSONResponse:
    # ``detail`` as FastAPI's own errors read (Flow-Factory's server raises HTTPException)
    return JSONResponse({"detail": message, "error": message, "metric_version": METRIC_VERSION},
                        status_code=status)


def _image_bytes(text: Any, where: str) -> bytes:
    if not isinstance(text, str):
        raise Refused(f"{where}: expected a base64 string, got {type(text).__name__}")
    if text.startswith("data:") and "," in text:  # a data URL
        text = text.split(",", 1)[1]
    data = from_base64(text, where)
    if data[:3] == JPEG_MAGIC:
        raise Refused(f"{where}: a JPEG, a lossy encoding: its pixels are not the generated "
                      f"ones and the exact reward would be wrong; send PNG (UniRL's "
                      f"RewardClient(image_format='PNG'))")
    return data


def _options(extra: dict, where: str) -> tuple[str, int | None]:
    fit = extra.get("fit", "exact")
    if fit not in FITS:
        raise Refused(f"{where}.fit: expected one of {', '.join(FITS)}, got {fit!r}")
    tolerance = extra.get("tolerance")
    if tolerance is not None and (not isinstance(tolerance, int) or isinstance(tolerance, bool)
                                  or not 0 <= tolerance <= 10):
        raise Refused(f"{where}.tolerance: expected an integer in [0, 10], got {tolerance!r}")
    return fit, tolerance


def _ids_from_prompts(index: PromptIndex, data: dict, n: int) -> list[str]:
    """Each image's problem id found from its prompt and first condition image (what
    Flow-Factory's own client sends), in the ``--prompts`` dataset."""
    prompts = data.get("prompt")
    prompts = [prompts] * n if isinstance(prompts, str) else prompts
    if not isinstance(prompts, list) or len(prompts) != n:
        raise Refused(f"prompt: expected one prompt per image ({n}) to find the problems by")
    conds = data.get("condition_images") or [None] * n
    ids = []
    for k in range(n):
        cond = conds[k] if k < len(conds) else None
        image = None
        if isinstance(cond, list) and cond:
            try:
                image = decode_rgb_bytes(_image_bytes(cond[0], f"condition_images[{k}][0]"),
                                         f"condition_images[{k}][0]")
            except ImageDecodeError as exc:
                raise Refused(str(exc)) from None
        try:
            ids.append(index.find(prompts[k], image, f"image[{k}]")["problem_id"])
        except ValueError as exc:
            raise Refused(str(exc)) from None
    return ids


def _problem_ids(extra: Any, n: int, prompts=None) -> list[str]:
    """One problem id per image of a Flow-Factory request, from its ``extra`` (or, with
    ``prompts`` = ``(PromptIndex, request)``, from its prompts when ``extra`` names none)."""
    if not isinstance(extra, dict):
        extra = {}
    ids = extra.get("problem_id", extra.get("problem_ids"))
    if ids is None and prompts is not None and not isinstance(extra.get("metadata"), list):
        return _ids_from_prompts(prompts[0], prompts[1], n)
    if ids is None and isinstance(extra.get("metadata"), list):
        ids = [m.get("problem_id") if isinstance(m, dict) else None for m in extra["metadata"]]
    if isinstance(ids, str) and n == 1:
        ids = [ids]
    if not isinstance(ids, list) or len(ids) != n or not all(isinstance(i, str) for i in ids):
        raise Refused(f"extra.problem_id: give each image's problem id (a list of {n} strings, "
                      f"or extra.metadata with a problem_id per image; or serve with "
                      f"--prompts DATASET to find them from the prompts); got "
                      f"{'nothing' if ids is None else type(ids).__name__}")
    return ids


async def _scored(service, items: list[tuple[str, bytes, str]], fit: str,
                  tolerance: int | None) -> list[Any]:
    """Per ``(problem_id, PNG bytes, where)`` a result dict, or the ``ValueError`` it got."""
    async def one(problem_id, data, where):
        try:
            return await service.prepare_item(problem_id, data, None, fit, tolerance, True, where)
        except ValueError as exc:
            return exc

    prepared = await asyncio.gather(*(one(*item) for item in items))
    ready = [p for p in prepared if not isinstance(p, ValueError)]
    scored = iter(await service.batcher.score(ready))
    out = []
    for p in prepared:
        if isinstance(p, ValueError):
            out.append(p)
            continue
        result = next(scored)
        if isinstance(result, BaseException) and not isinstance(result, ValueError):
            raise result  # the service's own failure: a 500, never a reward
        out.append(result)
    return out


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Refused(f"malformed body: not JSON ({exc})") from None
    except RecursionError:
        raise Refused("malformed body: JSON nested too deeply to read") from None


def add_trainer_routes(app: FastAPI, service, body_of) -> None:
    """``POST /compute`` (Flow-Factory), ``POST /score`` and ``GET /rewards`` (UniRL) on
    ``app``; ``body_of(request)`` is the body as the guard read it."""
    limit = service.options.max_items
    folder = getattr(service.options, "prompts", None)
    prompt_index = PromptIndex(folder) if folder is not None else None

    @app.post("/compute")
    async def flow_factory_compute(request: Request):
        """Flow-Factory's remote reward request: ``{"rewards": [...]}`` per image."""
        try:
            data = await service.run(_json, await body_of(request))
            if not isinstance(data, dict) or not isinstance(data.get("image"), list):
                raise Refused("image: expected a list of base64 PNG images")
            images = data["image"]
            if len(images) > limit:
                return _error(413, f"{len(images)} images exceed the service's limit of {limit} "
                                   f"per request (--max-items)")
            extra = data.get("extra") if isinstance(data.get("extra"), dict) else {}
            fit, tolerance = _options(extra, "extra")
            ids = await service.run(_problem_ids, extra, len(images),
                                    None if prompt_index is None else (prompt_index, data))
            items = [(ids[k], await service.run(_image_bytes, images[k], f"image[{k}]"),
                      f"image[{k}] ({ids[k]})") for k in range(len(images))]
        except (Refused, ImageRefused) as exc:
            return _error(400, str(exc))
        results = await _scored(service, items, fit, tolerance)
        failed = [(k, r) for k, r in enumerate(results) if isinstance(r, ValueError)]
        if failed:
            return _error(422, f"{len(failed)} of {len(results)} images not scored: " +
                          "; ".join(one_line(r) for _, r in failed[:3]))
        return JSONResponse({"rewards": [r["reward"] for r in results],
                             "iou": [r["iou"] for r in results],
                             "metric_version": METRIC_VERSION})

    @app.get("/rewards")
    async def unirl_rewards():
        return JSONResponse({"rewards": [REWARD_NAME]})

    @app.post("/score")
    async def unirl_score(request: Request):
        """UniRL's ``ScoreRequest`` -> ``ScoreResponse``."""
        try:
            data = await service.run(_json, await body_of(request))
            requests = data.get("requests") if isinstance(data, dict) else None
            if not isinstance(requests, list):
                raise Refused("requests: expected a list of reward requests")
            if len(requests) > limit:
                return _error(413, f"{len(requests)} requests exceed the service's limit of "
                                   f"{limit} (--max-items)")
            for k, req in enumerate(requests):
                names = req.get("required_rewards") if isinstance(req, dict) else None
                if not isinstance(names, list) or not isinstance(req.get("history"), list):
                    raise Refused(f"requests[{k}]: expected history and required_rewards lists")
                unknown = [n for n in names if n != REWARD_NAME]
                if unknown:
                    raise Refused(f"unknown reward: {unknown[0]}. available: ['{REWARD_NAME}']")
        except Refused as exc:
            return _error(400, str(exc))
        results: list[dict] = [{} for _ in requests]
        errors: list[dict] = [{} for _ in requests]
        groups: dict[tuple[str, int | None], list[tuple[int, str, bytes, str]]] = {}
        for k, req in enumerate(requests):
            if REWARD_NAME not in req["required_rewards"]:
                continue
            where = f"requests[{k}]"
            try:
                meta = req.get("metadata") if isinstance(req.get("metadata"), dict) else {}
                pid = meta.get("problem_id")
                if not isinstance(pid, str):
                    raise Refused(f"{where}.metadata.problem_id: the PaintBench reward needs the "
                                  f"problem id (a string)")
                fit, tolerance = _options(meta, f"{where}.metadata")
                turn = req["history"][-1] if req["history"] else None
                if not isinstance(turn, dict) or turn.get("image_b64") is None:
                    raise Refused(f"{where}.history[-1]: no image_b64 (the edited image)")
                data_bytes = await service.run(_image_bytes, turn["image_b64"],
                                               f"{where}.history[-1].image_b64")
            except (Refused, ImageRefused) as exc:
                errors[k][REWARD_NAME] = str(exc)
                continue
            groups.setdefault((fit, tolerance), []).append((k, pid, data_bytes, f"{where} ({pid})"))
        for (fit, tolerance), members in groups.items():
            scored = await _scored(service, [m[1:] for m in members], fit, tolerance)
            for (k, *_), result in zip(members, scored, strict=True):
                if isinstance(result, ValueError):
                    errors[k][REWARD_NAME] = one_line(result)
                    continue
                metrics = {"score": result["reward"], "miou": result["reward"]}
                metrics.update({f"iou_{t}": v for t, v in enumerate(result["iou"])})
                results[k][REWARD_NAME] = metrics
        return JSONResponse({"results": results, "errors": errors})
