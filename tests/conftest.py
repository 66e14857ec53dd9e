"""How many pytest-xdist workers ``-n auto`` (pyproject's default) starts.

One per usable CPU, plus one: a fair share of the suite waits rather than computes (child
processes starting, a Ray cluster coming up, servers answering over HTTP), so a worker per
CPU leaves the CPUs idle about a third of the time on a 2-core machine. Measured there with
Numba's kernel cache warm: 5.1-5.3 min with 2 workers, 4.6-4.9 min with 3
(docs/performance.md, "The test suite"). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still overrides it.
"""

from __future__ import annotations

import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (usable or 1) + 1
