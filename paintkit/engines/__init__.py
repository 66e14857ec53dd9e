"""Engines run a suite: in this process, in a local process pool (default) or on Ray.

>>> from paintkit.suites import Suite
>>> from paintkit.engines import write_suite
>>> summary = write_suite(Suite(tasks=["translation"], per_cell=2), "out/demo")  # doctest: +SKIP
>>> print(summary.describe())  # doctest: +SKIP

Every engine gives the same bytes: a problem is a pure function of its spec, and the
driver (``driver.py``) writes results in suite order.
"""

from paintkit.engines.driver import (
    ENGINES,
    generate,  # deprecated alias of write_suite
    make_engine,
    write_suite,
)
from paintkit.engines.local import Engine, InProcessEngine, ProcessPoolEngine
from paintkit.engines.summary import GenerateSummary
from paintkit.engines.work import WorkOptions, run_unit
from paintkit.io.progress import Progress  # re-exported: the one progress line of generate and eval
from paintkit.parallel import default_jobs  # the one job count (paintkit/parallel.py)

__all__ = [
    "ENGINES", "Engine", "GenerateSummary", "InProcessEngine", "ProcessPoolEngine", "Progress",
    "WorkOptions", "default_jobs", "generate", "make_engine", "run_unit", "write_suite",
]
