"""Which matplotlib draws the charts: exact bytes need one release, scoring needs none.

TinyGrafixBench pixels come from matplotlib's Agg rasteriser and font hinting, which may
change between releases, so the benchmark's bytes (and the pinned hashes of the tests) are
made with :data:`CHART_MATPLOTLIB`. paintkit itself installs next to any recent matplotlib
(``paintkit[charts]`` pins this release): scoring, stats and the report's plots work with
any. Generating a chart checks the version first and refuses another one with a one-line
error, unless asked to draw with it anyway (``any_matplotlib=True``, ``paintkit generate
--any-matplotlib``), which records the version in the problem's metadata and the output's
manifest so such problems are never mistaken for the benchmark's.
"""

from __future__ import annotations

#: The matplotlib release the benchmark's chart bytes are made with.
CHART_MATPLOTLIB = "3.11.2"


class MatplotlibVersionError(ValueError):
    """The installed matplotlib is not :data:`CHART_MATPLOTLIB` (a ``ValueError``: the
    command line prints it as one line)."""


def installed_matplotlib() -> str:
    """The installed matplotlib's version string."""
    import matplotlib

    return matplotlib.__version__


def check_matplotlib(any_version: bool = False) -> str:
    """The installed matplotlib's version; :class:`MatplotlibVersionError` when it is not
    :data:`CHART_MATPLOTLIB` and ``any_version`` is false."""
    version = installed_matplotlib()
    if version != CHART_MATPLOTLIB and not any_version:
        raise MatplotlibVersionError(
            f"TinyGrafixBench charts are byte-identical only with matplotlib {CHART_MATPLOTLIB}, "
            f"found {version}: pip install 'paintkit[charts]' (matplotlib=={CHART_MATPLOTLIB}), or "
            f"draw with {version} anyway with --any-matplotlib (any_matplotlib=True; the version "
            "is recorded in the metadata and manifest)")
    return version
