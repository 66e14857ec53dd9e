"""Problems with reference images, stored and read back: the directory layout
(``NNN_reference_<n>.png`` before ``NNN.json``), WebDataset members (``KEY.reference_<n>.png``),
the Parquet ``references`` column (only in shards that hold such problems), the dataset
card, resuming, and ``paintkit.load``; a one-image corpus keeps its bytes."""

import hashlib
import json
import tarfile

import numpy as np
import pytest

import paintkit
from paintkit.engines import write_suite
from paintkit.layout.errors import LayoutError
from paintkit.suites import Suite
from tests.support.stored_references import mixed_reference_suite, unsaid_reference_suite

FORMATS = ("directory", "webdataset", "parquet")


def _run(suite, out, **kwargs):
    return write_suite(suite, out, engine="inprocess", progress=False, **kwargs)


@pytest.fixture(scope="module")
def suite():
    return mixed_reference_suite()


@pytest.fixture(scope="module")
def problems(suite):
    return {p.metadata["problem_id"]: p for p in suite.problems()}


@pytest.fixture(scope="module")
def corpora(suite, tmp_path_factory):
    root = tmp_path_factory.mktemp("corpora")
    for fmt in FORMATS:
        _run(suite, root / fmt, format=fmt, **({} if fmt == "directory" else {"shard_size": 4}))
    return root


def test_the_suite_mixes_one_image_problems_and_references(problems):
    counts = sorted(len(p.references) for p in problems.values())
    assert counts == [0, 0, 1, 1, 2, 2]


def test_directory_writes_references_before_the_json(corpora, problems):
    manifest = json.loads((corpora / "directory" / "manifest.json").read_text())
    names = [n.split("/")[-1] for n in manifest["files"] if n.startswith("PaintBench/recolor/")]
    assert names == ["000_input.png", "000_answer.png", "000_reference_1.png",
                     "000_reference_2.png", "000.json", "001_input.png", "001_answer.png",
                     "001_reference_1.png", "001.json", "002_input.png", "002_answer.png",
                     "002.json"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_load_gives_every_problem_its_references(corpora, problems, fmt):
    loaded = paintkit.load(corpora / fmt)
    assert len(loaded) == len(problems)
    for item in loaded:
        want = problems[item.metadata["problem_id"]]
        assert [r.role for r in item.references] == [r.role for r in want.references]
        for got, ref in zip(item.references, want.references, strict=True):
            assert got.image.dtype == np.uint8 and np.array_equal(got.image, ref.image)
        assert len(item.images) == 1 + len(want.references)
        assert np.array_equal(item.images[0], want.input)


def test_webdataset_members_sit_between_answer_and_json(corpora, problems):
    with tarfile.open(corpora / "webdataset" / "shard-000000.tar") as tar:
        names = tar.getnames()
    key = next(k for k, p in problems.items() if len(p.references) == 2)
    assert names[:5] == [f"{key}.{field}" for field in
                         ("input.png", "answer.png", "reference_1.png", "reference_2.png", "json")]


def test_a_suite_that_says_it_has_references_has_the_column_in_every_shard(suite, problems,
                                                                          tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    _run(suite, tmp_path, format="parquet", shard_size=1, held_out=0)
    shards = sorted(tmp_path.glob("shard-*.parquet"))
    assert len(shards) == len(suite)
    assert all("references" in pq.read_schema(shard).names for shard in shards)
    # the shards read back as one table, each row with its references (pyarrow takes the
    # first file's schema: a shard without the column would drop them all)
    table = pq.read_table(shards)
    rows = dict(zip(table.column("key").to_pylist(), table.column("references").to_pylist(),
                    strict=True))
    assert {key: [cell["role"] for cell in cells] for key, cells in rows.items()} == \
        {key: [ref.role for ref in p.references] for key, p in problems.items()}


class _SaysNothing:
    """A suite of a user's (the protocol, delegated) without a ``reference_images``."""

    def __init__(self, base):
        self._base = base

    def __len__(self):
        return len(self._base)

    def __getattr__(self, name):
        if name == "reference_images":
            raise AttributeError(name)
        return getattr(self._base, name)


def test_a_suite_without_the_attribute_has_the_column_in_every_shard(suite, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    mine = _SaysNothing(suite)
    assert not hasattr(mine, "reference_images")
    _run(mine, tmp_path, format="parquet", shard_size=1, held_out=0)
    shards = sorted(tmp_path.glob("shard-*.parquet"))
    assert len(shards) == len(suite)
    assert all("references" in pq.read_schema(shard).names for shard in shards)


def test_parquet_column_only_in_shards_with_references_when_the_suite_says_none(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    suite = unsaid_reference_suite()
    _run(suite, tmp_path, format="parquet", shard_size=1)
    shards = sorted(tmp_path.glob("shard-*.parquet"))
    for shard in shards:
        meta = json.loads(pq.read_table(shard).column("metadata")[0].as_py()) \
            if pq.ParquetFile(shard).metadata.num_rows else {}
        assert ("references" in pq.read_schema(shard).names) == bool(meta.get("references"))
    with_refs = next(s for s in shards if "references" in pq.read_schema(s).names)
    schema = pq.read_schema(with_refs)
    assert schema.names[:4] == ["key", "input", "answer", "references"]
    features = json.loads(schema.metadata[b"huggingface"])["info"]["features"]
    assert features["references"] == [{"image": {"_type": "Image"},
                                       "role": {"dtype": "string", "_type": "Value"}}]
    assert len(paintkit.load(tmp_path)) == len(suite)


def test_parquet_adds_the_column_when_references_come_after_a_row_group(tmp_path, monkeypatch,
                                                                         problems):
    pq = pytest.importorskip("pyarrow.parquet")
    suite = unsaid_reference_suite()
    import paintkit.writers.parquet as parquet

    monkeypatch.setattr(parquet, "ROW_GROUP", 1)  # problem 2 (no references) is written alone
    _run(suite, tmp_path, format="parquet", shard_size=2)
    shard = tmp_path / "shard-000001.parquet"  # problems 2 (none) and 3 (two references)
    table = pq.read_table(shard)
    assert pq.ParquetFile(shard).metadata.num_row_groups == 2
    assert [len(cell) for cell in table.column("references").to_pylist()] == [0, 2]
    assert not list(tmp_path.glob(".*"))  # no temporary left
    for item in paintkit.load(tmp_path):
        assert len(item.references) == len(problems[item.key].references)


def test_datasets_loads_reference_images_with_their_roles(corpora, problems, tmp_path):
    datasets = pytest.importorskip("datasets")
    cache = str(tmp_path / ".hf-cache")
    ds = datasets.load_dataset(str(corpora / "parquet"), split="train", cache_dir=cache)
    for row in ds:
        want = problems[row["key"]].references
        assert [r["role"] for r in row["references"]] == [r.role for r in want]
        for got, ref in zip(row["references"], want, strict=True):
            assert np.array_equal(np.asarray(got["image"].convert("RGB")), ref.image)
    ds = datasets.load_dataset(str(corpora / "webdataset"), split="train", cache_dir=cache)
    for row in ds:
        want = problems[row["__key__"]].references
        for n in (1, 2):
            image = row[f"reference_{n}.png"]
            assert (image is None) == (len(want) < n)
            if image is not None:
                assert np.array_equal(np.asarray(image.convert("RGB")), want[n - 1].image)


def test_the_card_lists_the_reference_features(corpora):
    parquet = (corpora / "parquet" / "README.md").read_text()
    assert '  - name: "answer"\n    dtype: image\n  - name: "references"\n    list:\n' \
           '    - name: image\n      dtype: image\n    - name: role\n      dtype: string\n' in parquet
    webdataset = (corpora / "webdataset" / "README.md").read_text()
    assert '  - name: "reference_1.png"\n    dtype: image\n  - name: "reference_2.png"\n' \
           '    dtype: image\n  - name: "json"' in webdataset


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_rerun_keeps_everything_and_a_lost_reference_is_made_again(suite, tmp_path, fmt):
    out = tmp_path / fmt
    _run(suite, out, format=fmt)
    manifest = (out / "manifest.json").read_text()
    again = _run(suite, out, format=fmt)
    assert again.generated == 0 and (out / "manifest.json").read_text() == manifest
    if fmt != "directory":
        return
    lost = out / "PaintBench" / "translation" / "000_reference_2.png"
    lost.unlink()
    third = _run(suite, out, format=fmt)
    assert third.generated == 1 and lost.is_file()
    assert (out / "manifest.json").read_text() == manifest


def test_a_missing_member_or_a_bad_references_list_is_one_line(corpora, problems, tmp_path):
    source = corpora / "webdataset" / "shard-000000.tar"
    (tmp_path / "cut").mkdir()
    with tarfile.open(source) as tar, tarfile.open(tmp_path / "cut" / source.name, "w",
                                                   format=tarfile.GNU_FORMAT) as out:
        for member in tar.getmembers():
            if not member.name.endswith(".reference_2.png"):
                out.addfile(member, tar.extractfile(member))
    item = next(i for i in paintkit.load(tmp_path / "cut")
                if len(problems[i.key].references) == 2)
    with pytest.raises(LayoutError, match=r"member .*\.reference_2\.png missing"):
        item.references  # noqa: B018
    tree = tmp_path / "tree"
    _run(Suite(tasks=("recolor",), conditions=("baseline",), per_cell=1, namespace="refs",
               size=(128, 128), preservation=False), tree)
    meta = tree / "PaintBench" / "recolor" / "000.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "references": "style"}))
    with pytest.raises(LayoutError, match="'references' must be a list"):
        paintkit.load(tree)[0].references  # noqa: B018


#: A one-image tree (recolor, baseline, 2 problems at 128x128, namespace "pins") as paintkit
#: wrote it before problems could have reference images: not a byte may change.
PINNED_TREE = {
    "PaintBench/recolor/000.json": "99c1fef24666c0af8cad5940f236e3f02d8a038cbe8615d9dbc10c7e3a0bfff5",
    "PaintBench/recolor/000_answer.png": "50088d05669557d799ad783fc232dcd2f71212fa8cb71a8702e06ee6dbf3b5c2",
    "PaintBench/recolor/000_input.png": "d6f99ad79f17dea3b31e0249b66b3d8a8eb54a77d75f5b556107c9c2d7d83d1f",
    "PaintBench/recolor/001.json": "0444745fdebaa02bbad46db451751899aaa164f1fb7d32f6450b22ea42360ef8",
    "PaintBench/recolor/001_answer.png": "ed0ff78f514ee65dda5d202ffa24def4bf5ca26dd6da0758ad49c1337fe76997",
    "PaintBench/recolor/001_input.png": "c96917a76c0e7b975c1b3c79a6b2d7c9a3959827c4a5f1b8e1afcac90c300dc8",
    "manifest.json": "9fcfbcb9a5310ef4583402db2b3f8d13e7104a098ff1050ecdb9d35af1a4de4d",
}
#: The Parquet columns of a one-image shard, as they always were.
ONE_IMAGE_COLUMNS = ["key", "input", "answer", "instruction", "task", "mode",
                     "visual_condition", "category", "metadata"]


def test_a_one_image_corpus_keeps_its_files_members_and_columns(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    suite = Suite(tasks=("recolor",), conditions=("baseline",), per_cell=2, namespace="pins",
                  size=(128, 128))
    for fmt in FORMATS:
        _run(suite, tmp_path / fmt, format=fmt)
    tree = tmp_path / "directory"
    assert {p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(tree.rglob("*")) if p.is_file()} == PINNED_TREE
    for shard in (tmp_path / "parquet").glob("shard-*.parquet"):
        schema = pq.read_schema(shard)
        assert schema.names == ONE_IMAGE_COLUMNS
        assert "references" not in json.loads(schema.metadata[b"huggingface"])["info"]["features"]
    for shard in (tmp_path / "webdataset").glob("shard-*.tar"):
        with tarfile.open(shard) as tar:
            assert {n.partition(".")[2] for n in tar.getnames()} <= {"input.png", "answer.png",
                                                                     "json"}
    for fmt in ("parquet", "webdataset"):
        assert "reference" not in (tmp_path / fmt / "README.md").read_text()
    assert all(item.references == () for item in paintkit.load(tree))


def test_a_corpus_at_a_url_gets_the_same_card_and_keeps_its_references(suite, corpora):
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    for fmt in ("parquet", "webdataset"):
        _run(suite, f"memory://refs-url-{fmt}", format=fmt, shard_size=4)
        card = fs.cat_file(f"/refs-url-{fmt}/README.md")
        assert card == (corpora / fmt / "README.md").read_bytes()
        again = _run(suite, f"memory://refs-url-{fmt}", format=fmt, shard_size=4)
        assert again.generated == 0 and fs.cat_file(f"/refs-url-{fmt}/README.md") == card
    _run(suite, "memory://refs-url-tree")
    manifest = fs.cat_file("/refs-url-tree/manifest.json")
    assert manifest == (corpora / "directory" / "manifest.json").read_bytes()
    fs.rm("/refs-url-tree/PaintBench/recolor/000_reference_2.png")
    third = _run(suite, "memory://refs-url-tree")
    assert third.damaged == (("PaintBench/recolor/000_reference_2.png",
                              "missing (its problem's JSON lists it)"),)
    assert fs.cat_file("/refs-url-tree/manifest.json") == manifest
