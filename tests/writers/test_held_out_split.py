"""A shard corpus's held-out split: ``shard-NNNNNN.<ext>`` (train) and
``shard-NNNNNN.test.<ext>`` (the held-out problems of the same range), chosen by a hash of
each ``problem_id`` (:mod:`paintkit.writers.splits`): the same files for any worker count
and engine, both splits found by ``datasets.load_dataset(folder)``, resumable, verified."""

from __future__ import annotations

import json
import math

import pytest

from paintkit.cli.main import build_parser, main
from paintkit.engines import write_suite
from paintkit.loader import load
from paintkit.writers.splits import HELD_OUT, check_held_out, held_out, split_of
from tests.support.generate_helpers import small_suite, tree_digest

SUITE = small_suite(tasks=("translation", "removal"), conditions=("baseline", "horizontal"),
                    per_cell=4)  # 24 problems
HELD = {SUITE.spec(i).problem_id for i in range(len(SUITE))
        if held_out(SUITE.spec(i).problem_id, HELD_OUT)}


def _write(out, **kwargs):
    kwargs = {"format": "parquet", "shard_size": 7, "engine": "inprocess", "progress": False,
              **kwargs}
    return write_suite(SUITE, out, **kwargs)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    pytest.importorskip("pyarrow")
    out = tmp_path_factory.mktemp("split") / "corpus"
    _write(out)
    return out


def _keys(path) -> list[str]:
    import pyarrow.parquet as pq

    return pq.read_table(path, columns=["key"]).column("key").to_pylist()


def test_the_split_is_a_pure_function_of_the_problem_id() -> None:
    ids = [f"paintbench-translation-baseline-amount-{k:06d}" for k in range(20_000)]
    share = sum(held_out(i, 0.1) for i in ids) / len(ids)
    assert abs(share - 0.1) < 0.01  # about the fraction asked for
    assert held_out("a", 0.5) == held_out("a", 0.5) and not held_out("a", 0.0)
    assert all(held_out(i, 0.1) <= held_out(i, 0.3) for i in ids[:2000])  # nested fractions
    assert split_of(ids[0], 0.1) in ("train", "test")
    for bad in (1, 1.0, -0.1, math.nan, "0.1", True):
        with pytest.raises(ValueError, match="held_out must be a fraction"):
            check_held_out(bad)


def test_each_range_is_a_train_and_a_test_shard(corpus) -> None:
    assert 0 < len(HELD) < len(SUITE)
    names = sorted(p.name for p in corpus.glob("shard-*"))
    assert names == [f"shard-{k:06d}{s}.parquet" for k in range(4) for s in ("", ".test")]
    ranges = [(0, 7), (7, 14), (14, 21), (21, 24)]
    for k, (a, b) in enumerate(ranges):
        ids = [SUITE.spec(i).problem_id for i in range(a, b)]
        assert _keys(corpus / f"shard-{k:06d}.parquet") == [i for i in ids if i not in HELD]
        assert _keys(corpus / f"shard-{k:06d}.test.parquet") == [i for i in ids if i in HELD]
    manifest = json.loads((corpus / "manifest.json").read_text())
    assert manifest["layout"] == {"format": "parquet", "shard_size": 7, "held_out": HELD_OUT}
    assert {item.key for item in load(corpus)} == {SUITE.spec(i).problem_id
                                                   for i in range(len(SUITE))}


def test_one_or_two_workers_write_the_same_files(corpus, tmp_path) -> None:
    two = tmp_path / "two"
    _write(two, engine="process", jobs=2)
    assert tree_digest(two) == tree_digest(corpus)


def test_a_unit_written_by_a_worker_is_the_same_pair_of_files(corpus, tmp_path) -> None:
    """The scaled-out path (Ray, URLs): a worker writes one range's two files."""
    from paintkit.engines.unit_write import Layout, expected_files, write_unit
    from paintkit.engines.work import WorkOptions
    from paintkit.storage import Target

    layout = Layout("parquet", 7)
    result = write_unit(SUITE, 7, 14, layout, Target.parse(tmp_path), WorkOptions(json_indent=None))
    names = ["shard-000001.parquet", "shard-000001.test.parquet"]
    assert [r.path for r in result.files] == names == \
        expected_files(layout.writer(tmp_path, SUITE), 7, 14)
    digest = tree_digest(corpus)
    assert all(tree_digest(tmp_path)[name] == digest[name] for name in names)


@pytest.mark.parametrize("fmt", ["parquet", "webdataset"])
def test_load_dataset_finds_both_splits(corpus, tmp_path, fmt) -> None:
    datasets = pytest.importorskip("datasets")
    root = corpus if fmt == "parquet" else tmp_path / fmt
    if fmt != "parquet":
        _write(root, format=fmt)
    ds = datasets.load_dataset(str(root), cache_dir=str(tmp_path / "hf"))
    assert sorted(ds) == ["test", "train"]
    assert (len(ds["train"]), len(ds["test"])) == (len(SUITE) - len(HELD), len(HELD))
    key = "key" if fmt == "parquet" else "__key__"
    assert set(ds["test"][key]) == HELD


def test_resume_rewrites_a_lost_held_out_shard_only(corpus, tmp_path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    before = tree_digest(copy)
    (copy / "shard-000001.test.parquet").unlink()
    summary = _write(copy)
    assert (summary.generated, summary.skipped) == (7, 17)  # the range of the lost file
    assert tree_digest(copy) == before


def test_no_split_and_another_fraction(tmp_path) -> None:
    pytest.importorskip("pyarrow")
    _write(tmp_path / "none", held_out=0)
    assert sorted(p.name for p in (tmp_path / "none").glob("shard-*")) == [
        f"shard-{k:06d}.parquet" for k in range(4)]
    card = (tmp_path / "none" / "README.md").read_text()
    assert 'path: "shard-*.parquet"' in card and "split: test" not in card
    assert "--held-out 0" in card  # the card's command makes the same corpus
    _write(tmp_path / "half", held_out=0.5)
    half = {i for i in (SUITE.spec(k).problem_id for k in range(len(SUITE))) if held_out(i, 0.5)}
    held = [key for p in sorted((tmp_path / "half").glob("shard-*.test.parquet"))
            for key in _keys(p)]
    assert set(held) == half and HELD <= half
    assert "--held-out 0.5" in (tmp_path / "half" / "README.md").read_text()


def test_the_flag_and_its_errors(tmp_path, capsys) -> None:
    common = ["generate", "paintbench", "--tasks", "translation", "--conditions", "baseline",
              "--per-cell", "2", "--no-preservation", "--size", "256x256", "--engine",
              "inprocess", "--quiet"]
    assert main([*common, "--out", str(tmp_path / "a"), "--format", "parquet",
                 "--held-out", "1.5"]) == 2
    assert "held_out must be a fraction" in capsys.readouterr().err
    assert main([*common, "--out", str(tmp_path / "b"), "--held-out", "0.2"]) == 2
    assert "applies to --format parquet and webdataset" in capsys.readouterr().err
    with pytest.raises(ValueError, match="applies to --format parquet and webdataset"):
        write_suite(SUITE, tmp_path / "c", format="verl-omni", held_out=0.1, progress=False)


def test_the_cards_command_of_an_even_split_makes_the_same_layout(tmp_path) -> None:
    """``--world-size`` writes ``"shards": S`` into the layout; the card's command says
    ``--world-size S`` (there is no ``--shards`` flag) and makes the same shard plan."""
    from paintkit.engines.unit_write import shard_plan
    from paintkit.writers.dataset_card import generate_command

    size, count = shard_plan(len(SUITE), 7, 1000)  # 24 problems on 7 ranks: an even split
    assert (size, count) == (4, 7)
    command = generate_command(SUITE, {"format": "parquet", "shards": count,
                                       "held_out": HELD_OUT})
    assert "--shards" not in command and "--world-size 7 --shard-size 4" in command
    args = build_parser().parse_args([a if a != "DIR" else "out" for a in command.split()[1:]])
    assert shard_plan(len(SUITE), args.world_size, args.shard_size) == (size, count)
