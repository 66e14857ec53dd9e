"""A first run says it compiles kernels, and its ETA is not measured on the warm-up."""

import importlib
import sys

from paintkit.engines import write_suite
from paintkit.engines.warmup import COMPILING, kernels_cold
from tests.support.generate_helpers import small_suite

DRIVER = importlib.import_module("paintkit.engines.driver")
TAG = f"py{sys.version_info.major}{sys.version_info.minor}"


def test_kernels_are_cold_until_every_cached_module_has_an_index(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "k" / "sub").mkdir(parents=True)
    (tmp_path / "k" / "blend.py").write_text("@njit(cache=True)\ndef f(): pass\n")
    (tmp_path / "k" / "sub" / "lab.py").write_text("@njit(cache=True)\ndef g(): pass\n")
    (tmp_path / "k" / "plain.py").write_text("def h(): pass\n")  # nothing to compile
    assert kernels_cold(tmp_path / "k")
    (tmp_path / "k" / "__pycache__").mkdir()
    (tmp_path / "k" / "__pycache__" / f"blend.f-1.{TAG}.nbi").write_bytes(b"")
    assert kernels_cold(tmp_path / "k")  # lab.py still compiles
    cache = tmp_path / "numba-cache" / "k" / "sub"
    cache.mkdir(parents=True)
    (cache / f"lab.g-1.{TAG}.nbi").write_bytes(b"")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-cache"))
    assert not kernels_cold(tmp_path / "k")
    (cache / f"lab.g-1.{TAG}.nbi").rename(cache / "lab.g-1.py27.nbi")  # another Python's
    assert kernels_cold(tmp_path / "k")


def test_a_first_run_says_it_compiles_kernels(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(DRIVER, "kernels_cold", lambda: True)
    suite = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                        preservation=False)
    write_suite(suite, tmp_path, engine="inprocess", progress=True)
    err = capsys.readouterr().err
    assert f"paintkit: {COMPILING}; the ETA appears once the first problems are back" in err


def test_a_warm_run_says_nothing_of_compiling(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(DRIVER, "kernels_cold", lambda: False)
    suite = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                        preservation=False)
    write_suite(suite, tmp_path, engine="inprocess", progress=True)
    assert "compiling" not in capsys.readouterr().err
