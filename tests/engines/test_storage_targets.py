"""Outputs at fsspec URLs: memory:// and file:// give the local bytes, resume, and stay URLs."""

import hashlib
import os

import pytest

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.storage import Target
from paintkit.writers.dataset_card import CARD_NAME
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
        assert LOCK_NAME not in digest
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
    lost = sorted(n for n in references[format] if n not in (MANIFEST_NAME, CARD_NAME))[-1]
    fs.rm_file(f"/{name}/{lost}")  # a file the killed run never finished
    folder, _, base = f"{name}/{lost}".rpartition("/")
    fs.pipe_file(f"/{folder}/.{base}.dead.tmp", b"half")  # and its temporary
    again = write_suite(SUITE, f"memory://{name}", format=format, shard_size=5,
                        engine="inprocess", progress=False)
    assert 0 < again.generated < len(SUITE) and again.generated + again.skipped == len(SUITE)
    assert _memory_digest(name) == references[format]  # no duplicates, no holes, no temporaries
    kept = sorted(n for n in references[format] if n not in (MANIFEST_NAME, CARD_NAME))[0]
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
    assert LOCK_NAME not in digest
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
    from paintkit.engines.unit_write import shard_plan

    for problems in (1, 7, 12, 64, 100, 1056, 120_000):
        for world in (1, 2, 3, 5, 8, 64):
            for most in (1, 3, 1000):
                fewest = min(c for c in range(world, problems + world * most + 1, world)
                             if -(-problems // c) <= most)  # the oracle: search every count
                if fewest > problems:  # some shard would be empty
                    with pytest.raises(ValueError, match="some would be empty"):
                        shard_plan(problems, world, most)
                    continue
                size, shards = shard_plan(problems, world, most)
                count = shards or -(-problems // size)
                assert count == fewest and count % world == 0 and size <= most
                assert size == -(-problems // count)
                if shards is None:  # shards of one size (but the last) made that count
                    assert -(-problems // size) == count
                else:
                    assert -(-problems // size) != count
    assert shard_plan(12, 4, 1000) == (3, None) and shard_plan(12, 5, 1000) == (3, 5)
    assert shard_plan(1056, 64, 1000) == (17, 64)
    code = main(["generate", "paintbench", "--out", f"memory://ws-{os.getpid()}",
                 "--tasks", "translation,removal", "--conditions", "baseline,horizontal",
                 "--per-cell", "2", "--namespace", "writers", "--format", "webdataset",
                 "--world-size", "4", "--engine", "inprocess", "--quiet"])
    assert code == 0, capsys.readouterr().err
    found = [p for p in fsspec.filesystem("memory").find(f"/ws-{os.getpid()}") if p.endswith(".tar")]
    shards = [p for p in found if not p.endswith(".test.tar")]
    assert len(shards) == 4 and len(found) == 8  # 12 problems: 4 ranges of 3, train and test


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7, 11, 12])
def test_an_even_split_covers_the_suite_in_order(tmp_path, count):
    from paintkit.writers import make_writer

    for problems in range(count, 41):
        writer = make_writer("webdataset", tmp_path, list(range(problems)), shards=count)
        ranges = [writer.shard_range(k) for k in range(writer.shards)]
        assert writer.shards == count and ranges[0][0] == 0 and ranges[-1][1] == problems
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
        sizes = {stop - start for start, stop in ranges}
        assert max(sizes) - min(sizes) <= 1 and max(sizes) == writer.shard_size
        assert [writer.shard_of(i) for i in range(problems)] == [
            k for k, (start, stop) in enumerate(ranges) for _ in range(start, stop)]


def test_world_size_five_splits_twelve_problems_evenly_on_every_path(tmp_path, capsys):
    import tarfile

    args = ["--tasks", "translation,removal", "--conditions", "baseline,horizontal",
            "--per-cell", "2", "--namespace", "writers", "--format", "webdataset",
            "--world-size", "5", "--held-out", "0", "--engine", "inprocess", "--quiet"]
    name = f"ws5-{os.getpid()}"
    for out in (str(tmp_path / "local"), f"memory://{name}"):  # the local writer, the units
        assert main(["generate", "paintbench", "--out", out, *args]) == 0, \
            capsys.readouterr().err
    local = tree_digest(tmp_path / "local")
    assert LOCK_NAME not in local
    assert _memory_digest(name) == local  # same names, same bytes, same manifest
    manifest = (tmp_path / "local" / MANIFEST_NAME).read_text()
    assert '"shards": 5' in manifest.replace("\n", "").replace(" ", "").replace(":", ": ")
    keys = []
    for k in range(5):
        with tarfile.open(tmp_path / "local" / f"shard-{k:06d}.tar") as tar:
            keys.append([m.name.split(".")[0] for m in tar.getmembers()][::3])
    assert [len(shard) for shard in keys] == [2, 2, 3, 2, 3]  # k * 12 // 5 = 0 2 4 7 9 12
    assert [key for shard in keys for key in shard] == [
        SUITE.spec(i).problem_id for i in range(len(SUITE))]
    again = write_suite(SUITE, tmp_path / "local", format="webdataset", shards=5, held_out=0,
                        engine="inprocess", progress=False)  # the same suite and layout
    assert (again.generated, again.skipped) == (0, len(SUITE))
