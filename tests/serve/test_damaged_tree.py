"""One damaged problem file in ``--benchmarks``: every other problem is served, the file is
named (by its path under the tree) where it matters, and the tree's location never leaks."""

from __future__ import annotations

import httpx
import pytest

from paintkit.rewards import ProblemIndex
from paintkit.rewards.client import RewardClient


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    from paintkit.engines.driver import write_suite
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    root = tmp_path_factory.mktemp("bench")
    suite = Suite(tasks=["scaling", "recolor"], conditions=["baseline"], per_cell=2,
                  size=(256, 256), namespace="tree")
    write_suite(suite, root, engine="inprocess", progress=False)
    return root, [build_problem(suite, spec) for spec in suite.specs()]


def _damage(root):
    """Truncate one problem file of the ``scaling`` task; its path under ``root``."""
    path = sorted(root.glob("*/scaling/*.json"))[1]
    original = path.read_bytes()
    path.write_bytes(original[:len(original) // 2])
    return path, original, path.relative_to(root).as_posix()


def test_the_index_skips_a_damaged_file_and_names_it(written):
    root, problems = written
    path, original, name = _damage(root)
    try:
        index = ProblemIndex(root)
        ids = [p.metadata["problem_id"] for p in problems]
        served = [pid for pid in ids if pid != ids[1]]
        for pid in served:
            assert index.paths(pid)
        assert list(index.damaged) == [name]
        with pytest.raises(ValueError, match=f"damaged problem file of its task: {name} "):
            index.paths(ids[1])
        path.write_bytes(original)  # repaired: read again on the next miss
        assert index.paths(ids[1]) and index.damaged == {}
    finally:
        path.write_bytes(original)


def test_the_service_serves_the_rest_and_lists_the_damaged_file(start_service, written):
    root, problems = written
    path, original, name = _damage(root)
    try:
        service = start_service(benchmarks=str(root))
        health = httpx.get(service.url + "/health").json()
        assert health["status"] == "degraded" and health["damaged"][0].startswith(f"{name} (")
        ids = [p.metadata["problem_id"] for p in problems]
        with RewardClient(service.url) as client:
            others = [k for k in range(len(problems)) if k != 1]
            got = client.score([problems[k].answer for k in others], [ids[k] for k in others])
            assert got.tolist() == [1.0] * len(others)
        answer = httpx.post(f"{service.url}/v1/score/{ids[1]}?shape=256,256,3",
                            content=problems[1].answer.tobytes(),
                            headers={"content-type": "application/octet-stream"})
        assert answer.status_code == 422
        error = answer.json()["error"]
        assert name in error and "--benchmarks tree" in error
        assert str(root) not in error  # the server's tree is not told
        unknown = httpx.post(f"{service.url}/v1/score/tree-nothing-baseline-amount-000000"
                             "?shape=256,256,3", content=problems[1].answer.tobytes(),
                             headers={"content-type": "application/octet-stream"})
        assert unknown.status_code == 422 and str(root) not in unknown.json()["error"]
    finally:
        path.write_bytes(original)


def test_a_damaged_image_of_the_tree_is_named_under_the_tree(start_service, written):
    root, problems = written
    path = sorted(root.glob("*/recolor/*_answer.png"))[0]
    original = path.read_bytes()
    path.write_bytes(original[:100])
    try:
        service = start_service(benchmarks=str(root))
        ids = [p.metadata["problem_id"] for p in problems if "-recolor-" in p.metadata["problem_id"]]
        errors = []
        for pid in ids:
            answer = httpx.post(f"{service.url}/v1/score/{pid}?shape=256,256,3",
                                content=problems[0].answer.tobytes(),
                                headers={"content-type": "application/octet-stream"})
            if answer.status_code != 200:
                errors.append(answer.json()["error"])
        assert errors and str(root) not in " ".join(errors)
        assert path.relative_to(root).as_posix() in " ".join(errors)
    finally:
        path.write_bytes(original)
