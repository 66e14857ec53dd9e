"""Scoring actors on a device: which device an actor picks, and the device path's rows (torch
kernels, run here on the CPU) equal to ``paintkit eval``'s Numba rows."""

from __future__ import annotations

import pytest

from paintkit.eval import discover_problems
from paintkit.eval.device_scoring import DeviceScorer, actor_device, scorer_for
from paintkit.eval.problem import score_problem
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.layout.outputs import discover_models

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    return write_synthetic_tree(root, problems=12, tasks=2, width=40, height=32)


@pytest.mark.parametrize(("device", "gpu_ids", "cuda", "expected"), [
    ("auto", [], True, "cpu"),          # no GPU from Ray: the CPU, even where CUDA exists
    ("auto", [0], True, "cuda"),        # Ray's GPU is the actor's cuda:0
    ("auto", ["3"], True, "cuda"),
    ("cpu", [0], True, "cpu"),          # forced
    ("cuda", [], True, "cuda"),
    ("cuda:1", [], True, "cuda:1"),
])
def test_the_actor_scores_on_the_gpu_ray_gave_it(device, gpu_ids, cuda, expected):
    assert actor_device(device, gpu_ids=gpu_ids, cuda_available=cuda) == expected


def test_a_gpu_torch_cannot_use_is_one_clear_error():
    with pytest.raises(ValueError, match="Ray gave this scoring actor GPU 0 but torch cannot "
                                         "use CUDA"):
        actor_device("auto", gpu_ids=[0], cuda_available=False)
    with pytest.raises(ValueError, match="device='cuda' but torch cannot use CUDA"):
        actor_device("cuda", gpu_ids=[], cuda_available=False)
    with pytest.raises(ValueError, match="expected auto, cpu, cuda or cuda:N, got 'gpu'"):
        actor_device("gpu")


def test_outside_ray_auto_is_the_cpu_and_needs_no_torch_scorer():
    assert actor_device("auto", cuda_available=True) == "cpu"  # no Ray here: no GPU ids
    assert scorer_for("cpu") is None


@pytest.mark.parametrize("options", [
    {},
    {"extra_metrics": ("ssim", "psnr"), "explain": 5},
    {"delta_e": "ciede2000"},
])
def test_device_rows_equal_the_cpu_rows(tree, tmp_path, options):
    bench, outputs = tree
    models = discover_models(outputs)
    scorer = DeviceScorer("cpu")  # the device path with torch kernels, on the CPU
    missing = wrong_size = 0
    for problem in discover_problems(bench):
        cpu = score_problem(problem, models, outputs, tmp_path / "cpu", **options)
        device = score_problem(problem, models, outputs, tmp_path / "dev", scorer=scorer,
                               **options)
        assert device == cpu
        missing += sum(not r["has_output"] for r in cpu)
        wrong_size += sum(r["has_output"] and not r["correct_output_size"] for r in cpu)
    assert missing and wrong_size  # missing, broken and resized outputs were among them
    cpu_files = sorted(p.relative_to(tmp_path / "cpu") for p in (tmp_path / "cpu").rglob("*.*"))
    dev_files = sorted(p.relative_to(tmp_path / "dev") for p in (tmp_path / "dev").rglob("*.*"))
    assert cpu_files == dev_files and cpu_files  # the same diff images and segments
    for name in cpu_files:
        assert (tmp_path / "dev" / name).read_bytes() == (tmp_path / "cpu" / name).read_bytes()


def test_a_scoring_actor_given_a_gpu_builds_the_device_scorer(tree, monkeypatch):
    from paintkit.eval import device_scoring
    from paintkit.eval.ray_scoring import ScoreProblems

    bench, outputs = tree
    monkeypatch.setattr(device_scoring, "_ray_gpu_ids", lambda: [0])
    monkeypatch.setattr(device_scoring, "_cuda_available", lambda: True)
    built = []
    monkeypatch.setattr(device_scoring, "DeviceScorer", lambda device: built.append(device)
                        or f"scorer on {device}")
    actor = ScoreProblems(outputs)
    assert (actor.device, actor.scorer, built) == ("cuda", "scorer on cuda", ["cuda"])
    forced = ScoreProblems(outputs, device="cpu")
    assert (forced.device, forced.scorer) == ("cpu", None)


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


@pytest.mark.skipif(not _cuda(), reason="needs a CUDA GPU")
def test_cuda_rows_equal_the_cpu_rows(tree, tmp_path):
    bench, outputs = tree
    models = discover_models(outputs)
    scorer = DeviceScorer("cuda")
    for problem in discover_problems(bench):
        for options in ({}, {"explain": 5}):
            cpu = score_problem(problem, models, outputs, tmp_path / "cpu", **options)
            assert score_problem(problem, models, outputs, tmp_path / "dev", scorer=scorer,
                                 **options) == cpu


@pytest.mark.skipif(not _cuda(), reason="needs a CUDA GPU")
def test_cuda_ray_actors_write_the_local_file(tree, tmp_path):
    pytest.importorskip("ray")
    from paintkit.eval import evaluate

    bench, outputs = tree
    evaluate(bench, outputs, tmp_path / "local", jobs=1, progress=False)
    evaluate(bench, outputs, tmp_path / "ray", engine="ray", jobs=2, num_gpus=1,
             progress=False)  # one actor, on the GPU Ray gives it
    assert (tmp_path / "ray" / "problem_stats.jsonl").read_bytes() == \
        (tmp_path / "local" / "problem_stats.jsonl").read_bytes()
