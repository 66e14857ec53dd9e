"""diffusers adapters on pipelines built locally from tiny random-weight configs (no hub
download), end to end through paintkit eval."""

from __future__ import annotations

import hashlib

import pytest

from paintkit.cli.main import main
from paintkit.eval import read_rows
from paintkit.run.diffusion import PIPELINES
from paintkit.run.records import read_log, read_manifest

pytest.importorskip("diffusers")
pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def ip2p(tmp_path_factory):
    from tests.support.tiny_pipelines import tiny_instruct_pix2pix

    return tiny_instruct_pix2pix(tmp_path_factory.mktemp("pipelines"))


def _digests(folder):
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*_output.png"))}


def test_instruct_pix2pix_end_to_end_through_eval(ip2p, bench, tmp_path, capsys):
    out, res = tmp_path / "out", tmp_path / "res"
    code = main(["run", "--model", "instruct-pix2pix", "--weights", str(ip2p), "--steps", "2",
                 "--device", "cpu", "--batch-size", "4", "--benchmarks", str(bench),
                 "--outputs", str(out), "--tasks", "task_0,task_1", "--limit", "3",
                 "--results", str(res), "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert len(list((out / "instruct-pix2pix").rglob("*_output.png"))) == 6
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 6 and all(r["has_output"] and r["correct_output_size"] for r in rows)
    entry = read_manifest(out / "instruct-pix2pix")["runs"][0]
    model = entry["model"]
    assert model["pipeline"] == "StableDiffusionInstructPix2PixPipeline"
    assert model["call"] == {"num_inference_steps": 2, "guidance_scale": 7.5,
                             "image_guidance_scale": 1.5}  # the paper's guidance, 2 steps
    assert model["dtype"] == "float32" and model["device"] == "cpu"
    assert sorted(r["batch"] for r in read_log(out / "instruct-pix2pix")) == [2, 2, 4, 4, 4, 4]


def test_same_seed_same_bytes_and_generic_diffusers_path(ip2p, bench, tmp_path):
    args = ["--steps", "2", "--device", "cpu", "--benchmarks", str(bench), "--tasks",
            "task_2", "--limit", "2", "--quiet"]
    assert main(["run", "--model", "instruct-pix2pix", "--weights", str(ip2p),
                 "--outputs", str(tmp_path / "a"), *args]) == 0
    assert main(["run", "--model", f"diffusers:{ip2p}", "--outputs", str(tmp_path / "b"),
                 "--option", "guidance_scale=7.5", "--option", "image_guidance_scale=1.5",
                 *args]) == 0
    a = _digests(tmp_path / "a" / "instruct-pix2pix")
    b = _digests(tmp_path / "b" / "tiny-instruct-pix2pix")
    assert len(a) == 2 and list(a.values()) == list(b.values())
    generic = read_manifest(tmp_path / "b" / "tiny-instruct-pix2pix")["runs"][0]["model"]
    assert generic["pipeline"] == "StableDiffusionInstructPix2PixPipeline"
    assert main(["run", "--model", "instruct-pix2pix", "--weights", str(ip2p), "--outputs",
                 str(tmp_path / "c"), "--seed", "1", *args]) == 0
    assert list(_digests(tmp_path / "c" / "instruct-pix2pix").values()) != list(a.values())


def test_unknown_pipeline_argument_is_refused(ip2p, bench, tmp_path, capsys):
    code = main(["run", "--model", "instruct-pix2pix", "--weights", str(ip2p), "--device",
                 "cpu", "--option", "strength=0.5", "--benchmarks", str(bench), "--outputs",
                 str(tmp_path)])
    assert code == 2
    assert "takes no argument 'strength'" in capsys.readouterr().err


def test_builtin_defaults_are_the_papers():
    expected = {
        "instruct-pix2pix": (100, {"guidance_scale": 7.5, "image_guidance_scale": 1.5}),
        "flux.1-kontext-dev": (28, {"guidance_scale": 3.5}),
        "flux.2-dev": (50, {"guidance_scale": 4.0}),
        "flux.2-klein-9b": (50, {"guidance_scale": 4.0}),
        "qwen-image-edit-2511": (50, {"true_cfg_scale": 4.0, "negative_prompt": " "}),
        "qwen-image-edit": (50, {"true_cfg_scale": 4.0, "negative_prompt": " "}),
        "longcat-image-edit": (50, {"guidance_scale": 4.0}),
    }
    for name, (steps, guidance) in expected.items():
        call = dict(PIPELINES[name].call)
        assert call.pop("num_inference_steps") == steps
        assert call == guidance


@pytest.fixture(scope="module")
def kontext(tmp_path_factory):
    from tests.support.tiny_pipelines import tiny_flux_kontext

    return tiny_flux_kontext(tmp_path_factory.mktemp("kontext"))


def test_flux_kontext_end_to_end_at_the_input_size(kontext, bench, tmp_path, capsys):
    out, res = tmp_path / "out", tmp_path / "res"
    # _auto_resize=false: the tiny VAE does not downsample, so Kontext's preferred
    # resolutions (about 1024^2 pixels) would make the test slow; the real model keeps it
    code = main(["run", "--model", "flux.1-kontext-dev", "--weights", str(kontext),
                 "--steps", "2", "--device", "cpu", "--batch-size", "3", "--option",
                 "_auto_resize=false", "--option", "max_sequence_length=32", "--benchmarks",
                 str(bench), "--outputs", str(out), "--tasks", "task_1", "--limit", "3",
                 "--results", str(res), "--quiet"])
    assert code == 0, capsys.readouterr().err
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 3 and all(r["correct_output_size"] for r in rows)  # max_area = input
    model = read_manifest(out / "flux.1-kontext-dev")["runs"][0]["model"]
    assert model["pipeline"] == "FluxKontextPipeline"
    assert model["call"]["guidance_scale"] == 3.5 and model["call"]["num_inference_steps"] == 2
    assert {r["batch"] for r in read_log(out / "flux.1-kontext-dev")} == {3}


@pytest.fixture(scope="module")
def bench64(tmp_path_factory):
    """FLUX.2 refuses inputs under 64 pixels: 2 tasks x 2 problems of 80x64."""
    from paintkit.eval.synthetic import write_synthetic_tree

    bench, _ = write_synthetic_tree(tmp_path_factory.mktemp("bench64"), problems=4, tasks=2,
                                    width=80, height=64, models=())
    return bench


def test_flux2_klein_runs_problems_one_by_one(bench64, tmp_path, capsys):
    from tests.support.tiny_pipelines import tiny_flux2_klein

    weights = tiny_flux2_klein(tmp_path / "pipelines")
    out, res = tmp_path / "out", tmp_path / "res"
    # the tiny Qwen3 text encoder has 2 layers (the real one: hidden states 9, 18, 27)
    code = main(["run", "--model", "flux.2-klein-9b", "--weights", str(weights), "--steps",
                 "2", "--device", "cpu", "--batch-size", "2", "--option",
                 "text_encoder_out_layers=[1, 2]", "--option", "max_sequence_length=32",
                 "--benchmarks", str(bench64), "--outputs", str(out), "--results", str(res),
                 "--quiet"])
    assert code == 0, capsys.readouterr().err
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 4 and all(r["correct_output_size"] for r in rows)
    model = read_manifest(out / "flux.2-klein-9b")["runs"][0]["model"]
    assert model["pipeline"] == "Flux2KleinPipeline"
    assert model["call"]["guidance_scale"] == 4.0 and model["call"]["text_encoder_out_layers"] \
        == [1, 2]


def test_the_manifest_records_the_cached_commit(tmp_path, monkeypatch):
    from paintkit.run.diffusion import resolved_revision

    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "models--org--editor"
    (repo / "snapshots" / commit).mkdir(parents=True)
    (repo / "snapshots" / commit / "model_index.json").write_text("{}")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert resolved_revision("org/editor", None) == commit
    assert resolved_revision("org/absent", "v1") == "v1"
    assert resolved_revision(str(tmp_path), None) is None
