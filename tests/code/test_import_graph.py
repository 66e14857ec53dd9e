"""Dependencies you can see (docs/code-layout.md): the import graph of paintkit, kernels/ and
renderers/ read with ``ast`` (tests/code/import_graph.py) has

(a) no cycle between parts (paintkit's subpackages, its top-level modules, the package),
(b) no cycle between files, counting every import statement: module level, inside functions
    and under ``if TYPE_CHECKING:`` (a cycle hidden behind either is still a cycle),
(c) no import of a paintkit module inside a function unless a comment on its lines (or the
    comment lines heading its run of imports) names the optional or slow-to-import heavy
    dependency it keeps out of ``import`` time (``# torch``, ``# numba: ...``),
(d) no private name (``_x``, or a ``_private`` module) taken from another part (the
    ``bench/`` scripts included: they time the public kernels),
(e) no module of the package importing the package facade (``paintkit/__init__.py``).

The ALLOWED_* tables below are empty: every violation fails. An exception, if one is ever
needed, goes into its table with the reason; ``python -m tests.code.test_import_graph`` prints
every finding.
"""

from __future__ import annotations

import ast

import pytest

from tests.code.import_graph import (
    Edge,
    Graph,
    cycles,
    facade_imports,
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
ALLOWED_PACKAGE_CYCLES: dict[tuple[str, ...], str] = {}

# (b) Cycles between files, the same way.
ALLOWED_FILE_CYCLES: dict[tuple[str, ...], str] = {}

# (c) (importer, imported) of function-local imports with no comment naming what they guard.
ALLOWED_LOCAL_IMPORTS: dict[tuple[str, str], str] = {}

# (d) (importer, ``module.name``) of private names taken from another part.
ALLOWED_PRIVATE_IMPORTS: dict[tuple[str, str], str] = {
    # bench/ scripts that time the stages inside a module of another area; each entry goes
    # when that module gives the stage a public name (the kernels' did: count_row,
    # delta_e_bins_row, held_tables, held_bucket_tables)
    ("bench.float_to_uint8", "paintkit.metrics.coerce._float_to_uint8"): "metrics/coerce",
    ("bench.floors", "paintkit.io.png_encode._IEND"): "io/png_encode",
    ("bench.floors", "paintkit.io.png_encode._SIGNATURE"): "io/png_encode",
    ("bench.floors", "paintkit.io.png_encode._chunk"): "io/png_encode",
    ("bench.floors", "paintkit.io.png_encode._scanlines"): "io/png_encode",
    ("bench.stage_breakdown", "paintkit.io.png_encode._scanlines"): "io/png_encode",
    ("bench.stage_breakdown", "paintkit.data.transfer._WORKER"): "data/transfer",
    ("bench.stage_breakdown", "paintkit.data.transfer._WorkerSide"): "data/transfer",
    ("bench.stream_throughput", "paintkit.data.transfer._NAME_BY_KEY"): "data/transfer",
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
            "paintkit.renderers.skia_scene", "paintkit.metrics.batch_scoring",
            "bench.reward_throughput"} <= set(graph.files)
    # every import statement, wherever it sits: TYPE_CHECKING and function-level ones too
    assert any(e.typing_only for e in graph.edges) and any(e.local for e in graph.edges)
    assert len(graph.edges) > 300
    # relative imports resolve: kernels use ``from . import x`` forms
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


def test_no_module_imports_the_package_facade(graph):
    found = sorted(facade_imports(graph))
    assert not found, ("import the version from paintkit._version and other names from the "
                       f"module that defines them, not from the package facade: {found}")


def test_only_the_update_step_imports_the_counting_kernels(graph):
    """docs/code-layout.md, "The scoring core": the kernel is picked in one module."""
    importers = {e.source for e in graph.edges if e.target.startswith("paintkit.kernels.counting")
                 and not e.source.startswith(("paintkit.kernels.", "bench."))}
    assert importers == {"paintkit.metrics.counts"}


def test_the_bins_are_defined_once():
    """``NUM_BINS``, ``NUM_TOLERANCES`` and the histogram rows: ``kernels/counting/bins.py``."""
    from tests.code.import_graph import module_files

    names = {"NUM_BINS", "NUM_TOLERANCES", "HIST_EDIT", "HIST_PRESERVATION", "HIST_CHANGED",
             "BIN_THRESHOLDS", "GUARD_BAND"}
    homes = {}
    for module, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                for leaf in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if isinstance(leaf, ast.Name) and leaf.id.lstrip("_") in names:
                        homes.setdefault(leaf.id.lstrip("_"), set()).add(module)
    assert homes == {name: {"paintkit.kernels.counting.bins"} for name in names}


def test_no_private_name_crosses_parts(graph):
    found = {(s, t) for s, t in private_imports(graph) if t not in PUBLIC_PRIVATE_MODULES}
    _report("private imports", sorted(set(ALLOWED_PRIVATE_IMPORTS) - found), ALLOWED_PRIVATE_IMPORTS)
    new = sorted(found - set(ALLOWED_PRIVATE_IMPORTS))
    assert not new, f"make these names public in their module, or keep them in their part: {new}"


#: What the file layout (paintkit.layout: names, trees, rows, readers) may import outside
#: itself, at module level or inside functions: reading and writing a benchmark tree or a
#: results file needs no task or chart registry (the paper order and old rows' categories,
#: which do, are paintkit.stats.order).
LAYOUT_MAY_IMPORT = ("paintkit.errors", "paintkit.io.", "paintkit.metrics.version")


def test_the_file_layout_reaches_into_no_benchmark(graph):
    outside = sorted({(e.source, e.target) for e in graph.edges
                      if e.source.startswith("paintkit.layout")
                      and not e.target.startswith("paintkit.layout")
                      and not e.target.startswith(LAYOUT_MAY_IMPORT)})
    assert not outside, f"paintkit.layout imports beyond io and the metric version: {outside}"


def test_the_checks_catch_each_kind_of_violation():
    """The rules on a made-up graph: each violation found, and only those."""
    files = {m: None for m in ("paintkit.a.x", "paintkit.a.y", "paintkit.b.z", "paintkit.c",
                               "paintkit.d._inner", "paintkit", "paintkit.e")}
    edges = [
        Edge("paintkit.a.x", "paintkit.a.y", 1, False, False, ""),
        Edge("paintkit.a.y", "paintkit.a.x", 9, True, False, "# torch"),  # file cycle, commented
        Edge("paintkit.a.y", "paintkit.b.z", 2, False, False, ""),
        Edge("paintkit.b.z", "paintkit.a.x", 5, True, False, "", ("_hidden", "shown")),
        Edge("paintkit.c", "paintkit.b.z", 3, False, True, ""),  # TYPE_CHECKING only
        Edge("paintkit.b.z", "paintkit.c", 4, False, False, ""),
        Edge("paintkit.c", "paintkit.d._inner", 6, False, False, ""),
        Edge("paintkit.e", "paintkit", 8, False, False, "", ("__version__",)),  # the facade
    ]
    g = Graph(files, edges, [("paintkit.c", "paintkit.b.z", "_attr", 7)])
    # the TYPE_CHECKING edge c -> b.z and the function-level b.z -> a.x close cycles too
    assert sorted(map(sorted, cycles(package_graph(g)))) == [
        ["paintkit.a", "paintkit.b", "paintkit.c"]]
    assert sorted(map(sorted, cycles(file_graph(g)))) == [
        ["paintkit.a.x", "paintkit.a.y", "paintkit.b.z", "paintkit.c"]]
    assert facade_imports(g) == {("paintkit.e", 8)}
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
