"""Why a local model did not load, in one line, and what to do; and how long a CPU run takes.

diffusers and transformers raise long messages that end "check the stacktrace above" (which
``paintkit run`` does not print). :func:`load_failure` walks the exception and its causes and
names the one thing a user can act on: no access to the hub and no local copy, a repository
that does not exist or is gated, weights missing from a folder, a Python package missing.

:func:`cpu_estimate` turns the first batch's time into an estimate of the whole run, so a
diffusers model on a CPU says "about 31 h" after its first batch instead of running for a day.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

#: A CPU run estimated at more than this many seconds is warned about.
CPU_WARN_SECONDS = 30 * 60

#: Library log lines silenced while a pipeline class is looked up and loaded, as (logger,
#: text in the message): each says nothing a paintkit user can act on.
QUIET_WHILE_LOADING = (
    # transformers 5 without torchvision: CLIP's and Siglip's image processors fall back to
    # their PIL twins, which work (the pipelines whose processors need torchvision fail,
    # and paintkit names torchvision then)
    ("transformers.utils.import_utils", "requires torchvision (not installed); falling back"),
    # diffusers tries the local cache next; if that fails too, load_failure says why
    ("diffusers.pipelines.pipeline_utils", "Couldn't connect to the Hub"),
)
#: Exception classes (by name) of a hub that cannot be reached: huggingface_hub's, httpx's,
#: requests'.
_UNREACHABLE = ("LocalEntryNotFoundError", "OfflineModeIsEnabled", "ConnectError",
                "ConnectTimeout", "NetworkError", "ConnectionError", "Timeout", "ReadTimeout")


class _Drop(logging.Filter):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


@contextmanager
def quiet_loading() -> Iterator[None]:
    """Silence the lines of :data:`QUIET_WHILE_LOADING` (and nothing else) inside."""
    added = [(logging.getLogger(name), _Drop(text)) for name, text in QUIET_WHILE_LOADING]
    for logger, drop in added:
        logger.addFilter(drop)
    try:
        yield
    finally:
        for logger, drop in added:
            logger.removeFilter(drop)


def offline_without_copy(repo: str, revision: str | None = None) -> str | None:
    """The one-line failure of a hub model that cannot load because ``HF_HUB_OFFLINE`` is
    set and the hub cache holds no copy, found before torch and diffusers are imported
    (seconds instead of a failed load); None when it may load."""
    if os.path.exists(repo) or os.environ.get("HF_HUB_OFFLINE", "").lower() in (
            "", "0", "false", "no", "off"):
        return None
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        return None
    try:
        snapshot_download(repo, revision=revision, local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - any failure to find a copy is the answer
        return load_failure(exc, repo, revision)
    return None


def _chain(exc: BaseException | None) -> list[BaseException]:
    """``exc`` and its causes / contexts, outermost first (each once)."""
    seen: list[BaseException] = []
    while exc is not None and exc not in seen:
        seen.append(exc)
        exc = exc.__cause__ or exc.__context__
    return seen


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


def load_failure(exc: BaseException, repo: str, revision: str | None = None) -> str:
    """One line: why ``repo`` did not load and what to do (no traceback needed)."""
    where = f"{repo}" + (f" (revision {revision})" if revision else "")
    local = os.path.exists(repo)
    for e in _chain(exc):
        kind = type(e).__name__
        text = str(e)
        if isinstance(e, ModuleNotFoundError | ImportError) and not local:
            name = getattr(e, "name", None) or text.split("'")[1 if "'" in text else 0]
            return (f"{where}: loading needs the Python package {name!r}, which is not "
                    f"installed: pip install 'paintkit[run]' (or pip install {name})")
        if isinstance(e, ModuleNotFoundError | ImportError):
            name = getattr(e, "name", None) or text
            return (f"{where}: loading needs the Python package {name!r}: "
                    f"pip install 'paintkit[run]' (or pip install {name})")
        if kind in ("GatedRepoError",):
            return (f"{where} is gated: accept its licence on huggingface.co, then "
                    "'huggingface-cli login' (or set HF_TOKEN)")
        if kind in ("RepositoryNotFoundError", "RevisionNotFoundError"):
            return (f"{where}: no such repository or revision on the Hugging Face Hub (or it "
                    "is private: 'huggingface-cli login'); check --model, --weights and "
                    "--revision")
        if kind in _UNREACHABLE or isinstance(e, ConnectionError) or \
                "not fully cached locally" in text or \
                "offline" in text.lower() and "hub" in text.lower():
            offline = os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0")
            why = "HF_HUB_OFFLINE is set" if offline else "the Hugging Face Hub is unreachable"
            return (f"{where}: no local copy, and {why}: download it once where the hub is "
                    f"reachable (huggingface-cli download {repo}), or pass --weights FOLDER "
                    "with a downloaded copy")
        if kind == "EntryNotFoundError" or (isinstance(e, OSError) and (
                "does not appear to have" in text or "no file named" in text.lower())):
            return (f"{where}: weights are missing ({_first_line(e)}); pass --weights FOLDER "
                    "holding the complete model (model_index.json and every component)")
    return f"{where}: loading failed: {_first_line(exc)}"


def cpu_estimate(name: str, seconds: float, done: int, remaining: int | None) -> str | None:
    """A warning line when ``remaining`` problems at the first batch's pace (``seconds`` for
    ``done`` problems) take longer than :data:`CPU_WARN_SECONDS`; None otherwise."""
    if done < 1 or not remaining or seconds <= 0:
        return None
    total = seconds / done * remaining
    if total <= CPU_WARN_SECONDS:
        return None
    span = f"{total / 3600:.1f} h" if total >= 3600 else f"{total / 60:.0f} min"
    return (f"{name} runs on the CPU: {seconds / done:.0f} s per problem in the first batch, "
            f"about {span} for the {remaining:,} problems left; use a GPU (--device cuda), "
            "or --limit N to try a few problems first (Ctrl-C keeps what is written)")
