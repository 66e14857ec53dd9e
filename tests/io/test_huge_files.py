"""An output file above the size limit is refused from its size, before a byte is read: the
row is missing with the reason, and a memory-limited eval finishes (issue 23, item 2).
"Huge" files are sparse: 6 GiB on paper, no disk space."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

from paintkit.eval import read_rows
from paintkit.io.images import MAX_FILE_BYTES, ImageTooLargeError, load_rgb
from paintkit.layout.results import PROBLEM_STATS_NAME as RESULTS_NAME
from paintkit.metrics import score

SIX_GIB = 6 << 30


def _sparse(path, size=SIX_GIB):
    path.unlink(missing_ok=True)
    with open(path, "wb") as fh:
        fh.truncate(size)
    return path


def test_load_rgb_refuses_a_huge_file_before_reading(tmp_path):
    path = _sparse(tmp_path / "big.png")
    with pytest.raises(ImageTooLargeError, match=f"file of {SIX_GIB} bytes exceeds the limit "
                       f"of {MAX_FILE_BYTES} bytes"):
        load_rgb(path)
    just_over = _sparse(tmp_path / "over.png", MAX_FILE_BYTES + 1)
    with pytest.raises(ImageTooLargeError):
        load_rgb(just_over)


def test_score_counts_a_huge_output_as_missing(tmp_path):
    import numpy as np

    image = np.zeros((4, 4, 3), np.uint8)
    (result,) = score([_sparse(tmp_path / "o.png")], [image], [image])
    assert not result.has_output and "exceeds the limit" in result.error


def _limit_memory():
    limit = 3 << 30  # 3 GiB of address space: enough for paintkit, not for a 6 GiB read
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_memory_limited_eval_records_the_huge_output_as_missing(tree, tmp_path):
    bench, outputs = tree
    huge = _sparse(outputs / "noisy" / "PaintBench" / "task_0" / "0000_output.png")
    out = tmp_path / "r"
    command = [sys.executable, "-m", "paintkit.cli.main", "eval", "--benchmarks", str(bench),
               "--outputs", str(outputs), "--out", str(out), "--jobs", "1", "--quiet"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120,
                         preexec_fn=_limit_memory, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    rows = {(r["model"], r["task"], r["idx"]): r for r in read_rows(out / RESULTS_NAME)}
    row = rows[("noisy", "task_0", 0)]
    assert not row["has_output"]
    assert row["error"] == f"{huge}: file of {SIX_GIB} bytes exceeds the limit of " \
        f"{MAX_FILE_BYTES} bytes (1 GiB); not read"
    assert sum(r["has_output"] for r in rows.values()) == len(rows) - 1
