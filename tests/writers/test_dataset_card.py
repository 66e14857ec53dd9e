"""A shard corpus (``--format parquet`` / ``webdataset``) is ready for the Hub: a
``README.md`` dataset card whose YAML header the ``datasets`` package reads (features,
splits, sizes), the command that makes the same corpus, the problems per task; and
``paintkit.load(FOLDER, tasks=[...])`` keeps only those tasks."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from paintkit.cli.generate import build_paintbench_suite
from paintkit.cli.main import build_parser
from paintkit.engines import write_suite
from paintkit.layout.errors import LayoutError
from paintkit.loader import load
from paintkit.writers.dataset_card import CARD_NAME
from paintkit.writers.splits import HELD_OUT, held_out
from tests.support.generate_helpers import small_suite, tree_digest

SUITE = small_suite()  # 12 problems: translation, removal, preservation
FORMATS = ("parquet", "webdataset")
TEST = sum(held_out(SUITE.spec(i).problem_id, HELD_OUT) for i in range(len(SUITE)))


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    pytest.importorskip("pyarrow")
    root = tmp_path_factory.mktemp("corpora")
    for fmt in FORMATS:
        write_suite(SUITE, root / fmt, format=fmt, shard_size=5, engine="inprocess",
                    progress=False)
    return root


def _header(text: str) -> dict:
    yaml = pytest.importorskip("yaml")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_card_is_written_listed_and_describes_the_corpus(corpora, fmt):
    root = corpora / fmt
    manifest = json.loads((root / "manifest.json").read_text())
    assert list(manifest["files"])[-1] == CARD_NAME  # after the shards, checked by verify
    head = _header((root / CARD_NAME).read_text())
    assert head["license"] == "apache-2.0"
    ext = "tar" if fmt == "webdataset" else "parquet"
    assert head["configs"] == [{"config_name": "default", "data_files": [
        {"split": "train", "path": f"shard-??????.{ext}"},
        {"split": "test", "path": f"shard-??????.test.{ext}"}]}]
    sizes = {split: sum(e["bytes"] for n, e in manifest["files"].items()
                        if n != CARD_NAME and n.endswith(".test." + ext) == (split == "test"))
             for split in ("train", "test")}
    assert head["dataset_info"]["splits"] == [
        {"name": "train", "num_bytes": sizes["train"], "num_examples": 12 - TEST},
        {"name": "test", "num_bytes": sizes["test"], "num_examples": TEST}]
    info = head["paintkit"]
    assert info["version"] == manifest["paintkit_version"] and info["problems"] == 12
    counts = Counter(SUITE.spec(i).folder for i in range(len(SUITE)))
    assert info["problems_per_task"] == dict(counts) == {"translation": 4, "removal": 4,
                                                          "preservation": 4}


def test_the_cards_command_makes_the_same_suite(corpora):
    command = _header((corpora / "parquet" / CARD_NAME).read_text())["paintkit"]["command"]
    argv = command.split()[1:]
    args = build_parser().parse_args([a if a != "DIR" else "out" for a in argv])
    assert build_paintbench_suite(args).to_dict() == SUITE.to_dict()
    assert (args.format, args.shard_size) == ("parquet", 5)


@pytest.mark.parametrize("fmt", FORMATS)
def test_datasets_load_dataset_finds_the_split_and_features(corpora, fmt, tmp_path):
    datasets = pytest.importorskip("datasets")
    ds = datasets.load_dataset(str(corpora / fmt), cache_dir=str(tmp_path))
    assert sorted(ds) == ["test", "train"]
    assert (len(ds["train"]), len(ds["test"])) == (12 - TEST, TEST)
    row = ds["train"][0]
    images = ("input", "answer") if fmt == "parquet" else ("input.png", "answer.png")
    assert all(row[name].size == (256, 256) or row[name].size[0] > 0 for name in images)
    first = load(corpora / fmt)[0].metadata
    if fmt == "parquet":
        assert json.loads(row["metadata"]) == first  # the problem exactly as paintkit reads it
    else:  # datasets' Json feature keeps 10 significant digits of a float, every integer
        assert row["json"]["seed"] == first["seed"] > 2**63
        assert row["json"]["instruction"] == first["instruction"]


def test_a_rerun_and_a_url_write_the_same_card(corpora, tmp_path):
    fsspec = pytest.importorskip("fsspec")
    before = tree_digest(corpora / "parquet")
    write_suite(SUITE, corpora / "parquet", format="parquet", shard_size=5,
                engine="inprocess", progress=False)  # resumed: every shard kept
    assert tree_digest(corpora / "parquet") == before
    url = f"memory://card-{id(tmp_path)}"
    write_suite(SUITE, url, format="parquet", shard_size=5, engine="inprocess",
                progress=False)
    fs = fsspec.filesystem("memory")
    try:
        assert fs.cat_file(f"/card-{id(tmp_path)}/{CARD_NAME}") == \
            (corpora / "parquet" / CARD_NAME).read_bytes()
    finally:
        fs.rm(f"/card-{id(tmp_path)}", recursive=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_load_keeps_the_tasks_asked_for(corpora, fmt):
    every = load(corpora / fmt)
    assert {item.task for item in every} == {"translation", "removal", "preservation"}
    some = load(corpora / fmt, tasks=["removal"])
    assert len(some) == sum(item.task == "removal" for item in every) > 0
    assert {item.task for item in some} == {"removal"}
    with pytest.raises(LayoutError, match="no problem of task recolor in these shards"):
        load(corpora / fmt, tasks=["recolor"])
