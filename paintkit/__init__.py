"""paintkit: exact procedurally generated image-editing benchmarks and fast scoring.

The main entry points are here, with one argument order (outputs, answers, inputs, then
the problem's metadata)::

    import paintkit

    problem = paintkit.generate("translation", seed=7)           # one Problem, in memory
    results = paintkit.score([output], [problem.answer], [problem.input])   # ProblemScore list
    rewards = paintkit.reward(outputs, targets)                  # float32 tensor (B,)
    report = paintkit.explain(output, problem.answer, problem.input, problem.metadata)  # dict

- :func:`generate` (:func:`paintkit.sources.generate`): problem ``seed`` (the slot) of a task,
  in memory, from a problem source (:mod:`paintkit.sources`; never a rejected seed);
  :func:`write_suite` (:func:`paintkit.engines.write_suite`): a whole suite, written to files;
- :func:`score`, :func:`reward`, :func:`soft_reward`, :func:`prepare_targets`,
  :class:`Targets`, :class:`PixelEditIoUAccumulator` (:mod:`paintkit.metrics`);
- :func:`explain` (:mod:`paintkit.explainer`): which objects an output got right;
- the suites (:mod:`paintkit.suites`): :class:`Suite` (PaintBench), :class:`TinyGrafixSuite`,
  :class:`GuidanceSuite`, :class:`ReferenceSuite`, :class:`StyleTransferSuite`,
  :class:`CompositionalSuite`, :class:`CombinedSuite`;
- :class:`Problem` and the scene classes (:mod:`paintkit.scene`);
- the stages of a benchmark run, on folders (each the library side of a command):
  :func:`write_baseline` (``paintkit baseline``), :func:`run_model` (``paintkit run``),
  :func:`evaluate` (``paintkit eval``: outputs -> ``problem_stats.jsonl``), :func:`aggregate`
  (``paintkit stats``: -> ``aggregate_stats.jsonl``), :func:`write_report` (``paintkit
  report``: -> one HTML page), and :func:`bench` / :class:`BenchConfig` (``paintkit bench``:
  all of them into one folder, resumably);
- :func:`load` (:mod:`paintkit.loader`): a benchmark tree, shard set or outputs tree as a
  sequence of problems (lazy images, metadata, key).

Where things live: :mod:`paintkit.tasks` (the 20 tasks on one contract; what they share is
in :mod:`paintkit.language`, :mod:`paintkit.scene_parts` and :mod:`paintkit.edits`),
:mod:`paintkit.shapes`, :mod:`paintkit.sampling`, :mod:`paintkit.renderers` (Scene -> exact
pixels), :mod:`paintkit.kernels` (every per-pixel computation), :mod:`paintkit.cli` (the
``paintkit`` command).

``import paintkit`` stays light: only the scene classes load with it; every other name
above is imported on first use, so torch, Numba and Skia load only when something needs them.
"""

from typing import TYPE_CHECKING, Any

# registers the chart-state drawer the metric finds in paintkit.metrics.code_drawers (the
# metric never imports the chart renderer); loaded here, so every way into the metric has it
from paintkit import code_outputs as _code_outputs  # noqa: F401
from paintkit._version import __version__
from paintkit.old_names import deprecated_aliases
from paintkit.scene import (
    Background,
    BBox,
    Canvas,
    Line,
    Polygon,
    Scene,
    Shape,
    Stripes,
    Stroke,
)

if TYPE_CHECKING:  # what type checkers see of the names _LAZY imports on first use
    from paintkit.baselines import write_baseline as write_baseline
    from paintkit.engines import write_suite as write_suite
    from paintkit.eval import evaluate as evaluate
    from paintkit.explainer import explain as explain
    from paintkit.full_run.steps import BenchConfig as BenchConfig
    from paintkit.full_run.steps import bench as bench
    from paintkit.loader import load as load
    from paintkit.metrics import (
        PixelEditIoUAccumulator as PixelEditIoUAccumulator,
    )
    from paintkit.metrics import (
        ProblemScore as ProblemScore,
    )
    from paintkit.metrics import (
        Targets as Targets,
    )
    from paintkit.metrics import (
        prepare_targets as prepare_targets,
    )
    from paintkit.metrics import (
        reward as reward,
    )
    from paintkit.metrics import (
        score as score,
    )
    from paintkit.metrics import (
        soft_reward as soft_reward,
    )
    from paintkit.metrics import (
        tolerance_statistics as tolerance_statistics,
    )
    from paintkit.report.write import write_report as write_report
    from paintkit.run import run_model as run_model
    from paintkit.sources import generate as generate
    from paintkit.stats.aggregate_folder import aggregate as aggregate
    from paintkit.suites import ProblemSuite as ProblemSuite
    from paintkit.suites import Suite as Suite
    from paintkit.suites.combined import CombinedSuite as CombinedSuite
    from paintkit.suites.compositional import CompositionalSuite as CompositionalSuite
    from paintkit.suites.guidance import GuidanceSuite as GuidanceSuite
    from paintkit.suites.references import ReferenceSuite as ReferenceSuite
    from paintkit.tasks import TASKS as TASKS
    from paintkit.tasks import Problem as Problem
    from paintkit.tinygrafix.style_suite import StyleTransferSuite as StyleTransferSuite
    from paintkit.tinygrafix.suite import TinyGrafixSuite as TinyGrafixSuite

#: Top-level name -> (module, attribute), imported on first access.
_LAZY = {
    "generate": ("paintkit.sources", "generate"),
    "write_suite": ("paintkit.engines", "write_suite"),
    "Problem": ("paintkit.tasks", "Problem"),
    "TASKS": ("paintkit.tasks", "TASKS"),
    "score": ("paintkit.metrics", "score"),
    "reward": ("paintkit.metrics", "reward"),
    "soft_reward": ("paintkit.metrics", "soft_reward"),
    "tolerance_statistics": ("paintkit.metrics", "tolerance_statistics"),
    "prepare_targets": ("paintkit.metrics", "prepare_targets"),
    "Targets": ("paintkit.metrics", "Targets"),
    "ProblemScore": ("paintkit.metrics", "ProblemScore"),
    "PixelEditIoUAccumulator": ("paintkit.metrics", "PixelEditIoUAccumulator"),
    "explain": ("paintkit.explainer", "explain"),
    "Suite": ("paintkit.suites", "Suite"),
    "ProblemSuite": ("paintkit.suites", "ProblemSuite"),
    "TinyGrafixSuite": ("paintkit.tinygrafix.suite", "TinyGrafixSuite"),
    "CombinedSuite": ("paintkit.suites.combined", "CombinedSuite"),
    "GuidanceSuite": ("paintkit.suites.guidance", "GuidanceSuite"),
    "ReferenceSuite": ("paintkit.suites.references", "ReferenceSuite"),
    "StyleTransferSuite": ("paintkit.tinygrafix.style_suite", "StyleTransferSuite"),
    "CompositionalSuite": ("paintkit.suites.compositional", "CompositionalSuite"),
    # the stages of a benchmark run (the commands only parse their flags for these)
    "write_baseline": ("paintkit.baselines", "write_baseline"),
    "run_model": ("paintkit.run", "run_model"),
    "evaluate": ("paintkit.eval", "evaluate"),
    "aggregate": ("paintkit.stats.aggregate_folder", "aggregate"),
    "write_report": ("paintkit.report.write", "write_report"),
    "bench": ("paintkit.full_run.steps", "bench"),
    "load": ("paintkit.loader", "load"),
    "BenchConfig": ("paintkit.full_run.steps", "BenchConfig"),
}


def _lazy_attribute(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        module, attribute = _LAZY[name]
        value = getattr(import_module(module), attribute)
        globals()[name] = value  # later lookups skip __getattr__
        return value
    raise AttributeError(f"module 'paintkit' has no attribute {name!r}")


__getattr__ = deprecated_aliases("paintkit", {"ScoreAccumulator": "PixelEditIoUAccumulator"},
                                 _lazy_attribute)


def __dir__() -> list[str]:
    # the public names only (not the subpackages Python adds as they are imported)
    return sorted(__all__)


__all__ = [
    "__version__", "BBox", "Background", "Canvas", "Line", "Polygon", "Scene", "Shape",
    "Stripes", "Stroke", *_LAZY,
]
