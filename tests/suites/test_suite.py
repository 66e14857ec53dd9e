"""Suites: PaintBench shape, order, even mode split, continuation, names, serialisation."""

from collections import Counter

import pytest

from paintkit.conditions import CONDITIONS
from paintkit.suites import Suite, resolve_modes
from paintkit.tasks import TASKS, task_spec

FEW = ("translation", "removal", "recolor", "scaling")


def test_paintbench_is_2016_problems_with_even_mode_split():
    suite = Suite()
    assert len(suite) == 1920 + 96 and suite.has_preservation
    folders = Counter(spec.folder for spec in suite.specs())
    assert folders == {name: 96 for name in (*TASKS, "preservation")}
    _check_even_split(suite)


@pytest.mark.parametrize("per_cell", [12, 5])
def test_modes_split_evenly_within_each_cell(per_cell):
    _check_even_split(Suite(tasks=TASKS, per_cell=per_cell, preservation=False))


def _check_even_split(suite):
    cells: dict = {}
    for spec in suite.specs():
        cells.setdefault((spec.folder, spec.condition), []).append(spec)
    assert len(cells) == len(suite.folders()) * len(suite.conditions)
    for (folder, _condition), specs in cells.items():
        assert len(specs) == suite.per_cell
        modes = suite.task_modes(specs[0].task)
        counts = Counter(s.mode for s in specs)
        assert max(counts.values()) - min(counts.get(m, 0) for m in modes) <= 1, (folder, counts)
        if suite.per_cell % len(modes) == 0:
            assert set(counts.values()) == {suite.per_cell // len(modes)}
        for mode in modes:  # per-mode slots are 0, 1, 2, ... without gaps
            slots = sorted(s.slot for s in specs if s.mode == mode)
            assert slots == list(range(len(slots)))


def test_order_is_task_then_condition_then_position_and_ids_unique():
    suite = Suite(tasks=FEW, per_cell=3, conditions=("striped", "baseline"))
    specs = list(suite.specs())
    assert [s.index for s in specs] == list(range(len(suite)))
    assert [s.folder for s in specs[:6]] == [FEW[0]] * 6
    assert [s.condition for s in specs[:6]] == ["striped"] * 3 + ["baseline"] * 3
    assert [s.idx for s in specs[:6]] == list(range(6))
    assert specs[0].stem == "000"
    assert len({s.problem_id for s in specs}) == len(specs)
    assert all("." not in s.problem_id and "/" not in s.problem_id for s in specs)
    with pytest.raises(IndexError):
        suite.spec(len(suite))


def test_preservation_follows_removal_order():
    suite = Suite(tasks=("removal",), per_cell=2)
    specs = list(suite.specs())
    removal, preservation = specs[: suite.block], specs[suite.block:]
    assert [s.folder for s in preservation] == ["preservation"] * suite.block
    assert [(s.condition, s.mode, s.slot, s.idx) for s in preservation] == \
        [(s.condition, s.mode, s.slot, s.idx) for s in removal]
    assert len(Suite(tasks=("removal",), per_cell=2, preservation=False)) == suite.block


def test_start_slot_continues_a_corpus():
    def cells(suite):
        return {(s.task, s.condition, s.mode, s.slot) for s in suite.specs()}

    first = Suite(tasks=FEW, per_cell=4, namespace="corpus", preservation=False)
    more = Suite(tasks=FEW, per_cell=4, start_slot=4, namespace="corpus", preservation=False)
    whole = Suite(tasks=FEW, per_cell=8, namespace="corpus", preservation=False)
    assert cells(first) | cells(more) == cells(whole)
    assert not cells(first) & cells(more)


def test_round_r_continues_like_start_slot():
    suite = Suite(tasks=FEW[:1], per_cell=3)
    shifted = Suite(tasks=FEW[:1], per_cell=3, start_slot=3)
    assert [(s.mode, s.slot) for s in (suite.spec(i, 1) for i in range(len(suite)))] == \
        [(s.mode, s.slot) for s in shifted.specs()]


@pytest.mark.parametrize("kwargs, message", [
    ({"tasks": ("translate",)}, "unknown task 'translate'; allowed: translation"),
    ({"conditions": ("sunny",)}, "unknown visual condition 'sunny'; allowed: baseline"),
    ({"tasks": ()}, "at least one task"),
    ({"per_cell": 0}, "per_cell must be an int >= 1"),
    ({"start_slot": -1}, "start_slot must be an int >= 0"),
    ({"namespace": "a-b"}, "namespace must be"),
    ({"benchmark": "a/b"}, "benchmark must be a folder name"),
    ({"modes": ("nope",)}, "no task of this suite has mode 'nope'; allowed: translation:amount"),
])
def test_bad_names_list_allowed_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Suite(**{"tasks": ("translation",), **kwargs})


def test_mode_selection():
    tasks = FEW
    first = {t: task_spec(t).modes for t in tasks}
    picked = resolve_modes(tasks, [f"{tasks[0]}:{first[tasks[0]][-1]}"])
    assert picked[tasks[0]] == (first[tasks[0]][-1],)
    assert all(picked[t] == first[t] for t in tasks[1:])
    bare = first[tasks[0]][0]
    for task, modes in resolve_modes(tasks, [bare]).items():
        assert modes == ((bare,) if bare in first[task] else first[task])


def test_dict_round_trip_and_comma_strings():
    suite = Suite(tasks="translation, " + FEW[-1], conditions="baseline,n_med", per_cell=3,
                  namespace="x1", size=(512, 384), counts={"default": (4, 5, 6, 7)}, start_slot=2)
    assert suite.tasks == ("translation", FEW[-1])
    again = Suite.from_dict(suite.to_dict())
    assert again.to_dict() == suite.to_dict()
    assert [s.problem_id for s in again.specs()] == [s.problem_id for s in suite.specs()]
    assert Suite(tasks=("translation",)).to_dict()["conditions"] == list(CONDITIONS)
