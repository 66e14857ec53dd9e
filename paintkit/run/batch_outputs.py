"""One batch of problems through a model, written to the outputs tree (any engine).

:func:`produce_batch` reads the inputs, their reference images and the instructions, asks
the planner (if any), calls the model once for the batch, and writes each answer
atomically: the reasoning text and the plan first, the ``NNNN_output.png`` last, so an
output that exists always has its text beside it. It returns one log record per problem; a
problem the model failed (or whose image does not decode, or whose files cannot be
written) is recorded with its reason and leaves no output, so the next run retries it; so
is a problem with more images than the model takes
(:meth:`~paintkit.run.interface.EditModel.refusal`: never sent with a reference dropped),
and the rest of the batch runs. Only a fault of the machine (a full disk, a read-only
folder) stops the run. Text that UTF-8 cannot hold (an unpaired surrogate) is written
escaped (``\\ud800``).
"""

from __future__ import annotations

import errno
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paintkit.code_outputs import output_file, render_code
from paintkit.errors import one_line
from paintkit.io.atomic import write_text_atomic
from paintkit.io.images import load_rgb, write_png
from paintkit.layout.benchmark import BenchmarkProblem, read_metadata
from paintkit.layout.outputs import CODE_OUTPUTS, output_name
from paintkit.run.interface import (
    EditModel,
    EditRequest,
    EditResult,
    model_refusal,
    output_pixel_limit,
    problem_seed,
    to_rgb_array,
)
from paintkit.run.request_images import read_request_images

if TYPE_CHECKING:
    from paintkit.run.planner import Plan, Planner
    from paintkit.types import PathLike


def problem_key(problem: BenchmarkProblem) -> str:
    return f"{problem.benchmark}/{problem.task}/{problem.idx:04d}"


def text_path(problem: BenchmarkProblem, outputs_root: Path, folder: str, kind: str) -> Path:
    """``<outputs>/<folder>/<Benchmark>/<task>/NNNN_<kind>.txt`` (reasoning, plan)."""
    return problem.output_path(outputs_root, folder, f"{kind}.txt")


def output_decodes(path: Path) -> bool:
    """Whether ``path`` holds an image that decodes, or one code output (``NNNN_output.svg``
    / ``.json``) stands in its place (a kept output on resume)."""
    found, clash = output_file(path)
    if clash is not None:
        return False
    if found.suffix in (".svg", ".json"):
        try:
            return found.stat().st_size > 0
        except OSError:
            return False
    try:
        load_rgb(path)
    except (ValueError, OSError):
        return False
    return True


#: OS errors that are the machine's, not one problem's: they stop the run.
MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                            errno.ENOMEM, errno.EMFILE, errno.ENFILE})


def _fail(problem: BenchmarkProblem, reason: str, **extra: Any) -> dict:
    """A failed problem's record; its reason is one line (:func:`paintkit.errors.one_line`)."""
    return {"key": problem_key(problem), "status": "failed", "reason": one_line(reason), **extra}


def produce_batch(model: EditModel, problems: list[BenchmarkProblem], outputs_root: PathLike,
                  folder: str, seed: int, planner: Planner | None = None) -> list[dict]:
    """Run ``problems`` through ``model`` and write their files; one record per problem.

    A record: ``key``, ``status`` (``"ok"`` / ``"failed"``), ``reason`` (failed),
    ``latency_s`` (seconds of the model call for the whole batch), ``batch``, ``attempts``,
    ``usage``, ``seed``, ``size`` (``[W, H]`` of the output).
    """
    outputs_root = Path(outputs_root)
    records: dict[int, dict] = {}
    requests, pending, plans = [], [], {}
    for n, problem in enumerate(problems):
        key = problem_key(problem)
        try:
            meta = read_metadata(problem)
            instruction = str(meta["instruction"])
            image, references = read_request_images(problem, meta)
        except (KeyError, ValueError, OSError) as exc:
            records[n] = _fail(problem, f"cannot read the problem: {exc}")
            continue
        pseed = problem_seed(seed, key)
        refusal = model_refusal(model, EditRequest(image, instruction, pseed, key, meta,
                                                   references))
        if refusal is not None:  # a model that would drop a reference never gets the problem
            records[n] = _fail(problem, refusal, seed=pseed)
            continue
        if planner is not None:
            try:
                plans[n] = planner.plan(image, instruction)
            except Exception as exc:  # noqa: BLE001 - recorded, retried next run
                records[n] = _fail(problem, f"planner: {type(exc).__name__}: {exc}", seed=pseed)
                continue
            instruction = planner.augment(instruction, plans[n])
        requests.append(EditRequest(image, instruction, pseed, key, meta, references))
        pending.append(n)
    if requests:
        start = time.perf_counter()
        try:
            results = model.edit_batch(requests)
            if len(results) != len(requests):
                raise ValueError(f"model returned {len(results)} results for "
                                 f"{len(requests)} requests")
        except Exception as exc:  # noqa: BLE001 - a model crash fails the batch, not the run
            results = [EditResult(error=f"{type(exc).__name__}: {exc}") for _ in requests]
        latency = time.perf_counter() - start
        for n, request, result in zip(pending, requests, results, strict=True):
            extra = {"latency_s": round(latency, 4), "batch": len(requests),
                     "attempts": result.attempts, "usage": result.usage, "seed": request.seed}
            if n in plans:
                extra["planner_usage"] = plans[n].usage
            try:
                records[n] = _write(problems[n], result, outputs_root, folder, plans.get(n),
                                    extra, request.image.size)
            except Exception as exc:  # noqa: BLE001 - one problem's failure, not the run's
                if isinstance(exc, OSError) and exc.errno in MACHINE_ERRNOS:
                    raise
                records[n] = _fail(problems[n], f"cannot write the output: "
                                   f"{type(exc).__name__}: {exc}", **extra)
    return [records[n] for n in range(len(problems))]


def _write(problem: BenchmarkProblem, result: EditResult, outputs_root: Path, folder: str,
           plan: Plan | None, extra: dict[str, Any], input_size: tuple[int, int]) -> dict:
    key = problem_key(problem)
    if result.error is None and result.code is not None:
        return _write_code(problem, result, outputs_root, folder, plan, extra)
    if result.error is not None or result.image is None:
        return _fail(problem, result.error or "the model returned no image", **extra)
    try:
        pixels = to_rgb_array(result.image, f"{key} output",
                              max_pixels=output_pixel_limit(*input_size))
    except ValueError as exc:
        return _fail(problem, str(exc), **extra)
    _write_texts(problem, result, outputs_root, folder, plan)
    _remove_other_outputs(problem.output_path(outputs_root, folder))
    write_png(problem.output_path(outputs_root, folder), pixels)
    return {"key": key, "status": "ok", "size": [pixels.shape[1], pixels.shape[0]], **extra}


def _write_texts(problem: BenchmarkProblem, result: EditResult, outputs_root: Path,
                 folder: str, plan: Plan | None) -> None:
    """The plan and the model's text, written before the output (an output that exists
    always has its text beside it)."""
    if plan is not None:
        write_text_atomic(text_path(problem, outputs_root, folder, "plan"), plan.text,
                          errors="backslashreplace")
    if result.text:
        write_text_atomic(text_path(problem, outputs_root, folder, "reasoning"), str(result.text),
                          errors="backslashreplace")


def _remove_other_outputs(keep: Path) -> None:
    """Remove the problem's outputs in other forms than ``keep`` (one output per problem)."""
    idx = int(keep.name.split("_", 1)[0])
    for kind in ("output.png", *CODE_OUTPUTS):
        other = keep.with_name(output_name(idx, kind))
        if other != keep and other.is_file() and not other.is_symlink():
            other.unlink()


def _write_code(problem: BenchmarkProblem, result: EditResult, outputs_root: Path, folder: str,
                plan: Plan | None, extra: dict[str, Any]) -> dict:
    """Write a code answer as ``NNNN_output.svg`` / ``.json`` after the checks eval will
    draw it under; code that cannot be drawn fails the problem (retried next run)."""
    key = problem_key(problem)
    kind = result.code_kind
    if kind not in ("svg", "json"):
        return _fail(problem, f"code of kind {kind!r}; expected 'svg' or 'json'", **extra)
    code = result.code if isinstance(result.code, str) else json.dumps(result.code)
    try:
        render_code(code, kind, read_metadata(problem))
    except (ValueError, OSError) as exc:
        return _fail(problem, f"the model's {kind} cannot be drawn: {exc}", **extra)
    _write_texts(problem, result, outputs_root, folder, plan)
    path = problem.output_path(outputs_root, folder, f"output.{kind}")
    _remove_other_outputs(path)
    write_text_atomic(path, code, errors="backslashreplace")
    return {"key": key, "status": "ok", "output": path.name, **extra}

