"""The reward service: a FastAPI application over :mod:`paintkit.serve.scoring`.

``create_app(options)`` builds it; ``paintkit serve`` runs it on uvicorn and
:mod:`paintkit.serve.ray_serve` deploys the same application on Ray Serve. Endpoints:

- ``GET /health``: 200 ``{"status": "ok", ...}`` once it can score (503 while warming up);
- ``POST /v1/score``: JSON :class:`~paintkit.serve.protocol.BatchRequest`, or a binary
  batch (:data:`~paintkit.serve.protocol.BINARY_BATCH`: a header line, then the images'
  bytes) -> per item a reward or an error (:class:`~paintkit.serve.protocol.BatchResponse`);
- ``POST /v1/score/{problem_id}``: one image as the body (``image/png``, or
  ``application/octet-stream`` raw RGB with ``?shape=H,W,3``) -> :class:`ScoreResponse`.

Request bodies are parsed, problems looked up and images decoded in a thread pool, never on
the event loop; scoring runs in the batcher's threads (:class:`~paintkit.serve.batcher.ScoreBatcher`):
on the CPU one per core, each batch's kernels on one core
(:func:`~paintkit.serve.scoring.kernel_threads`; a batch alone takes the idle cores
too), on CUDA one.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial

import numpy as np
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from paintkit._version import __version__
from paintkit.metrics.targets import prepare_targets
from paintkit.metrics.version import METRIC_VERSION
from paintkit.parallel import default_jobs
from paintkit.serve import protocol
from paintkit.serve.batcher import ScoreBatcher
from paintkit.serve.guard import GuardMiddleware, request_body
from paintkit.serve.images import (
    ImageRefused,
    check_size,
    declared_size,
    decode,
    from_base64,
    state_pixels,
    svg_pixels,
)
from paintkit.serve.options import ServeOptions
from paintkit.serve.problems import ProblemTargets
from paintkit.serve.scoring import ScoreItem, kernel_threads, score_items
from paintkit.serve.sequential_bodies import BodyTurns
from paintkit.serve.single_image_route import FastPath
from paintkit.serve.trainer_protocols import add_trainer_routes
from paintkit.worker_memory import reuse_freed_memory

_ERRORS = {code: {"model": protocol.ErrorResponse, "description": text} for code, text in (
    (400, "malformed body or parameters"), (401, "missing or wrong bearer token"),
    (408, "request body stalled"), (413, "request body too large"),
    (415, "unsupported content type (pickle is always refused)"),
    (500, "scoring failed for this request; the service keeps serving"))}
_IMAGE_BODY = {"requestBody": {"required": True, "content": {
    "image/png": {"schema": {"type": "string", "format": "binary"}},
    "application/octet-stream": {"schema": {"type": "string", "format": "binary"},
                                 "description": "raw RGB uint8, H*W*3 bytes; give ?shape=H,W,3"}}}}

_BATCH_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/BatchRequest"}},
    protocol.BINARY_BATCH: {"schema": {"type": "string", "format": "binary"},
                            "description": "a BinaryBatchHeader as one line of JSON, a newline, "
                                           "then each item's bytes back to back"}}}}


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if isinstance(exc, ValueError) else f"{type(exc).__name__}: {text}"


class RewardService:
    """What one process (or Ray Serve replica) of the service holds: prepared problems,
    the batcher and the decode threads."""

    def __init__(self, options: ServeOptions):
        reuse_freed_memory()  # each request's pixels reuse the last one's memory
        self.options = options
        self.device = options.torch_device()
        self.targets = ProblemTargets(self.device, options.cache_mb << 20, options.benchmarks,
                                      options.max_pixels)
        self.body_turns = BodyTurns()  # large bodies read in turn (the guard takes them)
        threads = options.score_threads or (default_jobs() if self.device.type == "cpu" else 1)
        self.batcher = ScoreBatcher(partial(score_items, device=self.device),
                                    options.max_batch, options.batch_wait_ms(self.device), threads,
                                    kernel_threads if threads > 1 else None,
                                    busy_elsewhere=lambda: self.body_turns.busy)
        self.decoders = ThreadPoolExecutor(options.decode_threads, thread_name_prefix="paintkit-decode")
        self._warm = None
        self.fast_answers = 0  # requests answered by paintkit.serve.single_image_route

    def warm_up(self) -> None:
        """Score one tiny problem (compiles the kernels) so that /health means "can score"."""
        inp = np.zeros((8, 8, 3), np.uint8)
        answer = inp.copy()
        answer[2:5, 2:5] = 255
        target = prepare_targets([answer], [inp], device=self.device)
        result = score_items([ScoreItem("warm-up", target, answer)], self.device)[0]
        if isinstance(result, BaseException):
            raise result
        if self.targets.index is not None:  # damaged problem files are listed by /health
            self.targets.index.scan()

    def start_warm_up(self):
        if self._warm is None:
            self._warm = asyncio.get_running_loop().run_in_executor(self.decoders, self.warm_up)
        return self._warm

    @property
    def ready(self) -> bool:
        return self._warm is not None and self._warm.done() and self._warm.exception() is None

    def prepare(self, problem_id: str, data: bytes, shape, fit: str, tolerance, figures: bool,
                where: str, target=None) -> ScoreItem:
        """One item checked and decoded (in a decode thread, or on the event loop when
        :meth:`prepare_item` has its ``target`` already); ``ValueError`` says why not."""
        if target is None:
            try:
                target = self.targets.get(problem_id)
            except ValueError:
                raise
            except Exception as exc:  # noqa: BLE001 - a generator failure is this item's error
                raise ValueError(f"problem {problem_id!r}: cannot make it: {one_line(exc)}") from None
        size = declared_size(data, shape, where)
        check_size(size, target.answer_size(0), fit, self.options.max_pixels, where)
        return ScoreItem(problem_id, target, decode(data, shape, where, self.options.max_pixels),
                         fit, tolerance, figures)

    def parse_batch(self, body, binary: bool = False):
        """``(request, images)`` of a batch body: a :class:`~protocol.BatchRequest` and
        None (JSON, images in base64 inside), or a :class:`~protocol.BinaryBatchHeader` and
        each item's bytes (:data:`~protocol.BINARY_BATCH`); :class:`ImageRefused` says why not,
        :class:`~protocol.BatchTooLarge` when it holds more than ``--max-items`` items."""
        limit = self.options.max_items
        try:
            if not binary:
                protocol.check_item_count(body, limit)  # before the items are parsed
                request = protocol.BatchRequest.model_validate_json(body)
                protocol.check_item_count(request.items, limit)
                return request, None
            header, rest = protocol.split_binary_batch(body)
            protocol.check_item_count(header, limit)
            request = protocol.BinaryBatchHeader.model_validate_json(header)
            protocol.check_item_count(request.items, limit)
            return request, protocol.binary_payloads(request, rest)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error.get("loc", ())) or "body"
            raise ImageRefused(f"malformed body: {where}: {error.get('msg')} "
                               f"({exc.error_count()} error(s))") from None
        except protocol.BatchTooLarge:
            raise
        except ValueError as exc:
            raise ImageRefused(f"malformed body: {exc}") from None

    async def run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.decoders, fn, *args)

    async def prepare_item(self, problem_id: str, data, shape, fit: str, tolerance,
                           figures: bool, where: str) -> ScoreItem:
        """:meth:`prepare` where it costs least: raw pixels of a problem already prepared
        are a view of the body and a size check, done on the event loop (a hop to a decode
        thread and back costs more than the work); a PNG to decode or a problem to read or
        regenerate goes to a decode thread."""
        target = self.targets.cached(problem_id) if shape is not None else None
        if target is not None:
            return self.prepare(problem_id, data, shape, fit, tolerance, figures, where, target)
        return await self.run(self.prepare, problem_id, data, shape, fit, tolerance, figures,
                              where)

    async def score_batch(self, request, images=None) -> list:
        """Per item of a parsed batch (:meth:`parse_batch`) an ``ItemResult``."""
        async def one(k, item):
            where = f"items[{k}] ({item.problem_id})"
            try:
                if images is not None:  # binary: raw pixels as they came, a PNG as bytes
                    data = images[k] if item.shape is not None else bytes(images[k])
                    shape = item.shape
                else:
                    image = item.image
                    forms = (image.png, image.raw, image.svg, image.state)
                    if sum(v is not None for v in forms) != 1:
                        raise ImageRefused(f"{where}: give exactly one of image.png, image.raw, "
                                           "image.svg, image.state")
                    if image.svg is not None or image.state is not None:  # code: drawn in a
                        pixels = await self.run(  # decode thread, then scored as raw pixels
                            svg_pixels if image.svg is not None else state_pixels,
                            image.svg if image.svg is not None else image.state, where,
                            self.options.max_pixels)
                        data, shape = pixels.tobytes(), list(pixels.shape)
                    else:
                        text = image.png if image.png is not None else image.raw
                        data = await self.run(from_base64, text, where)
                        shape = None if image.png is not None else (image.shape or "missing")
                return await self.prepare_item(item.problem_id, data, shape, request.fit,
                                               request.tolerance, request.figures, where)
            except ValueError as exc:
                return protocol.ItemResult(problem_id=item.problem_id, error=one_line(exc))

        prepared = await asyncio.gather(*(one(k, item) for k, item in enumerate(request.items)))
        items = [p for p in prepared if isinstance(p, ScoreItem)]
        scored = iter(await self.batcher.score(items))
        results = []
        for p in prepared:
            if isinstance(p, ScoreItem):
                result = next(scored)
                if isinstance(result, BaseException):
                    raise result
                p = protocol.ItemResult(**result)
            results.append(p)
        return results

    async def answer_one(self, problem_id: str, content_type: str, body, shape: str | None,
                         fit: str, tolerance: int | None, figures: bool) -> JSONResponse:
        """The single-image endpoint's answer to one checked request: the reward (200), or
        why not (415, 400, 422, 500). The FastAPI route and :mod:`paintkit.serve.single_image_route`
        both answer through here."""
        kind = content_type.split(";")[0].strip().lower()
        if kind not in ("image/png", "application/octet-stream"):
            return _error(415, f"content type {kind or 'none'!r}: send image/png, or "
                               f"application/octet-stream with ?shape=H,W,3")
        dims = None
        if kind == "application/octet-stream":
            try:
                dims = [int(v) for v in (shape or "").split(",")]
            except ValueError:
                return _error(400, f"shape: expected H,W,3, got {shape!r}")
        try:
            item = await self.prepare_item(problem_id, body, dims, fit, tolerance, figures,
                                           "image")
        except ValueError as exc:
            return _error(422, one_line(exc))
        result = (await self.batcher.score([item]))[0]
        if isinstance(result, BaseException):
            return _error(500, f"scoring failed: {one_line(result)}")
        return JSONResponse(protocol.ScoreResponse(metric_version=METRIC_VERSION,
                                                   **result).model_dump())

    @staticmethod
    def failure_response(exc: BaseException) -> JSONResponse:
        """The 500 answer to a request whose handling raised: the service keeps serving."""
        return _error(500, f"scoring failed: {one_line(exc)}")

    def close(self) -> None:
        self.batcher.close()
        self.decoders.shutdown(wait=False, cancel_futures=True)


async def _body(request: Request):
    """The request body as :class:`GuardMiddleware` read it (no copy)."""
    body = request_body(request)
    return body if body is not None else await request.body()


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "metric_version": METRIC_VERSION}, status_code=status)


def create_app(options: ServeOptions | None = None, **settings) -> FastAPI:
    """The reward service's ASGI application (``settings``: :class:`ServeOptions` fields)."""
    options = options if options is not None else ServeOptions(**settings)
    service = RewardService(options)

    @asynccontextmanager
    async def lifespan(app):
        service.start_warm_up()
        yield
        service.close()

    # no /docs or /redoc: their pages load Swagger UI / ReDoc from a CDN, blank offline;
    # the schema is GET /openapi.json, and GET / lists the routes
    app = FastAPI(title="paintkit reward service", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="The exact PaintBench reward (pixel mIoU) over HTTP: lossless "
                              "images in, JSON rewards out. See docs/serve.md.")
    app.state.reward_service = service
    app.add_middleware(FastPath, service=service)  # inside the guard: after its checks
    app.add_middleware(GuardMiddleware, max_bytes=options.max_mb << 20,
                       body_timeout_s=options.body_timeout_s, token=options.token,
                       turns=service.body_turns)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request, exc):
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error.get("loc", ()))
        return _error(400, f"{where}: {error.get('msg')}")

    @app.exception_handler(HTTPException)
    async def http_error(request, exc):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def failure(request, exc):
        return service.failure_response(exc)

    @app.get("/", include_in_schema=False)
    async def index():
        """What this service is and where its routes are (no token needed)."""
        routes = sorted({f"{method} {route.path}" for route in app.routes
                         for method in getattr(route, "methods", ()) or ()
                         if getattr(route, "include_in_schema", False) and method != "HEAD"})
        return JSONResponse({"name": "paintkit reward service", "paintkit": __version__,
                             "metric_version": METRIC_VERSION, "docs": "docs/serve.md",
                             "schema": "/openapi.json", "routes": routes})

    @app.get("/health", response_model=protocol.Health,
             responses={503: {"model": protocol.Health, "description": "warming up"}})
    async def health():
        warm = service.start_warm_up()
        if warm.done() and warm.exception() is not None:
            return _error(500, f"warm-up failed: {one_line(warm.exception())}")
        damaged = service.targets.damaged if service.ready else []
        body = protocol.Health(status=("degraded" if damaged else "ok") if service.ready
                               else "starting", metric_version=METRIC_VERSION,
                               device=str(service.device), paintkit=__version__,
                               score_threads=service.batcher.threads,
                               max_items=service.options.max_items,
                               max_body_bytes=service.options.max_mb << 20, damaged=damaged)
        return JSONResponse(body.model_dump(), status_code=200 if service.ready else 503)

    # the batch body is parsed off the event loop, so FastAPI does not see its model: add it
    models = {}
    for model in (protocol.BatchRequest, protocol.BinaryBatchHeader):
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        models.update({**schema.pop("$defs", {}), model.__name__: schema})
    plain_openapi = app.openapi

    def openapi():
        if app.openapi_schema is None:
            plain_openapi()["components"]["schemas"].update(models)
        return app.openapi_schema

    app.openapi = openapi

    @app.post("/v1/score", response_model=protocol.BatchResponse, responses=_ERRORS,
              openapi_extra=_BATCH_BODY)
    async def score_batch(request: Request):
        """Score many images, each against the problem its ``problem_id`` names."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        body = await _body(request)
        try:
            parsed, images = await service.run(service.parse_batch, body,
                                               kind == protocol.BINARY_BATCH)
        except protocol.BatchTooLarge as exc:
            return _error(413, str(exc))
        except ImageRefused as exc:
            return _error(400, str(exc))
        try:
            results = await service.score_batch(parsed, images)
        except Exception as exc:  # noqa: BLE001 - answered here: the connection stays usable
            return _error(500, f"scoring failed: {one_line(exc)}")
        # dumped here: FastAPI would validate the answer against its own model once more
        return JSONResponse(protocol.BatchResponse(metric_version=METRIC_VERSION,
                                                   results=results).model_dump())

    @app.post("/v1/score/{problem_id}", response_model=protocol.ScoreResponse,
              responses={**_ERRORS, 422: {"model": protocol.ErrorResponse,
                                          "description": "this image or problem is not scored"}},
              openapi_extra=_IMAGE_BODY)
    async def score_one(request: Request, problem_id: str,
                        fit: protocol.Fit = "exact",
                        tolerance: int | None = Query(default=None, ge=0, le=10),
                        figures: bool = False, shape: str | None = None):
        """Score one image, sent as the body, against ``problem_id``."""
        kind = request.headers.get("content-type", "")
        return await service.answer_one(problem_id, kind, await _body(request), shape, fit,
                                        tolerance, figures)

    add_trainer_routes(app, service, _body)  # Flow-Factory's /compute, UniRL's /score

    return app


def openapi_schema() -> dict:
    """The service's OpenAPI document (what ``GET /openapi.json`` serves)."""
    return json.loads(json.dumps(create_app().openapi()))
