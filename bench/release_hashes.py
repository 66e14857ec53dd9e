"""Write ``paintkit/verify/release_hashes.json``: the content hashes of every problem of the
default PaintBench and TinyGrafixBench trees, the list ``paintkit verify BENCHMARK_DIR``
checks a copy against (see :mod:`paintkit.verify.release`).

    python bench/release_hashes.py            # generate both trees, say what would change
    python bench/release_hashes.py --write    # and rewrite the list

It runs ``paintkit generate paintbench`` and ``paintkit generate tinygrafixbench`` into a
temporary folder (or ``--trees DIR``, kept: ``DIR/paintbench``, ``DIR/tinygrafixbench``),
about a minute on two cores. Like ``tests/tasks/pinned.py --update``, ``--write`` refuses to
change hashes under an unchanged version: bump ``paintkit/_version.py`` and say what changed
in CHANGELOG.md first.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from paintkit import __version__
from paintkit.cli.main import main as paintkit_main
from paintkit.verify.release import RELEASE_FILE, release_document, write_document

#: (benchmark folder, the ``paintkit generate`` suite that writes it)
TREES = (("PaintBench", "paintbench"), ("TinyGrafixBench", "tinygrafixbench"))


def generate(folder: Path, jobs: int | None) -> list[tuple[str, Path]]:
    trees = []
    for name, suite in TREES:
        out = folder / suite
        argv = ["generate", suite, "--out", str(out), "--quiet"]
        if jobs:
            argv += ["--jobs", str(jobs)]
        if paintkit_main(argv) != 0:
            raise SystemExit(f"paintkit generate {suite} failed")
        trees.append((name, out))
    return trees


def changed_problems(old: dict, new: dict) -> list[str]:
    out = []
    for name, entry in new["benchmarks"].items():
        before = old.get("benchmarks", {}).get(name, {}).get("problems", {})
        out += [f"{name}/{k}" for k, v in entry["problems"].items() if before.get(k) != v]
        out += [f"{name}/{k} (gone)" for k in before if k not in entry["problems"]]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the shipped list")
    parser.add_argument("--trees", type=Path, help="generate into (or reuse) this folder")
    parser.add_argument("--jobs", type=int, help="generate workers (default: one per core)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="paintkit-release-") as scratch:
        trees = generate(args.trees or Path(scratch), args.jobs)
        new = release_document(trees, __version__)
    old = json.loads(RELEASE_FILE.read_text()) if RELEASE_FILE.exists() else {}
    changed = changed_problems(old, new)
    total = sum(len(e["problems"]) for e in new["benchmarks"].values())
    print(f"{len(changed)} of {total} problems differ from {RELEASE_FILE.name}")
    for line in changed[:20]:
        print(f"  {line}")
    if not args.write:
        return 1 if changed or old.get("paintkit_version") != __version__ else 0
    if changed and old.get("benchmarks") and old.get("paintkit_version") == __version__:
        print(f"refusing: hashes changed but the version is still {__version__}; bump "
              "paintkit/_version.py and add a CHANGELOG.md entry first", file=sys.stderr)
        return 1
    write_document(new, RELEASE_FILE)
    print(f"wrote {RELEASE_FILE} (version {__version__}, {RELEASE_FILE.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
