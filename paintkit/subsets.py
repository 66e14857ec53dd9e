"""Balanced subsets (the ``paintkit subset`` command, docs/subsets.md): pick ``n`` problems of
any suite spread evenly over difficulty levels.

Each problem gets three difficulty factors from its JSON metadata:

- ``objects``: shapes in its input ``scene`` (``low`` / ``mid`` / ``high``: terciles of the
  pool, so each level holds about a third of the pool's problems);
- ``edit``: edited share of the canvas, ``edit_pixels / (W * H)`` (terciles, as above);
- ``steps``: edits asked for (``len(params.steps)`` for compositional problems, else 1).

Problems with equal factors form a *cell*. The sampler visits the cells round-robin in a
seeded order and takes the next problem of each cell (its problems also in a seeded order)
until ``n`` are taken, so cells contribute as equally as their sizes allow; every level of
every factor therefore gets as even a share as the cells allow (VisBench samples its groups
the same way). A factor with a single level in the pool adds nothing. Same pool, ``n`` and
seed: same subset.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from paintkit.arguments import check_int
from paintkit.layout.benchmark import read_metadata_file
from paintkit.layout.problem_files import metadata_files, metadata_name, parse_problem_file
from paintkit.layout.release_list import read_release
from paintkit.seeds import python_rng, seed_from_key

FACTORS: tuple[str, ...] = ("objects", "edit", "steps")
LEVELS = ("low", "mid", "high")


@dataclass(frozen=True)
class Item:
    """One problem of the pool: its ``key`` (problem id or path) and raw difficulty values."""

    key: str
    objects: int
    edit: float
    steps: int


def item_of(key: str, meta: Mapping) -> Item:
    """The difficulty values of a problem's metadata.

    Raises:
        ValueError: the metadata lacks ``scene`` or ``edit_pixels``/``W``/``H`` (names them).
    """
    missing = [k for k in ("scene", "edit_pixels", "W", "H") if k not in meta]
    if missing:
        raise ValueError(f"problem {key}: metadata lacks {', '.join(missing)}; balanced subsets "
                         "need the scene and the edit size (PaintBench, compositional, guidance)")

    def wrong(field: str, wanted: str) -> ValueError:
        value = meta[field]
        return ValueError(f"problem {key}: {field!r} must be {wanted}, got {value!r:.60} "
                          f"({type(value).__name__})")

    for side in ("W", "H"):
        if isinstance(meta[side], bool) or not isinstance(meta[side], int) or meta[side] < 1:
            raise wrong(side, "a positive integer")
    edit_pixels = meta["edit_pixels"]
    if isinstance(edit_pixels, bool) or not isinstance(edit_pixels, int | float) \
            or not 0 <= edit_pixels < float("inf"):
        raise wrong("edit_pixels", "a number of pixels >= 0")
    scene = meta["scene"]
    elements = scene.get("elements", []) if isinstance(scene, dict) else None
    if not isinstance(elements, list):
        raise wrong("scene", "an object with a list of 'elements'")
    for element in elements:
        if not isinstance(element, dict):
            raise ValueError(f"problem {key}: each of 'scene.elements' must be an object, got "
                             f"{element!r:.60} ({type(element).__name__})")
    objects = sum(1 for e in elements if e.get("kind") == "shape")
    params = meta.get("params", {})
    if not isinstance(params, dict):
        raise wrong("params", "an object")
    steps = params.get("steps")
    if steps is not None and not isinstance(steps, list):
        raise ValueError(f"problem {key}: 'params.steps' must be a list of edits, got "
                         f"{steps!r:.60} ({type(steps).__name__})")
    return Item(key, objects, edit_pixels / (meta["W"] * meta["H"]),
                len(steps) if steps is not None else 1)


def _tercile_levels(values: Sequence[float]) -> list[str]:
    """``low``/``mid``/``high`` by rank: the i-th smallest of n gets level ``3 i // n``
    (ties broken by position, so equal values may straddle a boundary)."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    out = [""] * len(values)
    for rank, i in enumerate(order):
        out[i] = LEVELS[3 * rank // len(values)]
    return out


def levels(items: Sequence[Item]) -> list[dict[str, str]]:
    """Each item's level per factor (``steps`` keeps its value, as ``"2"``...)."""
    objects = _tercile_levels([it.objects for it in items])
    edit = _tercile_levels([it.edit for it in items])
    return [{"objects": o, "edit": e, "steps": str(it.steps)}
            for it, o, e in zip(items, objects, edit, strict=True)]


def balanced_subset(items: Sequence[Item], n: int, seed: int = 0,
                    factors: Iterable[str] = FACTORS) -> list[Item]:
    """``n`` items balanced over ``factors`` (see the module docstring), in pick order.

    Raises:
        ValueError: ``n`` outside ``[0, len(items)]``, an unknown factor, repeated keys.
    """
    factors = tuple(factors)
    for f in factors:
        if f not in FACTORS:
            raise ValueError(f"unknown factor {f!r}; allowed: {', '.join(FACTORS)}")
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(items):
        raise ValueError(f"n must be an int in [0, {len(items)}] (the pool's size), got {n!r}")
    seed = check_int(seed, "seed")
    keys = [it.key for it in items]
    if len(set(keys)) != len(keys):
        raise ValueError("problem keys must be unique")
    cells: dict[tuple[str, ...], list[Item]] = {}
    for it, lv in zip(items, levels(items), strict=True):
        cells.setdefault(tuple(lv[f] for f in factors), []).append(it)
    rng: random.Random = python_rng(seed_from_key("balanced", seed))
    order = sorted(cells)
    rng.shuffle(order)
    queues = []
    for cell in order:
        members = sorted(cells[cell], key=lambda it: it.key)
        rng.shuffle(members)
        queues.append(members)
    picked: list[Item] = []
    depth = 0
    while len(picked) < n:
        for queue in queues:
            if depth < len(queue) and len(picked) < n:
                picked.append(queue[depth])
        depth += 1
    return picked


def load_pool(benchmark_root) -> list[Item]:
    """Every problem JSON under a generated folder (``<root>/<Benchmark>/<task>/NNN.json``),
    keyed by its path relative to ``root`` without ``.json``."""
    root = Path(benchmark_root)
    paths = metadata_files(root)
    if not paths:
        raise ValueError(f"{root}: no problem JSON files ({metadata_name('NNN')}) found")
    items = []
    for p in paths:
        meta = _read_problem(p)
        try:
            items.append(item_of(str(p.relative_to(root).with_name(parse_problem_file(p.name)[0])),
                                 meta))
        except ValueError as exc:
            raise ValueError(f"{p}: {exc}") from None
    return items


def _read_problem(path: Path) -> dict:
    """The one checked reader of a problem's JSON (eval and explain read it the same way)."""
    return read_metadata_file(path)


# -- reading a subset back (``--subset FILE`` of eval, run, stats and report) ---------------
#: What a subset key names: ``(benchmark or None, task folder, NNN as an int)``.
SubsetKey = tuple[str | None, str, int]
#: What ``subset=`` of the verbs takes: a :class:`Subset` or the path of a ``subset.json``.
SubsetLike = Union["Subset", str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Subset:
    """The problems a ``subset.json`` of ``paintkit subset`` lists (:func:`read_subset`).

    ``keys`` are ``(benchmark, task, idx)``; the benchmark is None when the subset was picked
    from one benchmark folder (its keys are ``<task>/NNN``) and then matches any benchmark.
    ``pool``: how many problems it was picked from.
    """

    path: str
    keys: frozenset[SubsetKey]
    pool: int

    def __len__(self) -> int:
        return len(self.keys)

    def holds(self, benchmark: str, task: str, idx: int) -> bool:
        """Whether problem ``idx`` of ``<benchmark>/<task>`` is in the subset."""
        return (benchmark, task, idx) in self.keys or (None, task, idx) in self.keys

    def select(self, problems: Iterable) -> list:
        """The items of ``problems`` (anything with ``benchmark``, ``task`` and ``idx``) in
        the subset, in their order."""
        return [p for p in problems if self.holds(p.benchmark, p.task, int(p.idx))]

    def select_rows(self, rows: Iterable[Mapping]) -> list:
        """The results rows (``benchmark``, ``task``, ``idx`` keys) of problems in the subset."""
        return [r for r in rows if self.holds(r["benchmark"], r["task"], int(r["idx"]))]

    def missing(self, problems: Iterable) -> int:
        """How many of the subset's problems are not among ``problems``."""
        found = {(p.benchmark, p.task, int(p.idx)) for p in problems}
        found |= {(None, task, idx) for _, task, idx in found}
        return sum(1 for key in self.keys if key not in found)

    def scope(self) -> dict:
        """``{"file", "problems", "of"}``: what results files record of it."""
        return {"file": self.path, "problems": len(self), "of": self.pool}

    def describe(self) -> str:
        """One line: ``subset subset.json: 60 of 2,016 problems``."""
        return describe_scope(self.scope())


def describe_scope(scope: Mapping) -> str:
    """The one line every leaderboard and report shows for a subset's results."""
    if scope.get("file") is None:  # a smaller tree of a released benchmark (release_scope)
        return (f"part of {scope.get('benchmark')}: {scope.get('problems', 0):,} of its "
                f"{scope.get('of', 0):,} problems")
    return (f"subset {scope.get('file')}: {scope.get('problems', 0):,} of "
            f"{scope.get('of', 0):,} problems")


def release_scope(benchmarks_root: str | os.PathLike[str]) -> dict | None:
    """``{"file": None, "benchmark", "problems", "of"}`` when the tree at ``benchmarks_root``
    holds fewer of a released benchmark's problems than the release does (made with
    ``--per-cell``, ``--tasks`` or ``--conditions`` in the release's own seed namespace, as
    its ``manifest.json`` says); None for a whole release, another namespace or no manifest."""
    import json


    root = Path(benchmarks_root)
    manifest = next((f / "manifest.json" for f in (root, root.parent)
                     if (f / "manifest.json").is_file()), None)
    if manifest is None:
        return None
    try:
        suite = json.loads(manifest.read_text(encoding="utf-8")).get("suite") or {}
        parts = [suite, *(suite.get("parts") or [])]
    except (OSError, ValueError, AttributeError, TypeError):
        return None
    released = read_release()["benchmarks"]
    found = []
    for part in parts:
        entry = released.get(part.get("benchmark")) if isinstance(part, dict) else None
        if entry is None or part.get("namespace") != entry["suite"].get("namespace"):
            continue
        mine, theirs = part.get("problems"), entry["suite"].get("problems")
        if isinstance(mine, int) and isinstance(theirs, int) and mine < theirs:
            found.append((part["benchmark"], mine, theirs))
    if not found:
        return None
    return {"file": None, "benchmark": ", ".join(b for b, _, _ in found),
            "problems": sum(m for _, m, _ in found), "of": sum(t for _, _, t in found)}


def _subset_key(text: object, path: Path) -> SubsetKey:
    parts = text.split("/") if isinstance(text, str) else []
    if len(parts) not in (2, 3) or not parts[-1].isdigit() or not all(parts):
        raise ValueError(f"{path}: problem key {text!r:.80} is not <Benchmark>/<task>/NNN "
                         "(write the file with 'paintkit subset')")
    bench = parts[0] if len(parts) == 3 else None
    return bench, parts[-2], int(parts[-1])


def read_subset(path: str | os.PathLike[str]) -> Subset:
    """The ``subset.json`` at ``path`` (written by ``paintkit subset``).

    Raises:
        ValueError: the file is not a readable subset (one line naming it and what to do).
    """
    import json

    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the subset ({exc.strerror or exc}); write it "
                         "with 'paintkit subset --output FILE'") from None
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON ({exc}); write it with 'paintkit subset'") from None
    problems = doc.get("problems") if isinstance(doc, dict) else None
    if not isinstance(problems, list) or not all(isinstance(p, dict) for p in problems):
        raise ValueError(f"{path}: not a subset file (no 'problems' list); write it with "
                         "'paintkit subset'")
    keys = frozenset(_subset_key(p.get("key"), path) for p in problems)
    pool = doc.get("pool")
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < len(keys):
        pool = len(keys)
    return Subset(str(path), keys, pool)


def as_subset(value: SubsetLike | None) -> Subset | None:
    """``value`` as a :class:`Subset`: None, a :class:`Subset`, or a ``subset.json`` path."""
    if value is None or isinstance(value, Subset):
        return value
    return read_subset(value)
