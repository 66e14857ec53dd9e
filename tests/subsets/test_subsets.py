"""Balanced subsets: marginal counts per difficulty level, determinism, bad input."""

import json
from collections import Counter
from itertools import product

import pytest

from paintkit.cli.main import main
from paintkit.subsets import Item, balanced_subset, item_of, levels, load_pool


def grid_pool(per_cell: int = 10, thin: dict | None = None) -> list[Item]:
    """3 object levels x 3 edit levels x 2 step counts; ``thin`` shrinks some cells."""
    items = []
    for (o, objects), (e, edit), steps in product(enumerate((3, 6, 9)), enumerate((0.01, 0.05, 0.2)),
                                                  (2, 3)):
        count = (thin or {}).get((o, e, steps), per_cell)
        items += [Item(f"p{o}{e}{steps}-{k}", objects, edit, steps) for k in range(count)]
    return items


def marginals(picked, pool):
    level_of = dict(zip((it.key for it in pool), levels(pool), strict=True))
    return {f: Counter(level_of[it.key][f] for it in picked) for f in ("objects", "edit", "steps")}


@pytest.mark.parametrize("n", [18, 36, 90])
def test_marginals_are_exactly_even_when_cells_allow(n):
    pool = grid_pool()
    picked = balanced_subset(pool, n, seed=3)
    m = marginals(picked, pool)
    assert m["objects"] == {"low": n // 3, "mid": n // 3, "high": n // 3}
    assert m["edit"] == {"low": n // 3, "mid": n // 3, "high": n // 3}
    assert m["steps"] == {"2": n // 2, "3": n // 2}
    assert len({it.key for it in picked}) == n


def test_uneven_n_and_thin_cells_stay_as_even_as_possible():
    pool = grid_pool(thin={(0, 0, 2): 1, (0, 1, 2): 2, (2, 2, 3): 0})
    level_of = dict(zip((it.key for it in pool), levels(pool), strict=True))
    cell_of = {k: (lv["objects"], lv["edit"], lv["steps"]) for k, lv in level_of.items()}
    available = Counter(cell_of.values())
    picked = balanced_subset(pool, 40, seed=1)
    taken = Counter(cell_of[it.key] for it in picked)
    # round robin: a cell short of the common depth gave everything it had
    depth = max(taken.values())
    for cell, have in available.items():
        assert taken[cell] in (depth, depth - 1) or taken[cell] == have, (cell, taken[cell], have)
    pool_steps = Counter(it.steps for it in pool)
    got = Counter(it.steps for it in picked)
    assert abs(got[2] - got[3]) <= 1 < abs(pool_steps[2] - pool_steps[3])


def test_same_seed_same_subset_other_seed_other_order():
    pool = grid_pool()
    a = balanced_subset(pool, 25, seed=7)
    assert a == balanced_subset(list(reversed(pool)), 25, seed=7)  # pool order does not matter
    assert a != balanced_subset(pool, 25, seed=8)
    assert balanced_subset(pool, 0) == [] and len(balanced_subset(pool, len(pool))) == len(pool)


def test_bad_input_is_named():
    pool = grid_pool()
    with pytest.raises(ValueError, match=r"n must be an int in \[0, 180\]"):
        balanced_subset(pool, 181)
    with pytest.raises(ValueError, match="unknown factor 'size'"):
        balanced_subset(pool, 3, factors=("size",))
    with pytest.raises(ValueError, match="lacks edit_pixels"):
        item_of("x", {"scene": {}, "W": 4, "H": 4})


def test_from_problem_json_and_cli(tmp_path, capsys):
    folder = tmp_path / "Bench" / "task"
    folder.mkdir(parents=True)
    for k in range(9):
        meta = {"W": 10, "H": 10, "edit_pixels": 1 + k * 7,
                "scene": {"elements": [{"kind": "shape"}] * (1 + k % 3) + [{"kind": "line"}]},
                "params": {"steps": [{}] * (2 + k % 2)} if k % 3 else {}}
        (folder / f"{k:03d}.json").write_text(json.dumps(meta))
    pool = load_pool(tmp_path)
    assert [it.objects for it in pool] == [1, 2, 3] * 3
    assert [it.steps for it in pool][:3] == [1, 3, 2]
    out = tmp_path / "subset.json"
    assert main(["subset", "--benchmarks", str(tmp_path), "--n", "6", "--factors", "objects",
                 "--output", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert len(doc["problems"]) == 6 and doc["pool"] == 9
    assert doc["marginals"]["objects"] == {"high": 2, "low": 2, "mid": 2}
