"""A two-node Ray cluster on 127.0.0.1: workers write the local engine's bytes, Ray Data
scores the local eval's rows, and a run that loses a worker node resumes to the same tree."""

import json
import shutil
import threading
import time

import pytest

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.eval import evaluate
from paintkit.layout.benchmark import discover_problems
from paintkit.layout.errors import LayoutError
from paintkit.layout.results import PROBLEM_STATS_NAME
from paintkit.writers.manifest import LOCK_NAME
from tests.support.generate_helpers import small_suite, tree_digest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")
ray_constants = pytest.importorskip("ray._private.ray_constants")

SUITE = small_suite()  # 12 problems
NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}


def _digest(root):
    digest = tree_digest(root)
    digest.pop(LOCK_NAME, None)
    return digest


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """The in-process trees of SUITE: {format: (root, digest)}."""
    out = {}
    for format in ("directory", "parquet", "webdataset"):
        root = tmp_path_factory.mktemp(f"local-{format}")
        write_suite(SUITE, root, format=format, shard_size=5, engine="inprocess", progress=False)
        out[format] = (root, _digest(root))
    return out


@pytest.fixture(scope="module")
def cluster():
    """A head and a worker node of one CPU each; the test process is the driver."""
    if ray.is_initialized():
        ray.shutdown()
    # Loopback only: Ray otherwise swaps 127.0.0.1 for the machine's network address.
    loopback = pytest.MonkeyPatch()
    loopback.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    loopback.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)
    made = cluster_utils.Cluster(initialize_head=True, head_node_args=dict(NODE))
    worker = made.add_node(**NODE)
    try:
        ray.init(address=made.address, log_to_driver=False, logging_level="ERROR")
        yield made, worker
    finally:
        ray.shutdown()
        made.shutdown()
        loopback.undo()


def test_two_nodes_write_the_local_bytes_and_send_the_driver_records(cluster, references,
                                                                     tmp_path):
    out = tmp_path / "parquet"
    summary = write_suite(SUITE, f"file://{out}", format="parquet", shard_size=5, engine="ray",
                          progress=False)
    assert (summary.engine, summary.workers, summary.generated) == ("ray", 2, len(SUITE))
    assert _digest(out) == references["parquet"][1]
    assert summary.driver_bytes / len(SUITE) < 1024  # records, not PNGs
    summary = write_suite(SUITE, tmp_path / "dir", engine="ray", progress=False)
    assert _digest(tmp_path / "dir") == references["directory"][1]
    assert summary.driver_bytes / len(SUITE) < 1024
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 2


@pytest.fixture(scope="module")
def outputs(references, tmp_path_factory):
    """Model "echo" answers with the input, "oracle" with the answer (a third missing)."""
    outputs = tmp_path_factory.mktemp("outputs")
    for k, problem in enumerate(discover_problems(references["directory"][0])):
        for model, source in (("echo", problem.input_path), ("oracle", problem.answer_path)):
            if model == "oracle" and k % 3 == 0:
                continue  # some missing outputs
            target = problem.output_path(outputs, model)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return outputs


def test_ray_data_gives_the_problems_and_the_eval_rows(cluster, references, outputs, tmp_path):
    from paintkit.data.ray_data import problem_dataset

    root = references["directory"][0]
    rows = sorted(problem_dataset(SUITE, batch_size=4).take_all(), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(len(SUITE)))
    by_folder = {(p.task, p.idx): p for p in discover_problems(root)}
    for row in rows:
        meta = json.loads(row["metadata"])
        spec = SUITE.spec(row["index"])
        problem = by_folder[(spec.folder, int(spec.stem))]
        assert row["input"] == problem.input_path.read_bytes()
        assert row["answer"] == problem.answer_path.read_bytes()
        assert meta["problem_id"] == row["key"] == spec.problem_id

    local = evaluate(root, outputs, tmp_path / "local", jobs=1, progress=False)
    on_ray = evaluate(root, outputs, tmp_path / "ray", engine="ray", progress=False)
    assert on_ray.scored == local.scored > 0
    assert (tmp_path / "ray" / PROBLEM_STATS_NAME).read_bytes() == \
        (tmp_path / "local" / PROBLEM_STATS_NAME).read_bytes()

    from paintkit.data import ScoreShardRows

    shards = sorted(str(p) for p in references["parquet"][0].glob("shard-*.parquet"))
    scored = ray.data.read_parquet(shards).map_batches(
        ScoreShardRows, batch_size=4, concurrency=1, num_cpus=1,  # a CPU left to read shards
        fn_constructor_kwargs={"outputs_root": str(outputs), "benchmark": "PaintBench",
                               "models": ["echo", "oracle"]})
    from_shards = {(r["model"], r["task"], r["idx"]): r for batch in scored.take_all()
                   for r in json.loads(batch["rows"])}
    local_rows = [json.loads(line) for line in
                  (tmp_path / "local" / PROBLEM_STATS_NAME).read_text().splitlines()]
    assert from_shards == {(r["model"], r["task"], r["idx"]): r for r in local_rows}


@pytest.fixture(scope="module")
def local_rows(references, outputs, tmp_path_factory):
    """The local eval's results folder of the directory layout."""
    local = tmp_path_factory.mktemp("local-eval")
    evaluate(references["directory"][0], outputs, local, jobs=1, progress=False)
    return local


def test_eval_scores_a_parquet_shard_set_into_the_local_rows_and_order(cluster, references,
                                                                       outputs, local_rows,
                                                                       tmp_path):
    results = tmp_path / "parquet"
    code = main(["eval", "--engine", "ray", "--benchmarks", f"file://{references['parquet'][0]}",
                 "--outputs", str(outputs), "--results", str(results), "--quiet"])
    assert code == 0
    assert (results / PROBLEM_STATS_NAME).read_bytes() == \
        (local_rows / PROBLEM_STATS_NAME).read_bytes()
    with pytest.raises(ValueError, match="shard set is scored on Ray"):
        evaluate(references["parquet"][0], outputs, tmp_path / "no", progress=False)


@pytest.mark.slow
def test_a_webdataset_shard_set_resumes_as_the_local_eval(cluster, references, outputs,
                                                          local_rows, tmp_path):
    expected = (local_rows / PROBLEM_STATS_NAME).read_bytes()
    results, local = tmp_path / "webdataset", tmp_path / "local"
    shutil.copytree(local_rows, local)
    first = evaluate(references["webdataset"][0], outputs, results, engine="ray", progress=False)
    assert (results / PROBLEM_STATS_NAME).read_bytes() == expected
    again = evaluate(references["webdataset"][0], outputs, results, engine="ray", progress=False)
    assert (again.scored, again.skipped) == (0, first.scored)
    problem = discover_problems(references["directory"][0])[4]  # its echo output changes
    changed = problem.output_path(outputs, "echo")
    original = changed.read_bytes()
    try:
        shutil.copyfile(problem.answer_path, changed)
        evaluate(references["directory"][0], outputs, local, jobs=1, progress=False)
        again = evaluate(references["webdataset"][0], outputs, results, engine="ray",
                         progress=False)
        assert (again.scored, again.rescored) == (1, 1)
        assert (results / PROBLEM_STATS_NAME).read_bytes() == \
            (local / PROBLEM_STATS_NAME).read_bytes() != expected
    finally:
        changed.write_bytes(original)
    only = evaluate(references["parquet"][0], outputs, tmp_path / "removal", engine="ray",
                    tasks=["removal"], models=["oracle"], progress=False)
    lines = [line for line in expected.decode().splitlines()
             if (json.loads(line)["model"], json.loads(line)["task"]) == ("oracle", "removal")]
    assert only.scored == len(lines) > 0
    assert (tmp_path / "removal" / PROBLEM_STATS_NAME).read_text().splitlines() == lines
    with pytest.raises(LayoutError, match="no task folder named nope"):
        evaluate(references["parquet"][0], outputs, tmp_path / "nope", engine="ray",
                 tasks=["removal", "nope"], progress=False)


def test_a_run_that_loses_a_worker_node_resumes_to_the_same_tree(cluster, references, tmp_path):
    made, worker = cluster
    out = tmp_path / "killed"
    errors = []

    def run():
        try:
            write_suite(SUITE, out, engine="ray", unit_size=1, progress=False)
        except Exception as exc:  # the run may fail or finish through Ray's retries
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while not list(out.rglob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert thread.is_alive()  # mid-run
    made.remove_node(worker, allow_graceful=False)  # the worker node dies
    thread.join(120)
    assert not thread.is_alive()
    summary = write_suite(SUITE, out, engine="ray", progress=False)  # the rerun
    assert summary.generated + summary.skipped == len(SUITE)
    assert _digest(out) == references["directory"][1]  # no duplicates, no holes
