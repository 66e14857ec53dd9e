"""Engines give byte-identical trees; runs survive kills and write errors; bad input."""

import errno
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import paintkit.writers.base as writer_files  # write_files: what every layout writes through
from paintkit.cli.main import main
from paintkit.engines import Progress, write_suite
from paintkit.io.images import load_rgb
from paintkit.layout.benchmark import discover_problems
from paintkit.writers import WriteError
from paintkit.writers.manifest import LOCK_NAME, MANIFEST_NAME
from tests.support.generate_helpers import small_suite, tree_digest

SUITE = small_suite(tasks=("translation", "removal", "flood_fill"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The in-process tree of SUITE in each format: {format: digest}."""
    out = {}
    for format in ("directory", "webdataset"):
        root = tmp_path_factory.mktemp(f"reference-{format}")
        write_suite(SUITE, root, format=format, shard_size=5, engine="inprocess", progress=False)
        out[format] = tree_digest(root)
    return out


# --jobs 2 into the directory layout is covered by the kill-and-resume test below.
@pytest.mark.parametrize("format, jobs", [("directory", 1), ("webdataset", 2)])
def test_process_pool_gives_the_in_process_bytes(reference, tmp_path, format, jobs):
    summary = write_suite(SUITE, tmp_path, format=format, shard_size=5, engine="process", jobs=jobs,
                       progress=False)
    assert (summary.engine, summary.workers, summary.generated) == ("process", jobs, len(SUITE))
    assert tree_digest(tmp_path) == reference[format]
    assert not (tmp_path / LOCK_NAME).exists()  # removed at the end (FolderLock remove=True)


KILL_SUITE = small_suite(tasks=("translation", "removal", "flood_fill"), per_cell=4)  # 32 problems


def _cli(out: Path, *extra: str) -> list[str]:
    suite = KILL_SUITE
    return [sys.executable, "-m", "paintkit.cli.main", "generate", "paintbench", "--out", str(out),
            "--tasks", ",".join(suite.tasks), "--conditions", ",".join(suite.conditions),
            "--per-cell", str(suite.per_cell), "--namespace", suite.namespace, *extra]


def test_killed_run_resumes_to_the_same_tree(tmp_path):
    write_suite(KILL_SUITE, tmp_path / "reference", engine="inprocess", progress=False)
    out = tmp_path / "out"
    proc = subprocess.Popen(_cli(out, "--jobs", "2", "--quiet"), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    folder = out / "PaintBench" / "translation"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if folder.is_dir() and any(folder.glob("*.json")):
            break
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and its workers, mid-run
    proc.wait()
    manifest = json.loads((out / MANIFEST_NAME).read_text())
    assert manifest["complete"] is False, "the run finished before it could be killed"
    done = len(list(out.rglob("*.json"))) - 1
    assert 0 < done < len(KILL_SUITE)
    # A temporary file as a kill mid-write leaves it; the rerun must not keep it.
    (folder / ".005_input.png.k1ll3d.tmp").write_bytes(b"partial")
    rerun = subprocess.run(_cli(out, "--jobs", "2"), capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert "already there" in rerun.stderr and f"{len(KILL_SUITE)} problems" in rerun.stderr
    assert tree_digest(out) == tree_digest(tmp_path / "reference")


def test_write_error_names_the_path_and_keeps_finished_files(reference, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = writer_files.write_bytes_atomic

    def full_disk(path, data):
        calls["n"] += 1
        if calls["n"] == 14:  # the second file of problem 4 (removal 000)
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(writer_files, "write_bytes_atomic", full_disk)
    with pytest.raises(WriteError, match=r"PaintBench/removal/000_answer\.png: cannot write: "
                                         r"No space left on device"):
        write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    names = {p.name for p in (tmp_path / "PaintBench" / "translation").iterdir()}
    assert {f"{i:03d}{s}" for i in range(4) for s in ("_input.png", "_answer.png", ".json")} == names
    assert [p.name for p in (tmp_path / "PaintBench" / "removal").iterdir()] == ["000_input.png"]
    for i in range(4):  # baseline, baseline, horizontal, horizontal: complete, decodable files
        assert load_rgb(tmp_path / "PaintBench" / "translation" / f"{i:03d}_answer.png").shape[1] == 1024
    monkeypatch.setattr(writer_files, "write_bytes_atomic", real)
    write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    assert tree_digest(tmp_path) == reference["directory"]


def test_unwritable_output_names_the_path(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(WriteError, match=f"{tmp_path}/file/out: cannot write"):
        write_suite(SUITE, tmp_path / "file" / "out", engine="inprocess", progress=False)
    code = main(["generate", "paintbench", "--out", str(tmp_path / "file" / "out"), "--tasks",
                 "translation", "--per-cell", "1", "--quiet"])
    assert code == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_ray_address_fails_fast(tmp_path, capsys):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    address = f"127.0.0.1:{_closed_port()}"
    begin = time.monotonic()
    code = main(["generate", "paintbench", "--out", str(tmp_path / "out"), "--tasks", "translation",
                 "--engine", "ray", "--address", address])
    assert code == 2 and time.monotonic() - begin < 15
    assert f"cannot reach the Ray cluster at {address}" in capsys.readouterr().err
    assert not (tmp_path / "out" / MANIFEST_NAME).exists()


def test_ray_engine_gives_the_same_bytes(reference, tmp_path):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        summary = write_suite(SUITE, tmp_path, engine="ray", progress=False)
        assert summary.engine == "ray" and summary.workers == 2
        assert ray.is_initialized()  # a Ray session the caller started stays up
    finally:
        ray.shutdown()
    assert tree_digest(tmp_path) == reference["directory"]


def test_ray_engine_without_an_address_starts_its_own_instance(reference, tmp_path, monkeypatch):
    """No --address: a Ray instance of the run's own (docs/generate.md), not a cluster that
    $RAY_ADDRESS names or that runs on this machine (joining one with num_cpus set failed
    with Ray's "When connecting to an existing cluster, num_cpus ... must not be provided")."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # nothing listens there
    summary = write_suite(SUITE, tmp_path, engine="ray", jobs=2, progress=False)
    assert summary.engine == "ray" and not ray.is_initialized()
    assert tree_digest(tmp_path) == reference["directory"]


def test_cli_writes_an_evaluable_tree(tmp_path, capsys):
    code = main(["generate", "paintbench", "--out", str(tmp_path), "--tasks", "translation",
                 "--conditions", "vertical", "--per-cell", "2", "--modes", "amount",
                 "--engine", "inprocess", "--quiet"])
    assert code == 0
    assert "2 problems, 6 files" in capsys.readouterr().err
    problems = discover_problems(tmp_path)
    assert [(p.task, p.idx) for p in problems] == [("translation", 0), ("translation", 1)]
    meta = json.loads(problems[1].metadata_path.read_text())
    assert meta["mode"] == "amount" and meta["slot"] == 1 and meta["H"] == 1024
    assert np.array_equal(load_rgb(problems[0].input_path).shape, (1024, 576, 3))


def test_progress_line_has_rate_and_eta():
    stream = io.StringIO()
    bar = Progress(10, stream=stream)
    bar.update(processed=4)
    bar.update(processed=6)
    bar.close()
    line = stream.getvalue().strip().splitlines()[-1]
    assert "10/10 100%" in line and "problems/s" in line and "ETA" in line
