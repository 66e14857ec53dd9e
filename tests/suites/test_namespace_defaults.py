"""Corpora default to a namespace other than the benchmark's; more problems per cell than the
benchmark has, in its own namespace, need ``beyond_benchmark=True`` (``--beyond-benchmark``):
the suites refuse it themselves, so the library is as safe as the command line."""

import argparse

import pytest

from paintkit.cli.generate import choose_namespace as choose_for


def _args(**kwargs):
    base = {"namespace": None, "per_cell": 12, "start_slot": 0, "beyond_benchmark": False}
    return argparse.Namespace(**{**base, **kwargs})


def choose_namespace(args):
    """PaintBench's choice: the per-cell count comes from ``--per-cell``."""
    return choose_for(args, args.per_cell)


def test_the_benchmark_keeps_its_namespace():
    assert choose_namespace(_args()) == "paintbench"
    assert choose_namespace(_args(per_cell=3)) == "paintbench"


@pytest.mark.parametrize("kwargs", [{"per_cell": 500}, {"per_cell": 12, "start_slot": 12},
                                    {"per_cell": 13}])
def test_a_corpus_defaults_to_the_training_namespace(kwargs):
    assert choose_namespace(_args(**kwargs)) == "train"


def test_more_than_12_per_cell_in_paintbench_needs_the_flag(capsys):
    from paintkit.cli.main import main

    assert main(["generate", "paintbench", "--out", "unused", "--namespace", "paintbench",
                 "--per-cell", "500", "--tasks", "translation"]) != 0
    assert "--beyond-benchmark" in capsys.readouterr().err
    assert choose_namespace(_args(namespace="paintbench", per_cell=500,
                                  beyond_benchmark=True)) == "paintbench"
    assert "warning: this corpus contains the PaintBench problems" in capsys.readouterr().err


def _suites():
    from paintkit.suites import Suite
    from paintkit.suites.compositional import CompositionalSuite
    from paintkit.suites.guidance import GuidanceSuite
    from paintkit.tinygrafix.suite import TinyGrafixSuite

    return [(Suite, 12), (TinyGrafixSuite, 30), (CompositionalSuite, 12), (GuidanceSuite, 12)]


@pytest.mark.parametrize(("suite_class", "own"), _suites())
def test_the_library_refuses_a_suite_past_its_benchmark(suite_class, own):
    suite_class(per_cell=own)  # the benchmark itself
    suite_class(per_cell=own, namespace="train", start_slot=own)  # fresh problems
    for kwargs in ({"per_cell": own + 1}, {"per_cell": 1, "start_slot": own}):
        with pytest.raises(ValueError, match="beyond_benchmark=True"):
            suite_class(**kwargs)
        suite = suite_class(**kwargs, beyond_benchmark=True)
        assert suite.to_dict()["beyond_benchmark"] is True
        assert suite_class.from_dict(suite.to_dict()).to_dict() == suite.to_dict()
    assert "beyond_benchmark" not in suite_class().to_dict()  # manifests unchanged


def test_an_infinite_stream_in_the_benchmark_namespace_is_refused():
    from paintkit.data import ProblemStream
    from paintkit.suites import Suite

    with pytest.raises(ValueError, match="an infinite stream in the 'paintbench' namespace"):
        ProblemStream(Suite(tasks=["translation"]), infinite=True)
    ProblemStream(Suite(tasks=["translation"]))  # the benchmark's problems, once: allowed
    ProblemStream(Suite(tasks=["translation"], namespace="train"), infinite=True)
    ProblemStream(Suite(tasks=["translation"], beyond_benchmark=True), infinite=True)


def test_an_explicit_namespace_is_kept():
    assert choose_namespace(_args(namespace="mycorpus", per_cell=500)) == "mycorpus"
