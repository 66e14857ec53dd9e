"""Model-load failures in one line with what to do, and a CPU run's estimate from its first
batch (issue 37, item 8). The hub and transformers errors are raised by the real libraries,
offline (tests/run/conftest.py sets HF_HUB_OFFLINE)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import types

import numpy as np
import pytest
from PIL import Image

from paintkit.run import diffusion
from paintkit.run.interface import EditRequest
from paintkit.run.load_errors import (
    CPU_WARN_SECONDS,
    QUIET_WHILE_LOADING,
    cpu_estimate,
    load_failure,
    offline_without_copy,
    quiet_loading,
)


def _raised(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the exception under test
        return exc
    raise AssertionError("expected an exception")


def test_no_hub_and_no_local_copy():
    hub = pytest.importorskip("huggingface_hub")
    exc = _raised(lambda: hub.snapshot_download("nope-org/nope-model", local_files_only=True))
    line = load_failure(exc, "nope-org/nope-model")
    assert "\n" not in line and "no local copy" in line
    assert "huggingface-cli download nope-org/nope-model" in line and "--weights" in line


def test_transformers_no_local_copy_message_becomes_one_line():
    transformers = pytest.importorskip("transformers")
    exc = _raised(lambda: transformers.AutoConfig.from_pretrained("nope-org/nope-model",
                                                                  local_files_only=True))
    line = load_failure(exc, "nope-org/nope-model")
    assert "\n" not in line and "no local copy" in line and "stacktrace" not in line


@pytest.mark.slow  # the hub's retries against a closed network take ~20 s
def test_transformers_offline_message_becomes_one_line():
    transformers = pytest.importorskip("transformers")
    exc = _raised(lambda: transformers.AutoConfig.from_pretrained("nope-org/nope-model"))
    line = load_failure(exc, "nope-org/nope-model")
    assert "\n" not in line and "no local copy" in line and "stacktrace" not in line


def test_a_folder_without_weights(tmp_path):
    utils = pytest.importorskip("transformers.utils")  # what from_pretrained reads files with
    exc = _raised(lambda: utils.cached_file(str(tmp_path), "model.safetensors"))
    line = load_failure(exc, str(tmp_path))
    assert line.startswith(f"{tmp_path}: weights are missing") and "--weights FOLDER" in line


def test_missing_package_and_anything_else():
    missing = ModuleNotFoundError("No module named 'sentencepiece'", name="sentencepiece")
    wrapped = RuntimeError("failed")
    wrapped.__cause__ = missing
    assert "Python package 'sentencepiece'" in load_failure(wrapped, "org/m")
    assert "pip install 'paintkit[run]'" in load_failure(wrapped, "org/m")
    other = load_failure(RuntimeError("first line\ncheck the stacktrace above"), "org/m")
    assert other == "org/m: loading failed: RuntimeError: first line"


@pytest.mark.parametrize("seconds, done, left, warned", [
    (60.0, 1, 2015, True), (1.0, 4, 100, False), (60.0, 1, None, False), (0.0, 1, 10, False),
    (CPU_WARN_SECONDS / 10, 1, 10, False), (CPU_WARN_SECONDS / 10, 1, 11, True)])
def test_cpu_estimate(seconds, done, left, warned):
    line = cpu_estimate("m", seconds, done, left)
    assert (line is not None) == warned
    if warned and left == 2015:
        assert "60 s per problem" in line and "about 33.6 h for the 2,015 problems left" in line


class _Pipeline:
    """A stand-in pipeline: ``from_pretrained`` behaves as the test says."""

    fail: BaseException | None = None

    @classmethod
    def from_pretrained(cls, repo, revision=None, torch_dtype=None):
        if cls.fail is not None:
            raise cls.fail
        return cls()

    def to(self, device):
        return self

    def __call__(self, image=None, prompt=None, generator=None, num_inference_steps=1):
        return types.SimpleNamespace(images=[image] if not isinstance(image, list) else image)


@pytest.fixture
def fake_diffusers(monkeypatch):
    module = types.SimpleNamespace(DiffusionPipeline=_Pipeline, __version__="0")
    monkeypatch.setattr(diffusion, "_import_diffusers", lambda: module)
    monkeypatch.setattr(diffusion, "offline_without_copy", lambda repo, revision=None: None)
    monkeypatch.setattr(_Pipeline, "fail", None)
    return module


def test_diffusers_model_load_failure_is_one_line(fake_diffusers, monkeypatch):
    hub = pytest.importorskip("huggingface_hub")
    monkeypatch.setattr(_Pipeline, "fail", _raised(
        lambda: hub.snapshot_download("nope-org/nope-model", local_files_only=True)))
    with pytest.raises(ValueError) as error:
        diffusion.DiffusersModel("diffusers:nope-org/nope-model", device="cpu")
    assert str(error.value).startswith("model 'diffusers:nope-org/nope-model': nope-org/"
                                       "nope-model: no local copy")
    assert "\n" not in str(error.value)


def test_a_cpu_run_warns_after_its_first_batch(fake_diffusers, monkeypatch, capsys):
    pytest.importorskip("torch")
    model = diffusion.DiffusersModel("diffusers:some/model", device="cpu")
    model.expected_problems = 2016
    ticks = iter([0.0, 90.0])
    monkeypatch.setattr(diffusion.time, "perf_counter", lambda: next(ticks))
    image = Image.fromarray(np.zeros((4, 4, 3), np.uint8))
    results = model.edit_batch([EditRequest(image, "x", 0, "k")])
    assert len(results) == 1
    err = capsys.readouterr().err
    assert err.startswith("paintkit run: warning: diffusers:some/model runs on the CPU: 90 s "
                          "per problem in the first batch, about 50.4 h for the 2,015")
    model.edit_batch([EditRequest(image, "x", 0, "k")])  # once per run
    assert capsys.readouterr().err == ""


def test_the_diffusers_message_of_an_unreachable_hub_becomes_one_line():
    httpx = pytest.importorskip("httpx")
    cause = httpx.ConnectError("[Errno -2] Name or service not known")
    exc = OSError("Cannot load model org/m: the model is not fully cached locally (...) and an "
                  "error occurred while trying to fetch metadata from the Hub. Please check out "
                  "the root cause in the stacktrace above.")
    exc.__cause__ = cause
    line = load_failure(exc, "org/m")
    assert line.startswith("org/m: no local copy, and ") and "stacktrace" not in line
    assert load_failure(cause, "org/m").startswith("org/m: no local copy, and ")


def test_offline_without_a_copy_is_known_before_diffusers_loads(monkeypatch):
    pytest.importorskip("huggingface_hub")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    line = offline_without_copy("nope-org/nope-model")
    assert line.startswith("nope-org/nope-model: no local copy, and HF_HUB_OFFLINE is set")

    def no_import():
        raise AssertionError("diffusers imported")

    monkeypatch.setattr(diffusion, "_import_diffusers", no_import)
    with pytest.raises(ValueError, match="^model 'instruct-pix2pix': timbrooks/instruct-pix2pix"
                                         ": no local copy, and HF_HUB_OFFLINE is set"):
        diffusion.DiffusersModel("instruct-pix2pix", device="cpu")
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    assert offline_without_copy("nope-org/nope-model") is None  # the hub may have it


def test_library_lines_silenced_while_loading_are_those_and_only_those(caplog):
    caplog.set_level(logging.WARNING)
    with quiet_loading():
        for name, text in QUIET_WHILE_LOADING:
            logging.getLogger(name).warning("`CLIPImageProcessor` %s ...", text)
            logging.getLogger(name).warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"] * 2
    caplog.clear()
    name, text = QUIET_WHILE_LOADING[0]
    logging.getLogger(name).warning(text)  # outside: the library's own behaviour
    assert [r.getMessage() for r in caplog.records] == [text]


def _run_cli(args, env_extra):
    env = {**os.environ, **env_extra}
    done = subprocess.run([sys.executable, "-m", "paintkit", "run", *args], env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stderr.replace("\r", "\n").splitlines() if line.strip()
             and not line.startswith("Loading pipeline components")]  # diffusers' bar
    return done.returncode, lines


@pytest.mark.parametrize("case", ["hub id, offline", "folder without weights"])
def test_a_model_that_does_not_load_prints_one_line(case, bench, tmp_path):
    """The command as a user runs it: stderr holds the cause and what to do, no library
    warnings (transformers' torchvision fallbacks, diffusers' "Couldn't connect")."""
    pytest.importorskip("diffusers")
    if case == "hub id, offline":
        model, want = "diffusers:nope-org/nope-model", "no local copy, and HF_HUB_OFFLINE is set"
    else:  # the pipeline class is imported (transformers' processors) and loading starts
        folder = tmp_path / "ip2p"
        folder.mkdir()
        (folder / "model_index.json").write_text(json.dumps({
            "_class_name": "StableDiffusionInstructPix2PixPipeline",
            "unet": ["diffusers", "UNet2DConditionModel"]}))
        model, want = f"diffusers:{folder}", "weights are missing"
    code, lines = _run_cli(["--model", model, "--benchmarks", str(bench), "--outputs",
                            str(tmp_path / "outs"), "--limit", "1"], {"HF_HUB_OFFLINE": "1"})
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"paintkit run: error: model '{model}': ") and want in lines[0]


def test_a_missing_package_of_the_run_extra_is_one_line(monkeypatch):
    pytest.importorskip("diffusers")
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails as if absent
    with pytest.raises(ValueError, match=r"^diffusers models need the run extra \(torch is not "
                                         r"installed\): pip install 'paintkit\[run\]'$"):
        diffusion._import_diffusers()
