"""Writers: the SPEC 5 directory layout, WebDataset and Parquet shards, the manifest."""

import json
import tarfile

import numpy as np
import pytest

from paintkit.engines import write_suite
from paintkit.io.images import load_rgb
from paintkit.layout.benchmark import discover_problems, read_metadata
from paintkit.writers.manifest import LOCK_NAME, MANIFEST_NAME
from tests.support.generate_helpers import small_suite, tree_digest


@pytest.fixture(scope="module")
def problems(suite):
    return list(suite.problems())


def _run(suite, out, **kwargs):
    return write_suite(suite, out, engine="inprocess", progress=False, **kwargs)


def test_directory_layout_is_spec5_and_exact(suite, problems, tmp_path):
    summary = _run(suite, tmp_path)
    assert (summary.problems, summary.generated, summary.skipped) == (len(suite), len(suite), 0)
    assert summary.files == 3 * len(suite)
    found = discover_problems(tmp_path)  # what `paintkit eval` reads
    assert sorted((p.task, p.idx) for p in found) == \
        sorted((s.folder, s.idx) for s in suite.specs())
    for spec, problem in zip(suite.specs(), problems, strict=True):
        folder = tmp_path / "PaintBench" / spec.folder
        assert np.array_equal(load_rgb(folder / f"{spec.stem}_input.png"), problem.input)
        assert np.array_equal(load_rgb(folder / f"{spec.stem}_answer.png"), problem.answer)
        meta = json.loads((folder / f"{spec.stem}.json").read_text())
        assert meta == json.loads(json.dumps(problem.metadata))
        for key in ("instruction", "task", "mode", "visual_condition", "category", "problem_id",
                    "seed", "W", "H", "bg_colors"):
            assert key in meta
    assert read_metadata(found[0])["problem_id"]


def test_manifest_lists_every_file_with_its_hash(suite, tmp_path):
    _run(suite, tmp_path)
    manifest = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert manifest["complete"] is True and manifest["suite"] == suite.to_dict()
    assert manifest["layout"] == {"format": "directory"} and manifest["png"]["name"]
    digests = tree_digest(tmp_path)
    digests.pop(MANIFEST_NAME)
    assert LOCK_NAME not in digests  # a finished run leaves no lock file
    assert {p: e["sha256"] for p, e in manifest["files"].items()} == digests
    assert manifest["totals"] == {"files": len(digests),
                                  "bytes": sum(e["bytes"] for e in manifest["files"].values())}
    assert list(manifest["files"])[:3] == [f"PaintBench/translation/000{s}"
                                           for s in ("_input.png", "_answer.png", ".json")]


def test_webdataset_shards_read_back(suite, problems, tmp_path):
    wds = pytest.importorskip("webdataset")
    _run(suite, tmp_path, format="webdataset", shard_size=5, held_out=0)  # train alone
    shards = sorted(tmp_path.glob("shard-*.tar"))
    assert [p.name for p in shards] == ["shard-000000.tar", "shard-000001.tar", "shard-000002.tar"]
    with tarfile.open(shards[0]) as tar:
        names = tar.getnames()
        assert all(m.mtime == 0 and m.uid == 0 for m in tar.getmembers())
    assert names[:3] == [f"{problems[0].metadata['problem_id']}.{ext}"
                         for ext in ("input.png", "answer.png", "json")]
    urls = [str(p) for p in shards]
    samples = list(wds.WebDataset(urls, shardshuffle=False, empty_check=False).decode("rgb8"))
    assert len(samples) == len(problems)
    for sample, problem in zip(samples, problems, strict=True):
        assert sample["__key__"] == problem.metadata["problem_id"]
        assert np.array_equal(sample["input.png"], problem.input)
        assert np.array_equal(sample["answer.png"], problem.answer)
        assert sample["json"]["instruction"] == problem.instruction


def test_parquet_shards_load_with_datasets_as_images(suite, problems, tmp_path):
    datasets = pytest.importorskip("datasets")
    _run(suite, tmp_path, format="parquet", shard_size=7, held_out=0)  # train alone
    files = sorted(str(p) for p in tmp_path.glob("shard-*.parquet"))
    assert len(files) == 2
    ds = datasets.load_dataset("parquet", data_files=files, split="train",
                               cache_dir=str(tmp_path / ".hf-cache"))
    assert isinstance(ds.features["input"], datasets.Image)
    assert len(ds) == len(problems)
    for row, problem in zip(ds, problems, strict=True):
        assert np.array_equal(np.asarray(row["input"].convert("RGB")), problem.input)
        assert np.array_equal(np.asarray(row["answer"].convert("RGB")), problem.answer)
        assert row["key"] == problem.metadata["problem_id"]
        assert row["task"] == problem.metadata["task"] and row["instruction"] == problem.instruction
        assert json.loads(row["metadata"])["seed"] == problem.metadata["seed"]


@pytest.mark.parametrize("format", ["directory", "webdataset", "parquet"])
def test_rerun_skips_and_gives_the_same_tree(suite, tmp_path, format):
    first = _run(suite, tmp_path, format=format, shard_size=5)
    before = tree_digest(tmp_path)
    again = _run(suite, tmp_path, format=format, shard_size=5)
    assert again.generated == 0 and again.skipped == len(suite) and again.files == first.files
    assert tree_digest(tmp_path) == before


def test_other_suite_is_refused_unless_overwrite(suite, tmp_path):
    _run(suite, tmp_path)
    other = small_suite(per_cell=1)
    with pytest.raises(ValueError, match=r"holds another suite's files .*per_cell: 2 in the folder, 1 now"):
        _run(other, tmp_path)
    with pytest.raises(ValueError, match="format"):
        _run(suite, tmp_path, format="webdataset")
    summary = _run(other, tmp_path, overwrite=True)
    assert summary.generated == len(other)
    fresh = tmp_path.parent / "fresh"
    _run(other, fresh)
    assert tree_digest(tmp_path) == tree_digest(fresh)  # nothing of the old suite is left


def test_foreign_folder_is_refused(suite, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty and has no manifest.json.*notes.txt"):
        _run(suite, tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="exists and is not a folder"):
        _run(suite, tmp_path / "file")
