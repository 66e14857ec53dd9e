"""One owner per concept (issue 33): every command asks the owner, none keeps its own copy.

- worker pools and job counts: :mod:`paintkit.parallel`;
- the stateful metric: the accumulator core of :mod:`paintkit.metrics.accumulator`, whose
  figures come from :mod:`paintkit.metrics.compute_step` only;
- the benchmark tree's file names: :mod:`paintkit.layout.problem_files`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import paintkit

PACKAGE = Path(paintkit.__file__).parent
ROOT = PACKAGE.parent


def _imported_names(path: Path) -> set[str]:
    """``module.name`` of every ``from module import name`` and ``module`` of every
    ``import module`` in ``path``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


# ---------------------------------------------------------------- worker pools

POOL_STARTERS = {"concurrent.futures.ProcessPoolExecutor", "multiprocessing.Pool",
                 "multiprocessing.pool", "multiprocessing.pool.Pool"}


def test_only_parallel_starts_process_pools():
    starters = sorted(f"{path.relative_to(PACKAGE)}: {name}"
                      for path in PACKAGE.rglob("*.py")
                      for name in _imported_names(path) & POOL_STARTERS)
    assert starters == ["parallel.py: concurrent.futures.ProcessPoolExecutor"]


def test_one_job_count():
    import paintkit.engines
    import paintkit.parallel

    assert paintkit.engines.default_jobs is paintkit.parallel.default_jobs


def test_generate_engine_and_stats_take_their_pools_from_parallel(monkeypatch):
    """Each pool is built by ``paintkit.parallel`` (the spy stands in for the executor there,
    so a pool built anywhere else would start real workers and not be seen)."""
    import paintkit.parallel as parallel
    from paintkit.engines import ProcessPoolEngine
    from paintkit.stats.aggregate import aggregate_tables

    class Built(Exception):
        pass

    seen = []

    def spy(jobs, mp_context=None, initializer=None, initargs=()):
        seen.append((jobs, initializer, initargs[1]))
        raise Built

    monkeypatch.setattr(parallel, "ProcessPoolExecutor", spy)
    with pytest.raises(Built):
        ProcessPoolEngine(2)
    with pytest.raises(Built):
        aggregate_tables([object(), object()], n_boot=10, jobs=2)
    with pytest.raises(Built):
        parallel.map_in_workers(len, [[1]], (), 1, print)
    from paintkit.engines.work import pool_worker

    assert seen == [(2, parallel._bound_initializer, pool_worker),
                    (2, parallel._bound_initializer, None),
                    (1, parallel._bound_initializer, parallel.one_thread_worker)]


STATS_PROBE = textwrap.dedent("""
    import sys

    from paintkit.parallel import worker_pool
    from paintkit.stats.aggregate import _aggregate_job, aggregate_tables
    from paintkit.stats.table import build_tables
    from tests.support.rows_factory import PB_TASKS, paintbench_rows

    HEAVY = ("skia", "numba", "torch", "paintkit.engines", "paintkit.tasks")


    def loaded():
        return [name for name in HEAVY if name in sys.modules]


    if __name__ == "__main__":
        rows = paintbench_rows(models=("m1", "m2"), per_cell=2, with_preservation=False)
        for row in rows:  # as paintkit eval writes them: with the problem's category
            row["category"] = PB_TASKS[row["task"]][0]
        tables = build_tables(rows)
        assert len(aggregate_tables(tables, n_boot=20, jobs=2)) > 0
        with worker_pool(1) as pool:  # a worker that aggregated a table
            pool.submit(_aggregate_job, (tables[0], 20, 0, True)).result()
            in_worker = pool.submit(loaded).result()
        print(loaded(), in_worker)
""")


def test_stats_aggregates_without_skia_or_numba(tmp_path):
    """``paintkit stats`` aggregating with 2 jobs loads neither the renderer (Skia) nor the
    kernels (Numba), in the parent or in its workers: its pool is not the generator's."""
    script = tmp_path / "probe.py"
    script.write_text(STATS_PROBE, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[] []"


def test_metrics_package_loads_its_names_on_first_use():
    """``paintkit.metrics.version`` (read by stats) loads no kernels, and ``score`` /
    ``reward`` stay the functions whatever was imported first."""
    probe = ("import sys, types\n"
             "import paintkit.metrics.version\n"
             "assert 'numba' not in sys.modules and 'torch' not in sys.modules\n"
             "import paintkit.metrics.accumulator\n"
             "from paintkit.metrics import reward, score\n"
             "assert isinstance(score, types.FunctionType), score\n"
             "assert isinstance(reward, types.FunctionType), reward\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


# ---------------------------------------------------------------- the stateful metric

def test_metric_faces_share_one_state_and_take_every_figure_from_figures_py(monkeypatch):
    """Both faces hold the core's state, and every figure they report (per problem, macro,
    pooled) goes through ``figures.tolerance_figures``: with its one ratio replaced, every
    accuracy and IoU of both faces follows."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    import numpy as np

    import paintkit.metrics.compute_step as figures
    from paintkit.metrics import PixelEditIoU, PixelEditIoUAccumulator
    from paintkit.metrics.accumulator import FIGURE_NAMES, STATE_NAMES

    metric, acc = PixelEditIoU(), PixelEditIoUAccumulator()
    assert set(metric._defaults) == set(STATE_NAMES)
    def quarter(num, den, empty, dtype):  # the figures run on NumPy arrays or torch tensors
        if isinstance(num, np.ndarray):
            return np.full(np.broadcast_shapes(num.shape, den.shape), 0.25, dtype or np.float64)
        return torch.full(torch.broadcast_shapes(num.shape, den.shape), 0.25,
                          dtype=dtype or torch.float64)

    monkeypatch.setattr(figures, "_ratio", quarter)
    rng = np.random.default_rng(0)
    inp = rng.integers(0, 256, (3, 8, 8, 3), dtype=np.uint8)
    ans = inp.copy()
    ans[:, :3] = 255
    metric.update(ans, ans, inp)
    acc.update(ans, ans, inp)
    got = acc.compute()
    assert set(got) == set(FIGURE_NAMES)
    assert {k: v.tolist() for k, v in metric.compute_all().items()} == got
    for name in ("iou", "edit_accuracy", "preservation_accuracy", "micro_iou",
                 "micro_edit_accuracy", "micro_preservation_accuracy"):
        assert got[name] == [0.25] * 11, name
    assert got["miou"] == got["over_edit_ratio"] == 0.25


# ---------------------------------------------------------------- benchmark file names

#: Other names for the five files of a problem: whoever spells a name itself instead of
#: asking ``paintkit.layout.problem_files`` writes or looks for the usual one.
OTHER_NAMES = {"INPUT": "_before.png", "ANSWER": "_after.png", "METADATA": ".problem.json",
               "INPUT_SVG": "_before.svg", "ANSWER_SVG": "_after.svg"}


@pytest.fixture
def renamed(monkeypatch):
    import paintkit.layout.problem_files as problem_files

    for name, value in OTHER_NAMES.items():
        monkeypatch.setattr(problem_files, name, value)


def test_writers_and_readers_of_benchmark_trees_ask_one_owner(renamed, tmp_path):
    import pyarrow.parquet as pq

    from paintkit.engines import write_suite
    from paintkit.eval.synthetic import write_synthetic_tree
    from paintkit.layout.benchmark import discover_problems, read_images, read_metadata
    from paintkit.rewards.problem_index import ProblemIndex
    from paintkit.subsets import load_pool
    from tests.support.generate_helpers import small_suite

    suite = small_suite(tasks=("recolor",), conditions=("baseline",), size=(128, 128))
    tree = tmp_path / "tree"
    write_suite(suite, tree, engine="inprocess", progress=False, svg=True)
    on_disk = sorted(p.name for p in tree.rglob("*") if p.name[:1].isdigit())
    assert on_disk == sorted(s.stem + suffix for s in suite.specs()
                             for suffix in OTHER_NAMES.values())
    again = write_suite(suite, tree, engine="inprocess", progress=False, svg=True)
    assert again.skipped == len(suite)  # resuming looks for the same names

    problems = discover_problems(tree)  # paintkit eval
    assert len(problems) == len(suite)
    inp, answer = read_images(problems[0])
    meta = read_metadata(problems[0])
    assert inp.shape == answer.shape == (128, 128, 3)
    assert ProblemIndex(tree).paths(meta["problem_id"]) == \
        (str(problems[0].input_path), str(problems[0].answer_path))  # the rewards
    assert len(load_pool(tree)) == len(suite)  # paintkit subset

    write_suite(suite, tmp_path / "pq", engine="inprocess", progress=False, format="parquet")
    table = pq.read_table(sorted((tmp_path / "pq").glob("*.parquet"))[0])
    assert table.column("input")[0].as_py()["path"].endswith("_before.png")
    assert table.column("answer")[0].as_py()["path"].endswith("_after.png")

    bench, _ = write_synthetic_tree(tmp_path / "synthetic", problems=2, models=("exact",))
    assert len(discover_problems(bench)) == 2


def test_show_names_the_benchmark_file_through_the_owner(renamed):
    from types import SimpleNamespace

    from paintkit.cli.show import describe

    problem = SimpleNamespace(metadata={"slot": 0, "namespace": "paintbench", "attempt": 0,
                                        "seed": 1})
    lines = describe(problem, "recolor", "baseline", "color_code")
    assert "PaintBench file: PaintBench/recolor/000_before.png" in lines


def _code_strings(path: Path):
    """String constants of ``path`` that are code, not docstrings, help text or messages."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body \
                and isinstance(node.body[0], ast.Expr):
            prose.add(id(node.body[0].value))
        if isinstance(node, ast.keyword) and node.arg in ("help", "description"):
            prose.update(id(sub) for sub in ast.walk(node.value))
        if isinstance(node, ast.Raise):
            prose.update(id(sub) for sub in ast.walk(node))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in prose]


def test_problem_file_names_are_spelled_only_by_their_owner():
    """The names the behaviour tests above cannot reach (a writer no test drives) are not
    spelled anywhere else either."""
    spelled = ("_input.png", "_answer.png", "_input.svg", "_answer.svg")
    found = [f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).as_posix() != "layout/problem_files.py"
             for line, text in _code_strings(path) if any(s in text for s in spelled)]
    assert found == []
