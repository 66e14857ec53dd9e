"""The declared interfaces of generation: every suite class is a ProblemSuite, every task
module a ProblemGenerator, and building a problem goes through the protocol."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from paintkit.engines.feasibility import SkippingSuite
from paintkit.suites import ProblemGenerator, ProblemSuite, Suite, build_problem, check_suite
from paintkit.suites.combined import CombinedSuite
from paintkit.suites.compositional import CompositionalSuite
from paintkit.suites.guidance import GuidanceSuite
from paintkit.suites.references import ReferenceSuite
from paintkit.tasks import TASKS, Problem, task_module
from paintkit.tinygrafix.style_suite import StyleTransferSuite
from paintkit.tinygrafix.suite import TinyGrafixSuite

SUITES = {
    "paintbench": lambda: Suite(tasks=["translation", "removal"], conditions=["baseline"], per_cell=1),
    "tinygrafixbench": lambda: TinyGrafixSuite(tasks=["bar_chart_add_bar"], per_cell=1),
    "compositional": lambda: CompositionalSuite(kinds=["multi_edit"], conditions=["baseline"],
                                                per_cell=1),
    "guidance": lambda: GuidanceSuite(tasks=["translation"], conditions=["baseline"], per_cell=1),
    "references": lambda: ReferenceSuite(tasks=["reference_copy"], conditions=["baseline"],
                                         per_cell=1),
    "style-transfer": lambda: StyleTransferSuite(tasks=["line_chart"], per_cell=1),
    "combined": lambda: CombinedSuite([SUITES["paintbench"](), SUITES["tinygrafixbench"]()]),
    # generate --skip-infeasible: a suite without the cells that cannot be made at its size
    "skipping": lambda: SkippingSuite(SUITES["paintbench"](), [("removal", "baseline", "none")]),
}
MEMBERS = ("__len__", "spec", "specs", "problems", "make_problem", "to_dict")


def _same(a: Problem, b: Problem) -> bool:
    return (np.array_equal(a.input, b.input) and np.array_equal(a.answer, b.answer)
            and a.metadata == b.metadata)


@pytest.mark.parametrize("name", SUITES)
def test_every_suite_class_is_a_problem_suite(name):
    suite = SUITES[name]()
    assert isinstance(suite, ProblemSuite)
    assert check_suite(suite) is suite
    assert isinstance(suite.benchmark, str) and len(suite) >= 1
    # the signatures the protocol declares, not only the names
    for member in MEMBERS:
        declared = inspect.signature(getattr(ProblemSuite, member))
        actual = inspect.signature(getattr(type(suite), member))
        assert list(actual.parameters) == list(declared.parameters), (name, member)
        for p in declared.parameters.values():
            assert actual.parameters[p.name].default == p.default, (name, member, p.name)


@pytest.mark.parametrize("name", ["paintbench", "tinygrafixbench", "compositional", "guidance",
                                  "references", "style-transfer"])
def test_make_problem_is_what_build_problem_stamps_ids_into(name):
    suite = SUITES[name]()
    spec = suite.spec(0)
    made, built = suite.make_problem(spec), build_problem(suite, spec)
    assert np.array_equal(made.input, built.input) and np.array_equal(made.answer, built.answer)
    assert built.metadata == {"problem_id": spec.problem_id, "idx": spec.idx, **made.metadata}
    assert list(built.metadata)[:2] == ["problem_id", "idx"]
    assert _same(next(suite.problems(0, 1)), built)


def test_a_combined_suite_makes_each_part_s_own_problem():
    suite = SUITES["combined"]()
    last = len(suite) - 1
    spec = suite.spec(last)
    assert _same(build_problem(suite, spec), build_problem(suite.parts[1], spec.part))


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_suite_class_in_paintkit_is_covered_above():
    from paintkit.suites.base import SuiteMethods
    from paintkit.suites.grid import SourceSuite

    classes = {c for c in _subclasses(SuiteMethods) if c is not SourceSuite
               and c.__module__.startswith("paintkit.")}
    assert {c.__name__ for c in classes} == {type(make()).__name__ for make in SUITES.values()}


def test_an_object_that_is_not_a_suite_is_refused_by_name():
    class Half:
        benchmark = "Half"

        def __len__(self):
            return 1

        def spec(self, index, round=0):
            return None

    with pytest.raises(TypeError, match=r"Half is not a suite .*lacks specs, problems, "
                       r"make_problem, to_dict"):
        build_problem(Half(), None)


def test_every_task_module_is_a_problem_generator():
    for task in TASKS:
        module = task_module(task)
        assert isinstance(module, ProblemGenerator), task
        assert list(inspect.signature(module.generate).parameters) == ["seed", "condition", "mode"]
        assert module.SPEC.name == task


def test_the_old_write_entrance_warns_and_gives_the_same_bytes(tmp_path):
    from paintkit.engines import generate, write_suite

    tiny = Suite(tasks=["translation"], conditions=["baseline"], per_cell=1, namespace="demo")
    with pytest.warns(DeprecationWarning, match="write_suite"):
        old = generate(tiny, tmp_path / "old", engine="inprocess", progress=False)
    new = write_suite(tiny, tmp_path / "new", engine="inprocess", progress=False)
    assert (old.problems, old.files) == (new.problems, new.files)
    for path in (tmp_path / "old").rglob("*.png"):
        assert path.read_bytes() == (tmp_path / "new" / path.relative_to(tmp_path / "old")).read_bytes()


def test_write_suite_refuses_what_is_not_a_suite(tmp_path):
    from paintkit.engines import write_suite

    with pytest.raises(TypeError, match="is not a suite"):
        write_suite(["translation"], tmp_path)
    assert not (tmp_path / "manifest.json").exists()
