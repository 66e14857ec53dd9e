"""``paintkit verify`` on hostile trees: a manifest never makes it read outside the tree it
names (``../``, absolute paths, symbolic links), shards the manifest does not list and keys
held twice are differences, and a broken manifest or results file is one line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.verify import benchmark as verify_module
from paintkit.verify import verify_benchmark

SECRET = b"not paintkit's"


def _generate(out: Path, *extra: str) -> None:
    assert main(["generate", "paintbench", "--out", str(out), "--tasks", "recolor",
                 "--conditions", "baseline", "--per-cell", "2", "--no-preservation",
                 "--benchmark", "MyBench", "--namespace", "hostile", "--engine", "inprocess",
                 "--quiet", *extra]) == 0


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    _generate(root / "tree")
    _generate(root / "tar", "--format", "webdataset", "--shard-size", "1")
    return root


@pytest.fixture
def hashed(monkeypatch):
    """Every path whose bytes verify hashes."""
    seen: list[Path] = []
    real = verify_module.file_sha256

    def spy(path):
        seen.append(Path(path))
        return real(path)

    monkeypatch.setattr(verify_module, "file_sha256", spy)
    return seen


def _edit_manifest(root: Path, change) -> None:
    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest))


def _outside_entries(tmp_path: Path, root: Path, prefix: str) -> dict:
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    os.symlink(secret, root / f"{prefix}link.png")
    os.symlink(tmp_path, root / f"{prefix}linked")
    entry = {"bytes": len(SECRET), "sha256": "0" * 64}
    return {"../secret.txt": entry, str(secret): entry, f"{prefix}../../secret.txt": entry,
            f"{prefix}link.png": entry, f"{prefix}linked/secret.txt": entry}


def test_a_tree_manifest_never_reads_outside_the_tree(made, tmp_path, hashed, capsys):
    root = shutil.copytree(made / "tree", tmp_path / "tree")
    entries = _outside_entries(tmp_path, root, "MyBench/recolor/")
    _edit_manifest(root, lambda m: m["files"].update(entries))
    assert main(["verify", str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    for name in entries:
        assert any(line.startswith(f"manifest.json: {name!r}: ") for line in out), (name, out)
    assert all(root.resolve() in p.resolve().parents for p in hashed), hashed
    assert sum("leaves the tree (not read)" in line for line in out) == 3
    assert sum("a symbolic link (not followed)" in line for line in out) == 2


def test_a_shard_manifest_never_reads_outside_the_folder(made, tmp_path, hashed, capsys):
    root = shutil.copytree(made / "tar", tmp_path / "tar")
    entries = _outside_entries(tmp_path, root, "")
    _edit_manifest(root, lambda m: m["files"].update(entries))
    verdict = verify_benchmark(root)
    assert all(root.resolve() in p.resolve().parents for p in hashed), hashed
    for name in entries:
        assert any(line.startswith(f"manifest.json: {name!r}: ") for line in verdict.differs)


def test_an_unlisted_shard_and_a_key_held_twice_are_differences(made, tmp_path):
    root = shutil.copytree(made / "tar", tmp_path / "tar")
    shutil.copyfile(root / "shard-000000.tar", root / "shard-000007.tar")
    verdict = verify_benchmark(root)
    assert not verdict.ok
    assert any(line.startswith("shard-000007.tar: a shard manifest.json does not list")
               for line in verdict.differs), verdict.differs
    assert any("in both shard-000000.tar and shard-000007.tar" in line
               for line in verdict.differs), verdict.differs


@pytest.mark.parametrize("entry", [[], "x", 1, None, True, [1, 2]])
def test_a_manifest_entry_that_is_not_an_object_is_one_line(made, tmp_path, entry, capsys):
    for layout in ("tree", "tar"):
        root = shutil.copytree(made / layout, tmp_path / layout)
        name = "MyBench/recolor/000.json" if layout == "tree" else "shard-000000.tar"
        _edit_manifest(root, lambda m, name=name: m["files"].update({name: entry}))
        capsys.readouterr()
        assert main(["verify", str(root)]) == 1
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        assert f"manifest.json: {name!r}: its entry is a JSON " in captured.out


@pytest.mark.parametrize("change", [
    lambda m: m.update(suite=[1]),
    lambda m: m.update(suite="x"),
    lambda m: m["suite"].update(parts="x"),
    lambda m: m["suite"].update(tasks=5, modes=[1, None]),
    lambda m: m.update(files=[]),
])
def test_a_released_benchmarks_manifest_of_the_wrong_shape_is_one_line(tmp_path, change,
                                                                       capsys):
    root = tmp_path / "bench"
    assert main(["generate", "paintbench", "--out", str(root), "--tasks", "translation",
                 "--conditions", "baseline", "--per-cell", "1", "--no-preservation",
                 "--engine", "inprocess", "--quiet"]) == 0
    _edit_manifest(root, change)
    capsys.readouterr()
    code = main(["verify", str(root)])
    err = capsys.readouterr().err
    assert code in (1, 2) and "Traceback" not in err and "internal error" not in err


def test_a_manifest_nested_100000_deep_is_one_line(made, tmp_path, capsys):
    root = shutil.copytree(made / "tree", tmp_path / "tree")
    (root / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    assert main(["verify", str(root)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{root / 'manifest.json'}:" in err
    assert "nested too deeply" in err


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"models": []}',
                                  '{"models": {"m": {"B": {"outputs_sha256": []}}}}', "[1]"])
def test_a_broken_results_file_is_one_line(tmp_path, text, capsys):
    (tmp_path / "results.json").write_text(text)
    assert main(["verify", "--results", str(tmp_path), "--outputs", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a paintkit results file" in err


def test_a_results_key_that_leaves_the_outputs_tree_is_not_read(tmp_path, capsys):
    outputs = tmp_path / "outs"
    (outputs / "m" / "B" / "t").mkdir(parents=True)
    (tmp_path / "0000_output.png").write_bytes(b"x")
    doc = {"models": {"m": {"B": {"outputs_sha256": {"../../../0000": "0" * 64}}},
                      "..": {"B": {"outputs_sha256": {"t/0000": "0" * 64}}}}}
    (tmp_path / "results.json").write_text(json.dumps(doc))
    (tmp_path / "problem_stats.jsonl").write_text("")
    assert main(["verify", "--results", str(tmp_path), "--outputs", str(outputs)]) == 1
    out = capsys.readouterr().out
    assert out.count("the path leaves the outputs tree (not read)") == 2, out
