"""A PNG whose header lies to the size check: the decoder reads no more than was checked."""

from __future__ import annotations

import io
import struct
import zlib

import httpx
import numpy as np
import pytest
from PIL import Image

from paintkit.io.images import ImageDecodeError, decode_rgb_bytes, png_header


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def two_ihdr_png(first: tuple[int, int], real: tuple[int, int]) -> bytes:
    """A grey PNG of size ``real`` (what Pillow decodes) with an IHDR of size ``first``
    put before its own: the header check reads the first, Pillow keeps the last."""
    buffer = io.BytesIO()
    Image.fromarray(np.zeros(real[::-1], np.uint8)).save(buffer, format="PNG")
    png = buffer.getvalue()
    decoy = _chunk(b"IHDR", struct.pack(">IIBBBBB", *first, 8, 0, 0, 0, 0))
    return png[:8] + decoy + png[8:]


def test_png_header_refuses_a_second_ihdr():
    png = two_ihdr_png((256, 256), (1024, 1024))
    with pytest.raises(ImageDecodeError, match="more than one IHDR"):
        png_header(png, "upload.png")
    with pytest.raises(ImageDecodeError, match="upload.png: more than one IHDR"):
        decode_rgb_bytes(png, "upload.png")
    buffer = io.BytesIO()  # one IHDR, ancillary chunks before IDAT: read as before
    Image.fromarray(np.zeros((5, 7, 3), np.uint8)).save(buffer, format="PNG", dpi=(72, 72))
    assert png_header(buffer.getvalue()) == (7, 5, 8, 2)


def test_service_refuses_a_second_ihdr_past_max_pixels(start_service, problems):
    service = start_service(max_pixels=300 * 300)
    pid = problems[0].metadata["problem_id"]
    body = two_ihdr_png((256, 256), (2048, 2048))  # 4 M pixels behind a 256x256 header
    answer = httpx.post(f"{service.url}/v1/score/{pid}", content=body,
                        headers={"content-type": "image/png"})
    assert answer.status_code == 422, answer.text
    assert "more than one IHDR" in answer.json()["error"]
    assert httpx.get(service.url + "/health").status_code == 200


def test_service_passes_its_max_pixels_to_the_decoder(start_service, problems, monkeypatch):
    import paintkit.serve.images as images

    limits = []
    real = images.decode_rgb_bytes

    def spy(data, where="<bytes>", max_pixels=1 << 28, limit_text=""):
        limits.append(max_pixels)
        return real(data, where, max_pixels, limit_text)

    monkeypatch.setattr(images, "decode_rgb_bytes", spy)
    service = start_service(max_pixels=300 * 300)
    problem = problems[0]
    buffer = io.BytesIO()
    Image.fromarray(problem.answer).save(buffer, format="PNG")
    answer = httpx.post(f"{service.url}/v1/score/{problem.metadata['problem_id']}",
                        content=buffer.getvalue(), headers={"content-type": "image/png"})
    assert answer.status_code == 200, answer.text
    assert limits == [300 * 300]
