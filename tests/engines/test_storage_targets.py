"""Outputs at fsspec URLs: memory:// and file:// give the local bytes, resume, and stay URLs."""

import hashlib
import os

import pytest

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.storage import Target
from paintkit.writers.manifest import LOCK_NAME, MANIFEST_NAME
from tests.support.generate_helpers import small_suite, tree_digest

fsspec = pytest.importorskip("fsspec")

SUITE = small_suite()  # 12 problems


def _memory_digest(name: str) -> dict[str, str]:
    fs = fsspec.filesystem("memory")
    return {path.split(f"/{name}/", 1)[1]: hashlib.sha256(fs.cat_file(path)).hexdigest()
            for path in fs.find(f"/{name}")}


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    out = {}
    for format in ("directory", "parquet"):
        root = tmp_path_factory.mktemp(format)
        write_suite(SUITE, root, format=format, shard_size=5, engine="inprocess", progress=False)
        digest = tree_digest(root)
        digest.pop(LOCK_NAME)
        out[format] = digest
    return out


@pytest.mark.parametrize("format", ["directory", "parquet"])
def test_memory_url_gets_the_local_bytes_and_resumes(references, format):
    name = f"corpus-{format}"
    fs = fsspec.filesystem("memory")
    fs.rm(f"/{name}", recursive=True) if fs.exists(f"/{name}") else None
    summary = write_suite(SUITE, f"memory://{name}", format=format, shard_size=5,
                          engine="inprocess", progress=False)
    assert _memory_digest(name) == references[format]
    assert summary.out == f"memory://{name}" and summary.driver_bytes / len(SUITE) < 1024
    lost = sorted(n for n in references[format] if n != MANIFEST_NAME)[-1]
    fs.rm_file(f"/{name}/{lost}")  # a file the killed run never finished
    folder, _, base = f"{name}/{lost}".rpartition("/")
    fs.pipe_file(f"/{folder}/.{base}.dead.tmp", b"half")  # and its temporary
    again = write_suite(SUITE, f"memory://{name}", format=format, shard_size=5,
                        engine="inprocess", progress=False)
    assert 0 < again.generated < len(SUITE) and again.generated + again.skipped == len(SUITE)
    assert _memory_digest(name) == references[format]  # no duplicates, no holes, no temporaries
    kept = sorted(n for n in references[format] if n != MANIFEST_NAME)[0]
    fs.pipe_file(f"/{name}/{kept}", fs.cat_file(f"/{name}/{kept}")[::-1])  # same size, damaged
    third = write_suite(SUITE, f"memory://{name}", format=format, shard_size=5,
                        engine="inprocess", progress=False)
    assert [path for path, _ in third.damaged] == [kept]
    assert _memory_digest(name) == references[format]  # checked against the records, rewritten


def test_file_url_is_a_local_folder_not_a_folder_named_file(references, tmp_path, monkeypatch,
                                                            capsys):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "corpus"
    code = main(["generate", "paintbench", "--out", f"file://{out}", "--tasks", "translation,removal",
                 "--conditions", "baseline,horizontal", "--per-cell", "2", "--namespace", "writers",
                 "--format", "parquet", "--shard-size", "5", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert not os.path.exists(tmp_path / "file:")
    digest = tree_digest(out)
    digest.pop(LOCK_NAME)
    assert digest == references["parquet"]


def test_urls_that_cannot_work_fail_in_one_line(tmp_path):
    with pytest.raises(ValueError, match="cannot open nosuchscheme://"):
        Target.parse("nosuchscheme://bucket/corpus")
    with pytest.raises(ValueError, match="memory:// lives in one process"):
        write_suite(SUITE, "memory://pool", engine="process", jobs=1, progress=False)
    with pytest.raises(ValueError, match="flow-grpo is written by the driver"):
        write_suite(SUITE, "memory://jsonl", format="flow-grpo", engine="inprocess", progress=False)
    with pytest.raises(ValueError, match="not a host"):
        Target.parse("file://otherhost/data")


def test_world_size_makes_the_shard_count_divide(tmp_path, capsys):
    from paintkit.engines.unit_write import shard_size_for

    for problems, world in ((12, 4), (12, 3), (120_000, 64), (1056, 8), (7, 2)):
        size = shard_size_for(problems, world, 1000)
        count = -(-problems // size)
        assert count % world == 0 and size <= 1000 and size == -(-problems // count)
    assert shard_size_for(12, 4, 1000) == 3 and shard_size_for(12, 3, 2) == 2
    with pytest.raises(ValueError, match="no shard size splits 1056 problems"):
        shard_size_for(1056, 64, 1000)
    with pytest.raises(ValueError, match="12 problems into a multiple of 5"):
        shard_size_for(12, 5, 1000)
    code = main(["generate", "paintbench", "--out", f"memory://ws-{os.getpid()}",
                 "--tasks", "translation,removal", "--conditions", "baseline,horizontal",
                 "--per-cell", "2", "--namespace", "writers", "--format", "webdataset",
                 "--world-size", "4", "--engine", "inprocess", "--quiet"])
    assert code == 0, capsys.readouterr().err
    shards = [p for p in fsspec.filesystem("memory").find(f"/ws-{os.getpid()}") if p.endswith(".tar")]
    assert len(shards) == 4  # 12 problems: 4 shards of 3
