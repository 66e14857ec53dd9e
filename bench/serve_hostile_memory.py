"""RSS of a ``paintkit serve --device cpu`` process under hostile requests (docs/serve.md,
"Memory under hostile requests"): a PNG with a second IHDR of 8000x8000, a batch of 200,000
tiny items, four keys asking for 200,000 objects, twelve anonymous 56 MB bodies to
``/health`` on a token-protected service. One JSON line per case (RSS and peak in MiB).

    python bench/serve_hostile_memory.py        # $PORT, 8799 by default
"""

from __future__ import annotations

import base64
import io
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib

import httpx
import numpy as np
from PIL import Image

PORT = int(os.environ.get("PORT", "8799"))
URL = f"http://127.0.0.1:{PORT}"
TOKEN = "bench-token"
AUTH = {"authorization": f"Bearer {TOKEN}"}
KEY = "paintbench-translation-baseline@256x256-amount-000000"


def status_mib(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as fh:
        line = next(line for line in fh if line.startswith(field))
    return int(line.split()[1]) // 1024


def two_ihdr_png(side: int) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data))

    buffer = io.BytesIO()
    Image.fromarray(np.zeros((side, side), np.uint8)).save(buffer, format="PNG")
    png = buffer.getvalue()
    return png[:8] + chunk(b"IHDR", struct.pack(">IIBBBBB", 256, 256, 8, 0, 0, 0, 0)) + png[8:]


def with_health_probe(fn):
    """``(fn(), {"health_s": seconds /health took, asked 0.5 s into fn})``."""
    probe = {}

    def ask():
        time.sleep(0.5)
        start = time.monotonic()
        try:
            httpx.get(URL + "/health", timeout=60)
            probe["health_s"] = round(time.monotonic() - start, 2)
        except httpx.HTTPError as exc:
            probe["health_s"] = type(exc).__name__
    thread = threading.Thread(target=ask)
    thread.start()
    result = fn()
    thread.join()
    return result, probe


def in_threads(n: int, fn) -> list:
    results = []
    threads = [threading.Thread(target=lambda: results.append(fn())) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(set(map(str, results)))


def huge_count() -> int:
    key = "paintbench-translation-baseline@n200000-amount-000000"
    return httpx.post(f"{URL}/v1/score/{key}?shape=8,8,3", content=b"\0" * 192, timeout=300,
                      headers={**AUTH, "content-type": "application/octet-stream"}).status_code


def body_to_health() -> str:
    size = 56 << 20
    with socket.create_connection(("127.0.0.1", PORT), timeout=120) as sock:
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: {size}\r\n\r\n".encode())
        try:
            for _ in range(size >> 20):
                sock.sendall(b"x" * (1 << 20))
        except OSError:  # answered and closed before the body was sent
            pass
        return sock.recv(64).split(b"\r\n")[0].decode()


def main() -> None:
    server = subprocess.Popen([sys.executable, "-m", "paintkit", "serve", "--port", str(PORT),
                               "--device", "cpu", "--log-level", "warning"],
                              env={**os.environ, "PAINTKIT_SERVE_TOKEN": TOKEN},
                              stderr=subprocess.DEVNULL)
    pid = server.pid
    while True:
        try:
            if httpx.get(URL + "/health").status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raw = np.zeros((256, 256, 3), np.uint8).tobytes()
    httpx.post(f"{URL}/v1/score/{KEY}?shape=256,256,3", content=raw, timeout=120,
               headers={**AUTH, "content-type": "application/octet-stream"})
    print(json.dumps({"case": "idle after one request", "rss_mib": status_mib(pid, "VmRSS")}))

    png = two_ihdr_png(8000)
    item = {"problem_id": KEY, "image": {"raw": base64.b64encode(b"\0\0\0").decode(),
                                         "shape": [1, 1, 3]}}
    batch = json.dumps({"items": [item] * 200_000}).encode()
    cases = {
        f"PNG with a second IHDR of 8000x8000 ({len(png)} bytes)": lambda: httpx.post(
            f"{URL}/v1/score/{KEY}", content=png, timeout=120,
            headers={**AUTH, "content-type": "image/png"}).status_code,
        f"200,000 items ({len(batch)} bytes)": lambda: with_health_probe(lambda: httpx.post(
            URL + "/v1/score", content=batch, timeout=300,
            headers={**AUTH, "content-type": "application/json"}).status_code),
        "four @n200000 keys at once": lambda: with_health_probe(lambda: in_threads(4, huge_count)),
        "12 anonymous 56 MB bodies to /health": lambda: in_threads(12, body_to_health),
    }
    for name, case in cases.items():
        start, before = time.monotonic(), status_mib(pid, "VmRSS")
        answer = case()
        print(json.dumps({"case": name, "answer": answer, "s": round(time.monotonic() - start, 2),
                          "rss_before_mib": before, "rss_after_mib": status_mib(pid, "VmRSS"),
                          "peak_mib": status_mib(pid, "VmHWM")}), flush=True)
    server.send_signal(signal.SIGTERM)
    server.wait(60)


if __name__ == "__main__":
    main()
