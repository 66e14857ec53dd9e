"""``problem_id`` -> a problem's input and answer, from a tree or shards ``paintkit generate``
wrote: the index the reward adapters and the reward service look problems up in."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from paintkit.loader import load

if TYPE_CHECKING:
    from paintkit.types import PathLike

__all__ = ["ProblemIndex"]


class ProblemIndex:
    """``problem_id`` -> ``(input, answer)`` of the problems ``paintkit generate`` wrote under
    ``root``, opened with :func:`paintkit.load` (scanned once, on first use): a benchmark
    tree (``<task>/<NNN>.json`` beside ``<NNN>_input.png`` and ``<NNN>_answer.png``, see
    docs/file-layout.md) gives the two file paths; a folder of ``shard-*.tar`` /
    ``shard-*.parquet`` shards gives the two images, uint8 ``(H, W, 3)``, decoded on each
    call (the callers' target cache keeps what they prepare from them).

    A problem file that cannot be read (truncated, not JSON) costs only its own problem:
    every other one is served, the file is listed in :attr:`damaged` (by its path under
    ``root``) and named in the error of a key of its task that is not found, and it is read
    again then (a file rewritten since is found). ``label`` is how errors name ``root``
    (the service says "the --benchmarks tree", never where the tree lives)."""

    def __init__(self, root: PathLike, label: str | None = None) -> None:
        self.root = Path(root)
        self.label = str(self.root) if label is None else label
        self._found: dict[str, Any] | None = None
        self._damaged: dict[str, tuple[Any, str]] = {}
        self._lock = threading.Lock()

    def scan(self) -> int:
        """Index ``root`` now (else on the first look-up); the number of problems found."""
        with self._lock:
            if self._found is None:
                self._found = self._scan()
            return len(self._found)

    @property
    def damaged(self) -> dict[str, str]:
        """``{path under root: why}`` of the problem files that could not be read (empty
        before the first look-up)."""
        with self._lock:
            return {name: why for name, (_, why) in self._damaged.items()}

    def _read(self, item: Any, found: dict[str, Any]) -> None:
        """Index ``item`` by its ``problem_id``, or list its file as damaged."""
        try:
            pid = cast(dict, item.metadata).get("problem_id")  # benchmark, shard items have it
        except (OSError, ValueError) as exc:
            path = item.problem.metadata_path if item.problem is not None else None
            name = item.key if path is None else path.relative_to(self.root).as_posix()
            why = " ".join(str(exc).split()).replace(f"{path}: ", "")
            self._damaged[name] = (item, why)
            return
        if pid is not None:
            found[str(pid)] = item

    def _scan(self) -> dict[str, Any]:
        loaded = load(self.root)
        if loaded.kind == "outputs":
            raise ValueError(f"{self.label}: a model-outputs tree; the reward needs the "
                             "benchmark folder (or its shards)")
        found: dict[str, Any] = {}
        for item in loaded:
            self._read(item, found)
        return found

    def _reread(self) -> None:
        """Read the damaged files once more (one rewritten since is indexed)."""
        for name, (item, _) in list(self._damaged.items()):
            del self._damaged[name]
            self._read(item, cast(dict, self._found))

    def _missing(self, problem_id: str) -> str:
        """The error of a ``problem_id`` not found, naming the damaged files of its task."""
        task = problem_id.split("-")[1] if problem_id.count("-") >= 4 else None
        suspects = [f"{name} ({why})" for name, (item, why) in self._damaged.items()
                    if item.task == task]
        text = f"problem_id {problem_id!r}: not found under {self.label} " \
               f"({len(cast(dict, self._found))} problems indexed"
        if suspects:
            return f"{text}); it may be in a damaged problem file of its task: " \
                   f"{'; '.join(suspects[:3])}" + (f" and {len(suspects) - 3} more"
                                                    if len(suspects) > 3 else "")
        if self._damaged:
            text += f", {len(self._damaged)} damaged problem files skipped"
        return text + ")"

    def paths(self, problem_id: object) -> tuple[Any, Any]:
        """``(input, answer)`` of ``problem_id``: two paths (a tree) or two arrays (shards).

        Raises:
            ValueError: no such problem under ``root``, or ``root`` is no benchmark tree or
                shard folder (one line naming it).
        """
        with self._lock:
            if self._found is None:
                self._found = self._scan()
            item = self._found.get(str(problem_id))
            if item is None and self._damaged:
                self._reread()
                item = self._found.get(str(problem_id))
            if item is None:
                raise ValueError(self._missing(str(problem_id)))
        if item.problem is not None:
            return str(item.problem.input_path), str(item.problem.answer_path)
        return item.input, item.answer
