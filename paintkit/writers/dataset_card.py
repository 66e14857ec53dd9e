"""``README.md``: the Hugging Face Hub dataset card of a shard corpus (``--format parquet`` or
``webdataset``).

Written at the end of every run beside the shards and listed in ``manifest.json`` like them
(so ``--overwrite`` removes it and ``verify`` checks it). Its YAML header is the Hub's:
``license``, ``task_categories``, ``size_categories``, ``configs`` (which files form which
split, so ``datasets.load_dataset(FOLDER)`` finds them), ``dataset_info`` (the features and
the split sizes), and a ``paintkit`` block with the generator's version, the command that
makes the same corpus and the problems per task. Every value comes from the suite and the
layout, never from the run (engine, time, folder), so two runs of one suite write the same
card, byte for byte, as they write the same manifest.

Splits: ``train`` (``shard-NNNNNN.<ext>``) and the held-out ``test``
(``shard-NNNNNN.test.<ext>``), the problems chosen by a hash of their ``problem_id``
(:mod:`paintkit.writers.splits`; the layout's ``held_out`` fraction, one in ten by default);
``configs`` names each split's files and ``dataset_info.splits`` its size. A corpus written
with ``held_out=0`` (``--held-out 0``) has the ``train`` split alone.
"""

from __future__ import annotations

import json
import tarfile
from collections import Counter

from paintkit._version import __version__
from paintkit.layout.shard_members import REFERENCES_COLUMN, reference_field, reference_number
from paintkit.suites import Suite
from paintkit.writers.splits import HELD_OUT, TEST, TRAIN, held_out

__all__ = ["CARD_NAME", "card_bytes", "card_text", "corpus_references", "generate_command",
           "shard_references"]

CARD_NAME = "README.md"
LICENSE = "apache-2.0"  # paintkit's own (the problems are its output)

#: ``dataset_info.features`` of each format (the Parquet columns; the WebDataset fields the
#: Hub's ``webdataset`` loader makes of ``KEY.input.png``, ``KEY.answer.png``, ``KEY.json``).
_PARQUET_FEATURES = [("key", "string"), ("input", "image"), ("answer", "image"),
                     ("instruction", "string"), ("task", "string"), ("mode", "string"),
                     ("visual_condition", "string"), ("category", "string"),
                     ("metadata", "string")]
#: The problem JSON is a ``json`` feature (``datasets.Json``): its ``seed`` is a 64-bit
#: unsigned integer, which Arrow's inference of a struct cannot hold.
_WEBDATASET_FEATURES = [("__key__", "string"), ("__url__", "string"), ("input.png", "image"),
                        ("answer.png", "image"), ("json", "json")]
_FEATURES = {"parquet": _PARQUET_FEATURES, "webdataset": _WEBDATASET_FEATURES}
#: A corpus with reference images (docs/references.md) lists them too: the Parquet
#: ``references`` column after ``answer`` (a list of {image, role}), the WebDataset
#: ``reference_<n>.png`` images after ``answer.png`` (as many as its problems have at most).
_REFERENCES_YAML = ["    list:", "    - name: image", "      dtype: image", "    - name: role",
                    "      dtype: string"]
_EXTENSION = {"parquet": "parquet", "webdataset": "tar"}


def _split_glob(fmt: str, split: str, only: bool) -> str:
    """The ``data_files`` pattern of ``split``'s shards (``only``: the corpus's one split)."""
    if only:
        return f"shard-*.{_EXTENSION[fmt]}"
    return f"shard-{'?' * 6}{'' if split == TRAIN else '.' + split}.{_EXTENSION[fmt]}"


def split_counts(suite, fraction: float) -> dict[str, int]:
    """``{split: problems}`` of ``suite`` held out at ``fraction`` (``train`` alone at 0)."""
    if not fraction:
        return {TRAIN: len(suite)}
    test = sum(held_out(suite.spec(i).problem_id, fraction) for i in range(len(suite)))
    return {TRAIN: len(suite) - test, TEST: test}


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "1M<n<10M"


def _flag_list(values) -> str:
    return ",".join(str(v) for v in values)


def generate_command(suite, layout: dict) -> str | None:
    """The ``paintkit generate`` command that writes ``suite`` in ``layout`` (``--out``
    left to the reader), or None for a suite the command line cannot describe exactly
    (combined, compositional, ...)."""
    if type(suite) is not Suite:
        return None
    d = suite.to_dict()
    parts = ["paintkit generate paintbench --out DIR", f"--format {layout['format']}",
             f"--tasks {_flag_list(d['tasks'])}", f"--conditions {_flag_list(d['conditions'])}",
             f"--modes {_flag_list(d['modes'])}", f"--per-cell {d['per_cell']}",
             f"--namespace {d['namespace']}", f"--benchmark {d['benchmark']}"]
    if d["start_slot"]:
        parts.append(f"--start-slot {d['start_slot']}")
    if d["size"] is not None:
        parts.append(f"--size {d['size'][0]}x{d['size'][1]}")
    parts += [f"--counts {table}={_flag_list(levels)}" for table, levels in d["counts"].items()]
    if not d["preservation"]:
        parts.append("--no-preservation")
    if d.get("beyond_benchmark"):
        parts.append("--beyond-benchmark")
    if "shards" in layout:  # an even split: what --world-size S makes of ceil(N / S)
        count = layout["shards"]
        parts.append(f"--world-size {count} --shard-size {-(-len(suite) // count)}")
    else:
        parts.append(f"--shard-size {layout['shard_size']}")
    if layout.get("held_out", 0) != HELD_OUT:
        parts.append(f"--held-out {layout.get('held_out', 0)}")
    return " ".join(parts)


def _yaml(value) -> str:
    """A YAML scalar (JSON strings are valid YAML)."""
    return json.dumps(value) if isinstance(value, str) else str(value).lower() \
        if isinstance(value, bool) else str(value)


def _feature_lines(fmt: str, references: int) -> list[str]:
    """``dataset_info.features`` of ``fmt``; ``references``: the most reference images a
    problem of the corpus has (0: none, nothing about references is listed)."""
    lines = []
    for name, dtype in _FEATURES[fmt]:
        lines += [f"  - name: {_yaml(name)}", f"    dtype: {dtype}"]
        if name in ("answer", "answer.png") and references:
            if fmt == "parquet":
                lines += [f"  - name: {_yaml(REFERENCES_COLUMN)}", *_REFERENCES_YAML]
            else:
                lines += [line for n in range(1, references + 1) for line in
                          (f"  - name: {_yaml(reference_field(n))}", "    dtype: image")]
    return lines


def shard_references(fh, fmt: str) -> int:
    """The most reference images a problem of one shard of ``fmt`` has (Parquet: 1 when it
    has the ``references`` column), from its headers only; ``fh``: the shard, open for
    binary reading (seekable)."""
    if fmt == "parquet":
        import pyarrow.parquet as pq  # pyarrow: only for a Parquet corpus

        return int(REFERENCES_COLUMN in pq.read_schema(fh).names)
    with tarfile.open(fileobj=fh) as tar:
        return max((reference_number(name.partition(".")[2]) or 0 for name in tar.getnames()),
                   default=0)


def corpus_references(writer) -> int:
    """The most reference images a problem of ``writer``'s finished shards (under its local
    ``root``) has: :func:`shard_references` of each."""
    if writer.format not in _FEATURES:
        return 0
    most = 0
    for name in writer.shard_files():
        with open(writer.root / name, "rb") as fh:
            most = max(most, shard_references(fh, writer.format))
    return most


def card_text(suite, layout: dict, split_bytes: dict[str, int], references: int = 0) -> str:
    """The card of ``suite`` written in ``layout`` (a writer's ``options()``) as shards of
    ``split_bytes[split]`` bytes a split; ``references``: :func:`corpus_references`."""
    fmt = layout["format"]
    n = len(suite)
    counts = split_counts(suite, layout.get("held_out", 0))
    shard_bytes = sum(split_bytes.values())
    per_task = Counter(suite.spec(i).folder for i in range(n))
    command = generate_command(suite, layout)
    benchmark = getattr(suite, "benchmark", "paintkit")
    lines = ["---", f"license: {LICENSE}", "task_categories:", "- image-to-image",
             "tags:", "- image-editing", "- synthetic", "- paintkit",
             f"size_categories:\n- {_size_category(n)}",
             f"pretty_name: {_yaml(f'{benchmark} (paintkit {__version__})')}",
             "configs:", "- config_name: default", "  data_files:"]
    for split in counts:
        lines += [f"  - split: {split}",
                  f"    path: {_yaml(_split_glob(fmt, split, len(counts) == 1))}"]
    lines += ["dataset_info:"]
    lines.append("  features:")
    lines += _feature_lines(fmt, references)
    lines.append("  splits:")
    for split, count in counts.items():
        lines += [f"  - name: {split}", f"    num_bytes: {split_bytes.get(split, 0)}",
                  f"    num_examples: {count}"]
    lines += [f"  download_size: {shard_bytes}",
              f"  dataset_size: {shard_bytes}", "paintkit:",
              f"  version: {_yaml(__version__)}", f"  format: {fmt}",
              f"  command: {_yaml(command) if command else 'null'}",
              f"  problems: {n}",
              *([f"  held_out: {layout['held_out']}"] if len(counts) > 1 else []),
              "  problems_per_task:"]
    lines += [f"    {_yaml(task)}: {count}" for task, count in sorted(per_task.items())]
    lines.append("---")
    body = [
        "", f"# {benchmark}", "",
        f"{n:,} exact image-editing problems made by [paintkit](https://pypi.org/project/"
        f"paintkit/) {__version__}: each an input image, an instruction and the one correct "
        "answer image, scored pixel by pixel. `manifest.json` lists every file with its "
        "SHA-256; `paintkit verify FOLDER` checks a copy.", "",
        "## Loading", "", "```python", "import datasets",
        'ds = datasets.load_dataset("FOLDER_OR_HUB_ID", split="train")',
        *(['held_out = datasets.load_dataset("FOLDER_OR_HUB_ID", split="test")']
          if len(counts) > 1 else []), "",
        "import paintkit", 'problems = paintkit.load("FOLDER", tasks=["translation"])',
        "```", "",
        *([f"`train` holds {counts[TRAIN]:,} problems and `test` the {counts[TEST]:,} held "
           f"out (a fraction of {layout['held_out']} chosen by a hash of each `problem_id`, "
           "the same on every machine); for more held-out problems generate another "
           "`--namespace` (a fresh set of the same tasks)."] if len(counts) > 1 else
          ["All problems form the `train` split; for held-out problems generate another "
           "`--namespace` (a fresh set of the same tasks)."]), "",
        "## Problems per task", "", "| task | problems |", "| --- | ---: |",
        *(f"| {task} | {count:,} |" for task, count in sorted(per_task.items())), "",
        "## How it was made", "",
        *(["```", command.replace("--out DIR", "--out DIR \\\n   "), "```"] if command else
          ["The suite is described in `manifest.json` (`suite`)."]), "",
        f"License: {LICENSE} (the problems are paintkit's output).", ""]
    return "\n".join(lines + body)


def card_bytes(writer, file_bytes: dict[str, int], references: int | None = None
               ) -> bytes | None:
    """The card a writer's corpus gets (UTF-8), or None for a format without one;
    ``file_bytes``: each shard file's size (``{name: bytes}``); ``references``: the most
    reference images a problem of the corpus has (None: read from the shards under the
    writer's root, :func:`corpus_references`)."""
    if writer.format not in _FEATURES:
        return None
    split_bytes: dict[str, int] = {}
    for name, size in file_bytes.items():
        split = writer.split_of_file(name)
        split_bytes[split] = split_bytes.get(split, 0) + size
    return card_text(writer.suite, writer.options(), split_bytes,
                     corpus_references(writer) if references is None
                     else references).encode("utf-8")
