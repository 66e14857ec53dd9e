"""A loopback (127.0.0.1) server speaking the endpoints the real API clients call.

- ``POST /v1/images/edits`` (OpenAI images.edit, multipart form): answers the inverted
  input image as ``b64_json`` with token ``usage``;
- ``POST /v1beta/models/<model>:generateContent`` (google-genai): a text part and the
  inverted input as ``inlineData``, with ``usageMetadata``;
- ``POST /v1/chat/completions`` (OpenAI chat, the planner): a plan naming the instruction.

``behaviour(key, attempt)`` picks what each request gets: ``"ok"``, ``"429"``, ``"500"``,
``"timeout"`` (answers after ``hang`` seconds), ``"slow"`` (ok after ``delay`` seconds) or
``"garbage"`` (ok, but the image bytes are not an image), ``"echo401"`` (a 401 whose body
echoes the request's credential headers), ``"html"`` (status 200 with an HTML page),
``"drip"`` (a 200 whose body arrives one byte every ``drip`` seconds, for at most
``drip_for`` seconds: the server's own thread never outlives that), ``"huge"`` (a PNG whose
header says 16384 x 16384, with a cut-short body). ``text`` replaces the answer's text
(``revised_prompt``, Gemini's text part). ``key`` identifies the problem
(the instruction and a hash of the input), ``attempt`` counts its requests from 1. The
server records every request's start time and the most requests in flight at once, and in
``received`` what each request carried: its ``kind``, every image in the order sent (the
input first; the answer is always the inverted input) and where they were (``fields``: the
OpenAI form's file field names, ``image`` or ``image[]`` each; ``contents``: how many
Gemini contents held them).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import struct
import threading
import time
import zlib
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image, ImageOps


def _invert_png(data: bytes) -> bytes:
    image = ImageOps.invert(Image.open(io.BytesIO(data)).convert("RGB"))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _huge_png_header(side: int = 16384) -> bytes:
    """A PNG whose header says ``side`` x ``side`` RGB, with a cut-short body: whatever
    decodes it past the header fails, so only a refusal from the header passes a test."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 4096))


class Loopback:
    def __init__(self, behaviour=None, *, delay: float = 0.0, hang: float = 5.0,
                 drip: float = 0.5, drip_for: float = 10.0, text: str | None = None):
        self.behaviour = behaviour or (lambda key, attempt: "ok")
        self.delay, self.hang = delay, hang
        self.drip, self.drip_for = drip, drip_for
        self.text = text  # the answer's text (revised_prompt / Gemini text part) when given
        self.headers: list[dict] = []
        self.attempts: dict[str, int] = {}
        self.starts: list[float] = []
        self.paths: list[str] = []
        self.in_flight = self.max_in_flight = 0
        self.prompts: list[str] = []
        self.received: list[dict] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                server._handle(self)


        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- request handling ---------------------------------------------------------------

    def _read(self, handler) -> bytes:
        length = int(handler.headers.get("content-length", 0))
        return handler.rfile.read(length)

    def _send(self, handler, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body).encode()
        try:
            handler.send_response(status)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
            pass

    def _send_raw(self, handler, status: int, data: bytes, content_type: str) -> None:
        try:
            handler.send_response(status)
            handler.send_header("content-type", content_type)
            handler.send_header("content-length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _drip(self, handler) -> None:
        """Headers at once, then one byte of a JSON body every ``drip`` seconds; stops
        after ``drip_for`` seconds whatever the client does (bounded by the server)."""
        body = b'{"created": 0, "data": []}' + b" " * 100_000
        end = time.monotonic() + self.drip_for
        try:
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(body)))
            handler.end_headers()
            handler.wfile.flush()
            for byte in body:
                if time.monotonic() >= end:
                    break
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(self.drip)
        except (BrokenPipeError, ConnectionResetError):
            pass
        handler.close_connection = True

    def _parse(self, handler, body: bytes):
        """(kind, image bytes, prompt) of a request (the first image: the input); every
        image it carried goes to ``received``."""
        path, record = handler.path, {}
        if path.endswith("/images/edits"):
            message = BytesParser(policy=HTTP).parsebytes(
                b"content-type: " + handler.headers["content-type"].encode() + b"\r\n\r\n" + body)
            parts = [(part.get_param("name", header="content-disposition"),
                      part.get_payload(decode=True)) for part in message.iter_parts()]
            files = [(name, data) for name, data in parts if name in ("image", "image[]")]
            record = {"kind": "openai", "images": [data for _, data in files],
                      "fields": [name for name, _ in files]}
            prompt = dict(parts)["prompt"].decode()
        elif path.endswith("/chat/completions"):
            content = json.loads(body)["messages"][-1]["content"]
            record = {"kind": "chat", "images": [
                base64.b64decode(c["image_url"]["url"].split(",", 1)[1])
                for c in content if c["type"] == "image_url"]}
            prompt = next(c["text"] for c in content if c["type"] == "text")
        elif ":generateContent" in path:
            contents = json.loads(body)["contents"]
            parts = [p for c in contents for p in c["parts"]]
            record = {"kind": "gemini", "contents": len(contents), "images": [
                base64.urlsafe_b64decode(p["inlineData"]["data"]
                                         + "=" * (-len(p["inlineData"]["data"]) % 4))
                for p in parts if "inlineData" in p]}
            prompt = next(p["text"] for p in parts if "text" in p)
        else:  # not naming the path: a test's URL may hold credentials the run must hide
            raise ValueError("not an endpoint of this fake")
        with self.lock:
            self.received.append({**record, "prompt": prompt})
        return record["kind"], record["images"][0], prompt

    def _handle(self, handler) -> None:
        body = self._read(handler)
        with self.lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.starts.append(time.monotonic())
            self.paths.append(handler.path)
            self.headers.append(dict(handler.headers))
        try:
            kind, image, prompt = self._parse(handler, body)
            key = prompt + "|" + hashlib.sha256(image).hexdigest()[:12]
            with self.lock:
                attempt = self.attempts[key] = self.attempts.get(key, 0) + 1
                self.prompts.append(prompt)
            action = self.behaviour(key, attempt) if kind != "chat" else "ok"
            if action == "429":
                self._send(handler, 429, {"error": {"message": "rate limited", "code": 429,
                                                    "status": "RESOURCE_EXHAUSTED"}},
                           {"retry-after": "0"})
                return
            if action == "500":
                self._send(handler, 500, {"error": {"message": "server error", "code": 500,
                                                    "status": "INTERNAL"}})
                return
            if action == "echo401":
                echoed = " ".join(f"{name}: {handler.headers.get(name)}" for name in
                                  ("authorization", "x-goog-api-key") if handler.headers.get(name))
                self._send(handler, 401, {"error": {"message": f"invalid credentials ({echoed})",
                                                    "code": 401, "status": "UNAUTHENTICATED"}})
                return
            if action == "html":
                self._send_raw(handler, 200, b"<!DOCTYPE html><html><body>Bad gateway</body></html>",
                               "text/html")
                return
            if action == "drip":
                self._drip(handler)
                return
            if action == "timeout":
                time.sleep(self.hang)
            if action == "slow" or self.delay:
                time.sleep(self.delay)
            out = b"\x89PNG\r\n\x1a\n garbage" if action == "garbage" else \
                _huge_png_header() if action == "huge" else _invert_png(image)
            b64 = base64.b64encode(out).decode()
            if kind == "openai":
                item = {"b64_json": b64, **({"revised_prompt": self.text} if self.text else {})}
                self._send(handler, 200, {"created": 0, "data": [item],
                                          "usage": {"input_tokens": 10, "output_tokens": 100,
                                                    "total_tokens": 110,
                                                    "input_tokens_details": {
                                                        "image_tokens": 8, "text_tokens": 2}}})
            elif kind == "gemini":
                self._send(handler, 200, {
                    "candidates": [{"content": {"role": "model", "parts": [
                        {"text": self.text or f"I will edit: {prompt}"},
                        {"inlineData": {"mimeType": "image/png", "data": b64}}]},
                        "finishReason": "STOP"}],
                    "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 200,
                                      "thoughtsTokenCount": 5, "totalTokenCount": 225}})
            else:
                self._send(handler, 200, {
                    "id": "c", "object": "chat.completion", "created": 0, "model": "planner",
                    "choices": [{"index": 0, "finish_reason": "stop", "message": {
                        "role": "assistant", "content": f"1. Find the shape. 2. Do: {prompt}"}}],
                    "usage": {"prompt_tokens": 30, "completion_tokens": 12, "total_tokens": 42}})
        finally:
            with self.lock:
                self.in_flight -= 1
