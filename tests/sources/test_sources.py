"""The problem-source contract: each source's one entry runs the attempt search over its
hooks, every suite makes its problems through its source, and a variant needs its key."""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.attempts import AttemptsExhausted
from paintkit.conditions import Condition
from paintkit.errors import RejectedSeed
from paintkit.sources import SOURCES, ProblemSource, get_source
from paintkit.sources.paintbench import PaintBenchSource
from paintkit.suites import Suite
from paintkit.suites.compositional import CompositionalSuite
from paintkit.suites.grid import SourceSuite
from paintkit.suites.guidance import GuidanceSuite
from paintkit.suites.references import ReferenceSuite
from paintkit.tinygrafix.style_suite import StyleTransferSuite
from paintkit.tinygrafix.suite import TinyGrafixSuite

SUITES = {
    "paintbench": lambda: Suite(tasks=["rotation"], conditions=["n_med"], per_cell=2, namespace="t"),
    "tinygrafixbench": lambda: TinyGrafixSuite(tasks=["line_chart_filter_series"], per_cell=1),
    "guidance": lambda: GuidanceSuite(tasks=["reflection"], conditions=["vertical"], per_cell=1),
    "references": lambda: ReferenceSuite(tasks=["reference_move_recolor"], conditions=["striped"],
                                         per_cell=1),
    "compositional": lambda: CompositionalSuite(steps=3, kinds=["multi_edit"],
                                                conditions=["striped"], per_cell=1),
    "style-transfer": lambda: StyleTransferSuite(tasks=["scatter_plot"], per_cell=1),
}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_suite_s_problem_is_its_source_s_problem_of_that_slot(name):
    suite = SUITES[name]()
    assert isinstance(suite, SourceSuite) and suite.source.name == name
    spec = suite.spec(len(suite) - 1)
    made = suite.make_problem(spec)
    direct = get_source(name).problem(spec.task, spec.slot, condition=spec.condition,
                                      mode=spec.mode, namespace=spec.namespace)
    assert np.array_equal(made.input, direct.input) and np.array_equal(made.answer, direct.answer)
    assert made.metadata == direct.metadata
    assert (direct.metadata["slot"], direct.metadata["namespace"]) == (spec.slot, spec.namespace)


def test_the_search_moves_past_rejected_seeds_and_records_the_attempt():
    class Odd(PaintBenchSource):
        def attempt(self, slot, seed):
            if seed % 4:
                raise RejectedSeed(f"seed {seed} is not a multiple of 4")
            return super().attempt(slot, seed)

    problem = Odd().problem("construction", 0)
    meta = problem.metadata
    assert meta["seed"] % 4 == 0
    assert meta["seed"] == Odd().seed(Odd().check("construction", 0, None, None, None, None),
                                      meta["attempt"])


def test_exhaustion_names_the_source_and_the_slot(monkeypatch):
    import paintkit.tasks.border as border

    def never(seed, condition, mode):
        raise RejectedSeed("impossible")

    monkeypatch.setattr(border, "generate", never)
    with pytest.raises(AttemptsExhausted, match=r"^paintbench border/default/n_high slot 2: 3 "
                       r"attempts in a row were rejected; last reason: impossible$"):
        PaintBenchSource(max_attempts=3).problem("border", 2, condition="n_high")


def test_a_condition_variant_needs_its_key_and_records_it():
    variant = Condition("baseline", 512, 512, "standard", False, "baseline")
    with pytest.raises(ValueError, match="needs a condition_key"):
        PaintBenchSource().problem("translation", 0, condition=variant)
    problem = PaintBenchSource().problem("translation", 0, condition=variant,
                                         condition_key="baseline@512x512")
    assert problem.input.shape == (512, 512, 3)
    assert problem.metadata["condition_key"] == "baseline@512x512"
    suite = Suite(tasks=["translation"], conditions=["baseline"], per_cell=1, size=(512, 512),
                  preservation=False)
    assert np.array_equal(suite.make_problem(suite.spec(0)).input, problem.input)


@pytest.mark.parametrize("bad", [0, -3, True, 1.5])
def test_max_attempts_is_checked(bad):
    with pytest.raises(ValueError, match="max_attempts"):
        get_source("guidance", max_attempts=bad)


def test_every_registered_source_is_a_problem_source_with_its_own_name():
    for name in SOURCES:
        source = get_source(name)
        assert isinstance(source, ProblemSource) and source.name == name
        assert source.tasks() and all(source.modes(t) for t in source.tasks())
