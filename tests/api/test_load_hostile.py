"""``paintkit.load`` on hostile shard sets: a damaged shard, a JSON member that is not an
object and a key held twice are one line naming the shard, never a traceback or a key
yielded twice."""

from __future__ import annotations

import io
import shutil
import tarfile

import pytest

from paintkit.cli.main import main
from paintkit.layout.errors import LayoutError
from paintkit.loader import DuplicateKeyError, load


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    root = tmp_path_factory.mktemp("shards")
    for fmt in ("webdataset", "parquet"):
        if fmt == "parquet" and pytest.importorskip("pyarrow") is None:
            continue
        assert main(["generate", "paintbench", "--out", str(root / fmt), "--tasks",
                     "recolor,translation", "--conditions", "baseline", "--per-cell", "2",
                     "--no-preservation", "--namespace", "hostile_load", "--format", fmt,
                     "--shard-size", "2", "--engine", "inprocess", "--quiet"]) == 0
    return root


def _copy(shards, tmp_path, fmt):
    return shutil.copytree(shards / fmt, tmp_path / fmt)


@pytest.mark.parametrize("cut", [0, 700, -1])
def test_a_truncated_or_empty_tar_names_the_shard(shards, tmp_path, cut):
    root = _copy(shards, tmp_path, "webdataset")
    shard = root / "shard-000001.tar"
    data = shard.read_bytes()
    shard.write_bytes(data[:cut] if cut >= 0 else data[: len(data) // 2])
    with pytest.raises(LayoutError, match=rf"{shard}: not a readable shard"):
        load(root)


def test_a_json_member_that_is_a_list_names_the_shard_and_member(shards, tmp_path):
    root = _copy(shards, tmp_path, "webdataset")
    shard = root / "shard-000000.tar"
    with tarfile.open(shard) as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar.getmembers()]
    with tarfile.open(shard, "w") as tar:
        for member, data in members:
            if member.name.endswith(".json"):
                data = b"[1, 2]"
                member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    with pytest.raises(LayoutError, match=rf"{shard}: member .*\.json: expected a JSON object, "
                                          "got list"):
        load(root)


def test_a_truncated_parquet_shard_is_named(shards, tmp_path):
    pytest.importorskip("pyarrow")
    root = _copy(shards, tmp_path, "parquet")
    shard = root / "shard-000001.parquet"
    shard.write_bytes(shard.read_bytes()[:-100])
    with pytest.raises(LayoutError, match=rf"{shard}: not a readable shard"):
        load(root)


@pytest.mark.parametrize("fmt", ["webdataset", "parquet"])
def test_a_key_held_by_two_shards_is_refused(shards, tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    root = _copy(shards, tmp_path, fmt)
    ext = "tar" if fmt == "webdataset" else "parquet"
    shutil.copyfile(root / f"shard-000000.{ext}", root / f"shard-000009.{ext}")
    with pytest.raises(DuplicateKeyError, match=rf"is in both shard-000000.{ext} and "
                                                rf"shard-000009.{ext} \(and 1 more\)"):
        load(root)


def test_a_key_held_twice_in_one_tar_is_refused(shards, tmp_path):
    root = _copy(shards, tmp_path, "webdataset")
    shard = root / "shard-000000.tar"
    with tarfile.open(shard) as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar.getmembers()]
    with tarfile.open(shard, "w") as tar:
        for member, data in members + members[:3]:
            tar.addfile(member, io.BytesIO(data))
    with pytest.raises(DuplicateKeyError, match="in both shard-000000.tar and shard-000000.tar"):
        load(root)


def test_every_problem_once_and_its_shard(shards):
    items = load(shards / "webdataset")
    assert len({item.key for item in items}) == len(items) == 4
    assert [item.shard for item in items] == ["shard-000000.tar"] * 2 + ["shard-000001.tar"] * 2
