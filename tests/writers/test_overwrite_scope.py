"""``--overwrite`` removes exactly what the previous manifest lists: at an fsspec URL as in a
local folder, never through a symbolic link; files paintkit did not write survive."""

from __future__ import annotations

import os

import pytest

from paintkit.engines import write_suite
from paintkit.writers.previous import previous_files, remove_previous_local
from tests.support.generate_helpers import small_suite, tree_digest

OTHER = small_suite(per_cell=1)


def _run(suite, out, **kwargs):
    return write_suite(suite, out, engine="inprocess", progress=False, **kwargs)


def test_overwrite_at_a_url_keeps_foreign_objects(suite):
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    url = "memory://paintkit-overwrite-scope"
    try:
        _run(suite, url, format="webdataset", shard_size=5)
        fs.pipe_file("/paintkit-overwrite-scope/notes.txt", b"mine")
        fs.pipe_file("/paintkit-overwrite-scope/extra/shard-000009.tar", b"also mine")
        summary = _run(OTHER, url, format="webdataset", shard_size=5, overwrite=True)
        assert summary.generated == len(OTHER)
        names = sorted(p.rsplit("/", 1)[-1] for p in fs.find("/paintkit-overwrite-scope"))
        assert fs.cat_file("/paintkit-overwrite-scope/notes.txt") == b"mine"
        assert fs.cat_file("/paintkit-overwrite-scope/extra/shard-000009.tar") == b"also mine"
        # 12 problems in 3 shards before, 6 in 2 now: the third old shard (both files) went
        assert names == ["README.md", "manifest.json", "notes.txt", "shard-000000.tar",
                         "shard-000000.test.tar", "shard-000001.tar", "shard-000001.test.tar",
                         "shard-000009.tar"]
    finally:
        if fs.exists("/paintkit-overwrite-scope"):
            fs.rm("/paintkit-overwrite-scope", recursive=True)


def test_overwrite_keeps_a_foreign_file_in_a_benchmark_folder(suite, tmp_path):
    _run(suite, tmp_path)
    foreign = tmp_path / "PaintBench" / "translation" / "notes.txt"
    foreign.write_text("mine")
    _run(OTHER, tmp_path, overwrite=True)
    assert foreign.read_text() == "mine"
    fresh = tmp_path.parent / "fresh"
    _run(OTHER, fresh)
    left = tree_digest(tmp_path)
    left.pop("PaintBench/translation/notes.txt")
    assert left == tree_digest(fresh)  # nothing of the old suite is left


def test_overwrite_never_deletes_through_a_linked_data_folder(suite, tmp_path):
    pytest.importorskip("pyarrow")
    root, elsewhere = tmp_path / "corpus", tmp_path / "elsewhere"
    _run(suite, root, format="pix2pix", shard_size=5)
    elsewhere.mkdir()
    for name in os.listdir(root / "data"):  # the data/ folder moved and linked
        os.replace(root / "data" / name, elsewhere / name)
    os.rmdir(root / "data")
    os.symlink(elsewhere, root / "data")
    kept = {name: (elsewhere / name).read_bytes() for name in os.listdir(elsewhere)}
    assert sorted(kept) == ["shard-000000.parquet", "shard-000001.parquet",
                            "shard-000002.parquet"]
    _run(OTHER, root, format="pix2pix", shard_size=50, overwrite=True)
    # the new run wrote its one shard (through the link, where the user put data/); the
    # earlier run's shards were listed under data/, a link, so none was deleted
    assert (elsewhere / "shard-000001.parquet").read_bytes() == kept["shard-000001.parquet"]
    assert (elsewhere / "shard-000002.parquet").read_bytes() == kept["shard-000002.parquet"]


@pytest.mark.parametrize("name", ["../outside.txt", "/etc/hostname", "a/../../outside.txt",
                                  "./manifest.json", "a//b", "a\\..\\b", "x\0y"])
def test_a_listed_path_that_leaves_the_folder_is_never_removed(name, tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "outside.txt").write_text("mine")
    manifest = {"complete": True, "layout": {"format": "directory"},
                "files": {name: {"bytes": 4, "sha256": "0" * 64}}}
    assert previous_files(manifest) == []
    assert remove_previous_local(root, manifest) == []
    assert (tmp_path / "outside.txt").read_text() == "mine"


def test_a_listed_link_is_left_alone(tmp_path):
    (tmp_path / "target.txt").write_text("mine")
    os.symlink(tmp_path / "target.txt", tmp_path / "shard-000000.tar")
    manifest = {"complete": True, "layout": {"format": "webdataset"},
                "files": {"shard-000000.tar": {"bytes": 4, "sha256": "0" * 64}}}
    assert remove_previous_local(tmp_path, manifest) == []
    assert os.path.islink(tmp_path / "shard-000000.tar")


def test_an_incomplete_manifest_also_takes_the_layouts_own_names(tmp_path):
    for name in ("shard-000000.tar", "shard-000001.tar", "shard-1.tar", "notes.txt"):
        (tmp_path / name).write_bytes(b"x")
    manifest = {"complete": False, "layout": {"format": "webdataset"},
                "files": {"shard-000000.tar": {"bytes": 1, "sha256": "0" * 64}}}
    assert remove_previous_local(tmp_path, manifest) == ["shard-000000.tar",
                                                         "shard-000001.tar"]
    assert sorted(os.listdir(tmp_path)) == ["notes.txt", "shard-1.tar"]
