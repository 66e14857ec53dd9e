"""The one attempt search (paintkit/attempts.py): first accepted attempt, deterministic,
a clear error when every attempt is rejected, and each caller's seed key unchanged."""

from __future__ import annotations

import json

import pytest

from paintkit.attempts import (
    CHART_ATTEMPTS,
    SLOT_ATTEMPTS,
    AttemptsExhausted,
    Found,
    search_attempts,
)
from paintkit.cli.main import main
from paintkit.errors import RejectedSeed
from paintkit.sampling.condition import condition_scene
from paintkit.seeds import compositional_seed, paintbench_seed, python_rng, seed_from_key
from paintkit.sources import SOURCES, generate, get_source
from paintkit.sources.paintbench import PaintBenchSource
from paintkit.tasks import task_module
from paintkit.tinygrafix.generate import chart_seed


def _reject_below(limit: int):
    seen = []

    def make(seed: int) -> str:
        seen.append(seed)
        if seed < limit:
            raise RejectedSeed(f"seed {seed} is below {limit}")
        return f"problem {seed}"

    return make, seen


def test_the_first_accepted_attempt_wins_and_later_ones_are_not_tried():
    make, seen = _reject_below(103)
    found = search_attempts(lambda a: 100 + a, make, max_attempts=10, what="demo")
    assert found == Found("problem 103", 3, 103)
    assert seen == [100, 101, 102, 103]


def test_the_search_is_a_pure_function_of_its_seeds():
    runs = [search_attempts(lambda a: seed_from_key("demo", 4, a), lambda s: s % 7 == 0 or
                            (_ for _ in ()).throw(RejectedSeed("not a multiple of 7")),
                            max_attempts=SLOT_ATTEMPTS) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    first = next(a for a in range(SLOT_ATTEMPTS) if seed_from_key("demo", 4, a) % 7 == 0)
    assert runs[0].attempt == first and runs[0].seed == seed_from_key("demo", 4, first)


def test_exhaustion_names_the_slot_the_count_and_the_last_reason():
    make, seen = _reject_below(10**9)
    with pytest.raises(AttemptsExhausted) as info:
        search_attempts(lambda a: a, make, max_attempts=5, what="translation/amount/baseline slot 3")
    err = info.value
    assert isinstance(err, RuntimeError)  # what the hand-written loops raised
    assert str(err) == ("translation/amount/baseline slot 3: 5 attempts in a row were rejected; "
                        "last reason: seed 4 is below 1000000000")
    assert (err.what, err.attempts, str(err.last)) == ("translation/amount/baseline slot 3", 5,
                                                       "seed 4 is below 1000000000")
    assert seen == [0, 1, 2, 3, 4]


def test_other_errors_are_bugs_and_stop_the_search_at_once():
    calls = []

    def make(seed):
        calls.append(seed)
        raise KeyError("bug")

    with pytest.raises(KeyError):
        search_attempts(lambda a: a, make, max_attempts=50)
    assert calls == [0]


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "3"])
def test_max_attempts_must_be_a_positive_int(bad):
    with pytest.raises(ValueError, match="max_attempts"):
        search_attempts(lambda a: a, lambda s: s, max_attempts=bad)


def test_slot_exhaustion_through_the_generator(monkeypatch):
    import paintkit.tasks.translation as translation

    def never(seed, condition, mode):
        raise RejectedSeed(f"translation seed {seed}: impossible setting")

    monkeypatch.setattr(translation, "generate", never)
    last = paintbench_seed("translation", "baseline", "amount", 3, 6)
    with pytest.raises(AttemptsExhausted) as info:
        PaintBenchSource(max_attempts=7).problem("translation", 3, condition="baseline", mode="amount")
    assert str(info.value) == ("paintbench translation/amount/baseline slot 3: 7 attempts in a row were "
                               f"rejected; last reason: translation seed {last}: impossible setting")


def test_the_limits_of_each_source_are_unchanged():
    limits = {name: get_source(name).max_attempts for name in SOURCES}
    assert limits == {"paintbench": 200, "tinygrafixbench": 100, "guidance": 200,
                      "compositional": 200, "references": 200, "style-transfer": 100}
    assert (SLOT_ATTEMPTS, CHART_ATTEMPTS) == (200, 100)


# -- each caller's per-attempt seed is exactly the key it used before ----------------------

def _earlier_attempts_rejected(seeds, make) -> bool:
    for seed in seeds:
        try:
            make(seed)
        except RejectedSeed:
            continue
        return False
    return True


def test_slot_seeds():
    p = generate("reflection", 1, "n_xhigh", None, namespace="demo")
    m = p.metadata
    assert m["attempt"] >= 1  # this slot's attempt 0 is rejected: the search moved on
    assert m["seed"] == paintbench_seed("reflection", "n_xhigh", m["mode"], 1, m["attempt"],
                                        namespace="demo")
    seeds = [paintbench_seed("reflection", "n_xhigh", m["mode"], 1, a, namespace="demo")
             for a in range(m["attempt"])]
    module = task_module("reflection")
    assert _earlier_attempts_rejected(seeds, lambda s: module.generate(s, "n_xhigh", m["mode"]))


def test_chart_seeds():
    m = generate("bar_chart_add_bar", 4, namespace="demo", source="tinygrafixbench").metadata
    assert m["seed"] == chart_seed("bar_chart", "add_bar", 4, m["attempt"], "demo")
    assert m["seed"] == seed_from_key("demo", "bar_chart", "add_bar", 4, m["attempt"])


def test_guided_seeds():
    m = generate("scaling", 1, "baseline", source="guidance").metadata
    assert m["seed"] == seed_from_key("guidance", "guidance", "scaling", "baseline", m["mode"], 1,
                                      m["attempt"])


def test_reference_seeds():
    m = generate("reference_move", 2, "n_med", source="references").metadata
    assert m["seed"] == seed_from_key("references", "references", "reference_move", "n_med",
                                      "default", 2, m["attempt"])


def test_compositional_seeds():
    m = generate("multi_edit", 1, "baseline", "steps2", source="compositional").metadata
    assert m["seed"] == compositional_seed("baseline", 2, 1, m["attempt"])


def test_gallery_seeds(tmp_path):
    assert main(["gallery", "--out", str(tmp_path), "--per-condition", "1",
                 "--conditions", "n_med"]) == 0
    written = json.loads((tmp_path / "n_med" / "000.json").read_text())
    for attempt in range(100):
        try:
            scene = condition_scene(python_rng(seed_from_key("gallery", "n_med", 0, attempt)),
                                    "n_med").scene
        except RejectedSeed:
            continue
        break
    assert written == json.loads(scene.to_json(indent=1))
