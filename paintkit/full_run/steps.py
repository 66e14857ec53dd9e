"""The whole benchmark into one folder (:func:`paintkit.bench`, ``paintkit bench``): generate
-> outputs (baselines, models) -> evaluate -> aggregate -> report, each step a library verb.

One run folder holds every step's result::

    <out>/bench/                 the generated benchmark (paintkit.write_suite)
    <out>/outputs/<model>/...    baseline outputs (paintkit.write_baseline), models'
                                 (paintkit.run_model)
    <out>/results/               problem_stats.jsonl (paintkit.evaluate), aggregate_stats.jsonl
                                 and comparisons.jsonl (paintkit.aggregate)
    <out>/report.html            the report (paintkit.write_report), which reads the aggregate
    <out>/bench-state.json       what each step was run on (its fingerprint)

Idempotent and resumable: a step whose fingerprint (its settings and the files it reads)
equals the one recorded after its last successful run is skipped; an interrupted step is
run again and resumes where it stopped (generate, baseline and evaluate all resume;
evaluate rescores the outputs that changed since their row was written).

>>> import paintkit
>>> paintkit.bench("run", tasks=["removal"], per_cell=1, n_boot=1000)   # doctest: +SKIP
PosixPath('run/report.html')
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import InitVar, asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paintkit._version import __version__
from paintkit.arguments import check_int
from paintkit.errors import PaintkitError
from paintkit.full_run.fingerprints import drop_rows_of_other_models, tree_fingerprint
from paintkit.io.atomic import write_text_atomic
from paintkit.io.plural import count_of
from paintkit.layout.results import AGGREGATE_NAME, PROBLEM_STATS_NAME
from paintkit.stats.bootstrap import MAX_N_BOOT

if TYPE_CHECKING:
    from paintkit.suites import ProblemSuite
    from paintkit.types import PathLike

__all__ = ["BASELINES", "SUITES", "Bench", "BenchConfig", "StepFailed", "bench",
           "benchmark_suite", "load_config", "tree_fingerprint"]

STATE_NAME = "bench-state.json"
SUITES = ("paintbench", "tinygrafixbench")
BASELINES = ("oracle", "identity", "blank", "noise")


class StepFailed(RuntimeError):
    """A step failed; the message names the step and the reason, and finished steps are kept."""


@dataclass
class BenchConfig:
    """What to run; every field has a flag of ``paintkit bench`` and a key in its TOML file."""

    out: str
    #: The suites to generate: ``paintbench`` and/or ``tinygrafixbench`` (``--suites``).
    suites: list[str] = field(default_factory=lambda: ["paintbench"])
    baselines: list[str] = field(default_factory=lambda: list(BASELINES))
    #: A folder of your models' outputs (<model>/<Benchmark>/<task>/NNNN_output.png), scored
    #: beside the baselines; None: baselines only.
    outputs: str | None = None
    #: Models run by :func:`paintkit.run_model` into ``<out>/outputs`` (built-in names,
    #: ``diffusers:<repo>`` or ``module:function``; see docs/run.md), scored with the baselines.
    models: list[str] = field(default_factory=list)
    tasks: list[str] | None = None
    conditions: list[str] | None = None
    per_cell: int | None = None
    size: str | None = None
    #: Worker processes; 0: one per CPU core.
    jobs: int = 0
    n_boot: int = 10_000
    seed: int = 0
    gallery_per_model: int = 2
    #: The old spelling of ``suites`` (a ``DeprecationWarning``; works until 0.5.0).
    benchmarks: InitVar[list[str] | str | None] = None

    def __post_init__(self, benchmarks: list[str] | str | None = None) -> None:
        if benchmarks is not None:
            warnings.warn("bench(benchmarks=...) / BenchConfig(benchmarks=...) is now "
                          "suites=... (suite names, as --suites; benchmarks= names benchmark "
                          "folders elsewhere); benchmarks= works until 0.5.0",
                          DeprecationWarning, stacklevel=3)
            self.suites = benchmarks  # type: ignore[assignment]
        self._check_types()
        for name in ("suites", "baselines", "tasks", "conditions", "models"):
            value = getattr(self, name)
            if isinstance(value, str):  # "a,b" in a config file
                setattr(self, name, [v.strip() for v in value.split(",") if v.strip()])
        self.out = str(self.out)
        unknown = [b for b in self.suites if b not in SUITES]
        if unknown or not self.suites:
            raise ValueError(f"suites: expected some of {', '.join(SUITES)}, got "
                             f"{', '.join(self.suites) or 'none'}")
        bad = [b for b in self.baselines if b not in BASELINES]
        if bad:
            raise ValueError(f"baselines: expected some of {', '.join(BASELINES)}, got "
                             f"{', '.join(bad)}")
        if not self.baselines and not self.outputs and not self.models:
            raise ValueError("nothing to score: give baselines, models or an outputs folder")


    def _check_types(self) -> None:
        """Every key's type and range, before any step runs: ``ValueError`` naming the key,
        what it expects and what it got."""
        def wrong(name: str, wanted: str) -> ValueError:
            value = getattr(self, name)
            return ValueError(f"{name}: expected {wanted}, got {value!r} ({type(value).__name__})")

        if not isinstance(self.out, str | os.PathLike) or not str(self.out):
            raise wrong("out", "a folder (a string)")
        if self.outputs is not None and not isinstance(self.outputs, str | os.PathLike):
            raise wrong("outputs", "a folder (a string)")
        if self.size is not None and not isinstance(self.size, str):
            raise wrong("size", 'a size string ("WxH")')
        for name in ("suites", "baselines", "models", "tasks", "conditions"):
            value = getattr(self, name)
            optional = name in ("tasks", "conditions")
            if (value is None and optional) or isinstance(value, str):
                continue
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise wrong(name, "a list of names or a comma-separated string")
        check_int(self.per_cell, "per_cell", 1, allow_none=True)
        check_int(self.jobs, "jobs", 0)
        check_int(self.n_boot, "n_boot", 1, MAX_N_BOOT)
        check_int(self.seed, "seed", 0)
        check_int(self.gallery_per_model, "gallery_per_model", 0)


def load_config(path: PathLike) -> dict:
    """The keys of a TOML config file (``ValueError`` naming the file when it does not parse)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise ValueError("reading a TOML config needs Python 3.11 or 'pip install tomli'; "
                             "or give the settings as flags") from None
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None
    known = set(BenchConfig.__dataclass_fields__)  # with benchmarks, the old key of suites
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown key {', '.join(unknown)}; expected some of "
                         f"{', '.join(sorted(known))}")
    return data


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _own_namespace(per_cell: int, own_per_cell: int, own: str) -> str:
    """The benchmark's own seed namespace within its problems per cell, ``train`` past them
    (as ``paintkit generate`` chooses without ``--namespace``)."""
    from paintkit.suites import TRAINING_NAMESPACE  # skia, numba: the suites

    return TRAINING_NAMESPACE if per_cell > own_per_cell else own


def benchmark_suite(config: BenchConfig) -> ProblemSuite:
    """The suite of ``config``: PaintBench and/or TinyGrafixBench in their own namespaces,
    limited to ``tasks``, ``conditions``, ``per_cell`` and ``size`` (those of ``paintkit
    generate paintbench|tinygrafixbench|all`` with the same options)."""
    # heavy (the tasks, Skia, Numba): imported when a suite is built
    # skia, numba, matplotlib: the suites and their generators
    from paintkit.suites import PAINTBENCH_NAMESPACE, PAINTBENCH_PER_CELL, Suite, parse_size
    from paintkit.suites.combined import CombinedSuite
    from paintkit.tinygrafix import TINYGRAFIX_TASKS
    from paintkit.tinygrafix.environment import check_matplotlib
    from paintkit.tinygrafix.suite import TINYGRAFIX_NAMESPACE, TINYGRAFIX_PER_TASK, TinyGrafixSuite

    c = config
    tasks = list(c.tasks or ())
    chart_tasks = [t for t in tasks if t in TINYGRAFIX_TASKS]
    paint_tasks = [t for t in tasks if t not in TINYGRAFIX_TASKS]
    both = len(c.suites) == 2
    parts: list[ProblemSuite] = []
    if "paintbench" in c.suites and (not both or paint_tasks or not chart_tasks):
        per_cell = PAINTBENCH_PER_CELL if c.per_cell is None else c.per_cell
        kwargs: dict[str, Any] = {"per_cell": per_cell,
                  "namespace": _own_namespace(per_cell, PAINTBENCH_PER_CELL, PAINTBENCH_NAMESPACE)}
        if paint_tasks or (tasks and not both):
            kwargs["tasks"] = tuple(paint_tasks if both else tasks)
        if c.conditions:
            kwargs["conditions"] = tuple(c.conditions)
        if c.size:
            kwargs["size"] = parse_size(c.size)
        parts.append(Suite(**kwargs))
    if "tinygrafixbench" in c.suites and (not both or chart_tasks or not paint_tasks):
        if not both and (c.conditions or c.size):
            raise ValueError("conditions and size apply to PaintBench only; TinyGrafixBench has "
                             "no visual conditions or sizes")
        check_matplotlib(False)  # before any worker starts: one clear line
        per_cell = TINYGRAFIX_PER_TASK if c.per_cell is None else c.per_cell
        parts.append(TinyGrafixSuite(
            tasks=tuple(chart_tasks if both else tasks), per_cell=per_cell,
            namespace=_own_namespace(per_cell, TINYGRAFIX_PER_TASK, TINYGRAFIX_NAMESPACE)))
    return CombinedSuite(parts) if both else parts[0]


class Bench:
    """Runs the steps of one :class:`BenchConfig`; see the module docstring.

    ``log``: where each step's one-line progress and summary go (default: stderr);
    ``command``: the command line recorded in the aggregate's provenance and the report.
    """

    def __init__(self, config: BenchConfig, log: Callable[[str], None] | None = None,
                 command: str | None = None) -> None:
        self.config, self.version, self.command = config, __version__, command
        self.root = Path(config.out)
        self.bench, self.outputs = self.root / "bench", self.root / "outputs"
        self.results, self.report = self.root / "results", self.root / "report.html"
        self.log = log or (lambda text: print(text, file=sys.stderr))
        self.state = self._read_state()

    def _read_state(self) -> dict:
        try:
            data = json.loads((self.root / STATE_NAME).read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _step(self, name: str, fingerprint: str, run: Callable[..., object],
              produced: Path) -> bool:
        """Run step ``name`` unless it last ran on the same inputs (``fingerprint``) and what
        it wrote (``produced``, a file or folder) is untouched since; True if it ran."""
        before = self.state.get(name)
        if (isinstance(before, dict) and before.get("in") == fingerprint
                and before.get("out") == tree_fingerprint(produced) != ""):
            self.log(f"bench: {name}: unchanged, skipped")
            return False
        self.log(f"bench: {name} ...")
        try:
            run()
        except (ValueError, OSError, PaintkitError) as exc:
            raise StepFailed(f"bench: step {name} failed: {exc}; fix it and run 'paintkit "
                             "bench' again: finished steps are kept") from exc
        self.state[name] = {"in": fingerprint, "out": tree_fingerprint(produced)}
        self.state["config"] = asdict(self.config)
        self.root.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.root / STATE_NAME, json.dumps(self.state, indent=1) + "\n")
        return True

    def _jobs(self) -> int:
        from paintkit.parallel import default_jobs  # numba: the worker pools

        return self.config.jobs or default_jobs()

    def generate(self) -> None:
        from paintkit.engines import write_suite  # skia, numba: the generators

        summary = write_suite(benchmark_suite(self.config), self.bench,
                              jobs=self.config.jobs or None, progress=False)
        self.log(summary.describe())

    def baseline(self, name: str) -> None:
        from paintkit.baselines import write_baseline  # numba: the baselines' kernels

        summary = write_baseline(name, self.bench, self.outputs)
        self.log(f"{summary.written} outputs written, {summary.skipped} already there -> "
                 f"{summary.out_dir}")

    def run_model(self, model: str) -> None:
        from paintkit.run.registry import build_model  # torch, diffusers: the models
        from paintkit.run.runner import run_model  # torch

        built = build_model(model)
        try:
            summary = run_model(built, self.bench, self.outputs, progress=False,
                                settings={"model": model})
        finally:
            built.close()
        self.log(f"{summary.written} outputs written, {summary.skipped} already there, "
                 f"{len(summary.failures)} failed -> {summary.model_dir}")
        if summary.failures:
            key, reason = next(iter(summary.failures.items()))
            raise ValueError(f"{len(summary.failures)} problem(s) failed (first: {key}: "
                             f"{reason}; all in {summary.model_dir}/run_manifest.json)")

    def evaluate(self, outputs: Path, models: list[str] | None = None) -> None:
        from paintkit.eval import evaluate  # numba: the scoring kernels

        summary = evaluate(self.bench, outputs, self.results, models=models, jobs=self._jobs(),
                           progress=False)
        for note in summary.notes:
            self.log(f"bench: eval: {note}")
        self.log(f"{count_of(summary.scored, 'row')} written "
                 f"({count_of(summary.missing, 'missing output')}), "
                 f"{summary.skipped} already scored -> {summary.results_path}")

    def aggregate(self) -> None:
        from paintkit.stats.aggregate_folder import aggregate  # numpy, threadpoolctl: the bootstrap

        c = self.config
        result = aggregate(self.results, n_boot=c.n_boot, seed=c.seed, jobs=max(1, c.jobs),
                           command=self.command)
        self.log(f"{count_of(len(result.rows), 'aggregate row')} for "
                 f"{count_of(len(result.tables), '(model, benchmark) pair')} -> {result.path}")
        self.log(result.leaderboard().rstrip("\n"))
        from paintkit.stats.results_file import write_results_file  # numpy: results.json, as eval's

        roots = [self.outputs] + ([Path(c.outputs)] if c.outputs else [])
        written = write_results_file(self.results, result, benchmarks_root=self.bench,
                                     outputs_root=roots, n_boot=c.n_boot, seed=c.seed,
                                     config={"command": self.command})
        self.log(f"summary -> {written}")

    def write_report(self, roots: list[Path]) -> None:
        from paintkit.report.write import write_report  # matplotlib: the plots

        c = self.config
        path = write_report(self.results, self.report, benchmarks_root=self.bench,
                            outputs_root=roots, n_boot=c.n_boot, seed=c.seed,
                            gallery_per_model=c.gallery_per_model, command=self.command)
        self.log(f"report: {path.stat().st_size / 1e6:.2f} MB -> {path}")

    def _own_models(self) -> list[str]:
        """The model folders this config scores under ``<out>/outputs``: its baselines and
        its models' folders (other folders there are left from earlier configs)."""
        from paintkit.run.runner import folder_name  # torch

        return [*self.config.baselines, *(folder_name(m) for m in self.config.models)]

    def _your_models(self) -> set[str]:
        """The model folders of ``outputs`` (every one is scored)."""
        root = Path(self.config.outputs) if self.config.outputs else None
        if root is None or not root.is_dir():
            return set()
        return {entry.name for entry in root.iterdir() if entry.is_dir()}

    def run(self) -> Path:
        """Every step in order; returns the report's path."""
        c = self.config
        suite_settings = {k: getattr(c, k) for k in ("tasks", "conditions", "per_cell", "size")}
        suite_settings["benchmarks"] = c.suites  # the key earlier runs' fingerprints used
        self._step("generate", _key(self.version, "generate", suite_settings), self.generate,
                   self.bench)
        bench_fp = tree_fingerprint(self.bench)
        for name in c.baselines:
            self._step(f"baseline {name}", _key(self.version, name, bench_fp),
                       lambda name=name: self.baseline(name), self.outputs / name)
        for model in c.models:  # run_model resumes: outputs that decode are kept
            self._step(f"run {model}", _key(self.version, model, bench_fp),
                       lambda model=model: self.run_model(model), self.outputs)
        roots = ([self.outputs] if c.baselines or c.models else []) + \
            ([Path(c.outputs)] if c.outputs else [])
        stats_file = self.results / PROBLEM_STATS_NAME
        own = self._own_models()
        drop_rows_of_other_models(stats_file, set(own) | self._your_models())
        for root in roots:
            name = "eval" if root == self.outputs else "eval (your outputs)"
            models = own if root == self.outputs else None
            # the outputs, the models scored in them and the problems they are scored
            # against; the results file is shared by both evals, so only its existence is
            # checked
            fingerprint = _key(self.version, bench_fp, tree_fingerprint(root), str(root), models)
            if not stats_file.exists():
                self.state.pop(name, None)
            before = self.state.get(name)
            if isinstance(before, dict) and before.get("in") == fingerprint:
                self.log(f"bench: {name}: unchanged, skipped")
                continue
            # evaluate rescores the outputs that appeared or changed since their row was written
            self._step(name, fingerprint,
                       lambda root=root, models=models: self.evaluate(root, models), stats_file)
        res_fp = tree_fingerprint(stats_file)
        self._step("stats", _key(self.version, res_fp, c.n_boot, c.seed), self.aggregate,
                   self.results / AGGREGATE_NAME)
        agg_fp = tree_fingerprint(self.results / AGGREGATE_NAME)
        self._step("report", _key(self.version, res_fp, agg_fp, c.n_boot, c.seed,
                                  c.gallery_per_model, [str(r) for r in roots]),
                   lambda: self.write_report(roots), self.report)
        return self.report


def bench(out: str | Path, *, command: str | None = None, log: Callable[[str], None] | None = None,
          **settings: Any) -> Path:
    """Run every step of the benchmark into the folder ``out``; returns the report's path.

    ``settings`` are the fields of :class:`BenchConfig` (``suites``, ``baselines``,
    ``models``, ``outputs``, ``tasks``, ``conditions``, ``per_cell``, ``size``, ``jobs``,
    ``n_boot``, ``seed``, ``gallery_per_model``). A failed step raises :class:`StepFailed`;
    run again to resume (finished steps are skipped).
    """
    return Bench(BenchConfig(out=str(out), **settings), log=log, command=command).run()
