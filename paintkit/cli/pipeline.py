"""The steps of ``paintkit bench`` (:mod:`paintkit.cli.bench`): generate -> outputs
(baselines, ``paintkit run`` models) -> eval -> stats -> report into one folder.

One run folder holds every step's result::

    <out>/bench/                 the generated benchmark (paintkit generate)
    <out>/outputs/<model>/...    baseline outputs (paintkit baseline), models' (paintkit run)
    <out>/results/               problem_stats.jsonl, aggregate_stats.jsonl, comparisons.jsonl
    <out>/report.html            the report
    <out>/bench-state.json       what each step was run on (its fingerprint)

Idempotent and resumable: a step whose fingerprint (its settings and the files it reads)
equals the one recorded after its last successful run is skipped; an interrupted step is
run again and resumes where it stopped (generate, baseline and eval all resume; eval
rescores the outputs that changed since their row was written).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

from paintkit._version import __version__
from paintkit.cli.main import main
from paintkit.io.atomic import write_text_atomic
from paintkit.layout.results import AGGREGATE_NAME, PROBLEM_STATS_NAME

STATE_NAME = "bench-state.json"
SUITES = ("paintbench", "tinygrafixbench")
BASELINES = ("oracle", "identity", "blank", "noise")


class StepFailed(RuntimeError):
    """A step's command failed (its own message is already on stderr)."""


@dataclass
class BenchConfig:
    """What to run; every field has a flag of ``paintkit bench`` and a key in its TOML file."""

    out: str
    benchmarks: list[str] = field(default_factory=lambda: ["paintbench"])
    baselines: list[str] = field(default_factory=lambda: list(BASELINES))
    #: A folder of your models' outputs (<model>/<Benchmark>/<task>/NNNN_output.png), scored
    #: beside the baselines; None: baselines only.
    outputs: str | None = None
    #: Models run by ``paintkit run`` into ``<out>/outputs`` (built-in names,
    #: ``diffusers:<repo>`` or ``module:function``; see docs/run.md), scored with the baselines.
    models: list[str] = field(default_factory=list)
    tasks: list[str] | None = None
    conditions: list[str] | None = None
    per_cell: int | None = None
    size: str | None = None
    jobs: int = 0
    n_boot: int = 10_000
    seed: int = 0
    gallery_per_model: int = 2

    def __post_init__(self):
        for name in ("benchmarks", "baselines", "tasks", "conditions", "models"):
            value = getattr(self, name)
            if isinstance(value, str):  # "a,b" in a config file
                setattr(self, name, [v.strip() for v in value.split(",") if v.strip()])
        unknown = [b for b in self.benchmarks if b not in SUITES]
        if unknown or not self.benchmarks:
            raise ValueError(f"benchmarks: expected some of {', '.join(SUITES)}, got "
                             f"{', '.join(self.benchmarks) or 'none'}")
        bad = [b for b in self.baselines if b not in BASELINES]
        if bad:
            raise ValueError(f"baselines: expected some of {', '.join(BASELINES)}, got "
                             f"{', '.join(bad)}")
        if not self.baselines and not self.outputs and not self.models:
            raise ValueError("nothing to score: give baselines, models or an outputs folder")


def load_config(path) -> dict:
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
    known = set(BenchConfig.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown key {', '.join(unknown)}; expected some of "
                         f"{', '.join(sorted(known))}")
    return data


def tree_fingerprint(root) -> str:
    """SHA-256 over (relative path, size, mtime) of ``root`` (a file) or of every file under
    it ("" if absent)."""
    root = Path(root)
    if not root.exists():
        return ""
    digest = hashlib.sha256()
    if root.is_file():
        st = root.stat()
        digest.update(f"{root.name}|{st.st_size}|{st.st_mtime_ns}".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(folder) / name
            st = path.stat()
            digest.update(f"{path.relative_to(root)}|{st.st_size}|{st.st_mtime_ns}\n".encode(
                "utf-8", "surrogateescape"))
    return digest.hexdigest()


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class Bench:
    """Runs the steps of one :class:`BenchConfig`; see the module docstring."""

    def __init__(self, config: BenchConfig, log=None):
        self.config, self.version = config, __version__
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

    def _step(self, name: str, fingerprint: str, run, produced: Path) -> bool:
        """Run step ``name`` unless it last ran on the same inputs (``fingerprint``) and what
        it wrote (``produced``, a file or folder) is untouched since; True if it ran."""
        before = self.state.get(name)
        if (isinstance(before, dict) and before.get("in") == fingerprint
                and before.get("out") == tree_fingerprint(produced) != ""):
            self.log(f"bench: {name}: unchanged, skipped")
            return False
        self.log(f"bench: {name} ...")
        code = run()
        if code:
            raise StepFailed(f"bench: step {name} failed (exit code {code}); fix it and "
                               "run 'paintkit bench' again: finished steps are kept")
        self.state[name] = {"in": fingerprint, "out": tree_fingerprint(produced)}
        self.state["config"] = asdict(self.config)
        self.root.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.root / STATE_NAME, json.dumps(self.state, indent=1) + "\n")
        return True

    def _generate_args(self) -> list[str]:
        c = self.config
        suite = "all" if len(c.benchmarks) == 2 else c.benchmarks[0]
        args = ["generate", suite, "--out", str(self.bench), "--quiet"]
        if c.jobs > 0:  # 0: generate's own default (one per core)
            args += ["--jobs", str(c.jobs)]
        for flag, value in (("--tasks", c.tasks), ("--conditions", c.conditions)):
            if value:
                args += [flag, ",".join(value)]
        if c.per_cell is not None:
            args += ["--per-cell", str(c.per_cell)]
        if c.size:
            args += ["--size", c.size]
        return args

    def run(self) -> Path:
        """Every step in order; returns the report's path."""
        c = self.config
        gen_args = self._generate_args()
        self._step("generate", _key(self.version, gen_args[:1] + gen_args[2:]),
                   lambda: main(gen_args), self.bench)
        bench_fp = tree_fingerprint(self.bench)
        for name in c.baselines:
            self._step(f"baseline {name}", _key(self.version, name, bench_fp),
                       lambda name=name: main(["baseline", name, "--benchmarks", str(self.bench),
                                               "--out", str(self.outputs), "--quiet"]),
                       self.outputs / name)
        for model in c.models:  # paintkit run resumes: outputs that decode are kept
            self._step(f"run {model}", _key(self.version, model, bench_fp),
                       lambda model=model: main(["run", "--model", model, "--benchmarks",
                                                 str(self.bench), "--outputs",
                                                 str(self.outputs), "--quiet"]),
                       self.outputs)
        roots = ([self.outputs] if c.baselines or c.models else []) + \
            ([Path(c.outputs)] if c.outputs else [])
        stats_file = self.results / PROBLEM_STATS_NAME
        for root in roots:
            name = "eval" if root == self.outputs else "eval (your outputs)"
            # the outputs and the problems they are scored against; the results file is
            # shared by both evals, so only its existence is checked
            fingerprint = _key(self.version, bench_fp, tree_fingerprint(root), str(root))
            if not stats_file.exists():
                self.state.pop(name, None)
            before = self.state.get(name)
            if isinstance(before, dict) and before.get("in") == fingerprint:
                self.log(f"bench: {name}: unchanged, skipped")
                continue
            # eval rescores the outputs that appeared or changed since their row was written
            self._step(name, fingerprint, lambda root=root: main(
                ["eval", "--benchmarks", str(self.bench), "--outputs", str(root), "--out",
                 str(self.results), "--jobs", str(c.jobs), "--quiet"]), stats_file)
        res_fp = tree_fingerprint(stats_file)
        self._step("stats", _key(self.version, res_fp, c.n_boot, c.seed),
                   lambda: main(["stats", "--input", str(self.results), "--n-boot",
                                 str(c.n_boot), "--seed", str(c.seed), "--jobs",
                                 str(max(1, c.jobs))]),
                   self.results / AGGREGATE_NAME)
        agg_fp = tree_fingerprint(self.results / AGGREGATE_NAME)
        gallery_outputs = [a for r in roots for a in ("--outputs", str(r))]
        self._step("report", _key(self.version, res_fp, agg_fp, c.n_boot, c.seed,
                                  c.gallery_per_model, [str(r) for r in roots]),
                   lambda: main(["report", "--input", str(self.results), "--output",
                                 str(self.report), "--benchmarks", str(self.bench),
                                 *gallery_outputs, "--n-boot", str(c.n_boot),
                                 "--seed", str(c.seed), "--gallery-per-model",
                                 str(c.gallery_per_model)]),
                   self.report)
        return self.report
