"""paintkit run --engine ray: problems sharded over Ray workers, the same files as one
local process."""

from __future__ import annotations

import hashlib
import os

import pytest

from paintkit.cli.main import main
from paintkit.run.records import read_log, read_manifest

HERE = os.path.dirname(os.path.abspath(__file__))


def _digests(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.suffix in (".png", ".txt")}


def test_ray_workers_write_the_same_files_as_one_process(bench, tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
    log = tmp_path / "pids.txt"
    common = ["--model", "editors:invert_logged", "--name", "m", "--benchmarks", str(bench),
              "--seed", "7", "--batch-size", "2", "--quiet"]
    assert main(["run", *common, "--outputs", str(tmp_path / "local"),
                 "--option", f"log={tmp_path / 'local.txt'}"]) == 0
    # no --address: an instance of the run's own, not a cluster $RAY_ADDRESS names
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # nothing listens there
    assert main(["run", *common, "--outputs", str(tmp_path / "ray"), "--engine", "ray",
                 "--workers", "2", "--option", f"log={log}"]) == 0
    assert not ray.is_initialized()  # the run's own Ray instance is shut down
    local, sharded = _digests(tmp_path / "local" / "m"), _digests(tmp_path / "ray" / "m")
    assert len(local) == 24 and local == sharded
    pids = log.read_text().split()
    assert len(pids) == 12 and len(set(pids)) == 2 and os.getpid() not in map(int, pids)
    entry = read_manifest(tmp_path / "ray" / "m")["runs"][0]
    assert entry["engine"] == "ray" and entry["workers"] == 2 and entry["written"] == 12
    assert entry["model"]["kind"] == "callable" and entry["model"]["options"]["log"] == str(log)
    assert sorted(r["key"] for r in read_log(tmp_path / "ray" / "m")) == \
        sorted(r["key"] for r in read_log(tmp_path / "local" / "m"))
