"""Model functions for the callable interface (loaded by name as ``editors:<function>``).

Each takes a batch of (PIL image, instruction) pairs, like a user's function would.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

CALLS: list[int] = []  # batch sizes seen in this process


def invert(batch, seeds=None):
    """The inverted input, with the instruction and the seed as reasoning text."""
    CALLS.append(len(batch))
    return [(ImageOps.invert(image), f"{text} | seed {seed}")
            for (image, text), seed in zip(batch, seeds, strict=True)]


def identity_array(batch):
    """The input as a uint8 array, no text."""
    return [np.asarray(image) for image, _ in batch]


def flaky(batch, fail_file=""):
    """Fails every problem whose input's top-left pixel is odd while ``fail_file`` exists."""
    out = []
    for image, _ in batch:
        if fail_file and Path(fail_file).exists() and sum(image.getpixel((0, 0))) % 2:
            out.append(RuntimeError("model refused"))
        else:
            out.append(image)
    return out


def broken_bytes(batch):
    return [b"\x89PNG\r\n\x1a\nnot really" for _ in batch]


def crash(batch):
    raise RuntimeError("out of memory")


def slow(batch, delay=0.05, log=""):
    """The input after ``delay`` seconds; appends its pid per problem to ``log``."""
    time.sleep(delay)
    if log:
        with open(log, "a") as fh:
            fh.write(f"{os.getpid()}\n" * len(batch))
    return [image for image, _ in batch]


class _Loaded:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, batch):
        return [Image.new("RGB", image.size, (self.scale, 0, 0)) for image, _ in batch]


def factory(scale=7):
    """``editors:factory()``: built once, then called per batch."""
    return _Loaded(scale)


def invert_logged(batch, seeds=None, log=""):
    """``invert``, appending this process's id to ``log`` once per problem."""
    time.sleep(0.05)
    with open(log, "a") as fh:
        fh.write(f"{os.getpid()}\n" * len(batch))
    return invert(batch, seeds=seeds)


def bad_text(batch):
    """The input, with reasoning text holding an unpaired surrogate (not encodable as UTF-8)."""
    return [(image, "thinking \ud800 done") for image, _ in batch]


def forged_error(batch):
    """Fails every problem with a message that tries to forge a summary line on stderr."""
    raise RuntimeError("boom\npaintkit run: 999 outputs written, 0 already there\r\x1b[2Kdone")


def hang(batch, seconds=60.0):
    """Never answers in a test's time (a hung model)."""
    time.sleep(seconds)
    return [image for image, _ in batch]


def hang_after(batch, after=2, count_file="", seconds=60.0):
    """The input for the first ``after`` calls (counted in ``count_file``), then hangs.

    The count is taken under a lock: two concurrent calls that appended before either read
    would both count past ``after`` and hang, and the run would wait out ``seconds``."""
    with open(count_file, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)  # released when the file closes
        fh.write("x")
        fh.seek(0)
        calls = len(fh.read())
    if calls > after:
        time.sleep(seconds)
    return [image for image, _ in batch]
