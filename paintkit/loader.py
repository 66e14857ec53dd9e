"""``paintkit.load(PATH)``: a benchmark tree, a shard set or an outputs tree as a sequence.

The way ``datasets.load_dataset`` opens a folder, :func:`load` opens what paintkit writes and
returns a :class:`LoadedSet`: a sequence (``len``, indexing, slicing, iteration) of
:class:`LoadedProblem`, each with its ``key``, ``benchmark``, ``task`` and ``idx`` known at
once and its images and metadata read only when asked for::

    >>> import paintkit
    >>> bench = paintkit.load("out/paintbench")                  # doctest: +SKIP
    >>> len(bench), bench[0].key, bench[0].input.shape          # doctest: +SKIP
    (2016, 'PaintBench/blending/000', (1024, 1024, 3))
    >>> outs = paintkit.load("my_outputs", benchmarks="out/paintbench")   # doctest: +SKIP
    >>> outs[0].model, outs[0].output is None                   # doctest: +SKIP

What ``PATH`` holds decides the kind:

- ``benchmark``: ``<Benchmark>/<task>/NNN_{input,answer}.png`` + ``NNN.json`` (or one
  benchmark folder); keys ``<Benchmark>/<task>/<NNN>``;
- ``shards``: ``shard-NNNNNN.tar`` (WebDataset) or ``shard-NNNNNN.parquet`` files of
  ``paintkit generate --format``; keys are the problem ids;
- ``outputs``: ``<model>/<Benchmark>/<task>/NNNN_output.png``; with ``benchmarks=`` one item
  per (model, problem), its ``output`` None where the model wrote none (the problems
  ``paintkit eval`` scores); without, one item per output file (no input, answer, metadata).

Images are uint8 ``(H, W, 3)`` NumPy arrays; ``metadata`` is the problem's JSON as a dict.
A problem with reference images (docs/references.md) has them as ``references``
(:class:`~paintkit.tasks.Reference` pixels and role, in the order the model gets them; ``()``
for a one-image problem) and ``images`` is ``(input, *reference images)``, as on a generated
:class:`~paintkit.tasks.Problem`.

It is also how paintkit itself opens these trees: ``paintkit eval`` (and its ``--turns``),
``paintkit run``, ``baseline``, ``explain``, the report's gallery and the rewards'
:class:`~paintkit.rewards.ProblemIndex` call :func:`load`
with ``kind=`` (no guessing; a tree that breaks the layout raises the layout's own
:class:`~paintkit.layout.errors.LayoutError`), and take the on-disk
:class:`~paintkit.layout.benchmark.BenchmarkProblem` of each item (``item.problem``) and the
model names of an outputs tree (``LoadedSet.models``) from it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast, overload

import numpy as np

from paintkit.code_outputs import load_output_file, output_file
from paintkit.layout.benchmark import (
    BenchmarkProblem,
    discover_problems,
    read_metadata_file,
    read_references,
)
from paintkit.layout.errors import LayoutError
from paintkit.layout.outputs import discover_models
from paintkit.loader_shards import DuplicateKeyError, shard_set

__all__ = ["KINDS", "DuplicateKeyError", "LoadedProblem", "LoadedSet", "load"]

#: What :func:`load` opens.
KINDS = ("benchmark", "shards", "outputs")
_OUTPUT = re.compile(r"^(\d{4,})_output\.(?:png|svg|json)$")


@dataclass(eq=False)
class LoadedProblem:
    """One problem (or one model's output of it); images and metadata load on access.
    ``problem``: the files on disk (benchmark trees, and outputs trees loaded with their
    benchmark), None for shards; ``shard``: the shard file's name (shard sets)."""

    key: str
    benchmark: str | None
    task: str | None
    idx: int | None
    model: str | None = None
    problem: BenchmarkProblem | None = None
    #: The shard file it was read from (shard sets), None otherwise.
    shard: str | None = None
    _read: dict[str, Callable[..., Any]] = field(default_factory=dict, repr=False)

    def _get(self, name: str) -> Any:
        reader = self._read.get(name)
        return None if reader is None else reader()

    @property
    def input(self) -> np.ndarray | None:
        """The input image, uint8 ``(H, W, 3)``."""
        return self._get("input")

    @property
    def answer(self) -> np.ndarray | None:
        """The answer image, uint8 ``(H, W, 3)``."""
        return self._get("answer")

    @property
    def metadata(self) -> dict | None:
        """The problem's JSON (instruction, task, mode, condition, ...)."""
        return self._get("metadata")

    @property
    def references(self) -> tuple:
        """The problem's reference images, in order: a tuple of
        :class:`~paintkit.tasks.Reference` (uint8 ``(H, W, 3)`` pixels and role); ``()`` for
        a one-image problem or an output without its problem. Read on each access."""
        pairs = self._get("references") or ()
        if not pairs:
            return ()
        from paintkit.tasks.base import Reference  # numba: the problem model's module

        return tuple(Reference(image, role) for role, image in pairs)

    @property
    def images(self) -> tuple[np.ndarray, ...]:
        """Every image the model gets, in order: ``input``, then each reference's."""
        return (self.input, *(ref.image for ref in self.references))

    @property
    def instruction(self) -> str | None:
        meta = self.metadata
        return None if meta is None else meta.get("instruction")

    @property
    def output(self) -> np.ndarray | None:
        """The model's output (outputs trees), None when it wrote none."""
        return self._get("output")


class LoadedSet(Sequence[LoadedProblem]):
    """A sequence of :class:`LoadedProblem`; ``kind`` is ``benchmark``, ``shards`` or
    ``outputs``, ``root`` the folder it was loaded from, ``models`` the model folders of an
    outputs tree (empty otherwise). An outputs tree's items are listed on first use."""

    def __init__(self, kind: str, root: Path,
                 items: list[LoadedProblem] | Callable[[], list[LoadedProblem]],
                 models: Sequence[str] = ()) -> None:
        self.kind, self.root, self.models = kind, root, list(models)
        self._items: list[LoadedProblem] | None
        self._list: Callable[[], list[LoadedProblem]] | None
        self._items, self._list = (None, items) if callable(items) else (items, None)

    @property
    def items(self) -> list[LoadedProblem]:
        if self._items is None:
            self._items = cast("Callable[[], list[LoadedProblem]]", self._list)()
        return self._items

    @property
    def problems(self) -> list[BenchmarkProblem]:
        """The on-disk problems, in order (a benchmark tree's; ``ValueError`` for shards)."""
        if any(item.problem is None for item in self.items):
            raise ValueError(f"{self.root}: a {self.kind} set has no problem files on disk")
        return [cast(BenchmarkProblem, item.problem) for item in self.items]

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> LoadedProblem: ...

    @overload
    def __getitem__(self, index: slice) -> LoadedSet: ...

    def __getitem__(self, index: int | slice) -> LoadedProblem | LoadedSet:
        if isinstance(index, slice):
            return LoadedSet(self.kind, self.root, self.items[index], self.models)
        return self.items[index]

    def __repr__(self) -> str:
        return f"LoadedSet(kind={self.kind!r}, root={str(self.root)!r}, problems={len(self)})"


def _file_image(path: Path) -> Callable[[], np.ndarray]:
    def read() -> np.ndarray:
        from paintkit.io.images import load_rgb  # imagecodecs, pillow

        return load_rgb(path)

    return read


def _file_json(path: Path) -> Callable[[], Any]:
    return lambda: read_metadata_file(path)


def _file_references(problem: BenchmarkProblem) -> Callable[[], tuple]:
    return lambda: read_references(problem)


def _benchmark(root: Path, benchmarks: Sequence[str] | None = None,
               tasks: Sequence[str] | None = None) -> list[LoadedProblem]:
    return [LoadedProblem(f"{p.benchmark}/{p.task}/{p.idx:03d}", p.benchmark, p.task, p.idx,
                          problem=p, _read={"input": _file_image(p.input_path),
                                            "answer": _file_image(p.answer_path),
                                            "references": _file_references(p),
                                            "metadata": _file_json(p.metadata_path)})
            for p in discover_problems(root, benchmarks, tasks)]


def _outputs(root: Path, model_names: list[str],
             benchmarks: str | os.PathLike[str] | LoadedSet | None
             ) -> Callable[[], list[LoadedProblem]]:
    """The items of an outputs tree, listed when first asked for: one per (model, problem)
    of ``benchmarks`` (a path or a benchmark :class:`LoadedSet`), else one per output file."""

    def paired() -> list[LoadedProblem]:
        tree = cast("str | os.PathLike[str] | LoadedSet", benchmarks)  # None: files() instead
        bench = tree if isinstance(tree, LoadedSet) else \
            LoadedSet("benchmark", Path(tree), _benchmark(Path(tree)))
        items = []
        for model in model_names:
            for item in bench:
                p = cast(BenchmarkProblem, item.problem)  # a benchmark item: on disk
                path, _ = output_file(p.output_path(root, model))
                read = dict(item._read)
                read["output"] = (lambda path=path, item=item: _output_pixels(path, item))
                items.append(LoadedProblem(f"{model}/{p.benchmark}/{p.task}/{p.idx:04d}",
                                           p.benchmark, p.task, p.idx, model, p, _read=read))
        return items

    def files() -> list[LoadedProblem]:
        items = []
        for model in model_names:
            for path in sorted((root / model).glob("*/*/*_output.*")):
                m = _OUTPUT.match(path.name)
                if m is None:
                    continue
                bench, task = path.parent.parent.name, path.parent.name
                items.append(LoadedProblem(f"{model}/{bench}/{task}/{m[1]}", bench, task,
                                           int(m[1]), model,
                                           _read={"output": _code_or_image(path)}))
        return items

    return files if benchmarks is None else paired


def _output_pixels(path: Path, item: LoadedProblem) -> np.ndarray | None:
    """A paired output's pixels: an image decoded, an SVG or chart state drawn against the
    problem's metadata (paintkit.code_outputs), None when there is no output."""
    if not path.is_file():
        return None
    if path.suffix in (".svg", ".json"):
        return load_output_file(path, item.metadata or {})[0]
    return _file_image(path)()


def _code_or_image(path: Path) -> Callable[[], np.ndarray]:
    """An unpaired output's reader: an SVG draws at its own size; a chart state needs its
    problem (give ``benchmarks=``)."""
    if path.suffix == ".svg":
        from paintkit.svg import render_svg  # skia, svgelements: only to draw an SVG

        return lambda: render_svg(path.read_bytes())
    if path.suffix == ".json":
        def refuse() -> np.ndarray:
            raise ValueError(f"{path}: a chart-state output is drawn against its problem; "
                             "load the outputs with benchmarks=")
        return refuse
    return _file_image(path)


def _guess(root: Path) -> str:
    if any(root.glob("shard-*.tar")) or any(root.glob("shard-*.parquet")):
        return "shards"
    if any(p.is_file() and _OUTPUT.match(p.name) for p in root.glob("*/*/*/*_output.*")):
        return "outputs"
    return "benchmark"


def load(path: str | os.PathLike[str], *, kind: str | None = None,
         benchmarks: str | os.PathLike[str] | Sequence[str] | LoadedSet | None = None,
         tasks: Sequence[str] | None = None, models: Sequence[str] | None = None
         ) -> LoadedSet:
    """Open ``path`` (see the module docstring) as a :class:`LoadedSet`.

    Args:
        path: a benchmark tree, a folder of shards, or a model-outputs tree.
        kind: ``"benchmark"``, ``"shards"`` or ``"outputs"``; None guesses it from what
            ``path`` holds (shard files, then ``*_output.png`` files, else a benchmark).
        benchmarks: for an outputs tree, the benchmark tree its outputs answer (a path or a
            loaded benchmark; then one item per (model, problem)); for a benchmark tree,
            benchmark names to keep.
        tasks: for a benchmark tree or a shard set, the tasks to keep (a task none of its
            problems has is a ``ValueError``).
        models: for an outputs tree, model folder names to keep.

    Raises:
        ValueError: ``path`` is none of these (one line naming it); with ``kind`` given, the
            layout's own :class:`~paintkit.layout.errors.LayoutError` (naming the first
            offending path, an unknown benchmark, task or model); a shard that cannot be
            read, or two problems of a shard set with one key
            (:class:`DuplicateKeyError`), one line naming the shards.
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    root = Path(path)
    if kind == "benchmark":
        names: Sequence[str] | None = \
            None if benchmarks is None else list(cast("Sequence[str]", benchmarks))
        return LoadedSet("benchmark", root, _benchmark(root, names, tasks))
    if kind == "outputs":
        names = discover_models(root, models)
        tree = cast("str | os.PathLike[str] | LoadedSet | None", benchmarks)  # its benchmark
        return LoadedSet("outputs", root, _outputs(root, names, tree), names)
    if not root.is_dir():
        raise ValueError(f"{root}: not a folder (paintkit.load opens a benchmark tree, a "
                         "folder of shards or an outputs tree)")
    guessed = _guess(root) if kind is None else kind
    if guessed == "shards":
        return LoadedSet("shards", root, shard_set(root, tasks, LoadedProblem))
    if guessed == "outputs":
        return load(root, kind="outputs", benchmarks=benchmarks, models=models)
    names = benchmarks if isinstance(benchmarks, list | tuple) else None
    try:
        return LoadedSet("benchmark", root, _benchmark(root, names, tasks))
    except LayoutError as exc:
        raise LayoutError(f"{exc}; paintkit.load opens a benchmark tree, a folder of "
                          "shard-*.tar / shard-*.parquet files, or an outputs tree") from None
