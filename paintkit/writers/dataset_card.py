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

All problems form the ``train`` split: a shard holds a contiguous run of problems in suite
order, so a held-out split by problem (as the JSONL trainer formats make, one problem in ten)
cannot be told apart by file. Hold problems out with ``paintkit.load(FOLDER, tasks=[...])``
or ``--namespace`` (a fresh set of problems) instead.
"""

from __future__ import annotations

import json
from collections import Counter

from paintkit._version import __version__
from paintkit.suites import Suite

__all__ = ["CARD_NAME", "card_bytes", "card_text", "generate_command"]

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
_SHARD_GLOB = {"parquet": "shard-*.parquet", "webdataset": "shard-*.tar"}


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
    if "shards" in layout:
        parts.append(f"--shards {layout['shards']}")
    else:
        parts.append(f"--shard-size {layout['shard_size']}")
    return " ".join(parts)


def _yaml(value) -> str:
    """A YAML scalar (JSON strings are valid YAML)."""
    return json.dumps(value) if isinstance(value, str) else str(value).lower() \
        if isinstance(value, bool) else str(value)


def card_text(suite, layout: dict, shard_bytes: int) -> str:
    """The card of ``suite`` written in ``layout`` (a writer's ``options()``) as shards of
    ``shard_bytes`` bytes in all."""
    fmt = layout["format"]
    n = len(suite)
    per_task = Counter(suite.spec(i).folder for i in range(n))
    command = generate_command(suite, layout)
    benchmark = getattr(suite, "benchmark", "paintkit")
    lines = ["---", f"license: {LICENSE}", "task_categories:", "- image-to-image",
             "tags:", "- image-editing", "- synthetic", "- paintkit",
             f"size_categories:\n- {_size_category(n)}",
             f"pretty_name: {_yaml(f'{benchmark} (paintkit {__version__})')}",
             "configs:", "- config_name: default", "  data_files:", "  - split: train",
             f"    path: {_yaml(_SHARD_GLOB[fmt])}", "dataset_info:"]
    lines.append("  features:")
    for name, dtype in _FEATURES[fmt]:
        lines += [f"  - name: {_yaml(name)}", f"    dtype: {dtype}"]
    lines += ["  splits:", "  - name: train", f"    num_bytes: {shard_bytes}",
              f"    num_examples: {n}", f"  download_size: {shard_bytes}",
              f"  dataset_size: {shard_bytes}", "paintkit:",
              f"  version: {_yaml(__version__)}", f"  format: {fmt}",
              f"  command: {_yaml(command) if command else 'null'}",
              f"  problems: {n}", "  problems_per_task:"]
    lines += [f"    {_yaml(task)}: {count}" for task, count in sorted(per_task.items())]
    lines.append("---")
    body = [
        "", f"# {benchmark}", "",
        f"{n:,} exact image-editing problems made by [paintkit](https://pypi.org/project/"
        f"paintkit/) {__version__}: each an input image, an instruction and the one correct "
        "answer image, scored pixel by pixel. `manifest.json` lists every file with its "
        "SHA-256; `paintkit verify FOLDER` checks a copy.", "",
        "## Loading", "", "```python", "import datasets",
        'ds = datasets.load_dataset("FOLDER_OR_HUB_ID", split="train")', "",
        "import paintkit", 'problems = paintkit.load("FOLDER", tasks=["translation"])',
        "```", "",
        "All problems form the `train` split; for held-out problems generate another "
        "`--namespace` (a fresh set of the same tasks).", "",
        "## Problems per task", "", "| task | problems |", "| --- | ---: |",
        *(f"| {task} | {count:,} |" for task, count in sorted(per_task.items())), "",
        "## How it was made", "",
        *(["```", command.replace("--out DIR", "--out DIR \\\n   "), "```"] if command else
          ["The suite is described in `manifest.json` (`suite`)."]), "",
        f"License: {LICENSE} (the problems are paintkit's output).", ""]
    return "\n".join(lines + body)


def card_bytes(writer, shard_bytes: int) -> bytes | None:
    """The card a writer's corpus gets (UTF-8), or None for a format without one."""
    if writer.format not in _FEATURES:
        return None
    return card_text(writer.suite, writer.options(), shard_bytes).encode("utf-8")
