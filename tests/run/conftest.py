"""Keep every test off the network, and share a small benchmark.

The model functions in editors.py are loaded by name (``editors:invert``): pytest puts this
folder on ``sys.path`` when it imports this file (it is not a package)."""

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    """A benchmark of 3 tasks x 4 problems (40x32 pixels), no outputs."""
    from paintkit.eval.synthetic import write_synthetic_tree

    root = tmp_path_factory.mktemp("bench")
    bench_root, _ = write_synthetic_tree(root, problems=12, tasks=3, width=40, height=32,
                                         models=())
    return bench_root
