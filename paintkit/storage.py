"""Where generated files go: a local folder or an fsspec URL (``s3://``, ``gs://``, ``memory://``).

``--out`` is a URL when it starts with ``SCHEME://``: ``file:///data/corpus`` is the local
folder ``/data/corpus`` (never a folder named ``file:``), any other scheme goes through
`fsspec <https://filesystem-spec.readthedocs.io>`_ and the filesystem package of that
scheme (``s3fs`` for ``s3://``, ``gcsfs`` for ``gs://``). Credentials come from the
environment of each process, the way those packages read them (``AWS_*`` variables,
``~/.aws``, instance roles, ``GOOGLE_APPLICATION_CREDENTIALS``); paintkit never writes them
anywhere.

Every file appears whole or not at all: on a local or shared filesystem it is written to a
hidden temporary name and renamed; on an object store (``s3``, ``gs``, ``az``) an object
only exists once its upload completed; other filesystems get a temporary name and a move.

>>> Target.parse("file:///tmp/corpus").local_root
PosixPath('/tmp/corpus')
>>> str(Target.parse("memory://corpus"))
'memory://corpus'
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from paintkit.errors import one_line
from paintkit.io.atomic import write_bytes_atomic
from paintkit.io.redact import redact_url_text

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
#: Object stores, where one upload is atomic (no temporary object, no copy).
OBJECT_STORES = frozenset({"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "oss", "r2"})


def is_url(out) -> bool:
    """Whether ``out`` is a ``SCHEME://...`` URL (a ``Path`` never is)."""
    return isinstance(out, str) and bool(_URL.match(out))


def _is_temporary(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


@dataclass(frozen=True)
class Target:
    """An output root: ``url`` None for a local folder ``path``, else an fsspec URL whose
    filesystem path (no scheme) is ``path``. Cheap to pickle: Ray workers rebuild the
    filesystem from the URL with their own credentials."""

    path: str
    url: str | None = None

    @classmethod
    def parse(cls, out: str | os.PathLike) -> Target:
        """``out`` as a target: a path, ``file://`` URL (a local folder) or other fsspec URL.

        Raises ``ValueError`` (one line) for a URL fsspec cannot open (unknown scheme,
        filesystem package not installed)."""
        if not is_url(out):
            return cls(os.fspath(out))
        parts = urlsplit(out)
        scheme = parts.scheme.lower()
        if scheme in ("file", "local"):
            if parts.netloc not in ("", "localhost"):
                raise ValueError(f"--out {out}: a file:// URL names a local path "
                                 "(file:///abs/path), not a host")
            return cls(unquote(parts.path) or "/")
        try:
            import fsspec
        except ImportError:
            raise ValueError(f"--out {out}: URLs need fsspec: pip install 'paintkit[storage]'") from None
        try:
            fs_class = fsspec.get_filesystem_class(scheme)
        except (ImportError, ValueError) as exc:
            raise ValueError(f"--out {out}: cannot open {scheme}:// ({exc})") from None
        path = fs_class._strip_protocol(out).rstrip("/")
        return cls(path, out.rstrip("/"))

    def __str__(self) -> str:
        return self.url or self.path

    @property
    def local(self) -> bool:
        return self.url is None

    @property
    def local_root(self) -> Path:
        """The folder of a local target (``ValueError`` for a URL)."""
        if self.url is not None:
            raise ValueError(f"{self.url} is not a local folder")
        return Path(self.path)

    @property
    def scheme(self) -> str:
        return urlsplit(self.url).scheme.lower() if self.url else "file"

    def filesystem(self):
        """The fsspec filesystem of a URL target (instances are cached by fsspec), made from
        the whole URL as fsspec does (``ftp://HOST:PORT/...`` passes its host, port and user).

        Raises ``ValueError`` (one line, credentials masked) when it cannot be made (a host
        that does not answer, a refused login)."""
        import fsspec

        try:
            fs_class = fsspec.get_filesystem_class(self.scheme)
            return fsspec.filesystem(self.scheme, **fs_class._get_kwargs_from_urls(self.url))
        except Exception as exc:  # any filesystem package's own error: one line
            reason = one_line(exc) or type(exc).__name__
            raise ValueError(redact_url_text(f"--out {self.url}: cannot open {self.scheme}:// "
                                             f"({type(exc).__name__}: {reason})")) from None

    def location(self, relative: str) -> str:
        """``relative`` under the root, as a local path or a filesystem path."""
        return f"{self.path.rstrip('/')}/{relative}"

    def display(self, relative: str) -> str:
        """``relative`` under the root as the user wrote the root (for messages)."""
        return f"{str(self).rstrip('/')}/{relative}"

    # -- writing ----------------------------------------------------------------------
    def put_bytes(self, relative: str, data: bytes) -> None:
        """Store ``data`` as ``relative``, atomically (see the module docstring)."""
        if self.local:
            write_bytes_atomic(self.location(relative), data)
            return
        fs, final = self.filesystem(), self.location(relative)
        fs.makedirs(final.rsplit("/", 1)[0], exist_ok=True)
        if self.scheme in OBJECT_STORES:
            fs.pipe_file(final, data)
            return
        tmp = self._temporary(final)
        fs.pipe_file(tmp, data)
        fs.mv(tmp, final)

    def put_file(self, relative: str, local_file: str | os.PathLike) -> None:
        """Upload the finished local file ``local_file`` as ``relative``, atomically."""
        if self.local:
            final = Path(self.location(relative))
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(local_file, final)  # same filesystem: a rename
            return
        fs, final = self.filesystem(), self.location(relative)
        fs.makedirs(final.rsplit("/", 1)[0], exist_ok=True)
        if self.scheme in OBJECT_STORES:
            fs.put_file(os.fspath(local_file), final)
            return
        tmp = self._temporary(final)
        fs.put_file(os.fspath(local_file), tmp)
        fs.mv(tmp, final)

    @staticmethod
    def _temporary(final: str) -> str:
        folder, name = final.rsplit("/", 1)
        return f"{folder}/.{name}.{secrets.token_hex(4)}.tmp"

    # -- reading ----------------------------------------------------------------------
    def read_bytes(self, relative: str) -> bytes | None:
        """The bytes of ``relative``, None when it does not exist."""
        try:
            if self.local:
                return Path(self.location(relative)).read_bytes()
            return self.filesystem().cat_file(self.location(relative))
        except FileNotFoundError:
            return None

    def listing(self) -> set[str]:
        """Relative paths of every finished file under the root (no temporaries)."""
        found: set[str] = set()
        if self.local:
            root = self.path
            for dirpath, _, names in os.walk(root):
                rel = os.path.relpath(dirpath, root)
                prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
                found.update(prefix + n for n in names if not _is_temporary(n))
            return found
        fs = self.filesystem()
        root = self.path.rstrip("/")
        try:
            paths = fs.find(root)
        except FileNotFoundError:
            return found
        for path in paths:
            rel = path.lstrip("/")[len(root.lstrip("/")):].lstrip("/")
            if rel and not _is_temporary(rel.rsplit("/", 1)[-1]):
                found.add(rel)
        return found

    def remove(self, relative: str) -> None:
        """Delete ``relative`` (missing is fine)."""
        try:
            if self.local:
                os.unlink(self.location(relative))
            else:
                self.filesystem().rm_file(self.location(relative))
        except FileNotFoundError:
            pass

    def remove_temporaries(self) -> int:
        """Delete temporary files an interrupted run left (URL targets); returns how many."""
        if self.local:
            return 0
        fs, removed = self.filesystem(), 0
        try:
            paths = fs.find(self.path)
        except FileNotFoundError:
            return 0
        for path in paths:
            if _is_temporary(path.rsplit("/", 1)[-1]):
                fs.rm_file(path)
                removed += 1
        return removed
