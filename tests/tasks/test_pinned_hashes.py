"""Pinned bytes: one benchmark problem per (task, mode, condition) hashes to the committed
table, so no change to the benchmark's bytes goes unnoticed (see ``pinned.py``)."""

from pinned import UPDATE_COMMAND, key, load_table, pinned_cells

from paintkit import __version__

TABLE = load_table()


def test_table_covers_every_task_mode_and_condition():
    missing = [key(*cell) for cell in pinned_cells() if key(*cell) not in TABLE["problems"]]
    assert not missing, f"{len(missing)} cells are not pinned ({missing[:5]} ...); run {UPDATE_COMMAND}"


def test_table_is_of_this_version():
    assert TABLE["version"] == __version__, (
        f"the pinned table is of version {TABLE['version']}, paintkit is {__version__}; run "
        f"{UPDATE_COMMAND} after checking CHANGELOG.md says what changed")


def test_bytes_match_the_pinned_table(task, mode, condition, grid_facts):
    expected = TABLE["problems"].get(key(task, mode, condition))
    got = grid_facts(task, mode, condition).hashes
    changed = [part for part in ("input", "answer", "metadata")
               if expected is None or expected[part] != got[part]]
    assert not changed, (
        f"{key(task, mode, condition)}: {', '.join(changed)} bytes differ from the pinned table "
        f"(tests/tasks/pinned_hashes.json). The benchmark's bytes are part of its identity. If "
        f"the change is intended: bump paintkit/_version.py, describe it in CHANGELOG.md and "
        f"run `{UPDATE_COMMAND}`; otherwise find what changed the order of random draws, the "
        f"rendering or the wording.")
