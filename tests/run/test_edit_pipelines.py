"""The Qwen-Image-Edit(-2511), LongCat-Image-Edit and FLUX.2-dev adapters on pipelines built
locally from tiny random-weight configs (tiny_edit_pipelines.py: no hub download), run by
``paintkit run`` and scored by ``paintkit eval``."""

from __future__ import annotations

import pytest

from paintkit.cli.main import main
from paintkit.eval import read_rows
from paintkit.run.records import read_log, read_manifest

pytest.importorskip("diffusers")
pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def bench80(tmp_path_factory):
    """2 tasks x 2 problems of 80x64 (FLUX.2 refuses inputs under 64 pixels)."""
    from paintkit.eval.synthetic import write_synthetic_tree

    bench, _ = write_synthetic_tree(tmp_path_factory.mktemp("bench80"), problems=4, tasks=2,
                                    width=80, height=64, models=())
    return bench


def _run_then_eval(model, weights, bench, tmp_path, capsys, tasks, *extra):
    """``paintkit run`` of ``tasks`` into tmp_path/out, then ``paintkit eval`` over it:
    (rows, manifest run entry, log records)."""
    out, res = tmp_path / "out", tmp_path / "res"
    code = main(["run", "--model", model, "--weights", str(weights), "--steps", "2",
                 "--device", "cpu", "--batch-size", "2", "--benchmarks", str(bench),
                 "--outputs", str(out), "--tasks", ",".join(tasks), "--quiet", *extra])
    assert code == 0, capsys.readouterr().err
    task_args = [a for t in tasks for a in ("--task", t)]
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(out), "--results", str(res),
                 "--jobs", "1", "--quiet", *task_args]) == 0, capsys.readouterr().err
    return (read_rows(res / "problem_stats.jsonl"), read_manifest(out / model)["runs"][0],
            read_log(out / model))


@pytest.mark.parametrize("model, plus", [("qwen-image-edit-2511", True),
                                         ("qwen-image-edit", False)])
def test_qwen_image_edit_with_true_cfg_end_to_end(model, plus, bench80, tmp_path, capsys):
    from tiny_edit_pipelines import tiny_qwen_image_edit

    weights = tiny_qwen_image_edit(tmp_path / "pipelines", plus=plus)
    rows, run, log = _run_then_eval(model, weights, bench80, tmp_path, capsys,
                                    ["task_0"])
    assert len(rows) == 2 and all(r["has_output"] and r["correct_output_size"] for r in rows)
    model_entry = run["model"]
    assert model_entry["pipeline"] == ("QwenImageEditPlusPipeline" if plus
                                       else "QwenImageEditPipeline")
    # the paper's true CFG 4.0, with the negative prompt that switches it on
    assert model_entry["call"] == {"num_inference_steps": 2, "true_cfg_scale": 4.0,
                                   "negative_prompt": " "}
    assert [r["batch"] for r in log] == [2, 2] and all(r["size"] == [80, 64] for r in log)


def test_longcat_image_edit_end_to_end_at_the_pipelines_size(bench80, tmp_path, capsys):
    from tiny_edit_pipelines import tiny_longcat_image_edit

    weights = tiny_longcat_image_edit(tmp_path / "pipelines")
    rows, run, log = _run_then_eval("longcat-image-edit", weights, bench80, tmp_path, capsys,
                                    ["task_1"])
    assert run["model"]["pipeline"] == "LongCatImageEditPipeline"
    assert run["model"]["call"] == {"num_inference_steps": 2, "guidance_scale": 4.0}
    # LongCat takes no height/width: it edits at about 1024x1024 pixels, the input's aspect
    # ratio; paintkit keeps that size and eval scores it (rescaled) as the wrong size
    assert all(r["size"] == [1152, 928] for r in log) and len(log) == 2
    assert len(rows) == 2 and all(r["has_output"] and not r["correct_output_size"]
                                  for r in rows)


def test_flux2_dev_runs_problems_one_by_one(bench80, tmp_path, capsys):
    from tiny_edit_pipelines import tiny_flux2_dev

    weights = tiny_flux2_dev(tmp_path / "pipelines")
    # the tiny Mistral 3 text encoder has 2 layers (the real one: hidden states 10, 20, 30)
    rows, run, log = _run_then_eval("flux.2-dev", weights, bench80, tmp_path, capsys,
                                    ["task_0", "task_1"],
                                    "--option", "text_encoder_out_layers=[1, 2]",
                                    "--option", "max_sequence_length=32")
    assert len(rows) == 4 and all(r["has_output"] and r["correct_output_size"] for r in rows)
    model_entry = run["model"]
    assert model_entry["pipeline"] == "Flux2Pipeline"
    assert model_entry["call"]["guidance_scale"] == 4.0
    assert model_entry["call"]["text_encoder_out_layers"] == [1, 2]
    assert sorted(r["batch"] for r in log) == [2, 2, 2, 2]


def test_a_missing_torchvision_is_named(bench80, tmp_path, capsys):
    """The published Qwen-Image-Edit weights hold a Qwen2VLProcessor, which transformers 5
    builds only with torchvision: without it the error says so (exit 2, one line)."""
    import json

    from tiny_edit_pipelines import tiny_qwen_image_edit
    from transformers.utils import is_torchvision_available

    if is_torchvision_available():
        pytest.skip("torchvision is installed: the processor loads")
    weights = tiny_qwen_image_edit(tmp_path / "pipelines", plus=True)
    index = json.loads((weights / "model_index.json").read_text())
    index["processor"] = ["transformers", "Qwen2VLProcessor"]  # as in the published repo
    (weights / "model_index.json").write_text(json.dumps(index))
    code = main(["run", "--model", "qwen-image-edit-2511", "--weights", str(weights),
                 "--device", "cpu", "--benchmarks", str(bench80), "--outputs",
                 str(tmp_path / "out"), "--quiet"])
    assert code == 2
    assert "needs torchvision: pip install torchvision" in capsys.readouterr().err


@pytest.mark.parametrize("negative_prompt, passes", [(" ", 2), (None, 1)])
def test_qwen_true_cfg_runs_the_transformer_twice_per_step(negative_prompt, passes, tmp_path):
    """The built-in's negative prompt is what makes true_cfg_scale 4.0 act: a conditional and
    an unconditional pass per step; without it diffusers runs one pass and ignores the
    scale."""
    from PIL import Image
    from tiny_edit_pipelines import tiny_qwen_image_edit

    from paintkit.run.diffusion import DiffusersModel
    from paintkit.run.interface import EditRequest

    weights = tiny_qwen_image_edit(tmp_path / "pipelines", plus=True)
    model = DiffusersModel("qwen-image-edit-2511", weights=str(weights), device="cpu",
                           call={"num_inference_steps": 1})
    if negative_prompt is None:
        del model.call["negative_prompt"]
    calls = []
    model.pipeline.transformer.register_forward_hook(lambda *_: calls.append(1))
    image = Image.new("RGB", (80, 64), (200, 30, 30))
    [result] = model.edit_batch([EditRequest(image, "make it blue", seed=0)])
    assert result.image.size == (80, 64) and len(calls) == passes
