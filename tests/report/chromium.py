"""The report's browser tests' Chromium: Debian's binary, its flags, and one persistent
context (Playwright) at a 1400 x 900 viewport, device scale 1."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--font-render-hinting=none", "--force-color-profile=srgb"]
#: The screenshot's viewport: the top of the page (header, controls, leaderboards).
VIEWPORT = {"width": 1400, "height": 900}
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")


@contextmanager
def chromium_context() -> Iterator:
    """A Playwright persistent context of Debian's Chromium (skips without Playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="needs Playwright for Python (pip install -e '.[dev]')")
    with sync_api.sync_playwright() as pw, tempfile.TemporaryDirectory() as user_dir:
        ctx = pw.chromium.launch_persistent_context(
            user_dir, executable_path=str(CHROMIUM), args=FLAGS, headless=True,
            viewport=VIEWPORT, device_scale_factor=1)
        try:
            yield ctx
        finally:
            ctx.close()
