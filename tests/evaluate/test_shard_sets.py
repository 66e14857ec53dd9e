"""Shard sets for ``paintkit eval --engine ray``: which folders are shard sets, what is refused
in one line, and how many scoring actors a cluster gets (no Ray started here: the scoring
itself is tested on the two-node cluster, tests/engines/test_ray_cluster.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from paintkit.cli.main import main
from paintkit.eval import evaluate
from paintkit.eval.ray_scoring import actor_count
from paintkit.eval.shard_eval import find_shard_set, scoring_actors
from paintkit.layout.errors import LayoutError

SUITE = {"benchmark": "PaintBench", "problems": 12}


def _shard_set(root, *, format="parquet", complete=True, suite=SUITE, files=None):
    root.mkdir(parents=True, exist_ok=True)
    ext = "tar" if format == "webdataset" else "parquet"
    names = files or [f"shard-00000{k}.{ext}" for k in range(3)]
    for name in names:
        (root / name).write_bytes(b"shard")
    manifest = {"layout": {"format": format, "shard_size": 5}, "suite": suite,
                "complete": complete, "files": {n: {"bytes": 5} for n in reversed(names)}}
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


def test_a_shard_set_is_found_by_its_first_shard_and_manifest(tmp_path):
    found = find_shard_set(_shard_set(tmp_path / "wds", format="webdataset"))
    assert (found.format, found.benchmark, found.problems) == ("webdataset", "PaintBench", 12)
    assert found.shards == ("shard-000000.tar", "shard-000001.tar", "shard-000002.tar")
    assert found.paths_and_filesystem() == (
        [str(tmp_path / "wds" / name) for name in found.shards], None)
    url = find_shard_set(f"file://{_shard_set(tmp_path / 'pq')}")
    assert url.format == "parquet" and url.target.local
    tree = tmp_path / "tree" / "PaintBench" / "translation"  # a benchmark folder: not a shard set
    tree.mkdir(parents=True)
    assert find_shard_set(tmp_path / "tree") is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"complete": False}, "the shard set is incomplete"),
    ({"format": "verl-omni"}, "verl-omni shards are not scored from their rows"),
    ({"suite": {"benchmark": ".", "parts": [{"benchmark": "PaintBench"}]}},
     "a shard set of several benchmarks"),
])
def test_shard_sets_that_cannot_be_scored_are_refused_in_one_line(tmp_path, kwargs, message):
    root = _shard_set(tmp_path / "set", **kwargs)
    with pytest.raises(LayoutError, match=message):
        find_shard_set(root)


def test_a_broken_manifest_and_a_url_without_one_are_named(tmp_path):
    root = _shard_set(tmp_path / "set")
    (root / "manifest.json").write_text("{not json")
    with pytest.raises(LayoutError, match="not a paintkit manifest"):
        find_shard_set(root)
    (tmp_path / "empty").mkdir()
    with pytest.raises(LayoutError, match="manifest.json: missing"):
        find_shard_set(f"file://{tmp_path / 'empty'}")


def test_a_shard_set_needs_ray_and_gpu_options_need_ray(tmp_path, capsys):
    root, outputs = _shard_set(tmp_path / "set"), tmp_path / "outputs"
    (outputs / "m" / "PaintBench").mkdir(parents=True)
    with pytest.raises(ValueError, match="a parquet shard set is scored on Ray"):
        evaluate(root, outputs, tmp_path / "results", progress=False)
    with pytest.raises(ValueError, match="num_gpus and device apply to engine='ray'"):
        evaluate(root, outputs, tmp_path / "results", num_gpus=1, progress=False)
    with pytest.raises(ValueError, match="expected auto, cpu, cuda or cuda:N"):
        evaluate(root, outputs, tmp_path / "results", engine="ray", device="tpu")
    with pytest.raises(SystemExit):
        main(["eval", "--benchmarks", str(root), "--outputs", str(outputs), "--num-gpus", "-1"])
    assert "expected a number of GPUs >= 0, got '-1'" in capsys.readouterr().err


def _cluster(**resources):
    return SimpleNamespace(cluster_resources=lambda: resources)


@pytest.mark.parametrize(("resources", "concurrency", "num_gpus", "expected"), [
    ({"CPU": 1}, None, 0, (1, 0.0)),      # one CPU: the actor shares it with the reads
    ({"CPU": 2}, None, 0, (1, 1.0)),      # a CPU left to Ray Data's reads and sort
    ({"CPU": 8}, None, 0, (7, 1.0)),
    ({"CPU": 8}, 4, 0, (4, 1.0)),
    ({"CPU": 4, "GPU": 2}, None, 1, (2, 1.0)),
    ({"CPU": 8, "GPU": 2}, None, 0.25, (8, 0.875)),  # 8 GPU actors share 7 CPUs
])
def test_scoring_actors_leave_a_cpu_to_the_reads(resources, concurrency, num_gpus, expected):
    assert scoring_actors(_cluster(**resources), concurrency, num_gpus) == expected


def test_gpu_actors_are_as_many_as_the_gpus_hold():
    assert actor_count(_cluster(CPU=16, GPU=4), None, 0.5) == 8
    assert actor_count(_cluster(CPU=16, GPU=4), None, 0) == 16
    with pytest.raises(ValueError, match="num_gpus=1 per scoring actor, but the Ray cluster "
                                         "has 0 GPUs"):
        actor_count(_cluster(CPU=16), None, 1)
