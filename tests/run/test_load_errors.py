"""Model-load failures in one line with what to do, and a CPU run's estimate from its first
batch (issue 37, item 8). The hub and transformers errors are raised by the real libraries,
offline (tests/run/conftest.py sets HF_HUB_OFFLINE)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from PIL import Image

from paintkit.run import diffusion
from paintkit.run.interface import EditRequest
from paintkit.run.load_errors import CPU_WARN_SECONDS, cpu_estimate, load_failure


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
