"""Dependencies you can see (docs/code-layout.md): the import graph of paintkit, kernels/ and
renderers/ read with ``ast`` (tests/code/import_graph.py) has

(a) no cycle between parts (paintkit's subpackages, its top-level modules, the package),
(b) no cycle between files,
(c) no import of a paintkit module inside a function unless a comment on its lines names the
    optional heavy dependency it keeps out of ``import`` time (``# torch``, ``# numba: ...``),
(d) no private name (``_x``, or a ``_private`` module) taken from another part.

What the code held when this test was written sits in the ALLOWED_* tables below, each entry
with the part of issue 22 that removes it. The tables only shrink: a new violation fails;
an entry that no longer occurs is printed (``pytest tests/code -s``, or ``python -m
tests.code.test_import_graph``) so that it can be deleted.
"""

from __future__ import annotations

import pytest

from tests.code.import_graph import (
    Edge,
    Graph,
    cycles,
    file_graph,
    package_graph,
    private_imports,
    read_graph,
    unexplained_local_imports,
)

# The version file setuptools reads (pyproject: ``attr = paintkit._version.__version__``):
# private by convention, the one place the version is written.
PUBLIC_PRIVATE_MODULES = {"paintkit._version"}

# (a) Cycles between parts. A cycle passes when its parts are a subset of one entry.
ALLOWED_PACKAGE_CYCLES: dict[tuple[str, ...], str] = {
    ("paintkit.edits", "paintkit.tasks"): "generate",
    ("paintkit.evaluate", "paintkit.explain", "paintkit.metrics"): "api/layout",
    ("paintkit.report", "paintkit.stats"): "layout",
}

# (b) Cycles between files, the same way.
ALLOWED_FILE_CYCLES: dict[tuple[str, ...], str] = {
    ("paintkit.kernels.tolerance_counts_compiled", "paintkit.kernels.tolerance_counts_torch"):
        "throughput",
    ("paintkit.compositional.chain", "paintkit.compositional.turns"): "generate",
    ("paintkit.suites.build", "paintkit.suites.spec", "paintkit.suites.suite"): "generate",
    ("paintkit.cli.generate", "paintkit.cli.generate_charts", "paintkit.cli.generate_compositional"):
        "generate",
    ("paintkit.metrics.score", "paintkit.metrics.score_torch"): "api",
}

# (c) (importer, imported) of function-local imports with no comment naming what they guard.
ALLOWED_LOCAL_IMPORTS: dict[tuple[str, str], str] = {
    ('paintkit.balanced', 'paintkit.io.jsonl'): 'api',
    ('paintkit.baselines.outputs', 'paintkit.io.progress'): 'layout',
    ('paintkit.charts.generate', 'paintkit.renderers.charts'): 'generate',
    ('paintkit.cli.agreement', 'paintkit.io.atomic'): 'layout',
    ('paintkit.cli.agreement', 'paintkit.stats.agreement'): 'layout',
    ('paintkit.cli.agreement', 'paintkit.stats.judgments'): 'layout',
    ('paintkit.cli.baseline', 'paintkit.baselines'): 'layout',
    ('paintkit.cli.eval', 'paintkit.compositional.turn_eval'): 'layout',
    ('paintkit.cli.eval', 'paintkit.evaluate.runner'): 'layout',
    ('paintkit.cli.eval', 'paintkit.io.folder_lock'): 'layout',
    ('paintkit.cli.eval', 'paintkit.stats.aggregate'): 'layout',
    ('paintkit.cli.eval', 'paintkit.stats.leaderboard'): 'layout',
    ('paintkit.cli.eval', 'paintkit.stats.table'): 'layout',
    ('paintkit.cli.explain', 'paintkit.evaluate.runner'): 'layout',
    ('paintkit.cli.explain', 'paintkit.explain.directory'): 'layout',
    ('paintkit.cli.explain', 'paintkit.io.progress'): 'layout',
    ('paintkit.cli.gallery', 'paintkit.errors'): 'generate',
    ('paintkit.cli.gallery', 'paintkit.io.atomic'): 'generate',
    ('paintkit.cli.gallery', 'paintkit.io.images'): 'generate',
    ('paintkit.cli.gallery', 'paintkit.renderers'): 'generate',
    ('paintkit.cli.gallery', 'paintkit.sampling.condition'): 'generate',
    ('paintkit.cli.gallery', 'paintkit.seeds'): 'generate',
    ('paintkit.cli.generate', 'paintkit.cli.generate_charts'): 'generate',
    ('paintkit.cli.generate', 'paintkit.cli.generate_compositional'): 'generate',
    ('paintkit.cli.generate', 'paintkit.engines.generate'): 'generate',
    ('paintkit.cli.generate', 'paintkit.suites'): 'generate',
    ('paintkit.cli.generate', 'paintkit.writers'): 'generate',
    ('paintkit.cli.generate_charts', 'paintkit.charts'): 'generate',
    ('paintkit.cli.generate_charts', 'paintkit.charts.environment'): 'generate',
    ('paintkit.cli.generate_charts', 'paintkit.cli.generate'): 'generate',
    ('paintkit.cli.generate_charts', 'paintkit.suites.combined'): 'generate',
    ('paintkit.cli.generate_charts', 'paintkit.suites.tinygrafix'): 'generate',
    ('paintkit.cli.generate_compositional', 'paintkit.cli.generate'): 'generate',
    ('paintkit.cli.generate_compositional', 'paintkit.compositional.suite'): 'generate',
    ('paintkit.cli.generate_compositional', 'paintkit.guidance.suite'): 'generate',
    ('paintkit.cli.report', 'paintkit.io.folder_lock'): 'layout',
    ('paintkit.cli.report', 'paintkit.report.page'): 'layout',
    ('paintkit.cli.run', 'paintkit.io.folder_lock'): 'layout',
    ('paintkit.cli.run', 'paintkit.run.planner'): 'layout',
    ('paintkit.cli.run', 'paintkit.run.registry'): 'layout',
    ('paintkit.cli.run', 'paintkit.run.runner'): 'layout',
    ('paintkit.cli.scene', 'paintkit.io.atomic'): 'generate',
    ('paintkit.cli.scene', 'paintkit.io.images'): 'generate',
    ('paintkit.cli.scene', 'paintkit.renderers'): 'generate',
    ('paintkit.cli.scene', 'paintkit.sampling.condition'): 'generate',
    ('paintkit.cli.scene', 'paintkit.seeds'): 'generate',
    ('paintkit.cli.show', 'paintkit.charts'): 'generate',
    ('paintkit.cli.show', 'paintkit.errors'): 'generate',
    ('paintkit.cli.show', 'paintkit.io.atomic'): 'generate',
    ('paintkit.cli.show', 'paintkit.io.images'): 'generate',
    ('paintkit.cli.show', 'paintkit.slots'): 'generate',
    ('paintkit.cli.show', 'paintkit.suites'): 'generate',
    ('paintkit.cli.show', 'paintkit.tasks'): 'generate',
    ('paintkit.cli.stats', 'paintkit.io.folder_lock'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.aggregate'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.bootstrap'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.compare'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.diagnostics'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.leaderboard'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.output'): 'layout',
    ('paintkit.cli.stats', 'paintkit.stats.table'): 'layout',
    ('paintkit.cli.subset', 'paintkit.balanced'): 'api',
    ('paintkit.cli.subset', 'paintkit.io.atomic'): 'api',
    ('paintkit.cli.tasks', 'paintkit.tasks'): 'generate',
    ('paintkit.compositional.chain', 'paintkit.compositional.turns'): 'generate',
    ('paintkit.compositional.suite', 'paintkit.compositional.chain'): 'generate',
    ('paintkit.compositional.turn_eval', 'paintkit.compositional.turns'): 'layout',
    ('paintkit.compositional.turn_eval', 'paintkit.evaluate.discovery'): 'layout',
    ('paintkit.compositional.turn_eval', 'paintkit.evaluate.problem'): 'layout',
    ('paintkit.compositional.turn_eval', 'paintkit.io.atomic'): 'layout',
    ('paintkit.compositional.turn_eval', 'paintkit.io.images'): 'layout',
    ('paintkit.compositional.turns', 'paintkit.compositional.chain'): 'generate',
    ('paintkit.compositional.turns', 'paintkit.renderers'): 'generate',
    ('paintkit.compositional.turns', 'paintkit.scene'): 'generate',
    ('paintkit.engines.generate', 'paintkit.engines.ray_engine'): 'generate',
    ('paintkit.engines.work', 'paintkit.engines.lifeline'): 'generate',
    ('paintkit.engines.work', 'paintkit.writers.record'): 'generate',
    ('paintkit.evaluate.problem', 'paintkit.explain'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.kernels.diff_image'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.kernels.normalize'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.kernels.tolerance_counts'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.metrics.coerce'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.metrics.histograms'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.metrics.result'): 'layout',
    ('paintkit.evaluate.problem', 'paintkit.metrics.similarity'): 'layout',
    ('paintkit.evaluate.results', 'paintkit.evaluate.discovery'): 'layout',
    ('paintkit.evaluate.runner', 'paintkit.engines.lifeline'): 'layout',
    ('paintkit.evaluate.runner', 'paintkit.explain.problem'): 'layout',
    ('paintkit.evaluate.runner', 'paintkit.kernels.delta_e'): 'layout',
    ('paintkit.evaluate.runner', 'paintkit.metrics.similarity'): 'layout',
    ('paintkit.explain.directory', 'paintkit.evaluate.discovery'): 'layout',
    ('paintkit.explain.directory', 'paintkit.evaluate.runner'): 'layout',
    ('paintkit.explain.directory', 'paintkit.io.atomic'): 'layout',
    ('paintkit.explain.directory', 'paintkit.io.images'): 'layout',
    ('paintkit.explain.directory', 'paintkit.kernels.delta_e'): 'layout',
    ('paintkit.explain.footprints', 'paintkit.kernels.scene_codes'): 'api',
    ('paintkit.explain.footprints', 'paintkit.renderers'): 'api',
    ('paintkit.explain.objects', 'paintkit.kernels.components'): 'api',
    ('paintkit.explain.objects', 'paintkit.kernels.delta_e_numba'): 'api',
    ('paintkit.explain.objects', 'paintkit.kernels.lab_canonical'): 'api',
    ('paintkit.explain.problem', 'paintkit.explain.footprints'): 'api',
    ('paintkit.explain.problem', 'paintkit.kernels.delta_e'): 'api',
    ('paintkit.explain.problem', 'paintkit.kernels.delta_e_counts'): 'api',
    ('paintkit.explain.problem', 'paintkit.kernels.edit_region'): 'api',
    ('paintkit.explain.problem', 'paintkit.kernels.normalize'): 'api',
    ('paintkit.explain.problem', 'paintkit.kernels.tolerance_counts'): 'api',
    ('paintkit.explain.segments', 'paintkit.kernels.run_labels'): 'api',
    ('paintkit.guidance.cues', 'paintkit.renderers'): 'generate',
    ('paintkit.guidance.suite', 'paintkit.guidance.generate'): 'generate',
    ('paintkit.guidance.suite', 'paintkit.tasks'): 'generate',
    ('paintkit.kernels.delta_e', 'paintkit.kernels.lab_table'): 'api',
    ('paintkit.kernels.delta_e_counts', 'paintkit.kernels.lab_table'): 'api',
    ('paintkit.kernels.tolerance_counts_compiled', 'paintkit.kernels.tolerance_counts_torch'): 'throughput',
    ('paintkit.metrics', 'paintkit.explain'): 'api',
    ('paintkit.metrics', 'paintkit.metrics.torchmetric'): 'api',
    ('paintkit.metrics.accumulator', 'paintkit.kernels.delta_e'): 'api',
    ('paintkit.metrics.coerce', 'paintkit.kernels.pixels'): 'api',
    ('paintkit.metrics.coerce', 'paintkit.kernels.tolerance_counts_compiled'): 'api',
    ('paintkit.metrics.histograms', 'paintkit.kernels.delta_e_counts'): 'api',
    ('paintkit.metrics.histograms', 'paintkit.kernels.tolerance_counts'): 'api',
    ('paintkit.metrics.histograms', 'paintkit.kernels.tolerance_counts_torch'): 'api',
    ('paintkit.metrics.reference', 'paintkit.kernels.tolerance_counts_torch'): 'api',
    ('paintkit.metrics.score', 'paintkit.kernels'): 'api',
    ('paintkit.metrics.score', 'paintkit.kernels.delta_e'): 'api',
    ('paintkit.metrics.score', 'paintkit.kernels.normalize'): 'api',
    ('paintkit.metrics.score', 'paintkit.metrics.score_torch'): 'api',
    ('paintkit.metrics.score_torch', 'paintkit.kernels.normalize'): 'api',
    ('paintkit.metrics.score_torch', 'paintkit.metrics.score'): 'api',
    ('paintkit.metrics.similarity', 'paintkit.kernels.normalize'): 'api',
    ('paintkit.metrics.similarity', 'paintkit.kernels.ssim'): 'api',
    ('paintkit.metrics.similarity', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.metrics.statistics', 'paintkit.kernels.tolerance_counts'): 'api',
    ('paintkit.metrics.surrogate', 'paintkit.kernels.lab'): 'api',
    ('paintkit.metrics.surrogate', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.metrics.surrogate', 'paintkit.metrics.reference'): 'api',
    ('paintkit.metrics.surrogate', 'paintkit.metrics.reward'): 'api',
    ('paintkit.report.comparisons', 'paintkit.report.plots'): 'layout',
    ('paintkit.report.comparisons', 'paintkit.stats.compare'): 'layout',
    ('paintkit.report.data', 'paintkit.stats.aggregate'): 'layout',
    ('paintkit.report.data', 'paintkit.stats.diagnostics'): 'layout',
    ('paintkit.report.explanations', 'paintkit.report.data'): 'layout',
    ('paintkit.report.gallery', 'paintkit.io.images'): 'layout',
    ('paintkit.report.gallery', 'paintkit.kernels.diff_image'): 'layout',
    ('paintkit.report.gallery', 'paintkit.metrics.reference'): 'layout',
    ('paintkit.report.gallery', 'paintkit.metrics.score'): 'layout',
    ('paintkit.report.order', 'paintkit.charts.registry'): 'layout',
    ('paintkit.report.order', 'paintkit.tasks'): 'layout',
    ('paintkit.report.page', 'paintkit'): 'layout',
    ('paintkit.report.page', 'paintkit.evaluate.discovery'): 'layout',
    ('paintkit.report.page', 'paintkit.report.comparisons'): 'layout',
    ('paintkit.report.page', 'paintkit.report.explanations'): 'layout',
    ('paintkit.report.page', 'paintkit.report.gallery'): 'layout',
    ('paintkit.report.plots', 'paintkit.stats.table'): 'layout',
    ('paintkit.rewards._common', 'paintkit.arguments'): 'api',
    ('paintkit.rewards._common', 'paintkit.kernels'): 'api',
    ('paintkit.rewards._common', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.rewards._common', 'paintkit.metrics.reward'): 'api',
    ('paintkit.rewards._common', 'paintkit.rewards.fit'): 'api',
    ('paintkit.rewards.fit', 'paintkit.kernels.normalize'): 'api',
    ('paintkit.rewards.flow_factory', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.rewards.plain', 'paintkit.kernels'): 'api',
    ('paintkit.rewards.plain', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.rewards.plain', 'paintkit.metrics.reference'): 'api',
    ('paintkit.rewards.plain', 'paintkit.metrics.reward'): 'api',
    ('paintkit.rewards.verl', 'paintkit.kernels'): 'api',
    ('paintkit.rewards.verl', 'paintkit.metrics.coerce'): 'api',
    ('paintkit.rewards.verl', 'paintkit.metrics.score'): 'api',
    ('paintkit.run.runner', 'paintkit.run.live_eval'): 'layout',
    ('paintkit.run.runner', 'paintkit.run.ray_engine'): 'layout',
    ('paintkit.stats.aggregate', 'paintkit.engines.lifeline'): 'layout',
    ('paintkit.stats.diagnostics', 'paintkit.stats.bootstrap'): 'layout',
    ('paintkit.stats.leaderboard', 'paintkit.report.order'): 'layout',
    ('paintkit.stats.output', 'paintkit'): 'layout',
    ('paintkit.stats.output', 'paintkit.io.atomic'): 'layout',
    ('paintkit.stats.table', 'paintkit.charts'): 'layout',
    ('paintkit.stats.table', 'paintkit.metrics.version'): 'layout',
    ('paintkit.stats.table', 'paintkit.tasks'): 'layout',
    ('paintkit.suites.combined', 'paintkit.suites.build'): 'generate',
    ('paintkit.suites.spec', 'paintkit.suites.build'): 'generate',
    ('paintkit.suites.spec', 'paintkit.suites.suite'): 'generate',
    ('paintkit.suites.tinygrafix', 'paintkit.charts'): 'generate',
    ('paintkit.suites.tinygrafix', 'paintkit.charts.environment'): 'generate',
    ('paintkit.suites.tinygrafix', 'paintkit.charts.registry'): 'generate',
    ('paintkit.tasks.base', 'paintkit.kernels.tolerance_counts'): 'generate',
}

# (d) (importer, ``module.name``) of private names taken from another part.
ALLOWED_PRIVATE_IMPORTS: dict[tuple[str, str], str] = {
    ("paintkit.rewards._common", "paintkit.metrics.coerce._is_tensor"): "api",
    ("paintkit.rewards.flow_factory", "paintkit.metrics.coerce._is_tensor"): "api",
    ("paintkit.run.live_eval", "paintkit.evaluate.runner._needs_scoring"): "layout",
}


@pytest.fixture(scope="module")
def graph() -> Graph:
    return read_graph()


def _new_cycles(found, allowed) -> list[tuple[str, ...]]:
    return [tuple(sorted(c)) for c in found if not any(c <= set(a) for a in allowed)]


def _stale_cycles(found, allowed) -> list[tuple[str, ...]]:
    return [a for a in allowed if not any(c <= set(a) and len(c) == len(a) for c in found)]


def _report(kind: str, stale, allowed: dict) -> None:
    """Print what the allow-list still holds, by owner, and the entries to delete."""
    owners: dict[str, int] = {}
    for owner in allowed.values():
        owners[owner] = owners.get(owner, 0) + 1
    print(f"\n{kind}: {len(allowed) - len(stale)} allowed ("
          + ", ".join(f"{o} {n}" for o, n in sorted(owners.items())) + ")")
    if stale:
        print(f"\n{kind}: {len(stale)} allowed entries no longer occur; delete them:")
        for entry in stale:
            print(f"    {entry}")


def test_the_graph_sees_the_whole_code(graph):
    assert {"paintkit", "paintkit.scene", "paintkit.kernels.stripes",
            "paintkit.renderers.skia_scene", "paintkit.metrics.score"} <= set(graph.files)
    assert len(graph.edges) > 300
    # relative imports resolve: renderers/charts and kernels use ``from . import x`` forms
    assert any(e.source == "paintkit.kernels.stripes" and e.target == "paintkit.kernels._stripes_numba"
               for e in graph.edges)


def test_no_new_cycle_between_parts(graph):
    found = cycles(package_graph(graph))
    _report("package cycles", _stale_cycles(found, ALLOWED_PACKAGE_CYCLES), ALLOWED_PACKAGE_CYCLES)
    assert not _new_cycles(found, ALLOWED_PACKAGE_CYCLES), (
        "a new import cycle between parts of paintkit: " f"{_new_cycles(found, ALLOWED_PACKAGE_CYCLES)}")


def test_no_new_cycle_between_files(graph):
    found = cycles(file_graph(graph))
    _report("file cycles", _stale_cycles(found, ALLOWED_FILE_CYCLES), ALLOWED_FILE_CYCLES)
    assert not _new_cycles(found, ALLOWED_FILE_CYCLES), (
        f"a new import cycle between files: {_new_cycles(found, ALLOWED_FILE_CYCLES)}")


def test_function_local_imports_say_what_they_guard(graph):
    found = unexplained_local_imports(graph)
    _report("function-local imports", sorted(set(ALLOWED_LOCAL_IMPORTS) - found), ALLOWED_LOCAL_IMPORTS)
    new = sorted(found - set(ALLOWED_LOCAL_IMPORTS))
    assert not new, ("import these at the top of the module, or say on the import's line which "
                     "optional heavy dependency it keeps out of import time (# torch, # numba, "
                     f"# matplotlib, ...): {new}")


def test_no_private_name_crosses_parts(graph):
    found = {(s, t) for s, t in private_imports(graph) if t not in PUBLIC_PRIVATE_MODULES}
    _report("private imports", sorted(set(ALLOWED_PRIVATE_IMPORTS) - found), ALLOWED_PRIVATE_IMPORTS)
    new = sorted(found - set(ALLOWED_PRIVATE_IMPORTS))
    assert not new, f"make these names public in their module, or keep them in their part: {new}"


def test_the_checks_catch_each_kind_of_violation():
    """The rules on a made-up graph: each violation found, and only those."""
    files = {m: None for m in ("paintkit.a.x", "paintkit.a.y", "paintkit.b.z", "paintkit.c",
                               "paintkit.d._inner")}
    edges = [
        Edge("paintkit.a.x", "paintkit.a.y", 1, False, False, ""),
        Edge("paintkit.a.y", "paintkit.a.x", 9, True, False, "# torch"),  # file cycle, commented
        Edge("paintkit.a.y", "paintkit.b.z", 2, False, False, ""),
        Edge("paintkit.b.z", "paintkit.a.x", 5, True, False, "", ("_hidden", "shown")),
        Edge("paintkit.c", "paintkit.b.z", 3, False, True, ""),  # TYPE_CHECKING only
        Edge("paintkit.b.z", "paintkit.c", 4, False, False, ""),
        Edge("paintkit.c", "paintkit.d._inner", 6, False, False, ""),
    ]
    g = Graph(files, edges, [("paintkit.c", "paintkit.b.z", "_attr", 7)])
    assert cycles(package_graph(g)) == [frozenset({"paintkit.a", "paintkit.b"})]
    assert cycles(file_graph(g)) == [frozenset({"paintkit.a.x", "paintkit.a.y", "paintkit.b.z"})]
    assert unexplained_local_imports(g) == {("paintkit.b.z", "paintkit.a.x")}
    assert private_imports(g) == {("paintkit.b.z", "paintkit.a.x._hidden"),
                                  ("paintkit.c", "paintkit.d._inner"),
                                  ("paintkit.c", "paintkit.b.z._attr")}


def main() -> None:
    """Print every violation and whether it is allowed (and whose it is)."""
    g = read_graph()
    sections = [
        ("package cycles", [tuple(sorted(c)) for c in cycles(package_graph(g))], ALLOWED_PACKAGE_CYCLES),
        ("file cycles", [tuple(sorted(c)) for c in cycles(file_graph(g))], ALLOWED_FILE_CYCLES),
        ("function-local imports", sorted(unexplained_local_imports(g)), ALLOWED_LOCAL_IMPORTS),
        ("private imports", sorted(p for p in private_imports(g) if p[1] not in PUBLIC_PRIVATE_MODULES),
         ALLOWED_PRIVATE_IMPORTS),
    ]
    for title, found, allowed in sections:
        print(f"{title}: {len(found)}")
        for entry in found:
            owner = next((o for a, o in allowed.items()
                          if entry == a or (title.endswith("cycles") and set(entry) <= set(a))), "NEW")
            print(f"    [{owner}] {entry}")


if __name__ == "__main__":
    main()
