"""``paintkit verify`` of a corpus whose problems have reference images: a tree's reference
files against its manifest, a shard set's shards against its manifest and every reference
image its problems' JSON lists read back; a deleted or altered one is named."""

import tarfile

import pytest

from paintkit.engines import write_suite
from paintkit.verify import verify_benchmark
from tests.support.stored_references import mixed_reference_suite

SUITE = mixed_reference_suite(benchmark="RefBench")


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("verify-refs")
    for fmt in ("directory", "webdataset", "parquet"):
        write_suite(SUITE, root / fmt, engine="inprocess", progress=False, format=fmt)
    return root


@pytest.mark.parametrize("fmt", ["directory", "webdataset", "parquet"])
def test_an_untouched_copy_passes(corpora, fmt):
    verdict = verify_benchmark(corpora / fmt)
    assert verdict.ok and verdict.checked > 0, verdict.differs
    assert any("RefBench: not a released benchmark" in note for note in verdict.notes)


def test_a_deleted_or_altered_reference_file_is_named(corpora, tmp_path):
    import shutil

    tree = tmp_path / "tree"
    shutil.copytree(corpora / "directory", tree)
    (tree / "RefBench" / "recolor" / "000_reference_2.png").unlink()
    altered = tree / "RefBench" / "translation" / "001_reference_1.png"
    altered.write_bytes(altered.read_bytes() + b"x")
    verdict = verify_benchmark(tree)
    assert sorted(verdict.differs) == [
        "RefBench/recolor/000: reference_2.png missing",
        "RefBench/translation/001: reference_1.png edited since it was generated"]


def test_a_shard_missing_a_reference_member_is_named(corpora, tmp_path):
    import shutil

    copy = tmp_path / "shards"
    shutil.copytree(corpora / "webdataset", copy)
    shard = copy / "shard-000000.tar"
    dropped = 0
    with tarfile.open(corpora / "webdataset" / shard.name) as tar, \
            tarfile.open(shard, "w", format=tarfile.GNU_FORMAT) as out:
        for member in tar.getmembers():
            if member.name.endswith(".reference_2.png"):
                dropped += 1
                continue
            out.addfile(member, tar.extractfile(member))
    verdict = verify_benchmark(copy)
    assert "shard-000000.tar: edited since it was generated (its hash differs from " \
           "manifest.json)" in verdict.differs
    missing = [line for line in verdict.differs if "reference_2.png missing" in line]
    assert dropped and len(missing) == dropped
