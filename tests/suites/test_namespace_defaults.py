"""``paintkit generate``: corpora default to a namespace other than ``paintbench``; more
than 12 per cell in ``paintbench`` needs ``--beyond-benchmark`` and prints a warning."""

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
    with pytest.raises(ValueError, match="--beyond-benchmark"):
        choose_namespace(_args(namespace="paintbench", per_cell=500))
    assert choose_namespace(_args(namespace="paintbench", per_cell=500,
                                  beyond_benchmark=True)) == "paintbench"
    assert "warning: this corpus contains the PaintBench problems" in capsys.readouterr().err


def test_an_explicit_namespace_is_kept():
    assert choose_namespace(_args(namespace="mycorpus", per_cell=500)) == "mycorpus"
