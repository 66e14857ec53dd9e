"""The service keeps freed memory: a request's buffers reuse the last one's pages."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# A fresh process (the test process's malloc is already tuned by any service it started):
# page faults of ten requests' worth of body buffers, before and after reuse_freed_memory.
SCRIPT = """
import json, resource
from paintkit.worker_memory import reuse_freed_memory

def requests():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        body = bytearray()
        for _ in range(12):
            body += b"\\1" * (256 << 10)  # a 3 MiB body arriving in 256 KiB chunks
        data = bytes(body)
        del body, data
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

requests()
plain = requests()
kept = reuse_freed_memory()
requests()
print(json.dumps({"kept": kept, "plain": plain, "tuned": requests()}))
"""


def test_freed_memory_is_reused_without_page_faults():
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's malloc only")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)}
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    got = json.loads(out.strip().splitlines()[-1])
    if not got["kept"]:
        pytest.skip("not glibc")
    # 3 MiB of fresh pages per request with glibc's defaults (768 faults each at least)
    assert got["plain"] > 5000, got
    assert got["tuned"] < got["plain"] // 20, got
