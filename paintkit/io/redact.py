"""Secrets never leave a run: URL credentials and known keys are cut from what paintkit records.

Everything ``paintkit run`` writes or prints about a run (``run_manifest.json``,
``run_log.jsonl``, the reasons on stderr) passes through a :class:`Redactor`, and every
command line paintkit records (stats provenance, reports) through :func:`redact_url_text`:

- a URL's user name and password (``http://user:SECRET@host/v1``) become ``***@``;
- a URL query value whose name says it is a credential (``key``, ``api_key``, ``token``,
  ``access_token``, ``sig``, ``signature``, ``secret``, ``password``, ...) becomes ``***``;
- every known secret (the API keys the run's clients hold, and the environment's variables
  named ``*KEY``, ``*TOKEN``, ``*SECRET``, ``*PASSWORD`` of 8 characters or more) becomes
  ``***`` wherever it appears, so a server that echoes the ``Authorization`` header in an
  error body leaves no trace of the key.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

MASK = "***"
#: Query parameter names treated as credentials (case-insensitive, ``-`` same as ``_``).
_QUERY_SECRET = re.compile(
    r"(?i)([?&;](?:[a-z0-9_.\-]*(?:key|token|secret|password|passwd|pwd|sig|signature|auth|"
    r"credential|session)[a-z0-9_.\-]*)=)[^&#;\s\"'<>]*")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/?#@\s\"'<>]+@")
_SECRET_VARIABLE = re.compile(r"(?i).*(KEY|TOKEN|SECRET|PASSWORD)$")
_MIN_SECRET = 8


def redact_url_text(text: str) -> str:
    """``text`` with the credentials of every URL in it masked (see the module docstring)."""
    if "://" not in text and "=" not in text:
        return text
    return _QUERY_SECRET.sub(r"\1" + MASK, _USERINFO.sub(r"\1" + MASK + "@", text))


def environment_secrets(environ=None) -> list[str]:
    """Values of the environment's credential-named variables (8 characters or more)."""
    environ = os.environ if environ is None else environ
    return [value for name, value in environ.items()
            if _SECRET_VARIABLE.match(name) and len(value) >= _MIN_SECRET]


class Redactor:
    """Masks URL credentials and the given ``secrets`` in text and in JSON-like values."""

    def __init__(self, secrets: Iterable[str | None] = ()):
        found = {s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET}
        found.update(environment_secrets())
        self.secrets = sorted(found, key=len, reverse=True)  # longest first: no partial masks

    def text(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return redact_url_text(text)

    def value(self, value):
        """``value`` (dicts, lists, strings, numbers) with every string redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.value(v)
                    for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value
